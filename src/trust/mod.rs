//! Learning trust (seed 002 §4.9, NORMATIVE N3): per-agent scores 0–100 in five tiers, earned
//! from successes, lost on violations, decaying when idle, adjusted only by operators, persisted.

pub mod credit;
pub mod roster;
pub mod score;
pub mod seal;
pub mod store;

pub use credit::ActionFingerprint;
pub use score::TrustWeights;

use roster::Roster;
use score::{effective, formula, DAY_MS};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TrustTier {
    Untrusted,
    Restricted,
    Standard,
    Trusted,
    #[serde(alias = "elevated")]
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

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
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
    pub weights: TrustWeights,
    pub max_history_per_agent: u64,
}

/// Score used for an agent nobody configured (NORMATIVE N3).
pub const UNKNOWN_AGENT_SCORE: f64 = 10.0;
/// Agents tracked at most; least recently seen ephemeral sub-agents go first.
pub const MAX_AGENTS: usize = 10_000;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TrustSignals {
    /// Credited successes (`credit`): the count the formula uses.
    pub success_count: u64,
    /// Successes that earned nothing: repeats of an action credited in the last 24 hours, or
    /// beyond the day's credit.
    pub uncredited_successes: u64,
    pub violation_count: u64,
    pub approved_escalations: u64,
    pub denied_escalations: u64,
    /// Computed on read from first sight.
    pub age_days: f64,
    /// Days without a violation, computed on read (not a count of calls).
    pub clean_streak: f64,
    /// Starts at the configured default score; operators move it with `set`.
    pub manual_adjustment: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TrustEvent {
    pub timestamp: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub delta: f64,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub reason: Option<String>,
}

/// One agent as stored in trust.json (the seed's `AgentTrust`, plus the times the formula needs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentTrust {
    pub agent_id: String,
    pub score: f64,
    pub tier: TrustTier,
    pub signals: TrustSignals,
    #[serde(default)]
    pub history: Vec<TrustEvent>,
    pub last_evaluation: String,
    pub created: String,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub locked: Option<TrustTier>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub floor: Option<f64>,
    pub created_ms: i64,
    pub last_action_ms: i64,
    #[serde(default)]
    pub last_violation_ms: Option<i64>,
    /// Decay already suffered, kept so a later recomputation does not undo it.
    #[serde(default)]
    pub decay_penalty: f64,
    #[serde(default)]
    pub last_seen_ms: i64,
    /// A sub-agent without a configured default: evicted first when the store is full.
    #[serde(default)]
    pub ephemeral: bool,
    /// Successes credited in the last 24 hours (the daily bound and the identical-action rule).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub credits: Vec<credit::Credit>,
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

/// An operator's change (NORMATIVE N3), only through `/trust` or `governance.trust.set`.
#[derive(Debug, Clone, PartialEq)]
pub enum OperatorChange {
    SetScore(f64),
    LockTier(TrustTier),
    Unlock,
    Floor(f64),
    ResetHistory,
}

/// What a change did, for the audit record (A.5.15, A.8.2).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TrustChange {
    pub agent_id: String,
    pub change: String,
    pub from: TrustSnapshot,
    pub to: TrustSnapshot,
}

pub struct TrustManager {
    config: TrustConfig,
    agents: Arc<Mutex<Roster>>,
    persister: Option<store::Persister>,
    pub load_error: Option<String>,
    /// Said once at start, not an error (a file of an older version accepted and re-signed).
    pub load_notice: Option<String>,
    integrity: store::Integrity,
    /// Seals what the persister writes (None: in memory, or writing is blocked).
    key: Option<Arc<seal::TrustKey>>,
    /// The rejection is reported to the audit trail once, however often the engine rebuilds.
    rejection_audited: AtomicBool,
    /// The load is logged once, not again at every config edit.
    load_logged: AtomicBool,
}

fn iso(ms: i64) -> String {
    crate::audit::iso_millis(ms)
}

impl TrustManager {
    /// In memory only (tests, engines without a state directory).
    pub fn new(config: TrustConfig) -> TrustManager {
        TrustManager::with(config, Roster::new(MAX_AGENTS), store::Integrity::InMemory)
    }

    fn with(config: TrustConfig, roster: Roster, integrity: store::Integrity) -> TrustManager {
        TrustManager {
            config,
            agents: Arc::new(Mutex::new(roster)),
            persister: None,
            load_error: None,
            load_notice: None,
            integrity,
            key: None,
            rejection_audited: AtomicBool::new(false),
            load_logged: AtomicBool::new(false),
        }
    }

    /// Loads `path` (authenticated: `store::load`) and persists changes to it from a background
    /// thread, sealed with the trust key. A file of an older version is re-signed at once: with
    /// the key now made, leaving it unsigned would get it rejected at the next start.
    pub fn persistent(config: TrustConfig, path: PathBuf, now: i64) -> TrustManager {
        let loaded = store::load(&path, now);
        let interval = Duration::from_secs(config.persist_interval_seconds);
        let roster = Roster::from_map(loaded.agents, MAX_AGENTS);
        let mut m = TrustManager::with(config, roster, loaded.integrity);
        let snap = snapshot(&m.agents, loaded.key.clone());
        let persister =
            store::Persister::start(path.clone(), interval, snap, loaded.blocked.clone());
        (m.load_error, m.key) = (loaded.error, loaded.key);
        if m.integrity == store::Integrity::Legacy && loaded.blocked.is_none() {
            persister.mark_dirty();
            match persister.flush() {
                Ok(()) => m.load_notice = Some(format!("{} has no MAC: written by an older version before the trust key existed; accepted this once and re-signed", path.display())),
                Err(e) => m.load_error = Some(format!("{} (an older version's, without a MAC) was accepted but could not be re-signed ({e}); the next start will reject it", path.display())),
            }
        }
        m.persister = Some(persister);
        m
    }

    /// Loads `path` (authenticated the same way) but never writes it: another process persists it.
    pub fn read_only(config: TrustConfig, path: &std::path::Path, _now: i64) -> TrustManager {
        let loaded = store::peek(path);
        let roster = Roster::from_map(loaded.agents, MAX_AGENTS);
        let mut m = TrustManager::with(config, roster, loaded.integrity);
        (m.load_error, m.load_notice) = (loaded.error, loaded.notice);
        m
    }

    /// What the engine established about the file it started from.
    pub fn integrity(&self) -> store::Integrity {
        self.integrity
    }

    /// What the load has to say (level, message), the first time this is asked (for the log).
    pub fn take_load_report(&self) -> Vec<(&'static str, String)> {
        if self.load_logged.swap(true, Ordering::Relaxed) {
            return Vec::new();
        }
        let error = self.load_error.iter().map(|e| ("error", e.clone()));
        let notice = self.load_notice.iter().map(|n| ("info", n.clone()));
        error.chain(notice).collect()
    }

    /// The rejection of the file at start, the first time this is asked (for the audit trail).
    pub fn take_rejection(&self) -> Option<&str> {
        let rejected = matches!(
            self.integrity,
            store::Integrity::Rejected | store::Integrity::Unverified
        );
        let first = rejected && !self.rejection_audited.swap(true, Ordering::Relaxed);
        first.then_some(self.load_error.as_deref()).flatten()
    }

    /// What an agent nobody configured starts at (`trust.defaults["*"]`, else 10).
    pub fn unknown_agent_score(&self) -> f64 {
        self.config
            .defaults
            .get("*")
            .copied()
            .unwrap_or(UNKNOWN_AGENT_SCORE)
    }

    fn default_score(&self, agent_id: &str) -> f64 {
        let d = &self.config.defaults;
        d.get(agent_id)
            .or_else(|| d.get("*"))
            .copied()
            .unwrap_or(UNKNOWN_AGENT_SCORE)
    }

    fn fresh(&self, agent_id: &str, ephemeral: bool, now: i64) -> AgentTrust {
        let start = self.default_score(agent_id);
        AgentTrust {
            agent_id: agent_id.to_string(),
            score: start,
            tier: TrustTier::from_score(start),
            signals: TrustSignals {
                manual_adjustment: start,
                ..TrustSignals::default()
            },
            history: Vec::new(),
            last_evaluation: iso(now),
            created: iso(now),
            locked: None,
            floor: None,
            created_ms: now,
            last_action_ms: now,
            last_violation_ms: None,
            decay_penalty: 0.0,
            last_seen_ms: now,
            ephemeral: ephemeral && !self.config.defaults.contains_key(agent_id),
            credits: Vec::new(),
        }
    }

    /// Admits `agent_id` if new (evicting when full) and applies `f` to it, keeping the order.
    fn with_agent<R>(
        &self,
        agent_id: &str,
        ephemeral: bool,
        now: i64,
        f: impl FnOnce(&mut AgentTrust) -> R,
    ) -> Result<R, String> {
        let mut roster = self
            .agents
            .lock()
            .map_err(|_| "trust store poisoned".to_string())?;
        roster.admit(agent_id, || self.fresh(agent_id, ephemeral, now));
        roster
            .update(agent_id, f)
            .ok_or_else(|| "agent vanished".to_string())
    }

    /// The agent's effective score and tier now (never writes).
    pub fn snapshot_at(&self, agent_id: &str, now: i64) -> TrustSnapshot {
        let stored = self
            .agents
            .lock()
            .ok()
            .and_then(|m| m.get(agent_id).map(|a| effective(a, &self.config, now)));
        TrustSnapshot::of(stored.unwrap_or_else(|| self.default_score(agent_id)))
    }

    pub fn snapshot(&self, agent_id: &str) -> TrustSnapshot {
        self.snapshot_at(agent_id, crate::time::now_ms())
    }

    /// `record_action` for a caller that cannot say what the action was.
    pub fn record(
        &self,
        agent_id: &str,
        outcome: Outcome,
        ephemeral: bool,
        now: i64,
    ) -> Option<TrustChange> {
        self.record_action(agent_id, outcome, None, ephemeral, now)
    }

    /// Records an outcome; `action` identifies a success for the identical-action rule
    /// (`credit`). Returns the change when the tier moved (worth an audit record).
    pub fn record_action(
        &self,
        agent_id: &str,
        outcome: Outcome,
        action: Option<ActionFingerprint>,
        ephemeral: bool,
        now: i64,
    ) -> Option<TrustChange> {
        if !self.config.enabled || outcome == Outcome::ToolError {
            return None;
        }
        let changed = self.with_agent(agent_id, ephemeral, now, |a| {
            self.apply(a, outcome, action, now)
        });
        self.mark_dirty();
        let (kind, before, after) = changed.ok()??;
        (after.tier != before.tier).then(|| TrustChange {
            agent_id: agent_id.to_string(),
            change: kind.unwrap_or("success").into(),
            from: before,
            to: after,
        })
    }

    /// One outcome on one agent: the event kind (None when nothing worth a history event
    /// changed) and the snapshots before and after.
    fn apply(
        &self,
        a: &mut AgentTrust,
        outcome: Outcome,
        action: Option<ActionFingerprint>,
        now: i64,
    ) -> Option<(Option<&'static str>, TrustSnapshot, TrustSnapshot)> {
        let before = TrustSnapshot::of(effective(a, &self.config, now));
        settle_decay(a, &self.config, now);
        let limit = credit::daily_limit(&self.config.weights);
        // None: nothing changed worth a history event (which would push out the ones that matter).
        let kind = match outcome {
            Outcome::Success if credit::credit(&mut a.credits, action, now, limit) => {
                a.signals.success_count += 1;
                Some("success")
            }
            Outcome::Success => {
                a.signals.uncredited_successes += 1;
                None
            }
            Outcome::Blocked => {
                a.signals.violation_count += 1;
                a.last_violation_ms = Some(now);
                Some("violation")
            }
            Outcome::EscalationApproved => {
                a.signals.approved_escalations += 1;
                Some("escalation_approved")
            }
            Outcome::EscalationDenied => {
                a.signals.denied_escalations += 1;
                Some("escalation_denied")
            }
            Outcome::ToolError => return None,
        };
        // Even an uncredited success is activity: it holds off idle decay.
        a.last_action_ms = now;
        let after = self.refresh(a, now, kind, before.score, None);
        Some((kind, before, after))
    }

    /// Operator controls: set score, lock a tier, unlock, set a floor, reset history.
    pub fn operate(
        &self,
        agent_id: &str,
        change: &OperatorChange,
        now: i64,
    ) -> Result<TrustChange, String> {
        let (label, before, after) =
            self.with_agent(agent_id, false, now, |a| self.adjust(a, change, now))?;
        self.mark_dirty();
        Ok(TrustChange {
            agent_id: agent_id.to_string(),
            change: label,
            from: before,
            to: after,
        })
    }

    fn adjust(
        &self,
        a: &mut AgentTrust,
        change: &OperatorChange,
        now: i64,
    ) -> (String, TrustSnapshot, TrustSnapshot) {
        let before = TrustSnapshot::of(effective(a, &self.config, now));
        settle_decay(a, &self.config, now);
        let label = match change {
            OperatorChange::SetScore(target) => {
                let target = target.clamp(0.0, 100.0);
                a.signals.manual_adjustment += target - formula(a, &self.config.weights, now);
                format!("set score {target}")
            }
            OperatorChange::LockTier(t) => {
                a.locked = Some(*t);
                format!("lock tier {}", t.as_str())
            }
            OperatorChange::Unlock => {
                a.locked = None;
                "unlock".into()
            }
            OperatorChange::Floor(f) => {
                a.floor = Some(f.clamp(0.0, 100.0));
                format!("floor {f}")
            }
            OperatorChange::ResetHistory => {
                *a = AgentTrust {
                    locked: a.locked,
                    floor: a.floor,
                    ephemeral: a.ephemeral,
                    ..self.fresh(&a.agent_id, false, now)
                };
                "reset history".into()
            }
        };
        let after = self.refresh(
            a,
            now,
            Some("manual_adjustment"),
            before.score,
            Some(label.clone()),
        );
        (label, before, after)
    }

    /// Recomputes the stored score and tier and appends a history event of `kind` (capped).
    fn refresh(
        &self,
        a: &mut AgentTrust,
        now: i64,
        kind: Option<&str>,
        before: f64,
        reason: Option<String>,
    ) -> TrustSnapshot {
        let snap = TrustSnapshot::of(effective(a, &self.config, now));
        a.score = snap.score;
        a.tier = snap.tier;
        a.last_evaluation = iso(now);
        a.last_seen_ms = now;
        let (age, streak) = score::days(a, now);
        a.signals.age_days = age;
        a.signals.clean_streak = streak;
        let Some(kind) = kind else { return snap };
        let cap = self.config.max_history_per_agent as usize;
        a.history.push(TrustEvent {
            timestamp: iso(now),
            kind: kind.into(),
            delta: ((snap.score - before) * 100.0).round() / 100.0,
            reason,
        });
        if a.history.len() > cap {
            let excess = a.history.len() - cap;
            a.history.drain(..excess);
        }
        snap
    }

    fn mark_dirty(&self) {
        if let Some(p) = &self.persister {
            p.mark_dirty();
        }
    }

    /// One agent as stored, with score and signals brought up to `now`.
    pub fn view(&self, agent_id: &str, now: i64) -> Option<AgentTrust> {
        let roster = self.agents.lock().ok()?;
        let mut a = roster.get(agent_id).cloned()?;
        a.score = effective(&a, &self.config, now);
        a.tier = TrustTier::from_score(a.score);
        let (age, streak) = score::days(&a, now);
        a.signals.age_days = age;
        a.signals.clean_streak = streak;
        Some(a)
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
        if let Ok(roster) = self.agents.lock() {
            ids.extend(roster.ids().map(String::from));
        }
        ids.sort();
        ids.dedup();
        ids
    }

    pub fn signals(&self, agent_id: &str) -> TrustSignals {
        self.view(agent_id, crate::time::now_ms())
            .map(|a| a.signals)
            .unwrap_or_default()
    }

    pub fn tracked(&self) -> usize {
        self.agents.lock().map(|r| r.len()).unwrap_or(0)
    }

    pub fn persist_path(&self) -> Option<String> {
        self.persister
            .as_ref()
            .map(|p| p.path.display().to_string())
    }

    pub fn flush(&self) -> Result<(), String> {
        self.persister.as_ref().map_or(Ok(()), |p| p.flush())
    }

    /// The plugin config was edited while the gateway runs: the same agents and file under new
    /// defaults, weights, decay and bounds. Recorded signals, credits, locks and floors stay (an
    /// operator's decision outlives a config edit); an agent the new defaults name is no longer
    /// evicted first. The persister restarts only for a new interval; the error is from the
    /// write the restart flushes.
    pub fn reconfigure(&mut self, config: TrustConfig) -> Result<(), String> {
        if let Ok(mut roster) = self.agents.lock() {
            for id in config.defaults.keys() {
                roster.update(id, |a| a.ephemeral = false);
            }
        }
        let interval = Duration::from_secs(config.persist_interval_seconds);
        self.config = config;
        match self.persister.as_mut() {
            Some(p) if p.interval() != interval => {
                p.restart(interval, snapshot(&self.agents, self.key.clone()))
            }
            _ => Ok(()),
        }
    }

    pub fn close(&mut self) -> Result<(), String> {
        self.persister.as_mut().map_or(Ok(()), |p| p.close())
    }
}

/// Folds decay into the stored signals before an action, so acting again does not restore a
/// score the agent lost while idle.
fn settle_decay(a: &mut AgentTrust, cfg: &TrustConfig, now: i64) {
    let raw = formula(a, &cfg.weights, now);
    let lost = raw - score::decayed(raw, a, cfg, now);
    if lost > 0.0 {
        a.decay_penalty += lost;
    }
}

/// What the persister writes: the agents as they are when it runs, sealed. Without a key
/// nothing is written (the persister is blocked then, and says why).
fn snapshot(agents: &Arc<Mutex<Roster>>, key: Option<Arc<seal::TrustKey>>) -> store::Snapshot {
    let shared = agents.clone();
    Box::new(move || {
        let roster = shared.lock().ok()?;
        let file = store::TrustStoreOut {
            version: 1,
            updated: iso(crate::time::now_ms()),
            agents: roster.agents(),
        };
        let body = serde_json::to_vec_pretty(&file).ok()?;
        key.as_ref()?.seal(&body)
    })
}

pub const fn days(n: i64) -> i64 {
    n * DAY_MS
}

#[cfg(test)]
mod integrity_tests;
#[cfg(test)]
mod tests;
