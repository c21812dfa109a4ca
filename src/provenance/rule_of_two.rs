//! Meta's "Agents Rule of Two" (2025): within one session an agent may combine at most two of
//! (A) untrusted input, (B) access to sensitive data, (C) acting outward (sending a message,
//! reaching the network). Holding all three is the lethal combination: injected instructions
//! that can read a secret and carry it out. Whichever call would complete the three is
//! escalated to a person, and so is every later call that brings any of them, since the
//! session holds all three from then on.
//!
//! (A) is the session's taint at or below `external`, or a call whose result will be; (B) and
//! (C) are remembered per session as the first call that did them (`Taint::sensitive`,
//! `Taint::outbound`), cleared with the taint on a reset.

use super::level::Level;
use super::taint::Taint;
use serde::{Deserialize, Serialize};

/// A call that gave the session one of the legs: which tool, what it touched, when.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Act {
    pub via: String,
    pub what: String,
    pub at_ms: i64,
}

/// What one tool call would add: a description of each leg it carries.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CallLegs {
    /// Its result will be content from outside (the tool's provenance level).
    pub untrusted: Option<String>,
    /// It opens a credential file, prints secrets or dumps the environment.
    pub sensitive: Option<String>,
    /// It sends a message or reaches the network.
    pub outbound: Option<String>,
}

impl CallLegs {
    pub fn any(&self) -> bool {
        self.untrusted.is_some() || self.sensitive.is_some() || self.outbound.is_some()
    }
}

/// The reason to escalate `call` in a session with `taint`, or `None` when the session and
/// the call together hold at most two legs (or the call brings none).
pub fn judge(taint: Option<&Taint>, call: &CallLegs) -> Option<String> {
    if !call.any() {
        return None;
    }
    let had_untrusted = taint.and_then(|t| t.source_at_or_below(Level::External));
    let untrusted = match (&call.untrusted, had_untrusted) {
        (_, Some(s)) => format!(
            "the session read {} content ({})",
            s.level.as_str(),
            super::describe(s)
        ),
        (Some(what), None) => format!("this call reads {what}"),
        (None, None) => return None,
    };
    let sensitive = leg(
        call.sensitive.as_deref(),
        taint.and_then(|t| t.sensitive.as_ref()),
        (
            "it accessed sensitive data",
            "this call accesses sensitive data",
        ),
    )?;
    let outbound = leg(
        call.outbound.as_deref(),
        taint.and_then(|t| t.outbound.as_ref()),
        ("it acted outward", "this call acts outward"),
    )?;
    Some(format!(
        "Rule of two: {untrusted}; {sensitive}; {outbound}. Untrusted input, sensitive data and \
         acting outward in one session need a person's approval"
    ))
}

/// One of (B)/(C), as the session's earlier act or as this call, described.
fn leg(call: Option<&str>, before: Option<&Act>, (did, does): (&str, &str)) -> Option<String> {
    match (before, call) {
        (Some(a), _) => Some(format!(
            "{did} ({}: {} at {})",
            a.via,
            a.what,
            when(a.at_ms)
        )),
        (None, Some(what)) => Some(format!("{does}: {what}")),
        (None, None) => None,
    }
}

fn when(at_ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(at_ms)
        .map(|t| t.format("%Y-%m-%dT%H:%M:%SZ").to_string())
        .unwrap_or_default()
}
