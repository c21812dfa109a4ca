//! Beyond params, message text and block reasons, a record carries text in other fields: a
//! message's target, an engine error, the host's reason for an unanswered approval, and the
//! segments of an agent's output that output validation quotes. Each must pass the redactor.

use openclaw_governance::{EngineOptions, GovernanceEngine, Request};
use serde_json::{json, Value};

/// Shapes the redactor knows (provider token prefixes, userinfo in a URL).
const TOKEN: &str = "sk_live_51HqLyjWDarjtT1zdp7dcQaZx";
const PASSWORD: &str = "hunter2hunter2pass";

fn engine(dir: &std::path::Path, config: Value) -> GovernanceEngine {
    let opts = EngineOptions {
        state_dir: Some(dir.to_path_buf()),
        ..Default::default()
    };
    GovernanceEngine::try_new(&config, &opts).expect("engine")
}

/// Every audit line, as text, after the engine is gone (so everything is flushed).
fn trail(dir: &std::path::Path) -> String {
    let audit = dir.join("governance/audit");
    let mut out = String::new();
    for entry in std::fs::read_dir(&audit).expect("audit dir").flatten() {
        if entry.path().extension().and_then(|e| e.to_str()) == Some("jsonl") {
            out.push_str(&std::fs::read_to_string(entry.path()).expect("audit file"));
        }
    }
    out
}

fn assert_clean(trail: &str, what: &str) {
    assert!(
        !trail.contains(TOKEN),
        "{what}: token in the trail:\n{trail}"
    );
    assert!(
        !trail.contains(PASSWORD),
        "{what}: password in the trail:\n{trail}"
    );
}

#[test]
fn a_message_target_is_redacted() {
    let tmp = tempfile::tempdir().expect("temp dir");
    {
        let e = engine(tmp.path(), json!({}));
        let req = Request {
            hook: "message_sending".into(),
            session_key: Some("agent:main:main".into()),
            message_content: Some("deploy finished".into()),
            message_to: Some(format!(
                "https://bot:{PASSWORD}@chat.example.com/hook?key={TOKEN}"
            )),
            ..Request::default()
        };
        e.evaluate(&req);
    }
    let t = trail(tmp.path());
    assert!(
        t.contains("chat.example.com"),
        "the target is recorded: {t}"
    );
    assert_clean(&t, "messageTo");
}

#[test]
fn an_engine_error_is_redacted() {
    let tmp = tempfile::tempdir().expect("temp dir");
    {
        let e = engine(tmp.path(), json!({}));
        let error = format!("could not parse {{\"auth\": \"Bearer {TOKEN}\"}}");
        e.output_error(Some("agent:main:main"), "before_message_write", &error);
    }
    let t = trail(tmp.path());
    assert!(t.contains("output validation: could not parse"), "{t}");
    assert_clean(&t, "error");
}

#[test]
fn the_hosts_reason_for_an_unanswered_approval_is_redacted() {
    let tmp = tempfile::tempdir().expect("temp dir");
    {
        let e = engine(
            tmp.path(),
            json!({ "policies": [{ "id": "ask", "rules": [{ "id": "push",
                "conditions": [{ "type": "tool", "name": "exec" }],
                "effect": { "action": "escalate", "reason": "pushes need a human" } }] }] }),
        );
        let req: Request = serde_json::from_value(json!({
            "hook": "before_tool_call", "agentId": "main", "sessionKey": "agent:main:main",
            "toolName": "exec", "params": { "command": "git push" }
        }))
        .expect("request");
        let v = e.evaluate(&req);
        let id = v
            .approval
            .as_ref()
            .expect("an approval is asked")
            .id
            .clone();
        let reason = format!("gateway refused: Authorization: Bearer {TOKEN}");
        e.resolve_approval(&id, "cancelled", Some(&reason))
            .expect("resolved");
    }
    let t = trail(tmp.path());
    assert!(
        t.contains("escalate_unavailable") && t.contains("hostReason"),
        "{t}"
    );
    assert_clean(&t, "details.hostReason");
}

#[test]
fn quoted_output_segments_are_redacted() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let blocked = {
        let e = engine(
            tmp.path(),
            json!({ "outputValidation": { "enabled": true, "factRegistries": [{ "id": "ops", "facts": [
                { "id": "servers-down", "category": "system_state", "subject": "server.*", "subjectIsRegex": true,
                  "value": { "type": "state", "state": "not_running" } }] }] } }),
        );
        let text = format!("Done. The server {TOKEN} is running on port 3000.");
        let r = e
            .validate_output(
                Some("main"),
                Some("agent:main:main"),
                &text,
                "before_message_write",
            )
            .expect("validated");
        !r.violations.is_empty()
    };
    assert!(
        blocked,
        "the claim is a violation, so its segment is quoted"
    );
    let t = trail(tmp.path());
    assert!(t.contains("matchedText"), "{t}");
    assert_clean(&t, "matchedText");
}

#[test]
fn digests_and_ids_in_details_are_not_taken_for_secrets() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let opts = EngineOptions {
        state_dir: Some(tmp.path().to_path_buf()),
        ..Default::default()
    };
    {
        let mut e = engine(tmp.path(), json!({}));
        e.reconfigure(&json!({ "failMode": "closed" }), &opts);
    }
    let t = trail(tmp.path());
    let change = t
        .lines()
        .find(|l| l.contains("governance.config.change"))
        .expect("the edit is recorded");
    let v: Value = serde_json::from_str(&change[change.find('{').unwrap_or(0)..]).expect("JSON");
    let digest = v["details"]["configSha256"].as_str().unwrap_or_default();
    assert!(
        digest.len() == 64 && digest.bytes().all(|b| b.is_ascii_hexdigit()),
        "{change}"
    );
}
