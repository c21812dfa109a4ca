//! What a script sets up for the commands after it (files it writes and then runs are
//! `written`'s): aliases (`alias ll='rm -rf ~'`), libraries the loader
//! preloads (`LD_PRELOAD=/tmp/m.so ls`), and where a `cd` may lead besides its operand
//! (`CDPATH`, `$OLDPWD`). Each is followed so the guards judge what really runs.

use super::nest::join;
use super::vars::Val;
use super::walk::{Exec, Walker};
use super::wrappers::basename;
use super::{Arg, OpaqueKind, MAX_DEPTH};

/// Variables whose value programs run through the shell (see `Walker::command_hooks`).
pub(super) const HOOK_VARS: [&str; 17] = [
    "GIT_SSH_COMMAND",
    "GIT_SSH",
    "GIT_EXTERNAL_DIFF",
    "GIT_PAGER",
    "GIT_EDITOR",
    "GIT_SEQUENCE_EDITOR",
    "GIT_ASKPASS",
    "GIT_PROXY_COMMAND",
    "SSH_ASKPASS",
    "PAGER",
    "MANPAGER",
    "EDITOR",
    "VISUAL",
    "LESSOPEN",
    "LESSCLOSE",
    "RSYNC_RSH",
    "BROWSER",
];

impl Walker {
    /// The value the command gets for `var`: given on it (prefix assignment, `env`, the exec
    /// `env` param), else set earlier in the script unless `env -i` cleared the environment.
    pub(super) fn given(&self, cx: &Exec, var: &str) -> Option<Val> {
        let own = cx.env.iter().rev().find(|(n, _)| n == var);
        match own {
            Some((_, v)) => Some(v.clone()),
            None if !cx.clear_env && self.vars.assigned(var) => Some(self.vars.get(var)),
            None => None,
        }
    }

    /// `DOCKER_HOST=ssh://prod docker rm -f api`, `GIT_DIR=… git …`: the daemon, repository or
    /// environment a variable chooses for a program (`guards::production::target_vars`) is
    /// kept on the command as a wrapper `NAME=VALUE` (`?` when only known at run time), which
    /// the guards read as they read `docker -H` or `git -C`.
    /// A variable given brings the ones it names along (`GIT_CONFIG_COUNT` its numbered
    /// `GIT_CONFIG_KEY_<n>`/`_VALUE_<n>`), which are only looked up then.
    pub(super) fn daemon_vars(&self, args: &[Arg], cx: &mut Exec) {
        for &(var, brings) in crate::guards::production::target_vars(basename(&args[0].text)) {
            if self.keep_var(cx, var) {
                for &more in brings {
                    self.keep_var(cx, more);
                }
            }
        }
    }

    /// Keeps `var` on the command as a wrapper `NAME=VALUE` when it is given a value.
    fn keep_var(&self, cx: &mut Exec, var: &str) -> bool {
        let text = match self.given(cx, var) {
            Some(Val::Set(t)) => t,
            Some(Val::Unknown) => "?".to_owned(),
            Some(Val::Unset) | None => return false,
        };
        cx.wrappers.push(format!("{var}={text}"));
        true
    }

    /// `LD_PRELOAD=/tmp/m.so ls`: the dynamic loader runs the library's code in the program,
    /// so the library is pushed as a program of its own (`/tmp/m.so`, wrapper `LD_PRELOAD`)
    /// and judged like `./m.so` would be; one only known when it runs is opaque. One the
    /// session wrote or built runs what its text holds (`Walker::loaded`).
    pub(super) fn preload(&mut self, cx: &Exec) {
        const LOADER_VARS: [&str; 2] = ["LD_PRELOAD", "LD_AUDIT"];
        if cx.env.is_empty() && !self.vars.loader_set() {
            return;
        }
        // A library path makes the loader find any shared object the session wrote.
        if let Some(Val::Set(dirs)) = self.given(cx, "LD_LIBRARY_PATH") {
            self.libraries_loaded("LD_LIBRARY_PATH", &dirs, cx);
        }
        for var in LOADER_VARS {
            let Some(value) = self.given(cx, var) else {
                continue;
            };
            if let Val::Set(libs) = &value {
                self.libraries_loaded(var, libs, cx);
            }
            let libs: Vec<Arg> = match value {
                Val::Set(v) => v
                    .split([':', ' '])
                    .filter(|l| l.contains('/'))
                    .take(8)
                    .map(Arg::literal)
                    .collect(),
                _ => vec![Arg {
                    text: "*".to_owned(),
                    pattern: true,
                    unresolved: true,
                }],
            };
            for lib in libs {
                let mut load = Exec::new(cx.depth, format!("{var}={}", lib.text));
                load.wrappers = cx.wrappers.clone();
                load.wrappers.push(var.to_owned());
                load.chdir = cx.chdir.clone();
                self.emit(vec![lib], load);
            }
        }
    }
    /// `GIT_SSH_COMMAND='rm -rf ~' git fetch`, `PAGER='…' git -p log`: variables whose value
    /// programs run through the shell (git's ssh, diff, pager, editor and askpass hooks, the
    /// pager and editor of most tools, less's preprocessor, rsync's remote shell). A value the
    /// command is given, or the script set, is run as a script of its own when the command
    /// runs; one only known when it runs is opaque.
    pub(super) fn command_hooks(&mut self, cx: &Exec) {
        if cx.env.is_empty() && !self.vars.hooks_set() {
            return;
        }
        for var in HOOK_VARS {
            let Some(value) = self.given(cx, var) else {
                continue;
            };
            match value {
                // less runs `|cmd %s` / `cmd %s`; the leading pipe is its syntax, not the shell's.
                Val::Set(text) => {
                    let text = text.trim_start_matches(['|', '-']).to_owned();
                    if cx.depth + 1 > MAX_DEPTH {
                        self.too_deep(&text);
                        continue;
                    }
                    let mut inner = cx.clone();
                    inner.wrappers.push(var.to_owned());
                    self.in_prefix(&inner, |w| w.script(&text, cx.depth + 1, &[]));
                }
                _ => self.opaque(OpaqueKind::DynamicScript, &format!("{var}=… {}", cx.src)),
            }
        }
    }

    /// `CDPATH=/home/agent; cd docs` may go to /home/agent/docs (bash searches CDPATH before
    /// `.` for a name that is not absolute nor `./…`, `../…`), and `cd -` goes to `$OLDPWD`
    /// when the script set it: each such directory, to be judged as one more place the `cd`
    /// may lead (after the command itself).
    pub(super) fn cdpath(&self, args: &[Arg], cx: &Exec) -> Vec<String> {
        if args[1..].iter().any(|a| a.text == "-") {
            return match self.own_or_shell(cx, "OLDPWD") {
                Val::Set(dir) => vec![dir],
                _ => Vec::new(),
            };
        }
        let Val::Set(path) = self.own_or_shell(cx, "CDPATH") else {
            return Vec::new();
        };
        let target = args[1..].iter().find(|a| !a.text.starts_with('-'));
        let searched = |t: &&Arg| {
            let dotted = matches!(t.text.as_str(), "." | "..")
                || t.text.starts_with("./")
                || t.text.starts_with("../");
            !t.unresolved && !t.text.starts_with('/') && !dotted
        };
        let Some(t) = target.filter(searched) else {
            return Vec::new();
        };
        path.split(':')
            .filter(|d| !d.is_empty())
            .take(8)
            .map(|d| format!("{}/{}", d.trim_end_matches('/'), t.text))
            .collect()
    }
    /// A variable as a command sees it: its own assignment (`CDPATH=… cd x`) first.
    pub(super) fn own_or_shell(&self, cx: &Exec, name: &str) -> Val {
        let own = cx.env.iter().rev().find(|(n, _)| n == name);
        own.map_or_else(|| self.vars.get(name), |(_, v)| v.clone())
    }
    /// `alias NAME=TEXT` is remembered; a later command named NAME runs TEXT followed by its
    /// words (bash needs `shopt -s expand_aliases` outside an interactive shell, zsh does not:
    /// aliases are followed whatever the shell). An alias is not expanded inside itself.
    pub(super) fn alias(&mut self, name: &str, args: &[Arg], cx: &Exec) -> Option<Vec<usize>> {
        if name == "alias" {
            for a in args[1..].iter().filter(|a| !a.unresolved) {
                if let Some((n, v)) = a.text.split_once('=') {
                    self.aliases.retain(|(k, _)| k != n);
                    self.aliases.push((n.to_owned(), v.to_owned()));
                }
            }
            return None;
        }
        if name == "unalias" {
            let gone: Vec<&str> = args[1..].iter().map(|a| a.text.as_str()).collect();
            self.aliases.retain(|(k, _)| !gone.contains(&k.as_str()));
            return None;
        }
        let at = self.aliases.iter().position(|(k, _)| *k == args[0].text)?;
        let (key, text) = self.aliases.remove(at);
        let mut words = vec![Arg::literal(&text)];
        words.extend(args[1..].iter().cloned());
        let script = join(&words);
        let mut out = vec![self.emit(args.to_vec(), cx.clone())];
        if cx.depth + 1 > MAX_DEPTH {
            self.too_deep(&script.text);
        } else {
            let mut inner = cx.clone();
            inner.wrappers.push(format!("alias {key}"));
            out.extend(
                self.in_prefix(&inner, |w| w.script(&script.text, cx.depth + 1, &cx.inputs)),
            );
        }
        self.aliases.insert(at.min(self.aliases.len()), (key, text));
        Some(out)
    }
}
