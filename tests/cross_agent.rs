//! Cross-agent governance through the engine (seed 002 §7.3): graph, enrichment, inheritance,
//! deny-wins across the chain, trust ceilings, agent-to-agent messages, audit context, explain.

use openclaw_governance::policy::model::Action;
use openclaw_governance::trust::{OperatorChange, TrustTier};
use openclaw_governance::{EngineOptions, GovernanceEngine, Request};
use serde_json::{json, Value};

fn engine(config: Value) -> GovernanceEngine {
    GovernanceEngine::try_new(&config, &EngineOptions::default()).unwrap()
}

fn tool_call(agent: &str, session: &str, tool: &str, command: &str) -> Request {
    serde_json::from_value(
        json!({ "hook": "before_tool_call", "agentId": agent, "sessionKey": session,
        "toolName": tool, "params": { "command": command } }),
    )
    .unwrap()
}

fn config() -> Value {
    json!({
        "trust": { "defaults": { "main": 60, "forge": 45, "task": 90, "cerberus": 50, "*": 10 } },
        "policies": [
            { "id": "main-no-deploy", "scope": { "agents": ["main"] }, "rules": [{ "id": "deploy",
              "conditions": [{ "type": "tool", "name": "exec", "params": { "command": { "matches": "docker rm" } } }],
              "effect": { "action": "deny", "reason": "main's sessions may not remove containers" } }] },
            { "id": "forge-allow-exec", "scope": { "agents": ["forge"] }, "rules": [{ "id": "exec-ok",
              "conditions": [{ "type": "tool", "name": "exec" }], "effect": { "action": "allow" } }] },
            { "id": "forge-no-push", "scope": { "agents": ["forge"] }, "rules": [{ "id": "push",
              "conditions": [{ "type": "tool", "name": "exec", "params": { "command": { "contains": "git push" } } }],
              "effect": { "action": "deny", "reason": "forge's line may not push" } }] },
            { "id": "global-no-mkfs", "rules": [{ "id": "mkfs", "conditions": [{ "type": "tool", "params": { "command": { "contains": "mkfs" } } }],
              "effect": { "action": "deny", "reason": "never mkfs" } }] },
            { "id": "trusted-only", "rules": [{ "id": "needs-trusted", "maxTrust": "standard",
              "conditions": [{ "type": "tool", "name": "gateway" }], "effect": { "action": "deny", "reason": "gateway needs trusted" } }] },
            { "id": "cerberus-inbox", "scope": { "agents": ["cerberus"], "hooks": ["message_received"] }, "rules": [{ "id": "no-secrets-in",
              "conditions": [{ "type": "context", "messageContains": "password" }], "effect": { "action": "deny", "reason": "cerberus accepts no secrets" } }] },
            { "id": "forge-outbox", "scope": { "agents": ["forge"], "hooks": ["message_sending", "before_tool_call"] }, "rules": [{ "id": "no-ping",
              "conditions": [{ "type": "tool", "name": "sessions_send", "params": { "message": { "contains": "PING" } } }],
              "effect": { "action": "deny", "reason": "forge may not ping" } }] }
        ]
    })
}

const FORGE: &str = "agent:main:subagent:forge";
const TASK: &str = "agent:main:subagent:forge:subagent:task";

#[test]
fn root_agents_get_their_own_and_global_policies_only() {
    let e = engine(config());
    let v = e.evaluate(&tool_call("main", "agent:main:main", "exec", "git push"));
    assert_eq!(v.action, Action::Allow, "forge's policies do not bind main");
    assert!(
        v.cross_agent.is_none(),
        "a root agent's context is not enriched"
    );
    assert_eq!(
        e.evaluate(&tool_call("main", "agent:main:main", "exec", "mkfs /dev/x"))
            .action,
        Action::Deny
    );
}

#[test]
fn sub_agents_inherit_and_cannot_escape_a_parent_deny() {
    let e = engine(config());
    // forge's own policy allows exec; main's inherited policy denies docker rm: deny wins.
    let v = e.evaluate(&tool_call("forge", FORGE, "exec", "docker rm web"));
    assert_eq!(
        (v.action, v.policy_id.as_deref()),
        (Action::Deny, Some("main-no-deploy"))
    );
    let cross = v.cross_agent.expect("enriched");
    assert_eq!(
        (
            cross.parent_agent_id.as_str(),
            cross.parent_session_key.as_str()
        ),
        ("main", "agent:main")
    );
    assert!(cross
        .inherited_policy_ids
        .contains(&"main-no-deploy".to_string()));
    assert!(
        !cross
            .inherited_policy_ids
            .contains(&"global-no-mkfs".to_string()),
        "global is not inherited, it is global"
    );
    // Three levels: task inherits from forge and main.
    assert_eq!(
        e.evaluate(&tool_call("task", TASK, "exec", "git push origin x"))
            .policy_id
            .as_deref(),
        Some("forge-no-push")
    );
    assert_eq!(
        e.evaluate(&tool_call("task", TASK, "exec", "docker rm db"))
            .policy_id
            .as_deref(),
        Some("main-no-deploy")
    );
    assert_eq!(
        e.evaluate(&tool_call("task", TASK, "exec", "mkfs x"))
            .policy_id
            .as_deref(),
        Some("global-no-mkfs")
    );
    assert_eq!(
        e.evaluate(&tool_call("task", TASK, "exec", "ls")).action,
        Action::Allow
    );
}

#[test]
fn trust_is_capped_by_every_ancestor_but_roots_are_not() {
    let e = engine(config());
    let root = e.evaluate(&tool_call("task", "agent:task:main", "gateway", ""));
    assert_eq!(
        (root.trust.score, root.action),
        (90.0, Action::Allow),
        "the same agent as a root is not capped"
    );
    // task is configured at 90, forge 45, main 60: task's effective score is 45 (standard).
    let v = e.evaluate(&tool_call("task", TASK, "gateway", ""));
    assert_eq!((v.trust.score, v.trust.tier), (45.0, TrustTier::Standard));
    assert_eq!(
        v.action,
        Action::Deny,
        "the capped tier fails the rule's trust gate"
    );
    let cross = v.cross_agent.unwrap();
    assert_eq!(
        (cross.trust_ceiling, cross.trust_ceiling_from.as_str()),
        (45.0, "forge")
    );
    // forge under main: min(45, 60) = 45; main is a root: 60, trusted.
    assert_eq!(
        e.evaluate(&tool_call("forge", FORGE, "read", ""))
            .trust
            .score,
        45.0
    );
}

#[test]
fn the_host_reported_graph_wins_over_key_parsing_and_ends_with_the_session() {
    let e = engine(config());
    e.register_subagent("agent:forge:run-7", "agent:main:main", Some("forge"));
    let v = e.evaluate(&tool_call(
        "forge",
        "agent:forge:run-7",
        "exec",
        "docker rm x",
    ));
    assert_eq!(v.policy_id.as_deref(), Some("main-no-deploy"));
    assert_eq!(
        v.cross_agent.as_ref().unwrap().parent_session_key,
        "agent:main:main"
    );
    e.end_subagent("agent:forge:run-7");
    assert_eq!(
        e.evaluate(&tool_call(
            "forge",
            "agent:forge:run-7",
            "exec",
            "docker rm x"
        ))
        .action,
        Action::Allow
    );
}

fn send(from_agent: &str, from: &str, to: &str, message: &str) -> Request {
    serde_json::from_value(
        json!({ "hook": "before_tool_call", "agentId": from_agent, "sessionKey": from,
        "toolName": "sessions_send", "params": { "sessionKey": to, "message": message } }),
    )
    .unwrap()
}

#[test]
fn agent_to_agent_messages_need_both_sides() {
    let e = engine(config());
    assert_eq!(
        e.evaluate(&send(
            "forge",
            "agent:forge:main",
            "agent:cerberus:main",
            "review please"
        ))
        .action,
        Action::Allow
    );
    let out = e.evaluate(&send(
        "forge",
        "agent:forge:main",
        "agent:cerberus:main",
        "PING",
    ));
    assert_eq!(
        (out.action, out.reason.as_str()),
        (Action::Deny, "forge may not ping")
    );
    let inbound = e.evaluate(&send(
        "forge",
        "agent:forge:main",
        "agent:cerberus:main",
        "the password is x",
    ));
    assert_eq!(inbound.action, Action::Deny);
    assert_eq!(
        inbound.reason,
        "Receiver cerberus's inbound policy: cerberus accepts no secrets"
    );
    // message_sending to an agent session goes through the same check.
    let msg: Request = serde_json::from_value(
        json!({ "hook": "message_sending", "sessionKey": "agent:forge:main",
        "messageTo": "agent:cerberus:main", "messageContent": "password: hunter2" }),
    )
    .unwrap();
    assert_eq!(e.evaluate(&msg).action, Action::Deny);
}

#[test]
fn sub_agent_actions_carry_the_cross_agent_context_into_the_audit_trail() {
    let dir = tempfile::tempdir().unwrap();
    let e = GovernanceEngine::try_new(
        &config(),
        &EngineOptions {
            state_dir: Some(dir.path().to_path_buf()),
        },
    )
    .unwrap();
    e.evaluate(&tool_call("task", TASK, "exec", "docker rm x"));
    let records = e.audit_query(&Default::default()).unwrap();
    let r = records
        .iter()
        .find(|r| r["context"]["agentId"] == "task")
        .unwrap();
    assert_eq!(r["crossAgent"]["parentAgentId"], "forge");
    assert_eq!(r["crossAgent"]["trustCeiling"], 45.0);
    assert!(r["crossAgent"]["inheritedPolicyIds"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p == "main-no-deploy"));
}

#[test]
fn explain_names_sources_ceiling_and_the_deciding_rule() {
    let e = engine(config());
    let params = json!({ "command": "docker rm web" }).as_object().cloned();
    let x = e.explain(TASK, Some("exec"), params).unwrap();
    let source = |id: &str| {
        x["policies"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["policyId"] == id)
            .map(|p| p["source"].clone())
    };
    assert_eq!(source("main-no-deploy"), Some(json!("inherited from main")));
    assert_eq!(source("forge-no-push"), Some(json!("inherited from forge")));
    assert_eq!(source("global-no-mkfs"), Some(json!("global")));
    assert_eq!(x["trust"]["ceiling"]["from"], "forge");
    assert_eq!(x["trust"]["effective"]["score"], 45.0);
    assert_eq!(x["decision"]["action"], "deny");
    assert_eq!(x["decision"]["source"], "inherited from main");
    assert_eq!(
        x["decision"]["reason"],
        "main's sessions may not remove containers"
    );
    // A dry run records nothing.
    assert_eq!(e.status().evaluations, 0);
}

#[test]
fn trust_changes_are_audited() {
    let dir = tempfile::tempdir().unwrap();
    let e = GovernanceEngine::try_new(
        &config(),
        &EngineOptions {
            state_dir: Some(dir.path().to_path_buf()),
        },
    )
    .unwrap();
    e.trust_operate("forge", &OperatorChange::SetScore(70.0), "owner")
        .unwrap();
    // main at 60: one block drops it to 58, a tier change.
    e.evaluate(&tool_call("main", "agent:main:main", "exec", "docker rm x"));
    let changes = e
        .audit_query(
            &serde_json::from_value(json!({ "verdict": "governance.trust.change" })).unwrap(),
        )
        .unwrap();
    assert_eq!(changes.len(), 2, "{changes:?}");
    assert_eq!(changes[0]["details"]["by"], "owner");
    assert_eq!(changes[0]["context"]["agentId"], "forge");
    assert_eq!(changes[0]["controls"], json!(["A.5.15", "A.8.2"]));
    assert_eq!(changes[1]["details"]["to"]["tier"], "standard");
    e.flush().unwrap();
    let stored: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("governance/trust.json")).unwrap())
            .unwrap();
    assert_eq!(stored["agents"]["main"]["signals"]["violationCount"], 1);
}
