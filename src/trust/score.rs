//! The trust formula (seed 002 §4.9, NORMATIVE N3), decay on read, floors and locked tiers.

use super::{AgentTrust, TrustConfig, TrustTier};

pub const DAY_MS: i64 = 86_400_000;

#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TrustWeights {
    pub age_per_day: f64,
    pub age_max: f64,
    pub success_per_action: f64,
    pub success_max: f64,
    /// Points the success term may gain in any 24 hours (see `credit`).
    pub success_max_per_day: f64,
    pub violation_penalty: f64,
    pub approved_escalation_bonus: f64,
    pub denied_escalation_penalty: f64,
    pub clean_streak_per_day: f64,
    pub clean_streak_max: f64,
}

impl Default for TrustWeights {
    fn default() -> Self {
        TrustWeights {
            age_per_day: 0.5,
            age_max: 20.0,
            success_per_action: 0.1,
            success_max: 30.0,
            // With a day's age (0.5) and streak (0.3) increments, one day adds at most 2.8 points:
            // a tier (20 points) takes about a week of varied work.
            success_max_per_day: 2.0,
            violation_penalty: -2.0,
            approved_escalation_bonus: 0.5,
            denied_escalation_penalty: -3.0,
            clean_streak_per_day: 0.3,
            clean_streak_max: 20.0,
        }
    }
}

fn whole_days(from: i64, to: i64) -> f64 {
    ((to - from).max(0) / DAY_MS) as f64
}

/// Days of age and of clean streak (days since the last violation, or since first sight).
pub fn days(a: &AgentTrust, now: i64) -> (f64, f64) {
    let age = whole_days(a.created_ms, now);
    let streak = whole_days(a.last_violation_ms.unwrap_or(a.created_ms), now);
    (age, streak)
}

/// The formula on the agent's signals, before decay, floor and lock. The configured default
/// score is the agent's starting `manualAdjustment`, so a new agent starts at its default.
pub fn formula(a: &AgentTrust, w: &TrustWeights, now: i64) -> f64 {
    let (age, streak) = days(a, now);
    let s = &a.signals;
    let raw = (age * w.age_per_day).min(w.age_max)
        + (s.success_count as f64 * w.success_per_action).min(w.success_max)
        + s.violation_count as f64 * w.violation_penalty
        + s.approved_escalations as f64 * w.approved_escalation_bonus
        + s.denied_escalations as f64 * w.denied_escalation_penalty
        + (streak * w.clean_streak_per_day).min(w.clean_streak_max)
        + s.manual_adjustment
        - a.decay_penalty;
    raw.clamp(0.0, 100.0)
}

/// Decay on read: after `inactivityDays` without an action, score × rate^(idle days − inactivityDays).
pub fn decayed(score: f64, a: &AgentTrust, cfg: &TrustConfig, now: i64) -> f64 {
    if !cfg.decay_enabled {
        return score;
    }
    let idle = whole_days(a.last_action_ms, now);
    let over = idle - cfg.decay_inactivity_days as f64;
    if over > 0.0 {
        score * cfg.decay_rate.powf(over)
    } else {
        score
    }
}

/// The score conditions and tiers see: formula, decay, then the operator's floor and lock.
pub fn effective(a: &AgentTrust, cfg: &TrustConfig, now: i64) -> f64 {
    let mut s = decayed(formula(a, &cfg.weights, now), a, cfg, now);
    if let Some(floor) = a.floor {
        s = s.max(floor);
    }
    if let Some(tier) = a.locked {
        let (lo, hi) = tier_range(tier);
        s = s.clamp(lo, hi);
    }
    (s.clamp(0.0, 100.0) * 100.0).round() / 100.0
}

pub fn tier_range(t: TrustTier) -> (f64, f64) {
    match t {
        TrustTier::Untrusted => (0.0, 19.99),
        TrustTier::Restricted => (20.0, 39.99),
        TrustTier::Standard => (40.0, 59.99),
        TrustTier::Trusted => (60.0, 79.99),
        TrustTier::Privileged => (80.0, 100.0),
    }
}
