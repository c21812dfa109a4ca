//! Policies indexed by hook and agent, pre-sorted at load by priority then specificity
//! (NORMATIVE N1), so evaluation only walks a ready list.

use super::glob::Glob;
use super::model::Policy;
use crate::context::Hook;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, RwLock};

/// Per-agent candidate lists cached at most for this many agents; beyond that they are built per call.
const CACHE_AGENTS: usize = 4096;

pub struct PolicyIndex {
    /// Enabled policies in evaluation order; positions are ranks.
    policies: Vec<Policy>,
    hooks: Vec<HookIndex>,
    named_tools: HashSet<String>,
    named_tool_globs: Vec<Glob>,
}

#[derive(Default)]
struct HookIndex {
    global: Vec<usize>,
    /// `global` as every agent that no policy names or excludes sees it: one list for all of them,
    /// so a new agent costs neither a merge nor a cache entry.
    shared: Arc<[usize]>,
    global_excludes: bool,
    by_agent: HashMap<String, Vec<usize>>,
    patterned: Vec<usize>,
    cache: RwLock<HashMap<String, Arc<[usize]>>>,
}

impl PolicyIndex {
    pub fn build(policies: Vec<Policy>) -> PolicyIndex {
        let mut policies: Vec<Policy> = policies.into_iter().filter(|p| p.enabled).collect();
        // Stable sort keeps load order among equals: user policies in config order, builtins after.
        policies.sort_by_key(|p| (-p.priority, std::cmp::Reverse(p.scope.specificity())));
        let hooks = Hook::ALL
            .iter()
            .map(|h| HookIndex::build(&policies, *h))
            .collect();
        let (named_tools, named_tool_globs) = named_tools(&policies);
        PolicyIndex {
            policies,
            hooks,
            named_tools,
            named_tool_globs,
        }
    }

    pub fn policies(&self) -> &[Policy] {
        &self.policies
    }

    /// Ranked positions of the policies whose hook and agent scope cover this call.
    pub fn candidates(&self, hook: Hook, agent: &str) -> Arc<[usize]> {
        let h = &self.hooks[hook.index()];
        if h.patterned.is_empty() && !h.global_excludes && !h.by_agent.contains_key(agent) {
            return h.shared.clone();
        }
        if let Some(hit) = h.cache.read().ok().and_then(|c| c.get(agent).cloned()) {
            return hit;
        }
        let merged = h.merge(&self.policies, agent);
        // Most agents match nothing beyond the global policies: they share its list.
        let list: Arc<[usize]> = if merged == h.global {
            h.shared.clone()
        } else {
            merged.into()
        };
        if let Ok(mut cache) = h.cache.write() {
            if cache.len() < CACHE_AGENTS {
                cache.insert(agent.to_string(), list.clone());
            }
        }
        list
    }

    /// The union of several agents' candidates, still in rank order.
    pub fn candidates_for(&self, hook: Hook, agents: &[&str]) -> Vec<usize> {
        let mut ranks: Vec<usize> = agents
            .iter()
            .flat_map(|a| self.candidates(hook, a).to_vec())
            .collect();
        ranks.sort_unstable();
        ranks.dedup();
        ranks
    }

    /// Whether any policy names this tool (exactly or by a glob narrower than `*`).
    pub fn names_tool(&self, tool: &str) -> bool {
        self.named_tools.contains(tool) || self.named_tool_globs.iter().any(|g| g.matches(tool))
    }
}

impl HookIndex {
    fn build(policies: &[Policy], hook: Hook) -> HookIndex {
        let mut idx = HookIndex::default();
        for (rank, p) in policies
            .iter()
            .enumerate()
            .filter(|(_, p)| p.scope.covers_hook(hook))
        {
            if p.scope.agents.is_empty() {
                idx.global.push(rank);
            } else if p.scope.agents.iter().all(|g| g.is_exact().is_some()) {
                for g in &p.scope.agents {
                    let list = idx
                        .by_agent
                        .entry(g.is_exact().unwrap_or_default().to_string())
                        .or_default();
                    if list.last() != Some(&rank) {
                        list.push(rank);
                    }
                }
            } else {
                idx.patterned.push(rank);
            }
        }
        idx.shared = idx.global.as_slice().into();
        idx.global_excludes = idx
            .global
            .iter()
            .any(|r| !policies[*r].scope.exclude_agents.is_empty());
        idx
    }

    fn merge(&self, policies: &[Policy], agent: &str) -> Vec<usize> {
        let mut out: Vec<usize> = self.global.clone();
        out.extend(self.by_agent.get(agent).into_iter().flatten());
        out.extend(
            self.patterned
                .iter()
                .filter(|r| policies[**r].scope.agents.iter().any(|g| g.matches(agent))),
        );
        out.retain(|r| policies[*r].scope.covers_agent(agent));
        out.sort_unstable();
        out.dedup();
        out
    }
}

fn named_tools(policies: &[Policy]) -> (HashSet<String>, Vec<Glob>) {
    let mut globs = Vec::new();
    for p in policies {
        for r in &p.rules {
            for c in &r.conditions {
                c.named_tools(&mut globs);
            }
        }
    }
    let exact = globs
        .iter()
        .filter_map(|g| g.is_exact().map(str::to_string))
        .collect();
    let patterns = globs
        .into_iter()
        .filter(|g| g.is_exact().is_none() && **g != Glob::Any)
        .cloned()
        .collect();
    (exact, patterns)
}
