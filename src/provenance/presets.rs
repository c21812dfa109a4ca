//! Provenance policies an operator switches on by name (`provenance.presets`), so the common
//! cases need no policy written by hand. The first three are seed 004's examples; their
//! figures are the seed's; `audit-external` names `untrusted` beside the seed's `external`,
//! since a web page is outside content as much as a stranger's message.

use super::config::ProvenancePolicy;
use super::level::Level;
use crate::policy::glob::Glob;

pub const NAMES: [&str; 5] = [
    "no-exec-when-tainted",
    "no-send-when-untrusted",
    "max-recursion",
    "audit-external",
    RULE_OF_TWO,
];

/// Not a policy of the seed's shape: its own check (`rule_of_two`), switched on like one.
pub const RULE_OF_TWO: &str = "rule-of-two";

/// The policy a preset stands for, or `None` for a name we do not know.
pub fn policy(name: &str) -> Option<ProvenancePolicy> {
    let base = ProvenancePolicy {
        name: name.to_string(),
        taint_includes: Vec::new(),
        iteration_gte: None,
        block_tools: Vec::new(),
        remove_tools: Vec::new(),
        block_turn: false,
        reason: None,
        persist_graph: false,
        log_full_context: false,
    };
    let tools = |names: &[&str]| names.iter().map(|n| Glob::new(n)).collect();
    Some(match name {
        // Content from outside can carry instructions; a shell runs them. `process` types into
        // a shell started before the taint, so it goes with `exec`.
        "no-exec-when-tainted" => ProvenancePolicy {
            taint_includes: vec![Level::External, Level::Untrusted],
            remove_tools: tools(&["exec", "process"]),
            reason: Some("No shell while the context holds outside content".into()),
            ..base
        },
        // An injected page must not be able to speak for the owner.
        "no-send-when-untrusted" => ProvenancePolicy {
            taint_includes: vec![Level::Untrusted],
            block_tools: tools(&["message"]),
            reason: Some("No outgoing message while the context holds untrusted content".into()),
            ..base
        },
        // A run that keeps calling the model is looping (the seed's limit: 5 model calls).
        "max-recursion" => ProvenancePolicy {
            iteration_gte: Some(5),
            block_turn: true,
            reason: Some("Max recursion depth exceeded".into()),
            ..base
        },
        // Every turn that touched outside content kept for review: its graph on disk and in
        // the audit records of its decisions (hashes and redacted previews, never content).
        "audit-external" => ProvenancePolicy {
            taint_includes: vec![Level::External, Level::Untrusted],
            persist_graph: true,
            log_full_context: true,
            ..base
        },
        _ => return None,
    })
}
