//! Five-factor risk score (seed 002 §4.8, NORMATIVE N4): tool sensitivity, time of day,
//! trust deficit, call frequency and target scope, summed to 0–100 and bucketed into levels.

use crate::time::LocalTime;
use once_cell::sync::Lazy;
use regex::Regex;
use serde_json::{Map, Value};
use std::collections::HashMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RiskLevel {
    Low,
    Medium,
    High,
    Critical,
}

impl RiskLevel {
    pub const NAMES: [&'static str; 4] = ["low", "medium", "high", "critical"];

    pub fn from_score(score: f64) -> RiskLevel {
        match score {
            s if s <= 25.0 => RiskLevel::Low,
            s if s <= 50.0 => RiskLevel::Medium,
            s if s <= 75.0 => RiskLevel::High,
            _ => RiskLevel::Critical,
        }
    }

    pub fn parse(name: &str) -> Option<RiskLevel> {
        Some(match name {
            "low" => RiskLevel::Low,
            "medium" => RiskLevel::Medium,
            "high" => RiskLevel::High,
            "critical" => RiskLevel::Critical,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            RiskLevel::Low => "low",
            RiskLevel::Medium => "medium",
            RiskLevel::High => "high",
            RiskLevel::Critical => "critical",
        }
    }
}

/// Builtin sensitivity of the host's tools (0–100); `toolRiskOverrides` replaces entries.
pub const BUILTIN_TOOL_RISK: &[(&str, f64)] = &[
    ("gateway", 95.0),
    ("cron", 90.0),
    ("elevated", 95.0),
    ("exec", 70.0),
    ("write", 65.0),
    ("edit", 60.0),
    ("apply_patch", 60.0),
    ("process", 60.0),
    ("sessions_spawn", 45.0),
    // The host's wrapper for deferred tools (`tool_call {id, args}`): the wrapped tool is judged
    // on its own right after, so the wrapper must not trip the unknown-tool rule.
    ("tool_call", 10.0),
    ("sessions_send", 50.0),
    ("browser", 40.0),
    ("message", 40.0),
    ("read", 10.0),
    ("memory_search", 5.0),
    ("memory_get", 5.0),
    ("web_search", 15.0),
    ("web_fetch", 20.0),
    ("image", 10.0),
    ("canvas", 15.0),
];

/// Sensitivity assumed for a tool without a profile: medium, so it is never "low" by accident.
pub const UNPROFILED_TOOL_RISK: f64 = 50.0;

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct RiskFactor {
    pub name: &'static str,
    pub weight: f64,
    pub value: f64,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct RiskAssessment {
    pub level: RiskLevel,
    pub score: f64,
    /// Kept for explanations; not serialized into every verdict (it would triple its size).
    #[serde(skip)]
    pub factors: Vec<RiskFactor>,
}

/// What the assessor needs to know about one action.
pub struct RiskInput<'a> {
    pub tool: Option<&'a str>,
    pub params: Option<&'a Map<String, Value>>,
    pub message_to: Option<&'a str>,
    pub trust_score: f64,
    pub local: LocalTime,
    pub recent_calls: usize,
}

pub struct RiskAssessor {
    profiles: HashMap<String, f64>,
}

/// Production or external targets (NORMATIVE N4 "target scope").
static PRODUCTION: Lazy<Regex> = Lazy::new(|| {
    Regex::new(r"(?i)\b(prod|production|live)\b|\b(git|docker)\s+push\b|\bkubectl\s+(apply|delete|rollout)\b|\bdeploy\b|\b(ssh|scp|rsync)\s")
        .expect("static regex")
});
/// A URL up to the end of its host (matched whole: a capture group would cost every string
/// an allocation, and every call's params pass here).
static URL_HOST: Lazy<Regex> =
    Lazy::new(|| Regex::new(r"(?i)\bhttps?://[a-z0-9.\-\[\]:]+").expect("static regex"));

impl RiskAssessor {
    pub fn new(overrides: &HashMap<String, f64>) -> RiskAssessor {
        let mut profiles: HashMap<String, f64> = BUILTIN_TOOL_RISK
            .iter()
            .map(|(k, v)| (k.to_string(), *v))
            .collect();
        profiles.extend(overrides.iter().map(|(k, v)| (k.clone(), *v)));
        RiskAssessor { profiles }
    }

    /// The tool's sensitivity if it has a profile (builtin table or override).
    pub fn profile(&self, tool: &str) -> Option<f64> {
        self.profiles.get(tool).copied()
    }

    pub fn assess(&self, input: &RiskInput) -> RiskAssessment {
        let tool = input.tool.unwrap_or("message");
        let sensitivity = self.profile(tool).unwrap_or(UNPROFILED_TOOL_RISK);
        let off_hours = is_off_hours(input.local);
        let external = input.params.is_some_and(targets_production)
            || input.message_to.is_some_and(|to| !to.starts_with("agent:"));
        let factors = vec![
            factor("toolSensitivity", 30.0, sensitivity / 100.0),
            factor("timeOfDay", 15.0, if off_hours { 1.0 } else { 0.0 }),
            factor(
                "trustDeficit",
                20.0,
                (100.0 - input.trust_score).clamp(0.0, 100.0) / 100.0,
            ),
            factor(
                "frequency",
                15.0,
                (input.recent_calls as f64 / 20.0).min(1.0),
            ),
            factor("targetScope", 20.0, if external { 1.0 } else { 0.0 }),
        ];
        let score = factors
            .iter()
            .map(|f| f.value)
            .sum::<f64>()
            .clamp(0.0, 100.0);
        let score = (score * 10.0).round() / 10.0;
        RiskAssessment {
            level: RiskLevel::from_score(score),
            score,
            factors,
        }
    }
}

fn factor(name: &'static str, weight: f64, fraction: f64) -> RiskFactor {
    RiskFactor {
        name,
        weight,
        value: weight * fraction,
    }
}

/// Off-hours: before 08:00, from 20:00, or a weekend, in the configured zone.
fn is_off_hours(t: LocalTime) -> bool {
    t.hour() < 8 || t.hour() >= 20 || t.weekday == 0 || t.weekday == 6
}

fn targets_production(params: &Map<String, Value>) -> bool {
    params
        .values()
        .any(|v| visit_strings(v, 0, &mut |s| mentions_production(s)))
}

fn mentions_production(s: &str) -> bool {
    if PRODUCTION.is_match(s) {
        return true;
    }
    URL_HOST.find_iter(s).any(|m| {
        let url = m.as_str();
        let host = url[url.find("://").map_or(0, |i| i + 3)..].to_ascii_lowercase();
        !(host.starts_with("localhost") || host.starts_with("127.") || host.starts_with("[::1]"))
    })
}

/// Calls `f` on every string inside `v` (depth-limited) until it returns true.
pub fn visit_strings(v: &Value, depth: usize, f: &mut dyn FnMut(&str) -> bool) -> bool {
    if depth > 8 {
        return false;
    }
    match v {
        Value::String(s) => f(s),
        Value::Array(items) => items.iter().any(|i| visit_strings(i, depth + 1, f)),
        Value::Object(m) => m.values().any(|i| visit_strings(i, depth + 1, f)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn input<'a>(
        tool: &'a str,
        params: &'a Map<String, Value>,
        trust: f64,
        hour: u16,
    ) -> RiskInput<'a> {
        RiskInput {
            tool: Some(tool),
            params: Some(params),
            message_to: None,
            trust_score: trust,
            local: LocalTime {
                minute_of_day: hour * 60,
                weekday: 3,
            },
            recent_calls: 0,
        }
    }

    #[test]
    fn five_factors_add_up() {
        let a = RiskAssessor::new(&HashMap::new());
        let p = json!({"command": "ls -la"});
        let r = a.assess(&input("exec", p.as_object().unwrap(), 60.0, 12));
        // 70·0.30 + 0 + 40·0.20 + 0 + 0 = 29
        assert_eq!(r.score, 29.0);
        assert_eq!(r.level, RiskLevel::Medium);
        let p = json!({"command": "git push origin main"});
        let r = a.assess(&input("exec", p.as_object().unwrap(), 60.0, 3));
        // + 15 off-hours + 20 production target
        assert_eq!(r.score, 64.0);
        assert_eq!(r.level, RiskLevel::High);
    }

    #[test]
    fn overrides_and_unprofiled_tools() {
        let mut o = HashMap::new();
        o.insert("exec".to_string(), 10.0);
        let a = RiskAssessor::new(&o);
        assert_eq!(a.profile("exec"), Some(10.0));
        assert_eq!(a.profile("mystery"), None);
        let p = Map::new();
        let r = a.assess(&input("mystery", &p, 100.0, 12));
        assert_eq!(r.score, 15.0);
    }

    #[test]
    fn localhost_urls_are_not_external() {
        assert!(!mentions_production("curl http://localhost:8080/x"));
        assert!(mentions_production("curl https://example.com"));
    }

    #[test]
    fn levels() {
        assert_eq!(RiskLevel::from_score(25.0), RiskLevel::Low);
        assert_eq!(RiskLevel::from_score(50.0), RiskLevel::Medium);
        assert_eq!(RiskLevel::from_score(75.0), RiskLevel::High);
        assert_eq!(RiskLevel::from_score(75.1), RiskLevel::Critical);
    }
}
