//! The model the engine asks where patterns end (seed 002 §4.13, seed 001, NORMATIVE N8): intent
//! conditions and the external-communication gate.
//!
//! ```text
//! engine ──Question──▶ client (cache, maxConcurrent, timeout, counts) ──Completion──▶ Backend
//!                                                                 host: api.runtime.llm.complete
//!                                                                 openai: an OpenAI-compatible endpoint
//!        ◀──Answer── answer (exactly one JSON object of the asked shape, not a parroted copy)
//! ```
//!
//! Only a call that needs the model waits: the engine asks the cache synchronously and hands
//! the rest to the client, whose future the binding awaits off the JS thread.

pub mod answer;
pub mod cache;
pub mod client;
pub mod openai;
pub mod prompt;

use std::future::Future;
use std::pin::Pin;

/// One request to a model: a system message (the instructions) and a user message (the judged
/// material, fenced as data).
#[derive(Debug, Clone, PartialEq)]
pub struct Completion {
    pub system: String,
    pub user: String,
    pub max_tokens: u32,
    /// A model other than the backend's own (the host honours it only with the operator's
    /// `plugins.entries.<id>.llm.allowModelOverride`).
    pub model: Option<String>,
    /// What the call is for, as the host's `purpose` field and the audit record name it.
    pub purpose: &'static str,
}

/// Why a model gave no usable answer. Messages never carry the API key or the prompt.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LlmError {
    #[error("no answer within {0} ms")]
    Timeout(u64),
    #[error("{0}")]
    Backend(String),
    #[error("answer rejected: {0}")]
    Rejected(String),
    /// The answer's deciding value was already written in the judged content: whatever the
    /// model meant, the content tried to answer for it.
    #[error("the judged content carries a planted answer")]
    Planted,
}

pub type CompletionFuture = Pin<Box<dyn Future<Output = Result<Reply, LlmError>> + Send>>;

/// A model's answer: its text, and the model that wrote it when the backend learns that only
/// from the answer (the host's `llm.complete` names the model it chose).
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    pub text: String,
    pub model: Option<String>,
}

impl From<String> for Reply {
    fn from(text: String) -> Reply {
        Reply { text, model: None }
    }
}

/// Where completions come from. The client owns caching, the concurrency bound and the timeout;
/// a backend only turns one completion into the model's text.
pub trait Backend: Send + Sync {
    /// `host` or `openai`, for status and audit records.
    fn name(&self) -> &'static str;
    /// The model asked, when the backend knows it before the call.
    fn model(&self) -> Option<String>;
    fn complete(&self, c: Completion) -> CompletionFuture;
}
