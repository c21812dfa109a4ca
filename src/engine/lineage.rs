//! A sub-agent's lineage for one evaluation: whose policies apply (its own, every ancestor's,
//! global) and the trust ceiling its ancestors set (seed 002 §4.4, USP3).

use super::Core;
use crate::context::Hook;
use crate::cross_agent::{is_subagent_key, CrossAgentContext};
use crate::trust::TrustSnapshot;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

pub struct Lineage {
    /// The agent first, then its ancestors nearest first.
    pub agents: Vec<String>,
    pub trust: TrustSnapshot,
    pub cross: Option<CrossAgentContext>,
    /// For a sub-agent: the merged candidates of the whole chain (`None` = the agent's own list).
    pub ranks: Option<Arc<[usize]>>,
}

/// What a chain of agents is bound by, cached per chain and hook: the index never changes after
/// load, so neither does the answer (the merged candidate list and the inherited policy ids).
#[derive(Clone)]
pub struct ChainPolicies {
    pub ranks: Arc<[usize]>,
    pub inherited: Arc<Vec<String>>,
}

#[derive(Default)]
pub struct InheritedCache(Mutex<HashMap<ChainKey, ChainPolicies>>);

/// A hook and the agent chain (the agent first, then its ancestors).
type ChainKey = (Hook, Vec<String>);

const CACHE_CHAINS: usize = 4096;

impl Core {
    fn chain_policies(&self, hook: Hook, agents: &[String]) -> ChainPolicies {
        let key = (hook, agents.to_vec());
        if let Some(hit) = self
            .inherited
            .0
            .lock()
            .ok()
            .and_then(|c| c.get(&key).cloned())
        {
            return hit;
        }
        let own_ranks = self.index.candidates(hook, &agents[0]);
        let refs: Vec<&str> = agents.iter().map(String::as_str).collect();
        let ranks = self.index.candidates_for(hook, &refs);
        let policies = self.index.policies();
        let inherited: Vec<String> = ranks
            .iter()
            .filter(|r| !own_ranks.contains(r))
            .map(|r| policies[*r].id.clone())
            .collect();
        let found = ChainPolicies {
            ranks: ranks.into(),
            inherited: Arc::new(inherited),
        };
        if let Ok(mut cache) = self.inherited.0.lock() {
            if cache.len() < CACHE_CHAINS {
                cache.insert(key, found.clone());
            }
        }
        found
    }
}

pub fn lineage(core: &Core, hook: Hook, agent_id: &str, session_key: &str, now: i64) -> Lineage {
    let own = core.live.trust.snapshot_at(agent_id, now);
    let chain = if session_key.is_empty() {
        Vec::new()
    } else {
        core.live.graph.ancestors(session_key)
    };
    let Some(parent) = chain.first() else {
        if is_subagent_key(session_key) {
            return orphan(core, agent_id, own);
        }
        return Lineage {
            agents: vec![agent_id.to_string()],
            trust: own,
            cross: None,
            ranks: None,
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
                core.live.trust.snapshot_at(&r.parent_agent_id, now).score,
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
    let bound = core.chain_policies(hook, &agents);
    let cross = CrossAgentContext {
        parent_agent_id: parent.parent_agent_id.clone(),
        parent_session_key: parent.parent_session_key.clone(),
        ancestors: agents[1..].to_vec(),
        inherited_policy_ids: bound.inherited,
        trust_ceiling: ceiling,
        trust_ceiling_from: ceiling_from,
    };
    Lineage {
        agents,
        trust,
        cross: Some(cross),
        ranks: Some(bound.ranks),
    }
}

/// A sub-agent session whose requester was never reported (the spawn hook raced its first call,
/// or the graph was lost): nobody vouches for it, so it is trusted no more than an unknown agent.
fn orphan(core: &Core, agent_id: &str, own: TrustSnapshot) -> Lineage {
    let ceiling = core.live.trust.unknown_agent_score();
    let cross = CrossAgentContext {
        ancestors: Vec::new(),
        inherited_policy_ids: Arc::new(Vec::new()),
        parent_agent_id: "unknown".into(),
        parent_session_key: String::new(),
        trust_ceiling: ceiling,
        trust_ceiling_from: "unknown requester (its spawn was not reported)".into(),
    };
    Lineage {
        agents: vec![agent_id.to_string()],
        trust: TrustSnapshot::of(own.score.min(ceiling)),
        cross: Some(cross),
        ranks: None,
    }
}
