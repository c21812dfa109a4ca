//! A config edit while the host runs. The host registers the plugin again on every edit of its
//! config (HOST.md); instead of a second engine that would find the first one's state, the
//! running engine takes the new config: it compiles it, keeps everything it has learnt (trust,
//! the agent graph, rate windows, recent messages, pushed facts) and its audit writer, whose
//! chain simply continues. The edit itself is recorded (ISO A.8.9).

use super::build::{fail_mode_of, fallback_writer};
use super::evidence::{trust_path, writer_options};
use super::live::Live;
use super::{Core, EngineOptions, GovernanceEngine, Mode};
use crate::audit::{AuditRecord, AuditVerdict, AuditWriter, WriterOptions};
use crate::config::{ConfigError, FailMode, GovernanceConfig};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

impl GovernanceEngine {
    /// Takes `raw` as the config from now on. A config that does not resolve puts the engine in
    /// fail-mode (as at start) but keeps the live state for the next good one.
    pub fn reconfigure(&mut self, raw: &Value, opts: &EngineOptions) {
        let live = self.take_live();
        match GovernanceConfig::resolve(raw) {
            Ok(config) => {
                self.swap_audit(writer_options(&config, opts, &self.logs));
                let file = trust_path(&config, opts);
                let live = match live {
                    Some(live) => live.adopt(&config, file, &self.logs),
                    None => Live::start(&config, file, &self.logs),
                };
                self.mode = Mode::Ready(Box::new(Core::build(config, live, opts, &self.logs)));
            }
            Err(error) => {
                // Its fail-mode verdicts are recorded in its state directory with the default
                // audit settings (a writer already there keeps its own).
                let wanted = fallback_writer(raw, opts, &self.logs);
                let same_dir =
                    matches!((&self.audit, &wanted), (Some(w), Some(o)) if w.dir == o.dir);
                if !same_dir {
                    self.swap_audit(wanted);
                }
                let fail_mode = fail_mode_of(raw);
                self.log(
                    "error",
                    format!("governance config rejected, failMode={fail_mode:?}: {error}"),
                );
                self.mode = Mode::Invalid {
                    error,
                    fail_mode,
                    live: live.map(Box::new),
                };
            }
        }
        self.record_config_change(raw);
        self.audit_trust_load();
    }

    fn take_live(&mut self) -> Option<Live> {
        let interim = Mode::Invalid {
            error: ConfigError { issues: Vec::new() },
            fail_mode: FailMode::Closed,
            live: None,
        };
        match std::mem::replace(&mut self.mode, interim) {
            Mode::Ready(core) => Some(core.live),
            Mode::Invalid { live, .. } => live.map(|l| *l),
        }
    }

    /// The same directory and key keep their writer (new settings take effect in order);
    /// anything else closes it — final checkpoint, lock free — and starts the one asked for.
    fn swap_audit(&mut self, wanted: Option<WriterOptions>) {
        if let (Some(w), Some(o)) = (&self.audit, &wanted) {
            if w.dir == o.dir && w.key_file == o.key_file {
                if let Some(o) = wanted {
                    if let Err(e) = w.reconfigure(o) {
                        self.log("error", format!("audit writer: {e}"));
                    }
                }
                return;
            }
        }
        if let Some(mut old) = self.audit.take() {
            if let Err(e) = old.close() {
                self.log("error", format!("closing the audit writer: {e}"));
            }
        }
        self.audit_problem = None;
        if let Some(o) = wanted {
            match AuditWriter::start(o) {
                Ok(w) => self.audit = Some(w),
                Err(e) => {
                    self.log(
                        "error",
                        format!("audit disabled: cannot start the writer: {e}"),
                    );
                    self.audit_problem = Some(e);
                }
            }
        }
    }

    fn record_config_change(&self, raw: &Value) {
        let Some(writer) = &self.audit else { return };
        let details = match &self.mode {
            Mode::Ready(core) => json!({
                "configSha256": config_digest(raw),
                "valid": true,
                "policies": core.index.policies().len(),
                "failMode": core.config.fail_mode,
            }),
            Mode::Invalid { error, .. } => json!({
                "configSha256": config_digest(raw),
                "valid": false,
                "problems": error.issues,
            }),
        };
        let mut record =
            AuditRecord::event(AuditVerdict::ConfigChange, details, crate::time::now_ms());
        record.context.hook = "config".into();
        if let Err(e) = writer.write(record, false) {
            self.log("error", format!("audit record not written: {e}"));
        }
    }
}

/// SHA-256 of the config with its secrets left out (a digest of a short API key could be
/// reversed by trying keys): which config was in force can be matched, nothing is revealed.
fn config_digest(raw: &Value) -> String {
    let mut c = raw.clone();
    if let Some(llm) = c.get_mut("llm").and_then(Value::as_object_mut) {
        llm.remove("apiKey");
    }
    let bytes = serde_json::to_vec(&c).unwrap_or_default();
    format!("{:x}", Sha256::digest(bytes))
}
