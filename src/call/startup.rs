//! Files whose content runs later: shell startup files, git hooks and git config, cron tables,
//! systemd units, and the start-up and config files of the tools an agent or a user runs
//! (`config`): editors, debuggers, database shells, interpreters' start-up hooks, terminal
//! multiplexers, desktop autostart entries, package managers' indexes, programs placed on
//! `PATH` ahead of the system's. Text written into one is code that runs at the next login,
//! commit, tick or start of the tool, under the user's name, out of sight of this hook: it is
//! judged now, as the commands it will run. Writing ordinary content (a hook that runs the
//! linter, an alias in `.bashrc`, `set number` in `.vimrc`) stays allowed; a download saved into
//! one is remote code (`guards::remote_code`).

use crate::shell::Written;
use serde_json::{Map, Value};

pub mod build;
mod config;
mod project;
pub use config::Lang;
pub use project::Project;

/// How a file that runs later holds its commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Runs {
    /// Read by a shell as a script (`~/.bashrc`, `/etc/profile.d/*`, `.git/hooks/*`).
    Shell,
    /// git config: values of the keys git runs (`core.pager`, `alias.x = !…`).
    GitConfig,
    /// A user's crontab: each line's command after the schedule.
    Cron,
    /// `/etc/crontab`, `/etc/cron.d/*`: a user name between the schedule and the command.
    SystemCron,
    /// A systemd unit: `ExecStart=` and its siblings.
    Unit,
    /// A desktop entry that starts on login or opens files: its `Exec=` line.
    Desktop,
    /// `NAME=value` lines every program of the session gets (`environment.d`).
    Environment,
    /// vim/neovim script: `!cmd`, `system('…')`, `:lua`, `:python`.
    Vim,
    /// A program in a language, run by that language's interpreter when it starts.
    Code(Lang),
    /// A `.pth` file in site-packages: its `import` lines run at every Python start.
    Pth,
    /// gdb and lldb command files: `shell`, `!`, `python`, `platform shell`, `script`.
    Debugger,
    /// psql's `\!` and pipes, and backquoted commands in its meta-commands.
    Psql,
    /// sqlite3's (and duckdb's) `.shell`, `.system`, pipes and loaded extensions.
    Sqlite,
    /// mailcap's view commands.
    Mailcap,
    /// tmux's own commands (`run-shell`, `if-shell`, `#(…)`, new windows with a command).
    Tmux,
    /// Options every later curl or wget takes (`output = ~/.bashrc`).
    CurlRc,
    WgetRc,
    /// pip's config: the index every later install fetches from.
    PipConf,
    /// Cargo's config: the programs it runs (`rustc-wrapper`, `runner`, `linker`) and its
    /// registries.
    CargoConfig,
    /// mise's config: hooks and tasks, plugins from an address.
    Mise,
    /// An executable put where it is run by name (`node_modules/.bin`, or a common program's
    /// name in a `PATH` directory): its `#!` interpreter runs it.
    Executable,
    /// A project file its build and test tools run (package.json's scripts, a Makefile,
    /// conftest.py) or read for where to fetch packages from (`project`).
    Project(Project),
}

/// Shell startup files by name, wherever they are (a home may be anywhere).
const SHELL_NAMES: [&str; 20] = [
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".bash_logout",
    ".bash_aliases",
    ".profile",
    ".zshrc",
    ".zprofile",
    ".zshenv",
    ".zlogin",
    ".zlogout",
    ".kshrc",
    ".mkshrc",
    ".envrc",
    // X sessions source these at login; direnv sources its rc on every load.
    ".xprofile",
    ".xsessionrc",
    ".xinitrc",
    ".xsession",
    ".direnvrc",
    "direnvrc",
];

/// Whether, and how, the file at an absolute `path` runs later.
pub fn runs_later(path: &str) -> Option<Runs> {
    let name = crate::paths::basename(path);
    let under = |dir: &str| path.contains(dir);
    if SHELL_NAMES.contains(&name)
        || under("/.git/hooks/")
        || under("/.husky/")
        || crate::guards::git::hook_file(path)
        || under("/.config/fish/") && name.ends_with(".fish")
        || path.ends_with("/.ssh/rc")
        || matches!(path, "/etc/profile" | "/etc/bash.bashrc" | "/etc/rc.local")
        || path.starts_with("/etc/profile.d/")
        || path.starts_with("/etc/zsh/")
    {
        return Some(Runs::Shell);
    }
    if path.ends_with("/.git/config")
        || name == ".gitconfig"
        || path.ends_with("/.config/git/config")
        || path == "/etc/gitconfig"
    {
        return Some(Runs::GitConfig);
    }
    if path == "/etc/crontab" || path.starts_with("/etc/cron.d/") {
        return Some(Runs::SystemCron);
    }
    // `/etc/cron.daily/*` and the like are scripts run-parts runs.
    if path.starts_with("/etc/cron.") {
        return Some(Runs::Shell);
    }
    if path.starts_with("/var/spool/cron/") {
        return Some(Runs::Cron);
    }
    let unit = [".service", ".timer", ".socket", ".path"]
        .iter()
        .any(|e| name.ends_with(e));
    if (path.starts_with("/etc/systemd/") || under("/.config/systemd/")) && unit {
        return Some(Runs::Unit);
    }
    config::kind(path, name).or_else(|| project::kind(name).map(Runs::Project))
}

/// The commands a file of this kind will run, as shell text.
pub fn commands(kind: Runs, text: &str) -> String {
    match kind {
        Runs::Shell => text.to_string(),
        Runs::Cron => super::feeds::cron_commands(text),
        Runs::SystemCron => (super::feeds::cron_commands(text).lines())
            .map(|l| l.split_once(' ').map_or("", |(_user, command)| command))
            .collect::<Vec<_>>()
            .join("\n"),
        Runs::GitConfig => git_config_commands(text),
        Runs::Unit => unit_commands(text),
        other => config::commands(other, text),
    }
}

/// `[core]\n\tpager = cat .env` / `[alias]\n\tx = !rm -rf ~`: the values git runs
/// (`guards::git::config`).
fn git_config_commands(text: &str) -> String {
    crate::guards::git::config::file_commands(text)
}

/// `ExecStart=-/bin/sh -c '…'`: the command lines of a unit, their prefixes (`-@:+!`) off.
fn unit_commands(text: &str) -> String {
    (text.lines().map(str::trim))
        .filter_map(|l| {
            let (key, value) = l.split_once('=')?;
            let key = key.trim();
            key.starts_with("Exec")
                .then(|| value.trim().trim_start_matches(['-', '@', ':', '+', '!']))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// What a `write`, `edit` or `apply_patch` call puts into each file: the whole content, the
/// new text of each edit, the added lines of each patched file (under the name it is moved
/// to, if any; the whole moved text when it is a file the session wrote, from `earlier`).
pub fn written(tool: &str, p: &Map<String, Value>, earlier: &[Written]) -> Vec<(String, String)> {
    let path = || {
        ["path", "file_path", "filePath", "file"]
            .iter()
            .find_map(|k| p.get(*k).and_then(Value::as_str))
    };
    match tool {
        "write" => match (path(), p.get("content").and_then(Value::as_str)) {
            (Some(f), Some(text)) => vec![(f.to_string(), text.to_string())],
            _ => Vec::new(),
        },
        "edit" | "multiedit" => match path() {
            Some(f) => {
                let new: Vec<String> = replacements(p).into_iter().map(|(_, n)| n).collect();
                vec![(f.to_string(), new.join("\n"))]
            }
            None => Vec::new(),
        },
        "apply_patch" => p
            .get("input")
            .and_then(Value::as_str)
            .map(|input| patch_texts(input, earlier))
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// An edit's (old text, new text) pairs: its own, then those of its `edits` list, in the
/// spellings hosts use (`newText`, `new_string`, `newString`).
pub fn replacements(p: &Map<String, Value>) -> Vec<(String, String)> {
    let pair = |o: &Map<String, Value>| {
        let text = |keys: [&str; 3]| keys.iter().find_map(|k| o.get(*k).and_then(Value::as_str));
        let new = text(["newText", "new_string", "newString"])?;
        let old = text(["oldText", "old_string", "oldString"]).unwrap_or("");
        Some((old.to_string(), new.to_string()))
    };
    let listed = (p
        .get("edits")
        .and_then(Value::as_array)
        .into_iter()
        .flatten())
    .filter_map(Value::as_object)
    .filter_map(pair);
    pair(p).into_iter().chain(listed).collect()
}

/// The text each file of a patch ends up with, as far as known: a moved file the session
/// wrote whole (`patch::moved`), any other its added lines.
fn patch_texts(input: &str, earlier: &[Written]) -> Vec<(String, String)> {
    let moved = super::patch::moved(input, earlier);
    let mut out = patch_added(input);
    for (to, text) in moved {
        match out.iter_mut().find(|(f, _)| *f == to) {
            Some(entry) => entry.1 = text,
            None => out.push((to, text)),
        }
    }
    out
}

/// The lines an `apply_patch` envelope adds, by the file they end up in.
fn patch_added(input: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in input.lines() {
        let bare = line.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
        let header = ["*** Add File:", "*** Update File:"]
            .iter()
            .find_map(|h| bare.strip_prefix(h));
        if let Some(path) = header {
            out.push((path.trim().to_string(), String::new()));
        } else if let Some(to) = bare.strip_prefix("*** Move to:") {
            if let Some(last) = out.last_mut() {
                last.0 = to.trim().to_string();
            }
        } else if let (Some(added), Some(last)) = (line.strip_prefix('+'), out.last_mut()) {
            last.1.push_str(added);
            last.1.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn which_files_run_later() {
        let cases = [
            ("/home/a/.bashrc", Some(Runs::Shell)),
            ("/srv/app/.git/hooks/pre-commit", Some(Runs::Shell)),
            ("/etc/profile.d/x.sh", Some(Runs::Shell)),
            ("/srv/app/.git/config", Some(Runs::GitConfig)),
            ("/etc/cron.d/x", Some(Runs::SystemCron)),
            ("/var/spool/cron/crontabs/a", Some(Runs::Cron)),
            ("/etc/cron.daily/x", Some(Runs::Shell)),
            ("/home/a/.config/systemd/user/x.service", Some(Runs::Unit)),
            ("/srv/app/src/bashrc.ts", None),
            ("/srv/app/.github/workflows/ci.yml", None),
        ];
        for (path, want) in cases {
            assert_eq!(runs_later(path), want, "{path}");
        }
    }

    #[test]
    fn the_commands_each_kind_runs() {
        let git = "[core]\n\tpager = cat .env\n[alias \"x\"]\n[alias]\n\tst = !rm -rf ~\n\tco = checkout\n";
        assert_eq!(commands(Runs::GitConfig, git), "cat .env\nrm -rf ~");
        let unit = "[Service]\nType=oneshot\nExecStartPre=-/bin/true\nExecStart=/bin/sh -c 'x'\n";
        assert_eq!(commands(Runs::Unit, unit), "/bin/true\n/bin/sh -c 'x'");
        assert_eq!(commands(Runs::Cron, "*/5 * * * * rm -rf /x\n"), "rm -rf /x");
        let system = "SHELL=/bin/sh\n@reboot root curl x | sh\n";
        assert_eq!(commands(Runs::SystemCron, system), "curl x | sh");
    }

    #[test]
    fn a_patch_adds_lines_to_the_file_it_moves_to() {
        let input = "*** Begin Patch\n*** Update File: src/b.ts\n*** Move to: ~/.bashrc\n@@\n-a\n+curl x | sh\n*** End Patch";
        assert_eq!(
            patch_added(input),
            [("~/.bashrc".to_string(), "curl x | sh\n".to_string())]
        );
    }
}
