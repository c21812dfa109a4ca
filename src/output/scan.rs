//! One pass over the text before any pattern runs: where its sentences are, which builtin
//! patterns could match in each (a pattern matches only where one of its anchor words
//! occurs), and which sentences are hedged. Patterns then run on the few sentences that can
//! hold their claims instead of over the whole text.

use super::claims::Follow;
use once_cell::sync::Lazy;

/// A sentence: `start..end` with surrounding whitespace trimmed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sentence {
    pub start: usize,
    pub end: usize,
    /// Bit `i` set: builtin pattern `i` has an anchor in this sentence (and a second word, if
    /// it needs one).
    pub candidates: u32,
    /// Patterns whose second words occur in this sentence.
    seconds: u32,
    /// Holds a hedge (see `hedges_in`).
    pub hedged: bool,
    /// This sentence's anchors: a range of `Scan::anchors`.
    pub anchors: (u32, u32),
    /// Its hedges: a range of `Scan::hedges`.
    hedges: (u32, u32),
    /// Holds a character that case-insensitive matching takes for an ASCII letter (`ſ` for s,
    /// the Kelvin sign for k): the word scan cannot vouch for it, so every pattern runs there by
    /// capture pass and hedges are found by regex.
    pub exact: bool,
}

/// The text's sentences and where the anchors of builtin patterns are.
pub struct Scan {
    pub sentences: Vec<Sentence>,
    /// (start, patterns) of each anchor occurrence, sentence by sentence.
    anchors: Vec<(usize, u32)>,
    /// Where each hedge phrase is (start, end), sentence by sentence.
    hedges: Vec<(usize, usize)>,
}

impl Scan {
    pub fn new(text: &str) -> Scan {
        let mut scan = Scan {
            sentences: sentences(text),
            anchors: Vec::with_capacity(text.len() / 64 + 4),
            hedges: Vec::new(),
        };
        scan.mark(text);
        scan.mark_exact(text);
        scan
    }

    /// Sentences with a character that folds to an ASCII letter go the exact way.
    fn mark_exact(&mut self, text: &str) {
        let bytes = text.as_bytes();
        // Found by their first bytes: a substring searcher per needle costs more to set up than
        // this pass over an ordinary text.
        let [a, b] = FOLDS_TO_ASCII.map(|n| n.as_bytes()[0]);
        for at in memchr::memchr2_iter(a, b, bytes) {
            if FOLDS_TO_ASCII
                .iter()
                .any(|n| bytes[at..].starts_with(n.as_bytes()))
            {
                let idx = self.sentences.partition_point(|s| s.end <= at);
                if let Some(s) = self.sentences.get_mut(idx).filter(|s| s.start <= at) {
                    if s.exact {
                        continue;
                    }
                    s.exact = true;
                    // The regex's hedges replace the word scan's, at the end of the list.
                    let from = self.hedges.len() as u32;
                    self.hedges.extend(
                        hedges(&text[s.start..s.end]).map(|(a, b)| (s.start + a, s.start + b)),
                    );
                    s.hedges = (from, self.hedges.len() as u32);
                    s.hedged = s.hedges.0 < s.hedges.1;
                }
            }
        }
    }

    /// The hedges in sentence `s`: (start, end) of each phrase.
    pub fn hedges_in(&self, s: &Sentence) -> &[(usize, usize)] {
        &self.hedges[s.hedges.0 as usize..s.hedges.1 as usize]
    }

    /// The anchors in sentence `s`: (start, patterns), in text order.
    pub fn anchors_in(&self, s: &Sentence) -> &[(usize, u32)] {
        &self.anchors[s.anchors.0 as usize..s.anchors.1 as usize]
    }

    /// The first anchor of builtin pattern `bit` in `s` at or after `from`, searched from
    /// `*cursor` on (an index into the sentence's anchors, which are in text order). A further
    /// match must contain such an anchor; callers search forward only, so the cursor never goes
    /// back and a long sentence costs one walk over its anchors per pattern.
    pub fn anchor_after(&self, s: &Sentence, bit: u8, from: usize, cursor: &mut usize) -> bool {
        let anchors = &self.anchors[s.anchors.0 as usize..s.anchors.1 as usize];
        while let Some(&(start, patterns)) = anchors.get(*cursor) {
            if start >= from && patterns & (1 << bit) != 0 {
                return true;
            }
            *cursor += 1;
        }
        false
    }

    /// One pass over the words: candidate patterns, anchors and hedges per sentence.
    fn mark(&mut self, text: &str) {
        let words = &*WORDS;
        let bytes = text.as_bytes();
        let mut idx = 0;
        super::letters::Letters::new(bytes).for_each_word(|start, end| {
            // Most words are ruled out by their length and outer letters, before any key.
            if !words.may_hold(bytes, start, end) {
                return;
            }
            if let Some(word) = words.get(key(&bytes[start..end])) {
                while self.sentences.get(idx).is_some_and(|s| s.end <= start) {
                    idx += 1;
                }
                self.add_word(text, idx, (start, end), word);
            }
        });
        for s in &mut self.sentences {
            s.candidates &= s.seconds | words.no_second;
        }
    }

    /// What one anchor, second or hedge word at `start..end` tells about sentence `idx`.
    fn add_word(&mut self, text: &str, idx: usize, (start, end): (usize, usize), word: Word) {
        let Some(s) = self.sentences.get_mut(idx).filter(|s| s.start <= start) else {
            return;
        };
        let patterns = word.patterns(
            text.as_bytes().get(end),
            text.get(end..).unwrap_or_default(),
        );
        s.seconds |= word.second;
        if patterns != 0 {
            if s.anchors.0 == s.anchors.1 {
                s.anchors = (self.anchors.len() as u32, self.anchors.len() as u32);
            }
            self.anchors.push((start, patterns));
            s.anchors.1 += 1;
            s.candidates |= patterns;
        }
        if let Some(span) = word
            .hedge
            .and_then(|h| hedge_span(text, start, end, h, s.end))
        {
            if s.hedges.0 == s.hedges.1 {
                s.hedges = (self.hedges.len() as u32, self.hedges.len() as u32);
            }
            self.hedges.push(span);
            s.hedges.1 += 1;
            s.hedged = true;
        }
    }
}

/// Hedges that make a sentence an opinion or a suggestion rather than an assertion.
pub const HEDGES: [&str; 18] = [
    "might",
    "maybe",
    "perhaps",
    "probably",
    "possibly",
    "i think",
    "i believe",
    "i guess",
    "i suppose",
    "should",
    "would",
    "could",
    "may",
    "want to",
    "you can",
    "consider",
    "try",
    "if",
];

/// A hedge found by one of its words: the phrase is `before` + the word + `after`.
#[derive(Clone, Copy)]
struct Hedge {
    before: &'static str,
    after: &'static str,
}

/// What a word of the text may stand for.
#[derive(Clone, Copy)]
struct Word {
    key: u64,
    /// Bit `i`: builtin pattern `i` has this word as an anchor, followed by whitespace.
    before_ws: u32,
    /// The same, for patterns that need only a word boundary after it.
    before_boundary: u32,
    /// Bit `i`: this word is one of builtin pattern `i`'s second words.
    second: u32,
    hedge: Option<Hedge>,
}

impl Word {
    /// The patterns this occurrence can be part of, by what comes after it: a pattern is ruled
    /// out only where a character that is surely a word character follows (ASCII letters end
    /// the word, so: a digit or `_`); anything non-ASCII keeps every boundary pattern.
    fn patterns(&self, next: Option<&u8>, rest: &str) -> u32 {
        match next {
            None => self.before_boundary,
            Some(b) if b.is_ascii_digit() || *b == b'_' => 0,
            Some(b' ' | b'\t' | b'\n' | b'\r' | 0x0B | 0x0C) => {
                self.before_ws | self.before_boundary
            }
            Some(b) if b.is_ascii() => self.before_boundary,
            Some(_) if rest.starts_with(char::is_whitespace) => {
                self.before_ws | self.before_boundary
            }
            Some(_) => self.before_boundary,
        }
    }
}

/// Words of up to this many letters are looked up; no anchor or hedge word is longer.
const MAX_WORD: usize = 12;
const SLOTS: usize = 256;

/// Each ASCII letter's code, case folded (1 to 26); 0 for every other byte.
static LETTER: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 26 {
        t[b'a' as usize + c] = c as u8 + 1;
        t[b'A' as usize + c] = c as u8 + 1;
        c += 1;
    }
    t
};

/// A word as a number: five bits a letter, case folded (exact for words of up to 12 letters).
fn key(word: &[u8]) -> u64 {
    word.iter()
        .fold(0, |k, b| k << 5 | u64::from(LETTER[*b as usize]))
}

fn slot(key: u64) -> usize {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 54) as usize % SLOTS
}

/// Anchor and hedge words in an open-addressed table, with a quick filter in front: a bit for
/// each (length, first letter, last letter) that some word has, which rules out four words of
/// ordinary prose in five before any key is built.
struct Words {
    table: Vec<Option<Word>>,
    outer: Vec<u64>,
    /// Patterns that need no second word.
    no_second: u32,
}

/// The filter's bit for a word of `len` letters between letter codes `first` and `last`.
fn outer_bit(len: usize, first: u8, last: u8) -> usize {
    (len * 27 + usize::from(first)) * 27 + usize::from(last)
}

/// The same for `word` (letters, at least one).
fn outer_bit_of(word: &[u8]) -> usize {
    let code = |b: &u8| LETTER[usize::from(*b)];
    let (first, last) = (word.first().map_or(0, code), word.last().map_or(0, code));
    outer_bit(word.len(), first, last)
}

impl Words {
    /// Whether the word at `start..end` of `bytes` (letters, at least one) may be in the table.
    fn may_hold(&self, bytes: &[u8], start: usize, end: usize) -> bool {
        let bit = outer_bit_of(&bytes[start..end]);
        end - start <= MAX_WORD && self.outer[bit / 64] >> (bit % 64) & 1 == 1
    }

    fn get(&self, key: u64) -> Option<Word> {
        let mut i = slot(key);
        loop {
            match self.table[i] {
                Some(w) if w.key == key => return Some(w),
                Some(_) => i = (i + 1) % SLOTS,
                None => return None,
            }
        }
    }

    fn add(
        &mut self,
        word: &str,
        (before_ws, before_boundary, second): (u32, u32, u32),
        hedge: Option<Hedge>,
    ) {
        let key = key(word.as_bytes());
        let bit = outer_bit_of(word.as_bytes());
        self.outer[bit / 64] |= 1 << (bit % 64);
        let mut i = slot(key);
        while let Some(w) = &mut self.table[i] {
            if w.key == key {
                w.before_ws |= before_ws;
                w.before_boundary |= before_boundary;
                w.second |= second;
                w.hedge = w.hedge.or(hedge);
                return;
            }
            i = (i + 1) % SLOTS;
        }
        self.table[i] = Some(Word {
            key,
            before_ws,
            before_boundary,
            second,
            hedge,
        });
    }
}

/// The anchor words of every builtin pattern (by the pattern's bit, see `claims::BUILTINS`) and
/// the hedges, each keyed by one of its words.
static WORDS: Lazy<Words> = Lazy::new(|| {
    let mut words = Words {
        table: vec![None; SLOTS],
        // One past the last bit: a word of MAX_WORD letters from z to z.
        outer: vec![0; (outer_bit(MAX_WORD, 26, 26) + 1).div_ceil(64)],
        no_second: 0,
    };
    for (bit, (anchors, follow)) in super::claims::builtin_anchors().enumerate() {
        let masks = match follow {
            Follow::Ws => (1 << bit, 0, 0),
            Follow::Boundary => (0, 1 << bit, 0),
        };
        for a in anchors {
            debug_assert!(a.len() <= MAX_WORD && a.bytes().all(|b| b.is_ascii_lowercase()));
            words.add(a, masks, None);
        }
    }
    for phrase in HEDGES {
        // Keyed by the longest word ("i think" by "think", "want to" by "want").
        let word = phrase.split(' ').max_by_key(|w| w.len()).unwrap_or(phrase);
        let at = phrase.find(word).unwrap_or(0);
        let hedge = Hedge {
            before: &phrase[..at],
            after: &phrase[at + word.len()..],
        };
        words.add(word, (0, 0, 0), Some(hedge));
    }
    for (bit, seconds) in super::claims::builtin_second_words().enumerate() {
        if seconds.is_empty() {
            words.no_second |= 1 << bit;
        }
        for w in seconds {
            words.add(w, (0, 0, 1 << bit), None);
        }
    }
    words
});

/// Sentences: a line break, or `.`/`!`/`?` before whitespace or the end, ends one (so `Node.js`
/// stays whole). Quotes and code fences are no hiding place: they are plain text here.
fn sentences(text: &str) -> Vec<Sentence> {
    let bytes = text.as_bytes();
    // (end of a sentence, start of the next), from either kind of end, merged in text order.
    let mut dots = memchr::memchr3_iter(b'.', b'!', b'?', bytes)
        .filter(|&i| bytes.get(i + 1).is_none_or(|n| n.is_ascii_whitespace()))
        .map(|i| (i + 1, i + 1))
        .peekable();
    let mut lines = memchr::memchr_iter(b'\n', bytes)
        .map(|i| (i, i + 1))
        .peekable();
    // Sized for prose, one sentence per ~40 bytes.
    let mut out = Vec::with_capacity(text.len() / 32 + 4);
    let mut start = 0;
    loop {
        let next = match (dots.peek(), lines.peek()) {
            (Some(d), Some(l)) if l < d => lines.next(),
            (Some(_), _) => dots.next(),
            (None, _) => lines.next(),
        };
        let (end, after) = next.unwrap_or((text.len(), text.len()));
        if end >= start {
            push_trimmed(text, start, end, &mut out);
            start = after;
        }
        if next.is_none() {
            return out;
        }
    }
}

/// The sentence `start..end` without its surrounding whitespace, if more than one byte is left.
fn push_trimmed(text: &str, start: usize, end: usize, out: &mut Vec<Sentence>) {
    let s = &text[start..end];
    let trimmed = s.trim_start();
    let lead = s.len() - trimmed.len();
    let trimmed = trimmed.trim_end();
    if trimmed.len() > 1 {
        out.push(Sentence {
            start: start + lead,
            end: start + lead + trimmed.len(),
            candidates: 0,
            seconds: 0,
            hedged: false,
            anchors: (0, 0),
            hedges: (0, 0),
            exact: false,
        });
    }
}

/// `\w` as the regex crate has it.
fn is_word(c: Option<char>) -> bool {
    c.is_some_and(regex_syntax::is_word_character)
}

/// Characters that `(?i)` matches as an ASCII letter: long s (s) and the Kelvin sign (k).
const FOLDS_TO_ASCII: [&str; 2] = ["\u{17F}", "\u{212A}"];

/// The hedges as one regex, for the sentences the word scan cannot vouch for.
static HEDGE: Lazy<regex::Regex> = Lazy::new(|| {
    regex::Regex::new(&format!(r"(?i)\b(?:{})\b", HEDGES.join("|"))).expect("static regex")
});

/// The hedges of a sentence by regex: any hedge but "could" before " not".
fn hedges(s: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    HEDGE
        .find_iter(s)
        .filter(|m| {
            !(m.as_str().eq_ignore_ascii_case("could")
                && s[m.end()..].to_ascii_lowercase().starts_with(" not"))
        })
        .map(|m| (m.start(), m.end()))
}

/// The hedge phrase around the word at `start..end`, as a whole phrase: where it is. "could"
/// hedges, but "could not find" asserts.
fn hedge_span(
    text: &str,
    start: usize,
    end: usize,
    h: Hedge,
    sentence_end: usize,
) -> Option<(usize, usize)> {
    let (from, to) = (start.checked_sub(h.before.len())?, end + h.after.len());
    // `get` first: the phrase's ends need not fall on character boundaries.
    let (before, after) = (text.get(from..start)?, text.get(end..to)?);
    if !before.eq_ignore_ascii_case(h.before) || !after.eq_ignore_ascii_case(h.after) {
        return None;
    }
    let bounded = !is_word(text[..from].chars().next_back()) && !is_word(text[to..].chars().next());
    let could_not = text[start..end].eq_ignore_ascii_case("could")
        && text[end..sentence_end]
            .get(..4)
            .is_some_and(|s| s.eq_ignore_ascii_case(" not"));
    (bounded && !could_not).then_some((from, to))
}
