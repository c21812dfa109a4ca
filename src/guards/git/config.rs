//! git config that runs commands (git-config(1), "CONFIGURATION FILE" and the variables list):
//! a value git hands to the shell (`core.pager`, `core.fsmonitor`, `diff.<driver>.textconv`,
//! `filter.<driver>.clean`, `alias.x = !…`, …) is a script of its own, judged as if it had been
//! written on the command line; a file of config git reads (`include.path`,
//! `GIT_CONFIG_GLOBAL`) or a directory of hooks it runs (`core.hooksPath`) is judged by its
//! text when the session wrote it, and is otherwise only known when git runs (opaque).
//!
//! Config reaches git by `-c key=value`, `--config-env key=VAR`, `git config key value` (kept
//! for every later run), the environment (`GIT_CONFIG_COUNT` with `GIT_CONFIG_KEY_<n>` and
//! `GIT_CONFIG_VALUE_<n>`, `GIT_CONFIG_PARAMETERS`, `GIT_CONFIG_GLOBAL`/`GIT_CONFIG_SYSTEM`)
//! and files written into `.git/config` or `~/.gitconfig` (`call::startup`).

use super::{invocation, Invocation};
use crate::guards::argv::{args, option_values};
use crate::shell::{Arg, Command, Written};

/// What a config entry makes git do besides reading it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Runs {
    /// A shell command git runs (`sh -c VALUE`, with arguments appended for some keys).
    Command(String),
    /// Config read from this file.
    File(String),
    /// Hooks run from this directory.
    Hooks(String),
    /// Config only known when git runs, from where this says.
    Unknown(String),
}

/// Variables of the environment through which git takes config, or which choose its
/// repository (`GIT_DIR`, `GIT_WORK_TREE`): the shell model keeps them on a git command as
/// wrappers `NAME=VALUE` (`?` when only known when it runs). `GIT_CONFIG_KEY_<n>` are kept
/// for the first `COUNTED` entries; a larger count is judged unknown.
pub const ENV_VARS: [(&str, &[&str]); 7] = [
    ("GIT_DIR", &[]),
    ("GIT_WORK_TREE", &[]),
    ("GIT_CONFIG_GLOBAL", &[]),
    ("GIT_CONFIG_SYSTEM", &[]),
    ("GIT_CONFIG_PARAMETERS", &[]),
    ("GIT_TEMPLATE_DIR", &[]),
    ("GIT_CONFIG_COUNT", &NUMBERED),
];

/// `GIT_CONFIG_KEY_<n>`/`_VALUE_<n>`, looked up when `GIT_CONFIG_COUNT` is given.
const NUMBERED: [&str; 2 * COUNTED] = [
    "GIT_CONFIG_KEY_0",
    "GIT_CONFIG_VALUE_0",
    "GIT_CONFIG_KEY_1",
    "GIT_CONFIG_VALUE_1",
    "GIT_CONFIG_KEY_2",
    "GIT_CONFIG_VALUE_2",
    "GIT_CONFIG_KEY_3",
    "GIT_CONFIG_VALUE_3",
    "GIT_CONFIG_KEY_4",
    "GIT_CONFIG_VALUE_4",
    "GIT_CONFIG_KEY_5",
    "GIT_CONFIG_VALUE_5",
    "GIT_CONFIG_KEY_6",
    "GIT_CONFIG_VALUE_6",
    "GIT_CONFIG_KEY_7",
    "GIT_CONFIG_VALUE_7",
];
const COUNTED: usize = 8;

/// How deep `include.path` files including others are followed.
const MAX_INCLUDES: u32 = 4;

/// The value the shell model gives a variable only known when it runs.
const UNKNOWN: &str = "?";

/// What `key = value` makes git run, if anything. Section and variable names are
/// case-insensitive; the subsection (`diff."x".textconv`) is not, and does not matter here.
pub fn runs(key: &str, value: &str) -> Option<Runs> {
    let (section, rest) = key.split_once('.')?;
    let name = rest.rsplit('.').next().unwrap_or(rest);
    let section = section.to_ascii_lowercase();
    let name = name.to_ascii_lowercase();
    let command = || Some(Runs::Command(value.to_string()));
    match (section.as_str(), name.as_str()) {
        ("core", "pager" | "editor" | "sshcommand" | "askpass" | "gitproxy")
        | ("sequence", "editor")
        | ("diff", "external" | "textconv" | "command")
        | ("interactive", "difffilter")
        | ("merge", "driver")
        | ("filter", "clean" | "smudge" | "process")
        | ("difftool" | "mergetool" | "browser" | "man", "cmd")
        | ("gpg", "program" | "defaultkeycommand")
        | ("sendemail", "sendmailcmd" | "tocmd" | "cccmd" | "headercmd")
        | ("remote", "uploadpack" | "receivepack")
        | ("uploadpack", "packobjectshook")
        | ("imap", "tunnel") => command(),
        // `core.fsmonitor = true` is git's own daemon; any other value is a hook command.
        ("core", "fsmonitor") | ("pager", _) if !boolean(value) => command(),
        // `sendemail.smtpServer = /path` runs that program as sendmail.
        ("sendemail", "smtpserver") if value.starts_with('/') => command(),
        // A helper that is `!cmd` or an absolute path runs through the shell; a bare name is
        // `git credential-NAME`, one of git's own.
        ("credential", "helper") if value.starts_with('!') || value.starts_with('/') => {
            Some(Runs::Command(value.trim_start_matches('!').to_string()))
        }
        ("alias", _) if value.starts_with('!') => Some(Runs::Command(value[1..].to_string())),
        ("include" | "includeif", "path") => Some(Runs::File(value.to_string())),
        ("core", "hookspath") => Some(Runs::Hooks(value.to_string())),
        // `git init`/`clone` copy the template's hooks into the new repository.
        ("init", "templatedir") => Some(Runs::Hooks(format!("{value}/hooks"))),
        _ => None,
    }
}

/// git's boolean spellings (git-config(1) "Values"), and the empty value (true).
fn boolean(value: &str) -> bool {
    matches!(
        value.to_ascii_lowercase().as_str(),
        "" | "true" | "false" | "yes" | "no" | "on" | "off" | "1" | "0"
    )
}

/// The scripts a git command runs because of the config it is given (see the module's
/// comment), and the commands given to it to run (`rebase --exec`, `bisect run`, `submodule
/// foreach`, `filter-branch --tree-filter`, …). What is only known when git runs is given as a
/// script naming it in command position, which the shell model reports as opaque. `written`:
/// the files the session wrote, by name, which an include may name.
pub fn scripts(c: &Command, written: &[Written]) -> Vec<String> {
    let a = args(c);
    // Most git commands have no option before the subcommand, no config, no variable of
    // git's and no command to run: they are let go at once.
    let sub = super::sub_index(a);
    let verb = sub.map_or("", |i| a[i].text.as_str());
    let filled = runs_filled_hooks(verb, written);
    let quiet = !filled
        && sub == Some(0)
        && !c.wrappers.iter().any(|w| w.starts_with("GIT_"))
        && !matches!(
            verb,
            "config"
                | "init"
                | "clone"
                | "rebase"
                | "difftool"
                | "grep"
                | "send-email"
                | "filter-branch"
                | "bisect"
                | "submodule"
        );
    if quiet {
        return Vec::new();
    }
    let inv = invocation(a);
    let mut entries: Vec<Runs> = Vec::new();
    for g in &inv.globals {
        match (g.name, g.value) {
            ("-c", Some(kv)) => {
                let (k, v) = kv.split_once('=').unwrap_or((kv, "true"));
                entries.extend(runs(k, v));
            }
            // `--config-env=key=VAR`: the value is the variable's, only known when it runs;
            // probed with a value every key that runs anything acts on.
            ("--config-env", Some(kv)) => {
                let k = kv.split_once('=').map_or(kv, |(k, _)| k);
                if runs(k, "!x").is_some() {
                    entries.push(Runs::Unknown(format!("--config-env {kv}")));
                }
            }
            _ => {}
        }
    }
    entries.extend(
        config_set(a, &inv)
            .into_iter()
            .filter_map(|(k, v)| runs(k, v)),
    );
    entries.extend(environment(c));
    // `git init|clone --template=DIR` copies DIR/hooks into the new repository.
    if let Some(i) = inv
        .sub
        .filter(|&i| matches!(a[i].text.as_str(), "init" | "clone"))
    {
        let templates = option_values(&a[i + 1..], None, "--template");
        entries.extend(templates.iter().map(|d| Runs::Hooks(format!("{d}/hooks"))));
    }
    let hooks_dir = filled
        .then(|| {
            (entries.iter()).find_map(|r| match r {
                Runs::Hooks(dir) => Some(dir.clone()),
                _ => None,
            })
        })
        .flatten();
    let mut out: Vec<String> = (entries.into_iter())
        .flat_map(|r| effect(r, written, 0))
        .collect();
    out.extend(given_commands(a, &inv));
    if filled && hooks_dir.as_deref() != Some("/dev/null") {
        // Without a hooks path here, the one an earlier call set (or `.git/hooks`) is used.
        let dir = hooks_dir.unwrap_or_else(|| "the repository's hooks".to_string());
        let place = format!("{dir}, filled by this session with text it never saw");
        out.push(unknown("hooks in", &place));
    }
    out
}

/// Subcommands that run hooks (githooks(5)): commits and their messages, merges, checkouts
/// (`post-checkout` runs for a path checkout too), rebases, patches applied, pushes, garbage
/// collection, and every ref update (`reference-transaction`).
const RUNS_HOOKS: [&str; 24] = [
    "commit",
    "merge",
    "push",
    "pull",
    "checkout",
    "switch",
    "rebase",
    "am",
    "cherry-pick",
    "revert",
    "clone",
    "worktree",
    "gc",
    "send-email",
    "fetch",
    "reset",
    "branch",
    "tag",
    "stash",
    "update-ref",
    "add",
    "mv",
    "rm",
    "p4",
];

/// Whether `verb` runs hooks while the session has put files of text it never showed where
/// git runs hooks from (`shell::HOOKS_FILLED`, or a file named as a hook): copies from outside
/// the project, a hooks directory checked out of a fetched commit, an archive unpacked there.
/// Hooks the session wrote with known text are judged when written (`call::startup`).
fn runs_filled_hooks(verb: &str, written: &[Written]) -> bool {
    crate::guards::argv::listed(&RUNS_HOOKS, verb)
        && (written.iter()).any(|(k, t)| {
            t.is_none() && (k == crate::shell::HOOKS_FILLED || HOOKS.contains(&k.as_str()))
        })
}

/// What one entry runs, as scripts: its command, the commands of a file's config (followed
/// `depth` includes deep), or a marker for what is only known when git runs.
fn effect(r: Runs, written: &[Written], depth: u32) -> Vec<String> {
    match r {
        Runs::Command(text) if text == UNKNOWN => vec![unknown("config in", "a variable")],
        Runs::Unknown(from) => vec![unknown("config in", &from)],
        Runs::Command(text) => vec![text],
        Runs::File(path) if read_anyway(&path) => Vec::new(),
        Runs::File(path) => match written_text(&path, written) {
            Some(text) if depth < MAX_INCLUDES => (file_entries(&text).into_iter())
                .filter_map(|(k, v)| runs(&k, &v))
                .flat_map(|r| effect(r, written, depth + 1))
                .collect(),
            _ => vec![unknown("config in", &path)],
        },
        Runs::Hooks(dir) if own_hooks(&dir) => Vec::new(),
        Runs::Hooks(dir) => vec![unknown("hooks in", &dir)],
    }
}

/// Files git reads as config in any case (`~/.gitconfig`, `/etc/gitconfig`), and the empty
/// `/dev/null` (`GIT_CONFIG_GLOBAL=/dev/null` isolates a test from the user's config).
fn read_anyway(path: &str) -> bool {
    matches!(path, "/dev/null" | "/etc/gitconfig")
        || path.ends_with("/.gitconfig")
        || path.ends_with("/.config/git/config")
}

/// A hooks directory inside the repository (`.githooks`, `.husky/_`): relative to the work
/// tree and not climbing out of it. Its hooks were written into the project, and a file named
/// as a hook is judged when it is written (`hook_file`). `/dev/null` turns hooks off.
fn own_hooks(dir: &str) -> bool {
    // A part only known when it runs stands as `*` (`"$PWD/.githooks"`): it may be anywhere.
    let elsewhere = dir == UNKNOWN
        || dir.contains('*')
        || dir.starts_with(['/', '~', '$'])
        || dir.split('/').any(|s| s == "..");
    dir == "/dev/null" || !elsewhere
}

/// The text the session wrote into the file named `path`, when known.
fn written_text(path: &str, written: &[Written]) -> Option<String> {
    let name = crate::paths::basename(path);
    let (_, text) = written.iter().rev().find(|(n, _)| n == name)?;
    text.clone()
}

/// A command in a variable no one set: the shell model reports it as a program only known
/// when it runs, with `what` and `place` in the reason. No call can set it: the host refuses
/// `GIT_*` keys in exec's `env` (host-env-security), and a script's own assignment does not
/// reach this nested text.
fn unknown(what: &str, place: &str) -> String {
    let var = match what {
        "hooks in" => "GIT_HOOKS_ONLY_KNOWN_WHEN_GIT_RUNS",
        _ => "GIT_CONFIG_ONLY_KNOWN_WHEN_GIT_RUNS",
    };
    format!("\"${var}\" {}", quote(place))
}

fn quote(w: &str) -> String {
    format!("'{}'", w.replace('\'', "'\\''"))
}

/// `git config [set] [--global|--file F|--add|…] KEY VALUE`: a value stored for later runs as
/// surely as one given with `-c` (`git config core.pager 'cat .env' && git log`). Every
/// adjacent pair of words after `config` is offered; only a key git acts on counts.
fn config_set<'a>(a: &'a [Arg], inv: &Invocation) -> Vec<(&'a str, &'a str)> {
    match inv.sub {
        Some(i) if a[i].text == "config" => (a[i + 1..].windows(2))
            .map(|w| (w[0].text.as_str(), w[1].text.as_str()))
            .collect(),
        _ => Vec::new(),
    }
}

/// Config from the environment (git(1) "ENVIRONMENT VARIABLES"), as the wrappers the shell
/// model kept: `GIT_CONFIG_COUNT` entries, `GIT_CONFIG_PARAMETERS` (`'key'='value' …`, as
/// `-c` passes them to child processes), and the files `GIT_CONFIG_GLOBAL`/`_SYSTEM` name.
fn environment(c: &Command) -> Vec<Runs> {
    let var = |name: &str| -> Option<&str> {
        (c.wrappers.iter().rev())
            .find_map(|w| w.strip_prefix(name).and_then(|r| r.strip_prefix('=')))
    };
    let mut out = Vec::new();
    for file in ["GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM"] {
        out.extend(var(file).map(|f| Runs::File(f.to_string())));
    }
    if let Some(dir) = var("GIT_TEMPLATE_DIR") {
        out.push(Runs::Hooks(format!("{dir}/hooks")));
    }
    if let Some(params) = var("GIT_CONFIG_PARAMETERS") {
        match params {
            UNKNOWN => out.push(Runs::Unknown("GIT_CONFIG_PARAMETERS".into())),
            p => out.extend(
                (sq_words(p).iter())
                    .filter_map(|kv| kv.split_once('='))
                    .filter_map(|(k, v)| runs(k, v)),
            ),
        }
    }
    if let Some(count) = var("GIT_CONFIG_COUNT") {
        let n = count.trim().parse::<usize>().ok().filter(|n| *n <= COUNTED);
        let Some(n) = n else {
            out.push(Runs::Unknown(format!("GIT_CONFIG_COUNT={count}")));
            return out;
        };
        for i in 0..n {
            let key = var(&format!("GIT_CONFIG_KEY_{i}")).unwrap_or("");
            let value = var(&format!("GIT_CONFIG_VALUE_{i}")).unwrap_or("");
            match key {
                UNKNOWN => out.push(Runs::Unknown(format!("GIT_CONFIG_KEY_{i}"))),
                k => out.extend(runs(k, value)),
            }
        }
    }
    out
}

/// Words quoted as git's `sq_quote` writes them: `'…'` with `'\''` for a quote, separated by
/// spaces.
fn sq_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut chars = text.chars();
    while let Some(ch) = chars.next() {
        match (ch, quoted) {
            ('\'', _) => quoted = !quoted,
            ('\\', false) => word.extend(chars.next()),
            (' ', false) => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            (ch, _) => word.push(ch),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// Commands given to git on its command line to run: `rebase -x CMD`, `bisect run CMD…`,
/// `submodule foreach CMD…`, `filter-branch --tree-filter CMD` (and the other filters),
/// `difftool -x CMD`, `grep -O CMD`, `send-email --sendmail-cmd CMD`.
fn given_commands(a: &[Arg], inv: &Invocation) -> Vec<String> {
    let Some(i) = inv.sub else {
        return Vec::new();
    };
    let rest = &a[i + 1..];
    // The words after the verb: one word is a script the shell runs (`foreach 'cmd; cmd'`),
    // several are a command line (git quotes each: `bisect run sh -c 'cmd'`).
    let words = |from: usize| -> String {
        let rest = &rest[from.min(rest.len())..];
        match rest {
            [one] => one.text.clone(),
            _ => (rest.iter().map(|x| quote(&x.text)))
                .collect::<Vec<_>>()
                .join(" "),
        }
    };
    let values = |short: Option<&str>, long: &str| -> Vec<String> {
        (option_values(rest, short, long).into_iter())
            .map(str::to_string)
            .collect()
    };
    match a[i].text.as_str() {
        "rebase" => values(Some("-x"), "--exec"),
        "difftool" => values(Some("-x"), "--extcmd"),
        "grep" => values(None, "--open-files-in-pager")
            .into_iter()
            .chain(
                (rest.iter())
                    .filter_map(|x| x.text.strip_prefix("-O"))
                    .filter(|p| !p.is_empty())
                    .map(str::to_string),
            )
            .collect(),
        "send-email" => ["--sendmail-cmd", "--to-cmd", "--cc-cmd", "--header-cmd"]
            .iter()
            .flat_map(|o| values(None, o))
            .collect(),
        "filter-branch" => FILTERS.iter().flat_map(|o| values(None, o)).collect(),
        // `git bisect run CMD ARGS…`, `git submodule foreach [--recursive] CMD…`: the words
        // after the verb, given to the shell.
        "bisect" if rest.first().is_some_and(|x| x.text == "run") => vec![words(1)],
        "submodule" => match rest.iter().position(|x| x.text == "foreach") {
            Some(k) => {
                let from = (k + 1..rest.len())
                    .find(|&j| !rest[j].text.starts_with('-'))
                    .unwrap_or(rest.len());
                vec![words(from)]
            }
            None => Vec::new(),
        },
        _ => Vec::new(),
    }
}

const FILTERS: [&str; 7] = [
    "--env-filter",
    "--tree-filter",
    "--index-filter",
    "--parent-filter",
    "--msg-filter",
    "--commit-filter",
    "--tag-name-filter",
];

/// `[core]\n\tpager = cat .env` / `[alias]\n\tx = !rm -rf ~` / `[diff "x"]\n\ttextconv = …`:
/// the entries of a config file, as `section[.subsection].name` and value. Comments (`#`,
/// `;`) end an unquoted value; quotes are removed.
pub fn file_entries(text: &str) -> Vec<(String, String)> {
    let mut section = String::new();
    let mut out = Vec::new();
    for line in text.lines().map(str::trim) {
        if let Some(head) = line.strip_prefix('[') {
            // `[core]`, `[diff "x"]` (→ `diff.x`), `[alias]`; entries may follow on the line.
            let (head, rest) = head.split_once(']').unwrap_or((head, ""));
            section = head.replace(" \"", ".").replace('"', "");
            if let Some((k, v)) = rest.trim().split_once('=') {
                out.push((format!("{section}.{}", k.trim()), value_of(v)));
            }
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        out.push((format!("{section}.{}", key.trim()), value_of(value)));
    }
    out
}

/// A config value: quotes removed, `\"` and `\\` unescaped, a comment outside quotes cut.
fn value_of(raw: &str) -> String {
    let mut out = String::new();
    let mut quoted = false;
    let mut chars = raw.trim().chars();
    while let Some(ch) = chars.next() {
        match ch {
            '"' => quoted = !quoted,
            '\\' => match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(other) => out.push(other),
                None => {}
            },
            '#' | ';' if !quoted => break,
            ch => out.push(ch),
        }
    }
    out.trim_end().to_string()
}

/// The commands a config file's text makes git run (`.git/config`, `~/.gitconfig` written
/// by a file tool or a redirect), as shell text; includes and hooks directories as in
/// `scripts`, with no file of the session known.
pub fn file_commands(text: &str) -> String {
    (file_entries(text).into_iter())
        .filter_map(|(k, v)| runs(&k, &v))
        .flat_map(|r| effect(r, &[], 0))
        .collect::<Vec<_>>()
        .join("\n")
}

/// git's hook names (githooks(5)): a file so named is a script git runs once a hooks
/// directory holds it (`.git/hooks`, or any directory `core.hooksPath` names). `update` is
/// only counted under a directory of hooks (the name is common).
const HOOKS: [&str; 27] = [
    "applypatch-msg",
    "pre-applypatch",
    "post-applypatch",
    "pre-commit",
    "pre-merge-commit",
    "prepare-commit-msg",
    "commit-msg",
    "post-commit",
    "pre-rebase",
    "post-checkout",
    "post-merge",
    "pre-push",
    "pre-receive",
    "proc-receive",
    "post-receive",
    "post-update",
    "reference-transaction",
    "push-to-checkout",
    "pre-auto-gc",
    "post-rewrite",
    "sendemail-validate",
    "fsmonitor-watchman",
    "p4-changelist",
    "p4-prepare-changelist",
    "p4-post-changelist",
    "p4-pre-submit",
    "post-index-change",
];

/// Whether the file at `path` is named as a git hook: a hook written anywhere runs on the next
/// commit, checkout or push once `core.hooksPath` points at its directory, which a repository
/// may already do (`.githooks`, `scripts/hooks`).
pub fn hook_file(path: &str) -> bool {
    let name = crate::paths::basename(path);
    let dir = path[..path.len() - name.len()].trim_end_matches('/');
    HOOKS.contains(&name) || name == "update" && crate::paths::basename(dir).contains("hook")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_that_run_commands() {
        let cmd =
            |k: &str, v: &str| runs(k, v) == Some(Runs::Command(v.trim_start_matches('!').into()));
        assert!(cmd("core.pager", "cat .env"));
        assert!(cmd("Core.FSMonitor", "rm -rf ~"));
        assert!(cmd("difftool.x.cmd", "rm x"));
        assert!(cmd("mergetool.My Tool.cmd", "rm x"));
        assert!(cmd("filter.lfs2.smudge", "sh x"));
        assert!(cmd("diff.bin.textconv", "hexdump"));
        assert!(cmd("pager.log", "less -R"));
        assert!(cmd("credential.helper", "!cat .env"));
        assert!(cmd("credential.https://x.helper", "/tmp/h"));
        assert!(cmd("alias.st", "!rm -rf ~"));
        assert!(cmd("gpg.ssh.program", "x"));
        // Booleans and git's own helpers run nothing of the shell's.
        assert_eq!(runs("pager.log", "false"), None);
        assert_eq!(runs("core.fsmonitor", "true"), None);
        assert_eq!(runs("credential.helper", "store"), None);
        assert_eq!(runs("alias.co", "checkout"), None);
        assert_eq!(runs("user.name", "x"), None);
        assert_eq!(
            runs("include.path", "/tmp/x"),
            Some(Runs::File("/tmp/x".into()))
        );
        assert_eq!(runs("core.hooksPath", "h"), Some(Runs::Hooks("h".into())));
    }

    #[test]
    fn config_files_and_hooks() {
        let text =
            "[core]\n\tfsmonitor = \"rm -rf ~/docs; false\" # x\n[diff \"x\"]\n\ttextconv=cat\n";
        assert_eq!(file_commands(text), "rm -rf ~/docs; false\ncat");
        let written = vec![("gc".to_string(), Some(text.to_string()))];
        assert_eq!(
            effect(Runs::File("/tmp/gc".into()), &written, 0),
            vec!["rm -rf ~/docs; false", "cat"]
        );
        assert!(effect(Runs::File("/tmp/other".into()), &written, 0)[0].contains("/tmp/other"));
        assert!(effect(Runs::File("/dev/null".into()), &[], 0).is_empty());
        assert!(effect(Runs::Hooks(".githooks".into()), &[], 0).is_empty());
        assert!(effect(Runs::Hooks("../h".into()), &[], 0)[0].contains("HOOKS"));
        assert!(effect(Runs::Hooks("/tmp/h".into()), &[], 0)[0].contains("HOOKS"));
        assert!(hook_file("/srv/app/scripts/hooks/pre-commit"));
        assert!(hook_file("/x/.githooks/update"));
        assert!(!hook_file("/x/src/update"));
        assert_eq!(
            sq_words("'core.pager'='cat .env' 'a.b'='it'\\''s'"),
            ["core.pager=cat .env", "a.b=it's"]
        );
    }
}
