//! A tool call as what it would do: the shell scripts it runs, the files it opens, the code it
//! executes. Built once per call, only when a guard or a `command` condition asks, from the
//! tool's params as the host's tools read them (the tool surface of OpenClaw 2026.9.6).

mod code;
mod containers;
mod cwd;
mod feeds;
mod history;
mod keys;
mod lasting;
mod links;
pub mod patch;
mod repl;
pub mod startup;

pub use lasting::lasting;

use crate::context::Request;
use crate::paths::{self, PathContext, Resolved};
use crate::shell::{self, Script, ShellInput, Written};
use serde_json::{Map, Value};

/// Where an agent's relative paths start, `~`, and where governance and the host keep state.
#[derive(Debug, Clone, Default)]
pub struct HostPaths {
    pub home: Option<String>,
    /// OpenClaw's state dir (`~/.openclaw`): its config, extensions and plugin state.
    pub openclaw_dir: Option<String>,
    /// `agents.list[].workspace` by agent id, and `agents.defaults.workspace`.
    pub workspaces: Vec<(String, String)>,
    pub default_workspace: Option<String>,
}

impl HostPaths {
    pub fn workspace(&self, agent_id: &str) -> Option<&str> {
        self.workspaces
            .iter()
            .find(|(a, _)| a == agent_id)
            .map(|(_, w)| w.as_str())
            .or(self.default_workspace.as_deref())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
    Delete,
}

#[derive(Debug, Clone, PartialEq)]
pub struct FileUse {
    pub path: Resolved,
    pub access: Access,
}

/// What the session's earlier calls left that this call may use.
#[derive(Debug, Clone, Default)]
pub struct Earlier {
    /// Files they wrote (`crate::written`), which a command here may run.
    pub files: Vec<Written>,
    /// This call's background shell: its unfinished line, the lines that set it up, its last
    /// line (`crate::typed`).
    pub shell: crate::typed::ShellState,
    /// Symbolic links they made (`crate::links`), which this call's paths may run through.
    pub links: Vec<paths::Link>,
    /// Every file they wrote, by path, when this call names a build or test tool, which may
    /// run any of them (`startup::build`); empty otherwise.
    pub programs: Vec<Written>,
}

/// What one tool call would do.
#[derive(Debug, Clone, Default)]
pub struct CallView {
    pub scripts: Vec<Script>,
    pub files: Vec<FileUse>,
    /// Code the host runs as a program (`code_mode_exec`), judged as code.
    pub code: Option<String>,
    /// `code` is the host's code mode, JavaScript (not a line typed into a REPL of any
    /// language).
    pub code_is_js: bool,
    /// `code` was read whole as the commands it amounts to (`call::code`).
    pub code_read: bool,
    /// The working directory the call's relative paths start from.
    pub cwd: Option<String>,
    pub workspace: Option<String>,
    /// A host tool changing OpenClaw's plugins or config (`plugins {action:"disable"}`,
    /// `gateway {action:"config.apply"}`), described.
    pub host_change: Option<String>,
    /// Symbolic links known to this call: earlier calls' and its own commands' (`links`).
    pub links: Vec<paths::Link>,
    /// What its commands do to links, in order, for the session's later calls.
    pub link_changes: Vec<crate::links::LinkChange>,
}

impl CallView {
    pub fn path_context<'a>(&'a self, home: Option<&'a str>) -> PathContext<'a> {
        PathContext {
            cwd: self.cwd.as_deref(),
            home,
        }
    }
}

/// What a file tool writes into a file that runs later (a shell startup file, a git hook or
/// config, a crontab, a unit), as the script it will run.
fn startup_scripts(
    tool: &str,
    p: &Map<String, Value>,
    v: &CallView,
    (host, earlier): (&HostPaths, &[Written]),
) -> Vec<Script> {
    let ctx = v.path_context(host.home.as_deref());
    startup::written(tool, p, earlier)
        .into_iter()
        .filter_map(|(path, text)| {
            let kind = startup::runs_later(&paths::resolve_literal(&path, &ctx).path)?;
            let script = startup::commands(kind, &text);
            Some(shell::analyze(&ShellInput {
                script: &script,
                env: &[],
                depth: 1,
                earlier,
            }))
        })
        .collect()
}

/// Param names the host's file tools accept for their path (`path`; the others are what
/// other tools and older hosts use, judged too since judging more costs nothing).
const PATH_KEYS: [&str; 4] = ["path", "file_path", "filePath", "file"];

/// The host strips a model's stray `</arg_value>>` from the end of `path`, `command` and
/// `workdir` inside the tool, after this hook: judge what the tool will use.
fn host_trimmed(s: &str) -> &str {
    s.strip_suffix("</arg_value>>").unwrap_or(s)
}

/// `earlier`: what the session's earlier calls wrote or typed, which this call may run.
pub fn view(req: &Request, agent_id: &str, host: &HostPaths, earlier: &Earlier) -> CallView {
    let params = req.params.as_ref();
    let workspace = host.workspace(agent_id).map(str::to_string);
    let cwd = params
        .and_then(|p| text(p, &["workdir", "cwd"]))
        .map(|d| resolve_dir(d, workspace.as_deref(), host))
        .or_else(|| workspace.clone());
    let mut v = CallView {
        cwd,
        workspace,
        ..CallView::default()
    };
    let tool = req.tool_name.as_deref().unwrap_or("");
    let Some(p) = params else { return v };
    let env = env_param(p);
    if req.tool_kind.as_deref() == Some("code_mode_exec") {
        // Code mode is also named `exec`, with `code` and `command` both the JavaScript
        // (normalizeCodeModeExecParams): it is judged as code, never parsed as shell.
        v.code = code_of(p);
        v.code_is_js = true;
    } else {
        // A `code` param without the host's word that this is code mode: judged as code too,
        // and `command` still as the shell line the plain exec tool would run.
        if tool == "exec" {
            v.code = p.get("code").and_then(Value::as_str).map(str::to_string);
            v.code_is_js = v.code.is_some();
        }
        v.host_change = host_change(tool, p);
        match tool {
            "exec" | "bash" | "shell" => v.scripts.extend(exec_script(p, &env, &earlier.files)),
            "process" | "terminal" => {
                let sh = &earlier.shell;
                let line = recalled(&format!("{}{}", sh.unfinished, process_input(p)), &sh.last);
                let typed = as_typed(&format!("{}{line}", sh.lasting));
                let typed = (!typed.trim().is_empty()).then_some(typed);
                // A background program may be a REPL rather than a shell: a line that reads
                // as code (`process.env`, `os.environ`) is judged as code as well.
                v.code = typed
                    .as_deref()
                    .filter(|t| reads_as_code(t))
                    .map(str::to_string);
                v.scripts
                    .extend(typed.map(|t| typed_script(&t, &earlier.files)));
            }
            "apply_patch" => v.add_files(patch::paths(p), host),
            _ => {}
        }
        v.add_files(file_params(tool, p), host);
        let planted = startup_scripts(tool, p, &v, (host, &earlier.files));
        v.scripts.extend(planted);
    }
    for script in &mut v.scripts {
        feeds::complete(script, &env);
        cwd::track(
            script,
            v.cwd.as_deref(),
            host.home.as_deref(),
            v.workspace.as_deref(),
        );
    }
    containers::follow(&mut v, host);
    startup::build::follow(&mut v, host, earlier);
    code::follow(&mut v, host, earlier);
    v.link_changes = links::changes(&v, host.home.as_deref(), &earlier.links);
    v.links = earlier.links.clone();
    v.links.extend(links::made(&v.link_changes).cloned());
    let derived = req.derived_paths.iter().flatten();
    v.add_files(derived.map(|d| (d.clone(), Access::Write)).collect(), host);
    v
}

impl CallView {
    fn add_files(&mut self, raw: Vec<(String, Access)>, host: &HostPaths) {
        for (path, access) in raw {
            let ctx = self.path_context(host.home.as_deref());
            let path = paths::resolve_literal(&path, &ctx);
            // On ENOENT the read tool opens other spellings of the name (`Login\u{a0}Data` →
            // `Login Data`): each is a file this call may read.
            let respelled = match access {
                Access::Read => paths::read_variants(&path.path),
                _ => Vec::new(),
            };
            self.files.push(FileUse { path, access });
            self.files.extend(respelled.into_iter().map(|path| FileUse {
                path: Resolved {
                    path,
                    pattern: false,
                },
                access,
            }));
        }
    }
}

fn resolve_dir(dir: &str, workspace: Option<&str>, host: &HostPaths) -> String {
    let ctx = PathContext {
        cwd: workspace,
        home: host.home.as_deref(),
    };
    paths::resolve_literal(dir, &ctx).path
}

fn text<'a>(p: &'a Map<String, Value>, keys: &[&str]) -> Option<&'a str> {
    keys.iter()
        .find_map(|k| p.get(*k).and_then(Value::as_str))
        .map(host_trimmed)
}

/// A file tool's path: read-only tools read it, the others write it. Any other tool that
/// names a path is taken to read it, which is what every path-taking host tool does at least.
fn file_params(tool: &str, p: &Map<String, Value>) -> Vec<(String, Access)> {
    let access = match tool {
        "write" | "edit" | "multiedit" | "apply_patch" => Access::Write,
        _ => Access::Read,
    };
    let mut files: Vec<(String, Access)> = PATH_KEYS
        .iter()
        .filter_map(|k| p.get(*k).and_then(Value::as_str))
        .map(|s| (host_trimmed(s).to_string(), access))
        .collect();
    // A message's attachments (`media`, `mediaUrl`, `mediaUrls`, an attachment's `url`…) are
    // files the host reads and sends: local ones and `file://` URLs are reads of those files.
    if tool == "message" {
        let local = |f: &String| !f.contains("://") || f.starts_with("file:");
        let attached = crate::output::external::attachments(p);
        files.extend((attached.into_iter().filter(local)).map(|f| (f, Access::Read)));
    }
    files
}

/// `exec {command, env}`: the command is a shell string, or an argv array run without a shell.
fn exec_script(
    p: &Map<String, Value>,
    env: &[(String, String)],
    earlier: &[Written],
) -> Option<Script> {
    match p.get("command")? {
        Value::String(s) => Some(shell::analyze(&ShellInput {
            script: host_trimmed(s),
            env,
            depth: 0,
            earlier,
        })),
        Value::Array(items) => {
            let argv: Vec<String> = items.iter().map(value_text).collect();
            Some(shell::analyze_argv(&argv, env, earlier))
        }
        _ => None,
    }
}

fn env_param(p: &Map<String, Value>) -> Vec<(String, String)> {
    p.get("env")
        .and_then(Value::as_object)
        .map(|m| m.iter().map(|(k, v)| (k.clone(), value_text(v))).collect())
        .unwrap_or_default()
}

fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// `process` (and `terminal`) type into a background session's stdin, a shell started by an
/// earlier `exec`: what they send is judged as input to that shell. The host builds it from
/// `data` (write, terminal input), `text` (paste), and for send-keys `literal`, then `hex`
/// bytes, then `keys` tokens, in that order (encodeKeySequence); `submit` sends a lone CR.
/// Returns the keystrokes as sent; `view` joins them to what earlier calls typed on the same
/// line (`crate::typed`) and reads the whole as the shell does (see `as_typed`).
pub fn process_input(p: &Map<String, Value>) -> String {
    let mut input = String::new();
    // Only the fields the action sends: a stray `data` on a paste is not what the shell reads.
    let fields: &[&str] = match p.get("action").and_then(Value::as_str) {
        Some("write") | Some("input") => &["data"],
        Some("paste") => &["text"],
        Some("send-keys") => &["literal"],
        Some("submit") => &[],
        _ => &["data", "text", "literal"],
    };
    for key in fields {
        if let Some(s) = p.get(*key).and_then(Value::as_str) {
            input.push_str(s);
        }
    }
    if let Some(Value::Array(bytes)) = p.get("hex") {
        input.push_str(&hex_bytes(bytes));
    }
    match p.get("keys") {
        Some(Value::Array(keys)) => keys.iter().for_each(|k| keys::push_key(&mut input, k)),
        Some(k) => keys::push_key(&mut input, k),
        None => {}
    }
    if p.get("action").and_then(Value::as_str) == Some("submit") {
        input.push('\n');
    }
    input
}

/// Typed text as a shell script. When every line a shell cannot parse reads as code, those
/// lines are a REPL's (judged as code, see `view`): to a shell each is a syntax error that
/// runs nothing, so the text is not opaque for them.
fn typed_script(typed: &str, earlier: &[Written]) -> Script {
    // A background program may be a REPL whose own commands run shell lines (`.shell …`).
    let typed = &*repl::as_shell(typed);
    let mut script = shell::analyze(&ShellInput {
        script: typed,
        env: &[],
        depth: 0,
        earlier,
    });
    let repl = |l: &str| shell::parses(l) || reads_as_code(l);
    if typed.lines().all(repl) {
        (script.opaque).retain(|o| o.kind != shell::OpaqueKind::Unparseable);
    }
    script
}

/// A line whose first word is no program a shell could run but an expression in a REPL:
/// a dotted name (`process.env`, `os.environ`) or a call (`open(…)`).
fn reads_as_code(typed: &str) -> bool {
    typed.lines().any(|l| {
        let word = l.trim_start();
        let name_end = word
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
            .unwrap_or(word.len());
        let starts_name = word.starts_with(|c: char| c.is_alphabetic() || c == '_' || c == '$');
        let rest = &word[name_end..];
        let dotted = rest.starts_with('.')
            && rest[1..].starts_with(|c: char| c.is_alphabetic() || c == '_' || c == '$');
        // `open('x')`, not a shell function's `f()`.
        let call = rest.starts_with('(') && !rest[1..].starts_with(')');
        starts_name && (dotted || call)
    })
}

/// Input as an interactive shell would run it. Carriage returns end a line as newlines do in
/// a script. Control characters other than Tab edit the line (Ctrl-U kills what was typed,
/// Ctrl-C abandons it), so the line becomes one only known when it runs (`EDITED`); so does
/// a Tab right after a word, which readline completes (`cat .en<Tab>` runs `cat .env`), and
/// a history expansion (`!!`, `^old^new`, `rm -rf !$`), which re-uses an earlier line.
fn as_typed(input: &str) -> String {
    let mut typed = String::with_capacity(input.len());
    for c in input.chars() {
        match c {
            '\n' | '\r' => typed.push('\n'),
            '\t' if typed.ends_with(|p: char| !p.is_whitespace()) => typed.push_str(EDITED),
            '\t' => typed.push(c),
            // ^C abandons the line typed so far.
            '\u{3}' => typed.push('\n'),
            c if c.is_control() => typed.push_str(EDITED),
            c => typed.push(c),
        }
    }
    let lines = typed.lines().map(|l| match history_expanded(l) {
        true => EDITED.trim(),
        false => l,
    });
    lines.collect::<Vec<_>>().join("\n")
}

/// Whether bash's history expansion changes the line: `^` at its start, or a `!` outside
/// single quotes followed by an event or word designator (`!!`, `!$`, `!-2`, `!rm`, `!?x`;
/// not `! cmd`, `!=` or a `!` ending a word before a quote).
fn history_expanded(line: &str) -> bool {
    if line.trim_start().starts_with('^') {
        return true;
    }
    let mut single = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => single = !single,
            '\\' if !single => {
                chars.next();
            }
            '!' if !single => {
                let next = chars.peek().copied().unwrap_or(' ');
                if !(next.is_whitespace() || matches!(next, '=' | '(' | '"')) {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

/// `["0x72", "6d"]` → the bytes as text (lossy: a shell reads bytes, we judge text).
fn hex_bytes(items: &[Value]) -> String {
    let bytes: Vec<u8> = items
        .iter()
        .filter_map(Value::as_str)
        .filter_map(|h| u8::from_str_radix(h.trim_start_matches("0x"), 16).ok())
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Typed for Up (or C-p), which recalls the previous line (`recalled`).
const RECALL: char = '\u{E000}';

/// `input` with Up then Enter on an empty line read as the shell's last line run again;
/// any other use of Up (several, or editing the recalled line) is a line only known when it
/// runs.
pub fn recalled(input: &str, last: &str) -> String {
    let maybe_fc = input.contains("fc") || input.lines().any(|l| l.trim_start().starts_with('r'));
    if !input.contains(RECALL) && !maybe_fc {
        return input.to_string();
    }
    let count = input.split('\n').count();
    let lines = input.split('\n').enumerate().map(|(i, l)| {
        let ended = i + 1 < count;
        // `fc -s old=new`: a line of history, edited (`history`).
        let rerun = ended.then(|| history::rerun(l.trim(), last)).flatten();
        match (l.contains(RECALL), rerun) {
            (_, Some(Ok(line))) => line,
            (_, Some(Err(()))) => EDITED.trim().to_string(),
            (false, None) => l.to_string(),
            (true, None) if l == RECALL.to_string() && ended && !last.is_empty() => {
                last.to_string()
            }
            (true, None) => l.replace(RECALL, EDITED),
        }
    });
    lines.collect::<Vec<_>>().join("\n")
}

/// Typed in place of a line-editing key: a command in a variable, which the shell model
/// reports as a program only known when it runs (opaque).
const EDITED: &str = "\n\"$EDITED_AT_THE_TERMINAL\"\n";

/// The host's own tools that change what runs: `plugins` (disable, uninstall, install…) and
/// the `gateway` tool's config and update actions, or a governance method called through it.
fn host_change(tool: &str, p: &Map<String, Value>) -> Option<String> {
    let action = text(p, &["action", "method"]).unwrap_or("");
    let change = match tool {
        "plugins" => !matches!(action, "" | "list" | "info" | "inspect" | "status" | "show"),
        "gateway" => {
            action.starts_with("config.apply")
                || action.starts_with("config.patch")
                || action.starts_with("config.set")
                || action.starts_with("update")
                || action.starts_with("plugins.")
                || action.starts_with("governance.")
        }
        _ => false,
    };
    change.then(|| format!("{tool} {action}"))
}

/// The program text of a code-mode exec.
fn code_of(p: &Map<String, Value>) -> Option<String> {
    ["code", "source", "script", "input", "command"]
        .iter()
        .find_map(|k| p.get(*k).and_then(Value::as_str))
        .map(str::to_string)
}
