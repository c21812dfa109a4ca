//! What a script sets up for the commands after it: files it writes and then runs
//! (`echo 'rm -rf ~' > t.sh && sh t.sh`), aliases (`alias ll='rm -rf ~'`), libraries the loader
//! preloads (`LD_PRELOAD=/tmp/m.so ls`), and where a `cd` may lead besides its operand
//! (`CDPATH`, `$OLDPWD`). Each is followed so the guards judge what really runs.

use super::nest::{join, printed, shell_call, ShellCall, SHELLS};
use super::vars::Val;
use super::walk::{Exec, Walker};
use super::wrappers::basename;
use super::{Arg, OpaqueKind, RedirectKind, MAX_DEPTH};

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

/// Variables that point the Docker client at another daemon (see `Walker::daemon_vars`).
const DAEMON_VARS: [&str; 2] = ["DOCKER_HOST", "DOCKER_CONTEXT"];

impl Walker {
    /// The value the command gets for `var`: given on it (prefix assignment, `env`, the exec
    /// `env` param), else set earlier in the script unless `env -i` cleared the environment.
    fn given(&self, cx: &Exec, var: &str) -> Option<Val> {
        let own = cx.env.iter().rev().find(|(n, _)| n == var);
        match own {
            Some((_, v)) => Some(v.clone()),
            None if !cx.clear_env && self.vars.assigned(var) => Some(self.vars.get(var)),
            None => None,
        }
    }

    /// `DOCKER_HOST=ssh://prod docker rm -f api`: the daemon a variable chooses is kept on the
    /// command as a wrapper `DOCKER_HOST=VALUE` (`?` when only known at run time), which the
    /// production guard reads as it reads `docker -H`.
    pub(super) fn daemon_vars(&self, args: &[Arg], cx: &mut Exec) {
        if !matches!(basename(&args[0].text), "docker" | "podman") {
            return;
        }
        for var in DAEMON_VARS {
            let Some(value) = self.given(cx, var) else {
                continue;
            };
            let text = match value {
                Val::Set(t) => t,
                Val::Unset => continue,
                Val::Unknown => "?".to_owned(),
            };
            cx.wrappers.push(format!("{var}={text}"));
        }
    }

    /// `LD_PRELOAD=/tmp/m.so ls`: the dynamic loader runs the library's code in the program,
    /// so the library is pushed as a program of its own (`/tmp/m.so`, wrapper `LD_PRELOAD`)
    /// and judged like `./m.so` would be; one only known when it runs is opaque.
    pub(super) fn preload(&mut self, cx: &Exec) {
        const LOADER_VARS: [&str; 2] = ["LD_PRELOAD", "LD_AUDIT"];
        if cx.env.is_empty() && !self.vars.loader_set() {
            return;
        }
        for var in LOADER_VARS {
            let Some(value) = self.given(cx, var) else {
                continue;
            };
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
    /// `echo 'rm -rf ~/docs' > t.sh`, `cat > t.sh <<EOF`, `printf … | tee t.sh`: the literal
    /// text a command writes into files, remembered by their base names (a later run of the
    /// same name through another spelling of its path is judged by it too).
    pub(super) fn note_written(&mut self, name: &str, args: &[Arg], cx: &Exec) {
        let printer = matches!(name, "echo" | "printf" | "cat" | "tee");
        let writes = cx
            .redirects
            .iter()
            .any(|r| matches!(r.kind, RedirectKind::Write | RedirectKind::Append));
        if !writes && name != "tee" {
            return;
        }
        // `echo 'Xm -rf ~' | sed s/X/r/ > t.sh`: a literal changed by the writer itself.
        if !printer && (cx.inputs.is_empty() || !self.literal_upstream(&cx.inputs)) {
            return;
        }
        let mut targets: Vec<&Arg> = cx
            .redirects
            .iter()
            .filter(|r| matches!(r.kind, RedirectKind::Write | RedirectKind::Append))
            .map(|r| &r.target)
            .collect();
        if name == "tee" {
            targets.extend(args[1..].iter().filter(|a| !a.text.starts_with('-')));
        }
        targets.retain(|t| !t.unresolved);
        if targets.is_empty() {
            return;
        }
        // `cat a.sh b.sh > all.sh` copies files: running it is running them, as before.
        if name == "cat" && args.len() > 1 {
            return;
        }
        let text = match name {
            "echo" | "printf" => printed(args, None),
            _ if !printer => None,
            _ => cx.stdin_text.clone().or_else(|| self.fed_text(&cx.inputs)),
        };
        // Printed but not known (`echo "$X" > t.sh`, `… | sed … | tee t.sh`): running the file
        // runs text only known when it runs.
        let unknown =
            !printer || matches!(name, "echo" | "printf") || self.transformed_literal(&cx.inputs);
        let text = match text {
            Some(mut t) => {
                t.push('\n');
                Some(t)
            }
            None if unknown => None,
            None => return,
        };
        for t in targets.into_iter().take(8) {
            let key = basename(&t.text).to_owned();
            let entry = self.written.iter().position(|(k, _)| *k == key);
            match (entry, &text) {
                (Some(i), Some(more)) => {
                    if let Some(old) = &mut self.written[i].1 {
                        old.push_str(more);
                    }
                }
                (Some(i), None) => self.written[i].1 = None,
                (None, _) => self.written.push((key, text.clone())),
            }
        }
    }
    /// Whether text a script printed (`echo`, `printf`, a here-doc) flows into `inputs`.
    pub(super) fn literal_upstream(&self, inputs: &[usize]) -> bool {
        self.any_upstream(inputs, |c, _| prints_literal(c))
    }

    /// Whether some command feeding `inputs`, however far up, holds `pred` (given the command
    /// and how many were looked at so far, itself included). At most 64 are looked at.
    pub(super) fn any_upstream(
        &self,
        inputs: &[usize],
        pred: impl Fn(&crate::shell::Command, usize) -> bool,
    ) -> bool {
        let mut todo: Vec<usize> = inputs.to_vec();
        let mut seen = 0;
        while let Some(i) = todo.pop() {
            seen += 1;
            let Some(c) = self.get(i).filter(|_| seen <= 64) else {
                return false;
            };
            if pred(c, seen) {
                return true;
            }
            todo.extend(&c.inputs);
        }
        false
    }

    /// `bash < t.sh` of a file the script wrote: its text (`None` inside when not known).
    pub(super) fn read_written(&self, cx: &Exec) -> Option<Option<String>> {
        let from = cx
            .redirects
            .iter()
            .rev()
            .find(|r| r.kind == RedirectKind::Read && r.fd.is_none_or(|fd| fd == 0))?;
        let key = basename(&from.target.text);
        self.written
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, t)| t.clone())
    }
    /// `sh t.sh`, `bash ./t.sh`, `source t.sh`, `./t.sh` of a file the script wrote: the
    /// command itself, then what the file holds, as a script one level down.
    pub(super) fn run_written(
        &mut self,
        name: &str,
        args: &[Arg],
        cx: &Exec,
    ) -> Option<Vec<usize>> {
        if matches!(name, "make" | "gmake") {
            return self.run_written_makefile(name, args, cx);
        }
        let file = if SHELLS.contains(&name) {
            match shell_call(args) {
                ShellCall::File(i) => &args[i],
                _ => return None,
            }
        } else if matches!(name, "source" | ".") {
            args.get(1)?
        } else if args[0].text.contains('/') {
            &args[0]
        } else {
            return None;
        };
        let key = basename(&file.text);
        let text = self.written_text(key)?;
        let mut out = vec![self.emit(args.to_vec(), cx.clone())];
        let Some(text) = text else {
            self.opaque(OpaqueKind::DynamicScript, &cx.src);
            return Some(out);
        };
        let label = format!("{name} (written)");
        let script = Arg::literal(&text);
        out.extend(self.nested_shell(&label, args, script, Vec::new(), cx.clone()));
        Some(out)
    }
}

/// Text the script itself prints: a here-string/here-doc, `echo`, `printf`.
pub(super) fn prints_literal(c: &crate::shell::Command) -> bool {
    let prog = c.argv.first().map_or("", |a| basename(&a.text));
    c.stdin_text.is_some() || matches!(prog, "echo" | "printf")
}

impl Walker {
    /// `make -f Mk` (or plain `make`) of a makefile the script wrote: its recipe lines are
    /// shell commands make runs.
    fn run_written_makefile(&mut self, name: &str, args: &[Arg], cx: &Exec) -> Option<Vec<usize>> {
        let named = makefile_option(args);
        let text = match named {
            Some(file) => self.written_text(basename(file))?,
            None => ["GNUmakefile", "makefile", "Makefile"]
                .iter()
                .find_map(|f| self.written_text(f))?,
        };
        let mut out = vec![self.emit(args.to_vec(), cx.clone())];
        let Some(text) = text else {
            self.opaque(OpaqueKind::DynamicScript, &cx.src);
            return Some(out);
        };
        let label = format!("{name} (written)");
        let script = Arg::literal(&recipes(&text));
        out.extend(self.nested_shell(&label, args, script, Vec::new(), cx.clone()));
        Some(out)
    }

    /// What the script wrote to a file named `key` (by basename): `Some(None)` when written
    /// but not known.
    fn written_text(&self, key: &str) -> Option<Option<String>> {
        self.written
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, t)| t.clone())
    }
}

/// The makefile `make -f FILE` / `--file=FILE` / `--makefile FILE` reads.
fn makefile_option(args: &[Arg]) -> Option<&str> {
    let mut words = args[1..].iter().map(|a| a.text.as_str());
    while let Some(w) = words.next() {
        match w {
            "-f" | "--file" | "--makefile" => return words.next(),
            _ => {}
        }
        if let Some(v) = w.strip_prefix("--file=").or(w.strip_prefix("--makefile=")) {
            return Some(v);
        }
        if let Some(v) = w.strip_prefix("-f").filter(|v| !v.is_empty()) {
            return Some(v);
        }
    }
    None
}

/// A makefile's recipe lines (those that begin with a tab) as the shell sees them: without
/// make's `@`, `-` and `+` prefixes, `$$` being `$`.
fn recipes(makefile: &str) -> String {
    let lines = makefile.lines().filter_map(|l| l.strip_prefix('\t'));
    lines
        .map(|l| {
            l.trim_start_matches(['@', '-', '+', ' '])
                .replace("$$", "$")
        })
        .collect::<Vec<_>>()
        .join("\n")
}
