//! The only code that knows Node: `#[napi] GovernanceEngine`, JS ⇄ Rust conversion and the
//! mapping of core errors to JS errors. Each method converts, calls one core method, converts back.
//!
//! Evaluation crosses the boundary as one JSON string each way (DESIGN.md: ~2 µs, the cheapest
//! shape measured); the JS wrapper in `index.js` wraps the sync result in a settled Promise.

use crate::audit::checkpoint::{SignerKey, VerifierKey};
use crate::audit::query::{self, Filter};
use crate::audit::store::LogData;
use crate::audit::witness::{self, CosignerKey, WitnessError, WitnessKey};
use crate::audit::{prove, verify};
use crate::context::Request;
use crate::engine::judgment::Answers;
use crate::engine::{EngineError, EngineOptions, GovernanceEngine as Core};
use crate::trust::{OperatorChange, Outcome, TrustTier};
use crate::verdict::Verdict;
use napi::bindgen_prelude::*;
use napi_derive::napi;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

mod allocator;
mod host_llm;
mod js_json;
mod reports;

/// Model calls are few and mostly wait on the network: two workers serve them on any host,
/// where napi's default runtime would start one thread per core when the addon loads.
#[napi_derive::module_init]
fn start_runtime() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("ocg-llm")
        .enable_all()
        .build();
    if let Ok(rt) = runtime {
        create_custom_tokio_runtime(rt);
    }
}
use host_llm::HostBackend;
use reports::{Failure, OutputReport};

impl GovernanceEngine {
    /// The verdict of one evaluation request. Never fails: bad input and internal failures
    /// become the fail-mode verdict (closed: deny naming the error; open: allow, audited).
    fn verdict_of(&self, request: &str) -> Verdict {
        match js_json::from_js::<Request>(request) {
            Ok(req) => {
                catch_unwind(AssertUnwindSafe(|| self.core.evaluate(&req))).unwrap_or_else(|_| {
                    self.core
                        .fail(&req, "internal error during evaluation".into())
                })
            }
            Err(e) if js_json::too_deep(request) => self.core.refuse(
                &Request::default(),
                format!("evaluation request nested too deeply to judge, denied: {e}"),
            ),
            Err(_) if js_json::params_not_an_object(request) => self.core.refuse(
                &js_json::with_params_wrapped(request),
                "the tool call's params are not an object; no params matcher could judge them, denied"
                    .into(),
            ),
            Err(e) => self.core.fail(
                &Request::default(),
                format!("unreadable evaluation request: {e}"),
            ),
        }
    }

    fn validate(&self, text: &str, ctx: &OutputContext) -> OutputReport {
        let hook = ctx.hook.as_deref().unwrap_or("validate_output");
        let session_key = ctx.session_key.as_deref();
        let run = || {
            self.core
                .validate_output(ctx.agent_id.as_deref(), session_key, text, hook)
                .ok_or_else(|| "the governance config is invalid".to_string())
        };
        let error = match catch_unwind(AssertUnwindSafe(run)) {
            Ok(Ok(result)) => return OutputReport::new(Ok(result)),
            Ok(Err(e)) => e,
            Err(_) => "internal error during output validation".to_string(),
        };
        self.failed(session_key, Some(hook), error)
    }

    /// `text` (the first `len` bytes) validated for `ctx`; a held report's code for JS.
    fn validate_utf8(&self, env: Env, text: &[u8], len: u32, ctx: &OutputContext) -> f64 {
        let (session_key, hook) = (ctx.session_key.as_deref(), ctx.hook.as_deref());
        let report = match text.get(..len as usize).map(std::str::from_utf8) {
            Some(Ok(text)) => self.validate(text, ctx),
            Some(Err(e)) => self.failed(session_key, hook, format!("text is not UTF-8: {e}")),
            None => self.failed(
                session_key,
                hook,
                format!(
                    "text length {len} is past its buffer ({} bytes)",
                    text.len()
                ),
            ),
        };
        // V8 is told how much native memory is held for it (and told again when it is let go):
        // otherwise it collects seldom, and held reports pile up until one long pause.
        let _ = env.adjust_external_memory(report.bytes);
        self.reports.hold(report)
    }

    /// Report `seq`, no longer held, and V8 told its memory is gone.
    fn let_go(&self, env: Env, seq: f64) -> Option<OutputReport> {
        let report = self.reports.take(seq)?;
        let _ = env.adjust_external_memory(-report.bytes);
        Some(report)
    }

    /// Output validation failed: audited, and the output passes (fail-open, seed 000 §15.2) or,
    /// with `failMode: closed`, is blocked.
    fn failed(&self, session_key: Option<&str>, hook: Option<&str>, error: String) -> OutputReport {
        let verdict = if self.core.fails_closed() {
            crate::output::OutputVerdict::Block
        } else {
            crate::output::OutputVerdict::Pass
        };
        self.failed_as((session_key, hook), error, verdict)
    }

    /// The same with the verdict given (a request too deeply nested to read is blocked).
    fn failed_as(
        &self,
        (session_key, hook): (Option<&str>, Option<&str>),
        error: String,
        verdict: crate::output::OutputVerdict,
    ) -> OutputReport {
        self.core
            .output_error(session_key, hook.unwrap_or("validate_output"), &error);
        OutputReport::new(Err(Failure { error, verdict }))
    }
}

/// JS error code for a rejected config; `index.js` attaches `details` from `validateConfig`.
pub struct ErrorCode(&'static str);

impl AsRef<str> for ErrorCode {
    fn as_ref(&self) -> &str {
        self.0
    }
}

fn map_error(e: EngineError) -> Error<ErrorCode> {
    match e {
        EngineError::Config(c) => Error::new(ErrorCode(crate::ConfigError::CODE), c.to_string()),
        EngineError::Audit(msg) => Error::new(ErrorCode("GOVERNANCE_AUDIT_UNAVAILABLE"), msg),
    }
}

#[napi(object)]
pub struct EngineOptionsJs {
    /// Base directory for `governance/` (audit, trust) unless the config sets `workspace`.
    pub state_dir: Option<String>,
    /// Throw on a bad config (default). With `false`, the engine follows `failMode` instead.
    pub strict: Option<bool>,
    /// Where the host's agents work and keep their config (the shim reads the host config).
    pub host: Option<HostPathsJs>,
}

/// The host paths guards resolve against: `~`, OpenClaw's state dir, agents' workspaces.
#[napi(object)]
pub struct HostPathsJs {
    pub home: Option<String>,
    pub openclaw_dir: Option<String>,
    /// Agent id → workspace (`agents.list[].workspace`).
    pub workspaces: Option<std::collections::HashMap<String, String>>,
    /// `agents.defaults.workspace`.
    pub default_workspace: Option<String>,
}

fn engine_options(options: Option<EngineOptionsJs>) -> EngineOptions {
    let Some(o) = options else {
        return EngineOptions::default();
    };
    let host = o.host.map(|h| crate::call::HostPaths {
        home: h.home,
        openclaw_dir: h.openclaw_dir,
        workspaces: h.workspaces.unwrap_or_default().into_iter().collect(),
        default_workspace: h.default_workspace,
    });
    EngineOptions {
        state_dir: o.state_dir.map(PathBuf::from),
        host: host.unwrap_or_default(),
    }
}

#[napi]
pub struct GovernanceEngine {
    core: Core,
    /// Output validations whose detail JS may still read.
    reports: reports::Reports,
    /// The host's model, once the shim has handed over `api.runtime.llm.complete`. Behind a
    /// lock rather than `&mut self`: napi refuses a `&mut self` call while an async method
    /// still borrows the engine, and a model call may be in flight at any time.
    host_llm: Mutex<Option<Arc<HostBackend>>>,
    /// Parked evaluations whose model answers are in, until JS finishes them (`finishPending`).
    answered: Arc<Mutex<HashMap<u64, (Request, Answers)>>>,
}

impl GovernanceEngine {
    /// The host-model backend, for the LLM client.
    pub(crate) fn host_backend(&self) -> Option<Arc<dyn crate::llm::Backend>> {
        let held = self.host_llm.lock().unwrap_or_else(PoisonError::into_inner);
        held.clone().map(|b| b as Arc<dyn crate::llm::Backend>)
    }
}

/// Who wrote an output and which hook saw it, as JS gave them.
#[derive(Default)]
struct OutputContext {
    agent_id: Option<String>,
    session_key: Option<String>,
    hook: Option<String>,
}

#[napi]
impl GovernanceEngine {
    #[napi(constructor)]
    pub fn new(config: Option<Value>, options: Option<EngineOptionsJs>) -> Result<Self, ErrorCode> {
        let config = config.unwrap_or_else(|| json!({}));
        let strict = options.as_ref().and_then(|o| o.strict).unwrap_or(true);
        let opts = engine_options(options);
        let built = catch_unwind(|| {
            if strict {
                Core::try_new(&config, &opts)
            } else {
                Ok(Core::new(&config, &opts))
            }
        });
        match built {
            Ok(Ok(core)) => Ok(GovernanceEngine {
                core,
                reports: Default::default(),
                host_llm: Mutex::new(None),
                answered: Arc::default(),
            }),
            Ok(Err(e)) => Err(map_error(e)),
            Err(_) => Err(Error::new(
                ErrorCode("GOVERNANCE_INTERNAL"),
                "engine construction panicked".to_string(),
            )),
        }
    }

    /// Every problem in a config as `[{path, message}]`; empty when it is valid.
    #[napi(catch_unwind)]
    pub fn validate_config(config: Value) -> Value {
        match crate::GovernanceConfig::resolve(&config) {
            Ok(_) => json!([]),
            Err(e) => serde_json::to_value(e.issues).unwrap_or_else(|_| json!([])),
        }
    }

    /// One evaluation, JSON in and out. Never throws: bad input and internal failures become
    /// the fail-mode verdict (closed: deny naming the error; open: allow, audited).
    #[napi]
    pub fn evaluate_json(&self, request: String) -> String {
        to_json(&self.verdict_of(&request))
    }

    /// `evaluateJson` for the `before_tool_call` hook: `null` for an allow that leaves the hook
    /// nothing to do (no model to wait for, no escalation, no log lines), which is most calls.
    /// The verdict is audited either way; what is saved is encoding it here and parsing it in
    /// JS, a third of the hook's time on an allowed call (README, performance).
    #[napi]
    pub fn evaluate_tool_call_json(&self, request: String) -> Option<String> {
        let verdict = self.verdict_of(&request);
        (!quiet_allow(&verdict)).then(|| to_json(&verdict))
    }

    /// Output validation (seed 000), synchronous for the host's `before_message_write`:
    /// `{agentId?, sessionKey?, text, hook?}` in, `{verdict, claims, factChecks, violations, …}` out.
    /// Never throws: unreadable input or an internal failure comes back with an `error`, passing
    /// (fail-open, §15.2) or, with `failMode: closed`, blocked.
    #[napi]
    pub fn validate_output_json(&self, request: String) -> String {
        #[derive(serde::Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct OutputRequest {
            agent_id: Option<String>,
            session_key: Option<String>,
            text: String,
            hook: Option<String>,
        }
        let report = match js_json::from_js::<OutputRequest>(&request) {
            Ok(r) => {
                let ctx = OutputContext {
                    agent_id: r.agent_id,
                    session_key: r.session_key,
                    hook: r.hook,
                };
                self.validate(&r.text, &ctx)
            }
            Err(e) if js_json::too_deep(&request) => self.failed_as(
                (None, None),
                format!("validation request nested too deeply to judge, blocked: {e}"),
                crate::output::OutputVerdict::Block,
            ),
            Err(e) => {
                let v = js_json::from_js::<Value>(&request).unwrap_or(Value::Null);
                self.failed(
                    v["sessionKey"].as_str(),
                    v["hook"].as_str(),
                    format!("unreadable validation request: {e}"),
                )
            }
        };
        report.detail_json()
    }

    /// The same validation with the text as UTF-8 (the first `len` bytes of `text`; `index.js`
    /// encodes into one reused buffer). Returns `sequence × 4 + verdict` (pass 0, flag 1,
    /// block 2); the detail stays here until `takeOutputDetail` or `releaseOutput`.
    #[napi]
    pub fn validate_output_utf8(
        &self,
        env: Env,
        text: Uint8ArraySlice,
        len: u32,
        agent_id: Option<String>,
        session_key: Option<String>,
        hook: Option<String>,
    ) -> f64 {
        let ctx = OutputContext {
            agent_id,
            session_key,
            hook,
        };
        self.validate_utf8(env, &text, len, &ctx)
    }

    /// The detail of validation `seq` as JSON, which lets it go (JS keeps the parsed copy).
    #[napi]
    pub fn take_output_detail(&self, env: Env, seq: f64) -> String {
        match self.let_go(env, seq) {
            Some(report) => report.detail_json(),
            None => json!({ "error": "the detail of this validation was already let go", "claims": [], "violations": [] })
                .to_string(),
        }
    }

    /// How many validations' detail is held for JS (read neither nor collected yet).
    #[napi]
    pub fn held_outputs(&self) -> u32 {
        self.reports.len() as u32
    }

    /// JS dropped validation `seq` without reading its detail.
    #[napi]
    pub fn release_output(&self, env: Env, seq: f64) {
        self.let_go(env, seq);
    }

    /// Adds or replaces (by id) one fact in registry `registryId` (typed or flat); returns its id.
    #[napi(catch_unwind)]
    pub fn update_fact(&self, registry_id: String, fact: Value) -> Result<String> {
        self.core
            .update_fact(&registry_id, &fact)
            .map_err(|e| Error::new(Status::InvalidArg, e))
    }

    /// One Trace-to-Facts bridge pass now; `null` when the bridge is not configured.
    #[napi(catch_unwind)]
    pub fn run_trace_bridge(&self) -> Value {
        self.core
            .run_trace_bridge()
            .and_then(|r| serde_json::to_value(r).ok())
            .unwrap_or(Value::Null)
    }

    /// What happened to a governed call (after_tool_call): `outcome` is success | error |
    /// blocked. The agent comes from the request's agentId, else from its session key.
    #[napi]
    pub fn record_outcome(&self, request: String, outcome: String) {
        let req: Request = js_json::from_js(&request).unwrap_or_default();
        let agent = crate::engine::resolve_agent(&req).to_string();
        let outcome = match outcome.as_str() {
            "success" => Outcome::Success,
            "blocked" => Outcome::Blocked,
            _ => Outcome::ToolError,
        };
        let _ = catch_unwind(AssertUnwindSafe(|| {
            self.core.record_outcome(&agent, outcome, Some(&req))
        }));
    }

    /// The host's answer to approval `id` (`onResolution`): allow-once | allow-always | deny |
    /// timeout | cancelled; `hostReason` is the host's own words when it gave any.
    #[napi(catch_unwind)]
    pub fn resolve_approval(
        &self,
        id: String,
        decision: String,
        host_reason: Option<String>,
    ) -> Result<()> {
        self.core
            .resolve_approval(&id, &decision, host_reason.as_deref())
            .map_err(|e| Error::new(Status::InvalidArg, e))
    }

    /// A tool's result entered its session (after_tool_call): the level recorded, or null when
    /// provenance is off. `content` is the result's text; only its SHA-256 is kept.
    #[napi(catch_unwind)]
    pub fn observe_tool_result(&self, request: String, content: Option<String>) -> Option<String> {
        let req: Request = js_json::from_js(&request).ok()?;
        let level = self.core.observe_tool_result(&req, content.as_deref())?;
        Some(level.as_str().to_string())
    }

    /// A run began (before_agent_run): who sent its prompt, or which session's work it carries.
    #[napi(catch_unwind)]
    pub fn observe_inbound(&self, inbound: Value) -> Option<String> {
        let inbound = serde_json::from_value(inbound).ok()?;
        let level = self.core.observe_inbound(&inbound)?;
        Some(level.as_str().to_string())
    }

    /// A model call began in `run_id` (model_call_started); its number in the run.
    #[napi(catch_unwind)]
    pub fn observe_model_call(&self, session_key: String, run_id: String) -> Option<u32> {
        self.core.observe_model_call(&session_key, &run_id)
    }

    /// A run ended (agent_end): its turn graph is finished (and persisted when a policy asks).
    #[napi(catch_unwind)]
    pub fn observe_run_end(
        &self,
        session_key: String,
        run_id: Option<String>,
        duration_ms: Option<f64>,
    ) {
        let duration = duration_ms.filter(|d| d.is_finite() && *d >= 0.0);
        self.core
            .observe_run_end(&session_key, run_id.as_deref(), duration.map(|d| d as i64));
    }

    /// The session's turn graphs (`{ sessionKey, taint, current, recent }`), or null when
    /// provenance is off.
    #[napi(catch_unwind)]
    pub fn provenance_graph(&self, session_key: String) -> Value {
        self.core
            .provenance_graph(&session_key)
            .unwrap_or(Value::Null)
    }

    /// The session's context was replaced (a reset, not a compaction): its taint is gone.
    #[napi(catch_unwind)]
    pub fn reset_provenance(&self, session_key: String) -> bool {
        self.core.reset_provenance(&session_key)
    }

    /// The tools of `offered` the model may see when a run of the session starts, or null when
    /// no `remove_tools` policy holds (before_prompt_build → toolsAllow).
    #[napi(catch_unwind)]
    pub fn provenance_tools_allowed(
        &self,
        session_key: String,
        offered: Vec<String>,
    ) -> Option<Vec<String>> {
        self.core.tools_allowed(&session_key, &offered)
    }

    /// What the session's context holds: `{ sources: [...], more }`, or null.
    #[napi(catch_unwind)]
    pub fn session_taint(&self, session_key: String) -> Value {
        self.core
            .session_taint(&session_key)
            .and_then(|t| serde_json::to_value(t).ok())
            .unwrap_or(Value::Null)
    }

    #[napi(catch_unwind)]
    pub fn observe_message(&self, session_key: String, text: String) {
        self.core.observe_message(&session_key, &text);
    }

    #[napi(catch_unwind)]
    pub fn end_session(&self, session_key: String) {
        self.core.end_session(&session_key);
    }

    #[napi(catch_unwind)]
    pub fn prompt_context(&self, agent_id: String, session_key: Option<String>) -> String {
        let session = session_key.unwrap_or_else(|| format!("agent:{agent_id}:main"));
        self.core
            .prompt_context(&agent_id, &session, crate::time::now_ms())
    }

    #[napi(catch_unwind)]
    pub fn get_status(&self) -> Value {
        serde_json::to_value(self.core.status()).unwrap_or(Value::Null)
    }

    /// One agent's trust (with the ceiling its ancestors set when `sessionKey` names a
    /// sub-agent session), or every known agent's when `agentId` is omitted.
    #[napi(catch_unwind)]
    pub fn get_trust(&self, agent_id: Option<String>, session_key: Option<String>) -> Value {
        match agent_id {
            Some(id) => self
                .core
                .trust_view(&id, session_key.as_deref())
                .unwrap_or(Value::Null),
            None => {
                let agents: Vec<Value> = self
                    .core
                    .known_agents()
                    .iter()
                    .filter_map(|id| self.core.trust_view(id, None))
                    .collect();
                json!({ "agents": agents })
            }
        }
    }

    /// Operator trust change: `op` is set | lock | unlock | floor | reset; `value` the score or
    /// tier; `by` who asked (recorded in the audit trail).
    #[napi(catch_unwind)]
    pub fn set_trust(
        &self,
        agent_id: String,
        op: String,
        value: Option<String>,
        by: String,
    ) -> Result<Value> {
        let change = operator_change(&op, value.as_deref())
            .map_err(|e| Error::new(Status::InvalidArg, e))?;
        let result = self
            .core
            .trust_operate(&agent_id, &change, &by)
            .map_err(Error::from_reason)?;
        serde_json::to_value(result).map_err(|e| Error::from_reason(e.to_string()))
    }

    /// From `subagent_spawned`: `childSessionKey` was spawned by `requesterSessionKey`.
    #[napi(catch_unwind)]
    pub fn register_subagent(
        &self,
        child_session_key: String,
        requester_session_key: String,
        child_agent_id: Option<String>,
    ) {
        self.core.register_subagent(
            &child_session_key,
            &requester_session_key,
            child_agent_id.as_deref(),
        );
    }

    /// From `subagent_ended` / `session_end`.
    #[napi(catch_unwind)]
    pub fn end_subagent(&self, child_session_key: String) {
        self.core.end_subagent(&child_session_key);
    }

    /// Which policies bind an agent or session (own, inherited from whom, global), its trust
    /// and ceiling, and with `tool` which rule would decide that call and why (a dry run).
    #[napi(catch_unwind)]
    pub fn explain(
        &self,
        who: String,
        tool: Option<String>,
        params: Option<Value>,
    ) -> Result<Value> {
        let params = params.and_then(|p| p.as_object().cloned());
        self.core
            .explain(&who, tool.as_deref(), params)
            .map_err(Error::from_reason)
    }

    #[napi(catch_unwind)]
    pub fn agent_graph(&self) -> Value {
        self.core.agent_graph()
    }
    #[napi(catch_unwind)]
    pub fn take_logs(&self) -> Value {
        serde_json::to_value(self.core.take_logs()).unwrap_or(Value::Null)
    }

    /// Records of this engine's trail matching `filter` (agent, session, from, to, verdict,
    /// policy, rule, risk, hook, category, limit).
    #[napi(catch_unwind)]
    pub fn audit_query(&self, filter: Option<Value>) -> Result<Value> {
        let filter = parse_filter(filter)?;
        let records = self.core.audit_query(&filter).map_err(audit_error)?;
        Ok(Value::Array(records))
    }

    /// Verifies this engine's trail against its own signing key.
    #[napi(catch_unwind)]
    pub fn audit_verify(&self) -> Result<Value> {
        let report = self.core.audit_verify().map_err(audit_error)?;
        serde_json::to_value(report).map_err(|e| audit_error(e.to_string()))
    }

    /// Waits until every queued audit record is on disk.
    #[napi(catch_unwind)]
    pub fn flush(&self) -> Result<()> {
        self.core.flush().map_err(Error::from_reason)
    }

    /// Flushes and signs a checkpoint covering every record so far.
    #[napi(catch_unwind)]
    pub fn checkpoint(&self) -> Result<()> {
        self.core.checkpoint().map_err(Error::from_reason)
    }

    /// The plugin config was edited while the host runs: take `config` (and `options.stateDir`)
    /// from now on, keeping trust, the agent graph, rate windows, pending approvals and the
    /// audit chain. A config that does not resolve follows its failMode, as at construction.
    #[napi]
    pub fn reconfigure(&mut self, config: Option<Value>, options: Option<EngineOptionsJs>) {
        let config = config.unwrap_or_else(|| json!({}));
        let opts = engine_options(options);
        let core = &mut self.core;
        if catch_unwind(AssertUnwindSafe(|| core.reconfigure(&config, &opts))).is_err() {
            self.core.log(
                "error",
                "internal error while taking the edited config".into(),
            );
        }
    }

    /// The host's own model: `complete` wraps `api.runtime.llm.complete`, gets one JSON string
    /// `{system, user, maxTokens, model, purpose}` and resolves with the model's text. Replaces
    /// any earlier function; calls already in flight keep the one they started with.
    #[napi(ts_args_type = "complete: (request: string) => Promise<string>")]
    pub fn set_host_llm(&self, complete: host_llm::HostFn) {
        let backend = Arc::new(HostBackend::new(complete));
        self.core.set_host_llm(backend.clone());
        *self.host_llm.lock().unwrap_or_else(PoisonError::into_inner) = Some(backend);
    }

    /// Asks the model the questions of a verdict that came back with `pending`; resolves once
    /// the answers are in (never rejects for a model failure: that is an answer too). Then
    /// `finishPending` evaluates the call again on the JS thread and records it.
    // Not an `async fn(&self)`: the engine would stay borrowed until the model answers.
    #[napi(ts_return_type = "Promise<void>")]
    pub fn ask_pending<'env>(&self, env: &'env Env, pending: u32) -> Result<PromiseRaw<'env, ()>> {
        let job = self.core.take_job(u64::from(pending));
        let answered = self.answered.clone();
        env.spawn_future(async move {
            let job = job.ok_or_else(|| {
                Error::from_reason(format!("no evaluation {pending} waits for a model"))
            })?;
            let done = job.ask().await;
            answered
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .insert(u64::from(pending), done);
            Ok(())
        })
    }

    /// The verdict of a call whose model answers are in (`askPending`), as `evaluateJson`.
    #[napi]
    pub fn finish_pending(&self, pending: u32) -> Result<String> {
        let taken = self
            .answered
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&u64::from(pending));
        let (req, answers) = taken.ok_or_else(|| {
            Error::from_reason(format!(
                "evaluation {pending} has no answers to finish with"
            ))
        })?;
        let verdict = catch_unwind(AssertUnwindSafe(|| self.core.finish_job(&req, answers)))
            .map_err(|_| Error::from_reason("internal error during evaluation"))?;
        Ok(to_json(&verdict))
    }

    /// One completion through the host's model, for operators and CI to check it is reachable
    /// (`openclaw-governance llm probe`). `request` is JSON `{system?, user?, maxTokens?, model?,
    /// timeoutMs?}` (defaults ask for "OK" within 30 s); resolves with the model's text.
    // Not an `async fn(&self)`: napi would hold a borrow of the engine until the model answers,
    // and `reconfigure`/`close` (`&mut self`) would throw meanwhile. The future owns what it
    // needs instead.
    #[napi(ts_return_type = "Promise<string>")]
    pub fn probe_host_llm<'env>(
        &self,
        env: &'env Env,
        request: String,
    ) -> Result<PromiseRaw<'env, String>> {
        let backend = self.host_backend();
        env.spawn_future(async move {
            let (completion, timeout) =
                host_llm::probe_request(&request).map_err(|e| Error::new(Status::InvalidArg, e))?;
            let backend = backend
                .ok_or_else(|| Error::from_reason("no host model: setHostLlm was not called"))?;
            host_llm::probe(backend, completion, timeout)
                .await
                .map_err(|e| Error::from_reason(e.to_string()))
        })
    }

    #[napi(catch_unwind)]
    pub fn close(&mut self) -> Result<()> {
        self.core.close().map_err(Error::from_reason)
    }
}

fn operator_change(op: &str, value: Option<&str>) -> std::result::Result<OperatorChange, String> {
    let score = || -> std::result::Result<f64, String> {
        let v = value.ok_or_else(|| format!("{op} needs a score 0–100"))?;
        v.parse::<f64>()
            .ok()
            .filter(|s| (0.0..=100.0).contains(s))
            .ok_or_else(|| format!("{op}: \"{v}\" is not a score 0–100"))
    };
    Ok(match op {
        "set" => OperatorChange::SetScore(score()?),
        "floor" => OperatorChange::Floor(score()?),
        "lock" => {
            let v = value.ok_or("lock needs a tier")?;
            let tier = TrustTier::parse(v).ok_or_else(|| {
                format!(
                    "lock: unknown tier \"{v}\" (known: {})",
                    TrustTier::NAMES.join(", ")
                )
            })?;
            OperatorChange::LockTier(tier)
        }
        "unlock" => OperatorChange::Unlock,
        "reset" => OperatorChange::ResetHistory,
        other => {
            return Err(format!(
                "unknown trust operation \"{other}\" (set, lock, unlock, floor, reset)"
            ))
        }
    })
}

fn audit_error(msg: String) -> Error {
    Error::new(Status::GenericFailure, msg)
}

fn parse_filter(filter: Option<Value>) -> Result<Filter> {
    let filter: Filter = serde_json::from_value(filter.unwrap_or_else(|| json!({})))
        .map_err(|e| Error::new(Status::InvalidArg, format!("audit filter: {e}")))?;
    filter
        .validate()
        .map_err(|e| Error::new(Status::InvalidArg, format!("audit filter: {e}")))?;
    Ok(filter)
}

fn read_dir(dir: &str) -> Result<LogData> {
    LogData::read(std::path::Path::new(dir)).map_err(audit_error)
}

/// How `auditVerifyDir` verifies beyond the defaults.
#[napi(object)]
pub struct VerifyOptionsJs {
    /// Records after the newest checkpoint are counted, not a failure (a live log).
    pub allow_tail: Option<bool>,
    /// A signed checkpoint note saved earlier: the log must extend it.
    pub since: Option<String>,
    /// Witness keys (`<name>+<hash>+<base64>`): each must have cosigned this log.
    pub witnesses: Option<Vec<String>>,
}

/// Verifies an audit directory; with `publicKey` (pinned by the auditor) checkpoint signatures too.
#[napi(catch_unwind)]
pub fn audit_verify_dir(
    dir: String,
    public_key: Option<String>,
    options: Option<VerifyOptionsJs>,
) -> Result<Value> {
    let key = public_key
        .map(|k| VerifierKey::parse(&k))
        .transpose()
        .map_err(|e| audit_error(format!("public key: {e}")))?;
    let options = options.unwrap_or(VerifyOptionsJs {
        allow_tail: None,
        since: None,
        witnesses: None,
    });
    let witnesses = options
        .witnesses
        .iter()
        .flatten()
        .map(|w| WitnessKey::parse(w).map_err(|e| invalid_arg(format!("witness key {w}: {e}"))))
        .collect::<Result<Vec<_>>>()?;
    let opts = verify::Options {
        key: key.as_ref(),
        coverage: match options.allow_tail {
            Some(true) => verify::Coverage::AllowTail,
            _ => verify::Coverage::Full,
        },
        since: options.since.as_deref(),
        witnesses: &witnesses,
    };
    let report = verify::verify_with(&read_dir(&dir)?, &opts);
    serde_json::to_value(report).map_err(|e| audit_error(e.to_string()))
}

#[napi(catch_unwind)]
pub fn audit_query_dir(dir: String, filter: Option<Value>) -> Result<Value> {
    let filter = parse_filter(filter)?;
    Ok(Value::Array(query::query(&read_dir(&dir)?, &filter)))
}

/// `format`: `json` (JSON lines) or `csv`.
#[napi(catch_unwind)]
pub fn audit_export_dir(dir: String, filter: Option<Value>, format: String) -> Result<String> {
    let records = query::query(&read_dir(&dir)?, &parse_filter(filter)?);
    match format.as_str() {
        "json" => Ok(query::to_json_lines(&records)),
        "csv" => Ok(query::to_csv(&records)),
        other => Err(Error::new(
            Status::InvalidArg,
            format!("format must be json or csv, got {other}"),
        )),
    }
}

#[napi(catch_unwind)]
pub fn audit_prove_dir(dir: String, seq: f64) -> Result<Value> {
    if seq < 0.0 || seq.fract() != 0.0 {
        return Err(Error::new(
            Status::InvalidArg,
            "seq must be a whole number ≥ 0".to_string(),
        ));
    }
    prove::prove(&read_dir(&dir)?, seq as u64).map_err(audit_error)
}

/// The consistency proof between two signed checkpoint notes of the log in `dir`.
#[napi(catch_unwind)]
pub fn audit_consistency_dir(
    dir: String,
    old_note: String,
    new_note: String,
    public_key: Option<String>,
) -> Result<Value> {
    let key = public_key
        .map(|k| VerifierKey::parse(&k))
        .transpose()
        .map_err(|e| audit_error(format!("public key: {e}")))?;
    crate::audit::consistency::consistency(&read_dir(&dir)?, &old_note, &new_note, key.as_ref())
        .map_err(audit_error)
}

/// The newest signed checkpoint note of the log in `dir`, as written (for an auditor to keep).
#[napi(catch_unwind)]
pub fn audit_newest_checkpoint(dir: String) -> Result<Option<String>> {
    let data = read_dir(&dir)?;
    let notes = crate::audit::checkpoint::parse_notes(&data.checkpoints).map_err(audit_error)?;
    Ok(notes.last().map(|n| n.text()))
}

/// The verifier key of an existing signing key file (never creates one).
#[napi(catch_unwind)]
pub fn audit_public_key(key_file: String) -> Result<String> {
    SignerKey::load(std::path::Path::new(&key_file))
        .map(|k| k.public_key())
        .map_err(audit_error)
}

fn invalid_arg(msg: String) -> Error {
    Error::new(Status::InvalidArg, msg)
}

/// How `auditWitnessDir` runs beyond the defaults.
#[napi(object)]
pub struct WitnessOptionsJs {
    /// The log's public key; needed on the first run (it is pinned), checked on later ones.
    pub public_key: Option<String>,
    /// The witness's name when its key is created (a schema-less URL, say).
    pub name: Option<String>,
}

/// A refusal (the log was shown and found wanting) is told apart from a witness that could
/// not run by its code, so a caller never mistakes one for the other.
fn witness_error(e: WitnessError) -> Error<ErrorCode> {
    let code = match e.is_refusal() {
        true => "GOVERNANCE_WITNESS_REFUSED",
        false => "GOVERNANCE_WITNESS_FAILED",
    };
    Error::new(ErrorCode(code), e.to_string())
}

/// Cosigns the checkpoints in `dir` that extend what the witness keyed by `keyFile` (created
/// on first use) cosigned before, appending to `dir/cosignatures`.
#[napi(catch_unwind)]
pub fn audit_witness_dir(
    dir: String,
    key_file: String,
    options: Option<WitnessOptionsJs>,
) -> std::result::Result<Value, Error<ErrorCode>> {
    let (public_key, name) = options.map_or((None, None), |o| (o.public_key, o.name));
    let log_key = public_key
        .map(|k| VerifierKey::parse(&k))
        .transpose()
        .map_err(|e| {
            Error::new(
                ErrorCode("GOVERNANCE_WITNESS_FAILED"),
                format!("log public key: {e}"),
            )
        })?;
    let now = u64::try_from(crate::time::now_ms() / 1000).unwrap_or(0);
    let path = std::path::Path::new(&key_file);
    let report = witness::witness(
        std::path::Path::new(&dir),
        path,
        log_key,
        name.as_deref(),
        now,
    )
    .map_err(witness_error)?;
    serde_json::to_value(report)
        .map_err(|e| Error::new(ErrorCode("GOVERNANCE_WITNESS_FAILED"), e.to_string()))
}

/// The verifier key of an existing witness key file (never creates one).
#[napi(catch_unwind)]
pub fn audit_witness_public_key(key_file: String) -> Result<String> {
    CosignerKey::load(std::path::Path::new(&key_file))
        .map(|k| k.vkey())
        .map_err(audit_error)
}

/// An allow the `before_tool_call` hook turns into nothing: no model question pending, no
/// approval to ask for, no log line to forward.
fn quiet_allow(v: &Verdict) -> bool {
    v.action == crate::policy::model::Action::Allow && v.pending.is_none() && v.logs.is_empty()
}

fn to_json(v: &Verdict) -> String {
    serde_json::to_string(v).unwrap_or_else(|e| {
        json!({ "action": "deny", "reason": format!("governance could not encode its verdict: {e}"), "error": "encode" }).to_string()
    })
}
