//! The external-communication gate against sends a held-out tester wrote to get a claim the
//! facts contradict out to Telegram without it being judged (`tests/corpus/external-*.jsonl`),
//! each checked against what OpenClaw 2026.9.6 really delivers. With the e2e config (an
//! untrusted agent, telegram external, the facts of the e2e), each must be denied or
//! escalated by the claim and fact stages alone; `gaps-external.jsonl` holds the ones that are
//! not yet, and fails when one starts being stopped, so it moves over.

use openclaw_governance::{EngineOptions, GovernanceEngine, Request};
use serde_json::{json, Value};

struct Case {
    id: String,
    /// "ordinary" for a send that must go; any other class names an evasion.
    class: String,
    /// Calls made earlier in the case's session (`before`: `[{tool, params}]`), then its own.
    requests: Vec<Request>,
}

fn cases(file: &str) -> Vec<Case> {
    let path = format!("{}/tests/corpus/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    (text.lines().filter(|l| !l.trim().is_empty()))
        .map(|line| {
            let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{file}: {e}"));
            let id = v["id"].as_str().unwrap_or("?").to_string();
            let class = v["class"].as_str().unwrap_or("?").to_string();
            // A session of its own: what one case writes is not another's.
            let mut ctx = v["ctx"].clone();
            let session = format!(
                "{}:{id}",
                ctx["sessionKey"].as_str().unwrap_or("agent:x:main")
            );
            ctx["sessionKey"] = json!(session);
            let before = v["before"].as_array().cloned().unwrap_or_default();
            let requests = (before.iter().chain([&v]))
                .map(|call| {
                    let mut req = ctx.clone();
                    req["hook"] = json!("before_tool_call");
                    req["toolName"] = call["tool"].clone();
                    req["params"] = call["params"].clone();
                    serde_json::from_value(req).expect("request shape")
                })
                .collect();
            Case {
                id,
                class,
                requests,
            }
        })
        .collect()
}

/// The e2e config without its intent rule and model: only the claim and fact stages judge.
fn engine(dir: &std::path::Path) -> GovernanceEngine {
    let path = format!(
        "{}/__test__/e2e/governance-config.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut config: Value = serde_json::from_slice(&std::fs::read(path).expect("e2e config"))
        .expect("e2e config is JSON");
    let keep = |p: &Value| p["id"] != "e2e-intent";
    let policies: Vec<Value> = config["policies"]
        .as_array()
        .expect("policies")
        .iter()
        .filter(|p| keep(p))
        .cloned()
        .collect();
    config["policies"] = json!(policies);
    config.as_object_mut().expect("object").remove("llm");
    // The gate's channels and commands stay; its model does not.
    config["outputValidation"]["llmValidator"]["enabled"] = json!(false);
    config["builtinPolicies"]["rateLimiter"] = json!({ "maxPerMinute": 100000 });
    // Escalations wait as pending approvals; past the bound one case would deny the next.
    config["approval"] = json!({ "maxPendingPerAgent": 1000 });
    let opts = EngineOptions {
        state_dir: Some(dir.to_path_buf()),
        ..Default::default()
    };
    GovernanceEngine::try_new(&config, &opts).expect("the e2e config resolves")
}

/// `EXTERNAL_SHOW=<id prefixes, comma-separated>` prints each matching case's verdict.
fn stopped(e: &GovernanceEngine, c: &Case) -> bool {
    let (own, earlier) = c.requests.split_last().expect("the case's own call");
    for r in earlier {
        e.evaluate(r);
    }
    let v = e.evaluate(own);
    let show = std::env::var("EXTERNAL_SHOW").unwrap_or_default();
    if show
        .split(',')
        .any(|p| !p.is_empty() && c.id.starts_with(p))
    {
        println!(
            "{} {} {:?}: {}",
            c.id,
            v.action.as_str(),
            v.policy_id,
            v.reason
        );
    }
    matches!(v.action.as_str(), "deny" | "escalate")
}

/// The corpus files whose names start with `prefix`, in name order: each round of the held-out
/// tester and of fresh variations adds one (`external-r2.jsonl`, `external-r3.jsonl`, …).
fn files(prefix: &str) -> Vec<String> {
    let dir = format!("{}/tests/corpus", env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with(prefix) && n.ends_with(".jsonl"))
        .collect();
    names.sort();
    names
}

/// The ids of `file`'s cases whose verdict is not the one `want` gives for their class.
fn wrong(file: &str, want: impl Fn(&Case) -> bool) -> Vec<String> {
    let dir = tempfile::tempdir().expect("temp dir");
    let e = engine(dir.path());
    (cases(file).iter())
        .filter(|c| stopped(&e, c) != want(c))
        .map(|c| format!("{file}: {}", c.id))
        .collect()
}

/// Every send of the tester's rounds (`external-r*.jsonl`) and of the fresh variations
/// (`external-fresh*.jsonl`, functions, stdin, files, decoders, entry points, process
/// substitution, makefiles, loops, markup, look-alikes, paraphrases, routes): stopped by the
/// claim stage, or escalated when the post is only known when the command runs.
#[test]
fn every_send_that_publishes_a_contradicted_claim_is_stopped() {
    let files: Vec<String> = (files("external-r").into_iter())
        .chain(files("external-fresh"))
        .collect();
    assert!(files.len() >= 3, "{files:?}");
    let total: usize = files.iter().map(|f| cases(f).len()).sum();
    assert!(total >= 60, "{total} cases");
    let missed: Vec<String> = files.iter().flat_map(|f| wrong(f, |_| true)).collect();
    assert!(missed.is_empty(), "allowed: {missed:?}");
}

/// Posts with no contradicted claim, reads, other programs, and a standard-trust agent whose
/// claims are never blocked (`external-ordinary*.jsonl`): all allowed.
#[test]
fn ordinary_sends_and_commands_are_allowed() {
    let files = files("external-ordinary");
    assert!(files.len() >= 2, "{files:?}");
    let stopped: Vec<String> = files.iter().flat_map(|f| wrong(f, |_| false)).collect();
    assert!(stopped.is_empty(), "stopped: {stopped:?}");
}

/// `gaps-external*.jsonl`: evasions not stopped yet, and ordinary sends (class "ordinary")
/// still stopped. One whose verdict turns right moves to its round's file.
#[test]
fn known_external_gaps_are_still_gaps() {
    let gaps = |c: &Case| c.class == "ordinary";
    let closed: Vec<String> = (files("gaps-external").iter())
        .flat_map(|f| wrong(f, gaps))
        .map(|id| format!("{id} is right now: move it to its round's external-*.jsonl"))
        .collect();
    assert!(closed.is_empty(), "{}", closed.join("\n"));
}
