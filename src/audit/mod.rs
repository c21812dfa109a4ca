//! Audit trail: every evaluation of an enforcement hook becomes a redacted, hash-linked JSONL
//! record written off the hot path. Verification, checkpoints and queries build on this.

mod chain;
pub mod checkpoint;
pub mod consistency;
pub mod line;
pub mod merkle;
pub mod prove;
pub mod query;
pub mod record;
pub mod recovery;
pub mod redact;
pub mod store;
pub mod tail;
pub mod verify;
pub mod witness;
pub mod writer;

pub use record::{
    controls_for, iso_millis, AuditContext, AuditRecord, AuditVerdict, MatchedPolicy, RiskSummary,
};
pub use writer::{AuditWriter, WriterOptions};
