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

// Keys as the host mints them: `agent:<the agent the child runs as>:subagent:<uuid>`; who
// asked comes from subagent_spawned (register_subagent), never from the key.
const FORGE: &str = "agent:forge:subagent:5a0c2f1e-7d44-4c2b-9a8e-1f3b6d7e9c01";
const TASK: &str = "agent:task:subagent:c3e1b7a2-0f5d-4e6a-8b9c-2d4f6a8b0c13";

/// main spawned forge, forge spawned task.
fn spawned(e: &GovernanceEngine) {
    e.register_subagent(FORGE, "agent:main:main", Some("forge"));
    e.register_subagent(TASK, FORGE, Some("task"));
}

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
    spawned(&e);
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
        ("main", "agent:main:main")
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
    spawned(&e);
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
fn the_graph_ends_with_the_session_and_an_unreported_spawn_is_capped_as_unknown() {
    let e = engine(config());
    e.register_subagent(FORGE, "agent:main:main", Some("forge"));
    let v = e.evaluate(&tool_call("forge", FORGE, "exec", "docker rm x"));
    assert_eq!(v.policy_id.as_deref(), Some("main-no-deploy"));
    e.end_subagent(FORGE);
    let v = e.evaluate(&tool_call("forge", FORGE, "read", ""));
    assert_eq!(v.action, Action::Allow, "main's policies no longer bind it");
    let cross = v.cross_agent.expect("still a sub-agent session");
    assert_eq!(cross.parent_agent_id, "unknown");
    assert_eq!(
        v.trust.score, 10.0,
        "nobody vouches for it: capped at the unknown agents' default"
    );
}

#[test]
fn a_child_spawned_by_an_untrusted_agent_to_run_as_main_keeps_the_requesters_ceiling() {
    // The case: intern (untrusted) spawns a run as main; the key names main.
    let dir = tempfile::tempdir().unwrap();
    let opts = EngineOptions {
        state_dir: Some(dir.path().to_path_buf()),
        ..Default::default()
    };
    let cfg = json!({ "trust": { "defaults": { "main": 60, "intern": 15 } },
        "policies": [{ "id": "gw", "rules": [{ "id": "needs-trusted", "maxTrust": "restricted",
            "conditions": [{ "type": "tool", "name": "gateway" }], "effect": { "action": "deny", "reason": "gateway needs standard" } }] }] });
    let child = "agent:main:subagent:9f1d3c5e-2a4b-4c6d-8e0f-1a3b5c7d9e2f";
    let judged = |e: &GovernanceEngine| {
        let v = e.evaluate(&tool_call("main", child, "gateway", ""));
        let x = e.explain(child, Some("gateway"), None).unwrap();
        (
            v.trust.score,
            v.action,
            x["agentId"].clone(),
            x["trust"]["effective"]["score"].clone(),
        )
    };
    {
        let mut e = GovernanceEngine::try_new(&cfg, &opts).unwrap();
        e.register_subagent(child, "agent:intern:main", Some("main"));
        let (score, action, agent, explained) = judged(&e);
        assert_eq!(
            (score, action),
            (15.0, Action::Deny),
            "intern's ceiling, not main's 60"
        );
        assert_eq!(
            (agent, explained),
            (json!("main"), json!(15.0)),
            "explain agrees with evaluate"
        );
        e.close().unwrap();
    }
    let e = GovernanceEngine::try_new(&cfg, &opts).unwrap();
    let (score, action, _, _) = judged(&e);
    assert_eq!((score, action), (15.0, Action::Deny), "after a restart too");
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
            ..Default::default()
        },
    )
    .unwrap();
    spawned(&e);
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
    spawned(&e);
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
            ..Default::default()
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
