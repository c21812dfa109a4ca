//! Agent-to-agent messages (seed 002 §5.3): the receiver's inbound policies (hook
//! `message_received`) must allow as well as the sender's outbound ones.

use super::{Core, GovernanceEngine};
use crate::context::{Hook, Request};
use crate::cross_agent::{agent_of_key, message_target};
use crate::verdict::Verdict;
use serde_json::Value;

impl GovernanceEngine {
    /// Agent-to-agent messages: the receiver's inbound policies (hook `message_received`) must
    /// allow as well as the sender's outbound ones (seed 002 §5.3); the stronger verdict wins.
    pub(super) fn check_receiver(&self, core: &Core, req: &Request, v: &mut Verdict, now: i64) {
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
        // The receiver's policies are judged without a model: an intent there is no match.
        let answers = super::judgment::Answers::default();
        let theirs = self.assess(
            core,
            Hook::MessageReceived,
            &inbound,
            (&receiver, &target),
            now,
            &answers,
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
}
