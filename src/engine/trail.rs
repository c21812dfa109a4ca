//! The engine's own audit trail, read back for operators (gateway methods, commands).

use super::GovernanceEngine;
use crate::audit::checkpoint::VerifierKey;
use crate::audit::query::{self, Filter};
use crate::audit::store::LogData;
use crate::audit::verify::{self, VerifyReport};
use serde_json::Value;

impl GovernanceEngine {
    fn trail(&self) -> Result<(LogData, &crate::audit::AuditWriter), String> {
        let writer = self
            .audit
            .as_ref()
            .ok_or("the audit trail is disabled for this engine")?;
        // Everything queued is on disk and every file ends on a line boundary.
        writer.flush()?;
        Ok((LogData::read(&writer.dir)?, writer))
    }

    pub fn audit_query(&self, filter: &Filter) -> Result<Vec<Value>, String> {
        filter.validate()?;
        let (data, _) = self.trail()?;
        Ok(query::query(&data, filter))
    }

    /// Verifies the log against this engine's own signing key. The log is live, so records
    /// after the newest checkpoint (all of them before the first) are counted as `uncovered`.
    pub fn audit_verify(&self) -> Result<VerifyReport, String> {
        let (data, writer) = self.trail()?;
        let key = VerifierKey::parse(&writer.public_key)?;
        let opts = verify::Options {
            key: Some(&key),
            coverage: verify::Coverage::Live,
            since: None,
            witnesses: &[],
        };
        Ok(verify::verify_with(&data, &opts))
    }
}
