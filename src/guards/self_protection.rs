//! Self-protection (on by default): no agent may read governance's signing keys, write or
//! delete its state (audit trail, keys, trust store, agent records), change OpenClaw's config
//! or plugins, or call governance's admin methods — through any tool.

use super::argv::{args, listed, operands, program};
use super::{show, Subject};
use crate::call::Access;
use crate::paths::Resolved;
use crate::shell::{Arg, Command, RedirectKind, Script};
use memchr::memmem;

/// Programs that read a file without changing it: allowed on governance's state but its keys.
const READERS: [&str; 15] = [
    "cat",
    "less",
    "more",
    "head",
    "tail",
    "grep",
    "rg",
    "wc",
    "jq",
    "ls",
    "stat",
    "file",
    "sha256sum",
    "md5sum",
    "tac",
];

/// JavaScript runtimes that run the CLI from its entry file: `node $(which openclaw) …`,
/// `node /usr/lib/node_modules/openclaw/openclaw.mjs …`, `bun …/openclaw …`. The words after
/// the entry are the CLI's.
fn cli_through_runtime<'c>(script: &Script, c: &'c Command) -> Option<&'c [Arg]> {
    let a = args(c);
    let prog = program(c);
    if !matches!(prog, "node" | "nodejs" | "bun" | "deno" | "tsx" | "ts-node") {
        return None;
    }
    // Code given inline (`node -e`) is judged as code, not as a CLI.
    let inline = a
        .iter()
        .any(|x| matches!(x.text.as_str(), "-e" | "-p" | "--eval" | "--print"));
    let valued = [
        "-r",
        "--require",
        "--import",
        "--loader",
        "--experimental-loader",
        "-C",
        "--conditions",
        "--title",
        "--inspect-port",
        "--env-file",
    ];
    let ops = operands(a, &valued);
    let ops = match ops.first() {
        Some(r) if matches!(prog, "bun" | "deno") && r.text == "run" => &ops[1..],
        _ => &ops[..],
    };
    let entry = *ops.first()?;
    let named = |t: &str| t.contains("openclaw");
    // The entry's known part names the CLI even when a prefix is only known when it runs
    // (`"$(npm root -g)/openclaw/openclaw.mjs"`).
    let base = super::argv::basename(&entry.text);
    let js = [".js", ".mjs", ".cjs"].iter().any(|e| base.ends_with(e));
    let by_name = matches!(
        base,
        "openclaw" | "openclaw.mjs" | "openclaw.js" | "openclaw.cjs"
    ) || js && entry.text.contains("/openclaw/");
    // `$(which openclaw)`, `` `command -v openclaw` ``: what fed the word names the CLI.
    let by_input = || {
        (c.inputs.iter().filter_map(|&i| script.commands.get(i)))
            .any(|f| f.argv.iter().any(|w| named(&w.text)))
    };
    let is_cli = by_name || entry.unresolved && by_input();
    if inline || !is_cli {
        return None;
    }
    let k = a.iter().position(|x| std::ptr::eq(x, entry))?;
    Some(&a[k + 1..])
}

/// The gateway's port (OpenClaw's default, `gateway.port`).
const GATEWAY_PORT: &str = "18789";

/// Clients that reach a port by hand: HTTP, WebSocket, raw TCP.
const CLIENTS: [&str; 18] = [
    "curl",
    "curlie",
    "wget",
    "wget2",
    "http",
    "https",
    "xh",
    "xhs",
    "httpie",
    "wscat",
    "websocat",
    "nc",
    "ncat",
    "netcat",
    "socat",
    "telnet",
    "grpcurl",
    "websocket",
];

/// What a request to the gateway's own port asks: the admin methods `openclaw gateway call`
/// would (`governance.*`, `config.apply|patch|set`, `update.run`, `plugins.*`), or the
/// `plugins`/`gateway` tools through `/tools/invoke`. A request whose body is only known when
/// it runs (`-d @file`, a file or a program's output on stdin) may be any of them; one with
/// no body at all (`curl …/health`) is a read.
fn gateway_request(script: &Script, c: &Command) -> Option<&'static str> {
    let prog = program(c);
    if !listed(&CLIENTS, prog) {
        return None;
    }
    let a = args(c);
    // `TCP:localhost:PORT` (socat) holds `:PORT` too. The searchers are made once: a command
    // may have 20 000 words, and `str::contains` sets one up per call.
    let on_port = format!(":{GATEWAY_PORT}");
    let port = memmem::Finder::new(&on_port);
    let raw_tcp = matches!(prog, "nc" | "ncat" | "netcat" | "telnet");
    let at_port = a
        .iter()
        .any(|x| port.find(x.text.as_bytes()).is_some() || raw_tcp && x.text == GATEWAY_PORT);
    // A gateway configured on another port (`gateway.port`) is still on this machine.
    let here = ["127.0.0.1", "localhost", "[::1]", "0.0.0.0"].map(memmem::Finder::new);
    let local = a
        .iter()
        .any(|x| here.iter().any(|h| h.find(x.text.as_bytes()).is_some()));
    if !at_port && !local {
        return None;
    }
    let fed: Vec<Option<String>> = (c.inputs.iter())
        .filter_map(|&i| script.commands.get(i))
        .map(Command::printed)
        .collect();
    let from_file = a
        .iter()
        .any(|x| x.unresolved || x.text.starts_with('@') || x.text.starts_with("--data-binary=@"))
        || c.redirects.iter().any(|r| r.kind == RedirectKind::Read)
        || fed.iter().any(Option::is_none);
    if from_file && at_port {
        return Some("sends a request only known when it runs to the gateway's own port");
    }
    let mut text: String = a
        .iter()
        .map(|x| x.text.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    text.extend(c.stdin_text.iter().map(String::as_str));
    text.extend(fed.iter().flatten().map(String::as_str));
    // On the gateway's port any admin word counts; on another local port only the names of
    // governance's methods and of the host's admin tools and config methods.
    let marks: &[&str] = match at_port {
        true => &[
            "governance.",
            "config.",
            "update.run",
            "plugins",
            "approval",
            ".pair.",
            "pairing.",
            "agents.",
            "mcp.",
        ],
        false => &[
            "governance.",
            "config.apply",
            "config.patch",
            "\"tool\":\"plugins\"",
            "\"tool\": \"plugins\"",
            "plugins.disable",
            "plugins.uninstall",
        ],
    };
    let admin = marks.iter().any(|m| text.contains(m));
    admin.then_some("calls a governance, config or plugins method of the gateway directly")
}

pub fn check(s: &Subject) -> Option<String> {
    if let Some(change) = &s.view.host_change {
        return Some(format!("`{change}` changes OpenClaw's plugins or config"));
    }
    for f in &s.view.files {
        if let Some(why) = touches_state(s, &f.path, f.access) {
            return Some(why);
        }
    }
    s.commands()
        .find_map(|(script, _, c)| command(s, script, c))
}

fn command(s: &Subject, script: &Script, c: &Command) -> Option<String> {
    let prog = program(c);
    let cli = match prog {
        "openclaw" => Some(args(c)),
        _ => cli_through_runtime(script, c),
    };
    if let Some(why) = cli.and_then(super::host_admin::cli_change) {
        return Some(format!("`{}` {why}", show(c)));
    }
    if let Some(why) = gateway_request(script, c) {
        return Some(format!("`{}` {why}", show(c)));
    }
    if matches!(prog, "npm" | "pnpm" | "yarn" | "bun")
        && args(c)
            .iter()
            .any(|a| a.text.contains("openclaw-governance"))
        && !args(c)
            .iter()
            .any(|a| matches!(a.text.as_str(), "view" | "info" | "ls" | "list"))
    {
        return Some(format!(
            "`{}` changes the governance plugin's package",
            show(c)
        ));
    }
    if let Some(why) = governance_cli(s, c) {
        return Some(format!("`{}`: {why}", show(c)));
    }
    for r in &c.redirects {
        let access = match r.kind {
            RedirectKind::Read | RedirectKind::Duplicate => Access::Read,
            _ => Access::Write,
        };
        if let Some(why) = touches_state(s, &s.path_in(c, &r.target), access) {
            return Some(format!("`{}`: {why}", show(c)));
        }
    }
    let access = if listed(&READERS, prog) {
        Access::Read
    } else {
        Access::Write
    };
    s.distinct_args(c)
        .filter(|a| !super::only_flags(a))
        .find_map(|a| {
            let word = super::argv::path_word(a);
            let p = s.path_of(c, word);
            let why = touches_state(s, &p, access).or_else(|| {
                listed(&REMOVERS, prog)
                    .then(|| holds_state(s, &p))
                    .flatten()
            });
            why.map(|why| format!("`{}`: {why}", show(c)))
        })
}

/// Governance's own CLI keeps its state in `DIR/governance` under `--state-dir DIR`: `check`
/// writes an audit trail and trust there, `audit …` reads it (keys excepted). So
/// `openclaw-governance check --state-dir STATE/..` writes the live state.
fn governance_cli(s: &Subject, c: &Command) -> Option<String> {
    if program(c) != "openclaw-governance" {
        return None;
    }
    let a = args(c);
    let dir = super::argv::option_values(a, None, "--state-dir")
        .last()
        .copied()?;
    let sub = operands(a, &["--state-dir", "--config"]);
    let access = match sub.first().map(|x| x.text.as_str()) {
        Some("audit") => Access::Read,
        _ => Access::Write,
    };
    let state = crate::shell::Arg::literal(&format!("{}/governance", dir.trim_end_matches('/')));
    touches_state(s, &s.path_in(c, &state), access)
}

/// Programs that destroy a whole tree given its root (`rm -rf ~` takes governance with it).
/// …and those that overwrite a tree given its root (`cp -r forged/ STATE/..`, `tar -x -C /`).
const REMOVERS: [&str; 12] = [
    "rm", "mv", "shred", "chmod", "chown", "find", "cp", "rsync", "tar", "unzip", "install", "ln",
];

fn holds_state(s: &Subject, p: &Resolved) -> Option<String> {
    let roots = [
        s.env.state_dir.as_deref(),
        s.env.host.openclaw_dir.as_deref(),
    ];
    roots.into_iter().flatten().find_map(|root| {
        let dir = p.path.trim_end_matches('/');
        let ancestor = dir.is_empty()
            || root.starts_with(dir) && root.as_bytes().get(dir.len()) == Some(&b'/');
        ancestor.then(|| format!("{} holds governance's state or OpenClaw's config", p.path))
    })
}

/// Whether `p` is governance's state or OpenClaw's config, and the access is refused.
fn touches_state(s: &Subject, p: &Resolved, access: Access) -> Option<String> {
    // Most words are nowhere near either root: decided without building a path.
    let near =
        |root: Option<&str>| root.is_some_and(|r| p.path.starts_with(r.trim_end_matches('/')));
    if !p.pattern && !near(s.env.state_dir.as_deref()) && !near(s.env.host.openclaw_dir.as_deref())
    {
        return None;
    }
    if let Some(state) = s.env.state_dir.as_deref() {
        if covers(state, "", p) {
            let key = covers(state, "keys", p);
            if key || access != Access::Read {
                return Some(format!("{} is governance's own state", p.path));
            }
        }
    }
    let oc = s.env.host.openclaw_dir.as_deref()?;
    let oc = oc.trim_end_matches('/');
    let config = covers(oc, "openclaw.json", p)
        || covers(oc, "extensions", p)
        || covers(oc, "plugins", p)
        || p.path == oc;
    (config && access != Access::Read)
        .then(|| format!("{} is OpenClaw's config or plugins", p.path))
}

/// `p` is `dir/sub` (`dir` when `sub` is empty) or inside it; a pattern that could name
/// something inside counts. Literal paths are compared in place: the workspace is often inside
/// OpenClaw's directory, so most words of a command come this far.
fn covers(dir: &str, sub: &str, p: &Resolved) -> bool {
    let dir = dir.trim_end_matches('/');
    let rest = p.path.strip_prefix(dir).and_then(|rest| match sub {
        "" => Some(rest),
        _ => rest.strip_prefix('/')?.strip_prefix(sub),
    });
    let inside = rest.is_some_and(|r| r.is_empty() || r.starts_with('/'));
    inside
        || p.pattern
            && match sub {
                "" => pattern_may_cover(&p.path, dir),
                _ => pattern_may_cover(&p.path, &format!("{dir}/{sub}")),
            }
}

/// A glob could name `dir` or something inside it (`/root/.openclaw/plug*/x` may); too large
/// to decide counts as may.
fn pattern_may_cover(pattern: &str, dir: &str) -> bool {
    let overlaps = |g: &str| crate::paths::globs_overlap(pattern, g).unwrap_or(true);
    overlaps(dir) || overlaps(&format!("{dir}/**"))
}
