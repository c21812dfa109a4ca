//! `getStatus()` / `governance.status`: what is loaded and what the engine has done.
//! Never includes secrets (the LLM apiKey) or evaluation contexts.

use super::{GovernanceEngine, Mode};
use crate::audit::checkpoint::VerifierKey;
use crate::audit::store::COSIGNATURES;
use crate::audit::witness;
use crate::config::ConfigIssue;
use serde::Serialize;
use std::sync::atomic::Ordering;

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PolicySummary {
    pub id: String,
    pub name: String,
    pub builtin: bool,
    pub priority: i64,
    pub rules: usize,
    pub hooks: Vec<&'static str>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Status {
    pub version: &'static str,
    pub enabled: bool,
    pub config_valid: bool,
    pub config_errors: Vec<ConfigIssue>,
    pub fail_mode: String,
    pub unknown_tool_action: String,
    pub timezone: String,
    pub policies: Vec<PolicySummary>,
    pub evaluations: u64,
    pub allowed: u64,
    pub denied: u64,
    pub escalated: u64,
    pub error_fallbacks: u64,
    /// Evaluations that took longer than `performance.maxEvalUs`.
    pub over_budget: u64,
    pub audit: AuditStatus,
    pub trust: TrustStatus,
    /// Parent → child relationships the host reported (`subagent_spawned`).
    pub sub_agents: usize,
    /// The model client (`llm.enabled`): backend, calls, cache hits, failures, p50 latency.
    pub llm: Option<crate::llm::client::ClientStatus>,
    pub uptime_ms: i64,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TrustStatus {
    pub tracked_agents: usize,
    pub file: Option<String>,
    /// False when another process persists trust.json (this one keeps its changes in memory).
    pub persisted: bool,
    pub load_error: Option<String>,
    /// What could be established about the trust.json this engine started from: `new`,
    /// `authenticated`, `legacy` (accepted once, re-signed), `rejected`, `unverified`, `inMemory`.
    pub integrity: crate::trust::store::Integrity,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AuditStatus {
    pub enabled: bool,
    pub dir: Option<String>,
    /// Records this process wrote.
    pub written: u64,
    /// Records in the whole trail, every writer's (the chain's size when this one last wrote).
    pub trail_records: u64,
    pub failed: u64,
    pub last_error: Option<String>,
    /// The checkpoint signing key an auditor pins (`<name>+<hash>+<base64>`).
    pub public_key: Option<String>,
    pub checkpoints: u64,
    pub last_checkpoint: Option<crate::audit::checkpoint::Checkpoint>,
    /// Breaks recorded by this engine (found at start).
    pub breaks: u64,
    /// Result of the verification at start, when `verifyOnStartup` ran.
    pub startup_verification: Option<StartupVerification>,
    /// The witnesses `audit.witnesses` names, each with what it has cosigned of this log.
    pub witnesses: Vec<WitnessStatus>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WitnessStatus {
    pub name: String,
    pub key: String,
    /// The newest checkpoint of this log it has cosigned in `cosignatures`; null: none yet.
    pub cosigned: Option<crate::audit::witness::Cosigned>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StartupVerification {
    pub valid: bool,
    pub records: u64,
    pub problems: usize,
}

impl GovernanceEngine {
    pub fn status(&self) -> Status {
        let c = &self.counters;
        let (enabled, fail_mode, unknown, tz, policies, errors) = match &self.mode {
            Mode::Ready(core) => (
                core.config.enabled,
                format!("{:?}", core.config.fail_mode).to_lowercase(),
                format!("{:?}", core.config.unknown_tool_action).to_lowercase(),
                core.config.timezone_name.clone(),
                core.index.policies().iter().map(summary).collect(),
                Vec::new(),
            ),
            Mode::Invalid {
                error, fail_mode, ..
            } => (
                true,
                format!("{fail_mode:?}").to_lowercase(),
                "n/a".into(),
                "n/a".into(),
                Vec::new(),
                error.issues.clone(),
            ),
        };
        Status {
            version: env!("CARGO_PKG_VERSION"),
            enabled,
            config_valid: errors.is_empty(),
            config_errors: errors,
            fail_mode,
            unknown_tool_action: unknown,
            timezone: tz,
            policies,
            evaluations: c.evaluations.load(Ordering::Relaxed),
            allowed: c.allowed.load(Ordering::Relaxed),
            denied: c.denied.load(Ordering::Relaxed),
            escalated: c.escalated.load(Ordering::Relaxed),
            error_fallbacks: c.fallbacks.load(Ordering::Relaxed),
            over_budget: c.over_budget.load(Ordering::Relaxed),
            audit: self.audit_status(),
            trust: self.trust_status(),
            sub_agents: match &self.mode {
                Mode::Ready(core) => core.live.graph.len(),
                Mode::Invalid { .. } => 0,
            },
            llm: match &self.mode {
                Mode::Ready(core) => core.judge.as_ref().map(|j| j.status()),
                Mode::Invalid { .. } => None,
            },
            uptime_ms: crate::time::now_ms() - self.started_ms,
        }
    }

    fn trust_status(&self) -> TrustStatus {
        match &self.mode {
            Mode::Ready(core) => TrustStatus {
                tracked_agents: core.live.trust.tracked(),
                file: core
                    .live
                    .trust_file
                    .as_ref()
                    .map(|f| f.display().to_string()),
                persisted: core.live.persists_trust(),
                load_error: core.live.trust.load_error.clone(),
                integrity: core.live.trust.integrity(),
            },
            Mode::Invalid { .. } => TrustStatus {
                tracked_agents: 0,
                file: None,
                persisted: false,
                load_error: None,
                integrity: crate::trust::store::Integrity::InMemory,
            },
        }
    }

    fn audit_status(&self) -> AuditStatus {
        let Some(w) = &self.audit else {
            return AuditStatus {
                enabled: false,
                dir: None,
                written: 0,
                trail_records: 0,
                failed: 0,
                last_error: self.audit_problem.clone(),
                public_key: None,
                checkpoints: 0,
                last_checkpoint: None,
                breaks: 0,
                startup_verification: None,
                witnesses: self.witness_status(None),
            };
        };
        let startup = w.stats.startup_verification.lock().ok().and_then(|r| {
            r.as_ref().map(|r| StartupVerification {
                valid: r.valid,
                records: r.records,
                problems: r.problems.len(),
            })
        });
        AuditStatus {
            enabled: true,
            dir: Some(w.dir.display().to_string()),
            written: w.stats.written.load(Ordering::Relaxed),
            trail_records: w.stats.trail_records.load(Ordering::Relaxed),
            failed: w.stats.failed.load(Ordering::Relaxed),
            last_error: w.stats.last_error.lock().ok().and_then(|e| e.clone()),
            public_key: Some(w.public_key.clone()),
            checkpoints: w.stats.checkpoints.load(Ordering::Relaxed),
            last_checkpoint: w.stats.last_checkpoint.lock().ok().and_then(|c| c.clone()),
            breaks: w.stats.breaks.load(Ordering::Relaxed),
            startup_verification: startup,
            witnesses: self.witness_status(Some(w)),
        }
    }

    /// Every configured witness is shown, cosigned or not: one configured and then left out
    /// would read as a witness nobody asked for.
    fn witness_status(&self, writer: Option<&crate::audit::AuditWriter>) -> Vec<WitnessStatus> {
        let Some(config) = self.config() else {
            return Vec::new();
        };
        let keys = &config.audit.witnesses;
        if keys.is_empty() {
            // Status is asked often (registration, every /governance): no file read for nothing.
            return Vec::new();
        }
        let cosigned = writer
            .and_then(|w| {
                let log_key = VerifierKey::parse(&w.public_key).ok()?;
                let text = std::fs::read_to_string(w.dir.join(COSIGNATURES)).unwrap_or_default();
                Some(witness::cosigned_by_each(&text, &log_key, keys))
            })
            .unwrap_or_else(|| vec![None; keys.len()]);
        keys.iter()
            .zip(cosigned)
            .map(|(k, cosigned)| WitnessStatus {
                name: k.name.clone(),
                key: k.vkey(),
                cosigned,
            })
            .collect()
    }
}

fn summary(p: &crate::policy::model::Policy) -> PolicySummary {
    PolicySummary {
        id: p.id.clone(),
        name: p.name.clone(),
        builtin: p.builtin,
        priority: p.priority,
        rules: p.rules.len(),
        hooks: if p.scope.hooks.is_empty() {
            vec!["*"]
        } else {
            p.scope.hooks.iter().map(|h| h.as_str()).collect()
        },
    }
}
