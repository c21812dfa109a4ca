//! A sub-agent's lineage for one evaluation: whose policies apply (its own, every ancestor's,
//! global) and the trust ceiling its ancestors set (seed 002 §4.4, USP3).

use super::Core;
use crate::context::Hook;
use crate::cross_agent::CrossAgentContext;
use crate::trust::TrustSnapshot;

pub struct Lineage {
    /// The agent first, then its ancestors nearest first.
    pub agents: Vec<String>,
    pub trust: TrustSnapshot,
    pub cross: Option<CrossAgentContext>,
}

impl Lineage {
    pub fn agent_refs(&self) -> Vec<&str> {
        self.agents.iter().map(String::as_str).collect()
    }
}

pub fn lineage(core: &Core, hook: Hook, agent_id: &str, session_key: &str, now: i64) -> Lineage {
    let own = core.trust.snapshot_at(agent_id, now);
    let chain = if session_key.is_empty() {
        Vec::new()
    } else {
        core.graph.ancestors(session_key, now)
    };
    let Some(parent) = chain.first() else {
        return Lineage {
            agents: vec![agent_id.to_string()],
            trust: own,
            cross: None,
        };
    };
    let mut agents = vec![agent_id.to_string()];
    agents.extend(
        chain
            .iter()
            .map(|r| r.parent_agent_id.clone())
            .filter(|a| a != agent_id),
    );
    agents.dedup();
    // Trust ceiling: min(own, every ancestor's); the tier follows the capped score.
    let (ceiling_from, ceiling) = chain
        .iter()
        .map(|r| {
            (
                r.parent_agent_id.clone(),
                core.trust.snapshot_at(&r.parent_agent_id, now).score,
            )
        })
        .fold((String::new(), f64::INFINITY), |best, cur| {
            if cur.1 < best.1 {
                cur
            } else {
                best
            }
        });
    let trust = TrustSnapshot::of(own.score.min(ceiling));
    let own_ranks = core.index.candidates(hook, agent_id);
    let refs: Vec<&str> = agents.iter().map(String::as_str).collect();
    let policies = core.index.policies();
    let inherited_policy_ids = core
        .index
        .candidates_for(hook, &refs)
        .into_iter()
        .filter(|r| !own_ranks.contains(r))
        .map(|r| policies[r].id.clone())
        .collect();
    let cross = CrossAgentContext {
        parent_agent_id: parent.parent_agent_id.clone(),
        parent_session_key: parent.parent_session_key.clone(),
        ancestors: agents[1..].to_vec(),
        inherited_policy_ids,
        trust_ceiling: ceiling,
        trust_ceiling_from: ceiling_from,
    };
    Lineage {
        agents,
        trust,
        cross: Some(cross),
    }
}
