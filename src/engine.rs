//! `GovernanceEngine`: owns the compiled config and every subsystem; one call per hook.
//!
//! evaluate(request):
//!   facts (agent, local time, trust, frequency) → risk → indexed deny-wins evaluation
//!   → unknown-tool rule → verdict → audit record (durable before return for blocks)

use crate::audit::{AuditVerdict, AuditWriter};
use crate::config::{ConfigError, FailMode, GovernanceConfig, UnknownToolAction};
use crate::context::{agent_from_session_key, Facts, Hook, Request};
use crate::cross_agent::{agent_of_key, message_target};
use crate::frequency::FrequencyScope;
use crate::policy::evaluator::{self, Decision};
use crate::policy::index::PolicyIndex;
use crate::policy::model::{Action, Effect, Fallback};
use crate::risk::{RiskAssessment, RiskAssessor, RiskInput};
use crate::time::{now_ms, LocalTime};
use crate::trust::TrustChange;
use crate::trust::{ActionFingerprint, Outcome, TrustSnapshot};
use crate::verdict::{LogLine, MatchSummary, Verdict};
use evidence::{audit_record, Logs};
use serde_json::Value;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

mod approval;
mod build;
mod escalation;
mod evidence;
mod explain;
mod lineage;
mod live;
mod outcomes;
mod prompt;
mod reload;
mod status;
mod trail;
mod validation;

pub use status::Status;

#[derive(Debug, Clone, Default)]
pub struct EngineOptions {
    /// Where `governance/` lives unless the config names a `workspace`.
    pub state_dir: Option<PathBuf>,
}

#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error("audit writer: {0}")]
    Audit(String),
}

/// The compiled config (built once per config) around the live state (kept across configs).
struct Core {
    config: GovernanceConfig,
    index: PolicyIndex,
    risk: RiskAssessor,
    inherited: lineage::InheritedCache,
    validator: crate::output::Validator,
    live: live::Live,
}

enum Mode {
    Ready(Box<Core>),
    /// The config did not resolve: every call follows `fail_mode` and names the error. The live
    /// state of the config before it waits here for the next good one.
    Invalid {
        error: ConfigError,
        fail_mode: FailMode,
        live: Option<Box<live::Live>>,
    },
}

#[derive(Default)]
struct Counters {
    evaluations: AtomicU64,
    allowed: AtomicU64,
    denied: AtomicU64,
    escalated: AtomicU64,
    fallbacks: AtomicU64,
    over_budget: AtomicU64,
}

pub struct GovernanceEngine {
    mode: Mode,
    audit: Option<AuditWriter>,
    /// Why the configured audit trail has no writer (it could not start).
    audit_problem: Option<String>,
    counters: Counters,
    logs: Logs,
    started_ms: i64,
}

impl GovernanceEngine {
    pub fn config(&self) -> Option<&GovernanceConfig> {
        match &self.mode {
            Mode::Ready(core) => Some(&core.config),
            Mode::Invalid { .. } => None,
        }
    }

    /// What the engine has learnt, whether or not its config resolved.
    fn live(&self) -> Option<&live::Live> {
        match &self.mode {
            Mode::Ready(core) => Some(&core.live),
            Mode::Invalid { live, .. } => live.as_deref(),
        }
    }

    pub fn config_error(&self) -> Option<&ConfigError> {
        match &self.mode {
            Mode::Invalid { error, .. } => Some(error),
            Mode::Ready(_) => None,
        }
    }

    /// Judges one action before it happens.
    pub fn evaluate(&self, req: &Request) -> Verdict {
        let started = Instant::now();
        self.counters.evaluations.fetch_add(1, Ordering::Relaxed);
        let mut verdict = match &self.mode {
            Mode::Ready(core) if !core.config.enabled => self.disabled_verdict(core, req),
            Mode::Ready(core) => match Hook::parse(&req.hook) {
                Some(hook) => self.judge(core, hook, req, started),
                None => self.fallback(
                    req,
                    core.config.fail_mode,
                    format!("unknown hook \"{}\"", req.hook),
                    started,
                ),
            },
            Mode::Invalid {
                error, fail_mode, ..
            } => self.fallback(req, *fail_mode, error.to_string(), started),
        };
        self.count(&verdict);
        verdict.logs = self.take_logs();
        verdict
    }

    fn judge(&self, core: &Core, hook: Hook, req: &Request, started: Instant) -> Verdict {
        let agent_id = resolve_agent(req);
        let session_key = req.session_key.as_deref().unwrap_or("");
        let now = req.timestamp.map_or_else(now_ms, |t| t as i64);
        let mut verdict = self.assess(core, hook, req, agent_id, session_key, now);
        verdict.evaluation_us = elapsed_us(started);
        self.check_budget(core, &mut verdict);
        if hook == Hook::BeforeToolCall && verdict.action != Action::Deny {
            core.live.frequency.record(agent_id, session_key, now);
        }
        if verdict.is_block() {
            self.record_trust(core, (agent_id, session_key), Outcome::Blocked, None, now);
        }
        if hook == Hook::BeforeToolCall && verdict.action == Action::Escalate {
            self.hold_for_approval(core, &mut verdict, req, agent_id, now);
        }
        if core.config.fail_mode == FailMode::Closed {
            self.refuse_unrecorded(&mut verdict);
        }
        self.audit(req, agent_id, &verdict, now);
        verdict
    }

    /// `performance.maxEvalUs` is a budget that is watched, not a cut-off: a deny-wins walk
    /// stopped early could miss the deny. Over it, the verdict and its record say so, status
    /// counts it, and the log says it (the first time, then every 100th).
    fn check_budget(&self, core: &Core, v: &mut Verdict) {
        let budget = core.config.performance.max_eval_us;
        if v.evaluation_us <= budget as f64 {
            return;
        }
        v.over_budget_us = Some(budget);
        let n = self.counters.over_budget.fetch_add(1, Ordering::Relaxed);
        if n.is_multiple_of(100) {
            self.log(
                "warn",
                format!(
                    "an evaluation took {} µs, over performance.maxEvalUs ({budget} µs); {} so far",
                    v.evaluation_us,
                    n + 1
                ),
            );
        }
    }

    /// `failMode: closed`: what cannot be recorded is not allowed. The agent did nothing wrong,
    /// so this is not a violation for its trust.
    fn refuse_unrecorded(&self, v: &mut Verdict) {
        if v.action == Action::Deny {
            return;
        }
        let Some(problem) = self.audit_unavailable() else {
            return;
        };
        v.action = Action::Deny;
        v.reason =
            format!("Governance failed closed: the audit trail cannot be written ({problem})");
        v.policy_id = None;
        v.rule_id = Some("fail-mode".into());
        v.approval = None;
    }

    /// Why records cannot be written now: the writer did not start, or its last write failed.
    fn audit_unavailable(&self) -> Option<String> {
        if let Some(problem) = &self.audit_problem {
            return Some(problem.clone());
        }
        let w = self.audit.as_ref()?;
        if w.healthy() {
            return None;
        }
        let last = w.stats.last_error.lock().ok().and_then(|e| e.clone());
        Some(last.unwrap_or_else(|| "a write failed".into()))
    }

    /// The decision alone, recording nothing (`explain` asks it too).
    fn assess(
        &self,
        core: &Core,
        hook: Hook,
        req: &Request,
        agent_id: &str,
        session_key: &str,
        now: i64,
    ) -> Verdict {
        let lineage = lineage::lineage(core, hook, agent_id, session_key, now);
        let local = LocalTime::at(now, core.config.timezone);
        let trust = lineage.trust;
        let risk = core.risk.assess(&RiskInput {
            tool: req.tool_name.as_deref(),
            params: req.params.as_ref(),
            message_to: req.message_to.as_deref(),
            trust_score: trust.score,
            local,
            recent_calls: core.live.frequency.count(
                FrequencyScope::Agent,
                agent_id,
                session_key,
                60_000,
                now,
            ),
        });
        let decision = core.live.conversations.with(session_key, |conversation| {
            let facts = Facts {
                req,
                hook,
                agent_id,
                session_key,
                now_ms: now,
                local,
                trust,
                risk: &risk,
                frequency: &core.live.frequency,
                conversation,
            };
            match &lineage.ranks {
                Some(ranks) => evaluator::walk(&core.index, ranks, &facts),
                None => evaluator::evaluate(&core.index, hook, &facts),
            }
        });
        let mut verdict = self.decide(core, hook, req, agent_id, decision, risk, trust);
        verdict.cross_agent = lineage.cross;
        if matches!(hook, Hook::BeforeToolCall | Hook::MessageSending) {
            self.check_receiver(core, req, &mut verdict, now);
        }
        verdict
    }

    /// Agent-to-agent messages: the receiver's inbound policies (hook `message_received`) must
    /// allow as well as the sender's outbound ones (seed 002 §5.3); the stronger verdict wins.
    fn check_receiver(&self, core: &Core, req: &Request, v: &mut Verdict, now: i64) {
        let Some(target) = message_target(
            req.tool_name.as_deref(),
            req.params.as_ref(),
            req.message_to.as_deref(),
        ) else {
            return;
        };
        let Some(receiver) = agent_of_key(&target).map(str::to_string) else {
            return;
        };
        let text = req.message_content.clone().or_else(|| {
            req.params
                .as_ref()
                .and_then(|p| p.get("message"))
                .and_then(Value::as_str)
                .map(str::to_string)
        });
        let inbound = Request {
            hook: Hook::MessageReceived.as_str().into(),
            agent_id: Some(receiver.clone()),
            session_key: Some(target.clone()),
            channel: Some("agent".into()),
            message_content: text,
            message_to: Some(target.clone()),
            metadata: req.metadata.clone(),
            timestamp: req.timestamp,
            ..Request::default()
        };
        let theirs = self.assess(
            core,
            Hook::MessageReceived,
            &inbound,
            &receiver,
            &target,
            now,
        );
        if theirs.action > v.action {
            v.action = theirs.action;
            v.reason = format!("Receiver {receiver}'s inbound policy: {}", theirs.reason);
            v.policy_id = theirs.policy_id;
            v.rule_id = theirs.rule_id;
            v.approval = theirs.approval;
        }
        v.matched.extend(theirs.matched);
    }

    /// Feeds trust; a tier change is evidence (ISO A.5.15, A.8.2).
    /// `action` names a success for the identical-action rule of trust credit.
    fn record_trust(
        &self,
        core: &Core,
        (agent_id, session_key): (&str, &str),
        outcome: Outcome,
        action: Option<ActionFingerprint>,
        now: i64,
    ) {
        let ephemeral = crate::cross_agent::is_subagent_key(session_key);
        let trust = &core.live.trust;
        if let Some(change) = trust.record_action(agent_id, outcome, action, ephemeral, now) {
            self.audit_trust(&change, "engine", now);
        }
    }

    fn audit_trust(&self, change: &TrustChange, by: &str, now: i64) {
        let Some(writer) = &self.audit else { return };
        let details = serde_json::json!({ "change": change.change, "from": change.from, "to": change.to, "by": by });
        let mut record = crate::audit::AuditRecord::event(AuditVerdict::TrustChange, details, now);
        record.context.agent_id = change.agent_id.clone();
        record.context.hook = "trust".into();
        record.trust = change.to;
        if let Err(e) = writer.write(record, false) {
            self.log("error", format!("audit record not written: {e}"));
        }
    }

    #[allow(clippy::too_many_arguments)] // one call site; each argument is a distinct fact of the decision
    fn decide(
        &self,
        core: &Core,
        hook: Hook,
        req: &Request,
        agent_id: &str,
        decision: Decision,
        risk: RiskAssessment,
        trust: TrustSnapshot,
    ) -> Verdict {
        let matched = decision
            .matched
            .iter()
            .map(|m| MatchSummary {
                policy_id: m.policy.id.clone(),
                rule_id: m.rule.id.clone(),
                effect: m.rule.effect.action().as_str(),
            })
            .collect();
        let mut v = Verdict {
            action: Action::Allow,
            reason: "No policy matched".into(),
            policy_id: None,
            rule_id: None,
            risk,
            trust,
            matched,
            evaluation_us: 0.0,
            over_budget_us: None,
            llm_escalated: false,
            approval: None,
            error: None,
            cross_agent: None,
            logs: Vec::new(),
        };
        match decision.decisive {
            Some(m) => {
                v.policy_id = Some(m.policy.id.clone());
                v.rule_id = Some(m.rule.id.clone());
                self.apply_effect(
                    core,
                    &mut v,
                    &m.rule.effect,
                    &m.policy.id,
                    &m.rule.id,
                    req,
                    agent_id,
                );
            }
            None if hook == Hook::BeforeToolCall => self.unknown_tool(core, &mut v, req, agent_id),
            None => {}
        }
        v
    }

    #[allow(clippy::too_many_arguments)] // the effect needs the rule's identity and the request
    fn apply_effect(
        &self,
        core: &Core,
        v: &mut Verdict,
        effect: &Effect,
        policy_id: &str,
        rule_id: &str,
        req: &Request,
        agent_id: &str,
    ) {
        match effect {
            Effect::Allow => v.reason = format!("Allowed by {policy_id}/{rule_id}"),
            Effect::Audit => v.reason = format!("Allowed and audited by {policy_id}/{rule_id}"),
            Effect::Deny { reason } => {
                v.action = Action::Deny;
                v.reason = reason.clone();
            }
            Effect::Escalate {
                reason,
                timeout_seconds,
                fallback,
                severity,
            } => {
                let reason = reason
                    .clone()
                    .unwrap_or_else(|| format!("{policy_id}/{rule_id} requires approval"));
                let spec = approval::Spec {
                    reason,
                    timeout_seconds: *timeout_seconds,
                    fallback: *fallback,
                    severity: *severity,
                };
                approval::escalate(&core.config.approval, v, spec, req, agent_id);
            }
        }
    }

    /// Seed 003's fail-closed default, configurable: tools no policy names and no risk profile knows.
    fn unknown_tool(&self, core: &Core, v: &mut Verdict, req: &Request, agent_id: &str) {
        let Some(tool) = req.tool_name.as_deref() else {
            return;
        };
        if core.index.names_tool(tool) || core.risk.profile(tool).is_some() {
            return;
        }
        let reason =
            format!("Unknown tool \"{tool}\": no policy names it and it has no risk profile");
        v.rule_id = Some("unknown-tool".into());
        match core.config.unknown_tool_action {
            UnknownToolAction::Allow => {}
            UnknownToolAction::Deny => {
                v.action = Action::Deny;
                v.reason = format!("{reason} (unknownToolAction: deny)");
            }
            UnknownToolAction::Escalate => {
                let spec = approval::Spec {
                    reason,
                    timeout_seconds: None,
                    fallback: None,
                    severity: None,
                };
                approval::escalate(&core.config.approval, v, spec, req, agent_id);
            }
        }
    }

    /// An internal failure (bad input from the host, a panic caught at the boundary) follows failMode.
    pub fn fail(&self, req: &Request, error: String) -> Verdict {
        let mode = match &self.mode {
            Mode::Ready(core) => core.config.fail_mode,
            Mode::Invalid { fail_mode, .. } => *fail_mode,
        };
        self.fail_as(req, mode, error)
    }

    /// A request that its own content makes unreadable is denied whatever failMode says: the
    /// content comes from the agent, which must not be able to turn governance off by how it
    /// shapes a tool call.
    pub fn refuse(&self, req: &Request, error: String) -> Verdict {
        self.fail_as(req, FailMode::Closed, error)
    }

    fn fail_as(&self, req: &Request, mode: FailMode, error: String) -> Verdict {
        self.counters.evaluations.fetch_add(1, Ordering::Relaxed);
        let mut v = self.fallback(req, mode, error, Instant::now());
        self.count(&v);
        v.logs = self.take_logs();
        v
    }

    fn disabled_verdict(&self, core: &Core, req: &Request) -> Verdict {
        let trust = core.live.trust.snapshot(resolve_agent(req));
        let mut v = blank_verdict(trust);
        v.reason = "Governance disabled by config (enabled: false)".into();
        v
    }

    /// failMode in action: closed blocks naming the error, open allows; both audit `error_fallback`.
    fn fallback(&self, req: &Request, mode: FailMode, error: String, started: Instant) -> Verdict {
        let mut v = blank_verdict(TrustSnapshot::of(crate::trust::UNKNOWN_AGENT_SCORE));
        v.error = Some(error.clone());
        v.rule_id = Some("fail-mode".into());
        if mode == FailMode::Closed {
            v.action = Action::Deny;
            v.reason = format!("Governance failed closed: {error}");
        } else {
            v.reason = format!("Governance failed open: {error}");
        }
        v.evaluation_us = elapsed_us(started);
        self.audit(
            req,
            resolve_agent(req),
            &v,
            req.timestamp.map_or_else(now_ms, |t| t as i64),
        );
        v
    }

    fn audit(&self, req: &Request, agent_id: &str, v: &Verdict, now: i64) {
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
        if !details.is_empty() {
            record.details = Some(serde_json::Value::Object(details));
        }
        let durable = v.is_block() && self.sync_on_block();
        if let Err(e) = writer.write(record, durable) {
            self.log("error", format!("audit record not written: {e}"));
        }
    }

    /// Without a readable config, blocks are made durable: the safe default of `syncOnBlock`.
    fn sync_on_block(&self) -> bool {
        match &self.mode {
            Mode::Ready(core) => core.config.audit.sync_on_block,
            Mode::Invalid { .. } => true,
        }
    }

    fn verbose(&self) -> bool {
        matches!(&self.mode, Mode::Ready(core) if core.config.audit.level == crate::config::AuditLevel::Verbose)
    }

    fn count(&self, v: &Verdict) {
        let c = &self.counters;
        let counter = match (v.error.is_some(), v.action) {
            (true, _) => &c.fallbacks,
            (_, Action::Deny) => &c.denied,
            (_, Action::Escalate) => &c.escalated,
            _ => &c.allowed,
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }

    pub fn log(&self, level: &'static str, message: String) {
        if let Ok(mut logs) = self.logs.lock() {
            logs.push(LogLine { level, message });
        }
    }

    pub fn take_logs(&self) -> Vec<LogLine> {
        self.logs
            .lock()
            .map(|mut l| std::mem::take(&mut *l))
            .unwrap_or_default()
    }
}

/// Who acts: the host's agentId, else the agent its session key names.
pub fn resolve_agent(req: &Request) -> &str {
    req.agent_id
        .as_deref()
        .filter(|a| !a.is_empty())
        .or_else(|| req.session_key.as_deref().and_then(agent_from_session_key))
        .unwrap_or("unknown")
}

fn blank_verdict(trust: TrustSnapshot) -> Verdict {
    Verdict {
        action: Action::Allow,
        reason: String::new(),
        policy_id: None,
        rule_id: None,
        risk: RiskAssessment {
            level: crate::risk::RiskLevel::Low,
            score: 0.0,
            factors: Vec::new(),
        },
        trust,
        matched: Vec::new(),
        evaluation_us: 0.0,
        over_budget_us: None,
        llm_escalated: false,
        approval: None,
        error: None,
        cross_agent: None,
        logs: Vec::new(),
    }
}

fn elapsed_us(started: Instant) -> f64 {
    (started.elapsed().as_nanos() as f64 / 100.0).round() / 10.0
}

impl Drop for GovernanceEngine {
    fn drop(&mut self) {
        let _ = self.close();
    }
}

impl Fallback {
    pub fn as_str(self) -> &'static str {
        match self {
            Fallback::Allow => "allow",
            Fallback::Deny => "deny",
        }
    }
}

#[cfg(test)]
mod tests;
