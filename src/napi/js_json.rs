//! JSON written by `JSON.stringify`, read the way every other path reads JS text.
//!
//! A JS string may hold a lone surrogate. `JSON.stringify` writes it as an escape (`"\ud800"`),
//! which serde_json refuses, so a request carrying one could not be read at all, and an
//! unreadable request takes the fail-mode verdict: with `failMode: "open"`, a tool call would
//! pass unjudged because of one stray code unit. Strings crossing as napi strings or through
//! `TextEncoder` get U+FFFD in its place; so do these.

use serde::de::DeserializeOwned;
use std::borrow::Cow;

/// `json` parsed, with lone surrogate escapes read as U+FFFD.
pub(super) fn from_js<T: DeserializeOwned>(json: &str) -> serde_json::Result<T> {
    let first = serde_json::from_str(json);
    if first.is_ok() {
        return first;
    }
    match well_formed(json) {
        Cow::Owned(fixed) => serde_json::from_str(&fixed),
        Cow::Borrowed(_) => first,
    }
}

/// serde_json reads arrays and objects nested up to this deep, no deeper.
const READABLE_DEPTH: usize = 127;

/// Whether `json` nests arrays and objects deeper than serde_json reads. Such a request cannot
/// be judged, and its depth is its content's doing (an agent's tool parameters, say), not a
/// failure of governance: callers refuse it whatever failMode says, or one deeply nested
/// parameter would switch governance off.
pub(super) fn too_deep(json: &str) -> bool {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for &b in json.as_bytes() {
        match (in_string, escaped, b) {
            (true, true, _) => escaped = false,
            (true, false, b'\\') => escaped = true,
            (true, false, b'"') => in_string = false,
            (true, false, _) => {}
            (false, _, b'"') => in_string = true,
            (false, _, b'[' | b'{') => {
                depth += 1;
                if depth > READABLE_DEPTH {
                    return true;
                }
            }
            (false, _, b']' | b'}') => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    false
}

/// `json` with every `\uXXXX` escape of a lone surrogate replaced by `\ufffd`; escape pairs
/// (a leading surrogate, then a trailing one) and escaped backslashes stay as they are.
fn well_formed(json: &str) -> Cow<'_, str> {
    let bytes = json.as_bytes();
    let mut out = String::new();
    let (mut copied, mut i) = (0, 0);
    while let Some(at) = memchr::memchr(b'\\', &bytes[i..]).map(|k| i + k) {
        let unit = escaped_unit(bytes, at);
        let next = escaped_unit(bytes, at + 6);
        let (lone, len) = match unit {
            Some(0xD800..=0xDBFF) if matches!(next, Some(0xDC00..=0xDFFF)) => (false, 12),
            Some(0xD800..=0xDFFF) => (true, 6),
            Some(_) => (false, 6),
            // `\\`, `\"`, `\n` and the like: the escaped character is never a backslash that
            // starts another escape.
            None => (false, 2),
        };
        if lone {
            out.push_str(&json[copied..at]);
            out.push_str("\\ufffd");
            copied = at + 6;
        }
        i = (at + len).min(bytes.len());
    }
    if copied == 0 {
        return Cow::Borrowed(json);
    }
    out.push_str(&json[copied..]);
    Cow::Owned(out)
}

/// The code unit of a `\uXXXX` escape at `at`.
fn escaped_unit(bytes: &[u8], at: usize) -> Option<u32> {
    let hex = bytes.get(at..at + 6).filter(|e| e.starts_with(b"\\u"))?;
    let hex = std::str::from_utf8(&hex[2..]).ok()?;
    u32::from_str_radix(hex, 16).ok()
}

/// A request that reads as JSON but whose `params` is not an object (a string, a list, a
/// number): the tool call's content, so the agent's to shape.
pub(super) fn params_not_an_object(request: &str) -> bool {
    from_js::<serde_json::Value>(request)
        .ok()
        .and_then(|v| v.get("params").cloned())
        .is_some_and(|p| !p.is_object() && !p.is_null())
}

/// That request with its params kept under `invalidParams`, so the refusal's record still
/// names the agent, the tool and what was sent.
pub(super) fn with_params_wrapped(request: &str) -> crate::context::Request {
    let Ok(mut v) = from_js::<serde_json::Value>(request) else {
        return crate::context::Request::default();
    };
    if let Some(obj) = v.as_object_mut() {
        if let Some(p) = obj.remove("params") {
            obj.insert("params".into(), serde_json::json!({ "invalidParams": p }));
        }
    }
    serde_json::from_value(v).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::{from_js, well_formed};
    use serde_json::Value;

    #[test]
    fn lone_surrogates_read_as_the_replacement_character() {
        for (json, text) in [
            (r#""a\ud800b""#, "a\u{fffd}b"),
            (r#""\udc00""#, "\u{fffd}"),
            (r#""x\ud800""#, "x\u{fffd}"),
            (r#""\ud800\ud800\udc00""#, "\u{fffd}\u{10000}"),
            (r#""\ud83d\ude80 ok""#, "🚀 ok"),
            (r#""\\ud800""#, "\\ud800"),
            (r#""\\\ud800""#, "\\\u{fffd}"),
            (r#""é\n\"\ud800""#, "é\n\"\u{fffd}"),
        ] {
            assert_eq!(
                from_js::<Value>(json).ok(),
                Some(Value::from(text)),
                "{json}"
            );
        }
    }

    #[test]
    fn nesting_past_what_serde_reads_is_told_apart() {
        let nested = |depth: usize, inner: &str| {
            format!(
                r#"{{"a":"[{{\"","b":{}{inner}{}}}"#,
                "[".repeat(depth - 1),
                "]".repeat(depth - 1)
            )
        };
        // The object itself is one level; brackets inside strings do not count.
        let readable = nested(super::READABLE_DEPTH, "1");
        assert!(serde_json::from_str::<Value>(&readable).is_ok());
        assert!(!super::too_deep(&readable));
        let deeper = nested(super::READABLE_DEPTH + 1, "1");
        assert!(serde_json::from_str::<Value>(&deeper).is_err());
        assert!(super::too_deep(&deeper));
        assert!(!super::too_deep(r#"{"a":"\\"}"#));
    }

    #[test]
    fn other_json_is_left_alone() {
        let json = r#"{"a":"\\u0041\u0042 \\","b":[1,2]}"#;
        assert!(matches!(well_formed(json), std::borrow::Cow::Borrowed(_)));
        assert!(from_js::<Value>("{oops").is_err());
    }
}
