//! Config keys that do what they say (issue: "config that is accepted and silently ignored").

use openclaw_governance::{EngineOptions, GovernanceEngine, Request};
use serde_json::json;

#[test]
fn an_evaluation_over_max_eval_us_is_flagged_counted_and_recorded_but_not_cut_short() {
    let dir = tempfile::tempdir().unwrap();
    let policies: Vec<_> = (0..20)
        .map(|i| json!({ "id": format!("p{i}"), "rules": [{ "id": "r", "conditions": [{ "type": "tool",
            "params": { "command": { "matches": format!("\\bnever{i}\\s+here\\b") } } }], "effect": { "action": "deny", "reason": "x" } }] }))
        .chain(std::iter::once(json!({ "id": "last", "rules": [{ "id": "r", "conditions": [{ "type": "tool",
            "params": { "command": { "contains": "rm -rf /" } } }], "effect": { "action": "deny", "reason": "the last policy still decides" } }] })))
        .collect();
    let config = json!({ "performance": { "maxEvalUs": 1 }, "policies": policies });
    let e = GovernanceEngine::try_new(
        &config,
        &EngineOptions {
            state_dir: Some(dir.path().to_path_buf()),
            ..Default::default()
        },
    )
    .unwrap();
    let command = format!("{} rm -rf /", "echo x ".repeat(20_000));
    let req: Request =
        serde_json::from_value(json!({ "hook": "before_tool_call", "agentId": "main",
        "toolName": "exec", "params": { "command": command } }))
        .unwrap();
    let v = e.evaluate(&req);
    assert_eq!(v.over_budget_us, Some(1));
    assert_eq!(v.action.as_str(), "deny", "the walk went on to the deny");
    assert_eq!(v.policy_id.as_deref(), Some("last"));
    assert_eq!(e.status().over_budget, 1);
    assert!(
        v.logs
            .iter()
            .any(|l| l.level == "warn" && l.message.contains("performance.maxEvalUs")),
        "the host log is told"
    );
    let rec = e
        .audit_query(&serde_json::from_value(json!({ "verdict": "deny" })).unwrap())
        .unwrap();
    assert_eq!(rec[0]["details"]["overBudgetUs"], 1);
}

#[test]
fn a_fallback_of_allow_is_honoured_where_it_can_be() {
    // With approvals off the fallback decides at once; with the host's approvals it could not
    // (the host denies an approval nobody answers), so the config is rejected instead.
    let off = json!({ "approval": { "enabled": false, "defaultFallback": "allow" },
        "policies": [{ "id": "p", "rules": [{ "id": "e", "effect": { "action": "escalate" } }] }] });
    let e = GovernanceEngine::try_new(&off, &EngineOptions::default()).unwrap();
    let req: Request = serde_json::from_value(
        json!({ "hook": "before_tool_call", "agentId": "main", "toolName": "exec", "params": {} }),
    )
    .unwrap();
    assert_eq!(e.evaluate(&req).action.as_str(), "allow");
    let on = json!({ "approval": { "defaultFallback": "allow" } });
    let err = GovernanceEngine::try_new(&on, &EngineOptions::default())
        .err()
        .expect("rejected");
    assert!(
        err.to_string().contains("approval.defaultFallback"),
        "{err}"
    );
}
