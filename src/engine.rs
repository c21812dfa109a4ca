//! `GovernanceEngine`: owns the compiled config and every subsystem; one call per hook.
//!
//! evaluate(request):
//!   facts (agent, local time, trust, frequency) → risk → indexed deny-wins evaluation
//!   → unknown-tool rule → verdict → audit record (durable before return for blocks)

use crate::audit::{AuditVerdict, AuditWriter};
use crate::config::{ConfigError, FailMode, GovernanceConfig};
use crate::context::{agent_from_session_key, Facts, Hook, Request};
use crate::frequency::FrequencyScope;
use crate::policy::conditions::intent::Intents;
use crate::policy::evaluator;
use crate::policy::index::PolicyIndex;
use crate::policy::model::{Action, Fallback};
use crate::risk::{RiskAssessment, RiskAssessor, RiskInput};
use crate::time::{now_ms, LocalTime};
use crate::trust::TrustChange;
use crate::trust::{ActionFingerprint, Outcome, TrustSnapshot};
use crate::verdict::{LogLine, Verdict};
use evidence::{audit_record, Logs};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

mod approval;
mod build;
mod decision;
mod escalation;
mod evidence;
mod explain;
mod external;
mod failure;
pub mod judgment;
mod lineage;
mod live;
mod messages;
mod outcomes;
mod prompt;
pub mod provenance;
mod reload;
mod status;
mod trail;
mod validation;
mod written;

pub use status::Status;

#[derive(Debug, Clone, Default)]
pub struct EngineOptions {
    /// Where `governance/` lives unless the config names a `workspace`.
    pub state_dir: Option<PathBuf>,
    /// Where the host's agents work and keep their config: what guards resolve paths against.
    pub host: crate::call::HostPaths,
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
    /// Paths the guards resolve against and protect, and the guards the config turns on.
    guards: crate::guards::GuardEnv,
    index: PolicyIndex,
    risk: RiskAssessor,
    inherited: lineage::InheritedCache,
    validator: crate::output::Validator,
    /// The model intent conditions and risk escalation ask (`llm.enabled`).
    judge: Option<std::sync::Arc<judgment::Judge>>,
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
    /// Calls parked until a model answers.
    waiting: judgment::Waiting,
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

    /// Judges one action before it happens. A verdict with `pending` waits for a model: the
    /// binding awaits [`judgment::Job::ask`] and hands the answers to [`Self::finish_job`].
    pub fn evaluate(&self, req: &Request) -> Verdict {
        self.evaluate_with(req, &judgment::Answers::default())
    }

    fn evaluate_with(&self, req: &Request, answers: &judgment::Answers) -> Verdict {
        let started = Instant::now();
        self.counters.evaluations.fetch_add(1, Ordering::Relaxed);
        let mut verdict = match &self.mode {
            Mode::Ready(core) if !core.config.enabled => self.disabled_verdict(core, req),
            Mode::Ready(core) => match Hook::parse(&req.hook) {
                Some(hook) => self.judge(core, hook, req, started, answers),
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
        if verdict.pending.is_none() {
            self.count(&verdict);
        }
        verdict.logs = self.take_logs();
        verdict
    }

    fn judge(
        &self,
        core: &Core,
        hook: Hook,
        req: &Request,
        started: Instant,
        answers: &judgment::Answers,
    ) -> Verdict {
        let agent_id = resolve_agent(req);
        let session_key = req.session_key.as_deref().unwrap_or("");
        let now = req.timestamp.map_or_else(now_ms, |t| t as i64);
        let mut verdict = self.assess(core, hook, req, (agent_id, session_key), now, answers);
        let questions = std::mem::take(&mut verdict.questions);
        if !questions.is_empty() {
            // Nothing is recorded until the answers are in: the call is evaluated again then.
            verdict.pending = self.park(core, req, questions);
            if verdict.pending.is_some() {
                return verdict;
            }
            // A flood of calls must not switch the model off for the next one: with failMode
            // closed it is refused like any call the model could not judge.
            self.unjudged(core, &mut verdict);
        }
        self.model_failures(core, answers, &mut verdict);
        self.audit_model_calls(req, agent_id, answers, now);
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
        let graph = match hook {
            Hook::BeforeToolCall => self.graph_decision(core, req, &verdict, now),
            _ => None,
        };
        written::remember(core, session_key, &mut verdict);
        self.audit(req, agent_id, &verdict, now, graph);
        verdict
    }

    /// The decision alone, recording nothing (`explain` asks it too). Intent questions no
    /// answer covers are returned in `questions` (unless a regex deny made them moot).
    fn assess(
        &self,
        core: &Core,
        hook: Hook,
        req: &Request,
        (agent_id, session_key): (&str, &str),
        now: i64,
        answers: &judgment::Answers,
    ) -> Verdict {
        let lineage = lineage::lineage(core, hook, agent_id, session_key, now);
        let trust = lineage.trust;
        let local = LocalTime::at(now, core.config.timezone);
        let risk = self.risk_of(
            core,
            req,
            (agent_id, session_key),
            trust.score,
            (now, local),
        );
        let earlier = written::earlier(core, session_key, req);
        let typed_before = earlier.shell.clone();
        let call = crate::guards::CallFacts::new(req, agent_id, &core.guards).with_earlier(earlier);
        let (taint, iteration) = provenance::session_state(core, session_key);
        let judge = core.judge.as_deref();
        let known = judgment::known(judge, answers, req, risk.score, now);
        let intents = Intents::new(&known);
        let basis = Basis {
            hook,
            req,
            agent_id,
            session_key,
            now,
            local,
            trust,
            risk: &risk,
            call: &call,
            taint: taint.as_deref(),
            intents: &intents,
        };
        let (decision, escalate, questions) = self.with_facts(core, &basis, |facts| {
            let decision = match &lineage.ranks {
                Some(ranks) => evaluator::walk(&core.index, ranks, facts),
                None => evaluator::evaluate(&core.index, hook, facts),
            };
            let (escalate, questions) = judgment::consult(judge, hook, &decision, facts);
            (decision, escalate, questions)
        });
        let guard = decision.decisive.and_then(|m| m.rule.guard());
        // Read before `decide` takes the risk the facts borrow.
        let p = &core.config.provenance;
        let legs = (hook == Hook::BeforeToolCall && p.enabled && p.rule_of_two)
            .then(|| self.call_legs(core, &basis));
        let mut verdict = self.decide(core, hook, req, agent_id, decision, risk, trust);
        verdict.questions = questions;
        if escalate {
            judgment::escalate(core, req, agent_id, &mut verdict);
        }
        if let Some(finding) = guard.and_then(|g| call.finding(g)) {
            // "Credential guard: `cat .en?` opens /srv/app/.env (dotenv file)": the guard's
            // name, then what it saw.
            let name = verdict.reason.split(':').next().unwrap_or_default();
            verdict.reason = format!("{name}: {}", finding.reason);
        }
        if hook == Hook::BeforeToolCall {
            provenance::gate(core, req, taint.as_deref(), iteration, &mut verdict);
            if let Some(legs) = &legs {
                provenance::rule_of_two(
                    core,
                    (req, agent_id),
                    taint.as_deref(),
                    legs,
                    &mut verdict,
                );
            }
        }
        if hook == Hook::BeforeToolCall {
            let facts = (req, agent_id, trust);
            if let Some(q) = external::judge(core, facts, &call, answers, &mut verdict) {
                verdict.questions.push(q);
            }
        }
        if hook == Hook::BeforeToolCall {
            verdict.writes = written::changes(req, &call);
            verdict.links = written::link_changes(req, &call);
            verdict.typed = written::typed_rest(req, &typed_before);
        }
        verdict.cross_agent = lineage.cross;
        verdict.taint = taint;
        if matches!(hook, Hook::BeforeToolCall | Hook::MessageSending) {
            self.check_receiver(core, req, &mut verdict, now);
        }
        verdict
    }

    fn risk_of(
        &self,
        core: &Core,
        req: &Request,
        (agent_id, session_key): (&str, &str),
        trust_score: f64,
        (now, local): (i64, LocalTime),
    ) -> RiskAssessment {
        core.risk.assess(&RiskInput {
            tool: req.tool_name.as_deref(),
            params: req.params.as_ref(),
            message_to: req.message_to.as_deref(),
            trust_score,
            local,
            recent_calls: core.live.frequency.count(
                FrequencyScope::Agent,
                agent_id,
                session_key,
                60_000,
                now,
            ),
        })
    }

    /// Runs `f` on the facts conditions read, with the session's recent messages borrowed.
    fn with_facts<R>(&self, core: &Core, b: &Basis, f: impl FnOnce(&Facts) -> R) -> R {
        core.live.conversations.with(b.session_key, |conversation| {
            f(&Facts {
                call: b.call,
                req: b.req,
                hook: b.hook,
                agent_id: b.agent_id,
                session_key: b.session_key,
                now_ms: b.now,
                local: b.local,
                trust: b.trust,
                risk: b.risk,
                frequency: &core.live.frequency,
                conversation,
                taint: b.taint,
                intents: b.intents,
            })
        })
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
/// What one evaluation's facts are built from.
struct Basis<'a> {
    hook: Hook,
    req: &'a Request,
    agent_id: &'a str,
    session_key: &'a str,
    now: i64,
    local: LocalTime,
    trust: TrustSnapshot,
    risk: &'a RiskAssessment,
    call: &'a crate::guards::CallFacts<'a>,
    taint: Option<&'a crate::provenance::Taint>,
    intents: &'a Intents<'a>,
}

pub fn resolve_agent(req: &Request) -> &str {
    req.agent_id
        .as_deref()
        .filter(|a| !a.is_empty())
        .or_else(|| req.session_key.as_deref().and_then(agent_from_session_key))
        .unwrap_or("unknown")
}

fn blank_verdict(trust: TrustSnapshot) -> Verdict {
    Verdict {
        taint: None,
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
        pending: None,
        questions: Vec::new(),
        writes: Vec::new(),
        typed: None,
        links: Vec::new(),
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
