//! External communication (seed 001 §4.2.3): a tool call that sends text to people outside —
//! a `message` to an external channel, an `exec` of a posting command (`bird tweet`), read
//! through the shell model so wrappers, `bash -c` and quoting do not hide it. What it would
//! say is judged like the agent's own output (claims, facts) and, when configured, by a model.

use super::config::ExternalConfig;
use crate::call::CallView;
use crate::context::Request;
use crate::guards::argv::program;
use serde_json::Value;

/// What a call sends outside and how.
#[derive(Debug, Clone, PartialEq)]
pub struct Outbound {
    /// `message to twitter`, `` `bird tweet` ``: for reasons and the model's prompt.
    pub via: String,
    /// The text that would reach people outside.
    pub text: String,
    /// Whether `text` is all of it: false when part of the post is only known when a command
    /// line runs (a file, a variable, a program's output), so no stage can read it.
    pub known: bool,
    /// Whether the route is known to leave: false when the host picks it from what the engine
    /// cannot see (a session named by label or id, the host's only channel). Such a send is
    /// judged by the claim stage, as it may leave, but never shown to the model.
    pub leaves: bool,
}

pub fn detect(cfg: &ExternalConfig, req: &Request, view: &CallView) -> Option<Outbound> {
    match req.tool_name.as_deref() {
        Some("message") => message(cfg, req),
        // The host's tools that deliver straight into an outside conversation.
        Some(tool @ ("conversations_send" | "conversations_turn")) => Some(Outbound {
            via: tool.to_string(),
            text: texts(req.params.as_ref()?).join("\n"),
            known: true,
            leaves: true,
        }),
        Some("sessions_send") => session(cfg, req),
        Some("exec") | Some("process") | Some("bash") => command(cfg, req, view),
        _ => None,
    }
}

/// Keys of a send that route it or name things (where, to whom, which message or session)
/// rather than carry what recipients read.
const ROUTING_KEYS: [&str; 22] = [
    "action",
    "channel",
    "target",
    "targets",
    "to",
    "accountId",
    "account",
    "sessionKey",
    "sessionId",
    "label",
    "agentId",
    "messageId",
    "replyTo",
    "threadId",
    "chatId",
    "guildId",
    "channelId",
    "userId",
    "emoji",
    "media",
    "filename",
    "mimeType",
];

/// How deep a send's params are searched for text: far beyond any real presentation.
const MAX_DEPTH: usize = 8;

/// Every text a send carries. The host delivers many fields as text (`message`, a caption,
/// a presentation's title, blocks, table cells and button labels, an interactive fallback, a
/// poll's question and options, a venue's name, a topic's name, a voice note's script, a text
/// file attached as base64), spells keys in camelCase or snake_case, and parses a
/// presentation given as a JSON string: so every string in the params is taken, routing keys
/// apart, rather than a list of the fields known today.
fn texts(p: &serde_json::Map<String, Value>) -> Vec<String> {
    let mut out = Vec::new();
    for (k, v) in p {
        if !routing(k) {
            collect(k, v, 0, &mut out);
        }
    }
    out
}

fn routing(key: &str) -> bool {
    let camel: String = camel_case(key);
    ROUTING_KEYS.contains(&camel.as_str())
}

/// `poll_question` is `pollQuestion` to the host.
fn camel_case(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    let mut upper = false;
    for ch in key.chars() {
        match ch {
            '_' => upper = true,
            c if upper => {
                out.extend(c.to_uppercase());
                upper = false;
            }
            c => out.push(c),
        }
    }
    out
}

fn collect(key: &str, v: &Value, depth: usize, out: &mut Vec<String>) {
    if depth > MAX_DEPTH {
        return;
    }
    match v {
        Value::String(s) => {
            if let Some(parsed) = embedded_json(s) {
                collect(key, &parsed, depth + 1, out);
            } else if let Some(text) = (key == "buffer").then(|| decoded_text(s)).flatten() {
                out.push(text);
            } else {
                out.push(s.clone());
            }
        }
        Value::Array(items) => items.iter().for_each(|i| collect(key, i, depth + 1, out)),
        Value::Object(map) => {
            for (k, v) in map {
                if !routing(k) {
                    collect(k, v, depth + 1, out);
                }
            }
        }
        _ => {}
    }
}

/// A presentation or card given as a JSON string, which the host parses before rendering.
fn embedded_json(s: &str) -> Option<Value> {
    let t = s.trim();
    let bracketed =
        t.starts_with('{') && t.ends_with('}') || t.starts_with('[') && t.ends_with(']');
    bracketed
        .then(|| serde_json::from_str::<Value>(t).ok())
        .flatten()
        .filter(|v| v.is_object() || v.is_array())
}

/// An attachment sent as base64 whose bytes are text: recipients read it as a file.
fn decoded_text(b64: &str) -> Option<String> {
    use base64::Engine as _;
    let payload = b64.rsplit_once("base64,").map_or(b64, |(_, data)| data);
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(payload.trim())
        .ok()?;
    String::from_utf8(bytes).ok()
}

/// A channel as the host compares it: trimmed and lower-cased.
fn channel_name(raw: &str) -> String {
    raw.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}')
        .to_lowercase()
}

/// `sessions_send` hands its text to another agent session whose reply the host delivers on
/// that session's channel: a key routed to an external channel
/// (`agent:<id>:<channel>:<kind|account>:…`) makes it external communication, one routed to
/// another channel or a sub-agent does not. A session the host resolves itself — by `label`,
/// `sessionId`, `agentId`, or a key naming no channel (`agent:<id>:main`, whose replies go
/// where the agent's direct messages came from) — may be routed anywhere.
fn session(cfg: &ExternalConfig, req: &Request) -> Option<Outbound> {
    let p = req.params.as_ref()?;
    let key = ["sessionKey", "session_key"]
        .iter()
        .find_map(|k| p.get(*k).and_then(Value::as_str));
    // `current` is the caller's own session.
    let key = match key.map(str::trim) {
        Some("current") => req.session_key.as_deref(),
        k => k,
    };
    let parts: Vec<&str> = key.map(|k| k.split(':').collect()).unwrap_or_default();
    let (via, leaves) = match parts.as_slice() {
        [_, _, channel, _, ..] => {
            let channel = channel_name(channel);
            if !cfg.channels.contains(&channel) {
                return None;
            }
            (format!("sessions_send to {channel}"), true)
        }
        _ => (
            "sessions_send to a session the host resolves".to_string(),
            false,
        ),
    };
    Some(Outbound {
        via,
        text: texts(p).join("\n"),
        known: true,
        leaves,
    })
}

/// A session channel the host cannot send a message on (the web UI): a send from it that
/// names no channel goes to the host's only configured channel.
const NO_DELIVERY: [&str; 2] = ["", "webchat"];

fn message(cfg: &ExternalConfig, req: &Request) -> Option<Outbound> {
    let p = req.params.as_ref()?;
    let text_of = |k: &str| p.get(k).and_then(Value::as_str);
    let action = text_of("action").unwrap_or("send");
    if crate::provenance::classify::MESSAGE_READS.contains(&action) {
        return None;
    }
    // Without `channel` (or with "") the host sends on the session's own channel
    // (ctx.channelId); so does it when the channel named is not one it can send on
    // (`webchat`, a typo). From a session on an external channel, then, every send is taken
    // as external. A named channel with no such fallback is refused by the host (`Channel is
    // unavailable`). With no channel, from a session on none it can send on (the web UI), the
    // host falls back to its only configured channel, which the engine does not know: the
    // send may leave (resolveMessageChannelSelection in 2026.9.6).
    let session = req.channel.as_deref().map(channel_name);
    let named = text_of("channel")
        .map(channel_name)
        .filter(|c| !c.is_empty());
    let channel = match (named, session) {
        (_, Some(own)) if cfg.channels.contains(&own) => own,
        (Some(named), _) => named,
        (None, Some(own)) if !NO_DELIVERY.contains(&own.as_str()) => own,
        (None, _) => {
            return Some(Outbound {
                via: "message to the host's fallback channel".into(),
                text: texts(p).join("\n"),
                known: true,
                leaves: false,
            })
        }
    };
    if !cfg.channels.contains(&channel) {
        return None;
    }
    Some(Outbound {
        via: format!("message to {channel}"),
        text: texts(p).join("\n"),
        known: true,
        leaves: true,
    })
}

/// A configured posting command anywhere in the call's scripts: its words after the command's
/// own (the post), with what it reads as input — stdin, or input lines under `xargs` — when
/// that is a literal of the line (a here-doc, `echo`/`printf` piped in). When part of the
/// post is only known when the line runs (`"$1"` of a function, `"$l"` of a read loop, a
/// file, a decoder's output), the whole command line is judged, as it holds whatever literal
/// feeds the post, and the post is not `known`.
fn command(cfg: &ExternalConfig, req: &Request, view: &CallView) -> Option<Outbound> {
    for script in &view.scripts {
        for c in &script.commands {
            let Some((words, post)) = cfg.commands.iter().find_map(|w| Some((w, is(c, w)?))) else {
                continue;
            };
            let computed = c.argv[post.words..].iter().any(|a| a.unresolved);
            let input = input_text(script, c);
            let known = !computed && input.is_some();
            let text = match known {
                true => (input.into_iter().flatten())
                    .chain(c.argv[post.start..].iter().map(|a| a.text.clone()))
                    .collect::<Vec<_>>()
                    .join(" "),
                false => whole_command(req),
            };
            return Some(Outbound {
                via: format!("`{}`", words.join(" ")),
                text,
                known,
                leaves: true,
            });
        }
    }
    None
}

/// What a command reads as input (stdin, or words under `xargs`) when it is a literal of the
/// line: a here-doc or here-string, or `echo`/`printf` of known words piped in; `Some(None)`
/// when it reads nothing. `None` for a file (`< draft`, `cat draft |`, `xargs -a draft`) or
/// another program's output, only known when it runs.
fn input_text(script: &crate::shell::Script, c: &crate::shell::Command) -> Option<Option<String>> {
    use crate::shell::RedirectKind;
    if let Some(text) = &c.stdin_text {
        return Some(Some(text.clone()));
    }
    let redirected =
        (c.redirects.iter()).any(|r| r.kind == RedirectKind::Read && r.fd.is_none_or(|fd| fd == 0));
    let xargs = c.wrappers.iter().any(|w| w.starts_with("xargs"));
    if redirected || xargs && c.inputs.is_empty() {
        return None;
    }
    if c.inputs.is_empty() {
        return Some(None);
    }
    let printed: Option<Vec<String>> = (c.inputs.iter())
        .map(|i| script.commands.get(*i)?.printed())
        .collect();
    Some(Some(printed?.join("\n")))
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

/// Where a post starts in a command's argv: after the program's own words (`words`), and
/// the index of the first of those words.
struct Post {
    words: usize,
    start: usize,
}

/// `bird tweet …` for `["bird", "tweet"]`: the program (or a JS or Python runtime running its
/// entry point, `node …/node_modules/@steipete/bird/dist/cli.js`), then the rest of the words
/// in order, with options of the program's own before them (`bird --auth-token T tweet …`).
/// A word only known when the line runs (`bird $w …` in a loop) may be any of them.
fn is(c: &crate::shell::Command, words: &[String]) -> Option<Post> {
    let (prog, rest) = words.split_first()?;
    let from = match program(c) == prog {
        true => 1,
        false => entry_point(c, prog)? + 1,
    };
    let a = &c.argv[from..];
    let Some((first, more)) = rest.split_first() else {
        // A computed entry point (`node $(which x)`) is only taken for the words after it.
        if from > 1 && c.argv[from - 1].unresolved {
            return None;
        }
        return Some(Post {
            words: from,
            start: from,
        });
    };
    let fits = |x: &crate::shell::Arg, w: &str| x.text == w || x.unresolved;
    // The first word wherever it stands (after global options and their values), then the
    // others right after it. Reading `bird search tweet` as a post only costs a judgement.
    (0..a.len())
        .find(|&i| {
            fits(&a[i], first)
                && (more.iter().enumerate())
                    .all(|(k, w)| a.get(i + 1 + k).is_some_and(|x| fits(x, w)))
        })
        .map(|i| Post {
            words: from + i,
            start: from + i + rest.len(),
        })
}

/// Runtimes that run a package's entry point given as a path.
const RUNTIMES: [&str; 8] = [
    "node", "nodejs", "bun", "deno", "tsx", "ts-node", "python", "python3",
];

/// `node /usr/lib/node_modules/@steipete/bird/dist/cli.js`: the index of the script whose path
/// goes through a directory named `prog` (the package) or is `prog.js`, `prog.py`…
fn entry_point(c: &crate::shell::Command, prog: &str) -> Option<usize> {
    if !RUNTIMES.contains(&program(c)) {
        return None;
    }
    // The first operand; `deno run` has its verb first.
    let i = (1..c.argv.len()).find(|&i| {
        let t = c.argv[i].text.as_str();
        let deno_verb = program(c) == "deno" && t == "run";
        !t.starts_with('-') && !deno_verb
    })?;
    let path = c.argv[i].text.as_str();
    // `node $(which bird) tweet …`: a computed script may be the entry point.
    if c.argv[i].unresolved {
        return Some(i);
    }
    let named =
        |part: &str| part == prog || part.split_once('.').is_some_and(|(stem, _)| stem == prog);
    path.split('/').any(named).then_some(i)
}
