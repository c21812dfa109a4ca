//! Agent trust: a score 0–100 and the tier it falls in (seed 002 §4.9, NORMATIVE N3).
//!
//! For now scores come from `trust.defaults` and outcomes are only counted; the learning formula,
//! decay, operator controls and persistence arrive with the trust issue behind this same interface.

use std::collections::HashMap;
use std::sync::Mutex;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TrustTier {
    Untrusted,
    Restricted,
    Standard,
    Trusted,
    Privileged,
}

impl TrustTier {
    pub const NAMES: [&'static str; 6] = [
        "untrusted",
        "restricted",
        "standard",
        "trusted",
        "privileged",
        "elevated",
    ];

    pub fn from_score(score: f64) -> TrustTier {
        match score {
            s if s >= 80.0 => TrustTier::Privileged,
            s if s >= 60.0 => TrustTier::Trusted,
            s if s >= 40.0 => TrustTier::Standard,
            s if s >= 20.0 => TrustTier::Restricted,
            _ => TrustTier::Untrusted,
        }
    }

    /// Accepts `elevated`, the TypeScript plugin's name for `privileged`.
    pub fn parse(name: &str) -> Option<TrustTier> {
        Some(match name {
            "untrusted" => TrustTier::Untrusted,
            "restricted" => TrustTier::Restricted,
            "standard" => TrustTier::Standard,
            "trusted" => TrustTier::Trusted,
            "privileged" | "elevated" => TrustTier::Privileged,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            TrustTier::Untrusted => "untrusted",
            TrustTier::Restricted => "restricted",
            TrustTier::Standard => "standard",
            TrustTier::Trusted => "trusted",
            TrustTier::Privileged => "privileged",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct TrustSnapshot {
    pub score: f64,
    pub tier: TrustTier,
}

impl TrustSnapshot {
    pub fn of(score: f64) -> TrustSnapshot {
        TrustSnapshot {
            score,
            tier: TrustTier::from_score(score),
        }
    }
}

#[derive(Debug, Clone)]
pub struct TrustConfig {
    pub enabled: bool,
    pub defaults: HashMap<String, f64>,
    pub persist_interval_seconds: u64,
    pub decay_enabled: bool,
    pub decay_inactivity_days: u64,
    pub decay_rate: f64,
    pub max_history_per_agent: u64,
}

/// Score used for an agent nobody configured (NORMATIVE N3).
pub const UNKNOWN_AGENT_SCORE: f64 = 10.0;

/// What the engine has seen an agent do; the learning formula will read these.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TrustSignals {
    pub success_count: u64,
    pub violation_count: u64,
    pub approved_escalations: u64,
    pub denied_escalations: u64,
}

/// The outcome of one governed action, as reported back by the host.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Success,
    /// The tool ran and failed: neither a success nor a violation.
    ToolError,
    /// Policy blocked the call: a violation attempt, never a success.
    Blocked,
    EscalationApproved,
    EscalationDenied,
}

pub struct TrustManager {
    config: TrustConfig,
    signals: Mutex<HashMap<String, TrustSignals>>,
}

impl TrustManager {
    pub fn new(config: TrustConfig) -> TrustManager {
        TrustManager {
            config,
            signals: Mutex::new(HashMap::new()),
        }
    }

    /// Exact id, then `*`, then 10.
    pub fn snapshot(&self, agent_id: &str) -> TrustSnapshot {
        let d = &self.config.defaults;
        let score = d
            .get(agent_id)
            .or_else(|| d.get("*"))
            .copied()
            .unwrap_or(UNKNOWN_AGENT_SCORE);
        TrustSnapshot::of(score)
    }

    pub fn record(&self, agent_id: &str, outcome: Outcome) {
        if !self.config.enabled {
            return;
        }
        let Ok(mut map) = self.signals.lock() else {
            return;
        };
        let s = map.entry(agent_id.to_string()).or_default();
        match outcome {
            Outcome::Success => s.success_count += 1,
            Outcome::ToolError => {}
            Outcome::Blocked => s.violation_count += 1,
            Outcome::EscalationApproved => s.approved_escalations += 1,
            Outcome::EscalationDenied => s.denied_escalations += 1,
        }
    }

    pub fn signals(&self, agent_id: &str) -> TrustSignals {
        self.signals
            .lock()
            .ok()
            .and_then(|m| m.get(agent_id).cloned())
            .unwrap_or_default()
    }

    /// Agents with a configured default or recorded activity, sorted by id.
    pub fn known_agents(&self) -> Vec<String> {
        let mut ids: Vec<String> = self
            .config
            .defaults
            .keys()
            .filter(|k| k.as_str() != "*")
            .cloned()
            .collect();
        if let Ok(map) = self.signals.lock() {
            ids.extend(map.keys().cloned());
        }
        ids.sort();
        ids.dedup();
        ids
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manager(defaults: &[(&str, f64)]) -> TrustManager {
        TrustManager::new(TrustConfig {
            enabled: true,
            defaults: defaults.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
            persist_interval_seconds: 60,
            decay_enabled: true,
            decay_inactivity_days: 30,
            decay_rate: 0.99,
            max_history_per_agent: 100,
        })
    }

    #[test]
    fn tiers_follow_the_boundaries() {
        let cases = [
            (0.0, "untrusted"),
            (19.9, "untrusted"),
            (20.0, "restricted"),
            (40.0, "standard"),
            (59.0, "standard"),
            (60.0, "trusted"),
            (80.0, "privileged"),
            (100.0, "privileged"),
        ];
        for (score, tier) in cases {
            assert_eq!(TrustTier::from_score(score).as_str(), tier, "{score}");
        }
        assert_eq!(TrustTier::parse("elevated"), Some(TrustTier::Privileged));
        assert_eq!(TrustTier::parse("root"), None);
    }

    #[test]
    fn defaults_exact_then_star_then_ten() {
        let m = manager(&[("main", 60.0), ("*", 25.0)]);
        assert_eq!(m.snapshot("main").score, 60.0);
        assert_eq!(m.snapshot("other").score, 25.0);
        let m = manager(&[("main", 60.0)]);
        assert_eq!(m.snapshot("other").score, 10.0);
        assert_eq!(m.snapshot("other").tier, TrustTier::Untrusted);
    }

    #[test]
    fn a_blocked_call_is_a_violation_not_a_success() {
        let m = manager(&[]);
        m.record("a", Outcome::Blocked);
        m.record("a", Outcome::ToolError);
        m.record("a", Outcome::Success);
        let s = m.signals("a");
        assert_eq!((s.success_count, s.violation_count), (1, 1));
    }
}
