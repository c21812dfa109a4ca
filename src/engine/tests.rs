use super::*;
use chrono::TimeZone;
use serde_json::{json, Value};

/// 2026-11-18 (a Wednesday) at `h:m` in Berlin, as epoch milliseconds.
fn berlin(h: u32, m: u32) -> f64 {
    chrono_tz::Europe::Berlin
        .with_ymd_and_hms(2026, 11, 18, h, m, 0)
        .unwrap()
        .timestamp_millis() as f64
}

fn engine(config: Value) -> GovernanceEngine {
    GovernanceEngine::try_new(&config, &EngineOptions::default()).expect("valid config")
}

fn tool(agent: &str, name: &str, params: Value) -> Request {
    Request {
        hook: "before_tool_call".into(),
        agent_id: Some(agent.into()),
        session_key: Some(format!("agent:{agent}:main")),
        tool_name: Some(name.into()),
        params: params.as_object().cloned(),
        timestamp: Some(berlin(12, 0)),
        ..Request::default()
    }
}

fn deny_rule(id: &str, conditions: Value) -> Value {
    json!({ "id": id, "conditions": conditions, "effect": { "action": "deny", "reason": format!("denied by {id}") } })
}

fn policy(id: &str, rules: Value) -> Value {
    json!({ "id": id, "name": id, "version": "1", "rules": rules })
}

#[test]
fn deny_blocks_and_nothing_matching_allows() {
    let e = engine(
        json!({ "policies": [policy("shell", json!([deny_rule("rm", json!([
        { "type": "tool", "name": "exec", "params": { "command": { "matches": "rm\\s+-rf" } } }
    ]))]))] }),
    );
    let v = e.evaluate(&tool("main", "exec", json!({ "command": "rm -rf /" })));
    assert_eq!(
        (v.action, v.reason.as_str(), v.rule_id.as_deref()),
        (Action::Deny, "denied by rm", Some("rm"))
    );
    let v = e.evaluate(&tool("main", "exec", json!({ "command": "ls" })));
    assert_eq!(
        (v.action, v.reason.as_str()),
        (Action::Allow, "No policy matched")
    );
}

#[test]
fn deny_wins_over_allow_and_escalate_regardless_of_priority() {
    let e = engine(json!({ "policies": [
        { "id": "allow-all", "priority": 100, "rules": [{ "id": "a", "effect": { "action": "allow" } }] },
        { "id": "esc", "priority": 50, "rules": [{ "id": "e", "effect": { "action": "escalate" } }] },
        { "id": "deny-exec", "priority": -5, "rules": [deny_rule("d", json!([{ "type": "tool", "name": "exec" }]))] }
    ] }));
    let v = e.evaluate(&tool("main", "exec", json!({})));
    assert_eq!(
        (v.action, v.policy_id.as_deref()),
        (Action::Deny, Some("deny-exec"))
    );
    let ids: Vec<&str> = v.matched.iter().map(|m| m.policy_id.as_str()).collect();
    assert_eq!(ids, ["allow-all", "esc", "deny-exec"]);
    let v = e.evaluate(&tool("main", "read", json!({})));
    assert_eq!(
        (v.action, v.policy_id.as_deref()),
        (Action::Escalate, Some("esc"))
    );
}

#[test]
fn first_matching_rule_decides_a_policy() {
    let e = engine(json!({ "policies": [policy("p", json!([
        { "id": "allow-ls", "conditions": [{ "type": "tool", "params": { "command": { "startsWith": "ls" } } }], "effect": { "action": "allow" } },
        deny_rule("deny-exec", json!([{ "type": "tool", "name": "exec" }]))
    ]))] }));
    assert_eq!(
        e.evaluate(&tool("main", "exec", json!({ "command": "ls -la" })))
            .action,
        Action::Allow
    );
    assert_eq!(
        e.evaluate(&tool("main", "exec", json!({ "command": "cat x" })))
            .action,
        Action::Deny
    );
}

#[test]
fn scope_agents_exclusions_and_hooks() {
    let e = engine(json!({ "policies": [
        { "id": "forge-only", "scope": { "agents": ["forge*"], "excludeAgents": ["forge-admin"] },
          "rules": [deny_rule("d", json!([]))] },
        { "id": "messages-only", "scope": { "hooks": ["message_sending"] }, "rules": [deny_rule("m", json!([]))] }
    ] }));
    assert_eq!(
        e.evaluate(&tool("forge", "read", json!({}))).action,
        Action::Deny
    );
    assert_eq!(
        e.evaluate(&tool("forge-2", "read", json!({}))).action,
        Action::Deny
    );
    assert_eq!(
        e.evaluate(&tool("forge-admin", "read", json!({}))).action,
        Action::Allow
    );
    assert_eq!(
        e.evaluate(&tool("main", "read", json!({}))).action,
        Action::Allow
    );
    let msg = Request {
        hook: "message_sending".into(),
        session_key: Some("agent:main:main".into()),
        message_content: Some("hi".into()),
        ..Request::default()
    };
    let v = e.evaluate(&msg);
    assert_eq!(
        (v.action, v.policy_id.as_deref()),
        (Action::Deny, Some("messages-only"))
    );
}

#[test]
fn escalation_maps_to_the_hosts_approval() {
    let e = engine(json!({ "approval": { "timeoutSeconds": 120 }, "policies": [
        policy("deploy", json!([{ "id": "push", "conditions": [{ "type": "tool", "name": "exec" }],
            "effect": { "action": "escalate", "reason": "Pushing needs a human", "timeout": 30, "fallback": "deny" } }])),
        policy("gw", json!([{ "id": "gw", "conditions": [{ "type": "tool", "name": "gateway" }], "effect": { "action": "escalate" } }]))
    ] }));
    let v = e.evaluate(&tool(
        "main",
        "exec",
        json!({ "command": "git push", "token": "s3cr3t" }),
    ));
    let a = v.approval.expect("approval request");
    assert_eq!(
        (v.action, a.timeout_ms, a.fallback),
        (Action::Escalate, 30_000, Fallback::Deny)
    );
    assert!(
        a.description.contains("Pushing needs a human") && a.description.contains("deploy/push")
    );
    assert!(
        !a.description.contains("s3cr3t"),
        "params in the approval text are redacted"
    );
    let a = e
        .evaluate(&tool("main", "gateway", json!({})))
        .approval
        .unwrap();
    assert_eq!((a.timeout_ms, a.fallback), (120_000, Fallback::Deny));
}

#[test]
fn disabled_approvals_apply_the_fallback_at_once() {
    let e = engine(json!({ "approval": { "enabled": false }, "policies": [
        policy("p", json!([{ "id": "e", "effect": { "action": "escalate" } }]))] }));
    let v = e.evaluate(&tool("main", "exec", json!({})));
    assert_eq!(v.action, Action::Deny);
    assert!(v.reason.contains("approvals disabled"));
}

#[test]
fn trust_gates_and_agent_conditions() {
    let e = engine(
        json!({ "trust": { "defaults": { "main": 60, "intern": 15, "*": 45 } }, "policies": [
        policy("p", json!([
            { "id": "low-trust", "maxTrust": "restricted", "effect": { "action": "deny", "reason": "low" } },
            { "id": "by-score", "conditions": [{ "type": "agent", "minScore": 40, "maxScore": 50 }], "effect": { "action": "deny", "reason": "mid" } },
            { "id": "by-tier", "conditions": [{ "type": "agent", "trustTier": ["trusted", "elevated"], "id": "ma*" }], "effect": { "action": "audit" } }
        ]))] }),
    );
    assert_eq!(e.evaluate(&tool("intern", "read", json!({}))).reason, "low");
    assert_eq!(
        e.evaluate(&tool("someone", "read", json!({}))).reason,
        "mid"
    );
    let v = e.evaluate(&tool("main", "read", json!({})));
    // An audit effect allows (seed 002 Verdict.action has no "audit"); it is named in the reason.
    assert_eq!(
        (v.action, v.rule_id.as_deref()),
        (Action::Allow, Some("by-tier"))
    );
    assert!(v.reason.contains("audited"));
}

#[test]
fn night_mode_governs_tool_calls_only_and_respects_the_zone() {
    let e =
        engine(json!({ "timezone": "Europe/Berlin", "builtinPolicies": { "nightMode": true } }));
    let mut late = tool("main", "exec", json!({ "command": "ls" }));
    late.timestamp = Some(berlin(23, 30));
    let v = e.evaluate(&late);
    assert_eq!(
        (v.action, v.policy_id.as_deref()),
        (Action::Deny, Some("builtin-night-mode"))
    );
    assert!(v.reason.contains("23:00–08:00"));
    late.tool_name = Some("read".into());
    assert_eq!(e.evaluate(&late).action, Action::Allow);
    assert_eq!(
        e.evaluate(&tool("main", "exec", json!({ "command": "ls" })))
            .action,
        Action::Allow
    );
    let msg = Request {
        hook: "message_sending".into(),
        session_key: Some("agent:main:main".into()),
        message_content: Some("good night".into()),
        timestamp: Some(berlin(2, 0)),
        ..Request::default()
    };
    assert_eq!(
        e.evaluate(&msg).action,
        Action::Allow,
        "night mode must not cancel outbound messages"
    );
}

#[test]
fn time_windows_days_and_per_window_zones() {
    let e = engine(json!({ "timezone": "UTC",
        "timeWindows": { "berlin-office": { "start": "09:00", "end": "17:00", "days": [1, 2, 3, 4, 5], "timezone": "Europe/Berlin" } },
        "policies": [policy("p", json!([deny_rule("office", json!([{ "type": "time", "window": "berlin-office" }]))]))] }));
    // 16:30 Berlin is 15:30 UTC: inside the Berlin window even though the default zone is UTC.
    let mut r = tool("main", "read", json!({}));
    r.timestamp = Some(berlin(16, 30));
    assert_eq!(e.evaluate(&r).action, Action::Deny);
    r.timestamp = Some(berlin(17, 30));
    assert_eq!(e.evaluate(&r).action, Action::Allow);
    // Saturday 2026-11-21 at noon Berlin: not a listed day.
    r.timestamp = Some(berlin(12, 0) + 3.0 * 86_400_000.0);
    assert_eq!(e.evaluate(&r).action, Action::Allow);
}

#[test]
fn a_rate_limit_of_n_allows_exactly_n_calls_per_window() {
    let e = engine(json!({ "builtinPolicies": { "rateLimiter": { "maxPerMinute": 3 } } }));
    let at = |s: f64| {
        let mut r = tool("main", "read", json!({}));
        r.timestamp = Some(berlin(12, 0) + s * 1000.0);
        e.evaluate(&r).action
    };
    let first: Vec<Action> = (0..5).map(|i| at(i as f64)).collect();
    assert_eq!(
        first,
        [
            Action::Allow,
            Action::Allow,
            Action::Allow,
            Action::Deny,
            Action::Deny
        ]
    );
    assert_eq!(
        at(61.0),
        Action::Allow,
        "the window slides: the first call has expired"
    );
    // Other agents have their own window.
    assert_eq!(
        e.evaluate(&tool("other", "read", json!({}))).action,
        Action::Allow
    );
}

#[test]
fn frequency_scopes_session_and_global() {
    let e = engine(json!({ "policies": [
        policy("session", json!([deny_rule("s", json!([{ "type": "frequency", "maxCount": 1, "windowSeconds": 60, "scope": "session" }]))])),
        { "id": "global", "scope": { "agents": ["g*"] }, "rules": [deny_rule("g", json!([{ "type": "frequency", "maxCount": 2, "windowSeconds": 60, "scope": "global" }]))] }
    ] }));
    let mut a = tool("main", "read", json!({}));
    assert_eq!(e.evaluate(&a).action, Action::Allow);
    assert_eq!(e.evaluate(&a).rule_id.as_deref(), Some("s"));
    a.session_key = Some("agent:main:other".into());
    assert_eq!(
        e.evaluate(&a).action,
        Action::Allow,
        "another session has its own count"
    );
    // Two calls went through globally; g1's first call is the third.
    assert_eq!(
        e.evaluate(&tool("g1", "read", json!({})))
            .rule_id
            .as_deref(),
        Some("g")
    );
}

#[test]
fn context_conditions_read_the_conversation_and_the_message() {
    let e = engine(
        json!({ "performance": { "maxContextMessages": 2 }, "policies": [
        policy("conv", json!([deny_rule("prod-talk", json!([{ "type": "tool", "name": "exec" }, { "type": "context", "conversationContains": "PRODUCTION" }]))])),
        policy("msg", json!([deny_rule("secret-msg", json!([{ "type": "context", "messageContains": ["password"], "channel": ["slack"] }]))])),
        policy("meta", json!([deny_rule("meta", json!([{ "type": "context", "hasMetadata": "urgent", "sessionKey": "agent:*:cron:*" }]))]))
    ] }),
    );
    let r = tool("main", "exec", json!({ "command": "ls" }));
    assert_eq!(e.evaluate(&r).action, Action::Allow);
    e.observe_message("agent:main:main", "please deploy to production");
    assert_eq!(e.evaluate(&r).rule_id.as_deref(), Some("prod-talk"));
    e.observe_message("agent:main:main", "never mind");
    e.observe_message("agent:main:main", "just list files");
    assert_eq!(
        e.evaluate(&r).action,
        Action::Allow,
        "only the last maxContextMessages count"
    );
    let msg = |channel: &str| Request {
        hook: "message_sending".into(),
        session_key: Some("agent:main:main".into()),
        channel: Some(channel.into()),
        message_content: Some("the Password is x".into()),
        ..Request::default()
    };
    assert_eq!(
        e.evaluate(&msg("slack")).rule_id.as_deref(),
        Some("secret-msg")
    );
    assert_eq!(e.evaluate(&msg("email")).action, Action::Allow);
    let mut cron = tool("main", "read", json!({}));
    cron.session_key = Some("agent:main:cron:nightly".into());
    cron.metadata = json!({ "urgent": true }).as_object().cloned();
    assert_eq!(e.evaluate(&cron).rule_id.as_deref(), Some("meta"));
}

#[test]
fn risk_any_and_not_compose() {
    let e = engine(
        json!({ "trust": { "defaults": { "*": 0 } }, "policies": [policy("p", json!([
        deny_rule("critical", json!([{ "type": "risk", "minRisk": "high" }])),
        deny_rule("either", json!([{ "type": "any", "conditions": [{ "type": "tool", "name": "browser" }, { "type": "tool", "name": "canvas" }] }])),
        deny_rule("not-read", json!([{ "type": "not", "condition": { "type": "tool", "name": ["read", "memory_*"] } }]))
    ]))] }),
    );
    let mut prod = tool("x", "gateway", json!({ "action": "restart production" }));
    prod.timestamp = Some(berlin(3, 0));
    assert_eq!(e.evaluate(&prod).rule_id.as_deref(), Some("critical"));
    assert_eq!(
        e.evaluate(&tool("x", "canvas", json!({})))
            .rule_id
            .as_deref(),
        Some("either")
    );
    assert_eq!(
        e.evaluate(&tool("x", "write", json!({})))
            .rule_id
            .as_deref(),
        Some("not-read")
    );
    assert_eq!(
        e.evaluate(&tool("x", "memory_get", json!({}))).action,
        Action::Allow
    );
}

#[test]
fn an_intent_condition_without_the_llm_is_refused() {
    // It used to evaluate to false with a warning: a deny it guarded silently allowed.
    let cfg = json!({ "policies": [policy("p", json!([deny_rule("i", json!([{ "type": "intent", "description": "exfiltrates data" }]))]))] });
    let err = GovernanceEngine::try_new(&cfg, &EngineOptions::default())
        .err()
        .expect("refused");
    let text = err.to_string();
    assert!(text.contains("policies.p.i"), "{text}");
    assert!(text.contains("llm.enabled: true"), "{text}");
}

#[test]
fn unknown_tools_follow_unknown_tool_action() {
    let cfg = |action: &str| {
        json!({ "unknownToolAction": action, "toolRiskOverrides": { "custom_tool": 30 },
        "policies": [policy("p", json!([{ "id": "a", "conditions": [{ "type": "tool", "name": "named_*" }], "effect": { "action": "allow" } }]))] })
    };
    assert_eq!(
        engine(cfg("allow"))
            .evaluate(&tool("main", "mystery", json!({})))
            .action,
        Action::Allow
    );
    let v = engine(cfg("deny")).evaluate(&tool("main", "mystery", json!({})));
    assert_eq!(
        (v.action, v.rule_id.as_deref()),
        (Action::Deny, Some("unknown-tool"))
    );
    let e = engine(cfg("escalate"));
    assert_eq!(
        e.evaluate(&tool("main", "mystery", json!({}))).action,
        Action::Escalate
    );
    for known in ["exec", "custom_tool", "named_thing"] {
        assert_eq!(
            e.evaluate(&tool("main", known, json!({}))).action,
            Action::Allow,
            "{known}"
        );
    }
}

#[test]
fn bad_config_fails_closed_naming_the_error() {
    let e = GovernanceEngine::new(
        &json!({ "failMode": "closed", "timezone": "Mars/Base" }),
        &EngineOptions::default(),
    );
    let v = e.evaluate(&tool("main", "read", json!({})));
    assert_eq!(v.action, Action::Deny);
    assert!(
        v.reason.contains("Mars/Base") && v.reason.contains("timezone"),
        "{}",
        v.reason
    );
    assert!(
        v.logs.iter().any(|l| l.level == "error"),
        "logged once at error level"
    );
    assert!(e.evaluate(&tool("main", "read", json!({}))).logs.is_empty());
    // An unreadable failMode is treated as closed.
    let e = GovernanceEngine::new(
        &json!({ "failMode": "sometimes" }),
        &EngineOptions::default(),
    );
    assert_eq!(
        e.evaluate(&tool("main", "read", json!({}))).action,
        Action::Deny
    );
}

#[test]
fn bad_config_fails_open_and_audits_error_fallback() {
    let dir = tempfile::tempdir().unwrap();
    let opts = EngineOptions {
        state_dir: Some(dir.path().to_path_buf()),
        ..Default::default()
    };
    let e = GovernanceEngine::new(&json!({ "failMode": "open", "policies": "oops" }), &opts);
    let v = e.evaluate(&tool("main", "exec", json!({ "command": "rm -rf /" })));
    assert_eq!(v.action, Action::Allow);
    assert!(v.error.as_deref().unwrap().contains("policies"));
    e.flush().unwrap();
    let records = read_audit(dir.path());
    assert_eq!(records.len(), 1);
    assert_eq!(records[0]["verdict"], "error_fallback");
    assert!(records[0]["error"].as_str().unwrap().contains("policies"));
}

#[test]
fn disabled_engine_allows_everything() {
    let e = engine(json!({ "enabled": false, "builtinPolicies": { "credentialGuard": true } }));
    assert_eq!(
        e.evaluate(&tool("main", "read", json!({ "path": ".env" })))
            .action,
        Action::Allow
    );
}

fn read_audit(dir: &std::path::Path) -> Vec<Value> {
    let audit = dir.join("governance/audit");
    let mut lines = Vec::new();
    for entry in std::fs::read_dir(&audit).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|x| x == "jsonl") {
            for line in std::fs::read_to_string(&path).unwrap().lines() {
                lines.push(serde_json::from_str(line).unwrap());
            }
        }
    }
    lines.sort_by_key(|r: &Value| r["seq"].as_u64());
    lines
}

#[test]
fn a_block_is_on_disk_before_evaluate_returns() {
    let dir = tempfile::tempdir().unwrap();
    let opts = EngineOptions {
        state_dir: Some(dir.path().to_path_buf()),
        ..Default::default()
    };
    let e = GovernanceEngine::try_new(&json!({ "audit": { "flushIntervalMs": 60000 }, "builtinPolicies": { "credentialGuard": true } }), &opts).unwrap();
    let v = e.evaluate(&tool(
        "main",
        "exec",
        json!({ "command": "cat ~/.aws/credentials", "apiKey": "sk-live-abcdefghijklmnop1234" }),
    ));
    assert_eq!(v.action, Action::Deny);
    // No flush: the durable write happened inside evaluate.
    let records = read_audit(dir.path());
    let r = records.last().expect("record written before return");
    assert_eq!(r["executionPrevented"], true);
    assert_eq!(r["verdict"], "deny");
    assert_eq!(r["ruleId"], "credential");
    assert!(r["blockReason"]
        .as_str()
        .unwrap()
        .contains("Credential guard"));
    assert_eq!(r["context"]["toolParams"]["apiKey"], "[REDACTED]");
    assert!(
        !r.to_string().contains("sk-live"),
        "secrets never reach disk"
    );
    assert_eq!(r["controls"], json!(["A.8.3", "A.8.5", "A.5.24", "A.5.28"]));
}

#[test]
fn every_evaluation_is_audited_in_a_linked_sequence() {
    let dir = tempfile::tempdir().unwrap();
    let opts = EngineOptions {
        state_dir: Some(dir.path().to_path_buf()),
        ..Default::default()
    };
    {
        let e = GovernanceEngine::try_new(&json!({}), &opts).unwrap();
        for i in 0..5 {
            e.evaluate(&tool("main", "read", json!({ "path": format!("f{i}") })));
        }
    }
    // A second engine on the same dir continues the sequence.
    let e = GovernanceEngine::try_new(&json!({}), &opts).unwrap();
    e.evaluate(&tool("main", "read", json!({})));
    // Closed, so the last checkpoint covers every record (an auditor's verify requires it).
    drop(e);
    let records = read_audit(dir.path());
    assert_eq!(records.len(), 6);
    let data = crate::audit::store::LogData::read(&dir.path().join("governance/audit")).unwrap();
    let report = crate::audit::verify::verify(&data, None);
    assert!(report.valid, "{:?}", report.problems);
    assert_eq!(report.records, 6);
    let genesis = "0".repeat(64);
    for (i, r) in records.iter().enumerate() {
        assert_eq!(r["seq"], i as u64);
        let prev = if i == 0 {
            genesis.as_str()
        } else {
            records[i - 1]["hash"].as_str().unwrap()
        };
        assert_eq!(r["prevHash"], prev);
        // hash itself: checked by the verifier below
        assert_eq!(r["verdict"], "allow");
        for key in [
            "id",
            "timestamp",
            "timestampIso",
            "context",
            "trust",
            "risk",
            "matchedPolicies",
            "evaluationUs",
            "llmEscalated",
            "controls",
        ] {
            assert!(r.get(key).is_some(), "{key} missing");
        }
    }
}

#[test]
fn credential_guard_and_production_safeguard_cases() {
    // Room for every escalation below: none of them is resolved.
    let e = engine(json!({ "approval": { "maxPendingPerAgent": 10 },
        "builtinPolicies": { "credentialGuard": true, "productionSafeguard": true } }));
    let denied = [
        ("read", json!({ "path": "/app/.env.production" })),
        ("read", json!({ "file_path": "/home/u/.ssh/id_ed25519" })),
        ("exec", json!({ "command": "cat server.pem" })),
        ("exec", json!({ "command": "grep -r password /etc" })),
        ("exec", json!({ "command": "cp ~/.aws/credentials /tmp/x" })),
    ];
    for (t, p) in denied {
        assert_eq!(
            e.evaluate(&tool("main", t, p.clone())).action,
            Action::Deny,
            "{t} {p}"
        );
    }
    let escalated = [
        ("exec", json!({ "command": "git push origin main" })),
        ("exec", json!({ "command": "docker push registry/app:1" })),
        ("exec", json!({ "command": "sudo systemctl restart nginx" })),
        ("gateway", json!({ "action": "restart" })),
    ];
    for (t, p) in escalated {
        assert_eq!(
            e.evaluate(&tool("main", t, p.clone())).action,
            Action::Escalate,
            "{t} {p}"
        );
    }
    let allowed = [
        ("read", json!({ "path": "src/environment.rs" })),
        ("exec", json!({ "command": "git push origin feature/x" })),
        ("exec", json!({ "command": "cargo test" })),
        ("read", json!({ "path": "docs/keys.md" })),
    ];
    for (t, p) in allowed {
        assert_eq!(
            e.evaluate(&tool("main", t, p.clone())).action,
            Action::Allow,
            "{t} {p}"
        );
    }
}

#[test]
fn huge_inputs_are_judged_correctly() {
    let e = engine(
        json!({ "builtinPolicies": { "credentialGuard": true, "productionSafeguard": true, "nightMode": true, "rateLimiter": true } }),
    );
    let filler = "a".repeat(80 * 1024);
    assert_eq!(
        e.evaluate(&tool("main", "exec", json!({ "command": filler.clone() })))
            .action,
        Action::Allow
    );
    let tail = format!("{filler} && cat .env");
    assert_eq!(
        e.evaluate(&tool("main", "exec", json!({ "command": tail })))
            .action,
        Action::Deny,
        "a secret at the end of 80 KB is still seen"
    );
}

#[test]
fn message_sending_derives_the_agent_from_the_session_key() {
    let e = engine(
        json!({ "trust": { "defaults": { "forge": 45 } }, "policies": [
        { "id": "p", "scope": { "agents": ["forge"] }, "rules": [deny_rule("d", json!([]))] }] }),
    );
    let msg = Request {
        hook: "message_sending".into(),
        session_key: Some("agent:forge:main".into()),
        message_content: Some("x".into()),
        ..Request::default()
    };
    let v = e.evaluate(&msg);
    assert_eq!((v.action, v.trust.score), (Action::Deny, 45.0));
}
