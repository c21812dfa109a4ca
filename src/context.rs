//! What one evaluation is about: the request the shim sends across the boundary, and the facts
//! the engine derives from it (local time, trust, risk) that conditions read.

use crate::frequency::FrequencyTracker;
use crate::risk::RiskAssessment;
use crate::time::LocalTime;
use crate::trust::TrustSnapshot;
use serde::Deserialize;
use serde_json::{Map, Value};

/// The hooks policies can be scoped to. `before_agent_start` is the seeds' name; the host calls
/// it `before_prompt_build` now (HOST.md), and both names are accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Hook {
    BeforeToolCall,
    MessageSending,
    BeforeAgentStart,
    SessionStart,
    /// The receiving side of an agent-to-agent message: the receiver's inbound policies.
    MessageReceived,
}

impl Hook {
    pub const ALL: [Hook; 5] = [
        Hook::BeforeToolCall,
        Hook::MessageSending,
        Hook::BeforeAgentStart,
        Hook::SessionStart,
        Hook::MessageReceived,
    ];
    pub const NAMES: [&'static str; 6] = [
        "before_tool_call",
        "message_sending",
        "before_agent_start",
        "before_prompt_build",
        "session_start",
        "message_received",
    ];

    pub fn parse(name: &str) -> Option<Hook> {
        Some(match name {
            "before_tool_call" => Hook::BeforeToolCall,
            "message_sending" => Hook::MessageSending,
            "before_agent_start" | "before_prompt_build" => Hook::BeforeAgentStart,
            "session_start" => Hook::SessionStart,
            "message_received" => Hook::MessageReceived,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Hook::BeforeToolCall => "before_tool_call",
            Hook::MessageSending => "message_sending",
            Hook::BeforeAgentStart => "before_agent_start",
            Hook::SessionStart => "session_start",
            Hook::MessageReceived => "message_received",
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }
}

/// One evaluation request as the shim sends it (camelCase JSON).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Request {
    pub hook: String,
    pub agent_id: Option<String>,
    pub session_key: Option<String>,
    pub channel: Option<String>,
    pub tool_name: Option<String>,
    pub params: Option<Map<String, Value>>,
    pub message_content: Option<String>,
    pub message_to: Option<String>,
    pub metadata: Option<Map<String, Value>>,
    /// Milliseconds since the epoch; the engine's clock when absent (replays pass recorded times).
    pub timestamp: Option<f64>,
    /// The host's discriminator for tools sharing a name (`code_mode_exec`).
    pub tool_kind: Option<String>,
    /// Paths the host derived from the params (`apply_patch`): a hint, judged with the params.
    pub derived_paths: Option<Vec<String>>,
    /// The host's run and tool call ids: where the call sits in the turn graph (provenance).
    pub run_id: Option<String>,
    pub tool_call_id: Option<String>,
}

/// `agent:<id>:…` → `<id>`; the host's `message_sending` carries no agentId (HOST.md).
pub fn agent_from_session_key(key: &str) -> Option<&str> {
    let rest = key.strip_prefix("agent:")?;
    let id = rest.split(':').next()?;
    (!id.is_empty()).then_some(id)
}

/// Everything a condition may read during one evaluation.
pub struct Facts<'a> {
    pub req: &'a Request,
    /// What the call would do and the guards' findings on it, worked out on first use.
    pub call: &'a crate::guards::CallFacts<'a>,
    pub hook: Hook,
    pub agent_id: &'a str,
    pub session_key: &'a str,
    pub now_ms: i64,
    /// Local time in the config's default zone; conditions with their own zone compute theirs.
    pub local: LocalTime,
    pub trust: TrustSnapshot,
    pub risk: &'a RiskAssessment,
    pub frequency: &'a FrequencyTracker,
    pub conversation: &'a [String],
    /// What the session's context holds, when provenance is on and anything foreign was read.
    pub taint: Option<&'a crate::provenance::Taint>,
    /// A model's answers to intent conditions, as far as this evaluation has them.
    pub intents: &'a crate::policy::conditions::intent::Intents<'a>,
}

impl Facts<'_> {
    pub fn tool(&self) -> Option<&str> {
        self.req.tool_name.as_deref()
    }

    pub fn param(&self, key: &str) -> Option<&Value> {
        let params = self.req.params.as_ref()?;
        if let Some(v) = params.get(key) {
            return Some(v);
        }
        // Dotted paths reach into nested params (`options.target`).
        let mut parts = key.split('.');
        let mut cur = params.get(parts.next()?)?;
        for part in parts {
            cur = cur.as_object()?.get(part)?;
        }
        Some(cur)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agent_ids_come_from_session_keys() {
        assert_eq!(agent_from_session_key("agent:main:main"), Some("main"));
        assert_eq!(
            agent_from_session_key("agent:forge:subagent:x"),
            Some("forge")
        );
        assert_eq!(agent_from_session_key("webchat:1"), None);
        assert_eq!(agent_from_session_key("agent::x"), None);
    }
}
