//! `tool`: the tool's name (exact, glob or list) and matchers on its params.

use super::ParseEnv;
use crate::config::error::Issues;
use crate::config::reader::{array, string_list, Obj};
use crate::context::Facts;
use crate::policy::glob::Glob;
use crate::policy::pattern::Pattern;
use serde_json::Value;
use std::borrow::Cow;

#[derive(Debug, Clone)]
pub struct ToolCondition {
    pub names: Vec<Glob>,
    pub params: Vec<(String, ParamMatcher)>,
}

#[derive(Debug, Clone)]
pub enum ParamMatcher {
    Equals(Value),
    Contains(String),
    Matches(Pattern),
    StartsWith(String),
    In(Vec<Value>),
    Glob(Glob),
}

const MATCHERS: [&str; 6] = ["equals", "contains", "matches", "startsWith", "in", "glob"];

impl ToolCondition {
    pub fn parse(o: &Obj, env: &ParseEnv, issues: &mut Issues) -> Option<ToolCondition> {
        o.check_keys(&["type", "name", "params"], issues);
        let names = string_list(o.get("name"), &o.path_of("name"), issues)
            .iter()
            .map(|n| Glob::new(n))
            .collect();
        let params_obj = o.child("params", issues);
        let params = params_obj
            .entries()
            .filter_map(|(key, m)| {
                let path = params_obj.path_of(key);
                Some((key.clone(), ParamMatcher::parse(m, &path, env, issues)?))
            })
            .collect();
        Some(ToolCondition { names, params })
    }

    pub fn eval(&self, f: &Facts) -> bool {
        if !self.names.is_empty() {
            let Some(tool) = f.tool() else { return false };
            if !self.names.iter().any(|g| g.matches(tool)) {
                return false;
            }
        }
        self.params
            .iter()
            .all(|(key, m)| f.param(key).is_some_and(|v| m.matches(v)))
    }
}

impl ParamMatcher {
    pub fn parse(
        v: &Value,
        path: &str,
        env: &ParseEnv,
        issues: &mut Issues,
    ) -> Option<ParamMatcher> {
        let o = Obj::new(Some(v), path.to_string(), issues);
        let keys: Vec<&String> = o.entries().map(|(k, _)| k).collect();
        if keys.len() != 1 || !MATCHERS.contains(&keys[0].as_str()) {
            issues.push(
                path,
                format!(
                    "a param matcher needs exactly one of {}",
                    MATCHERS.join(", ")
                ),
            );
            return None;
        }
        let key = keys[0].as_str();
        if o.get(key).is_some_and(Value::is_null) {
            // A null matcher must not quietly become "matches nothing" or "no check".
            issues.push(&o.path_of(key), "must not be null");
            return None;
        }
        let mpath = o.path_of(key);
        let text = |issues: &mut Issues| o.string(key, issues);
        Some(match key {
            "equals" => ParamMatcher::Equals(o.get(key)?.clone()),
            "contains" => ParamMatcher::Contains(text(issues)?),
            "startsWith" => ParamMatcher::StartsWith(text(issues)?),
            "glob" => ParamMatcher::Glob(Glob::new(&text(issues)?)),
            "matches" => {
                ParamMatcher::Matches(env.pattern(&text(issues)?, &mpath, false, issues)?)
            }
            _ => ParamMatcher::In(array(o.get(key), &mpath, issues).to_vec()),
        })
    }

    pub fn matches(&self, v: &Value) -> bool {
        match self {
            ParamMatcher::Equals(want) => loosely_equal(want, v),
            ParamMatcher::Contains(s) => as_text(v).contains(s.as_str()),
            ParamMatcher::StartsWith(s) => as_text(v).starts_with(s.as_str()),
            ParamMatcher::Matches(re) => re.is_match(&as_text(v)),
            ParamMatcher::In(list) => list.iter().any(|want| loosely_equal(want, v)),
            ParamMatcher::Glob(g) => g.matches(&as_text(v)),
        }
    }
}

/// Params arrive as JSON; a number in config equals the same number sent as a string.
fn loosely_equal(want: &Value, got: &Value) -> bool {
    want == got || (!want.is_string() || !got.is_string()) && as_text(want) == as_text(got)
}

fn as_text(v: &Value) -> Cow<'_, str> {
    match v {
        Value::String(s) => Cow::Borrowed(s),
        other => Cow::Owned(other.to_string()),
    }
}
