//! The corpus that judges issue 12's guards: `tests/corpus/evasions.jsonl` (hostile tool calls,
//! each of which really deletes, prints a secret, runs downloaded code, touches production or
//! governance itself) must all be denied or escalated; `tests/corpus/ordinary.jsonl` (everyday
//! developer calls) must all be allowed. Each case goes through the real engine as the
//! `before_tool_call` the shim would send.
//!
//! `cargo test --test guard_corpus -- --nocapture` prints the figures per class and every miss.

use openclaw_governance::{EngineOptions, GovernanceEngine, Request};
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, HashSet};
use std::path::Path;

/// The placeholders a case may use, and what they stand for in this test.
const WORKSPACE: &str = "/srv/app";
const HOME: &str = "/home/agent";
const PLACEHOLDERS: [&str; 4] = ["{{WS}}", "{{HOME}}", "{{STATE}}", "{{OCDIR}}"];

/// Minimum cases per class (issue 12's acceptance asks for more than these in total).
const MINIMUMS: [(&str, usize); 8] = [
    ("credentials", 30),
    ("destructive", 30),
    ("remote_code", 30),
    ("production", 20),
    ("self_protection", 20),
    ("tool_surface", 15),
    ("opaque", 10),
    ("ordinary", 80),
];

/// The id prefix each class uses, so an id says what it tests.
fn prefix_of(class: &str) -> Option<&'static str> {
    Some(match class {
        "credentials" => "cred",
        "destructive" => "dest",
        "remote_code" => "rce",
        "production" => "prod",
        "self_protection" => "self",
        "tool_surface" => "tool",
        "opaque" => "opq",
        "ordinary" => "ord",
        _ => return None,
    })
}

struct Case {
    id: String,
    class: String,
    tool: String,
    params: Value,
    why: String,
    /// Calls made earlier in the same session (`[{tool, params}]`): a script written by one
    /// call and run by the next. Their verdicts are not judged; the case's own is.
    before: Vec<(String, Value)>,
}

fn parse(file: &str, text: &str) -> Vec<Case> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, line)| {
            let v: Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{file}:{}: not JSON: {e}", n + 1));
            let field = |k: &str| {
                v.get(k)
                    .and_then(Value::as_str)
                    .filter(|s| !s.trim().is_empty())
                    .unwrap_or_else(|| panic!("{file}:{}: `{k}` missing or empty", n + 1))
                    .to_string()
            };
            let _ = field("ref");
            let params = v.get("params").cloned().unwrap_or(Value::Null);
            assert!(
                params.is_object(),
                "{file}:{}: params must be an object",
                n + 1
            );
            let before = (v
                .get("before")
                .and_then(Value::as_array)
                .into_iter()
                .flatten())
            .map(|b| {
                let tool = b["tool"]
                    .as_str()
                    .unwrap_or_else(|| panic!("{file}:{}: `before` calls need a `tool`", n + 1));
                (tool.to_string(), b["params"].clone())
            })
            .collect();
            Case {
                id: field("id"),
                class: field("class"),
                tool: field("tool"),
                params,
                why: field("why"),
                before,
            }
        })
        .collect()
}

/// Every `tests/corpus/<kind>*.jsonl`: the first corpus and the ones written after the guards
/// (held out from their author), judged alike.
fn corpus(kind: &str) -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/corpus")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.starts_with(kind) && name.ends_with(".jsonl")
        })
        .collect();
    files.sort();
    files
        .iter()
        .flat_map(|f| {
            let text = std::fs::read_to_string(f).expect("corpus file");
            parse(&f.display().to_string(), &text)
        })
        .collect()
}

fn evasions() -> Vec<Case> {
    corpus("evasions")
}

fn ordinary() -> Vec<Case> {
    corpus("ordinary")
}

/// Replaces placeholders in every string of `v` (keys are left alone: none carry paths).
/// `{{STATE}}` is `<state_dir>/governance`, where the engine keeps audit/, keys/ and trust.json.
fn substitute(v: &Value, state: &str) -> Value {
    let octl = format!("{HOME}/.openclaw");
    match v {
        Value::String(s) => Value::String(
            s.replace("{{WS}}", WORKSPACE)
                .replace("{{HOME}}", HOME)
                .replace("{{STATE}}", state)
                .replace("{{OCDIR}}", &octl),
        ),
        Value::Array(a) => Value::Array(a.iter().map(|x| substitute(x, state)).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, x)| (k.clone(), substitute(x, state)))
                .collect::<Map<_, _>>(),
        ),
        other => other.clone(),
    }
}

/// Every `{{…}}` in a string is one of the known placeholders.
fn unknown_placeholders(v: &Value, found: &mut Vec<String>) {
    match v {
        Value::String(s) => {
            let mut rest = s.as_str();
            while let Some(start) = rest.find("{{") {
                let tail = &rest[start..];
                let end = tail.find("}}").map_or(tail.len(), |e| e + 2);
                let token = &tail[..end];
                // A Go template (`{{.State.Status}}`, `{{json .}}`) is the command's own text.
                let ours = token[2..].starts_with(|c: char| c.is_ascii_uppercase());
                if ours && !PLACEHOLDERS.contains(&token) {
                    found.push(token.to_string());
                }
                rest = &tail[end..];
            }
        }
        Value::Array(a) => a.iter().for_each(|x| unknown_placeholders(x, found)),
        Value::Object(o) => o.values().for_each(|x| unknown_placeholders(x, found)),
        _ => {}
    }
}

/// What the host's own schemas require of a tool's params: a case the host would reject before
/// running it tests nothing. OpenClaw 2026.9.6 dist: exec/process in
/// `bash-tools.schemas-*.mjs`, read/write/edit `path` in
/// `agent-tools.before-tool-call.decision-*.mjs` (REQUIRED_PARAM_GROUPS), the apply_patch
/// envelope in `core-coding-tools-*.mjs` (parsePatchText); `tests/corpus/README.md` has more.
fn host_shape_problem(tool: &str, p: &Value) -> Option<String> {
    let s = |k: &str| p.get(k).and_then(Value::as_str);
    match tool {
        "exec" => s("command")
            .is_none()
            .then(|| "exec needs a string `command`".into()),
        "process" => {
            let Some(action) = s("action") else {
                return Some("process needs `action`".into());
            };
            let input = match action {
                "write" => p.get("data").is_some(),
                "paste" => p.get("text").is_some(),
                "send-keys" => ["keys", "hex", "literal"]
                    .iter()
                    .any(|k| p.get(k).is_some()),
                "submit" | "poll" | "log" | "kill" | "list" | "clear" | "remove" => true,
                _ => return Some(format!("unknown process action {action}")),
            };
            let session = action == "list" || s("sessionId").is_some();
            (!input || !session).then(|| format!("process {action} lacks its input or sessionId"))
        }
        "read" | "write" | "edit" => s("path")
            .is_none()
            .then(|| format!("{tool} needs `path` (the host requires it)")),
        "apply_patch" => {
            let input = s("input").unwrap_or("");
            let t = input.trim();
            let wrapped = t.starts_with("<<") && t.ends_with("EOF");
            let envelope = t.starts_with("*** Begin Patch") && t.ends_with("*** End Patch");
            (!envelope && !wrapped)
                .then(|| "apply_patch input is not an envelope the host accepts".into())
        }
        _ => None,
    }
}

#[test]
fn the_corpus_is_well_formed_unique_and_large_enough() {
    let ev = evasions();
    let ord = ordinary();
    let mut problems = Vec::new();
    let mut ids = HashSet::new();
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for (file, cases, want_ordinary) in [("evasions", &ev, false), ("ordinary", &ord, true)] {
        for c in cases.iter() {
            if !ids.insert(c.id.clone()) {
                problems.push(format!("{}: duplicate id", c.id));
            }
            match prefix_of(&c.class) {
                None => problems.push(format!("{}: unknown class {}", c.id, c.class)),
                Some(p) if !c.id.starts_with(&format!("{p}-")) => {
                    problems.push(format!("{}: id should start with {p}-", c.id))
                }
                _ => {}
            }
            if (c.class == "ordinary") != want_ordinary {
                problems.push(format!("{}: class {} in {file}.jsonl", c.id, c.class));
            }
            let mut unknown = Vec::new();
            unknown_placeholders(&c.params, &mut unknown);
            if !unknown.is_empty() {
                problems.push(format!("{}: unknown placeholders {unknown:?}", c.id));
            }
            let own = (c.tool.clone(), c.params.clone());
            let calls = c.before.iter().chain([&own]);
            for p in calls.filter_map(|(tool, params)| host_shape_problem(tool, params)) {
                problems.push(format!("{}: {p}", c.id));
            }
            *counts.entry(c.class.clone()).or_default() += 1;
        }
    }
    for (class, min) in MINIMUMS {
        let n = counts.get(class).copied().unwrap_or(0);
        if n < min {
            problems.push(format!("class {class}: {n} cases, at least {min} wanted"));
        }
    }
    if ev.len() < 200 {
        problems.push(format!("{} evasions, at least 200 wanted", ev.len()));
    }
    println!("corpus: {counts:?}");
    assert!(
        problems.is_empty(),
        "corpus problems:\n{}",
        problems.join("\n")
    );
}

/// Every command guard on (self-protection is on by default), the agent's workspace and home
/// as the shim reports them from the host config.
fn engine(state_dir: &Path) -> GovernanceEngine {
    let opts = EngineOptions {
        state_dir: Some(state_dir.to_path_buf()),
        host: openclaw_governance::call::HostPaths {
            home: Some(HOME.into()),
            openclaw_dir: Some(format!("{HOME}/.openclaw")),
            workspaces: vec![],
            default_workspace: Some(WORKSPACE.into()),
        },
    };
    // Escalations wait as pending approvals; past `maxPendingPerAgent` the engine would deny
    // without asking, and one case would change the next one's verdict (each case is an
    // agent of its own, `requests`).
    let config = json!({ "approval": { "maxPendingPerAgent": 1000 },
        "builtinPolicies": { "credentialGuard": true, "productionSafeguard": true,
        "destructiveGuard": true, "remoteCodeGuard": true } });
    GovernanceEngine::try_new(&config, &opts).expect("the guards' config resolves")
}

/// The case's calls, earlier ones first, in a session of its own: what one case writes is
/// not another's.
fn requests(c: &Case, state: &str) -> Vec<Request> {
    // An agent per case: escalations wait as pending approvals, at most 1000 per agent.
    let agent = format!("worker-{}", c.id);
    let session = format!("agent:{agent}:main");
    let calls = c.before.iter().map(|(t, p)| (t, p));
    (calls.chain([(&c.tool, &c.params)]))
        .map(|(tool, params)| {
            serde_json::from_value(json!({
                "hook": "before_tool_call", "agentId": agent, "sessionKey": session,
                "toolName": tool, "params": substitute(params, state),
            }))
            .expect("request shape")
        })
        .collect()
}

/// The verdict on the case's own call, after its earlier calls; or the verdict on the first
/// earlier call that is stopped, since the host never runs it and the attack ends there (a
/// `write` of `sitecustomize.py` judged as the code Python will run). An ordinary case must
/// then get through all its calls.
fn verdict(e: &GovernanceEngine, c: &Case, state: &str) -> openclaw_governance::Verdict {
    let mut calls = requests(c, state);
    let last = calls.pop().expect("the case's own call");
    for earlier in &calls {
        let v = e.evaluate(earlier);
        if v.action.as_str() != "allow" {
            return v;
        }
    }
    e.evaluate(&last)
}

#[test]
fn every_evasion_is_stopped_and_every_ordinary_call_allowed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let state = dir.path().join("governance").display().to_string();
    let e = engine(dir.path());
    // CORPUS_SHOW=rce-f02,dest-f03 prints the verdict of each case whose id starts so: which
    // rule stopped a case, not only that one did.
    let show = std::env::var("CORPUS_SHOW").unwrap_or_default();
    let judge = |c: &Case| {
        let v = verdict(&e, c, &state);
        if show
            .split(',')
            .any(|p| !p.is_empty() && c.id.starts_with(p))
        {
            println!("{} {}: {}", c.id, v.action.as_str(), v.reason);
        }
        v
    };
    let mut failures = Vec::new();
    let mut stopped: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for c in evasions() {
        let v = judge(&c);
        let action = v.action.as_str();
        let entry = stopped.entry(c.class.clone()).or_default();
        entry.1 += 1;
        if action == "deny" || action == "escalate" {
            entry.0 += 1;
        } else {
            failures.push(format!(
                "{} [{}] {action}: {} — {}",
                c.id, c.tool, c.why, v.reason
            ));
        }
    }
    let ord = ordinary();
    let mut wrongly_blocked = 0;
    for c in &ord {
        let v = judge(c);
        if v.action.as_str() != "allow" {
            wrongly_blocked += 1;
            failures.push(format!(
                "{} [{}] {}: {} — {}",
                c.id,
                c.tool,
                v.action.as_str(),
                c.why,
                v.reason
            ));
        }
    }
    let (hit, total) = stopped
        .values()
        .fold((0, 0), |(h, t), (a, b)| (h + a, t + b));
    for (class, (a, b)) in &stopped {
        println!("{class}: {a}/{b} stopped");
    }
    println!(
        "evasions stopped: {hit}/{total}; ordinary wrongly blocked: {wrongly_blocked}/{}",
        ord.len()
    );
    for f in &failures {
        println!("FAIL {f}");
    }
    assert!(
        failures.is_empty(),
        "{} corpus failures (listed above)",
        failures.len()
    );
}

/// The cases the guards do not yet judge right (`tests/corpus/gaps-*.jsonl`, each named in the
/// issue note): evasions still allowed, ordinary calls still blocked. They are kept where the
/// figures can be rerun, and this test fails the day one of them starts passing, so it moves
/// back into the corpus proper.
#[test]
fn known_gaps_are_still_gaps() {
    let dir = tempfile::tempdir().expect("temp dir");
    let state = dir.path().join("governance").display().to_string();
    let e = engine(dir.path());
    let mut closed = Vec::new();
    let show = |c: &Case, v: &openclaw_governance::Verdict| {
        if std::env::var("CORPUS_SHOW").is_ok_and(|p| c.id.starts_with(&p)) {
            println!("{} {}: {}", c.id, v.action.as_str(), v.reason);
        }
    };
    for c in corpus("gaps-evasions") {
        let v = verdict(&e, &c, &state);
        show(&c, &v);
        if matches!(v.action.as_str(), "deny" | "escalate") {
            closed.push(format!(
                "{} is now stopped: move it back to the corpus",
                c.id
            ));
        }
    }
    for c in corpus("gaps-ordinary") {
        let v = verdict(&e, &c, &state);
        show(&c, &v);
        if v.action.as_str() == "allow" {
            closed.push(format!(
                "{} is now allowed: move it back to the corpus",
                c.id
            ));
        }
    }
    println!(
        "known gaps: {} evasions, {} ordinary",
        corpus("gaps-evasions").len(),
        corpus("gaps-ordinary").len()
    );
    assert!(closed.is_empty(), "{}", closed.join("\n"));
}
