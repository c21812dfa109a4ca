//! Building an engine: a resolved config becomes the compiled core, the audit writer and the
//! trust store start; a config that does not resolve yields an engine that follows `failMode`.

use super::evidence::{start_audit, trust_path as trust_file, Logs};
use super::live::Live;
use super::{Core, Counters, EngineError, EngineOptions, GovernanceEngine, Mode};
use crate::audit::AuditWriter;
use crate::config::{ConfigError, FailMode, GovernanceConfig};
use crate::policy::index::PolicyIndex;
use crate::risk::RiskAssessor;
use crate::time::now_ms;
use serde_json::Value;
use std::path::PathBuf;

impl GovernanceEngine {
    /// Strict construction: a bad config is an error.
    pub fn try_new(raw: &Value, opts: &EngineOptions) -> Result<GovernanceEngine, EngineError> {
        let config = GovernanceConfig::resolve(raw)?;
        let logs = Logs::default();
        let audit = start_audit(&config, opts, &logs).map_err(EngineError::Audit)?;
        let live = Live::start(&config, trust_file(&config, opts), &logs);
        let engine = GovernanceEngine::assemble(
            Mode::Ready(Box::new(Core::build(config, live, opts, &logs))),
            audit,
            None,
            logs,
        );
        engine.audit_trust_load();
        Ok(engine)
    }

    /// Tolerant construction for the host: a bad config yields an engine that follows
    /// `failMode` on every call instead of throwing inside `register`.
    pub fn new(raw: &Value, opts: &EngineOptions) -> GovernanceEngine {
        let logs = Logs::default();
        match GovernanceConfig::resolve(raw) {
            Ok(config) => {
                let (audit, problem) = match start_audit(&config, opts, &logs) {
                    Ok(audit) => (audit, None),
                    Err(e) => (None, Some(e)),
                };
                let live = Live::start(&config, trust_file(&config, opts), &logs);
                let core = Core::build(config, live, opts, &logs);
                let engine =
                    GovernanceEngine::assemble(Mode::Ready(Box::new(core)), audit, problem, logs);
                engine.audit_trust_load();
                engine
            }
            Err(error) => GovernanceEngine::invalid(raw, opts, error, logs),
        }
    }

    fn invalid(
        raw: &Value,
        opts: &EngineOptions,
        error: ConfigError,
        logs: Logs,
    ) -> GovernanceEngine {
        let fail_mode = fail_mode_of(raw);
        let audit = fallback_audit(raw, opts, &logs);
        // Trust and the agent graph are kept (with the defaults' settings) for the good config
        // that replaces this one.
        let live =
            fallback_config(raw).map(|c| Box::new(Live::start(&c, trust_file(&c, opts), &logs)));
        let engine = GovernanceEngine::assemble(
            Mode::Invalid {
                error: error.clone(),
                fail_mode,
                live,
            },
            audit,
            None,
            logs,
        );
        engine.log(
            "error",
            format!("governance config rejected, failMode={fail_mode:?}: {error}"),
        );
        engine
    }

    /// A trust.json rejected at start is evidence (someone wrote the plugin's state): recorded
    /// as a trust change of the whole store, since the stored scores were discarded.
    pub(super) fn audit_trust_load(&self) {
        let (Some(writer), Mode::Ready(core)) = (&self.audit, &self.mode) else {
            return;
        };
        let trust = &core.live.trust;
        let Some(problem) = trust.take_rejection() else {
            return;
        };
        let details = serde_json::json!({ "change": "store rejected", "integrity": trust.integrity(), "problem": problem, "by": "engine" });
        let mut record = crate::audit::AuditRecord::event(
            crate::audit::AuditVerdict::TrustChange,
            details,
            now_ms(),
        );
        record.context.hook = "trust".into();
        if let Err(e) = writer.write(record, false) {
            self.log("error", format!("audit record not written: {e}"));
        }
    }

    pub(super) fn assemble(
        mode: Mode,
        audit: Option<AuditWriter>,
        audit_problem: Option<String>,
        logs: Logs,
    ) -> GovernanceEngine {
        let engine = GovernanceEngine {
            mode,
            audit,
            audit_problem,
            counters: Counters::default(),
            logs,
            started_ms: now_ms(),
            waiting: Default::default(),
        };
        if let Some(e) = &engine.audit_problem {
            engine.log(
                "error",
                format!("audit disabled: cannot start the writer: {e}"),
            );
        }
        engine
    }
}

/// A failMode we cannot read is treated as closed: a broken config must not allow silently.
pub(super) fn fail_mode_of(raw: &Value) -> FailMode {
    match raw.get("failMode").and_then(Value::as_str) {
        Some("open") | None => FailMode::Open,
        _ => FailMode::Closed,
    }
}

/// For a config that does not resolve: the default audit settings in its workspace, so its
/// fail-mode verdicts are still recorded.
fn fallback_audit(raw: &Value, opts: &EngineOptions, logs: &Logs) -> Option<AuditWriter> {
    AuditWriter::start(fallback_writer(raw, opts, logs)?).ok()
}

pub(super) fn fallback_writer(
    raw: &Value,
    opts: &EngineOptions,
    logs: &Logs,
) -> Option<crate::audit::WriterOptions> {
    super::evidence::writer_options(&fallback_config(raw)?, opts, logs)
}

/// The defaults, in the workspace the rejected config names.
fn fallback_config(raw: &Value) -> Option<GovernanceConfig> {
    let mut c = GovernanceConfig::resolve(&serde_json::json!({})).ok()?;
    c.workspace = raw
        .get("workspace")
        .and_then(Value::as_str)
        .map(str::to_string);
    Some(c)
}

impl Core {
    /// The compiled config around the live state; starts the fact sources the config names.
    pub(super) fn build(
        config: GovernanceConfig,
        live: Live,
        opts: &EngineOptions,
        logs: &Logs,
    ) -> Core {
        let core = Core {
            guards: guard_env(&config, opts),
            validator: crate::output::Validator::new(config.output.clone())
                .fail_closed(config.fail_mode == crate::config::FailMode::Closed),
            index: PolicyIndex::build(config.policies.clone()),
            risk: RiskAssessor::new(&config.tool_risk_overrides),
            inherited: Default::default(),
            judge: super::judgment::Judge::build(&config, live.host_llm.clone()),
            live,
            config,
        };
        for (level, message) in core.live.trust.take_load_report() {
            push_log(logs, level, format!("trust store: {message}"));
        }
        if let Ok(pushed) = core.live.pushed_facts.lock() {
            for (registry, fact) in pushed.iter() {
                core.validator.registries.update(registry, fact.clone());
            }
        }
        start_fact_sources(&core, logs);
        core
    }
}

/// What the guards protect: governance's directory (audit, keys, trust, agents) wherever the
/// config puts it, and the host's paths the shim reported.
fn guard_env(config: &GovernanceConfig, opts: &EngineOptions) -> crate::guards::GuardEnv {
    let state = super::evidence::base_dir(config, opts)
        .map(|b| b.join("governance").to_string_lossy().into_owned());
    let mut host = opts.host.clone();
    if host.home.is_none() {
        host.home = std::env::var("HOME").ok();
    }
    crate::guards::GuardEnv::new(host, state, config.builtins.guards())
        .with_sensitive(&config.provenance.sensitive_paths)
}

/// The bridge, registry files and their watcher; problems go to the log.
fn start_fact_sources(core: &Core, logs: &Logs) {
    let log = |level: &'static str, message: String| push_log(logs, level, message);
    if let Some(b) = core.config.output.bridge.as_ref().filter(|b| b.enabled) {
        match bridge_output(b, core.live.trust.persist_path()) {
            Some(output) => {
                core.validator
                    .registries
                    .add_file(crate::output::config::FileRegistry {
                        path: output.clone(),
                        id: Some(b.registry_id.clone()),
                        config_path: "outputValidation.traceBridge".into(),
                        optional: true,
                    });
                // The first pass before the first read of the registry files: what it learns is
                // in force once the engine is built (a pass on a thread raced that read, and its
                // facts waited for the watcher).
                let report =
                    crate::output::bridge::run(b, &output, &crate::audit::iso_millis(now_ms()));
                for p in report.problems {
                    log("warn", format!("traceBridge: {p}"));
                }
                run_bridge_periodically(
                    b.clone(),
                    output,
                    std::sync::Arc::downgrade(&core.validator.registries),
                    logs.clone(),
                );
            }
            None => log(
                "error",
                "outputValidation.traceBridge: no outputFile and no state directory to put it in"
                    .into(),
            ),
        }
    }
    for p in core.validator.registries.refresh_files() {
        log(p.level, format!("outputValidation: {}", p.message));
    }
    if core.validator.registries.has_files() {
        watch_registry_files(&core.validator.registries, logs.clone());
    }
    for f in &core.config.output.unsupported_facts {
        log(
            "warn",
            format!("outputValidation: fact {f}; not applied, ignored"),
        );
    }
}

fn push_log(logs: &Logs, level: &'static str, message: String) {
    if let Ok(mut l) = logs.lock() {
        l.push(crate::verdict::LogLine { level, message });
    }
}

/// Re-reads changed registry files every few seconds off the JS thread; stops with the engine.
fn watch_registry_files(
    registries: &std::sync::Arc<crate::output::registries::Registries>,
    logs: Logs,
) {
    let weak = std::sync::Arc::downgrade(registries);
    let _ = std::thread::Builder::new()
        .name("governance-facts".into())
        .spawn(move || loop {
            std::thread::sleep(std::time::Duration::from_secs(2));
            let Some(r) = weak.upgrade() else { return };
            for p in r.refresh_files() {
                if let Ok(mut l) = logs.lock() {
                    l.push(crate::verdict::LogLine {
                        level: p.level,
                        message: format!("outputValidation: {}", p.message),
                    });
                }
            }
        });
}

/// The bridge's registry file: configured, or beside trust.json in `<state>/governance/`.
pub(super) fn bridge_output(
    b: &crate::output::bridge::BridgeConfig,
    trust_file: Option<String>,
) -> Option<PathBuf> {
    b.output_file.clone().or_else(|| {
        trust_file.and_then(|t| {
            PathBuf::from(t)
                .parent()
                .map(|d| d.join("generated-facts.json"))
        })
    })
}

/// Runs the Trace-to-Facts bridge every `intervalSeconds` off the JS thread (the first pass ran
/// in `ready`). A pass that wrote reloads the registry files at once rather than at the
/// watcher's next look; the thread ends once its engine's registries are gone.
fn run_bridge_periodically(
    cfg: crate::output::bridge::BridgeConfig,
    output: PathBuf,
    registries: std::sync::Weak<crate::output::registries::Registries>,
    logs: Logs,
) {
    let log = move |level: &'static str, message: String| {
        if let Ok(mut l) = logs.lock() {
            l.push(crate::verdict::LogLine { level, message });
        }
    };
    let _ = std::thread::Builder::new()
        .name("governance-bridge".into())
        .spawn(move || loop {
            std::thread::sleep(std::time::Duration::from_secs(cfg.interval_seconds));
            let Some(registries) = registries.upgrade() else {
                return;
            };
            let report =
                crate::output::bridge::run(&cfg, &output, &crate::audit::iso_millis(now_ms()));
            for p in report.problems {
                log("warn", format!("traceBridge: {p}"));
            }
            if report.added + report.updated > 0 {
                for p in registries.refresh_files() {
                    log(p.level, format!("outputValidation: {}", p.message));
                }
            }
        });
}
