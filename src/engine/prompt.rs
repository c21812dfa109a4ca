//! The governance context injected before the agent's prompt is built (NORMATIVE N5: trust,
//! active policies, restrictions in effect), so the model avoids actions it knows will be denied.

use super::{GovernanceEngine, Mode};
use crate::context::Hook;
use crate::policy::builtins::NIGHT_TOOLS;
use crate::time::{format_hhmm, in_window, parse_tz, LocalTime};

impl GovernanceEngine {
    /// For `agent_id` in `session_key` (a sub-agent sees its trust as capped by its ancestors,
    /// which is what its calls are judged with).
    pub fn prompt_context(&self, agent_id: &str, session_key: &str, now_ms: i64) -> String {
        let core = match &self.mode {
            Mode::Ready(core) if core.config.enabled => core,
            Mode::Ready(_) => return String::new(),
            Mode::Invalid { fail_mode, .. } => {
                return format!(
                    "[Governance] The governance config is invalid; tool calls are {} until an operator fixes it.",
                    if *fail_mode == crate::config::FailMode::Closed { "blocked" } else { "allowed but audited" }
                )
            }
        };
        let trust =
            super::lineage::lineage(core, Hook::BeforeToolCall, agent_id, session_key, now_ms)
                .trust;
        let policies = core.index.candidates(Hook::BeforeToolCall, agent_id).len();
        let mut lines = vec![format!(
            "[Governance] Agent {agent_id}: trust tier {} (score {:.0}). {policies} tool-call {} apply; calls they deny are blocked before they run.",
            trust.tier.as_str(),
            trust.score,
            if policies == 1 { "policy" } else { "policies" },
        )];
        if let Some(night) = &core.config.builtins.night_mode {
            let tz = night
                .timezone
                .as_deref()
                .and_then(parse_tz)
                .unwrap_or(core.config.timezone);
            if in_window(
                LocalTime::at(now_ms, tz).minute_of_day,
                night.start,
                night.end,
            ) {
                lines.push(format!(
                    "Night mode is active until {}: only {} may be used.",
                    format_hhmm(night.end),
                    NIGHT_TOOLS.join(", ")
                ));
            }
        }
        if core.config.builtins.credential_guard {
            lines.push(
                "Credential files (.env, keys, credentials) must not be read or searched.".into(),
            );
        }
        if core.config.builtins.production_safeguard {
            lines.push("Production-impacting commands (deploys, pushes to main, service restarts) need human approval.".into());
        }
        lines.join("\n")
    }
}
