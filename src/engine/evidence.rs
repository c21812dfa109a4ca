//! The engine's side of the audit trail: which writer to start (directory, key, checkpoints,
//! retention) and what one evaluation's record says.

use super::EngineOptions;
use crate::audit::redact::Redactor;
use crate::audit::{
    AuditContext, AuditRecord, AuditVerdict, AuditWriter, MatchedPolicy, RiskSummary, WriterOptions,
};
use crate::config::GovernanceConfig;
use crate::context::{Hook, Request};
use crate::policy::model::Action;
use crate::verdict::{LogLine, Verdict};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Log lines waiting for the host logger; shared with the writer thread.
pub type Logs = Arc<Mutex<Vec<LogLine>>>;

/// `<workspace or state dir>`, under which `governance/` lives.
pub fn base_dir(config: &GovernanceConfig, opts: &EngineOptions) -> Option<PathBuf> {
    config
        .workspace
        .as_ref()
        .map(PathBuf::from)
        .or_else(|| opts.state_dir.clone())
}

pub fn start_audit(
    config: &GovernanceConfig,
    opts: &EngineOptions,
    logs: &Logs,
) -> Result<Option<AuditWriter>, String> {
    match writer_options(config, opts, logs) {
        Some(options) => AuditWriter::start(options).map(Some),
        None => Ok(None),
    }
}

/// The writer the config asks for; None when the audit is off or there is no directory for it.
pub fn writer_options(
    config: &GovernanceConfig,
    opts: &EngineOptions,
    logs: &Logs,
) -> Option<WriterOptions> {
    if !config.audit.enabled {
        return None;
    }
    let governance = base_dir(config, opts)?.join("governance");
    let cp = &config.audit.checkpoint;
    let sink = logs.clone();
    Some(WriterOptions {
        dir: governance.join("audit"),
        tz: config.timezone,
        level: config.audit.level,
        flush_interval: Duration::from_millis(config.audit.flush_interval_ms),
        redactor: Redactor::new(config.audit.redact_patterns.clone()),
        key_file: cp.key_file.as_ref().map_or_else(
            || governance.join("keys").join("audit-signing.key"),
            PathBuf::from,
        ),
        checkpoint_every_records: cp.every_records,
        checkpoint_every: Duration::from_secs(cp.every_seconds),
        retention_days: config.audit.retention_days,
        verify_on_startup: config.audit.verify_on_startup,
        log: Arc::new(move |level, message| {
            if let Ok(mut l) = sink.lock() {
                l.push(LogLine { level, message });
            }
        }),
    })
}

/// One evaluation as evidence. The writer thread fills id, seq, prevHash, timestampIso and
/// controls, and redacts, so the calling thread only moves data.
pub fn audit_record(
    req: &Request,
    agent_id: &str,
    v: &Verdict,
    verdict: AuditVerdict,
    now: i64,
    verbose: bool,
) -> AuditRecord {
    let hook = if Hook::parse(&req.hook).is_some() {
        req.hook.clone()
    } else {
        format!("unknown:{}", req.hook)
    };
    let blocked = v.is_block();
    AuditRecord {
        block_reason: blocked.then(|| v.reason.clone()),
        context: AuditContext {
            agent_id: agent_id.to_string(),
            channel: req.channel.clone(),
            hook,
            message_content: req.message_content.clone(),
            message_to: req.message_to.clone(),
            output_validation: None,
            session_key: req.session_key.clone().unwrap_or_default(),
            tool_name: req.tool_name.clone(),
            tool_params: req.params.clone(),
        },
        controls: Vec::new(),
        cross_agent: v.cross_agent.clone(),
        details: None,
        error: v.error.clone(),
        evaluation_us: v.evaluation_us,
        execution_prevented: blocked.then_some(true),
        id: String::new(),
        llm_escalated: v.llm_escalated,
        matched_policies: v
            .matched
            .iter()
            .map(|m| MatchedPolicy {
                effect: m.effect,
                policy_id: m.policy_id.clone(),
                rule_id: m.rule_id.clone(),
            })
            .collect(),
        policy_id: v.policy_id.clone(),
        prev_hash: String::new(),
        provenance: v.taint.as_deref().and_then(crate::provenance::Taint::audit),
        risk: RiskSummary {
            factors: if verbose {
                v.risk.factors.clone()
            } else {
                Vec::new()
            },
            level: v.risk.level,
            score: v.risk.score,
        },
        rule_id: v.rule_id.clone(),
        seq: 0,
        timestamp: now,
        timestamp_iso: String::new(),
        trust: v.trust,
        verdict,
    }
}

/// `<base>/governance/trust.json`, when the engine has a state directory.
pub fn trust_path(config: &GovernanceConfig, opts: &EngineOptions) -> Option<PathBuf> {
    base_dir(config, opts).map(|b| b.join("governance").join("trust.json"))
}

impl super::GovernanceEngine {
    /// One evaluation into the trail; a block's record is durable before this returns.
    /// `turn_graph`: the provenance turn graph so far, when a `log_full_context` policy holds.
    pub(super) fn audit(
        &self,
        req: &Request,
        agent_id: &str,
        v: &Verdict,
        now: i64,
        turn_graph: Option<serde_json::Value>,
    ) {
        let Some(writer) = &self.audit else { return };
        let verdict = if v.error.is_some() {
            AuditVerdict::ErrorFallback
        } else {
            match v.action {
                Action::Deny => AuditVerdict::Deny,
                Action::Escalate => AuditVerdict::Escalate,
                Action::Allow | Action::Audit => AuditVerdict::Allow,
            }
        };
        let mut record = audit_record(req, agent_id, v, verdict, now, self.verbose());
        let mut details = serde_json::Map::new();
        if let Some(a) = &v.approval {
            // The resolution's record names this one, and both carry the approval id.
            record.id = a.record_id.clone();
            details.insert("approvalId".into(), a.id.clone().into());
        }
        if let Some(budget) = v.over_budget_us {
            details.insert("overBudgetUs".into(), budget.into());
        }
        if let Some(g) = turn_graph {
            details.insert("turnGraph".into(), g);
        }
        if !details.is_empty() {
            record.details = Some(serde_json::Value::Object(details));
        }
        let durable = v.is_block() && self.sync_on_block();
        if let Err(e) = writer.write(record, durable) {
            self.log("error", format!("audit record not written: {e}"));
        }
    }

    /// Without a readable config, blocks are made durable: the safe default of `syncOnBlock`.
    pub(super) fn sync_on_block(&self) -> bool {
        match &self.mode {
            super::Mode::Ready(core) => core.config.audit.sync_on_block,
            super::Mode::Invalid { .. } => true,
        }
    }

    pub(super) fn verbose(&self) -> bool {
        matches!(&self.mode, super::Mode::Ready(core) if core.config.audit.level == crate::config::AuditLevel::Verbose)
    }
}
