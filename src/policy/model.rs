//! The compiled policy model (seed 002 §3.3): what the loader produces and the evaluator walks.

use super::conditions::Condition;
use super::glob::Glob;
use crate::context::Hook;
use crate::trust::TrustTier;

/// Verdict strength; deny-wins aggregation takes the maximum (NORMATIVE N1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    Allow,
    Audit,
    Escalate,
    Deny,
}

impl Action {
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Allow => "allow",
            Action::Audit => "audit",
            Action::Escalate => "escalate",
            Action::Deny => "deny",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Fallback {
    Allow,
    Deny,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Critical,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    Allow,
    Deny {
        reason: String,
    },
    Escalate {
        reason: Option<String>,
        timeout_seconds: Option<u64>,
        fallback: Option<Fallback>,
        severity: Option<Severity>,
    },
    Audit,
}

impl Effect {
    pub fn action(&self) -> Action {
        match self {
            Effect::Allow => Action::Allow,
            Effect::Deny { .. } => Action::Deny,
            Effect::Escalate { .. } => Action::Escalate,
            Effect::Audit => Action::Audit,
        }
    }
}

#[derive(Debug, Clone)]
pub struct Rule {
    pub id: String,
    pub description: Option<String>,
    pub conditions: Vec<Condition>,
    pub effect: Effect,
    pub min_trust: Option<TrustTier>,
    pub max_trust: Option<TrustTier>,
}

impl Rule {
    /// The builtin guard this rule asks, if any: its finding becomes the verdict's reason.
    pub fn guard(&self) -> Option<crate::guards::Guard> {
        self.conditions.iter().find_map(|c| match c {
            crate::policy::conditions::Condition::Guard(g) => Some(*g),
            _ => None,
        })
    }

    /// Trust gates first (cheap), then every condition (AND, short-circuit).
    pub fn matches(&self, f: &crate::context::Facts) -> bool {
        self.min_trust.is_none_or(|t| f.trust.tier >= t)
            && self.max_trust.is_none_or(|t| f.trust.tier <= t)
            && self.conditions.iter().all(|c| c.eval(f))
    }
}

#[derive(Debug, Clone, Default)]
pub struct Scope {
    pub agents: Vec<Glob>,
    pub exclude_agents: Vec<Glob>,
    pub channels: Vec<String>,
    /// Empty = every hook.
    pub hooks: Vec<Hook>,
}

impl Scope {
    pub fn covers_hook(&self, hook: Hook) -> bool {
        self.hooks.is_empty() || self.hooks.contains(&hook)
    }

    /// Agent part of the scope; exclusion wins over inclusion.
    pub fn covers_agent(&self, agent: &str) -> bool {
        !self.exclude_agents.iter().any(|g| g.matches(agent))
            && (self.agents.is_empty() || self.agents.iter().any(|g| g.matches(agent)))
    }

    pub fn covers_channel(&self, channel: Option<&str>) -> bool {
        self.channels.is_empty() || channel.is_some_and(|c| self.channels.iter().any(|x| x == c))
    }

    /// Policies that name agents are more specific than broad ones (NORMATIVE N1 step 2).
    pub fn specificity(&self) -> u8 {
        match (
            &self.agents[..],
            self.agents.iter().all(|g| g.is_exact().is_some()),
        ) {
            ([], _) => 0,
            (_, true) => 2,
            (_, false) => 1,
        }
    }
}

#[derive(Debug, Clone)]
pub struct Policy {
    pub id: String,
    pub name: String,
    pub version: String,
    pub description: Option<String>,
    pub scope: Scope,
    pub rules: Vec<Rule>,
    pub enabled: bool,
    pub priority: i64,
    pub builtin: bool,
}

impl Policy {
    /// The first rule that matches decides this policy; none matching = no verdict.
    pub fn decide(&self, f: &crate::context::Facts) -> Option<&Rule> {
        self.rules.iter().find(|r| r.matches(f))
    }
}
