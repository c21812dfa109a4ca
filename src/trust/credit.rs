//! Which successes earn trust (issue 11). The seed's success term stays
//! min(successCount·successPerAction, successMax), but `successCount` counts *credited* successes
//! only: an action identical to one credited in the last 24 hours earns nothing again, and in any
//! 24 hours at most `successMaxPerDay` points' worth of successes are credited. Trust then comes
//! from days of varied work; a burst of trivial calls cannot lift an agent a tier in minutes.
//!
//! A rolling 24-hour window rather than the calendar day: with calendar days a burst either side
//! of midnight would earn two days' worth in two minutes.

use super::score::DAY_MS;
use super::TrustWeights;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest, Sha256};

/// Most successes one window credits whatever the weights: the credited actions are kept per
/// agent (for the identical-action rule), and up to `MAX_AGENTS` agents are tracked.
pub const MAX_CREDITS_PER_DAY: usize = 1000;

/// What an action was (tool and parameters), as a stable 64-bit hash: stored in trust.json, so it
/// must not change between runs or Rust versions (hence SHA-256, not `DefaultHasher`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ActionFingerprint(pub u64);

impl ActionFingerprint {
    /// Parameters serialize with sorted keys (serde_json without `preserve_order`), so the same
    /// call with its keys in another order has the same fingerprint.
    pub fn of(tool: &str, params: Option<&serde_json::Map<String, serde_json::Value>>) -> Self {
        let mut h = Sha256::new();
        h.update(tool.as_bytes());
        h.update([0]);
        if let Some(p) = params {
            h.update(serde_json::to_vec(p).unwrap_or_default());
        }
        let digest = h.finalize();
        let mut first = [0u8; 8];
        first.copy_from_slice(&digest[..8]);
        ActionFingerprint(u64::from_be_bytes(first))
    }
}

/// Hex text in trust.json: a JSON number above 2^53 would lose digits in any JS reader.
impl Serialize for ActionFingerprint {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{:016x}", self.0))
    }
}

impl<'de> Deserialize<'de> for ActionFingerprint {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        u64::from_str_radix(&text, 16)
            .map(ActionFingerprint)
            .map_err(serde::de::Error::custom)
    }
}

/// One credited success, kept for 24 hours.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Credit {
    /// When it was credited, ms since the epoch.
    pub at: i64,
    /// None when the caller could not say what the action was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<ActionFingerprint>,
}

/// Successes one window may credit: `successMaxPerDay` points at `successPerAction` each.
pub fn daily_limit(w: &TrustWeights) -> usize {
    if w.success_per_action <= 0.0 {
        // Successes earn nothing (or cost): no reason to hold them back.
        return MAX_CREDITS_PER_DAY;
    }
    // The epsilon keeps 2 / 0.1 at 20 whatever the rounding of 0.1; `as` saturates NaN to 0.
    let n = (w.success_max_per_day / w.success_per_action + 1e-9).floor();
    (n.max(0.0) as usize).min(MAX_CREDITS_PER_DAY)
}

/// Whether a success at `now` earns credit; records the credit when it does.
pub fn credit(
    credits: &mut Vec<Credit>,
    action: Option<ActionFingerprint>,
    now: i64,
    limit: usize,
) -> bool {
    // A credit from the future (a clock set back) stays until it is 24 hours old by the clock
    // now: holding credit back longer is the safe side.
    credits.retain(|c| now.saturating_sub(c.at) < DAY_MS);
    let repeat = action.is_some() && credits.iter().any(|c| c.action == action);
    if repeat || credits.len() >= limit {
        return false;
    }
    credits.push(Credit { at: now, action });
    true
}
