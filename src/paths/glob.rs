//! Glob syntax shared by protected entries and shell arguments: `*` (within a segment), `**`
//! (across segments), `?`, classes `[abc]`, `[!a]`, `[a-z]`, and `\` escapes. A glob is compiled
//! to tokens, each consuming one character from a set or looping on a star, so a glob is a small
//! NFA whose state is a token index (see `overlap` for two of them at once).

/// The largest code point: sets are ranges of code points.
const MAX: u32 = char::MAX as u32;
const SLASH: u32 = '/' as u32;

/// One character from a set. A literal keeps its own variant because it is by far the most
/// common token and compares without touching memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CharSet {
    Lit(char),
    /// Sorted, disjoint, inclusive ranges; never contains `/` (a glob class never matches it).
    Ranges(Box<[(u32, u32)]>),
}

/// One glob position: consumes one character of `set`, once or (`repeat`) any number of times.
/// A literal is a one-character set; `?` and classes never take `/`; `*` is every character but
/// `/` repeated; `**` every character repeated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Token {
    pub set: CharSet,
    pub repeat: bool,
    /// A shell wildcard: it does not match a `.` that begins a path segment (bash without
    /// `dotglob`, zsh without `GLOB_DOTS`); only a literal `.` does.
    pub hides_dot: bool,
}

impl Token {
    pub(crate) fn lit(c: char) -> Token {
        Token {
            set: CharSet::Lit(c),
            repeat: false,
            hides_dot: false,
        }
    }

    /// `**` as our own globs use it: any run, dotfiles included.
    pub(crate) fn deep() -> Token {
        Token {
            set: CharSet::any(),
            repeat: true,
            hides_dot: false,
        }
    }

    pub(crate) fn as_lit(&self) -> Option<char> {
        match (&self.set, self.repeat) {
            (CharSet::Lit(c), false) => Some(*c),
            _ => None,
        }
    }

    /// Whether the token can consume `c` when `segment_start` says `c` begins a segment.
    pub(crate) fn takes(&self, c: char, segment_start: bool) -> bool {
        self.set.contains(c) && !(self.hides_dot && segment_start && c == '.')
    }
}

/// How a glob's text is read.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Syntax {
    /// Compare as a case-insensitive filesystem would (basename entries).
    pub fold: bool,
    /// Wildcards follow the shell's leading-dot rule (patterns written in a command).
    pub hide_dots: bool,
}

impl CharSet {
    /// Every character but `/`: what `?` and a step of `*` consume.
    pub(crate) fn not_slash() -> Self {
        CharSet::Ranges(Box::new([(0, SLASH - 1), (SLASH + 1, MAX)]))
    }

    pub(crate) fn any() -> Self {
        CharSet::Ranges(Box::new([(0, MAX)]))
    }

    /// Whether both sets hold a character other than `.` and `/`: the two characters whose
    /// consumption changes what may follow (segment boundaries, hidden names).
    pub(crate) fn meets_other(&self, other: &CharSet) -> bool {
        let plain = |c: char| c != '.' && c != '/';
        match (self, other) {
            (CharSet::Lit(a), CharSet::Lit(b)) => a == b && plain(*a),
            (CharSet::Lit(a), s) | (s, CharSet::Lit(a)) => plain(*a) && s.contains(*a),
            (CharSet::Ranges(a), CharSet::Ranges(b)) => ranges_meet_other(a, b),
        }
    }

    pub(crate) fn contains(&self, c: char) -> bool {
        match self {
            CharSet::Lit(l) => *l == c,
            CharSet::Ranges(r) => r.iter().any(|&(lo, hi)| lo <= c as u32 && c as u32 <= hi),
        }
    }
}

/// Two-pointer walk over sorted disjoint ranges for a common member other than `.` and `/`.
fn ranges_meet_other(a: &[(u32, u32)], b: &[(u32, u32)]) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (lo, hi) = (a[i].0.max(b[j].0), a[i].1.min(b[j].1));
        if lo <= hi {
            let special = ['.' as u32, SLASH]
                .iter()
                .filter(|&&c| lo <= c && c <= hi)
                .count() as u32;
            if hi - lo + 1 > special {
                return true;
            }
        }
        if a[i].1 < b[j].1 {
            i += 1;
        } else {
            j += 1;
        }
    }
    false
}

/// Case folding applied to both sides of a case-insensitive comparison. Only one-to-one
/// lowercase mappings are taken (the Kelvin sign becomes `k`); a character whose lowercase is
/// several characters stays itself, on both sides alike.
pub(crate) fn fold_char(c: char) -> char {
    if c.is_ascii() {
        return c.to_ascii_lowercase();
    }
    let mut lower = c.to_lowercase();
    match (lower.next(), lower.next()) {
        (Some(l), None) => l,
        _ => c,
    }
}

/// Whether `text` holds an unescaped `*`, `?` or a `[` that opens a complete class: what a
/// shell would expand. A `[` without its `]` is an ordinary character, as in bash.
pub(crate) fn has_pattern(text: &str) -> bool {
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 1,
            '*' | '?' => return true,
            '[' if class_end(&chars, i).is_some() => return true,
            _ => {}
        }
        i += 1;
    }
    false
}

/// Index of the `]` closing the class opened at `open`, if any. A `]` right after `[` or
/// `[!` is a member, not the end (POSIX).
fn class_end(chars: &[char], open: usize) -> Option<usize> {
    let mut i = open + 1;
    if matches!(chars.get(i), Some('!' | '^')) {
        i += 1;
    }
    if chars.get(i) == Some(&']') {
        i += 1;
    }
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 1,
            ']' => return Some(i),
            '[' if matches!(chars.get(i + 1), Some(':' | '=' | '.')) => {
                // `[:alpha:]`, `[=e=]`, `[.y.]` inside a class: skip to the closing `:]`, `=]`
                // or `.]` so its `]` does not end the class.
                if let Some(k) = bracket_item_end(chars, i) {
                    i = k;
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Index of the `]` that closes a `[:class:]`, `[=equivalence=]` or `[.collating.]` item
/// opened at `open`.
fn bracket_item_end(chars: &[char], open: usize) -> Option<usize> {
    let kind = *chars.get(open + 1)?;
    (open + 2..chars.len().saturating_sub(1))
        .find(|&k| chars[k] == kind && chars[k + 1] == ']')
        .map(|k| k + 1)
}

/// Compiles glob text. Escapes are always honoured: entries are written by us or the operator,
/// and shell-model paths arrive with quoted metacharacters escaped.
pub(crate) fn parse(text: &str, syntax: Syntax) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::with_capacity(chars.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' if i + 1 < chars.len() => {
                out.push(lit(chars[i + 1], syntax));
                i += 1;
            }
            '*' if chars.get(i + 1) == Some(&'*') => {
                // Any run of stars with two or more is `**`.
                while chars.get(i + 1) == Some(&'*') {
                    i += 1;
                }
                out.push(wild(CharSet::any(), true, syntax));
            }
            '*' => out.push(wild(CharSet::not_slash(), true, syntax)),
            '?' => out.push(wild(CharSet::not_slash(), false, syntax)),
            '[' => match class_end(&chars, i) {
                Some(end) => {
                    out.push(wild(class(&chars[i + 1..end], syntax), false, syntax));
                    i = end;
                }
                None => out.push(lit('[', syntax)),
            },
            _ => out.push(lit(c, syntax)),
        }
        i += 1;
    }
    out
}

fn lit(c: char, syntax: Syntax) -> Token {
    Token::lit(if syntax.fold { fold_char(c) } else { c })
}

fn wild(set: CharSet, repeat: bool, syntax: Syntax) -> Token {
    Token {
        set,
        repeat,
        hides_dot: syntax.hide_dots,
    }
}

/// A class body (between `[` and `]`) as a set of code points without `/`.
fn class(body: &[char], syntax: Syntax) -> CharSet {
    let negated = matches!(body.first(), Some('!' | '^'));
    let items = if negated { &body[1..] } else { body };
    let (mut ranges, posix) = class_items(items);
    if posix || (negated && syntax.fold) {
        // A named class (`[:alpha:]`) is taken as "any character"; so is a negated class
        // under case folding (excluding a letter would need both its cases excluded). Both
        // over-approximate, which can only make more paths look protected (fail closed).
        return CharSet::not_slash();
    }
    if syntax.fold {
        add_folded(&mut ranges);
    }
    let set = normalise(ranges);
    let set = if negated { complement(&set) } else { set };
    CharSet::Ranges(without_slash(set).into_boxed_slice())
}

/// Ranges of a class body, and whether it used a named POSIX class.
fn class_items(items: &[char]) -> (Vec<(u32, u32)>, bool) {
    let mut ranges = Vec::new();
    let mut posix = false;
    let mut i = 0;
    while i < items.len() {
        let mut c = items[i];
        if c == '[' && matches!(items.get(i + 1), Some(':' | '=' | '.')) {
            let close = bracket_item_end(items, i);
            // `[=r=]` and `[.r.]` of one character are that character (in the C locale;
            // elsewhere an equivalence class may hold accented forms too, and a multi-letter
            // collating name like `[.hyphen.]` is a character we do not look up): those, and
            // named classes, are taken as any character, which fails closed.
            let inner = close.map(|k| &items[i + 2..k - 1]);
            match (items[i + 1], inner) {
                ('=' | '.', Some([one])) => ranges.push((*one as u32, *one as u32)),
                _ => posix = true,
            }
            i = close.map_or(items.len(), |k| k + 1);
            continue;
        }
        if c == '\\' && i + 1 < items.len() {
            i += 1;
            c = items[i];
        }
        if items.get(i + 1) == Some(&'-') && i + 2 < items.len() {
            let mut hi = items[i + 2];
            let mut step = 3;
            if hi == '\\' && i + 3 < items.len() {
                hi = items[i + 3];
                step = 4;
            }
            // A reversed range (`[z-a]`) matches nothing in bash; keep it empty.
            if c <= hi {
                ranges.push((c as u32, hi as u32));
            }
            i += step;
            continue;
        }
        ranges.push((c as u32, c as u32));
        i += 1;
    }
    (ranges, posix)
}

/// Adds the folded form of every member, so a folded text character meets the class
/// whichever case the class named. ASCII letters are shifted by range; other characters are
/// folded one by one for small ranges, and large ranges already cover most of both cases.
fn add_folded(ranges: &mut Vec<(u32, u32)>) {
    let upper = ('A' as u32, 'Z' as u32);
    let mut extra = Vec::new();
    for &(lo, hi) in ranges.iter() {
        let (a, b) = (lo.max(upper.0), hi.min(upper.1));
        if a <= b {
            extra.push((a + 32, b + 32));
        }
        if hi >= 0x80 && hi - lo.max(0x80) < 512 {
            for cp in lo.max(0x80)..=hi {
                if let Some(c) = char::from_u32(cp) {
                    let f = fold_char(c) as u32;
                    extra.push((f, f));
                }
            }
        }
    }
    ranges.extend(extra);
}

fn normalise(mut ranges: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
    ranges.sort_unstable();
    let mut out: Vec<(u32, u32)> = Vec::with_capacity(ranges.len());
    for (lo, hi) in ranges {
        match out.last_mut() {
            Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
            _ => out.push((lo, hi)),
        }
    }
    out
}

fn complement(set: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let mut next = 0u32;
    for &(lo, hi) in set {
        if lo > next {
            out.push((next, lo - 1));
        }
        next = hi.saturating_add(1);
    }
    if next <= MAX && set.last().is_none_or(|l| l.1 < MAX) {
        out.push((next, MAX));
    }
    out
}

fn without_slash(set: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
    let mut out = Vec::with_capacity(set.len() + 1);
    for (lo, hi) in set {
        if lo <= SLASH && SLASH <= hi {
            if lo < SLASH {
                out.push((lo, SLASH - 1));
            }
            if hi > SLASH {
                out.push((SLASH + 1, hi));
            }
        } else {
            out.push((lo, hi));
        }
    }
    out
}

/// Whether `text` is in the glob's language: an NFA walk whose state set is a bitmask, for
/// literal paths (the hot case). Callers keep globs under 128 tokens.
pub(crate) fn matches(tokens: &[Token], text: &str, syntax: Syntax) -> bool {
    debug_assert!(tokens.len() < 128);
    let mut states = closure(tokens, 1);
    let mut segment_start = true;
    for c in text.chars() {
        let c = if syntax.fold { fold_char(c) } else { c };
        states = closure(tokens, step(tokens, states, c, segment_start));
        if states == 0 {
            return false;
        }
        segment_start = c == '/';
    }
    states & (1u128 << tokens.len()) != 0
}

/// The states reachable by letting repeating tokens match nothing.
fn closure(tokens: &[Token], mut states: u128) -> u128 {
    let mut pending = states;
    while pending != 0 {
        let i = pending.trailing_zeros() as usize;
        pending &= pending - 1;
        if i < tokens.len() && tokens[i].repeat {
            // The next position may itself repeat: visit it too.
            pending |= 1 << (i + 1);
            states |= 1 << (i + 1);
        }
    }
    states
}

fn step(tokens: &[Token], states: u128, c: char, segment_start: bool) -> u128 {
    let mut next = 0u128;
    let mut pending = states;
    // Only live positions are visited: usually one or two of a few dozen.
    while pending != 0 {
        let i = pending.trailing_zeros() as usize;
        pending &= pending - 1;
        match tokens.get(i) {
            Some(t) if t.takes(c, segment_start) => next |= 1 << (i + usize::from(!t.repeat)),
            _ => {}
        }
    }
    next
}

/// Removes escapes from text that holds no pattern: the name the file really has.
pub(crate) fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push(chars.next().unwrap_or('\\')),
            _ => out.push(c),
        }
    }
    out
}

/// Escapes glob metacharacters of text spliced into a pattern (the home or working directory),
/// so a directory named `a*b` stays a literal part.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '*' | '?' | '[' | ']' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const CASE: Syntax = Syntax {
        fold: false,
        hide_dots: false,
    };
    const FOLD: Syntax = Syntax {
        fold: true,
        hide_dots: false,
    };
    const SHELL: Syntax = Syntax {
        fold: false,
        hide_dots: true,
    };

    fn m(glob: &str, text: &str) -> bool {
        matches(&parse(glob, CASE), text, CASE)
    }

    #[test]
    fn star_stays_in_segment_deep_star_crosses() {
        assert!(m("/a/*/c", "/a/b/c"));
        assert!(!m("/a/*/c", "/a/b/x/c"));
        assert!(m("/a/**/c", "/a/b/x/c"));
        assert!(m("/a/**", "/a/b/x/c"));
    }

    #[test]
    fn classes_ranges_and_negation() {
        assert!(m(".[e]nv", ".env"));
        assert!(m(".[a-f]nv", ".env"));
        assert!(!m(".[!e]nv", ".env"));
        assert!(m(".[!x]nv", ".env"));
        assert!(!m("a[!x]b", "a/b"));
        assert!(m("[]]", "]"));
    }

    #[test]
    fn equivalence_and_collating_items_are_their_character() {
        assert!(m("id_[[=r=]]sa", "id_rsa"));
        assert!(m("*[[.y.]]", "trust.key"));
        assert!(!m("*[[.y.]]", "trust.pem"));
        assert!(m("[[:alpha:]]x", "ax"));
        assert!(m("[[=e=]x]nv", "env"));
        assert!(has_pattern("id_[[=r=]]sa"));
    }

    #[test]
    fn escapes_are_literal_and_unclosed_bracket_is_a_character() {
        assert!(m("a\\*", "a*"));
        assert!(!m("a\\*", "ab"));
        assert!(m("a[b", "a[b"));
        assert!(!has_pattern("a\\*b"));
        assert!(!has_pattern("a[b"));
        assert!(has_pattern(".[e]nv"));
    }

    #[test]
    fn shell_wildcards_do_not_take_a_leading_dot() {
        let g = parse("/a/*", SHELL);
        assert!(!matches(&g, "/a/.env", SHELL));
        assert!(matches(&g, "/a/x.env", SHELL));
        assert!(matches(&parse("/a/.*", SHELL), "/a/.env", SHELL));
        assert!(!matches(&parse("/a/?env", SHELL), "/a/.env", SHELL));
        assert!(matches(&parse("/a/*", CASE), "/a/.env", CASE));
    }

    #[test]
    fn folding_meets_either_case() {
        let g = parse(".ENV", FOLD);
        assert!(matches(&g, ".env", FOLD));
        assert!(matches(&g, ".Env", FOLD));
        let g = parse("[A-Z]", FOLD);
        assert!(matches(&g, "q", FOLD));
        // The Kelvin sign folds to `k` on case-insensitive filesystems.
        assert!(matches(&parse("*.key", FOLD), "x.\u{212A}ey", FOLD));
    }
}
