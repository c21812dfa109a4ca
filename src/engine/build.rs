//! Building an engine: a resolved config becomes the compiled core, the audit writer and the
//! trust store start; a config that does not resolve yields an engine that follows `failMode`.

use super::evidence::{start_audit, trust_path as trust_file, Logs};
use super::{Core, Counters, EngineError, EngineOptions, GovernanceEngine, Mode};
use crate::audit::AuditWriter;
use crate::config::{ConfigError, FailMode, GovernanceConfig};
use crate::conversation::Conversations;
use crate::cross_agent::AgentGraph;
use crate::frequency::FrequencyTracker;
use crate::policy::index::PolicyIndex;
use crate::risk::RiskAssessor;
use crate::time::now_ms;
use crate::trust::TrustManager;
use serde_json::Value;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

impl GovernanceEngine {
    /// Strict construction: a bad config is an error.
    pub fn try_new(raw: &Value, opts: &EngineOptions) -> Result<GovernanceEngine, EngineError> {
        let config = GovernanceConfig::resolve(raw)?;
        let logs = Logs::default();
        let audit = start_audit(&config, opts, &logs).map_err(EngineError::Audit)?;
        let trust_path = trust_file(&config, opts);
        Ok(GovernanceEngine::ready(config, audit, logs, trust_path))
    }

    /// Tolerant construction for the host: a bad config yields an engine that follows
    /// `failMode` on every call instead of throwing inside `register`.
    pub fn new(raw: &Value, opts: &EngineOptions) -> GovernanceEngine {
        let logs = Logs::default();
        match GovernanceConfig::resolve(raw) {
            Ok(config) => match start_audit(&config, opts, &logs) {
                Ok(audit) => {
                    let trust_path = trust_file(&config, opts);
                    GovernanceEngine::ready(config, audit, logs, trust_path)
                }
                Err(e) => {
                    // Another engine owns this directory: keep trust in memory rather than
                    // racing it for trust.json.
                    let engine = GovernanceEngine::ready(config, None, logs, None);
                    engine.log(
                        "error",
                        format!("audit disabled: cannot start the writer: {e}"),
                    );
                    engine
                }
            },
            Err(error) => GovernanceEngine::invalid(raw, opts, error, logs),
        }
    }

    fn ready(
        config: GovernanceConfig,
        audit: Option<AuditWriter>,
        logs: Logs,
        trust_path: Option<PathBuf>,
    ) -> GovernanceEngine {
        let per_key = config
            .performance
            .frequency_buffer_size
            .max(config.max_frequency_limit() as usize + 1);
        let core = Core {
            validator: crate::output::Validator::new(config.output.clone())
                .fail_closed(config.fail_mode == crate::config::FailMode::Closed),
            index: PolicyIndex::build(config.policies.clone()),
            risk: RiskAssessor::new(&config.tool_risk_overrides),
            trust: match trust_path {
                Some(path) => TrustManager::persistent(config.trust.clone(), path, now_ms()),
                None => TrustManager::new(config.trust.clone()),
            },
            graph: AgentGraph::default(),
            inherited: Default::default(),
            frequency: FrequencyTracker::new(per_key, 10_000),
            conversations: Conversations::new(config.performance.max_context_messages),
            config,
        };
        let engine = GovernanceEngine::assemble(Mode::Ready(Box::new(core)), audit, logs);
        if let Mode::Ready(core) = &engine.mode {
            if let Some(e) = &core.trust.load_error {
                engine.log("error", format!("trust store: {e}"));
            }
            if let Some(b) = core.config.output.bridge.as_ref().filter(|b| b.enabled) {
                match bridge_output(b, core.trust.persist_path()) {
                    Some(output) => {
                        core.validator.registries.add_file(crate::output::config::FileRegistry {
                            path: output.clone(),
                            id: Some(b.registry_id.clone()),
                            config_path: "outputValidation.traceBridge".into(),
                            optional: true,
                        });
                        // The first pass before the first read of the registry files: what it
                        // learns is in force once the engine is built (a pass on a thread raced
                        // that read, and its facts waited for the watcher).
                        let report = crate::output::bridge::run(
                            b,
                            &output,
                            &crate::audit::iso_millis(now_ms()),
                        );
                        for p in report.problems {
                            engine.log("warn", format!("traceBridge: {p}"));
                        }
                        run_bridge_periodically(
                            b.clone(),
                            output,
                            std::sync::Arc::downgrade(&core.validator.registries),
                            engine.logs.clone(),
                        );
                    }
                    None => engine.log("error", "outputValidation.traceBridge: no outputFile and no state directory to put it in".into()),
                }
            }
            for p in core.validator.registries.refresh_files() {
                engine.log(p.level, format!("outputValidation: {}", p.message));
            }
            if core.validator.registries.has_files() {
                watch_registry_files(&core.validator.registries, engine.logs.clone());
            }
            for f in &core.config.output.unsupported_facts {
                engine.log(
                    "warn",
                    format!("outputValidation: fact {f}; not applied, ignored"),
                );
            }
        }
        engine
    }

    fn invalid(
        raw: &Value,
        opts: &EngineOptions,
        error: ConfigError,
        logs: Logs,
    ) -> GovernanceEngine {
        // A failMode we cannot read is treated as closed: a broken config must not allow silently.
        let fail_mode = match raw.get("failMode").and_then(Value::as_str) {
            Some("open") | None => FailMode::Open,
            _ => FailMode::Closed,
        };
        let fallback = GovernanceConfig::resolve(&serde_json::json!({})).ok();
        let audit = fallback.and_then(|mut c| {
            c.workspace = raw
                .get("workspace")
                .and_then(Value::as_str)
                .map(str::to_string);
            start_audit(&c, opts, &logs).ok().flatten()
        });
        let engine = GovernanceEngine::assemble(
            Mode::Invalid {
                error: error.clone(),
                fail_mode,
            },
            audit,
            logs,
        );
        engine.log(
            "error",
            format!("governance config rejected, failMode={fail_mode:?}: {error}"),
        );
        engine
    }

    fn assemble(mode: Mode, audit: Option<AuditWriter>, logs: Logs) -> GovernanceEngine {
        // Without a readable config, blocks are made durable: the safe default of `syncOnBlock`.
        let sync = match &mode {
            Mode::Ready(core) => core.config.audit.sync_on_block,
            Mode::Invalid { .. } => true,
        };
        GovernanceEngine {
            mode,
            audit,
            sync_on_block: sync,
            counters: Counters::default(),
            logs,
            intent_skipped: AtomicBool::new(false),
            intent_warned: AtomicBool::new(false),
            started_ms: now_ms(),
        }
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
