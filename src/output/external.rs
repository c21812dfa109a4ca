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
    /// Local files it attaches (`media`, `path`…), as named: what the session wrote into one is
    /// sent with it (see `engine::external`).
    pub files: Vec<String>,
}

impl Outbound {
    fn new(via: String, p: &serde_json::Map<String, Value>, leaves: bool) -> Outbound {
        let mut files = Vec::new();
        let text = texts(p, &mut files).join("\n");
        Outbound {
            via,
            text,
            known: true,
            leaves,
            files,
        }
    }
}

pub fn detect(cfg: &ExternalConfig, req: &Request, view: &CallView) -> Option<Outbound> {
    match req.tool_name.as_deref() {
        Some("message") => message(cfg, req),
        // The host's tools that deliver straight into an outside conversation.
        Some(tool @ ("conversations_send" | "conversations_turn")) => {
            Some(Outbound::new(tool.to_string(), req.params.as_ref()?, true))
        }
        Some("sessions_send") => session(cfg, req),
        // Tools that post into the session's own conversation: `tts` delivers its audio there
        // ("Audio auto-delivered"; its `channel` is only an output-format hint,
        // openclaw-tools-thu-J91q.mjs:15745-15775), `ask_user` its questions and option labels
        // (ask-user-tool-YVvnlVcz.mjs:55-77, `sendQuestionToolPrompt`).
        Some(tool @ ("tts" | "ask_user")) => {
            let channel = session_channel(req)?;
            if !cfg.channels.contains(&channel) {
                return None;
            }
            Some(Outbound::new(
                format!("{tool} to {channel}"),
                req.params.as_ref()?,
                true,
            ))
        }
        Some("exec") | Some("process") | Some("bash") => command(cfg, req, view),
        _ => None,
    }
}

/// Keys of a send that route it or name things (where, to whom, which message or session)
/// rather than carry what recipients read.
const ROUTING_KEYS: [&str; 21] = [
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
    "mimeType",
    "contentType",
];

/// Keys naming a file or URL to attach (message-action-runner-MjB_orAo.mjs:1351: `media`,
/// `mediaUrl`, `path`, `filePath`, `fileUrl`, `image`; `mediaUrls`; an attachment's `url` or
/// `value`). The file's name is shown with it, so that is text; the rest is a route.
const FILE_KEYS: [&str; 9] = [
    "media",
    "mediaUrl",
    "mediaUrls",
    "path",
    "filePath",
    "fileUrl",
    "image",
    "url",
    "value",
];

/// How deep a send's params are searched for text: far beyond any real presentation.
const MAX_DEPTH: usize = 8;

/// Every text a send carries. The host delivers many fields as text (`message`, a caption,
/// a presentation's title, blocks, table cells and button labels, an interactive fallback, a
/// poll's question and options, a venue's name, a topic's name, a voice note's script, a text
/// file attached as base64), spells keys in camelCase or snake_case, and parses a
/// presentation given as a JSON string: so every string in the params is taken, routing keys
/// apart, rather than a list of the fields known today.
/// Attachments are named in `files`, and their file names (a buffer's `filename`, the last
/// part of a `media` path) are text: recipients see them.
/// The files and URLs a send attaches, as named: the host reads each local one and sends it,
/// so the guards judge them as reads (`crate::call`), whatever the channel.
pub fn attachments(p: &serde_json::Map<String, Value>) -> Vec<String> {
    let mut files = Vec::new();
    texts(p, &mut files);
    files
}

fn texts(p: &serde_json::Map<String, Value>, files: &mut Vec<String>) -> Vec<String> {
    let mut out = Vec::new();
    for (k, v) in p {
        collect(k, v, 0, (&mut out, files));
    }
    out
}

#[derive(PartialEq)]
enum Key {
    Route,
    File,
    Text,
}

/// What a key holds: a route (at the top of the params), a file to attach, or text.
fn key_kind(key: &str) -> Key {
    let camel: String = camel_case(key);
    if ROUTING_KEYS.contains(&camel.as_str()) {
        Key::Route
    } else if FILE_KEYS.contains(&camel.as_str()) {
        Key::File
    } else {
        Key::Text
    }
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

fn collect(key: &str, v: &Value, depth: usize, (out, files): (&mut Vec<String>, &mut Vec<String>)) {
    if depth > MAX_DEPTH {
        return;
    }
    // Routing keys route only at the top: nested, `label` is a button's or an option's text.
    let kind = match key_kind(key) {
        Key::Route if depth > 0 => Key::Text,
        kind => kind,
    };
    match v {
        Value::String(s) if kind == Key::File => {
            out.push(file_name(s));
            files.push(s.clone());
        }
        Value::String(_) if kind == Key::Route => {}
        Value::String(s) => {
            if let Some(parsed) = embedded_json(s) {
                collect(key, &parsed, depth + 1, (out, files));
            } else if let Some(text) = (key == "buffer").then(|| decoded_text(s)).flatten() {
                out.push(text);
            } else {
                out.push(s.clone());
            }
        }
        Value::Array(items) if kind != Key::Route => {
            (items.iter()).for_each(|i| collect(key, i, depth + 1, (&mut *out, &mut *files)))
        }
        Value::Object(map) if kind != Key::Route => {
            for (k, v) in map {
                collect(k, v, depth + 1, (&mut *out, &mut *files));
            }
        }
        _ => {}
    }
}

/// The name a file is sent under: the last part of its path or URL, `%20` and the like
/// decoded, without a query.
fn file_name(path: &str) -> String {
    let path = path.split(['?', '#']).next().unwrap_or(path);
    let last = path.rsplit(['/', '\\']).next().unwrap_or(path);
    percent_decoded(last)
}

fn percent_decoded(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = (b[i] == b'%')
            .then(|| s.get(i + 1..i + 3))
            .flatten()
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match hex {
            Some(byte) => {
                out.push(byte);
                i += 3;
            }
            None => {
                out.push(b[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
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

/// The channel a session key routes to, as the host parses it (`parseSessionDeliveryRoute`,
/// session-key-CBvmC8zz.mjs:194): `agent:<id>:<channel>:<direct|dm|group|channel>:<peer>` or
/// `agent:<id>:<channel>:<account>:<direct|dm>:<peer>`, case aside (the host lower-cases
/// keys, session-key-CBvmC8zz.mjs:85-91), a `:thread:` suffix aside. `None` for keys that
/// route nowhere by themselves (`agent:main:main`, `agent:main:cron:daily`, a sub-agent's).
fn key_channel(key: &str) -> Option<String> {
    let key = key.trim().to_lowercase();
    let key = key.split(":thread:").next().unwrap_or(&key);
    let rest = key.strip_prefix("agent:")?;
    let (agent, rest) = rest.split_once(':')?;
    if agent.trim().is_empty() {
        return None;
    }
    let parts: Vec<&str> = rest.split(':').collect();
    if parts.len() < 3 || parts[0] == "agent" {
        return None;
    }
    let peer_kind = |k: &str| matches!(k, "direct" | "dm" | "group" | "channel");
    let routed = match parts.as_slice() {
        [_, account, kind, peer, ..] if matches!(*kind, "direct" | "dm") => {
            !account.trim().is_empty() && !peer.trim().is_empty()
        }
        [_, kind, peer, ..] => peer_kind(kind) && !peer.trim().is_empty(),
        _ => false,
    };
    routed
        .then(|| channel_name(parts[0]))
        .filter(|c| !c.is_empty())
}

/// The channel the session's own replies go to: the request's channel, or — for the web UI
/// chatting on a channel's session — that session's route, which the host puts in its place
/// (`resolveEffectiveCurrentChannelContext`, openclaw-tools-thu-J91q.mjs:6951-6970).
fn session_channel(req: &Request) -> Option<String> {
    let own = req.channel.as_deref().map(channel_name);
    match own.as_deref() {
        Some("webchat") => req.session_key.as_deref().and_then(key_channel).or(own),
        _ => own,
    }
}

/// `sessions_send` hands its text to another agent session whose reply the host delivers on
/// that session's channel: a key routed to an external channel makes it external
/// communication, one routed to another channel or a sub-agent's does not. A session the
/// host resolves itself — by `label`, `sessionId`, `agentId`, or a key naming no route of its
/// own (`agent:<id>:main`, whose replies go where the agent's direct messages came from; a
/// cron or hook session, whose delivery route is stored with it) — may be routed anywhere.
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
    if key.is_some_and(crate::cross_agent::is_subagent_key) {
        return None;
    }
    let (via, leaves) = match key.and_then(key_channel) {
        Some(channel) if cfg.channels.contains(&channel) => {
            (format!("sessions_send to {channel}"), true)
        }
        Some(_) => return None,
        None => (
            "sessions_send to a session the host resolves".to_string(),
            false,
        ),
    };
    Some(Outbound::new(via, p, leaves))
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
    // (ctx.channelId, or the route of the channel session the web UI is on); so does it when
    // the channel named is not one it can send on (`webchat`, a typo): from a session on an
    // external channel, then, every send is taken as external. A named channel with no such
    // fallback is refused by the host (`Channel is unavailable`). With no channel, from a
    // session on none it can send on (the web UI), the host falls back to its only configured
    // channel, which the engine does not know: the send may leave
    // (resolveMessageChannelSelection, channel-selection-DKopTRam.mjs:128-146).
    let session = session_channel(req);
    let named = text_of("channel")
        .map(channel_name)
        .filter(|c| !c.is_empty());
    // A broadcast with no channel or `all` goes to every configured channel
    // (handleBroadcastAction, message-action-runner-MjB_orAo.mjs:1743).
    if action.trim().eq_ignore_ascii_case("broadcast")
        && named.as_deref().is_none_or(|c| c == "all")
    {
        return Some(Outbound::new("broadcast to every channel".into(), p, true));
    }
    let channel = match (named, session) {
        (_, Some(own)) if cfg.channels.contains(&own) => own,
        (Some(named), _) => named,
        (None, Some(own)) if !NO_DELIVERY.contains(&own.as_str()) => own,
        (None, _) => {
            return Some(Outbound::new(
                "message to the host's fallback channel".into(),
                p,
                false,
            ))
        }
    };
    if !cfg.channels.contains(&channel) {
        return None;
    }
    Some(Outbound::new(format!("message to {channel}"), p, true))
}

/// Every configured posting command in the call's scripts: its words after the command's own
/// (the post), with what it reads as input — stdin, or input lines under `xargs` — when that
/// is a literal of the line (a here-doc, `echo`/`printf` piped in). A script may post several
/// times (a harmless post first, then the claim): all of them are judged, as one text. When
/// part of a post is only known when the line runs (`"$1"` of a function, `"$l"` of a read
/// loop, a file, a decoder's output), the whole command line is judged, as it holds whatever
/// literal feeds the post, and the post is not `known`.
fn command(cfg: &ExternalConfig, req: &Request, view: &CallView) -> Option<Outbound> {
    let mut found: Option<Outbound> = None;
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
            match &mut found {
                None => {
                    found = Some(Outbound {
                        via: format!("`{}`", words.join(" ")),
                        text,
                        known,
                        leaves: true,
                        files: Vec::new(),
                    })
                }
                Some(out) if !out.text.contains(&text) => {
                    out.text.push('\n');
                    out.text.push_str(&text);
                    out.known &= known;
                }
                Some(out) => out.known &= known,
            }
        }
    }
    found
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
