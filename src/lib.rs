//! Governance for AI agents in the OpenClaw gateway.
//!
//! Data flow of one tool call (`before_tool_call`):
//!
//! ```text
//! shim (plugin.js) ──JSON──▶ napi::GovernanceEngine ──▶ engine::GovernanceEngine::evaluate
//!   context   facts of the request (agent, session, params, local time)
//!   trust     score and tier of the agent
//!   risk      five-factor score
//!   policy    index (by hook and agent, pre-sorted) → deny-wins evaluator → conditions
//!   guards    builtin guards and `command` conditions read what the call would do, worked
//!             out on first use: call (view of the tool call) ← shell (scripts as bash runs
//!             them, with the files the session's earlier calls wrote: written) + paths
//!             (resolved as the host opens them, protected sets as globs)
//!   provenance  the session's taint (what its context read, seed 004) for `taint` conditions,
//!             then provenance policies deny the tools they name (deny wins)
//!   verdict   allow | deny | escalate (+ the host's requireApproval fields)
//!   written   what the call writes into files, kept for a later call that runs one; typed:
//!             a line typed into a background shell and not yet ended, for the call that ends it
//!   audit     redacted, hash-linked JSONL record, written by a background thread
//! ```
//!
//! Output validation (`before_message_write`, synchronous; `engine::validation`, `output`):
//!
//! ```text
//! shim ──text──▶ napi::validate_output_text ──▶ engine::GovernanceEngine::validate_output
//!   lineage   the agent's trust, capped by its ancestors → profile (seed 000 §9.2)
//!   scan      sentences, anchor words, hedges: one pass over the words (output::scan)
//!   claims    each builtin regex only on sentences holding its anchors; groups read off the
//!             match (output::split); custom detectors by capture pass
//!   facts     (category, subject) lookups in the registries in force → confirmed | contradicted | …
//!   verdict   pass | flag | block; the detail stays native until JS reads it
//!   audit     output_pass | output_flag | output_block, matched segments only
//! ```
//!
//! Provenance (`after_tool_call`, `before_agent_run`, sub-agent and session hooks; `provenance`):
//!
//! ```text
//! shim ──▶ engine::provenance::observe_* ──▶ classify (tool, params, toolTrust → level)
//!   taint     per session: the first source of each level, lowest first; persisted; reset clears
//! ```
//!
//! Everything but [`napi`] is plain Rust and tested with `cargo test`.

pub mod approvals;
pub mod audit;
pub mod call;
pub mod code;
pub mod config;
pub mod context;
pub mod conversation;
pub mod cross_agent;
pub mod engine;
pub mod frequency;
pub mod guards;
pub mod links;
pub mod llm;
pub mod lockfile;
pub mod output;
pub mod paths;
pub mod policy;
pub mod private_file;
pub mod provenance;
pub mod recency;
pub mod risk;
pub mod shell;
pub mod time;
pub mod trust;
pub mod typed;
pub mod verdict;
pub mod written;

#[cfg(feature = "node")]
pub mod napi;

pub use config::{ConfigError, ConfigIssue, GovernanceConfig};
pub use context::Request;
pub use engine::{EngineError, EngineOptions, GovernanceEngine};
pub use verdict::Verdict;
