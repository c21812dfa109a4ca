//! Redaction before anything is written (NORMATIVE N6): sensitive keys, secret-looking values,
//! custom patterns, and long text truncated so records stay small.

use once_cell::sync::Lazy;
use regex::Regex;
use serde_json::{Map, Value};

pub const REDACTED: &str = "[REDACTED]";
/// Longest message or param text kept in a record.
pub const MAX_TEXT: usize = 500;

static SENSITIVE_KEY: Lazy<Regex> = Lazy::new(|| {
    Regex::new(r"(?i)pass(word|wd|phrase)?|secret|token|api[_-]?key|credential|auth|private[_-]?key|cookie|session[_-]?id")
        .expect("static regex")
});

/// Values that look like secrets wherever they appear: provider keys, bearer tokens, JWTs,
/// private key blocks, `password=…` assignments.
static SECRET_VALUE: Lazy<Regex> = Lazy::new(|| {
    Regex::new(concat!(
        r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)",
        r"|\b(sk|pk|rk)-[A-Za-z0-9_\-]{16,}",
        r"|\bgh[pousr]_[A-Za-z0-9]{20,}",
        r"|\bgithub_pat_[A-Za-z0-9_]{20,}",
        r"|\bAKIA[0-9A-Z]{16}\b",
        r"|\bxox[abposr]-[A-Za-z0-9-]{10,}",
        r"|\bAIza[0-9A-Za-z_\-]{30,}",
        r"|\beyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}",
        r"|(?i:bearer)\s+[A-Za-z0-9._~+/\-]{16,}=*",
        r"|(?i:(password|passwd|pwd|secret|token|api[_-]?key)\s*[=:]\s*)[^\s'&;]+",
    ))
    .expect("static regex")
});

pub struct Redactor {
    custom: Vec<Regex>,
}

impl Redactor {
    pub fn new(custom: Vec<Regex>) -> Redactor {
        Redactor { custom }
    }

    pub fn params(&self, params: &Map<String, Value>) -> Map<String, Value> {
        params
            .iter()
            .map(|(k, v)| {
                let v = if SENSITIVE_KEY.is_match(k) {
                    Value::String(REDACTED.into())
                } else {
                    self.value(v, 0)
                };
                (k.clone(), v)
            })
            .collect()
    }

    fn value(&self, v: &Value, depth: usize) -> Value {
        match v {
            Value::String(s) => Value::String(self.text(s)),
            Value::Array(items) if depth < 8 => {
                Value::Array(items.iter().map(|i| self.value(i, depth + 1)).collect())
            }
            Value::Object(m) if depth < 8 => Value::Object(
                m.iter()
                    .map(|(k, v)| {
                        let v = if SENSITIVE_KEY.is_match(k) {
                            Value::String(REDACTED.into())
                        } else {
                            self.value(v, depth + 1)
                        };
                        (k.clone(), v)
                    })
                    .collect(),
            ),
            Value::Array(_) | Value::Object(_) => Value::String("[nested too deep]".into()),
            other => other.clone(),
        }
    }

    /// Secrets replaced, then cut to [`MAX_TEXT`] characters with a marker.
    pub fn text(&self, s: &str) -> String {
        let mut out = SECRET_VALUE.replace_all(s, REDACTED).into_owned();
        for re in &self.custom {
            out = re.replace_all(&out, REDACTED).into_owned();
        }
        truncate(out)
    }
}

fn truncate(s: String) -> String {
    let total = s.chars().count();
    if total <= MAX_TEXT {
        return s;
    }
    let kept: String = s.chars().take(MAX_TEXT).collect();
    format!("{kept}…[truncated {} chars]", total - MAX_TEXT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn sensitive_keys_and_values_are_redacted() {
        let r = Redactor::new(vec![Regex::new("internal-[0-9]+").unwrap()]);
        let p = json!({
            "apiKey": "abc", "password": "hunter2", "Authorization": "x",
            "command": "curl -H 'Authorization: Bearer abcdefghijklmnopqrstuvwxyz' https://x",
            "env": { "GITHUB_TOKEN": "ghp_abcdefghijklmnopqrstuvwxyz0123456789" },
            "note": "key sk-abcdefghijklmnopqrstuv and host internal-42",
            "path": "/home/u/.env"
        });
        let out = Value::Object(r.params(p.as_object().unwrap()));
        let text = out.to_string();
        for secret in [
            "abc\"",
            "hunter2",
            "abcdefghijklmnopqrstuvwxyz",
            "ghp_",
            "sk-abc",
            "internal-42",
        ] {
            assert!(!text.contains(secret), "{secret} leaked: {text}");
        }
        assert_eq!(out["path"], "/home/u/.env", "paths are kept");
        assert_eq!(out["apiKey"], REDACTED);
    }

    #[test]
    fn long_text_is_truncated_with_a_marker() {
        let r = Redactor::new(vec![]);
        let t = r.text(&"a".repeat(800));
        assert!(t.starts_with(&"a".repeat(500)));
        assert!(t.ends_with("…[truncated 300 chars]"));
    }
}
