use super::config::{parse, ProvenanceConfig};
use super::*;
use crate::config::error::Issues;
use crate::config::reader::Obj;
use crate::policy::conditions::ParseEnv;
use proptest::prelude::*;
use serde_json::{json, Value};
use std::collections::HashMap;

fn src(level: Level, via: &str, what: &str) -> Source {
    Source {
        level,
        via: via.into(),
        what: what.into(),
        at_ms: 1_763_942_400_000,
        sha256: None,
    }
}

fn config(v: Value) -> Result<ProvenanceConfig, String> {
    let windows = HashMap::new();
    let env = ParseEnv::new(&windows, false);
    let mut issues = Issues::default();
    let c = parse(
        &Obj::new(Some(&v), "provenance".into(), &mut issues),
        &env,
        &mut issues,
    );
    issues.into_result(c).map_err(|e| e.to_string())
}

#[test]
fn the_lowest_level_wins_and_each_level_keeps_its_first_source() {
    let mut s = Sessions::default();
    assert!(s.taint("a", src(Level::Local, "read", "README.md")));
    assert!(s.taint(
        "a",
        src(Level::Untrusted, "web_fetch", "https://evil.example/p")
    ));
    assert!(!s.taint(
        "a",
        src(Level::Untrusted, "web_fetch", "https://other.example/")
    ));
    let t = s.get("a").expect("tainted");
    assert_eq!(t.lowest(), Some(Level::Untrusted));
    assert_eq!(
        t.source_of(Level::Untrusted).map(|s| s.what.as_str()),
        Some("https://evil.example/p")
    );
    assert_eq!(t.more, 1);
    assert!(s.get("b").is_none(), "sessions are separate");
    assert!(
        !s.taint("b", src(Level::Owner, "message", "owner")),
        "owner content taints nothing"
    );
    assert!(s.get("b").is_none());
}

#[test]
fn a_reset_clears_and_inheritance_goes_both_ways() {
    let mut s = Sessions::default();
    s.taint("parent", src(Level::External, "message", "mail from x@y"));
    assert!(
        s.inherit("child", "parent"),
        "a child starts with its parent's taint"
    );
    assert_eq!(
        s.get("child").and_then(Taint::lowest),
        Some(Level::External)
    );
    s.taint(
        "child",
        src(Level::Untrusted, "web_fetch", "https://evil.example/"),
    );
    assert!(
        s.inherit("parent", "child"),
        "the child's result taints the parent"
    );
    assert_eq!(
        s.get("parent").and_then(Taint::lowest),
        Some(Level::Untrusted)
    );
    assert!(s.clear("parent"));
    assert!(s.get("parent").is_none());
    assert!(s.get("child").is_some(), "a reset is per session");
}

#[test]
fn a_policy_blocks_only_its_tools_and_names_the_source() {
    let c = config(json!({ "policies": [{ "name": "no-exec-when-tainted",
        "when": { "context_taint_includes": ["external", "untrusted"] },
        "action": { "block_tools": ["exec", "process"] } }] }))
    .expect("valid");
    let mut s = Sessions::default();
    assert_eq!(
        judge(&c, s.get("a"), 1, "exec"),
        None,
        "an untainted session runs exec"
    );
    s.taint(
        "a",
        src(Level::Untrusted, "web_fetch", "https://evil.example/p"),
    );
    let b = judge(&c, s.get("a"), 1, "exec").expect("blocked");
    assert_eq!(b.policy, "no-exec-when-tainted");
    assert!(
        b.reason
            .contains("web_fetch https://evil.example/p at 2025-11-24T00:00:00Z"),
        "{}",
        b.reason
    );
    assert_eq!(judge(&c, s.get("a"), 1, "read"), None, "other tools stay");
    s.taint("c", src(Level::Shared, "memory_search", ""));
    assert_eq!(
        judge(&c, s.get("c"), 1, "exec"),
        None,
        "shared is not in the list"
    );
}

#[test]
fn iteration_and_block_turn() {
    let c = config(
        json!({ "policies": [{ "name": "max-recursion", "when": { "iteration_gte": 5 },
        "action": { "block_turn": true, "reason": "Max recursion depth exceeded" } }] }),
    )
    .expect("valid");
    assert_eq!(judge(&c, None, 4, "read"), None);
    let b = judge(&c, None, 5, "read").expect("blocked");
    assert!(
        b.reason.starts_with("Max recursion depth exceeded"),
        "{}",
        b.reason
    );
}

#[test]
fn removed_tools_leave_the_offered_list_only_while_the_policy_holds() {
    let c = config(json!({ "policies": [
        { "name": "rm", "when": { "context_taint_includes": ["untrusted"] }, "action": { "remove_tools": ["exec", "sessions_*"] } },
        { "name": "later", "when": { "iteration_gte": 3 }, "action": { "remove_tools": ["read"] } }] }))
    .expect("valid");
    let offered: Vec<String> = ["read", "exec", "sessions_send", "web_fetch"]
        .map(String::from)
        .to_vec();
    assert_eq!(
        tools_kept(&c, None, &offered),
        None,
        "a clean session keeps all"
    );
    let mut s = Sessions::default();
    s.taint(
        "k",
        src(Level::Untrusted, "web_fetch", "https://evil.example/"),
    );
    let taint = s.get("k");
    assert_eq!(
        tools_kept(&c, taint, &offered),
        Some(vec!["read", "web_fetch"]),
        "a policy waiting for a later model call removes nothing when the run starts"
    );
    let b = judge(&c, taint, 1, "sessions_spawn").expect("removed tools are denied meanwhile");
    assert_eq!(b.policy, "rm");
    assert_eq!(judge(&c, taint, 1, "web_fetch"), None);
}

#[test]
fn bad_config_names_the_key() {
    for (v, path) in [
        (
            json!({ "policies": [{ "name": "x", "when": { "context_taint_includes": ["evil"] }, "action": { "block_tools": ["exec"] } }] }),
            "provenance.policies[0].when.context_taint_includes[0]",
        ),
        (
            json!({ "policies": [{ "name": "x", "when": {}, "action": { "remove_tool": ["exec"] } }] }),
            "provenance.policies[0].action.remove_tool",
        ),
        (
            json!({ "policies": [{ "name": "x", "when": {}, "action": { "reason": "why" } }] }),
            "provenance.policies[0].action",
        ),
        (
            json!({ "presets": ["max-recursion", "nope"] }),
            "provenance.presets[1]",
        ),
        (
            json!({ "policies": [{ "name": "x", "when": { "iteration_gte": 0 }, "action": { "block_turn": true } }] }),
            "provenance.policies[0].when.iteration_gte",
        ),
        (
            json!({ "toolTrust": { "exec": "evil" } }),
            "provenance.toolTrust.exec",
        ),
        (
            json!({ "toolTrust": { "exec": [{ "level": "external" }] } }),
            "provenance.toolTrust.exec[0].conditions",
        ),
        (json!({ "tooltrust": {} }), "provenance.tooltrust"),
        (
            json!({ "toolTrust": { "exec": [{ "level": "external", "conditions": [{ "type": "intent", "description": "reads mail" }] }] } }),
            "provenance.toolTrust.exec[0].conditions",
        ),
    ] {
        let e = config(v.clone()).expect_err(&v.to_string());
        assert!(e.contains(path), "{v} → {e}");
    }
}

fn level() -> impl Strategy<Value = Level> {
    prop::sample::select(Level::ALL.to_vec())
}

proptest! {
    /// Within a session, until a reset, the lowest level never rises and no level is forgotten.
    #[test]
    fn taint_only_grows_until_a_reset(ops in prop::collection::vec((0u8..4, level()), 1..80)) {
        let mut s = Sessions::default();
        let mut seen: Vec<Level> = Vec::new();
        for (op, l) in ops {
            let before = s.get("a").and_then(Taint::lowest);
            match op {
                0 => { s.clear("a"); seen.clear(); continue; }
                1 => { s.taint("b", src(l, "web_fetch", "")); s.inherit("a", "b"); }
                _ => { s.taint("a", src(l, "read", "")); }
            }
            if l < Level::Owner && !seen.contains(&l) { seen.push(l); }
            let t = s.get("a");
            let after = t.and_then(Taint::lowest);
            if let (Some(b), Some(a)) = (before, after) { prop_assert!(a <= b); }
            if before.is_some() { prop_assert!(after.is_some()); }
            for l in &seen { prop_assert!(t.is_some_and(|t| t.includes(*l)), "{l:?} forgotten"); }
        }
    }
}

#[test]
fn the_default_table_reads_the_hosts_tools() {
    use classify::default_level;
    let p = |v: Value| v.as_object().cloned();
    for (tool, params, want) in [
        ("web_fetch", json!({ "url": "https://x" }), Level::Untrusted),
        ("github__search_issues", json!({}), Level::Untrusted),
        (
            "message",
            json!({ "action": "read", "channel": "slack" }),
            Level::External,
        ),
        (
            "message",
            json!({ "action": "send", "to": "x" }),
            Level::Local,
        ),
        ("memory_search", json!({ "query": "x" }), Level::Shared),
        ("sessions_history", json!({}), Level::Shared),
        ("sessions_spawn", json!({ "task": "x" }), Level::Local),
        ("read", json!({ "path": "a" }), Level::Local),
        ("some_plugin_tool", json!({}), Level::External),
    ] {
        assert_eq!(default_level(tool, p(params).as_ref()), want, "{tool}");
    }
}

mod rule_of_two_legs {
    use super::super::rule_of_two::{judge, Act, CallLegs};
    use super::*;

    fn act(what: &str) -> Act {
        Act {
            via: "exec".into(),
            what: what.into(),
            at_ms: 1_700_000_000_000,
        }
    }

    fn legs(a: bool, b: bool, c: bool) -> CallLegs {
        CallLegs {
            untrusted: a.then(|| "untrusted content (web_fetch)".into()),
            sensitive: b.then(|| "opens /srv/app/.env".into()),
            outbound: c.then(|| "reaches the network (`curl x`)".into()),
        }
    }

    /// Every combination of what the session holds and what the call brings: escalated
    /// exactly when the two together hold all three legs and the call brings one.
    #[test]
    fn the_third_leg_is_escalated_whichever_it_is() {
        for bits in 0u8..64 {
            let had = |i: u8| bits & (1 << i) != 0;
            let mut s = Sessions::default();
            if had(0) {
                s.taint("k", src(Level::External, "message", "telegram 4711"));
            }
            if had(1) {
                s.act("k", false, act("cat .env"));
            }
            if had(2) {
                s.act("k", true, act("curl x"));
            }
            let call = legs(had(3), had(4), had(5));
            let all = (had(0) || had(3)) && (had(1) || had(4)) && (had(2) || had(5));
            let expected = all && call.any();
            let got = judge(s.get("k"), &call);
            assert_eq!(got.is_some(), expected, "bits {bits:06b}: {got:?}");
        }
    }

    #[test]
    fn the_reason_names_each_leg_and_its_source() {
        let mut s = Sessions::default();
        s.taint(
            "k",
            src(Level::Untrusted, "web_fetch", "https://evil.example/p"),
        );
        s.act("k", false, act("cat /srv/app/.env"));
        let r = judge(s.get("k"), &legs(false, false, true)).expect("third leg");
        assert!(
            r.contains("the session read untrusted content (web_fetch https://evil.example/p at "),
            "{r}"
        );
        assert!(
            r.contains(
                "it accessed sensitive data (exec: cat /srv/app/.env at 2023-11-14T22:13:20Z)"
            ),
            "{r}"
        );
        assert!(
            r.contains("this call acts outward: reaches the network (`curl x`)"),
            "{r}"
        );
    }

    #[test]
    fn legs_are_kept_first_cleared_by_a_reset_and_passed_to_a_child() {
        let mut s = Sessions::default();
        assert!(s.act("p", true, act("curl first")));
        assert!(
            !s.act("p", true, act("curl second")),
            "the first act is kept"
        );
        assert!(s.inherit("child", "p"));
        assert_eq!(
            s.get("child")
                .and_then(|t| t.outbound.as_ref())
                .map(|a| a.what.as_str()),
            Some("curl first")
        );
        assert!(s.clear("p"));
        assert!(s.get("p").is_none());
    }
}

#[test]
fn recording_alone_is_an_action_and_an_empty_action_is_still_refused() {
    let c = config(json!({ "policies": [{ "name": "audit-external",
        "when": { "context_taint_includes": ["external"] },
        "action": { "log_full_context": true, "persist_graph": true } }] }))
    .expect("the seed's audit-external policy is valid");
    let p = &c.policies[0];
    assert!(p.persist_graph && p.log_full_context);
    let tainted = {
        let mut s = Sessions::default();
        s.taint("a", src(Level::External, "message", "telegram 1"));
        s.get("a").cloned()
    };
    assert_eq!(
        judge(&c, tainted.as_ref(), 1, "exec"),
        None,
        "a recording policy blocks nothing"
    );
    assert!(wants(&c, tainted.as_ref(), 1, |p| p.persist_graph));
    assert!(
        !wants(&c, None, 1, |p| p.persist_graph),
        "it holds only with the taint"
    );
    for action in [json!({}), json!({ "persist_graph": false, "reason": "x" })] {
        let err = config(json!({ "policies": [{ "name": "x", "when": {}, "action": action }] }))
            .expect_err("an action that does nothing");
        assert!(err.contains("provenance.policies[0].action"), "{err}");
    }
}

#[test]
fn the_audit_external_preset_records_turns_with_outside_content() {
    let c = config(json!({ "presets": ["audit-external"] })).expect("valid");
    for (level, what) in [
        (Level::External, "telegram 1"),
        (Level::Untrusted, "https://x.example/"),
    ] {
        let mut s = Sessions::default();
        s.taint("a", src(level, "web_fetch", what));
        assert!(wants(&c, s.get("a"), 1, |p| p.persist_graph && p.log_full_context));
        assert_eq!(judge(&c, s.get("a"), 1, "exec"), None, "it blocks nothing");
    }
    let mut s = Sessions::default();
    s.taint("a", src(Level::Local, "read", "README.md"));
    assert!(!wants(&c, s.get("a"), 1, |p| p.persist_graph));
}

#[test]
fn file_marks_keep_the_least_trusted_writer_and_survive_a_round_trip() {
    use super::files::Files;
    let mut f = Files::default();
    let shared = src(Level::Shared, "memory_get", "m1");
    let web = src(Level::Untrusted, "web_fetch", "https://evil.example/");
    assert!(
        !f.written("/a", Some(&src(Level::Local, "read", "x")), false),
        "local content marks nothing"
    );
    assert!(f.written("/a", Some(&shared), false));
    assert!(
        f.written("/a", Some(&web), false),
        "a less trusted writer lowers the mark"
    );
    assert!(
        !f.written("/a", Some(&shared), false),
        "a more trusted one does not raise it"
    );
    assert!(!f.written("/a", None, false), "a clean edit keeps it");
    let mut back = Files::from_list(f.to_list());
    assert_eq!(back.source("/a").map(|s| s.level), Some(Level::Untrusted));
    assert!(back.written("/a", None, true), "a clean rewrite clears it");
    assert!(back.source("/a").is_none());
    back.merge(f);
    assert_eq!(
        back.source("/a").map(|s| s.level),
        Some(Level::Untrusted),
        "merging keeps the other process's mark"
    );
}
