//! A policy walk's decision as the verdict the host acts on: the deciding rule's effect, the
//! approval an escalation asks for, and the unknown-tool rule when no policy decided.

use super::{approval, blank_verdict, Core, GovernanceEngine};
use crate::config::UnknownToolAction;
use crate::context::{Hook, Request};
use crate::policy::evaluator::Decision;
use crate::policy::model::{Action, Effect};
use crate::risk::RiskAssessment;
use crate::trust::TrustSnapshot;
use crate::verdict::{MatchSummary, Verdict};

impl GovernanceEngine {
    #[allow(clippy::too_many_arguments)] // one call site; each argument is a distinct fact of the decision
    pub(super) fn decide(
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
            reason: "No policy matched".into(),
            risk,
            matched,
            ..blank_verdict(trust)
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
    pub(super) fn apply_effect(
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
    pub(super) fn unknown_tool(&self, core: &Core, v: &mut Verdict, req: &Request, agent_id: &str) {
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
                let spec = approval::Spec::because(reason);
                approval::escalate(&core.config.approval, v, spec, req, agent_id);
            }
        }
    }
}
