//! Per-call cost once many agents have been seen: `bench_agents <config.json> [state-dir]`.
//! Every table keyed by agent or session (call counts, recent messages, trust, the agent graph,
//! candidate lists) is bounded; what matters is whether a new key costs more once it is full.
//! Tables are warmed with 10 and with 100 000 distinct agents, each doing what a new agent does
//! (a tool call, its outcome, a sub-agent spawn, a message); then each step is timed for 2 000
//! further new agents (few enough that the 10-agent tables stay below their bounds), and a tool
//! call by a known agent. Each step is timed where it falls in that sequence, so a neighbour's
//! scan of a full table (cold caches) shows in the next step too; the variants with trust off
//! and without sub-agents leave those tables empty. Built with `--features node`, so the
//! allocator is the addon's. `npm run bench` runs it with the bench's config.

use openclaw_governance::trust::Outcome;
use openclaw_governance::{EngineOptions, GovernanceEngine, Request};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::Instant;

const MEASURED: usize = 2_000;

struct Agent {
    id: String,
    session: String,
    call: Request,
}

fn agent(i: usize) -> Result<Agent, serde_json::Error> {
    let id = format!("worker-{i}");
    let session = format!("agent:{id}:main");
    let call = serde_json::from_value(json!({
        "hook": "before_tool_call", "agentId": id, "sessionKey": session,
        "toolName": "exec", "params": { "command": "ls -la src && git status --short" } }))?;
    Ok(Agent { id, session, call })
}

/// The steps of one new agent, in the order the host's hooks bring them.
fn tool_call(e: &GovernanceEngine, a: &Agent) {
    std::hint::black_box(e.evaluate(&a.call));
}
fn outcome(e: &GovernanceEngine, a: &Agent) {
    e.record_outcome(&a.id, Outcome::Success, Some(&a.call));
}
fn spawn(e: &GovernanceEngine, a: &Agent) {
    e.register_subagent(&format!("{}:subagent:t", a.session), &a.session, None);
}
fn message(e: &GovernanceEngine, a: &Agent) {
    e.observe_message(&a.session, "please run the tests");
}

type Step = fn(&GovernanceEngine, &Agent);
const STEPS: [(&str, Step); 4] = [
    ("before_tool_call evaluate, new agent", tool_call),
    ("after_tool_call outcome (trust store)", outcome),
    ("subagent_spawned (agent graph)", spawn),
    ("message observed (conversations)", message),
];

const KNOWN: &str = "before_tool_call evaluate, known agent";

/// p50 in µs of each step for new agents, then of a tool call by a known agent; `None` for a
/// step left out.
fn run(
    config: &Value,
    dir: Option<PathBuf>,
    seen: usize,
    steps: &[bool],
) -> Result<Vec<Option<f64>>, Box<dyn std::error::Error>> {
    let engine = GovernanceEngine::try_new(
        config,
        &EngineOptions {
            state_dir: dir,
            ..Default::default()
        },
    )?;
    let active = || {
        STEPS
            .iter()
            .zip(steps)
            .filter(|(_, on)| **on)
            .map(|(s, _)| s.1)
    };
    for i in 0..seen {
        let a = agent(i)?;
        active().for_each(|step| step(&engine, &a));
    }
    // The warm-up's audit backlog is written before timing, or the writer thread competes.
    engine.flush()?;
    let fresh: Vec<Agent> = (seen..seen + MEASURED)
        .map(agent)
        .collect::<Result<_, _>>()?;
    let mut times = vec![Vec::with_capacity(MEASURED); STEPS.len() + 1];
    for a in &fresh {
        for (k, ((_, step), on)) in STEPS.iter().zip(steps).enumerate() {
            if *on {
                let t = Instant::now();
                step(&engine, a);
                times[k].push(t.elapsed().as_nanos() as f64 / 1000.0);
            }
        }
    }
    let known = agent(seen / 2)?;
    for _ in 0..MEASURED {
        let t = Instant::now();
        tool_call(&engine, &known);
        times[STEPS.len()].push(t.elapsed().as_nanos() as f64 / 1000.0);
    }
    engine.flush()?;
    Ok(times
        .into_iter()
        .map(|t| (!t.is_empty()).then(|| median(t)))
        .collect())
}

/// Variants that leave out one component at a time, so each one's share of the gap shows.
const VARIANTS: [(&str, bool, [bool; 4]); 3] = [
    ("all hooks, trust on", true, [true; 4]),
    ("trust off", false, [true; 4]),
    ("trust off, no sub-agents", false, [true, true, false, true]),
];

/// Machine noise on a shared VM moves a single p50 by ±2 µs, so each variant runs a few
/// rounds, 10 and 100 000 agents alternating, and the median of each column is printed.
const ROUNDS: usize = 5;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: bench_agents <config.json> [state-dir]")?;
    let base: Value = serde_json::from_slice(&std::fs::read(path)?)?;
    let dir = std::env::args().nth(2).map(PathBuf::from);
    println!("    medians of {ROUNDS} rounds:");
    for (v, (label, trust, steps)) in VARIANTS.iter().enumerate() {
        let mut config = base.clone();
        config["trust"]["enabled"] = json!(trust);
        let mut few = vec![Vec::new(); STEPS.len() + 1];
        let mut many = vec![Vec::new(); STEPS.len() + 1];
        for r in 0..ROUNDS {
            let sub = |name: &str| dir.as_ref().map(|d| d.join(format!("{name}-{v}-{r}")));
            let f = run(&config, sub("few"), 10, steps)?;
            let m = run(&config, sub("many"), 100_000, steps)?;
            for (k, (f, m)) in f.into_iter().zip(m).enumerate() {
                few[k].extend(f);
                many[k].extend(m);
            }
        }
        println!("    {label}:");
        let names = STEPS.iter().map(|(n, _)| *n).chain([KNOWN]);
        for ((name, f), m) in names.zip(few).zip(many) {
            if f.is_empty() || m.is_empty() {
                continue;
            }
            let (f, m) = (median(f), median(m));
            println!(
                "      {name:<40} p50 {f:6.2} µs after 10 agents, {m:6.2} µs after 100 000 ({:+.2})",
                m - f
            );
        }
    }
    Ok(())
}
