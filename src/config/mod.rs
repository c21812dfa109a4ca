//! Raw plugin config (`plugins.entries.openclaw-governance.config`) → [`GovernanceConfig`]:
//! every key and default of seed 002 §4.2, the compatibility aliases of DESIGN.md, and a
//! [`ConfigError`] listing every problem with its JSON path.

pub mod error;
pub mod reader;
mod sections;

pub use error::{ConfigError, ConfigIssue};
pub use sections::{
    ApprovalConfig, AuditConfig, AuditLevel, CheckpointConfig, LlmBackend, LlmConfig,
    PerformanceConfig, FALLBACK_ALLOW, MAX_APPROVAL_TIMEOUT_S,
};

use crate::policy::builtins::{builtin_policies, BuiltinsConfig};
use crate::policy::conditions::{time::TimeWindow, ParseEnv};
use crate::policy::loader::load_policies;
use crate::policy::model::{Fallback, Policy};
use crate::trust::TrustConfig;
use chrono_tz::Tz;
use error::Issues;
use reader::Obj;
use serde_json::Value;
use std::collections::HashMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FailMode {
    Open,
    Closed,
}

/// What happens to a tool no policy names and no risk profile knows (seed 003's fail-closed default).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum UnknownToolAction {
    Allow,
    Deny,
    Escalate,
}

#[derive(Debug, Clone)]
pub struct GovernanceConfig {
    pub enabled: bool,
    pub timezone_name: String,
    pub timezone: Tz,
    pub fail_mode: FailMode,
    pub unknown_tool_action: UnknownToolAction,
    pub workspace: Option<String>,
    /// User policies followed by the enabled builtins.
    pub policies: Vec<Policy>,
    pub time_windows: HashMap<String, TimeWindow>,
    pub trust: TrustConfig,
    pub audit: AuditConfig,
    pub approval: ApprovalConfig,
    pub llm: LlmConfig,
    pub tool_risk_overrides: HashMap<String, f64>,
    pub builtins: BuiltinsConfig,
    pub performance: PerformanceConfig,
    /// Present but not enforced yet (output validation has its own issue).
    /// `outputValidation` (seed 000): compiled into the engine's validator.
    pub output: crate::output::config::OutputConfig,
    /// `provenance` (seed 004): tool trust levels and the policies gated by session taint.
    pub provenance: crate::provenance::ProvenanceConfig,
}

pub const TOP_LEVEL_KEYS: [&str; 18] = [
    "enabled",
    "timezone",
    "failMode",
    "unknownToolAction",
    "opaqueCommandAction",
    "workspace",
    "policies",
    "timeWindows",
    "trust",
    "audit",
    "approval",
    "llm",
    "toolRiskOverrides",
    "builtinPolicies",
    "performance",
    "outputValidation",
    "provenance",
    "$schema",
];

impl GovernanceConfig {
    pub fn resolve(raw: &Value) -> Result<GovernanceConfig, ConfigError> {
        let mut issues = Issues::default();
        let root = Obj::new(Some(raw), String::new(), &mut issues);
        root.check_keys(&TOP_LEVEL_KEYS, &mut issues);
        let timezone_name = root
            .string("timezone", &mut issues)
            .unwrap_or_else(|| "UTC".into());
        let timezone = crate::time::parse_tz(&timezone_name).unwrap_or_else(|| {
            issues.push(
                "timezone",
                format!(
                    "unknown timezone \"{timezone_name}\" (use an IANA name such as Europe/Berlin)"
                ),
            );
            chrono_tz::UTC
        });
        let time_windows =
            sections::time_windows(&root.child("timeWindows", &mut issues), &mut issues);
        let mut builtins =
            sections::builtins(&root.child("builtinPolicies", &mut issues), &mut issues);
        builtins.opaque_command_action = sections::opaque_action(&root, &mut issues);
        let approval = sections::approval(&root.child("approval", &mut issues), &mut issues);
        let env = ParseEnv::new(&time_windows, approval.enabled);
        let mut policies = load_policies(root.get("policies"), "policies", &env, &mut issues);
        policies.extend(builtin_policies(&builtins, &mut issues));
        let provenance = crate::provenance::config::parse(
            &root.child("provenance", &mut issues),
            &env,
            &mut issues,
        );
        let llm = sections::llm(&root.child("llm", &mut issues), &mut issues);
        let needs = |on, uses, message, issues: &mut Issues| {
            conditions_need(&policies, on, uses, message, issues)
        };
        needs(
            provenance.enabled,
            crate::policy::conditions::Condition::reads_taint,
            "a taint condition needs provenance.enabled: true",
            &mut issues,
        );
        needs(
            llm.enabled,
            crate::policy::conditions::Condition::asks_intent,
            "an intent condition needs llm.enabled: true (a model answers it)",
            &mut issues,
        );
        let config = GovernanceConfig {
            enabled: root.bool("enabled", true, &mut issues),
            fail_mode: match root.choice("failMode", "open", &["open", "closed"], &mut issues) {
                "closed" => FailMode::Closed,
                _ => FailMode::Open,
            },
            unknown_tool_action: match root.choice(
                "unknownToolAction",
                "allow",
                &["allow", "deny", "escalate"],
                &mut issues,
            ) {
                "deny" => UnknownToolAction::Deny,
                "escalate" => UnknownToolAction::Escalate,
                _ => UnknownToolAction::Allow,
            },
            workspace: root.string("workspace", &mut issues),
            trust: sections::trust(&root.child("trust", &mut issues), &mut issues),
            audit: sections::audit(&root.child("audit", &mut issues), &mut issues),
            approval,
            llm,
            tool_risk_overrides: sections::scores(
                &root.child("toolRiskOverrides", &mut issues),
                &mut issues,
            ),
            performance: sections::performance(
                &root.child("performance", &mut issues),
                &mut issues,
            ),
            output: crate::output::config::parse(
                &root.child("outputValidation", &mut issues),
                &mut issues,
            ),
            provenance,
            timezone_name,
            timezone,
            policies,
            time_windows,
            builtins,
        };
        issues.into_result(config)
    }

    /// The largest frequency limit any policy checks.
    pub fn max_frequency_limit(&self) -> u64 {
        self.policies
            .iter()
            .flat_map(|p| &p.rules)
            .flat_map(|r| &r.conditions)
            .map(|c| c.max_frequency_limit())
            .max()
            .unwrap_or(0)
    }

    pub fn default_fallback(&self) -> Fallback {
        self.approval.default_fallback
    }
}

/// A condition that needs a section turned on: without it the rule would be accepted and
/// silently dead. A `taint` condition reads what provenance records; an `intent` condition
/// is answered by a model.
fn conditions_need(
    policies: &[crate::policy::model::Policy],
    on: bool,
    uses: fn(&crate::policy::conditions::Condition) -> bool,
    message: &str,
    issues: &mut Issues,
) {
    if on {
        return;
    }
    for p in policies {
        for r in &p.rules {
            if r.conditions.iter().any(uses) {
                issues.push(&format!("policies.{}.{}", p.id, r.id), message);
            }
        }
    }
}

#[cfg(test)]
mod tests;
