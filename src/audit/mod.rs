//! Audit trail: every evaluation of an enforcement hook becomes a redacted, hash-linked JSONL
//! record written off the hot path. Verification, checkpoints and queries build on this.

pub mod record;
pub mod redact;
pub mod writer;

pub use record::{
    controls_for, iso_millis, AuditContext, AuditRecord, AuditVerdict, MatchedPolicy, RiskSummary,
};
pub use writer::{AuditWriter, WriterOptions};
