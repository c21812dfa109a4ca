//! Output validation through the engine: the agent's (ceiling-capped) trust picks the profile,
//! the validator judges the text, and the verdict is audited with matched segments only
//! (seed 000 §11.2, §14.3: agent output is never logged beyond what matched).

use super::{lineage, GovernanceEngine, Mode};
use crate::audit::record::OutputAudit;
use crate::audit::{AuditContext, AuditRecord, AuditVerdict};
use crate::context::{agent_from_session_key, Hook};
use crate::output::{OutputResult, OutputVerdict};
use serde_json::Value;

/// Hooks whose result the host ignores (`llm_output` is a void hook, HOST.md): a validation
/// there is audit-only (seed 000 §8.6) and can block nothing.
const AUDIT_ONLY_HOOKS: [&str; 1] = ["llm_output"];

impl GovernanceEngine {
    /// Synchronous (the host's `before_message_write` is). `hook` names the trigger for the audit;
    /// the result carries the judged verdict even where the hook is audit-only.
    pub fn validate_output(
        &self,
        agent_id: Option<&str>,
        session_key: Option<&str>,
        text: &str,
        hook: &str,
    ) -> Option<OutputResult> {
        let Mode::Ready(core) = &self.mode else {
            return None;
        };
        let now = crate::time::now_ms();
        let session = session_key.unwrap_or("");
        let agent = agent_id
            .filter(|a| !a.is_empty())
            .or_else(|| agent_from_session_key(session))
            .unwrap_or("unknown");
        let trust = lineage::lineage(core, Hook::MessageSending, agent, session, now).trust;
        let result = core.validator.validate(agent, text, trust, now);
        if result.skipped.is_none() {
            self.audit_output(agent, session, hook, &result, now);
        }
        Some(result)
    }

    /// Whether failures block (`failMode: closed`), with a usable config or not.
    pub fn fails_closed(&self) -> bool {
        let mode = match &self.mode {
            Mode::Ready(core) => core.config.fail_mode,
            Mode::Invalid { fail_mode, .. } => *fail_mode,
        };
        mode == crate::config::FailMode::Closed
    }

    /// Output validation failed (unreadable input, a panic caught at the boundary, an unusable
    /// config): the failure is evidence (`error_fallback`); the binding lets the output pass
    /// (seed 000 §15.2) or, with `failMode: closed`, blocks it.
    pub fn output_error(&self, session_key: Option<&str>, hook: &str, error: &str) {
        let Some(writer) = &self.audit else { return };
        let mut record = AuditRecord::event(
            AuditVerdict::ErrorFallback,
            Value::Null,
            crate::time::now_ms(),
        );
        record.details = None;
        record.context.hook = hook.to_string();
        record.context.session_key = session_key.unwrap_or_default().to_string();
        record.context.agent_id = session_key
            .and_then(agent_from_session_key)
            .unwrap_or("unknown")
            .to_string();
        record.error = Some(format!("output validation: {error}"));
        if let Err(e) = writer.write(record, false) {
            self.log("error", format!("audit record not written: {e}"));
        }
        self.log("error", format!("output validation could not run: {error}"));
    }

    /// An operator's fact (`governance.facts.update`, seed 000 §5.6), added or replaced by id.
    pub fn update_fact(&self, registry: &str, fact: &serde_json::Value) -> Result<String, String> {
        let Mode::Ready(core) = &self.mode else {
            return Err("the governance config is invalid".into());
        };
        if registry.is_empty() {
            return Err("registryId is required".into());
        }
        let mut fact = crate::output::config::parse_fact(fact, registry)?;
        if fact.ttl_seconds.is_some() && fact.updated_at_ms.is_none() {
            fact.updated_at_ms = Some(crate::time::now_ms());
        }
        let id = fact.id.clone();
        core.validator.registries.update(registry, fact);
        Ok(id.to_string())
    }

    /// One bridge pass now (the shim calls it at gateway start), then the registry files reload.
    pub fn run_trace_bridge(&self) -> Option<crate::output::bridge::BridgeReport> {
        let Mode::Ready(core) = &self.mode else {
            return None;
        };
        let b = core.config.output.bridge.as_ref().filter(|b| b.enabled)?;
        let output = super::build::bridge_output(b, core.live.trust.persist_path())?;
        let report = crate::output::bridge::run(
            b,
            &output,
            &crate::audit::iso_millis(crate::time::now_ms()),
        );
        for p in core.validator.registries.refresh_files() {
            self.log(p.level, format!("outputValidation: {}", p.message));
        }
        Some(report)
    }

    /// The record says what happened: an audit-only validation that judged `block` let the text
    /// through, as a flag does (seed 000 §7.3: passes, warning-level record), and is marked
    /// `auditOnly` and `wouldBlock`, so a rollout that starts with `llm_output` (§15.4) can still
    /// find what enforcement would stop. Nothing waits on its fsync: nothing was prevented.
    fn audit_output(&self, agent: &str, session: &str, hook: &str, r: &OutputResult, now: i64) {
        let Some(writer) = &self.audit else { return };
        let audit_only = AUDIT_ONLY_HOOKS.contains(&hook);
        let verdict = match (r.verdict, audit_only) {
            (OutputVerdict::Pass, _) => AuditVerdict::OutputPass,
            (OutputVerdict::Flag, _) | (OutputVerdict::Block, true) => AuditVerdict::OutputFlag,
            (OutputVerdict::Block, false) => AuditVerdict::OutputBlock,
        };
        let blocked = verdict == AuditVerdict::OutputBlock;
        let context = AuditContext {
            agent_id: agent.to_string(),
            session_key: session.to_string(),
            hook: hook.to_string(),
            output_validation: Some(OutputAudit {
                claim_count: r.claims.len(),
                claims: r.claims.clone(),
                trigger_hook: hook.to_string(),
                violations: r.violations.clone(),
                audit_only,
                would_block: audit_only && r.verdict == OutputVerdict::Block,
            }),
            ..AuditContext::default()
        };
        let mut record = AuditRecord::of(verdict, context, now);
        record.trust = r.trust;
        record.evaluation_us = r.evaluation_us;
        if let Err(e) = writer.write(record, blocked) {
            self.log("error", format!("audit record not written: {e}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::audit::query::Filter;
    use crate::engine::{EngineOptions, GovernanceEngine};
    use crate::output::OutputVerdict;
    use serde_json::{json, Value};

    fn output_records(e: &GovernanceEngine) -> Vec<Value> {
        let mut recs = e.audit_query(&Filter::default()).unwrap();
        recs.retain(|r| r["verdict"].as_str().unwrap().starts_with("output_"));
        recs.sort_by_key(|r| r["seq"].as_u64());
        recs
    }

    /// `llm_output` is a void hook (seed 000 §8.6): its validation blocks nothing, so the record
    /// must not say it did. It says what the verdict would have been instead.
    #[test]
    fn an_audit_only_validation_is_no_block_and_says_it_would_have_been() {
        let dir = tempfile::tempdir().unwrap();
        let e = GovernanceEngine::try_new(
            &json!({ "trust": { "defaults": { "*": 10 } }, "outputValidation": {
                "performance": { "maxEvalUs": 10_000_000 },
                "factRegistries": [{ "id": "sys", "facts": [{ "id": "nginx", "category": "system_state",
                    "subject": "nginx", "value": { "type": "state", "state": "installed" } }] }] } }),
            &EngineOptions {
                state_dir: Some(dir.path().into()),
                ..Default::default()
            },
        )
        .unwrap();
        let (claim, prose) = (
            "nginx is not installed on this host.",
            "All done, see the diff.",
        );
        let judged = e.validate_output(Some("helper"), None, claim, "llm_output");
        assert_eq!(
            judged.map(|r| r.verdict),
            Some(OutputVerdict::Block),
            "the caller still learns the judgement"
        );
        e.validate_output(Some("helper"), None, prose, "llm_output");
        e.validate_output(Some("helper"), None, claim, "before_message_write");
        let recs = output_records(&e);
        let summary: Vec<_> = recs
            .iter()
            .map(|r| {
                let ov = &r["context"]["outputValidation"];
                (
                    r["verdict"].as_str().unwrap(),
                    ov["auditOnly"].as_bool(),
                    ov["wouldBlock"].as_bool(),
                    r["executionPrevented"].as_bool(),
                    r["controls"].to_string(),
                )
            })
            .collect();
        assert_eq!(
            summary,
            [
                (
                    "output_flag",
                    Some(true),
                    Some(true),
                    None,
                    r#"["A.8.10","A.5.24"]"#.to_string()
                ),
                (
                    "output_pass",
                    Some(true),
                    None,
                    None,
                    r#"["A.8.10"]"#.into()
                ),
                (
                    "output_block",
                    None,
                    None,
                    None,
                    r#"["A.8.10","A.5.24","A.5.28"]"#.into()
                ),
            ]
        );
        assert!(e.audit_verify().unwrap().valid);
    }

    /// The bridge's first pass and the first read of its file raced: the engine read the
    /// registry files while the bridge thread was still writing, and the facts it learned came
    /// into force only at the watcher's next look. They apply once the engine is built.
    #[test]
    fn facts_the_bridge_learns_at_start_apply_once_the_engine_is_built() {
        let dir = tempfile::tempdir().unwrap();
        let findings = dir.path().join("findings");
        std::fs::create_dir(&findings).unwrap();
        std::fs::write(findings.join("daily.json"), r#"{ "findings": [{ "id": "F-1", "factCorrection": { "subject": "nginx", "claimed": "missing", "actual": "installed" } }] }"#).unwrap();
        let e = GovernanceEngine::try_new(
            &json!({ "outputValidation": { "performance": { "maxEvalUs": 10_000_000 },
                "traceBridge": { "findingsDir": findings.display().to_string(), "intervalSeconds": 3600 } } }),
            &EngineOptions {
                state_dir: Some(dir.path().into()),
                ..Default::default()
            },
        )
        .unwrap();
        let r = e
            .validate_output(Some("helper"), None, "nginx is not installed here.", "x")
            .unwrap();
        assert_eq!(
            (r.verdict, r.violations[0].contradicted_fact_id()),
            (OutputVerdict::Block, Some("trace-learned:nginx:state"))
        );
    }
}
