//! Typed reads from raw JSON that record a path-named issue instead of failing,
//! so resolution can go on and report every problem at once.

use super::error::{index, join, Issues};
use serde_json::{Map, Value};

/// A JSON object (or an absent one) at a known path.
pub struct Obj<'a> {
    map: Option<&'a Map<String, Value>>,
    pub path: String,
}

impl<'a> Obj<'a> {
    /// An absent value reads as an empty object; anything else but an object (`null` included,
    /// as in the manifest's schema) is an issue.
    pub fn new(value: Option<&'a Value>, path: String, issues: &mut Issues) -> Self {
        let map = match value {
            None => None,
            Some(Value::Object(m)) => Some(m),
            Some(other) => {
                issues.push(&path, format!("must be an object, got {}", kind(other)));
                None
            }
        };
        Obj { map, path }
    }

    pub fn is_present(&self) -> bool {
        self.map.is_some()
    }

    pub fn get(&self, key: &str) -> Option<&'a Value> {
        self.map.and_then(|m| m.get(key))
    }

    pub fn path_of(&self, key: &str) -> String {
        join(&self.path, key)
    }

    pub fn child(&self, key: &str, issues: &mut Issues) -> Obj<'a> {
        Obj::new(self.get(key), self.path_of(key), issues)
    }

    /// Unknown keys are errors: a typo such as `failmode` must not silently fall back to a default.
    pub fn check_keys(&self, allowed: &[&str], issues: &mut Issues) {
        let Some(map) = self.map else { return };
        for key in map.keys() {
            if !allowed.contains(&key.as_str()) {
                issues.push(
                    &self.path_of(key),
                    format!("unknown key (allowed: {})", allowed.join(", ")),
                );
            }
        }
    }

    pub fn bool(&self, key: &str, default: bool, issues: &mut Issues) -> bool {
        match self.get(key) {
            None => default,
            Some(Value::Bool(b)) => *b,
            Some(v) => {
                issues.push(
                    &self.path_of(key),
                    format!("must be a boolean, got {}", kind(v)),
                );
                default
            }
        }
    }

    /// A number in `[min, max]`.
    pub fn num(&self, key: &str, default: f64, min: f64, max: f64, issues: &mut Issues) -> f64 {
        match self.get(key) {
            None => default,
            Some(v) => number_in(v, &self.path_of(key), min, max, issues).unwrap_or(default),
        }
    }

    /// A whole number in `[min, max]`.
    pub fn int(&self, key: &str, default: u64, min: u64, max: u64, issues: &mut Issues) -> u64 {
        let value = self.num(key, default as f64, min as f64, max as f64, issues);
        if value.fract() != 0.0 {
            issues.push(&self.path_of(key), "must be a whole number");
            return default;
        }
        value as u64
    }

    pub fn string(&self, key: &str, issues: &mut Issues) -> Option<String> {
        match self.get(key) {
            None => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(v) => {
                issues.push(
                    &self.path_of(key),
                    format!("must be a string, got {}", kind(v)),
                );
                None
            }
        }
    }

    /// One of a fixed set of strings.
    pub fn choice(
        &self,
        key: &str,
        default: &'static str,
        allowed: &[&'static str],
        issues: &mut Issues,
    ) -> &'static str {
        let Some(given) = self.string(key, issues) else {
            return default;
        };
        match allowed.iter().find(|a| **a == given) {
            Some(a) => a,
            None => {
                issues.push(
                    &self.path_of(key),
                    format!("must be one of {}, got \"{given}\"", allowed.join(" | ")),
                );
                default
            }
        }
    }

    pub fn entries(&self) -> impl Iterator<Item = (&'a String, &'a Value)> {
        self.map.into_iter().flat_map(|m| m.iter())
    }
}

pub fn number_in(v: &Value, path: &str, min: f64, max: f64, issues: &mut Issues) -> Option<f64> {
    match v.as_f64() {
        Some(n) if n >= min && n <= max => Some(n),
        Some(n) => {
            issues.push(path, format!("must be between {min} and {max}, got {n}"));
            None
        }
        None => {
            issues.push(path, format!("must be a number, got {}", kind(v)));
            None
        }
    }
}

/// A string or a list of strings (the seeds allow both for names, ids, patterns).
pub fn string_list(v: Option<&Value>, path: &str, issues: &mut Issues) -> Vec<String> {
    match v {
        None => Vec::new(),
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .filter_map(|(i, item)| match item {
                Value::String(s) => Some(s.clone()),
                other => {
                    issues.push(
                        &index(path, i),
                        format!("must be a string, got {}", kind(other)),
                    );
                    None
                }
            })
            .collect(),
        Some(other) => {
            issues.push(
                path,
                format!("must be a string or a list of strings, got {}", kind(other)),
            );
            Vec::new()
        }
    }
}

/// A list, or an issue naming the path.
pub fn array<'a>(v: Option<&'a Value>, path: &str, issues: &mut Issues) -> &'a [Value] {
    match v {
        None => &[],
        Some(Value::Array(items)) => items,
        Some(other) => {
            issues.push(path, format!("must be a list, got {}", kind(other)));
            &[]
        }
    }
}

pub fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}
