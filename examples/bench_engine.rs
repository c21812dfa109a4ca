//! The engine alone, without Node: `cargo run --release --example bench_engine -- <config.json>`.
//! `npm run bench` writes the config and runs this beside the JS measurements.

use openclaw_governance::{EngineOptions, GovernanceEngine, Request};
use serde_json::{json, Value};
use std::time::Instant;

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

fn measure(engine: &GovernanceEngine, req: &Request, n: usize) -> Vec<f64> {
    let mut times: Vec<f64> = (0..n)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(engine.evaluate(req));
            t.elapsed().as_nanos() as f64 / 1000.0
        })
        .collect();
    times.sort_by(|a, b| a.total_cmp(b));
    times
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: bench_engine <config.json> [state-dir]")?;
    let config: Value = serde_json::from_slice(&std::fs::read(path)?)?;
    let state_dir = std::env::args().nth(2).map(Into::into);
    let engine = GovernanceEngine::try_new(
        &config,
        &EngineOptions {
            state_dir,
            ..Default::default()
        },
    )?;
    let ordinary: Request = serde_json::from_value(json!({
        "hook": "before_tool_call", "agentId": "forge", "sessionKey": "agent:forge:main",
        "toolName": "exec", "params": { "command": "git status --short && ls -la src | head -n 20 > /tmp/ls.txt" }
    }))?;
    measure(&engine, &ordinary, 2_000);
    let times = measure(&engine, &ordinary, 50_000);
    let verdict = engine.evaluate(&ordinary);
    println!(
        "engine core (Rust, no Node)   p50 {:6.2} µs  p99 {:6.2} µs  verdict {}",
        percentile(&times, 0.5),
        percentile(&times, 0.99),
        verdict.action.as_str()
    );
    let big: Request = serde_json::from_value(json!({
        "hook": "before_tool_call", "agentId": "forge", "sessionKey": "agent:forge:main",
        "toolName": "exec", "params": { "command": "curl x ".repeat(80 * 1024 / 7) }
    }))?;
    let times = measure(&engine, &big, 200);
    println!(
        "engine core, 80 KB command    p50 {:6.0} µs  max {:6.0} µs",
        percentile(&times, 0.5),
        times[times.len() - 1]
    );
    engine.flush()?;
    Ok(())
}
