//! Provenance through the engine (seed 004): what a session read gates its tools, survives a
//! restart and a compaction, is cleared by a reset, and flows between parent and sub-agent.

use openclaw_governance::engine::provenance::Inbound;
use openclaw_governance::provenance::Level;
use openclaw_governance::{EngineOptions, GovernanceEngine, Request};
use serde_json::{json, Value};

const MAIN: &str = "agent:main:main";

fn config() -> Value {
    json!({
        "builtinPolicies": {},
        "provenance": {
            "toolTrust": { "exec": [{ "conditions": [{ "type": "command", "program": "gog", "args": { "equals": "gmail" } }], "level": "external" }] },
            "policies": [{ "name": "no-exec-when-tainted",
                "when": { "context_taint_includes": ["external", "untrusted"] },
                "action": { "block_tools": ["exec", "process"] } }]
        }
    })
}

fn engine(dir: &std::path::Path, config: Value) -> GovernanceEngine {
    let opts = EngineOptions {
        state_dir: Some(dir.to_path_buf()),
        ..Default::default()
    };
    GovernanceEngine::try_new(&config, &opts).expect("engine")
}

fn call(session: &str, tool: &str, params: Value) -> Request {
    serde_json::from_value(json!({
        "hook": "before_tool_call", "agentId": "main", "sessionKey": session,
        "toolName": tool, "params": params
    }))
    .expect("request")
}

fn fetch(e: &GovernanceEngine, session: &str, url: &str) -> Option<Level> {
    e.observe_tool_result(&call(session, "web_fetch", json!({ "url": url })), None)
}

fn exec_allowed(e: &GovernanceEngine, session: &str) -> (bool, String) {
    let v = e.evaluate(&call(session, "exec", json!({ "command": "ls -la" })));
    (!v.is_block(), v.reason)
}

#[test]
fn a_fetched_page_blocks_exec_in_its_session_only_and_the_reason_names_it() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let e = engine(tmp.path(), config());
    assert!(exec_allowed(&e, MAIN).0, "nothing read yet");
    assert_eq!(
        fetch(&e, MAIN, "https://evil.example/page?token=1"),
        Some(Level::Untrusted)
    );
    let (allowed, reason) = exec_allowed(&e, MAIN);
    assert!(!allowed);
    assert!(
        reason.contains("web_fetch https://evil.example/page at "),
        "{reason}"
    );
    assert!(
        !reason.contains("token=1"),
        "the query is not repeated: {reason}"
    );
    assert!(
        exec_allowed(&e, "agent:main:other").0,
        "another session is untouched"
    );
    let read = e.evaluate(&call(MAIN, "read", json!({ "path": "README.md" })));
    assert!(!read.is_block(), "tools the policy does not name still run");
}

#[test]
fn local_results_and_the_owner_taint_nothing_strangers_do() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let e = engine(tmp.path(), config());
    e.observe_tool_result(&call(MAIN, "read", json!({ "path": "notes.md" })), None);
    let owner = Inbound {
        session_key: MAIN.into(),
        sender_is_owner: Some(true),
        ..Default::default()
    };
    assert_eq!(e.observe_inbound(&owner), Some(Level::Owner));
    assert!(exec_allowed(&e, MAIN).0);
    let stranger = Inbound {
        session_key: MAIN.into(),
        sender_is_owner: Some(false),
        channel: Some("telegram".into()),
        sender_id: Some("4711".into()),
        ..Default::default()
    };
    assert_eq!(e.observe_inbound(&stranger), Some(Level::External));
    let (allowed, reason) = exec_allowed(&e, MAIN);
    assert!(
        !allowed && reason.contains("message telegram 4711"),
        "{reason}"
    );
}

#[test]
fn an_operator_rule_classifies_a_mail_command_as_external() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let e = engine(tmp.path(), config());
    let ls = call(MAIN, "exec", json!({ "command": "ls" }));
    assert_eq!(e.observe_tool_result(&ls, None), Some(Level::Local));
    let mail = call(
        MAIN,
        "exec",
        json!({ "command": "gog gmail search 'is:unread'" }),
    );
    assert_eq!(e.observe_tool_result(&mail, None), Some(Level::External));
    assert!(!exec_allowed(&e, MAIN).0);
}

#[test]
fn taint_survives_a_restart_and_a_reset_clears_it() {
    let tmp = tempfile::tempdir().expect("temp dir");
    {
        let mut e = engine(tmp.path(), config());
        fetch(&e, MAIN, "https://evil.example/");
        e.close().expect("closed");
    }
    let e = engine(tmp.path(), config());
    assert!(
        !exec_allowed(&e, MAIN).0,
        "a restart keeps what the session read"
    );
    assert!(e.reset_provenance(MAIN));
    assert!(exec_allowed(&e, MAIN).0, "a reset clears it");
}

#[test]
fn sub_agents_inherit_and_their_results_taint_the_parent() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let e = engine(tmp.path(), config());
    let child = "agent:main:subagent:1";
    fetch(&e, MAIN, "https://evil.example/");
    e.register_subagent(child, MAIN, Some("main"));
    assert!(
        !exec_allowed(&e, child).0,
        "a child of a tainted session starts tainted"
    );

    let clean_parent = "agent:main:clean";
    let clean_child = "agent:main:subagent:2";
    e.register_subagent(clean_child, clean_parent, Some("main"));
    assert!(exec_allowed(&e, clean_child).0);
    fetch(&e, clean_child, "https://evil.example/child");
    assert!(
        exec_allowed(&e, clean_parent).0,
        "not before the result comes back"
    );
    let announce = Inbound {
        session_key: clean_parent.into(),
        provenance_kind: Some("inter_session".into()),
        source_session_key: Some(clean_child.into()),
        source_tool: Some("subagent_announce".into()),
        ..Default::default()
    };
    assert_eq!(e.observe_inbound(&announce), Some(Level::Shared));
    let (allowed, reason) = exec_allowed(&e, clean_parent);
    assert!(
        !allowed && reason.contains("https://evil.example/child"),
        "{reason}"
    );
}

#[test]
fn a_taint_condition_combines_with_other_conditions() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let e = engine(
        tmp.path(),
        json!({ "builtinPolicies": {}, "provenance": { "enabled": true },
            "policies": [{ "id": "ask", "rules": [{ "id": "send-after-web",
                "conditions": [{ "type": "tool", "name": "message" }, { "type": "taint", "atOrBelow": "external" }],
                "effect": { "action": "deny", "reason": "no sending after reading the web" } }] }] }),
    );
    let send = call(MAIN, "message", json!({ "action": "send", "to": "x" }));
    assert!(!e.evaluate(&send).is_block());
    fetch(&e, MAIN, "https://evil.example/");
    assert!(e.evaluate(&send).is_block());
    assert!(
        exec_allowed(&e, MAIN).0,
        "no provenance policy names exec here"
    );
}

#[test]
fn a_taint_condition_without_provenance_is_rejected() {
    let c = json!({ "policies": [{ "id": "p", "rules": [{ "id": "r",
        "conditions": [{ "type": "taint", "includes": ["untrusted"] }],
        "effect": { "action": "deny" } }] }] });
    let e = GovernanceEngine::try_new(&c, &EngineOptions::default())
        .err()
        .expect("rejected");
    assert!(
        e.to_string().contains("policies.p.r") && e.to_string().contains("provenance.enabled"),
        "{e}"
    );
}

#[test]
fn without_provenance_nothing_is_tracked() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let e = engine(tmp.path(), json!({}));
    assert_eq!(fetch(&e, MAIN, "https://evil.example/"), None);
    assert!(e.session_taint(MAIN).is_none());
}

#[test]
fn the_decisions_record_carries_the_sessions_taint_and_the_trail_verifies() {
    let tmp = tempfile::tempdir().expect("temp dir");
    {
        let e = engine(tmp.path(), config());
        fetch(&e, MAIN, "https://evil.example/page");
        assert!(!exec_allowed(&e, MAIN).0);
        e.flush().expect("flushed");
        let deny = e
            .audit_query(&Default::default())
            .expect("query")
            .into_iter()
            .find(|r| r["verdict"] == "deny")
            .expect("a deny record");
        assert_eq!(deny["provenance"]["maxTaint"], "untrusted", "{deny}");
        assert_eq!(deny["provenance"]["sources"][0]["via"], "web_fetch");
        assert_eq!(
            deny["provenance"]["sources"][0]["what"],
            "https://evil.example/page"
        );
        assert_eq!(deny["ruleId"], "no-exec-when-tainted");
        let report = e.audit_verify().expect("verified");
        assert!(report.valid, "{report:?}");
    }
}

#[test]
fn mail_arriving_as_a_hook_sessions_prompt_is_external_even_flagged_as_the_owners() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let e = engine(tmp.path(), config());
    let mail = "agent:main:hook:gmail:msg-42";
    let run = Inbound {
        session_key: mail.into(),
        sender_is_owner: Some(true),
        ..Default::default()
    };
    assert_eq!(e.observe_inbound(&run), Some(Level::External));
    let (allowed, reason) = exec_allowed(&e, mail);
    assert!(!allowed && reason.contains("hook gmail"), "{reason}");
}
