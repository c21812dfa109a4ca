//! Operator views of cross-agent governance: the agent graph, trust with its ceiling, operator
//! trust changes, and `explain` — which policies bind an agent or session, inherited from whom,
//! and which rule would decide a given tool call and why.

use super::{lineage, GovernanceEngine, Mode};
use crate::context::{Hook, Request};
use crate::cross_agent::agent_of_key;
use crate::trust::{OperatorChange, TrustChange};
use serde_json::{json, Map, Value};

impl GovernanceEngine {
    /// From `subagent_spawned`.
    pub fn register_subagent(&self, child_key: &str, parent_key: &str, child_agent: Option<&str>) {
        // Also while a rejected config is in force: the edge is needed once a good one is back.
        if let Some(live) = self.live() {
            live.register_subagent(child_key, parent_key, child_agent, crate::time::now_ms());
            live.conversations.forget(child_key);
        }
        self.provenance_spawn(child_key, parent_key);
    }

    /// From `subagent_ended` / `session_end`.
    pub fn end_subagent(&self, child_key: &str) {
        if let Some(live) = self.live() {
            live.end_subagent(child_key);
            live.conversations.forget(child_key);
        }
    }

    /// An operator's trust change, recorded in the audit trail.
    pub fn trust_operate(
        &self,
        agent_id: &str,
        change: &OperatorChange,
        by: &str,
    ) -> Result<TrustChange, String> {
        let Mode::Ready(core) = &self.mode else {
            return Err("the governance config is invalid".into());
        };
        let now = crate::time::now_ms();
        let result = core.live.trust.operate(agent_id, change, now)?;
        self.audit_trust(&result, by, now);
        Ok(result)
    }

    /// One agent's stored trust with its effective (ceiling-capped) score for a session.
    pub fn trust_view(&self, agent_id: &str, session_key: Option<&str>) -> Option<Value> {
        let Mode::Ready(core) = &self.mode else {
            return None;
        };
        let now = crate::time::now_ms();
        let key = session_key.map_or_else(|| format!("agent:{agent_id}:main"), str::to_string);
        let lin = lineage::lineage(core, Hook::BeforeToolCall, agent_id, &key, now);
        let stored = core.live.trust.view(agent_id, now);
        let own = core.live.trust.snapshot_at(agent_id, now);
        let mut v = match stored {
            Some(a) => serde_json::to_value(a).ok()?,
            None => {
                json!({ "agentId": agent_id, "score": own.score, "tier": own.tier, "signals": core.live.trust.signals(agent_id) })
            }
        };
        v["effective"] = json!({ "score": lin.trust.score, "tier": lin.trust.tier });
        if let Some(cross) = &lin.cross {
            v["ceiling"] = json!({ "score": cross.trust_ceiling, "from": cross.trust_ceiling_from, "ancestors": cross.ancestors });
        }
        Some(v)
    }

    /// `who`: an agent id or a session key. With `tool`, a dry run of that call (nothing recorded).
    pub fn explain(
        &self,
        who: &str,
        tool: Option<&str>,
        params: Option<Map<String, Value>>,
    ) -> Result<Value, String> {
        let Mode::Ready(core) = &self.mode else {
            return Err("the governance config is invalid".into());
        };
        let now = crate::time::now_ms();
        let (agent, session): (String, String) = if who.starts_with("agent:") {
            (
                agent_of_key(who).unwrap_or(who).to_string(),
                who.to_string(),
            )
        } else {
            (who.to_string(), format!("agent:{who}:main"))
        };
        let lin = lineage::lineage(core, Hook::BeforeToolCall, &agent, &session, now);
        let policies = core.index.policies();
        let own = core.index.candidates(Hook::BeforeToolCall, &agent);
        let mut listed = Vec::new();
        for (i, a) in lin.agents.iter().enumerate() {
            for &r in core.index.candidates(Hook::BeforeToolCall, a).iter() {
                let p = &policies[r];
                let source = if p.scope.agents.is_empty() {
                    "global".to_string()
                } else if i == 0 || own.contains(&r) {
                    "own".to_string()
                } else {
                    format!("inherited from {a}")
                };
                if !listed.iter().any(|(id, _): &(String, String)| *id == p.id) {
                    listed.push((p.id.clone(), source));
                }
            }
        }
        let mut out = json!({
            "agentId": agent,
            "sessionKey": session,
            "ancestors": lin.agents[1..],
            "policies": listed.iter().map(|(id, source)| json!({ "policyId": id, "source": source })).collect::<Vec<_>>(),
            "trust": self.trust_view(&agent, Some(&session)),
        });
        if let Some(tool) = tool {
            let req = Request {
                hook: Hook::BeforeToolCall.as_str().into(),
                agent_id: Some(agent.clone()),
                session_key: Some(session.clone()),
                tool_name: Some(tool.to_string()),
                params: Some(params.unwrap_or_default()),
                ..Request::default()
            };
            let answers = super::judgment::Answers::default();
            let v = self.assess(
                core,
                Hook::BeforeToolCall,
                &req,
                (&agent, &session),
                now,
                &answers,
            );
            let source = v
                .policy_id
                .as_ref()
                .and_then(|id| listed.iter().find(|(p, _)| p == id))
                .map(|(_, s)| s.clone());
            out["decision"] = json!({
                "tool": tool,
                "action": v.action,
                "policyId": v.policy_id,
                "ruleId": v.rule_id,
                "source": source,
                "reason": v.reason,
                "matched": v.matched,
                "trust": v.trust,
                "risk": v.risk,
            });
        }
        Ok(out)
    }

    pub fn agent_graph(&self) -> Value {
        match &self.mode {
            Mode::Ready(core) => json!({ "relationships": core.live.graph.relationships() }),
            Mode::Invalid { .. } => json!({ "relationships": [] }),
        }
    }
}
