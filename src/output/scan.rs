//! One pass over the text before any pattern runs: where its sentences are, which builtin
//! patterns could match in each (a pattern matches only where one of its literal anchors
//! occurs), and which sentences are hedged. Patterns then run on the few sentences that can
//! hold their claims instead of over the whole text.

use aho_corasick::AhoCorasick;
use once_cell::sync::Lazy;

/// A sentence: `start..end` with surrounding whitespace trimmed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sentence {
    pub start: usize,
    pub end: usize,
    /// Bit `i` set: builtin pattern `i` has an anchor in this sentence.
    pub candidates: u32,
    pub hedged: bool,
    /// This sentence's anchors: a range of `Scan::anchors`.
    pub anchors: (u32, u32),
}

/// The text's sentences and where the anchors of builtin patterns are.
pub struct Scan {
    pub sentences: Vec<Sentence>,
    /// (start, patterns) of each anchor occurrence, sentence by sentence.
    anchors: Vec<(usize, u32)>,
}

impl Scan {
    pub fn new(text: &str) -> Scan {
        let mut scan = Scan {
            sentences: sentences(text),
            anchors: Vec::with_capacity(text.len() / 64 + 4),
        };
        scan.mark(text);
        scan
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

    /// One automaton pass: candidate patterns, anchors and hedges per sentence. Matches come in
    /// order of their ends, so sentence by sentence.
    fn mark(&mut self, text: &str) {
        let table = &*ANCHORS;
        let mut idx = 0;
        for m in table.automaton.find_overlapping_iter(text) {
            while self.sentences.get(idx).is_some_and(|s| s.end <= m.start()) {
                idx += 1;
            }
            let Some(s) = self.sentences.get_mut(idx).filter(|s| s.start <= m.start()) else {
                continue;
            };
            let lit = table.literals[m.pattern().as_usize()];
            if lit.patterns != 0 {
                if s.anchors.0 == s.anchors.1 {
                    s.anchors = (self.anchors.len() as u32, self.anchors.len() as u32);
                }
                self.anchors.push((m.start(), lit.patterns));
                s.anchors.1 += 1;
                s.candidates |= lit.patterns;
            }
            if lit.hedge && !s.hedged {
                s.hedged = is_hedge(text, m.start(), m.end(), s.end);
            }
        }
        // Matches came in order of their ends; overlapping ones may start out of order.
        for s in &self.sentences {
            self.anchors[s.anchors.0 as usize..s.anchors.1 as usize].sort_unstable();
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

/// What one literal of the automaton stands for.
#[derive(Clone, Copy)]
struct Literal {
    patterns: u32,
    hedge: bool,
}

struct Anchors {
    automaton: AhoCorasick,
    literals: Vec<Literal>,
}

/// The anchor literals of every builtin pattern, by the pattern's bit (see `claims::BUILTINS`).
static ANCHORS: Lazy<Anchors> = Lazy::new(|| {
    let mut words: Vec<&str> = Vec::new();
    let mut literals: Vec<Literal> = Vec::new();
    let mut add = |word: &'static str, lit: Literal| match words.iter().position(|w| *w == word) {
        Some(i) => {
            literals[i].patterns |= lit.patterns;
            literals[i].hedge |= lit.hedge;
        }
        None => {
            words.push(word);
            literals.push(lit);
        }
    };
    for (bit, anchors) in super::claims::builtin_anchors().enumerate() {
        for a in anchors {
            add(
                a,
                Literal {
                    patterns: 1 << bit,
                    hedge: false,
                },
            );
        }
    }
    for h in HEDGES {
        add(
            h,
            Literal {
                patterns: 0,
                hedge: true,
            },
        );
    }
    let automaton = AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .build(&words)
        .expect("static anchor literals");
    Anchors {
        automaton,
        literals,
    }
});

/// Sentences: a line break, or `.`/`!`/`?` before whitespace or the end, ends one (so `Node.js`
/// stays whole). Quotes and code fences are no hiding place: they are plain text here.
fn sentences(text: &str) -> Vec<Sentence> {
    let bytes = text.as_bytes();
    // (end of a sentence, start of the next); sized for prose, one sentence per ~40 bytes.
    let mut ends: Vec<(usize, usize)> = Vec::with_capacity(text.len() / 32 + 4);
    ends.extend(
        memchr::memchr3_iter(b'.', b'!', b'?', bytes)
            .filter(|&i| bytes.get(i + 1).is_none_or(|n| n.is_ascii_whitespace()))
            .map(|i| (i + 1, i + 1)),
    );
    let ended_by_dot = ends.len();
    ends.extend(memchr::memchr_iter(b'\n', bytes).map(|i| (i, i + 1)));
    if ends.len() > ended_by_dot && ended_by_dot > 0 {
        ends.sort_unstable();
    }
    let mut out = Vec::with_capacity(ends.len() + 1);
    let mut start = 0;
    for (end, next) in ends.into_iter().chain([(text.len(), text.len())]) {
        if end < start {
            continue;
        }
        let s = &text[start..end];
        let trimmed = s.trim_start();
        let lead = s.len() - trimmed.len();
        let trimmed = trimmed.trim_end();
        if trimmed.len() > 1 {
            out.push(Sentence {
                start: start + lead,
                end: start + lead + trimmed.len(),
                candidates: 0,
                hedged: false,
                anchors: (0, 0),
            });
        }
        start = next;
    }
    out
}

fn is_word(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || c == '_')
}

/// A whole-word hedge; "could" hedges, but "could not find" asserts.
fn is_hedge(text: &str, start: usize, end: usize, sentence_end: usize) -> bool {
    let bounded =
        !is_word(text[..start].chars().next_back()) && !is_word(text[end..].chars().next());
    let could_not = text[start..end].eq_ignore_ascii_case("could")
        && text[end..sentence_end]
            .get(..4)
            .is_some_and(|s| s.eq_ignore_ascii_case(" not"));
    bounded && !could_not
}
