//! External communication (seed 001 §4.2.3): a tool call that sends text to people outside —
//! a `message` to an external channel, an `exec` of a posting command (`bird tweet`), read
//! through the shell model so wrappers, `bash -c` and quoting do not hide it. What it would
//! say is judged like the agent's own output (claims, facts) and, when configured, by a model.

use super::config::ExternalConfig;
use crate::call::CallView;
use crate::context::Request;
use crate::guards::argv::{args, program};
use serde_json::Value;

/// What a call sends outside and how.
#[derive(Debug, Clone, PartialEq)]
pub struct Outbound {
    /// `message to twitter`, `` `bird tweet` ``: for reasons and the model's prompt.
    pub via: String,
    /// The text that would reach people outside.
    pub text: String,
}

/// Where a `message` call's text is: the host's runner reads `message`, then `SendMessage`,
/// `content`, `text`, `caption`; polls, voice notes and threads carry their own (OpenClaw
/// 2026.9.6, message-action-runner).
const TEXT_KEYS: [&str; 9] = [
    "message",
    "SendMessage",
    "content",
    "text",
    "caption",
    "voiceText",
    "pollQuestion",
    "threadName",
    "body",
];

pub fn detect(cfg: &ExternalConfig, req: &Request, view: &CallView) -> Option<Outbound> {
    match req.tool_name.as_deref() {
        Some("message") => message(cfg, req),
        // The host's tools that deliver straight into an outside conversation.
        Some(tool @ ("conversations_send" | "conversations_turn")) => Some(Outbound {
            via: tool.to_string(),
            text: texts(req.params.as_ref()?).join("\n"),
        }),
        Some("sessions_send") => session(cfg, req),
        Some("exec") | Some("process") | Some("bash") => command(cfg, req, view),
        _ => None,
    }
}

/// Every text a send carries, the rich presentation's blocks and a poll's options included.
fn texts(p: &serde_json::Map<String, Value>) -> Vec<&str> {
    let mut out: Vec<&str> = TEXT_KEYS
        .iter()
        .filter_map(|k| p.get(*k).and_then(Value::as_str))
        .collect();
    if let Some(Value::Array(options)) = p.get("pollOption") {
        out.extend(options.iter().filter_map(Value::as_str));
    }
    let blocks = p
        .get("presentation")
        .and_then(|v| v.get("blocks"))
        .and_then(Value::as_array);
    for b in blocks.into_iter().flatten() {
        for k in ["title", "text", "caption"] {
            out.extend(b.get(k).and_then(Value::as_str));
        }
    }
    out
}

/// `sessions_send` hands its text to another agent session whose reply the host delivers on
/// that session's channel: a key routed to an external channel
/// (`agent:<id>:<channel>:<kind|account>:…`) makes it external communication.
fn session(cfg: &ExternalConfig, req: &Request) -> Option<Outbound> {
    let p = req.params.as_ref()?;
    let key = p.get("sessionKey").and_then(Value::as_str)?;
    let channel = key.split(':').nth(2)?.to_lowercase();
    if !cfg.channels.contains(&channel) {
        return None;
    }
    Some(Outbound {
        via: format!("sessions_send to {channel}"),
        text: texts(p).join("\n"),
    })
}

fn message(cfg: &ExternalConfig, req: &Request) -> Option<Outbound> {
    let p = req.params.as_ref()?;
    let text_of = |k: &str| p.get(k).and_then(Value::as_str);
    let action = text_of("action").unwrap_or("send");
    if crate::provenance::classify::MESSAGE_READS.contains(&action) {
        return None;
    }
    // Without `channel` the host sends on the session's own channel (ctx.channelId).
    let channel = text_of("channel")
        .or(req.channel.as_deref())?
        .to_lowercase();
    if !cfg.channels.contains(&channel) {
        return None;
    }
    Some(Outbound {
        via: format!("message to {channel}"),
        text: texts(p).join("\n"),
    })
}

/// A configured posting command anywhere in the call's scripts: its words after the command's
/// own (the post), or the whole command line when they are empty (the text arrives on stdin,
/// from a here-doc or a pipe).
fn command(cfg: &ExternalConfig, req: &Request, view: &CallView) -> Option<Outbound> {
    for script in &view.scripts {
        for c in &script.commands {
            let Some(words) = cfg.commands.iter().find(|w| is(c, w)) else {
                continue;
            };
            let rest: Vec<&str> = args(c)[words.len() - 1..]
                .iter()
                .map(|a| a.text.as_str())
                .collect();
            let text = match rest.is_empty() {
                true => whole_command(req),
                false => rest.join(" "),
            };
            return Some(Outbound {
                via: format!("`{}`", words.join(" ")),
                text,
            });
        }
    }
    None
}

/// The call's command line as the agent wrote it (a string, or argv joined).
fn whole_command(req: &Request) -> String {
    let p = req.params.as_ref();
    match p.and_then(|p| p.get("command")) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(" "),
        _ => String::new(),
    }
}

/// `bird tweet …` for `["bird", "tweet"]`: the program, then the rest of the words in order.
fn is(c: &crate::shell::Command, words: &[String]) -> bool {
    let Some((prog, rest)) = words.split_first() else {
        return false;
    };
    program(c) == prog
        && args(c).len() >= rest.len()
        && args(c).iter().zip(rest).all(|(a, w)| a.text == *w)
}
