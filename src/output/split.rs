//! Captures of the builtin detectors, read off an exact match without a capture pass.
//!
//! The regex finds the match (a DFA pass, cheap); resolving its capture groups costs a backtracking
//! pass several times dearer. Every builtin pattern has a fixed shape around literal phrases
//! ("subject, whitespace, `is not`, whitespace, state"), so within a match the groups sit at
//! places these functions find directly. `output::tests` checks them against the regex's own
//! captures on generated sentences.

/// Byte ranges within the match (or, for the capture pass, within the sentence).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    pub subject: (usize, usize),
    pub neg: Option<(usize, usize)>,
    pub state: Option<(usize, usize)>,
    pub name: Option<(usize, usize)>,
}

impl Caps {
    /// The same ranges, `by` bytes further on (match-relative to sentence-relative).
    pub fn shifted(self, by: usize) -> Caps {
        let f = |(a, b): (usize, usize)| (a + by, b + by);
        Caps {
            subject: f(self.subject),
            neg: self.neg.map(f),
            state: self.state.map(f),
            name: self.name.map(f),
        }
    }
}

/// How one builtin pattern's groups are found in its exact match.
pub type Split = fn(&str) -> Option<Caps>;

fn subject(a: usize, b: usize) -> Caps {
    Caps {
        subject: (a, b),
        ..Caps::default()
    }
}

/// Where `m` continues after a leading phrase (ASCII case-insensitive) and the whitespace after it.
fn after_prefix(m: &str, phrases: &[&str]) -> Option<usize> {
    phrases.iter().find_map(|p| {
        let rest = m.get(p.len()..)?;
        if !m[..p.len()].eq_ignore_ascii_case(p) {
            return None;
        }
        let trimmed = rest.trim_start();
        (trimmed.len() < rest.len()).then_some(m.len() - trimmed.len())
    })
}

/// For a trailing phrase preceded by whitespace: (start of that whitespace, start of the phrase).
fn before_suffix(m: &str, phrases: &[&str]) -> Option<(usize, usize)> {
    phrases.iter().find_map(|p| {
        let at = m.len().checked_sub(p.len())?;
        if !m.get(at..)?.eq_ignore_ascii_case(p) {
            return None;
        }
        let head = m[..at].trim_end();
        (head.len() < at).then_some((head.len(), at))
    })
}

/// The last whitespace-separated token: (start of the whitespace before it, start of the token).
fn last_token(m: &str) -> Option<(usize, usize)> {
    let (at, c) = m.char_indices().rev().find(|(_, c)| c.is_whitespace())?;
    Some((m[..at].trim_end().len(), at + c.len_utf8()))
}

fn skip_quote(m: &str, at: usize, quotes: &[u8]) -> usize {
    match m.as_bytes().get(at) {
        Some(b) if quotes.contains(b) => at + 1,
        _ => at,
    }
}

/// `SUBJECT VERB STATE` (`{BE}` of `claims`): the verb is the shortest tail before the state
/// that reads as one, and the subject what is left, as the regex's greedy subject takes it
/// (the longest that is still a subject).
pub fn subject_be_state(m: &str) -> Option<Caps> {
    let (ws, state) = last_token(m)?;
    let head = &m[..ws];
    let end = longest_subject(head, |rest| {
        let verb = rest.trim_start();
        verb.len() < rest.len() && be_verb(verb)
    })?;
    Some(Caps {
        neg: Some((verb_start(head, end), ws)),
        state: Some((state, m.len())),
        ..subject(0, end)
    })
}

/// `SUBJECT: not STATE`, `SUBJECT — never STATE`, `SUBJECT - not STATE`.
pub fn subject_colon_not_state(m: &str) -> Option<Caps> {
    let (ws, state) = last_token(m)?;
    let head = &m[..ws];
    let neg_at = ["not", "never"].iter().find_map(|n| {
        let at = head.len().checked_sub(n.len())?;
        head.get(at..)?.eq_ignore_ascii_case(n).then_some(at)
    })?;
    let end = longest_subject(&head[..neg_at], colon)?;
    Some(Caps {
        neg: Some((neg_at, ws)),
        state: Some((state, m.len())),
        ..subject(0, end)
    })
}

/// `\s*[:–—]\s*` or `\s+-\s+`, the whole of `sep`.
fn colon(sep: &str) -> bool {
    let inner = sep.trim();
    let spaced = |s: &str| s.len() > s.trim().len();
    match inner {
        ":" | "\u{2013}" | "\u{2014}" => true,
        "-" => {
            let (before, after) = sep.split_once('-').unwrap_or_default();
            spaced(before) && spaced(after)
        }
        _ => false,
    }
}

/// Where the verb starts after a subject ending at `end`.
fn verb_start(head: &str, end: usize) -> usize {
    head.len() - head[end..].trim_start().len()
}

/// The longest subject `head` opens with (`{S}` of `claims`) whose rest `tail` accepts: its
/// end. Subjects end before white space or a separator, so the ends tried are where a
/// character of a subject word is followed by one that is not.
fn longest_subject(head: &str, tail: impl Fn(&str) -> bool) -> Option<usize> {
    let ends = head.char_indices().rev().filter(|&(i, c)| {
        let after_word = head[..i]
            .chars()
            .next_back()
            .is_some_and(|p| subject_char(p) || matches!(p, '"' | '\'' | '`'));
        after_word && !subject_char(c)
    });
    ends.map(|(i, _)| i)
        .find(|&end| tail(&head[end..]) && is_subject(&head[..end]))
}

/// A character of a subject's word: `[\w.@/+#-]`.
fn subject_char(c: char) -> bool {
    regex_syntax::is_word_character(c) || matches!(c, '.' | '@' | '/' | '+' | '#' | '-')
}

/// The whole of `s` is a subject (`{S}`): a quoted name of 1 to 60 characters, or up to three
/// words one white-space character apart, after an article and a space.
fn is_subject(s: &str) -> bool {
    for q in ['"', '\'', '`'] {
        if let Some(inner) = s.strip_prefix(q).and_then(|r| r.strip_suffix(q)) {
            let n = inner.chars().count();
            return (1..=60).contains(&n) && !inner.contains(q);
        }
    }
    let words = |s: &str| -> Option<usize> {
        let mut n = 0;
        let mut rest = s;
        loop {
            let len = rest.find(|c: char| !subject_char(c)).unwrap_or(rest.len());
            if len == 0 {
                return None;
            }
            n += 1;
            rest = &rest[len..];
            let Some(c) = rest.chars().next() else {
                return Some(n);
            };
            if !c.is_whitespace() {
                return None;
            }
            rest = &rest[c.len_utf8()..];
        }
    };
    let article = super::claims::ARTICLES_SPACED.iter().find_map(|a| {
        s.get(..a.len())
            .filter(|h| h.eq_ignore_ascii_case(a))
            .map(|_| a.len())
    });
    let plain = words(s).is_some_and(|n| n <= 3);
    plain || article.is_some_and(|at| words(&s[at..]).is_some_and(|n| n <= 3))
}

/// A verb of `{BE}`: words one space apart, read as the grammar there has it.
fn be_verb(verb: &str) -> bool {
    // At most eight words ("have not yet been", adverbs aside): kept on the stack.
    let mut buf = [""; 8];
    let mut n = 0;
    for w in verb.split(' ') {
        if n == buf.len() {
            return false;
        }
        buf[n] = w;
        n += 1;
    }
    let words = &buf[..n];
    let is = |w: &str, set: &[&str]| set.iter().any(|s| w.eq_ignore_ascii_case(s));
    let adv = |w: &str| is(w, &super::claims::ADVERBS);
    // Optional adverbs at `i`: at most one.
    let skip_adv = |i: usize| i + usize::from(words.get(i).is_some_and(|w| adv(w)));
    let at = |i: usize, set: &[&str]| words.get(i).is_some_and(|w| is(w, set));
    let end = |i: usize| i == words.len();
    // "not" or "never" or "no longer" at `i`: where it ends.
    let negation = |i: usize| {
        if at(i, &["not", "never"]) {
            Some(i + 1)
        } else if at(i, &["no"]) && at(i + 1, &["longer"]) {
            Some(i + 2)
        } else {
            None
        }
    };
    let first = &words[0];
    if is(first, &["is", "are", "was", "were"]) {
        let after_copula = skip_adv(1);
        if let Some(i) = negation(after_copula) {
            if end(skip_adv(i)) {
                return true;
            }
        }
        // A plain "is"/"are" with an adverb or none.
        return is(first, &["is", "are"]) && end(skip_adv(1));
    }
    if is(first, &["isn't", "aren't", "wasn't", "weren't", "ain't"]) {
        return end(skip_adv(1));
    }
    let been = |i: usize| at(i, &["been"]) && end(skip_adv(i + 1));
    if is(first, &["has", "have"]) {
        let i = skip_adv(1);
        if at(i, &["not", "never"]) && been(skip_adv(i + 1)) {
            return true;
        }
        return been(i);
    }
    if is(first, &["hasn't", "haven't"]) {
        return been(skip_adv(1));
    }
    false
}

/// `PHRASE SUBJECT`: the subject is everything after the phrase.
fn subject_after(m: &str, phrases: &[&str]) -> Option<Caps> {
    after_prefix(m, phrases).map(|s| subject(s, m.len()))
}

/// `SUBJECT PHRASE`: the subject is everything before the phrase.
fn subject_before(m: &str, phrases: &[&str]) -> Option<Caps> {
    before_suffix(m, phrases).map(|(end, _)| subject(0, end))
}

pub fn not_found_before(m: &str) -> Option<Caps> {
    subject_after(
        m,
        &[
            "no longer",
            "cannot find",
            "can't find",
            "couldn't find",
            "could not find",
            "unable to find",
            "failed to find",
        ],
    )
}

pub fn missing_after(m: &str) -> Option<Caps> {
    subject_before(
        m,
        &[
            "is not found",
            "was not found",
            "cannot be found",
            "can't be found",
            "is missing",
            "is absent",
        ],
    )
}

/// `ROLE('s name) is|named|called "NAME"`: the subject is the role, the name is what follows.
pub fn role_named(m: &str) -> Option<Caps> {
    const ROLES: [&str; 10] = [
        "team member",
        "maintainer",
        "developer",
        "partner",
        "creator",
        "person",
        "author",
        "owner",
        "user",
        "boss",
    ];
    let role = ROLES
        .iter()
        .find(|r| m.get(..r.len()).is_some_and(|h| h.eq_ignore_ascii_case(r)))?;
    let mut at = role.len();
    if m.get(at..at + 7)
        .is_some_and(|s| s.eq_ignore_ascii_case("'s name"))
    {
        at += 7;
    }
    let rest = &m[at..];
    let trimmed = rest.trim_start();
    if trimmed.len() == rest.len() {
        return None;
    }
    let verb = m.len() - trimmed.len();
    let name = skip_quote(
        m,
        verb + after_prefix(trimmed, &["is", "named", "called"])?,
        b"\"'",
    );
    Some(Caps {
        name: Some((name, m.len())),
        ..subject(0, role.len())
    })
}

/// `named|called|known as "NAME"`.
pub fn name_after(m: &str) -> Option<Caps> {
    let s = after_prefix(m, &["name is", "named", "called", "known as"])?;
    Some(subject(skip_quote(m, s, b"\"'"), m.len()))
}

/// `Name said`: the subject is the capitalised word before the verb.
pub fn actor_before_verb(m: &str) -> Option<Caps> {
    let (ws, _) = last_token(m)?;
    let head = &m[..ws];
    let start = head
        .char_indices()
        .rev()
        .find(|(_, c)| c.is_whitespace())
        .map_or(0, |(i, c)| i + c.len_utf8());
    Some(subject(start, ws))
}

pub fn there_is_no(m: &str) -> Option<Caps> {
    subject_after(m, &["there is no", "there's no", "there are no", "no such"])
}

/// `SUBJECT does not VERB` (existence and capability alike).
pub fn subject_does_not(m: &str) -> Option<Caps> {
    let (ws, _) = last_token(m)?;
    subject_before(
        &m[..ws],
        &[
            "doesn't", "does not", "didn't", "did not", "can't", "cannot",
        ],
    )
}

/// The kinds of named things the existence pattern knows (its anchors too).
pub const KINDS: [&str; 9] = [
    "feature",
    "function",
    "method",
    "file",
    "config",
    "option",
    "setting",
    "field",
    "parameter",
];

/// `feature "NAME" is missing`: the subject is the (optionally quoted) name.
pub fn named_thing_missing(m: &str) -> Option<Caps> {
    const TAILS: [&str; 7] = [
        "is not implemented",
        "is not available",
        "is not present",
        "is not defined",
        "does not exist",
        "doesn't exist",
        "is missing",
    ];
    let start = skip_quote(m, after_prefix(m, &KINDS)?, b"\"'`");
    let (mut end, _) = before_suffix(m, &TAILS)?;
    if end > start && b"\"'`".contains(&m.as_bytes()[end - 1]) {
        end -= 1;
    }
    Some(subject(start, end))
}

/// `we don't have a SUBJECT`.
pub fn we_do_not_have(m: &str) -> Option<Caps> {
    let mut at = after_prefix(m, &["we", "you", "they", "i"])?;
    at += after_prefix(&m[at..], &["don't", "do not", "didn't"])?;
    at += after_prefix(&m[at..], &["have"])?;
    at += after_prefix(&m[at..], &["a", "an", "the", "any"])?;
    Some(subject(at, m.len()))
}

fn subject_be_last(m: &str, be: &[&str]) -> Option<Caps> {
    let (ws, state) = last_token(m)?;
    let (end, _) = before_suffix(&m[..ws], be)?;
    Some(Caps {
        state: Some((state, m.len())),
        ..subject(0, end)
    })
}

/// `the build pipeline was broken`.
pub fn status_be_state(m: &str) -> Option<Caps> {
    subject_be_last(m, &["is", "are", "was", "were"])
}

/// `everything is broken`.
pub fn everything_be_state(m: &str) -> Option<Caps> {
    subject_be_last(m, &["is", "are"])
}

/// `the build has failed`: the state may be two words, `has `/`have ` may precede it.
pub fn status_has_failed(m: &str) -> Option<Caps> {
    let state = ["timed out", "failed", "crashed", "errored"]
        .iter()
        .find_map(|p| {
            let at = m.len().checked_sub(p.len())?;
            m.get(at..)?.eq_ignore_ascii_case(p).then_some(at)
        })?;
    let head = &m[..state];
    let end = ["has ", "have "]
        .iter()
        .find_map(|aux| {
            let at = head.len().checked_sub(aux.len())?;
            let before = head.get(..at)?;
            let ok =
                head.get(at..)?.eq_ignore_ascii_case(aux) && before.trim_end().len() < before.len();
            ok.then(|| before.trim_end().len())
        })
        .or_else(|| Some(head.trim_end().len()).filter(|e| *e < head.len()))?;
    Some(Caps {
        state: Some((state, m.len())),
        ..subject(0, end)
    })
}

/// `my instructions say`: the subject is everything before the verb.
pub fn all_but_last_word(m: &str) -> Option<Caps> {
    last_token(m).map(|(ws, _)| subject(0, ws))
}

/// `I am an AI`, `according to my instructions`, `I was told to`: the subject is the opening phrase.
pub fn opening_phrase(m: &str) -> Option<Caps> {
    ["according to my", "based on my", "i'm", "i am", "i was"]
        .iter()
        .find(|p| m.get(..p.len()).is_some_and(|h| h.eq_ignore_ascii_case(p)))
        .map(|p| subject(0, p.len()))
}
