//! The Trace-to-Facts Bridge (seed 001 R-002): findings of a trace analyzer (any producer of the
//! §8.2 `TraceFinding` JSON) that carry a `factCorrection` become facts in a generated registry
//! file (§8.3 format), which the validator then reads like any registry file.

use crate::audit::store::write_atomic;
use serde::Deserialize;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

#[derive(Debug, Clone)]
pub struct BridgeConfig {
    pub enabled: bool,
    pub findings_dir: PathBuf,
    /// `None` = `<state>/governance/generated-facts.json`, resolved by the engine.
    pub output_file: Option<PathBuf>,
    pub interval_seconds: u64,
    pub registry_id: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct FactCorrection {
    subject: String,
    #[allow(dead_code)] // part of the finding format; the fact records what is true
    claimed: Option<String>,
    actual: String,
    predicate: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct TraceFinding {
    id: String,
    #[serde(default)]
    fact_correction: Option<FactCorrection>,
}

#[derive(Debug, Default, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BridgeReport {
    pub files_read: usize,
    pub corrections: usize,
    pub added: usize,
    pub updated: usize,
    pub problems: Vec<String>,
}

/// A findings file holds one finding, a list, or `{findings: [...]}` (a daily trace report).
fn findings_in(v: Value) -> Vec<Value> {
    match v {
        Value::Array(items) => items,
        Value::Object(mut m) => match m.remove("findings") {
            Some(Value::Array(items)) => items,
            Some(_) => Vec::new(),
            None => vec![Value::Object(m)],
        },
        _ => Vec::new(),
    }
}

fn read_corrections(
    dir: &Path,
    report: &mut BridgeReport,
) -> Vec<(String, String, String, String)> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        report.problems.push(format!(
            "findings directory {} cannot be read",
            dir.display()
        ));
        return out;
    };
    let mut paths: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    for path in paths {
        let parsed = std::fs::read(&path)
            .map_err(|e| e.to_string())
            .and_then(|b| serde_json::from_slice::<Value>(&b).map_err(|e| e.to_string()));
        let Ok(v) = parsed.map_err(|e| report.problems.push(format!("{}: {e}", path.display())))
        else {
            continue;
        };
        report.files_read += 1;
        for f in findings_in(v) {
            let Ok(finding) = serde_json::from_value::<TraceFinding>(f) else {
                continue;
            };
            if let Some(c) = finding.fact_correction {
                let predicate = c.predicate.unwrap_or_else(|| "state".into());
                out.push((c.subject, predicate, c.actual, finding.id));
            }
        }
    }
    report.corrections = out.len();
    out
}

/// One pass: read the findings, merge their corrections into the generated registry file
/// (no duplicates; a newer correction of the same subject and predicate replaces the older).
pub fn run(cfg: &BridgeConfig, output: &Path, now_iso: &str) -> BridgeReport {
    let mut report = BridgeReport::default();
    let corrections = read_corrections(&cfg.findings_dir, &mut report);
    let mut doc: Value = std::fs::read(output)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_else(|| json!({ "id": cfg.registry_id, "facts": [] }));
    let Some(facts) = doc.get_mut("facts").and_then(Value::as_array_mut) else {
        report.problems.push(format!(
            "{}: not a registry file (no facts list); left as it is",
            output.display()
        ));
        return report;
    };
    for (subject, predicate, actual, finding) in corrections {
        let same =
            |f: &Value| f["subject"] == subject.as_str() && f["predicate"] == predicate.as_str();
        match facts.iter_mut().find(|f| same(f)) {
            Some(f) if f["value"] == actual.as_str() => {}
            Some(f) => {
                f["value"] = json!(actual);
                f["source"] = json!(format!("trace-bridge:{finding}"));
                report.updated += 1;
            }
            None => {
                facts.push(json!({ "subject": subject, "predicate": predicate, "value": actual, "source": format!("trace-bridge:{finding}") }));
                report.added += 1;
            }
        }
    }
    if report.added + report.updated > 0 {
        doc["generatedAt"] = json!(now_iso);
        let bytes = serde_json::to_vec_pretty(&doc).unwrap_or_default();
        if let Err(e) = write_atomic(output, &bytes) {
            report.problems.push(e);
        }
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn findings_become_facts_without_duplicates() {
        let dir = tempfile::tempdir().unwrap();
        let findings = dir.path().join("findings");
        std::fs::create_dir(&findings).unwrap();
        std::fs::write(findings.join("daily.json"), r#"{ "findings": [
            { "id": "f1", "agent": "forge", "signal": { "signal": "SIG-HALLUCINATION", "severity": "high", "summary": "claimed nginx missing" },
              "factCorrection": { "subject": "nginx", "claimed": "not installed", "actual": "installed" } },
            { "id": "f2", "agent": "forge", "signal": { "signal": "SIG-CORRECTION", "severity": "low", "summary": "no correction" } } ] }"#).unwrap();
        std::fs::write(findings.join("one.json"), r#"{ "id": "f3", "agent": "main", "factCorrection": { "subject": "partner", "claimed": "Iulia", "actual": "Irina", "predicate": "name" } }"#).unwrap();
        std::fs::write(findings.join("broken.json"), "{").unwrap();
        let cfg = BridgeConfig {
            enabled: true,
            findings_dir: findings.clone(),
            output_file: None,
            interval_seconds: 60,
            registry_id: "trace-learned".into(),
        };
        let out = dir.path().join("generated-facts.json");
        let r = run(&cfg, &out, "2026-11-22T00:00:00Z");
        assert_eq!(
            (r.files_read, r.corrections, r.added, r.problems.len()),
            (2, 2, 2, 1)
        );
        let again = run(&cfg, &out, "2026-11-22T01:00:00Z");
        assert_eq!((again.added, again.updated), (0, 0), "no duplicates");
        let doc: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
        assert_eq!(doc["id"], "trace-learned");
        assert_eq!(
            doc["generatedAt"], "2026-11-22T00:00:00Z",
            "unchanged file not rewritten"
        );
        assert_eq!(
            doc["facts"][0],
            json!({ "subject": "nginx", "predicate": "state", "value": "installed", "source": "trace-bridge:f1" })
        );
        std::fs::write(findings.join("z.json"), r#"{ "id": "f9", "factCorrection": { "subject": "nginx", "claimed": "x", "actual": "running" } }"#).unwrap();
        assert_eq!(
            run(&cfg, &out, "t").updated,
            1,
            "a newer correction replaces the older"
        );
    }
}
