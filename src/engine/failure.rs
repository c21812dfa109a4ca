//! What failure means: `failMode` for a config that did not resolve or an internal error, refusals
//! of requests whose own content makes them unjudgeable, `failMode: closed` refusing what cannot
//! be recorded, and the evaluation budget that is watched rather than enforced.

use super::{blank_verdict, elapsed_us, resolve_agent, Core, GovernanceEngine, Mode};
use crate::config::FailMode;
use crate::context::Request;
use crate::policy::model::Action;
use crate::time::now_ms;
use crate::trust::TrustSnapshot;
use crate::verdict::Verdict;
use std::sync::atomic::Ordering;
use std::time::Instant;

impl GovernanceEngine {
    /// `performance.maxEvalUs` is a budget that is watched, not a cut-off: a deny-wins walk
    /// stopped early could miss the deny. Over it, the verdict and its record say so, status
    /// counts it, and the log says it (the first time, then every 100th).
    pub(super) fn check_budget(&self, core: &Core, v: &mut Verdict) {
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
    pub(super) fn refuse_unrecorded(&self, v: &mut Verdict) {
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
    pub(super) fn audit_unavailable(&self) -> Option<String> {
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

    pub(super) fn fail_as(&self, req: &Request, mode: FailMode, error: String) -> Verdict {
        self.counters.evaluations.fetch_add(1, Ordering::Relaxed);
        let mut v = self.fallback(req, mode, error, Instant::now());
        self.count(&v);
        v.logs = self.take_logs();
        v
    }

    pub(super) fn disabled_verdict(&self, core: &Core, req: &Request) -> Verdict {
        let trust = core.live.trust.snapshot(resolve_agent(req));
        let mut v = blank_verdict(trust);
        v.reason = "Governance disabled by config (enabled: false)".into();
        v
    }

    /// failMode in action: closed blocks naming the error, open allows; both audit `error_fallback`.
    pub(super) fn fallback(
        &self,
        req: &Request,
        mode: FailMode,
        error: String,
        started: Instant,
    ) -> Verdict {
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
            None,
        );
        v
    }
}
