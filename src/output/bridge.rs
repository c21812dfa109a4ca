//! The Trace-to-Facts Bridge (seed 001 R-002): findings of a trace analyzer (any producer of the
//! §8.2 `TraceFinding` JSON) that carry a `factCorrection` become facts in a generated registry
//! file (§8.3 format), which the validator then reads like any registry file.

use serde::Deserialize;
use serde_json::{json, Value};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How long a pass waits for another engine's update of the file (a read, a merge and a write:
/// milliseconds) before it gives up until the next one.
pub const LOCK_WAIT: Duration = Duration::from_secs(2);

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
    run_within(cfg, output, now_iso, LOCK_WAIT)
}

/// The same, waiting at most `wait` for another engine's update of the file. Every engine on a
/// state directory (a gateway and a CLI run, the engines before and after a plugin reload, the
/// shim's pass at gateway start beside the bridge thread's) reads, merges and writes the file
/// under an exclusive lock on `<file>.lock`, so none writes over what another learned meanwhile.
pub fn run_within(
    cfg: &BridgeConfig,
    output: &Path,
    now_iso: &str,
    wait: Duration,
) -> BridgeReport {
    let mut report = BridgeReport::default();
    let corrections = read_corrections(&cfg.findings_dir, &mut report);
    let _lock = match lock(output, wait) {
        Ok(lock) => lock,
        Err(problem) => {
            report.problems.push(problem);
            return report;
        }
    };
    let mut doc = match read_output(output) {
        Ok(Some(doc)) => doc,
        Ok(None) => json!({ "id": cfg.registry_id, "facts": [] }),
        Err(problem) => {
            report.problems.push(problem);
            return report;
        }
    };
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
        if let Err(e) = replace(output, &bytes) {
            report
                .problems
                .push(format!("{}: not written: {e}", output.display()));
        }
    }
    report
}

/// The exclusive lock on `<output>.lock` (released when dropped), waited for up to `wait`.
fn lock(output: &Path, wait: Duration) -> Result<File, String> {
    let path = sibling(output, ".lock");
    let failed =
        |e: std::io::Error| format!("{}: cannot lock {}: {e}", output.display(), path.display());
    if let Some(dir) = output.parent() {
        std::fs::create_dir_all(dir).map_err(failed)?;
    }
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(failed)?;
    let started = Instant::now();
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(file),
            Err(std::fs::TryLockError::WouldBlock) if started.elapsed() < wait => {
                std::thread::sleep(Duration::from_millis(10));
            }
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(format!(
                "{}: another engine is updating it ({} held for over {} ms); this pass is skipped",
                output.display(),
                path.display(),
                wait.as_millis()
            ))
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(failed(e)),
        }
    }
}

/// The file as JSON; `None` if it does not exist yet. One that exists but cannot be read is an
/// error, not an empty registry: writing over it would drop the facts it holds.
fn read_output(output: &Path) -> Result<Option<Value>, String> {
    let bytes = match std::fs::read(output) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(format!(
                "{}: cannot be read ({e}); left as it is",
                output.display()
            ))
        }
    };
    serde_json::from_slice(&bytes).map(Some).map_err(|e| {
        format!(
            "{}: cannot be read as JSON ({e}); left as it is, learned facts are not added until it is fixed or removed",
            output.display()
        )
    })
}

/// Writes `bytes` to a temporary file of this process's own beside `path` and renames it over
/// `path`: a reader sees the old file or the new one, never a part, and a writer that does not
/// take the lock (an older version of the plugin) cannot write into this one's temporary file.
fn replace(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = sibling(path, &format!(".{}.{n}.tmp", std::process::id()));
    let written = File::create(&tmp)
        .and_then(|mut f| f.write_all(bytes).and_then(|()| f.sync_all()))
        .and_then(|()| std::fs::rename(&tmp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written?;
    // The rename itself is durable once the directory is synced.
    if let Some(dir) = path.parent() {
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
    Ok(())
}

/// `path` with `suffix` appended to its file name (`facts.json` → `facts.json.lock`).
fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(suffix);
    path.with_file_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bridge reading `findings` (one correction: nginx is installed) into `out`.
    fn one_finding(dir: &Path) -> (BridgeConfig, PathBuf) {
        let findings = dir.join("findings");
        std::fs::create_dir_all(&findings).unwrap();
        std::fs::write(findings.join("a.json"), r#"{ "id": "fA", "factCorrection": { "subject": "nginx", "claimed": "missing", "actual": "installed" } }"#).unwrap();
        let cfg = BridgeConfig {
            enabled: true,
            findings_dir: findings,
            output_file: None,
            interval_seconds: 60,
            registry_id: "trace-learned".into(),
        };
        (cfg, dir.join("generated-facts.json"))
    }

    fn subjects(out: &Path) -> Vec<String> {
        let doc: Value = serde_json::from_slice(&std::fs::read(out).unwrap()).unwrap();
        doc["facts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["subject"].as_str().unwrap().to_string())
            .collect()
    }

    /// Two engines (a gateway and an `openclaw agent --local` run on one state directory, or the
    /// engine before and after a plugin reload) update the one file. Each reads, merges and
    /// writes it under `<file>.lock`; a pass that ignored the lock had its facts overwritten by
    /// the other engine's write, made from what it read before.
    #[test]
    fn a_pass_waits_for_another_engines_update_and_merges_into_it() {
        let dir = tempfile::tempdir().unwrap();
        let (cfg, out) = one_finding(dir.path());
        let lock = std::fs::File::create(dir.path().join("generated-facts.json.lock")).unwrap();
        lock.lock().unwrap();
        let pass = {
            let (cfg, out) = (cfg.clone(), out.clone());
            std::thread::spawn(move || run(&cfg, &out, "t1"))
        };
        // The other engine, mid-update: it read an empty file and now writes what it learned.
        std::thread::sleep(std::time::Duration::from_millis(200));
        std::fs::write(&out, r#"{ "id": "trace-learned", "facts": [{ "subject": "redis", "predicate": "state", "value": "running", "source": "trace-bridge:fB" }] }"#).unwrap();
        drop(lock);
        let report = pass.join().unwrap();
        assert_eq!((report.added, &report.problems), (1, &Vec::new()));
        assert_eq!(
            subjects(&out),
            ["redis", "nginx"],
            "neither engine's fact lost"
        );
        // Held for longer than a pass waits: the pass is skipped and says so, nothing written.
        let lock = std::fs::File::create(dir.path().join("generated-facts.json.lock")).unwrap();
        lock.lock().unwrap();
        std::fs::write(&out, r#"{ "facts": [] }"#).unwrap();
        let report = run_within(&cfg, &out, "t2", std::time::Duration::ZERO);
        assert!(
            report.problems[0].contains("another engine is updating"),
            "{report:?}"
        );
        assert_eq!(std::fs::read_to_string(&out).unwrap(), r#"{ "facts": [] }"#);
    }

    /// A file that cannot be read as a registry (torn by a writer that did not take the lock,
    /// edited by hand) still holds facts someone meant: a pass leaves it as it is and says so,
    /// rather than starting from nothing and writing over it.
    #[test]
    fn an_unreadable_output_is_left_as_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let (cfg, out) = one_finding(dir.path());
        let torn = r#"{ "id": "trace-learned", "facts": [{ "subject": "redis", "predicate": "state", "value": "run"#;
        std::fs::write(&out, torn).unwrap();
        let report = run(&cfg, &out, "t");
        assert_eq!(report.added, 0);
        assert!(
            report.problems[0].contains("cannot be read")
                && report.problems[0].contains("left as it is"),
            "{report:?}"
        );
        assert_eq!(std::fs::read_to_string(&out).unwrap(), torn);
        // A pass leaves no temporary file behind.
        std::fs::remove_file(&out).unwrap();
        assert_eq!(run(&cfg, &out, "t").added, 1);
        let mut left: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(
            left,
            [
                "findings",
                "generated-facts.json",
                "generated-facts.json.lock"
            ]
        );
    }

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
