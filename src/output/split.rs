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

/// The verbs of `subject_be_state`, each before any shorter one it ends with.
const BE: [&str; 23] = [
    "has not been",
    "hasn't been",
    "have not been",
    "haven't been",
    "has never been",
    "have never been",
    "was never",
    "were never",
    "is never",
    "is no longer",
    "are no longer",
    "were not",
    "weren't",
    "has been",
    "have been",
    "is not",
    "are not",
    "was not",
    "isn't",
    "aren't",
    "wasn't",
    "is",
    "are",
];

/// `SUBJECT is (not) STATE`.
pub fn subject_be_state(m: &str) -> Option<Caps> {
    let (ws, state) = last_token(m)?;
    let (end, neg) = before_suffix(&m[..ws], &BE)?;
    Some(Caps {
        neg: Some((neg, ws)),
        state: Some((state, m.len())),
        ..subject(0, end)
    })
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
