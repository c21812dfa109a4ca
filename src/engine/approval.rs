//! Escalations become the host's own approval flow (`requireApproval`, HOST.md), described the
//! way NORMATIVE N7 asks: agent, action, sanitized params, risk, policy and rule, trust, timeout.

use crate::audit::redact::Redactor;
use crate::config::ApprovalConfig;
use crate::context::Request;
use crate::policy::model::{Action, Fallback, Severity};
use crate::risk::RiskLevel;
use crate::verdict::{ApprovalRequest, Verdict};
use serde_json::Value;

pub struct Spec {
    pub reason: String,
    pub timeout_seconds: Option<u64>,
    pub fallback: Option<Fallback>,
    pub severity: Option<Severity>,
}

pub fn escalate(cfg: &ApprovalConfig, v: &mut Verdict, spec: Spec, req: &Request, agent_id: &str) {
    let fallback = spec.fallback.unwrap_or(cfg.default_fallback);
    if !cfg.enabled {
        // Nobody can approve, so the fallback decides now.
        v.action = if fallback == Fallback::Deny {
            Action::Deny
        } else {
            Action::Allow
        };
        v.reason = format!(
            "{} (approvals disabled; fallback: {})",
            spec.reason,
            fallback.as_str()
        );
        return;
    }
    let timeout_s = spec.timeout_seconds.unwrap_or(cfg.timeout_seconds);
    let severity = spec.severity.unwrap_or(match v.risk.level {
        RiskLevel::Critical => Severity::Critical,
        RiskLevel::High => Severity::Warning,
        _ => Severity::Info,
    });
    let tool = req.tool_name.as_deref().unwrap_or("message");
    let params = req
        .params
        .as_ref()
        .map(|p| Value::Object(Redactor::new(Vec::new()).params(p)).to_string())
        .unwrap_or_default();
    let params: String = params.chars().take(300).collect();
    let rule = format!(
        "{}/{}",
        v.policy_id.as_deref().unwrap_or("governance"),
        v.rule_id.as_deref().unwrap_or("-")
    );
    let description = format!(
        "{reason}\nAgent: {agent_id} (trust {tier}, {score:.0})\nAction: {tool} {params}\nRisk: {level} ({risk:.0})\nRule: {rule}\nIf nobody decides within {timeout_s}s: {fallback}",
        reason = spec.reason,
        tier = v.trust.tier.as_str(),
        score = v.trust.score,
        level = v.risk.level.as_str(),
        risk = v.risk.score,
        fallback = fallback.as_str(),
    );
    v.action = Action::Escalate;
    v.reason = spec.reason;
    v.approval = Some(ApprovalRequest {
        title: format!("Governance: approve {tool} by {agent_id}?"),
        description,
        severity,
        timeout_ms: timeout_s * 1000,
        fallback,
    });
}
