//! The life of an escalation after the verdict: it waits (within the agent's limit), then the
//! host reports how it ended and that becomes evidence linked to the escalation — and, only for
//! a human's decision, a trust signal.

use super::{audit_record, blank_verdict, Core, GovernanceEngine, Mode};
use crate::approvals::{Pending, Resolution};
use crate::audit::AuditVerdict;
use crate::context::Request;
use crate::policy::model::Action;
use crate::time::now_ms;
use crate::trust::Outcome;
use crate::verdict::Verdict;
use serde_json::json;

impl GovernanceEngine {
    /// Registers the escalation as waiting, or denies it when the agent already has
    /// `approval.maxPendingPerAgent` waiting (NORMATIVE N7).
    pub(super) fn hold_for_approval(
        &self,
        core: &Core,
        v: &mut Verdict,
        req: &Request,
        agent_id: &str,
        now: i64,
    ) {
        let Some(a) = &v.approval else { return };
        let max = core.config.approval.max_pending_per_agent as usize;
        let pending = Pending {
            id: a.id.clone(),
            record_id: a.record_id.clone(),
            agent_id: agent_id.to_string(),
            request: req.clone(),
            policy_id: v.policy_id.clone(),
            rule_id: v.rule_id.clone(),
            timeout_ms: a.timeout_ms,
            created_ms: now,
        };
        if let Err(too_many) = core.live.approvals.open(pending, max, now) {
            v.action = Action::Deny;
            v.approval = None;
            v.reason = format!(
                "{} (denied without asking: {agent_id} already has {} approvals waiting, approval.maxPendingPerAgent is {max})",
                v.reason, too_many.waiting
            );
        }
    }

    /// The host's answer to approval `id`: `allow-once | allow-always | deny | timeout |
    /// cancelled`, with the host's reason when it gave one (a cancelled approval's tool result).
    pub fn resolve_approval(
        &self,
        id: &str,
        decision: &str,
        host_reason: Option<&str>,
    ) -> Result<(), String> {
        let Mode::Ready(core) = &self.mode else {
            return Err("the governance config is invalid".into());
        };
        let resolution = Resolution::parse(decision)
            .ok_or_else(|| format!("unknown approval decision \"{decision}\""))?;
        let Some(p) = core.live.approvals.close(id) else {
            self.log("warn", format!("approval {id} ended ({decision}) but is not waiting here: resolved before, or asked by another process"));
            return Ok(());
        };
        let now = now_ms();
        let session = p.request.session_key.as_deref().unwrap_or("");
        // Only a human's decision says something about the agent.
        match resolution {
            Resolution::Approved => self.record_trust(
                core,
                (&p.agent_id, session),
                Outcome::EscalationApproved,
                None,
                now,
            ),
            Resolution::Denied => self.record_trust(
                core,
                (&p.agent_id, session),
                Outcome::EscalationDenied,
                None,
                now,
            ),
            Resolution::TimedOut | Resolution::Unavailable => {}
        }
        self.audit_resolution(core, &p, resolution, decision, host_reason, now);
        Ok(())
    }

    fn audit_resolution(
        &self,
        core: &Core,
        p: &Pending,
        resolution: Resolution,
        decision: &str,
        host_reason: Option<&str>,
        now: i64,
    ) {
        let Some(writer) = &self.audit else { return };
        let (verdict, reason, by) = match resolution {
            Resolution::Approved => (
                AuditVerdict::EscalateApproved,
                "approved",
                "a human, through the host's approval flow (the host does not tell plugins who)",
            ),
            Resolution::Denied => (
                AuditVerdict::EscalateDenied,
                "denied",
                "a human, through the host's approval flow (the host does not tell plugins who)",
            ),
            Resolution::TimedOut => (
                AuditVerdict::EscalateTimeout,
                "no decision in time; the host denied the call",
                "nobody",
            ),
            Resolution::Unavailable => (
                AuditVerdict::EscalateUnavailable,
                "the host could not ask anyone and blocked the call",
                "the host",
            ),
        };
        let mut v = blank_verdict(core.live.trust.snapshot(&p.agent_id));
        v.reason = reason.into();
        v.policy_id = p.policy_id.clone();
        v.rule_id = p.rule_id.clone();
        let mut record = audit_record(&p.request, &p.agent_id, &v, verdict, now, false);
        let mut details = json!({
            "approvalId": p.id,
            "resolves": p.record_id,
            "decision": decision,
            "resolvedBy": by,
            "waitedMs": now - p.created_ms,
        });
        if let Some(r) = host_reason.filter(|r| !r.is_empty()) {
            details["hostReason"] = json!(r);
        }
        record.details = Some(details);
        if let Err(e) = writer.write(record, false) {
            self.log("error", format!("audit record not written: {e}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{EngineOptions, GovernanceEngine, Request};
    use serde_json::{json, Value};

    fn escalating(dir: &std::path::Path, extra: Value) -> GovernanceEngine {
        let mut config = json!({ "trust": { "defaults": { "main": 70 } }, "audit": { "flushIntervalMs": 1 }, "policies": [{ "id": "deploy",
            "rules": [{ "id": "push", "conditions": [{ "type": "tool", "name": "exec" }],
                "effect": { "action": "escalate", "reason": "Pushing needs a human" } }] }] });
        if let (Some(c), Some(e)) = (config.as_object_mut(), extra.as_object()) {
            c.extend(e.clone());
        }
        GovernanceEngine::try_new(
            &config,
            &EngineOptions {
                state_dir: Some(dir.to_path_buf()),
                ..Default::default()
            },
        )
        .unwrap()
    }

    fn push(agent: &str) -> Request {
        serde_json::from_value(json!({ "hook": "before_tool_call", "agentId": agent,
            "sessionKey": format!("agent:{agent}:main"), "toolName": "exec",
            "params": { "command": "git push origin main" } }))
        .unwrap()
    }

    fn records(e: &GovernanceEngine) -> Vec<Value> {
        e.audit_query(&serde_json::from_value(json!({ "limit": 1000 })).unwrap())
            .unwrap()
    }

    #[test]
    fn an_approval_nobody_could_give_is_no_denial() {
        let dir = tempfile::tempdir().unwrap();
        let e = escalating(dir.path(), json!({}));
        let before = e.trust_view("main", None).map(|t| t["score"].clone());
        let v = e.evaluate(&push("main"));
        let id = v.approval.as_ref().unwrap().id.clone();
        let reason = "Plugin approval unavailable: non-interactive CLI runs have no approval-capable initiating surface.";
        e.resolve_approval(&id, "cancelled", Some(reason)).unwrap();
        let after = e.trust_view("main", None).map(|t| t["score"].clone());
        assert_eq!(before, after, "trust untouched");
        let recs = records(&e);
        let esc = recs.iter().find(|r| r["verdict"] == "escalate").unwrap();
        let res = recs
            .iter()
            .find(|r| r["verdict"] == "escalate_unavailable")
            .expect("its own verdict");
        assert!(recs.iter().all(|r| r["verdict"] != "escalate_denied"));
        assert_eq!(res["details"]["approvalId"], json!(id));
        assert_eq!(esc["details"]["approvalId"], json!(id));
        assert_eq!(
            res["details"]["resolves"], esc["id"],
            "the resolution names the escalation"
        );
        assert_eq!(res["details"]["hostReason"], reason);
        assert_eq!(
            (res["policyId"].clone(), res["ruleId"].clone()),
            (json!("deploy"), json!("push"))
        );
    }

    #[test]
    fn a_human_denial_costs_trust_and_is_linked() {
        let dir = tempfile::tempdir().unwrap();
        let e = escalating(dir.path(), json!({}));
        let v = e.evaluate(&push("main"));
        let id = v.approval.unwrap().id;
        let before = e.trust_view("main", None).unwrap()["signals"]["deniedEscalations"].clone();
        e.resolve_approval(&id, "deny", None).unwrap();
        let after = e.trust_view("main", None).unwrap()["signals"]["deniedEscalations"].clone();
        assert_eq!((before, after), (json!(0), json!(1)));
        let recs = records(&e);
        let res = recs
            .iter()
            .find(|r| r["verdict"] == "escalate_denied")
            .unwrap();
        assert_eq!(res["details"]["approvalId"], json!(id));
        e.resolve_approval(&id, "deny", None).unwrap();
        assert_eq!(
            records(&e)
                .iter()
                .filter(|r| r["verdict"] == "escalate_denied")
                .count(),
            1,
            "once"
        );
    }

    #[test]
    fn max_pending_per_agent_holds() {
        let dir = tempfile::tempdir().unwrap();
        let e = escalating(
            dir.path(),
            json!({ "approval": { "maxPendingPerAgent": 2 } }),
        );
        let ids: Vec<String> = (0..2)
            .map(|_| e.evaluate(&push("main")).approval.unwrap().id)
            .collect();
        let third = e.evaluate(&push("main"));
        assert_eq!(third.action.as_str(), "deny");
        assert!(
            third.reason.contains("maxPendingPerAgent"),
            "{}",
            third.reason
        );
        assert_eq!(
            e.evaluate(&push("forge")).action.as_str(),
            "escalate",
            "per agent"
        );
        e.resolve_approval(&ids[0], "allow-once", None).unwrap();
        assert_eq!(
            e.evaluate(&push("main")).action.as_str(),
            "escalate",
            "room again"
        );
    }

    #[test]
    fn the_approver_is_told_what_the_host_does_without_a_decision() {
        let dir = tempfile::tempdir().unwrap();
        let e = escalating(dir.path(), json!({}));
        let a = e.evaluate(&push("main")).approval.unwrap();
        assert!(
            a.description.contains("No decision within 300s: denied"),
            "{}",
            a.description
        );
        assert!(!a.description.contains(": allow"));
        assert!(a.description.contains(&a.id));
        assert!(a.description.chars().count() <= 512 && a.title.chars().count() <= 80);
    }
}
