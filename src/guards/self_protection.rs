//! Self-protection (on by default): no agent may read governance's signing keys, write or
//! delete its state (audit trail, keys, trust store, agent records), change OpenClaw's config
//! or plugins, or call governance's admin methods — through any tool.

use super::argv::{args, listed, operands, program};
use super::{show, Subject};
use crate::call::Access;
use crate::paths::Resolved;
use crate::shell::{Command, RedirectKind};

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

/// `openclaw` subcommands that change what runs: plugins, config, the gateway's methods.
fn openclaw_change(c: &Command) -> Option<&'static str> {
    let ops = operands(args(c), &["--profile", "--config", "--url", "--token"]);
    let words: Vec<&str> = ops.iter().map(|o| o.text.as_str()).collect();
    match words.as_slice() {
        ["plugins" | "plugin", verb, ..]
            if !matches!(
                *verb,
                "list" | "ls" | "info" | "show" | "inspect" | "doctor"
            ) =>
        {
            Some("changes OpenClaw's plugins")
        }
        ["config", verb, ..]
            if !matches!(*verb, "get" | "show" | "print" | "path" | "validate") =>
        {
            Some("changes OpenClaw's config")
        }
        ["configure" | "onboard" | "setup" | "reset" | "uninstall", ..] => {
            Some("changes OpenClaw's config")
        }
        // `openclaw update` replaces the gateway and its bundled plugins: the CLI twin of the
        // gateway's update.run. `update status` only reports.
        ["update", rest @ ..] if !matches!(rest.first(), Some(&"status")) => {
            Some("updates OpenClaw itself")
        }
        ["gateway", "call", method, ..] if governs(method) => {
            Some("calls a governance or config method of the gateway")
        }
        _ => None,
    }
}

fn governs(method: &str) -> bool {
    method.starts_with("governance.")
        || method.starts_with("config.")
        || method.starts_with("plugins.")
        || method.starts_with("update.")
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
    s.commands().find_map(|(_, _, c)| command(s, c))
}

fn command(s: &Subject, c: &Command) -> Option<String> {
    let prog = program(c);
    if prog == "openclaw" {
        if let Some(why) = openclaw_change(c) {
            return Some(format!("`{}` {why}", show(c)));
        }
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
            let word = a.text.split_once('=').map_or(a.text.as_str(), |(_, v)| v);
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
