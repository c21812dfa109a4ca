//! Deny-wins evaluation over the index (NORMATIVE N1): each policy's first matching rule gives
//! its verdict; the strongest verdict wins (deny > escalate > audit > allow), the first policy in
//! rank order breaks ties, and the walk stops as soon as a deny is certain.

use super::index::PolicyIndex;
use super::model::{Action, Policy, Rule};
use crate::context::{Facts, Hook};

#[derive(Debug, Clone, Copy)]
pub struct Match<'a> {
    pub policy: &'a Policy,
    pub rule: &'a Rule,
}

#[derive(Debug)]
pub struct Decision<'a> {
    pub action: Action,
    /// The match that set `action`; `None` when nothing matched (allow).
    pub decisive: Option<Match<'a>>,
    pub matched: Vec<Match<'a>>,
}

pub fn evaluate<'a>(index: &'a PolicyIndex, hook: Hook, f: &Facts) -> Decision<'a> {
    walk(index, &index.candidates(hook, f.agent_id), f)
}

/// Walks a prepared candidate list in rank order, e.g. a sub-agent chain's cached merge of its
/// own, every ancestor's and the global policies, so deny-wins holds across the chain.
pub fn walk<'a>(index: &'a PolicyIndex, ranks: &[usize], f: &Facts) -> Decision<'a> {
    let policies = index.policies();
    let mut decision = Decision {
        action: Action::Allow,
        decisive: None,
        matched: Vec::new(),
    };
    for &rank in ranks {
        let policy = &policies[rank];
        if !policy.scope.covers_channel(f.req.channel.as_deref()) {
            continue;
        }
        let Some(rule) = policy.decide(f) else {
            continue;
        };
        let m = Match { policy, rule };
        decision.matched.push(m);
        let action = rule.effect.action();
        if decision.decisive.is_none() || action > decision.action {
            decision.action = action;
            decision.decisive = Some(m);
        }
        if action == Action::Deny {
            break;
        }
    }
    decision
}
