//! `provenance` in the plugin config: the seed's policy vocabulary as JSON.
//!
//! ```json
//! "provenance": { "enabled": true,
//!   "toolTrust": { "exec": [{ "conditions": [{ "type": "command", "program": "gog" }], "level": "external" }] },
//!   "policies": [{ "name": "no-exec-when-tainted",
//!     "when": { "context_taint_includes": ["external", "untrusted"] },
//!     "action": { "block_tools": ["exec"], "reason": "…" } }] }
//! ```

use super::classify::ToolTrust;
use super::level::Level;
use crate::config::error::Issues;
use crate::config::reader::{array, string_list, Obj};
use crate::policy::conditions::ParseEnv;
use crate::policy::glob::Glob;

#[derive(Debug, Clone, Default)]
pub struct ProvenanceConfig {
    pub enabled: bool,
    pub tool_trust: Option<ToolTrust>,
    pub policies: Vec<ProvenancePolicy>,
    /// Meta's rule of two (preset `rule-of-two`): see `rule_of_two`.
    pub rule_of_two: bool,
    /// Globs of files that count as sensitive data for the rule of two, besides the
    /// credential guard's set (`~/finance/**`, `*.sqlite`).
    pub sensitive_paths: Vec<String>,
    /// The shim wraps stored results of foreign content in provenance markers (`tool_result_persist`).
    pub mark_tool_results: bool,
}

#[derive(Debug, Clone)]
pub struct ProvenancePolicy {
    pub name: String,
    /// Holds when the context includes content of any of these levels (none: any taint).
    pub taint_includes: Vec<Level>,
    /// Holds from this model call of the run on (1 = the first).
    pub iteration_gte: Option<u32>,
    /// Tools denied while the policy holds.
    pub block_tools: Vec<Glob>,
    /// Tools taken out of the model's tool list for the session's next runs while the policy
    /// holds (`before_prompt_build` → `toolsAllow`), and denied meanwhile: the host narrows the
    /// list once per run, so a run that becomes tainted midway still offers them.
    pub remove_tools: Vec<Glob>,
    /// Every tool call of the run denied while the policy holds.
    pub block_turn: bool,
    pub reason: Option<String>,
    /// The graph of every turn during which the policy held is written to the state dir.
    pub persist_graph: bool,
    /// Each decision's audit record in such a turn carries the turn graph so far.
    pub log_full_context: bool,
}

const KEYS: [&str; 6] = [
    "enabled",
    "toolTrust",
    "policies",
    "presets",
    "sensitivePaths",
    "markToolResults",
];
const WHEN_KEYS: [&str; 2] = ["context_taint_includes", "iteration_gte"];
const ACTION_KEYS: [&str; 6] = [
    "block_tools",
    "remove_tools",
    "block_turn",
    "reason",
    "persist_graph",
    "log_full_context",
];

pub fn parse(o: &Obj, env: &ParseEnv, issues: &mut Issues) -> ProvenanceConfig {
    o.check_keys(&KEYS, issues);
    let enabled = o.bool("enabled", o.is_present(), issues);
    let tool_trust = Some(ToolTrust::parse(
        o.get("toolTrust"),
        &o.path_of("toolTrust"),
        env,
        issues,
    ));
    let ppath = o.path_of("policies");
    let mut policies: Vec<ProvenancePolicy> = array(o.get("policies"), &ppath, issues)
        .iter()
        .enumerate()
        .filter_map(|(i, p)| policy(&Obj::new(Some(p), format!("{ppath}[{i}]"), issues), issues))
        .collect();
    // The operator's own policies first: where both block, theirs gives the reason.
    let npath = o.path_of("presets");
    let mut rule_of_two = false;
    for (i, name) in string_list(o.get("presets"), &npath, issues)
        .iter()
        .enumerate()
    {
        match super::presets::policy(name) {
            Some(p) => policies.push(p),
            None if name == super::presets::RULE_OF_TWO => rule_of_two = true,
            None => issues.push(
                &format!("{npath}[{i}]"),
                format!(
                    "unknown preset `{name}`; known: {}",
                    super::presets::NAMES.join(", ")
                ),
            ),
        }
    }
    ProvenanceConfig {
        enabled,
        tool_trust,
        policies,
        rule_of_two,
        sensitive_paths: sensitive_paths(o, issues),
        mark_tool_results: o.bool("markToolResults", false, issues),
    }
}

/// `sensitivePaths`: globs as the credential set takes them (a basename, or a location from
/// `/` or `~/`); checked here so a bad one names its key.
fn sensitive_paths(o: &Obj, issues: &mut Issues) -> Vec<String> {
    let path = o.path_of("sensitivePaths");
    let globs = string_list(o.get("sensitivePaths"), &path, issues);
    for (i, g) in globs.iter().enumerate() {
        if let Err(e) = crate::paths::PathSet::new(&[(g.as_str(), "")], &[], None) {
            issues.push(&format!("{path}[{i}]"), e.to_string());
        }
    }
    globs
}

fn policy(o: &Obj, issues: &mut Issues) -> Option<ProvenancePolicy> {
    o.check_keys(&["name", "when", "action"], issues);
    let name = o.string("name", issues).unwrap_or_default();
    if name.is_empty() {
        issues.push(&o.path_of("name"), "a provenance policy needs a name");
    }
    let when = o.child("when", issues);
    when.check_keys(&WHEN_KEYS, issues);
    let lpath = when.path_of("context_taint_includes");
    let taint_includes = string_list(when.get("context_taint_includes"), &lpath, issues)
        .iter()
        .enumerate()
        .filter_map(|(i, n)| Level::parse_at(n, &format!("{lpath}[{i}]"), issues))
        .collect();
    let iteration_gte = when.get("iteration_gte").and_then(|v| {
        let n = v.as_u64().filter(|n| (1..=10_000).contains(n));
        if n.is_none() {
            issues.push(
                &when.path_of("iteration_gte"),
                "must be a whole number from 1 to 10000",
            );
        }
        n.map(|n| n as u32)
    });
    let action = o.child("action", issues);
    action.check_keys(&ACTION_KEYS, issues);
    let globs = |key: &str, issues: &mut Issues| -> Vec<Glob> {
        string_list(action.get(key), &action.path_of(key), issues)
            .iter()
            .map(|t| Glob::new(t))
            .collect()
    };
    let block_tools = globs("block_tools", issues);
    let remove_tools = globs("remove_tools", issues);
    let block_turn = action.bool("block_turn", false, issues);
    // Recording alone is an action (the seed's audit-external policy); nothing at all is not.
    let persist_graph = action.bool("persist_graph", false, issues);
    let log_full_context = action.bool("log_full_context", false, issues);
    let acts = !block_tools.is_empty() || !remove_tools.is_empty() || block_turn;
    if !acts && !persist_graph && !log_full_context {
        issues.push(
            &action.path,
            "an action needs block_tools, remove_tools, block_turn, persist_graph or log_full_context",
        );
    }
    Some(ProvenancePolicy {
        name,
        taint_includes,
        iteration_gte,
        block_tools,
        remove_tools,
        block_turn,
        reason: action.string("reason", issues),
        persist_graph,
        log_full_context,
    })
}
