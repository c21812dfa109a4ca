use super::*;
use serde_json::json;

fn issues_of(v: Value) -> Vec<ConfigIssue> {
    GovernanceConfig::resolve(&v)
        .expect_err("config should be rejected")
        .issues
}

fn paths(v: Value) -> Vec<String> {
    issues_of(v).into_iter().map(|i| i.path).collect()
}

#[test]
fn empty_config_gets_the_seed_defaults() {
    let c = GovernanceConfig::resolve(&json!({})).unwrap();
    assert!(c.enabled);
    assert_eq!(c.timezone_name, "UTC");
    assert_eq!(c.fail_mode, FailMode::Open);
    assert_eq!(c.unknown_tool_action, UnknownToolAction::Allow);
    // Self-protection is the one builtin on by default (issue 12).
    let ids: Vec<&str> = c.policies.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["builtin-self-protection"]);
    assert_eq!(c.trust.defaults.get("main"), Some(&60.0));
    assert_eq!(c.trust.defaults.get("*"), Some(&10.0));
    assert_eq!(c.trust.persist_interval_seconds, 60);
    assert_eq!(
        (c.trust.decay_inactivity_days, c.trust.decay_rate),
        (30, 0.99)
    );
    assert_eq!(c.trust.max_history_per_agent, 100);
    assert!(c.audit.enabled && c.audit.verify_on_startup);
    assert_eq!(
        (c.audit.retention_days, c.audit.level),
        (90, AuditLevel::Standard)
    );
    assert_eq!(
        (c.approval.timeout_seconds, c.approval.default_fallback),
        (300, Fallback::Deny)
    );
    assert_eq!(c.approval.max_pending_per_agent, 3);
    assert!(!c.llm.enabled);
    assert_eq!(
        (c.llm.endpoint.as_str(), c.llm.model.as_str()),
        ("http://localhost:11434/v1", "mistral:7b")
    );
    assert_eq!(
        (
            c.llm.timeout_ms,
            c.llm.escalation_threshold,
            c.llm.min_risk_for_escalation
        ),
        (5000, 50.0, 20.0)
    );
    assert_eq!((c.llm.max_concurrent, c.llm.cache_ttl_seconds), (2, 300));
    assert_eq!(c.performance.max_eval_us, 5000);
    assert_eq!(c.performance.max_context_messages, 10);
    assert_eq!(c.performance.frequency_buffer_size, 1000);
}

#[test]
fn every_problem_is_reported_with_its_path() {
    let p = paths(json!({
        "timezone": "Mars/Olympus",
        "failmode": "closed",
        "failMode": "sometimes",
        "trust": { "defaults": { "main": 150 } },
        "timeWindows": { "maint": { "start": "25:00", "end": "06:00" } },
        "policies": [{
            "id": "p", "rules": [{
                "id": "r",
                "conditions": [
                    { "type": "tool", "params": { "command": { "matches": "(a)\\1" } } },
                    { "type": "telepathy" },
                    { "type": "time", "after": "7pm" }
                ],
                "effect": { "action": "deny" }
            }]
        }]
    }));
    for want in [
        "timezone",
        "failmode",
        "failMode",
        "trust.defaults.main",
        "timeWindows.maint.start",
        r#"policies[0] "p".rules[0].conditions[0].params.command.matches"#,
        r#"policies[0] "p".rules[0].conditions[1].type"#,
        r#"policies[0] "p".rules[0].conditions[2].after"#,
    ] {
        assert!(p.iter().any(|x| x == want), "missing {want} in {p:?}");
    }
}

#[test]
fn regex_errors_carry_the_crate_message() {
    let issues = issues_of(json!({ "policies": [{ "id": "p", "rules": [{ "id": "r",
        "conditions": [{ "type": "tool", "params": { "command": { "matches": "(?<=x)y" } } }],
        "effect": { "action": "deny" } }] }] }));
    assert!(issues[0].message.contains("look-around"), "{issues:?}");
    let long = "a".repeat(501);
    let issues = issues_of(json!({ "policies": [{ "id": "p", "rules": [{ "id": "r",
        "conditions": [{ "type": "context", "messageContains": long }], "effect": { "action": "deny" } }] }] }));
    assert_eq!(
        issues[0].path,
        r#"policies[0] "p".rules[0].conditions[0].messageContains[0]"#
    );
}

#[test]
fn structural_mistakes_are_named() {
    let p = paths(json!({ "policies": [
        { "rules": [] },
        { "id": "dup", "rules": [{ "id": "r", "effect": { "action": "explode" } }] },
        { "id": "dup", "scope": { "hooks": ["before_lunch"] }, "rules": [
            { "id": "r", "effect": { "action": "allow" }, "minTrust": "demigod" },
            { "id": "r", "conditions": [{ "type": "tool", "params": { "x": { "equals": 1, "contains": "a" } } }], "effect": { "action": "allow" } }
        ] }
    ] }));
    for want in [
        "policies[0].id",
        r#"policies[1] "dup".rules[0].effect.action"#,
        r#"policies[2] "dup".id"#,
        r#"policies[2] "dup".scope.hooks[0]"#,
        r#"policies[2] "dup".rules[0].minTrust"#,
        r#"policies[2] "dup".rules[1].id"#,
        r#"policies[2] "dup".rules[1].conditions[0].params.x"#,
    ] {
        assert!(p.iter().any(|x| x == want), "missing {want} in {p:?}");
    }
}

#[test]
fn unknown_time_window_and_frequency_without_limit() {
    let p = paths(json!({ "policies": [{ "id": "p", "rules": [{ "id": "r",
        "conditions": [{ "type": "time", "window": "nope" }, { "type": "frequency" }],
        "effect": { "action": "deny" } }] }] }));
    assert!(p.contains(&r#"policies[0] "p".rules[0].conditions[0].window"#.to_string()));
    assert!(p.contains(&r#"policies[0] "p".rules[0].conditions[1].maxCount"#.to_string()));
}

#[test]
fn compatibility_aliases_are_accepted() {
    let c = GovernanceConfig::resolve(&json!({
        "builtinPolicies": { "nightMode": { "start": "22:30", "end": "06:15" } },
        "policies": [{ "id": "p", "rules": [{ "id": "r", "minTrust": "elevated", "effect": { "action": "allow" } }] }]
    }))
    .unwrap();
    let night = c.builtins.night_mode.unwrap();
    assert_eq!((night.start, night.end), (22 * 60 + 30, 6 * 60 + 15));
    assert_eq!(
        c.policies[0].rules[0].min_trust,
        Some(crate::trust::TrustTier::Privileged)
    );
    assert!(paths(
        json!({ "builtinPolicies": { "nightMode": { "after": "22:00", "start": "21:00" } } })
    )
    .contains(&"builtinPolicies.nightMode.start".to_string()));
}

#[test]
fn builtins_follow_their_switches() {
    let c = GovernanceConfig::resolve(&json!({ "builtinPolicies": {
        "nightMode": { "enabled": false }, "credentialGuard": true,
        "productionSafeguard": false, "rateLimiter": { "maxPerMinute": 5 } } }))
    .unwrap();
    let ids: Vec<&str> = c.policies.iter().map(|p| p.id.as_str()).collect();
    // A guard that reads commands brings the opaque-command rule (opaqueCommandAction).
    assert_eq!(
        ids,
        [
            "builtin-self-protection",
            "builtin-credential-guard",
            "builtin-opaque-command",
            "builtin-rate-limiter"
        ]
    );
    assert_eq!(c.builtins.rate_limiter, Some(5));
    let c = GovernanceConfig::resolve(
        &json!({ "builtinPolicies": { "nightMode": true, "rateLimiter": true } }),
    )
    .unwrap();
    let night = c.builtins.night_mode.unwrap();
    assert_eq!((night.start, night.end), (23 * 60, 8 * 60));
    assert_eq!(c.builtins.rate_limiter, Some(15));
}

#[test]
fn wrong_types_are_named() {
    let p = paths(
        json!({ "enabled": "yes", "policies": {}, "audit": [], "performance": { "maxContextMessages": 2.5 } }),
    );
    for want in [
        "enabled",
        "policies",
        "audit",
        "performance.maxContextMessages",
    ] {
        assert!(p.iter().any(|x| x == want), "missing {want} in {p:?}");
    }
}

#[test]
fn error_display_lists_every_issue() {
    let e = GovernanceConfig::resolve(&json!({ "a": 1, "b": 2 })).unwrap_err();
    let text = e.to_string();
    assert!(text.starts_with("invalid governance config (2 problems)"));
    assert!(text.contains("a: unknown key") && text.contains("b: unknown key"));
}

#[test]
fn the_daily_success_credit_is_a_bounded_weight() {
    let c = GovernanceConfig::resolve(&json!({})).unwrap();
    assert_eq!(c.trust.weights.success_max_per_day, 2.0);
    let c =
        GovernanceConfig::resolve(&json!({ "trust": { "weights": { "successMaxPerDay": 5 } } }))
            .unwrap();
    assert_eq!(c.trust.weights.success_max_per_day, 5.0);
    for bad in [json!(-1), json!(1001), json!("2")] {
        let p = paths(json!({ "trust": { "weights": { "successMaxPerDay": bad } } }));
        assert_eq!(p, ["trust.weights.successMaxPerDay"], "{bad}");
    }
}

#[test]
fn keys_that_would_be_accepted_and_ignored_are_rejected_with_their_path() {
    // Each of these was accepted and then did nothing (issue: "config that is accepted and
    // silently ignored").
    let cases = [
        (json!({ "audit": { "backend": "nats" } }), "audit.backend"),
        (json!({ "audit": { "backend": "both" } }), "audit.backend"),
        (
            json!({ "approval": { "channel": "system_event" } }),
            "approval.channel",
        ),
        (
            json!({ "approval": { "target": "@ops" } }),
            "approval.target",
        ),
        (
            json!({ "approval": { "defaultFallback": "allow" } }),
            "approval.defaultFallback",
        ),
        (
            json!({ "approval": { "timeoutSeconds": 3600 } }),
            "approval.timeoutSeconds",
        ),
        (
            json!({ "llm": { "enabled": true, "backend": "gpt" } }),
            "llm.backend",
        ),
        (
            json!({ "llm": { "enabled": true, "failMode": "maybe" } }),
            "llm.failMode",
        ),
        (
            json!({ "llm": { "enabled": true, "endpoint": "ftp://models.local/v1" } }),
            "llm.endpoint",
        ),
        (
            json!({ "llm": { "enabled": true, "endpoint": "https://user:pw@models.local/v1" } }),
            "llm.endpoint",
        ),
    ];
    for (config, path) in cases {
        let got = paths(config.clone());
        assert!(got.iter().any(|p| p == path), "{config} → {got:?}");
    }
    // What does what it says is still accepted.
    for ok in [
        json!({ "audit": { "backend": "local" } }),
        json!({ "approval": { "enabled": false, "defaultFallback": "allow" } }),
        json!({ "approval": { "timeoutSeconds": 600 } }),
        json!({ "llm": { "enabled": false, "model": "x" } }),
        json!({ "llm": { "enabled": true } }),
        json!({ "llm": { "enabled": true, "endpoint": "http://localhost:11434/v1" } }),
        json!({ "performance": { "maxEvalUs": 2000 } }),
    ] {
        assert!(GovernanceConfig::resolve(&ok).is_ok(), "{ok}");
    }
}

fn token_policy(i: usize, pattern: String) -> Value {
    json!({ "id": format!("p{i}"), "rules": [{ "id": "r",
        "conditions": [{ "type": "tool", "params": { "token": { "matches": pattern } } }],
        "effect": { "action": "deny" } }] })
}

#[test]
fn compiled_policy_regexes_have_a_total_budget() {
    // A counted Unicode class compiles to ~0.9 MB: one copy in 400 policies is compiled once.
    let same: Vec<Value> = (0..400)
        .map(|i| token_policy(i, r"[\w-]{16,}".into()))
        .collect();
    assert!(GovernanceConfig::resolve(&json!({ "policies": same })).is_ok());
    // 400 distinct ones exceed the budget: one issue, at the pattern that crossed it.
    let distinct: Vec<Value> = (0..400)
        .map(|i| token_policy(i, format!(r"k{i}=[\w-]{{16,}}")))
        .collect();
    let issues = issues_of(json!({ "policies": distinct }));
    assert_eq!(issues.len(), 1, "{issues:?}");
    assert!(issues[0].path.starts_with("policies["), "{issues:?}");
    assert!(
        issues[0]
            .path
            .ends_with(".rules[0].conditions[0].params.token.matches"),
        "{issues:?}"
    );
    assert!(
        issues[0].message.contains("budget of 128 MiB"),
        "{issues:?}"
    );
}

#[test]
fn syntax_errors_after_the_budget_are_still_reported() {
    let mut policies: Vec<Value> = (0..400)
        .map(|i| token_policy(i, format!(r"k{i}=[\w-]{{16,}}")))
        .collect();
    policies.push(token_policy(400, "(?<=x)y".into()));
    let issues = issues_of(json!({ "policies": policies }));
    assert_eq!(issues.len(), 2, "{issues:?}");
    assert!(issues[1].path.starts_with("policies[400]"), "{issues:?}");
    assert!(issues[1].message.contains("look-around"), "{issues:?}");
}

#[test]
fn problems_inside_a_policy_name_its_id_after_the_index() {
    let deny = |conditions: Value| json!([{ "id": "r", "conditions": conditions, "effect": { "action": "deny" } }]);
    let lookaround = json!([{ "type": "tool", "params": { "command": { "matches": "(?=x)" } } }]);
    let p = paths(json!({ "policies": [
        { "id": "no-rm", "rules": deny(lookaround.clone()) },
        { "id": "odd \"id\".x", "rules": deny(json!([{ "type": "nope" }])) },
        { "rules": deny(lookaround) },
        { "id": "no-rm", "scope": { "hooks": ["never"] }, "rules": [] }
    ] }));
    assert_eq!(
        p,
        [
            r#"policies[0] "no-rm".rules[0].conditions[0].params.command.matches"#,
            r#"policies[1] "odd \"id\".x".rules[0].conditions[0].type"#,
            // Without an id, the index alone.
            "policies[2].id",
            "policies[2].rules[0].conditions[0].params.command.matches",
            r#"policies[3] "no-rm".scope.hooks[0]"#,
            r#"policies[3] "no-rm".id"#,
        ]
    );
}

#[test]
fn escalations_the_host_cannot_honour_and_session_start_scopes_are_refused() {
    let escalate = |effect: Value| json!({ "policies": [{ "id": "p", "rules": [{ "id": "r", "effect": effect }] }] });
    assert_eq!(
        paths(escalate(
            json!({ "action": "escalate", "fallback": "allow" })
        )),
        [r#"policies[0] "p".rules[0].effect.fallback"#]
    );
    assert_eq!(
        paths(escalate(json!({ "action": "escalate", "timeout": 601 }))),
        [r#"policies[0] "p".rules[0].effect.timeout"#]
    );
    let mut off = escalate(json!({ "action": "escalate", "fallback": "allow" }));
    off["approval"] = json!({ "enabled": false });
    assert!(
        GovernanceConfig::resolve(&off).is_ok(),
        "with approvals off the fallback decides"
    );
    let scoped = json!({ "policies": [{ "id": "s", "scope": { "hooks": ["before_tool_call", "session_start"] },
        "rules": [{ "id": "r", "effect": { "action": "deny" } }] }] });
    assert_eq!(paths(scoped), [r#"policies[0] "s".scope.hooks[1]"#]);
}
