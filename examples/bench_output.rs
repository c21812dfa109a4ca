//! Output validation without Node: `cargo run --release --example bench_output` (add
//! `--features node` for the addon's allocator). The same text and registries as
//! `bench/output.mjs`, split into its stages. `BENCH_NO_AUDIT=1` turns the audit trail off (to see
//! its share); `BENCH_OUTPUT_ONLY=1` stops after the end-to-end figure (for profiling).

use openclaw_governance::{EngineOptions, GovernanceEngine};
use serde_json::{json, Value};
#[path = "common/timing.rs"]
mod timing;

fn registries() -> Value {
    let regs: Vec<Value> = ["infra", "team", "features"]
        .iter()
        .enumerate()
        .map(|(r, id)| {
            let facts: Vec<Value> = (0..30)
                .map(|i| match r {
                    0 => json!({"id": format!("svc-{i}"), "category": "system_state", "subject": format!("svc{i}"), "value": {"type": "state", "state": "installed"}}),
                    1 => json!({"id": format!("person-{i}"), "category": "entity_name", "subject": format!("role{i}"), "value": {"type": "name", "correctName": format!("Person{i}")}}),
                    _ => json!({"id": format!("feature-{i}"), "category": "existence", "subject": format!("feature{i}"), "value": {"type": "exists", "exists": true}}),
                })
                .collect();
            json!({"id": id, "name": id, "facts": facts})
        })
        .collect();
    Value::Array(regs)
}

fn text() -> String {
    let mut sentences: Vec<String> = Vec::new();
    let mut i = 0;
    while sentences.join(" ").len() < 1900 {
        sentences.push(match i % 5 {
            0 => format!("svc{} is not installed on the host.", i % 30),
            1 => "The pipeline is broken since this morning.".into(),
            2 => format!("There is no feature{} in this release.", i % 30),
            3 => "We looked at the release notes first and compared them with last week.".into(),
            _ => "The team read the logs together.".into(),
        });
        i += 1;
    }
    sentences.join(" ")
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::env::temp_dir().join(format!("ocg-bench-output-{}", std::process::id()));
    let config = json!({
        "trust": {"defaults": {"writer": 45}}, "audit": {"enabled": std::env::var_os("BENCH_NO_AUDIT").is_none()},
        "outputValidation": {"factRegistries": registries()}
    });
    let mut engine = GovernanceEngine::try_new(
        &config,
        &EngineOptions {
            state_dir: Some(dir.clone()),
            ..Default::default()
        },
    )?;
    let text = text();
    let r = engine
        .validate_output(Some("writer"), Some("agent:writer:main"), &text, "bench")
        .ok_or("engine not ready")?;
    println!(
        "{} characters, {} claims, {} violations, verdict {:?}",
        text.len(),
        r.claims.len(),
        r.violations.len(),
        r.verdict
    );
    let full = timing::p50_us(2_000, 20_000, || {
        std::hint::black_box(engine.validate_output(
            Some("writer"),
            Some("agent:writer:main"),
            &text,
            "bench",
        ));
    });
    let audit = if std::env::var_os("BENCH_NO_AUDIT").is_some() {
        "off"
    } else {
        "on"
    };
    println!("engine.validate_output (audit {audit}) p50 {full:6.2} µs");
    if std::env::var_os("BENCH_OUTPUT_ONLY").is_none() {
        stages(&text, &r)?;
    }
    // The audit trail of 22 000 validations is ~160 MB: not left behind.
    engine.close()?;
    std::fs::remove_dir_all(dir).ok();
    Ok(())
}

/// Each stage alone: detection, the scan, each builtin pattern, the JSON of the result.
fn stages(
    text: &str,
    r: &openclaw_governance::output::OutputResult,
) -> Result<(), Box<dyn std::error::Error>> {
    let patterns: Vec<_> = openclaw_governance::output::claims::BUILTIN_IDS
        .iter()
        .flat_map(|id| openclaw_governance::output::claims::builtin(id))
        .collect();
    let refs: Vec<_> = patterns.iter().collect();
    let detect = timing::p50_us(2_000, 20_000, || {
        std::hint::black_box(openclaw_governance::output::claims::detect(
            text, &refs, 1000,
        ));
    });
    println!("claims::detect, every builtin      p50 {detect:6.2} µs");
    let scan = timing::p50_us(2_000, 20_000, || {
        std::hint::black_box(openclaw_governance::output::scan::Scan::new(text));
    });
    println!("   sentences and anchor words        p50 {scan:6.2} µs");
    // Each pattern alone: the sentence split and anchor pass are in every line.
    for pat in &patterns {
        let one = [pat];
        let t = timing::p50_us(2_000, 20_000, || {
            std::hint::black_box(openclaw_governance::output::claims::detect(
                text, &one, 1000,
            ));
        });
        println!(
            "   {:50} {t:6.2} µs",
            &pat.re.as_str()[..50.min(pat.re.as_str().len())]
        );
    }
    let json = timing::p50_us(2_000, 20_000, || {
        std::hint::black_box(serde_json::to_string(r).ok());
    });
    println!(
        "result to JSON                    p50 {json:6.2} µs ({} bytes)",
        serde_json::to_string(r)?.len()
    );
    Ok(())
}
