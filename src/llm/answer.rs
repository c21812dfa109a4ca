//! The model's answer, taken only when it is exactly one JSON object of the asked shape and not
//! a copy of an answer the judged text already held (issue 14 item 4).
//!
//! Pure parsing: no I/O, no clock. What is tolerated and why:
//! - Around the object, whitespace and one ```` ```json ```` fence that is the whole answer; any
//!   prose, a second object or a second fence is rejected, so an attacker who gets the model to
//!   print two objects never gets one of them chosen (see `json`).
//! - Keys: exactly the asked ones. An extra key is rejected, not ignored: the prompt asks for a
//!   fixed shape, and a model that adds to it is not following the instructions, which is the
//!   very thing a judged text that steers the model produces. A missing key is rejected too.
//!   A duplicated key is rejected at any depth (parsers disagree on which copy wins).
//! - Types are JSON's own: `"true"` is not a boolean, `"0.9"` not a number.
//! - `verdict` and `severity` are compared without ASCII case (`"PASS"` means pass: no
//!   ambiguity, and refusing it would only turn a clear answer into a model failure).
//! - `severity` is a closed set, low / medium / high / critical, the severities of seed 001's
//!   findings: the prompt names them, downstream code can rank them, and a free string would
//!   carry whatever the model (or an injected text) put there into the audit trail.
//! - Free text is capped: reasoning and issue texts at `MAX_TEXT_CHARS`, issue types at
//!   `MAX_KIND_CHARS`, the issue list at `MAX_ISSUES`; the verdict, not the list, decides.
//!
//! A `Rejected::Parroted` answer is evidence that the judged text carries a forged answer the
//! model may have followed. It is rejected whichever way it points, so the caller must resolve
//! it to the stricter outcome (a match for an intent rule that denies, block for the gate),
//! never to the fail-open fallback: else an attacker who plants `{"matches": true}` next to a
//! destructive command gets the honest "true" rejected and the deny rule skipped.

mod json;
mod parroted;
mod spelling;
#[cfg(test)]
mod tests;

pub use json::MAX_ANSWER_BYTES;
pub use parroted::MAX_JUDGED_BYTES;

use parroted::Pair;
use serde_json::{Map, Value};

pub const MAX_TEXT_CHARS: usize = 500;
pub const MAX_KIND_CHARS: usize = 64;
pub const MAX_ISSUES: usize = 16;

/// Model text echoed in a rejection (an unknown verdict, an extra key) is cut to this.
const ECHO_CHARS: usize = 40;

/// `{"matches": bool, "confidence": 0..1, "reasoning": string}` (NORMATIVE N8).
#[derive(Debug, Clone, PartialEq)]
pub struct IntentAnswer {
    pub matches: bool,
    pub confidence: f64,
    pub reasoning: String,
}

/// The external-communication gate's verdict; the stricter compares greater, so the stricter
/// of two verdicts is their `max`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum GateVerdict {
    Pass,
    Flag,
    Block,
}

impl GateVerdict {
    pub fn as_str(self) -> &'static str {
        match self {
            GateVerdict::Pass => "pass",
            GateVerdict::Flag => "flag",
            GateVerdict::Block => "block",
        }
    }
}

/// One finding of the gate: `{"type", "text", "severity"}`.
#[derive(Debug, Clone, PartialEq)]
pub struct GateIssue {
    /// JSON `type`.
    pub kind: String,
    pub text: String,
    /// One of `SEVERITIES`, lowercase.
    pub severity: String,
}

/// `{"verdict": "pass"|"flag"|"block", "issues": [GateIssue]}` (seed 001 §4.1.1).
#[derive(Debug, Clone, PartialEq)]
pub struct GateAnswer {
    pub verdict: GateVerdict,
    pub issues: Vec<GateIssue>,
}

pub const SEVERITIES: [&str; 4] = ["low", "medium", "high", "critical"];

/// Why an answer is not taken. Messages name keys and expected types; model text appears only
/// cut to a few dozen characters, and judged text never.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Rejected {
    #[error("answer is {0} bytes, longer than any judgment")]
    TooLong(usize),
    #[error("answer is not one JSON object: {0}")]
    NotJson(String),
    #[error("answer has text around its object")]
    Surrounded,
    #[error("answer holds more than one object")]
    MoreThanOne,
    #[error("key `{0}` appears twice")]
    DuplicateKey(String),
    #[error("`{0}` is missing")]
    Missing(String),
    #[error("`{0}` is not a key of the asked shape")]
    UnknownKey(String),
    #[error("`{key}` must be {expected}")]
    WrongType { key: String, expected: &'static str },
    #[error("confidence {0} is outside 0..1")]
    Confidence(f64),
    #[error("verdict `{0}` is not pass, flag or block")]
    UnknownVerdict(String),
    #[error("severity `{0}` is not low, medium, high or critical")]
    UnknownSeverity(String),
    #[error("judged text of {0} bytes is more than the parroting check reads")]
    JudgedTooLarge(usize),
    #[error("the answer repeats one that judged text #{0} already held")]
    Parroted(usize),
}

/// An intent condition's answer. `judged`: every text fenced as data in the prompt (params,
/// messages), as fenced.
pub fn intent(answer: &str, judged: &[&str]) -> Result<IntentAnswer, Rejected> {
    let parsed = intent_shape(json::one_object(answer)?)?;
    let values: &[&str] = if parsed.matches {
        &["true", "yes"]
    } else {
        &["false", "no"]
    };
    // `match` and `matched` too: a model asked for `matches` copies a forged `"match": false`
    // just as readily, key corrected.
    not_parroted(
        judged,
        &Pair {
            keys: &["matches", "match", "matched"],
            values,
        },
    )?;
    Ok(parsed)
}

/// The external-communication gate's answer. `judged`: the outbound text and anything else
/// fenced as data in the prompt.
pub fn gate(answer: &str, judged: &[&str]) -> Result<GateAnswer, Rejected> {
    let parsed = gate_shape(json::one_object(answer)?)?;
    let values: &[&str] = match parsed.verdict {
        GateVerdict::Pass => &["pass", "passed"],
        GateVerdict::Flag => &["flag", "flagged"],
        GateVerdict::Block => &["block", "blocked"],
    };
    not_parroted(
        judged,
        &Pair {
            keys: &["verdict"],
            values,
        },
    )?;
    Ok(parsed)
}

fn not_parroted(judged: &[&str], pair: &Pair) -> Result<(), Rejected> {
    let total: usize = judged.iter().map(|t| t.len()).sum();
    if total > MAX_JUDGED_BYTES {
        return Err(Rejected::JudgedTooLarge(total));
    }
    match parroted::scan(judged, pair).found {
        Some(index) => Err(Rejected::Parroted(index)),
        None => Ok(()),
    }
}

fn intent_shape(mut map: Map<String, Value>) -> Result<IntentAnswer, Rejected> {
    only_keys(&map, "", &["matches", "confidence", "reasoning"])?;
    let matches = take(&mut map, "", "matches")?
        .as_bool()
        .ok_or_else(|| wrong("matches", "a boolean"))?;
    let confidence = take(&mut map, "", "confidence")?
        .as_f64()
        .ok_or_else(|| wrong("confidence", "a number"))?;
    if !(0.0..=1.0).contains(&confidence) {
        return Err(Rejected::Confidence(confidence));
    }
    let reasoning = text(
        take(&mut map, "", "reasoning")?,
        "reasoning",
        MAX_TEXT_CHARS,
    )?;
    Ok(IntentAnswer {
        matches,
        confidence,
        reasoning,
    })
}

fn gate_shape(mut map: Map<String, Value>) -> Result<GateAnswer, Rejected> {
    only_keys(&map, "", &["verdict", "issues"])?;
    let verdict = match take(&mut map, "", "verdict")? {
        Value::String(s) => verdict(&s)?,
        _ => return Err(wrong("verdict", "a string")),
    };
    let Value::Array(list) = take(&mut map, "", "issues")? else {
        return Err(wrong("issues", "an array"));
    };
    let issues = list
        .into_iter()
        .enumerate()
        .map(|(i, v)| issue(v, &format!("issues[{i}].")))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(GateAnswer {
        verdict,
        issues: issues.into_iter().take(MAX_ISSUES).collect(),
    })
}

fn verdict(s: &str) -> Result<GateVerdict, Rejected> {
    [GateVerdict::Pass, GateVerdict::Flag, GateVerdict::Block]
        .into_iter()
        .find(|v| s.eq_ignore_ascii_case(v.as_str()))
        .ok_or_else(|| Rejected::UnknownVerdict(clip(s, ECHO_CHARS)))
}

fn issue(value: Value, at: &str) -> Result<GateIssue, Rejected> {
    let Value::Object(mut map) = value else {
        return Err(wrong(&at[..at.len() - 1], "an object"));
    };
    only_keys(&map, at, &["type", "text", "severity"])?;
    let kind = text(
        take(&mut map, at, "type")?,
        &format!("{at}type"),
        MAX_KIND_CHARS,
    )?;
    let body = text(
        take(&mut map, at, "text")?,
        &format!("{at}text"),
        MAX_TEXT_CHARS,
    )?;
    let raw = text(
        take(&mut map, at, "severity")?,
        &format!("{at}severity"),
        usize::MAX,
    )?;
    let severity = SEVERITIES
        .into_iter()
        .find(|s| raw.eq_ignore_ascii_case(s))
        .ok_or_else(|| Rejected::UnknownSeverity(clip(&raw, ECHO_CHARS)))?;
    Ok(GateIssue {
        kind,
        text: body,
        severity: severity.to_owned(),
    })
}

fn only_keys(map: &Map<String, Value>, at: &str, keys: &[&str]) -> Result<(), Rejected> {
    match map.keys().find(|k| !keys.contains(&k.as_str())) {
        Some(extra) => Err(Rejected::UnknownKey(format!(
            "{at}{}",
            clip(extra, ECHO_CHARS)
        ))),
        None => Ok(()),
    }
}

fn take(map: &mut Map<String, Value>, at: &str, key: &str) -> Result<Value, Rejected> {
    map.remove(key)
        .ok_or_else(|| Rejected::Missing(format!("{at}{key}")))
}

fn text(value: Value, key: &str, max_chars: usize) -> Result<String, Rejected> {
    match value {
        Value::String(s) => Ok(clip(&s, max_chars)),
        _ => Err(wrong(key, "a string")),
    }
}

fn wrong(key: &str, expected: &'static str) -> Rejected {
    Rejected::WrongType {
        key: key.to_owned(),
        expected,
    }
}

/// The first `max_chars` characters of `s`.
fn clip(s: &str, max_chars: usize) -> String {
    match s.char_indices().nth(max_chars) {
        Some((end, _)) => s[..end].to_owned(),
        None => s.to_owned(),
    }
}
