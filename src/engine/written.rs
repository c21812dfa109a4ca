//! The engine's side of `crate::written`: which of the session's files a command call may
//! run, and what a call that was not denied writes.

use super::Core;
use crate::context::Request;
use crate::policy::model::Action;
use crate::shell::Written;
use crate::verdict::Verdict;
use crate::written::Change;
use serde_json::Value;

/// Tools whose params are shell input.
const SHELL_TOOLS: [&str; 5] = ["exec", "bash", "shell", "process", "terminal"];

/// The session's files a shell call mentions by name (nothing for other tools).
pub(super) fn earlier(core: &Core, session: &str, req: &Request) -> Vec<Written> {
    let tool = req.tool_name.as_deref().unwrap_or("");
    let Some(p) = req.params.as_ref().filter(|_| SHELL_TOOLS.contains(&tool)) else {
        return Vec::new();
    };
    let mut said = Vec::new();
    for v in p.values() {
        match v {
            Value::String(s) => said.push(s.as_str()),
            Value::Array(items) => said.extend(items.iter().filter_map(Value::as_str)),
            _ => {}
        }
    }
    core.live.written.mentioned(session, &said)
}

/// What a call writes into files, by file name.
pub(super) fn changes(req: &Request, call: &crate::guards::CallFacts) -> Vec<(String, Change)> {
    let tool = req.tool_name.as_deref().unwrap_or("");
    if SHELL_TOOLS.contains(&tool) {
        return (call.view().scripts.iter())
            .flat_map(|s| s.written.iter().cloned())
            .map(|(name, text)| (name, Change::Whole(text)))
            .collect();
    }
    let Some(p) = req.params.as_ref() else {
        return Vec::new();
    };
    (crate::call::startup::written(tool, p).into_iter())
        .map(|(path, text)| {
            let name = crate::paths::basename(&path).to_string();
            match tool {
                "write" => (name, Change::Whole(Some(text))),
                _ => (name, Change::Added(text)),
            }
        })
        .collect()
}

/// Notes what the call wrote, unless it was denied (then nothing was written).
pub(super) fn remember(core: &Core, session: &str, v: &mut Verdict) {
    let writes = std::mem::take(&mut v.writes);
    if v.action != Action::Deny {
        core.live.written.record(session, writes);
    }
}
