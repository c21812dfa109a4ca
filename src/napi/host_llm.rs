//! The host's own model as a [`Backend`]: the shim hands `setHostLlm` a JS function wrapping
//! `api.runtime.llm.complete`, and a completion calls it from napi's tokio runtime.
//!
//! ```text
//! tokio task ──JSON request──▶ ThreadsafeFunction (weak) ──▶ JS fn on the JS thread
//!            ◀──text, model─── Promise settled ◀──────────── api.runtime.llm.complete
//! ```
//!
//! The answer arrives through the JS event loop, so a host completion must never be waited for
//! on the JS thread itself (a `block_on` there would wait forever).

use crate::llm::{Backend, Completion, CompletionFuture, LlmError, Reply};
use napi::bindgen_prelude::*;
use napi::threadsafe_function::ThreadsafeFunction;
use napi::JsValue;
use serde::Deserialize;
use std::sync::Arc;
use std::time::Duration;

/// The shim's function, `(request: string) => Promise<{text, model} | string>`, callable from
/// any thread.
/// `CalleeHandled = false`: it gets the request alone, not Node's error-first `(err, request)`.
/// `Weak = true`: holding it does not keep the process alive (the gateway and tests must exit
/// while an engine still holds the function).
pub type HostFn = ThreadsafeFunction<String, HostReply, String, Status, false, true>;

/// What the host function returned, read on the JS thread: a Promise (whose settling is then
/// awaited from Rust) or, from a synchronous shim, the answer itself.
pub enum HostReply {
    Pending(Promise<HostAnswer>),
    Ready(HostAnswer),
}

impl FromNapiValue for HostReply {
    unsafe fn from_napi_value(env: sys::napi_env, value: sys::napi_value) -> Result<Self> {
        let unknown = Unknown::from_raw_unchecked(env, value);
        // Only a real Promise: calling a thenable's own `then` would run whatever it does.
        if unknown.get_type()? == ValueType::Object && unknown.is_promise()? {
            return Promise::from_napi_value(env, value).map(HostReply::Pending);
        }
        HostAnswer::from_napi_value(env, value).map(HostReply::Ready)
    }
}

/// An answer of the host's: the text, or `llm.complete`'s own result `{text, model, …}`, which
/// the shim hands on so audit records name the model the host chose (only the host knows it).
pub struct HostAnswer {
    text: String,
    model: Option<String>,
}

impl FromNapiValue for HostAnswer {
    unsafe fn from_napi_value(env: sys::napi_env, value: sys::napi_value) -> Result<Self> {
        let unknown = Unknown::from_raw_unchecked(env, value);
        let not_text = |what: ValueType| {
            Error::new(
                Status::InvalidArg,
                format!(
                    "the host model function returned {what:?}, not a text, {{text, model}} or a Promise of one"
                ),
            )
        };
        match unknown.get_type()? {
            ValueType::String => Ok(HostAnswer {
                text: String::from_napi_value(env, value)?,
                model: None,
            }),
            ValueType::Object => {
                let answer = Object::from_napi_value(env, value)?;
                let text: Unknown = answer.get_named_property("text")?;
                if text.get_type()? != ValueType::String {
                    return Err(not_text(text.get_type()?));
                }
                // A model name that is not a string is left out rather than failing the answer.
                let model: Unknown = answer.get_named_property("model")?;
                let model = match model.get_type()? {
                    ValueType::String => Some(String::from_napi_value(env, model.raw())?),
                    _ => None,
                };
                Ok(HostAnswer {
                    text: String::from_napi_value(env, text.raw())?,
                    model,
                })
            }
            other => Err(not_text(other)),
        }
    }
}

impl From<HostAnswer> for Reply {
    fn from(a: HostAnswer) -> Reply {
        Reply {
            text: a.text,
            model: a.model,
        }
    }
}

/// Completions through the host's `api.runtime.llm.complete`.
pub struct HostBackend {
    call: Arc<HostFn>,
}

impl HostBackend {
    pub fn new(call: HostFn) -> Self {
        HostBackend {
            call: Arc::new(call),
        }
    }
}

impl Backend for HostBackend {
    fn name(&self) -> &'static str {
        "host"
    }

    /// The host's configured model, which only the host knows.
    fn model(&self) -> Option<String> {
        None
    }

    fn complete(&self, c: Completion) -> CompletionFuture {
        let call = Arc::clone(&self.call);
        Box::pin(async move {
            // call_async_catch, not call_async: with CalleeHandled = false, call_async turns a
            // JS throw into napi_fatal_exception, which ends the gateway.
            let reply = call
                .call_async_catch(request_json(&c))
                .await
                .map_err(backend_error)?;
            let answer = match reply {
                HostReply::Ready(answer) => answer,
                HostReply::Pending(promise) => promise.await.map_err(backend_error)?,
            };
            Ok(answer.into())
        })
    }
}

/// The one argument the host function gets; the shim maps it onto `llm.complete`'s messages.
fn request_json(c: &Completion) -> String {
    serde_json::json!({
        "system": c.system,
        "user": c.user,
        "maxTokens": c.max_tokens,
        "model": c.model,
        "purpose": c.purpose,
    })
    .to_string()
}

/// Longest error text kept from the host: its errors go into audit records and status.
const MAX_ERROR_BYTES: usize = 512;

fn backend_error(e: Error) -> LlmError {
    let mut reason = e.reason.trim().to_string();
    if reason.is_empty() {
        reason = format!("the host model call failed ({})", e.status);
    } else if reason.len() > MAX_ERROR_BYTES {
        let cut = (0..=MAX_ERROR_BYTES)
            .rev()
            .find(|&i| reason.is_char_boundary(i))
            .unwrap_or(0);
        reason.truncate(cut);
        reason.push('…');
    }
    LlmError::Backend(reason)
}

/// `probeHostLlm`'s request. Every field has a default so `probeHostLlm("{}")` is the check.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ProbeRequest {
    #[serde(default = "default_system")]
    system: String,
    #[serde(default = "default_user")]
    user: String,
    #[serde(default = "default_max_tokens")]
    max_tokens: u32,
    model: Option<String>,
    #[serde(default = "default_timeout_ms")]
    timeout_ms: u64,
}

fn default_system() -> String {
    "This is a connectivity check. Reply with the single word OK.".into()
}
fn default_user() -> String {
    "OK?".into()
}
fn default_max_tokens() -> u32 {
    16
}
/// Long enough for a cold model, short enough that a hung host does not hold the CLI forever.
fn default_timeout_ms() -> u64 {
    30_000
}

/// Reads a probe request; the error says what was wrong with it.
pub fn probe_request(json: &str) -> std::result::Result<(Completion, Duration), String> {
    let r: ProbeRequest =
        super::js_json::from_js(json).map_err(|e| format!("probe request: {e}"))?;
    if r.max_tokens == 0 || r.timeout_ms == 0 {
        return Err("probe request: maxTokens and timeoutMs must be at least 1".into());
    }
    let completion = Completion {
        system: r.system,
        user: r.user,
        max_tokens: r.max_tokens,
        model: r.model,
        // Fixed: `purpose` is `&'static str` in the core, and a probe is only ever a probe.
        purpose: "probe",
    };
    Ok((completion, Duration::from_millis(r.timeout_ms)))
}

/// One completion through `backend`, bounded by `timeout`. Runs on napi's tokio runtime, whose
/// timer the timeout needs.
pub async fn probe(
    backend: Arc<dyn Backend>,
    c: Completion,
    timeout: Duration,
) -> std::result::Result<String, LlmError> {
    match tokio::time::timeout(timeout, backend.complete(c)).await {
        Ok(answer) => answer.map(|reply| reply.text),
        Err(_) => Err(LlmError::Timeout(timeout.as_millis() as u64)),
    }
}
