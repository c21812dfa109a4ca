//! Redaction before anything is written (NORMATIVE N6): values under sensitive names,
//! secret-looking values, custom patterns, and long text truncated so records stay small.
//! Paths are kept.

mod names;

use once_cell::sync::Lazy;
use regex::Regex;
use serde_json::{Map, Value};

pub const REDACTED: &str = "[REDACTED]";
/// Longest message or param text kept in a record.
pub const MAX_TEXT: usize = 500;
/// Deeper params are replaced whole, so a record's size and the walk stay bounded.
const MAX_DEPTH: usize = 8;

/// The field of a header-like object (`{name, value}`, `{key, value}`) that names it.
const NAME_FIELDS: [&str; 6] = ["name", "key", "header", "field", "variable", "parameter"];
/// The fields that then hold the secret.
const VALUE_FIELDS: [&str; 7] = [
    "value",
    "values",
    "val",
    "content",
    "data",
    "default",
    "defaultvalue",
];

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
        self.object(params, 0)
    }

    fn value(&self, v: &Value, depth: usize) -> Value {
        match v {
            Value::String(s) => Value::String(self.text(s)),
            Value::Array(items) if depth < MAX_DEPTH => {
                Value::Array(items.iter().map(|i| self.value(i, depth + 1)).collect())
            }
            Value::Object(m) if depth < MAX_DEPTH => Value::Object(self.object(m, depth + 1)),
            Value::Array(_) | Value::Object(_) => Value::String("[nested too deep]".into()),
            other => other.clone(),
        }
    }

    /// Values under sensitive names go whole; so does the value of a header-like object whose
    /// name is sensitive (`{"name": "x-api-key", "value": …}`, Postman's `key`, k8s `env`).
    fn object(&self, m: &Map<String, Value>, depth: usize) -> Map<String, Value> {
        let named_secret = m.iter().any(|(k, v)| {
            NAME_FIELDS.iter().any(|f| k.eq_ignore_ascii_case(f))
                && v.as_str().is_some_and(names::sensitive)
        });
        m.iter()
            .map(|(k, v)| {
                let secret =
                    names::sensitive(k) && !v.as_str().is_some_and(|s| names::is_working_dir(k, s));
                let holds_it =
                    named_secret && VALUE_FIELDS.iter().any(|f| k.eq_ignore_ascii_case(f));
                let v = if secret || holds_it {
                    Value::String(REDACTED.into())
                } else {
                    self.value(v, depth)
                };
                (k.clone(), v)
            })
            .collect()
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
    if s.len() <= MAX_TEXT {
        return s; // fewer bytes than the limit, so fewer characters too
    }
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

    fn redact(v: Value) -> Value {
        let r = Redactor::new(vec![Regex::new("internal-[0-9]+").unwrap()]);
        Value::Object(r.params(v.as_object().unwrap()))
    }

    #[test]
    fn sensitive_keys_and_values_are_redacted() {
        let out = redact(json!({
            "apiKey": "abc", "password": "hunter2", "Authorization": "x",
            "command": "curl -H 'Authorization: Bearer abcdefghijklmnopqrstuvwxyz' https://x",
            "env": { "GITHUB_TOKEN": "ghp_abcdefghijklmnopqrstuvwxyz0123456789" },
            "note": "key sk-abcdefghijklmnopqrstuv and host internal-42",
            "path": "/home/u/.env"
        }));
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
    fn names_that_only_look_sensitive_keep_their_values() {
        let params = json!({
            "max_tokens": 512, "author": "Jane", "passenger": "Bob", "tokenizer": "cl100k",
            "secret_name": "db-password", "token_type": "bearer", "PWD": "/home/u"
        });
        assert_eq!(redact(params.clone()), params);
    }

    #[test]
    fn header_objects_lose_the_value_of_a_sensitive_name() {
        let out = redact(json!({
            "har": [{ "name": "x-api-key", "value": "k1" }, { "name": "accept", "value": "text/plain" }],
            "postman": [{ "key": "Authorization", "value": "Bearer t1", "type": "text" }],
            "env": [{ "name": "DB_PASSWORD", "value": "p1" }, { "name": "LOG_LEVEL", "value": "info" }],
            "ssm": { "Name": "/prod/db/password", "Value": "p2", "Type": "SecureString" }
        }));
        assert_eq!(
            out,
            json!({
                "har": [{ "name": "x-api-key", "value": REDACTED }, { "name": "accept", "value": "text/plain" }],
                "postman": [{ "key": "Authorization", "value": REDACTED, "type": "text" }],
                "env": [{ "name": "DB_PASSWORD", "value": REDACTED }, { "name": "LOG_LEVEL", "value": "info" }],
                "ssm": { "Name": "/prod/db/password", "Value": REDACTED, "Type": "SecureString" }
            })
        );
    }

    #[test]
    fn nesting_is_bounded() {
        let mut v = json!("ghp_abcdefghijklmnopqrstuvwxyz0123456789");
        for _ in 0..12 {
            v = json!({ "x": v });
        }
        let text = redact(v).to_string();
        assert!(
            text.contains("[nested too deep]") && !text.contains("ghp_"),
            "{text}"
        );
    }

    #[test]
    fn long_text_is_truncated_with_a_marker() {
        let r = Redactor::new(vec![]);
        let t = r.text(&"a".repeat(800));
        assert!(t.starts_with(&"a".repeat(500)));
        assert!(t.ends_with("…[truncated 300 chars]"));
        let t = r.text(&"ü".repeat(400));
        assert_eq!(t, "ü".repeat(400), "counted in characters, not bytes");
    }

    #[test]
    fn a_secret_is_redacted_before_the_cut() {
        let r = Redactor::new(vec![]);
        let t = r.text(&format!(
            "{} password=hunter2hunter2",
            "a".repeat(MAX_TEXT - 20)
        ));
        assert!(!t.contains("hunter2"), "{t}");
    }
}
