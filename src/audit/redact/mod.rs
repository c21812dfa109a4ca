//! Redaction before anything is written (NORMATIVE N6): values under sensitive names, secrets
//! of known shapes anywhere in text (see `shapes`), custom patterns, and long text truncated so
//! records stay small. Paths are kept.

mod extract;
mod names;
mod shapes;

use regex::Regex;
use serde_json::{Map, Value};
use std::ops::Range;

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

pub struct Redactor {
    custom: Vec<Regex>,
    /// Characters a text keeps ([`MAX_TEXT`] for the trail).
    limit: usize,
}

impl Redactor {
    /// For the trail: secrets out, long text cut.
    pub fn new(custom: Vec<Regex>) -> Redactor {
        Redactor {
            custom,
            limit: MAX_TEXT,
        }
    }

    /// For a human who must see the whole thing (an approver): secrets out, nothing cut, so
    /// the one who shows it decides how, and says what it left out.
    pub fn whole() -> Redactor {
        Redactor {
            custom: Vec::new(),
            limit: usize::MAX,
        }
    }

    pub fn params(&self, params: &Map<String, Value>) -> Map<String, Value> {
        self.object(params, 0)
    }

    /// Any JSON value, walked as params are (names, shapes, depth bound).
    pub fn json(&self, v: &Value) -> Value {
        self.value(v, 0)
    }

    fn value(&self, v: &Value, depth: usize) -> Value {
        match v {
            Value::String(s) => Value::String(self.text(s)),
            Value::Array(items) if depth < MAX_DEPTH => Value::Array(self.array(items, depth)),
            Value::Object(m) if depth < MAX_DEPTH => Value::Object(self.object(m, depth + 1)),
            Value::Array(_) | Value::Object(_) => Value::String("[nested too deep]".into()),
            other => other.clone(),
        }
    }

    /// Values under sensitive names go whole; so does the value of a header-like object whose
    /// name is sensitive (`{"name": "x-api-key", "value": …}`, Postman's `key`, k8s `env`).
    /// Keys are text too: a secret can be a key (`{"Authorization: Bearer …": ""}`).
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
                (self.text(k), v)
            })
            .collect()
    }

    /// An array of strings is read as one command line (`["docker", "login", "--password",
    /// "…"]`, `["mysql", "-pX"]`), so a flag and its value may sit in different items.
    fn array(&self, items: &[Value], depth: usize) -> Vec<Value> {
        let all_strings = items.len() > 1 && items.iter().all(Value::is_string);
        if !all_strings {
            return items.iter().map(|i| self.value(i, depth + 1)).collect();
        }
        let mut line = String::new();
        let mut bounds = Vec::with_capacity(items.len());
        for s in items.iter().filter_map(Value::as_str) {
            let start = line.len();
            line.push_str(s);
            bounds.push(start..line.len());
            line.push(' ');
        }
        let spans = shapes::secrets(&line);
        // Both are in order: each item takes the ranges that overlap it, clipped to it.
        let mut first = 0;
        bounds
            .into_iter()
            .map(|b| {
                while spans.get(first).is_some_and(|r| r.end <= b.start) {
                    first += 1;
                }
                let local: Vec<Range<usize>> = spans[first..]
                    .iter()
                    .take_while(|r| r.start < b.end)
                    .map(|r| r.start.max(b.start) - b.start..r.end.min(b.end) - b.start)
                    .collect();
                Value::String(self.finish(replace(&line[b], &local)))
            })
            .collect()
    }

    /// Secrets replaced, then cut to the limit with a marker.
    pub fn text(&self, s: &str) -> String {
        self.finish(replace(s, &shapes::secrets(s)))
    }

    fn finish(&self, mut out: String) -> String {
        for re in &self.custom {
            out = re.replace_all(&out, REDACTED).into_owned();
        }
        truncate(out, self.limit)
    }
}

/// `s` with each (sorted, disjoint) range replaced by the marker.
fn replace(s: &str, ranges: &[Range<usize>]) -> String {
    if ranges.is_empty() {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut last = 0;
    for r in ranges {
        out.push_str(&s[last..r.start]);
        out.push_str(REDACTED);
        last = r.end;
    }
    out.push_str(&s[last..]);
    out
}

fn truncate(s: String, limit: usize) -> String {
    if s.len() <= limit {
        return s; // fewer bytes than the limit, so fewer characters too
    }
    let total = s.chars().count();
    if total <= limit {
        return s;
    }
    let kept: String = s.chars().take(limit).collect();
    format!("{kept}…[truncated {} chars]", total - limit)
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
    fn an_argv_array_is_read_as_one_command_line() {
        let out = redact(json!({
            "argv": ["docker", "login", "--password", "pw1", "registry.example.com"],
            "args": ["mysql", "-u", "root", "-ppw2"],
            "files": ["a.txt", "--password-file", "b.txt"]
        }));
        assert_eq!(
            out,
            json!({
                "argv": ["docker", "login", "--password", REDACTED, "registry.example.com"],
                "args": ["mysql", "-u", "root", format!("-p{REDACTED}")],
                "files": ["a.txt", "--password-file", "b.txt"]
            })
        );
    }

    #[test]
    fn a_secret_in_a_key_is_redacted_too() {
        let out = redact(json!({ "seen": { "ghp_abcdefghijklmnopqrstuvwxyz0123456789": true } }));
        assert_eq!(out, json!({ "seen": { REDACTED: true } }));
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
