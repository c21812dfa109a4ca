//! What the host reports back (outcomes, approvals, messages, session ends) and shutdown.

use super::{GovernanceEngine, Mode};
use crate::context::Request;
use crate::time::now_ms;
use crate::trust::{ActionFingerprint, Outcome};

impl GovernanceEngine {
    /// The host reports what happened to a governed call (after_tool_call): success, a tool
    /// error, or its echo of a block (counted when the verdict was given, not again).
    pub fn record_outcome(&self, agent_id: &str, outcome: Outcome, req: Option<&Request>) {
        let Mode::Ready(core) = &self.mode else {
            return;
        };
        if matches!(outcome, Outcome::Success | Outcome::ToolError) {
            let session_key = req.and_then(|r| r.session_key.as_deref()).unwrap_or("");
            // The same call again earns nothing more (trust/credit.rs).
            let action = req.and_then(|r| {
                let tool = r.tool_name.as_deref()?;
                Some(ActionFingerprint::of(tool, r.params.as_ref()))
            });
            self.record_trust(core, (agent_id, session_key), outcome, action, now_ms());
        }
    }

    pub fn observe_message(&self, session_key: &str, text: &str) {
        if let Mode::Ready(core) = &self.mode {
            core.live.conversations.observe(session_key, text);
        }
    }

    pub fn end_session(&self, session_key: &str) {
        if let Mode::Ready(core) = &self.mode {
            core.live.conversations.forget(session_key);
        }
    }

    pub fn known_agents(&self) -> Vec<String> {
        match &self.mode {
            Mode::Ready(core) => core.live.trust.known_agents(),
            Mode::Invalid { .. } => Vec::new(),
        }
    }

    /// Audit records and trust state on disk.
    pub fn flush(&self) -> Result<(), String> {
        let audit = self.audit.as_ref().map_or(Ok(()), |w| w.flush());
        audit.and(self.flush_live())
    }

    /// Trust state on disk, audit flushed and signed (host shutdown, operator request).
    pub fn checkpoint(&self) -> Result<(), String> {
        let live = self.flush_live();
        self.audit
            .as_ref()
            .map_or(Ok(()), |w| w.checkpoint())
            .and(live)
    }

    fn flush_live(&self) -> Result<(), String> {
        match &self.mode {
            Mode::Ready(core) => core.live.flush(),
            Mode::Invalid { live, .. } => live.as_ref().map_or(Ok(()), |l| l.flush()),
        }
    }

    pub fn close(&mut self) -> Result<(), String> {
        let live = match &mut self.mode {
            Mode::Ready(core) => core.live.close(),
            Mode::Invalid { live, .. } => live.as_mut().map_or(Ok(()), |l| l.close()),
        };
        self.audit.as_mut().map_or(Ok(()), |w| w.close()).and(live)
    }
}
