//! `agent`: who is acting — id (glob), trust tier, score range.

use crate::config::error::{index, Issues};
use crate::config::reader::{string_list, Obj};
use crate::context::Facts;
use crate::policy::glob::Glob;
use crate::trust::TrustTier;

#[derive(Debug, Clone)]
pub struct AgentCondition {
    pub ids: Vec<Glob>,
    pub tiers: Vec<TrustTier>,
    pub min_score: Option<f64>,
    pub max_score: Option<f64>,
}

impl AgentCondition {
    pub fn parse(o: &Obj, issues: &mut Issues) -> Option<AgentCondition> {
        o.check_keys(&["type", "id", "trustTier", "minScore", "maxScore"], issues);
        let ids = string_list(o.get("id"), &o.path_of("id"), issues)
            .iter()
            .map(|s| Glob::new(s))
            .collect();
        let tiers = parse_tiers(o, "trustTier", issues);
        let score = |key: &str, issues: &mut Issues| {
            o.get(key).map(|_| o.num(key, 0.0, 0.0, 100.0, issues))
        };
        Some(AgentCondition {
            ids,
            tiers,
            min_score: score("minScore", issues),
            max_score: score("maxScore", issues),
        })
    }

    pub fn eval(&self, f: &Facts) -> bool {
        (self.ids.is_empty() || self.ids.iter().any(|g| g.matches(f.agent_id)))
            && (self.tiers.is_empty() || self.tiers.contains(&f.trust.tier))
            && self.min_score.is_none_or(|m| f.trust.score >= m)
            && self.max_score.is_none_or(|m| f.trust.score <= m)
    }
}

pub fn parse_tiers(o: &Obj, key: &str, issues: &mut Issues) -> Vec<TrustTier> {
    let path = o.path_of(key);
    string_list(o.get(key), &path, issues)
        .iter()
        .enumerate()
        .filter_map(|(i, name)| {
            let tier = TrustTier::parse(name);
            if tier.is_none() {
                issues.push(
                    &index(&path, i),
                    format!(
                        "unknown trust tier \"{name}\" (known: {})",
                        TrustTier::NAMES.join(", ")
                    ),
                );
            }
            tier
        })
        .collect()
}
