//! Files a script writes and then runs: `echo 'rm -rf ~' > t.sh && sh t.sh`, a makefile it
//! wrote and then makes, the same across the calls of a session (`ShellInput::earlier`), and a
//! copy, move or link of such a file (`cp t.sh u.sh && sh u.sh`). What an interpreter runs from
//! such a file (`python3 t.py`) is its program text (`Command::program_text`), judged as inline
//! code is. A file written with text only known when it runs (`curl URL > t.sh`, `cmd > t.sh`)
//! is kept as unknown, and running it is opaque.

use super::nest::{printed, shell_call, ShellCall, SHELLS};
use super::walk::{Exec, Walker};
use super::wrappers::basename;
use super::{Arg, OpaqueKind, RedirectKind};

impl Walker {
    /// `echo 'rm -rf ~/docs' > t.sh`, `cat > t.sh <<EOF`, `printf … | tee t.sh`: the literal
    /// text a command writes into files, remembered by their base names (a later run of the
    /// same name through another spelling of its path is judged by it too). What any other
    /// program writes (`curl URL > t.sh`, `base64 -d > t.sh`, `sed … > t.sh`) is unknown; a
    /// copy (`cp`, `mv`, `ln`, `install`, `dd`, `cat a.sh > b.sh`) of a file the script or
    /// session wrote holds that file's text.
    pub(super) fn note_written(&mut self, name: &str, args: &[Arg], cx: &Exec) {
        if self.note_copied(name, args) {
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
        let Some(text) = self.text_written(name, args, cx) else {
            return;
        };
        for t in targets.into_iter().take(8) {
            self.remember(basename(&t.text).to_owned(), text.clone());
        }
    }

    /// What a command writes through a redirect or `tee`: `Some(None)` when only known when it
    /// runs, `None` when nothing the session wrote or computed reaches the file (`cat
    /// README.md > x`, a copy of a project file, is judged as that file would be).
    fn text_written(&self, name: &str, args: &[Arg], cx: &Exec) -> Option<Option<String>> {
        let with_newline = |t: Option<String>| {
            t.map(|mut t| {
                t.push('\n');
                t
            })
        };
        let files = || args[1..].iter().filter(|a| !a.text.starts_with('-'));
        match name {
            "echo" | "printf" => Some(with_newline(printed(args, None))),
            "cat" if files().next().is_some() => self.copied_text(files()),
            "cat" | "tee" => {
                let known = cx.stdin_text.clone().or_else(|| self.fed_text(&cx.inputs));
                match (known, self.read_written(cx)) {
                    (_, _) if self.transformed_literal(&cx.inputs) => Some(None),
                    (Some(t), _) => Some(with_newline(Some(t))),
                    (None, Some(file)) => Some(file),
                    (None, None) if cx.inputs.is_empty() && !cx.stdin_dynamic => None,
                    (None, None) => Some(None),
                }
            }
            _ => Some(None),
        }
    }

    /// The text of files concatenated, when one of them is a file the session wrote (unknown
    /// when any part is).
    fn copied_text<'a>(&self, files: impl Iterator<Item = &'a Arg>) -> Option<Option<String>> {
        let mut text = Some(String::new());
        let mut any = false;
        for f in files {
            let part = self.written_text(basename(&f.text));
            any |= part.is_some();
            match (part.flatten(), &mut text) {
                (Some(t), Some(all)) => all.push_str(&t),
                _ => text = None,
            }
        }
        any.then_some(text)
    }

    /// `cp t.sh u.sh`, `mv t.sh u`, `ln -s /tmp/t.sh x`, `install -m 755 t.sh bin/`, `dd
    /// if=t.sh of=u.sh`: the copy of a file the session wrote holds its text. True for every
    /// copying program, whatever it copied.
    fn note_copied(&mut self, name: &str, args: &[Arg]) -> bool {
        let Some((sources, dest)) = copy_operands(name, args) else {
            return false;
        };
        let many = sources.len() > 1;
        for src in sources {
            let Some(text) = self.written_text(basename(&src.text)) else {
                continue;
            };
            // Into a directory (`-t DIR`, several sources, `dir/`) the copy keeps its name.
            let key = match &dest {
                Some(d) if !many && !d.text.ends_with('/') && !d.unresolved => basename(&d.text),
                _ => basename(&src.text),
            };
            self.remember(key.to_owned(), text);
        }
        true
    }

    /// Notes `text` as written to the file named `key`: appended to what was known of it
    /// (judging more, never less), unknown once any part is.
    fn remember(&mut self, key: String, text: Option<String>) {
        let entry = self.written.iter().position(|(k, _)| *k == key);
        match (entry, text) {
            (Some(i), Some(more)) => {
                if let Some(old) = &mut self.written[i].1 {
                    old.push_str(&more);
                }
            }
            (Some(i), None) => self.written[i].1 = None,
            (None, text) => self.written.push((key, text)),
        }
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
    /// command itself, then what the file holds, as a script one level down. An interpreter's
    /// (`python3 t.py`, or `./t.py` whose `#!` names one) carries the text as its program.
    pub(super) fn run_written(
        &mut self,
        name: &str,
        args: &[Arg],
        cx: &Exec,
    ) -> Option<Vec<usize>> {
        if matches!(name, "make" | "gmake") {
            return self.run_written_makefile(name, args, cx);
        }
        if let Some(i) = program_file(name, args) {
            let text = self.written_text(basename(&args[i].text))?;
            return Some(self.run_code(args.to_vec(), text, cx));
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
        if let Some(kernel_argv) = text.as_deref().and_then(|t| interpreted(t, args)) {
            return Some(self.run_code(kernel_argv, text, cx));
        }
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

    /// An interpreter running a file the session wrote: the command, with the file's text as
    /// its program; unknown text is opaque.
    fn run_code(&mut self, argv: Vec<Arg>, text: Option<String>, cx: &Exec) -> Vec<usize> {
        let Some(text) = text else {
            self.opaque(OpaqueKind::DynamicScript, &cx.src);
            return vec![self.emit(argv, cx.clone())];
        };
        let at = self.emit(argv, cx.clone());
        if let Some(c) = self.get_mut(at) {
            c.program_text = Some(text);
        }
        vec![at]
    }
}

/// Programs that run a file of code given as their first operand.
const CODE_INTERPRETERS: [&str; 16] = [
    "python",
    "python2",
    "python3",
    "perl",
    "ruby",
    "node",
    "nodejs",
    "php",
    "lua",
    "Rscript",
    "tclsh",
    "osascript",
    "pwsh",
    "deno",
    "bun",
    "ts-node",
];

fn code_interpreter(name: &str) -> bool {
    CODE_INTERPRETERS.contains(&name) || name.starts_with("python3.")
}

/// The index of the program file an interpreter runs (`python3 -u t.py`, `deno run t.ts`):
/// its first operand, past flags and the values of the flags that take one.
fn program_file(name: &str, args: &[Arg]) -> Option<usize> {
    if !code_interpreter(name) {
        return None;
    }
    // Python's `-m`/`-c` and node's `-e`/`-p` run no file; these take a value.
    const VALUED: [&str; 10] = [
        "-W",
        "-X",
        "-I",
        "-r",
        "--require",
        "--import",
        "-M",
        "-x",
        "-C",
        "--loader",
    ];
    const NO_FILE: [&str; 6] = ["-m", "-c", "-e", "-p", "--eval", "--print"];
    let mut i = 1;
    while let Some(a) = args.get(i) {
        let t = a.text.as_str();
        if NO_FILE.contains(&t) {
            return None;
        }
        if matches!(name, "deno" | "bun") && t == "run" {
            i += 1;
            continue;
        }
        if !t.starts_with('-') || t == "-" {
            return (t != "-").then_some(i);
        }
        i += if VALUED.contains(&t) { 2 } else { 1 };
    }
    None
}

/// `./t.py` whose first line is `#!/usr/bin/env python3` (or `#!/usr/bin/perl -w`): the
/// command as the kernel runs it, interpreter first, when the interpreter runs code files.
fn interpreted(text: &str, args: &[Arg]) -> Option<Vec<Arg>> {
    let line = text.lines().next()?.strip_prefix("#!")?;
    let mut words = line.split_whitespace();
    let mut prog = basename(words.next()?);
    let mut rest: Vec<&str> = words.collect();
    if prog == "env" {
        rest.retain(|w| !w.starts_with('-'));
        prog = basename(rest.first()?);
        rest.remove(0);
    }
    if !code_interpreter(prog) {
        return None;
    }
    let mut argv: Vec<Arg> = std::iter::once(prog)
        .chain(rest)
        .map(Arg::literal)
        .collect();
    argv.extend(args.iter().cloned());
    Some(argv)
}

/// The sources and destination of a copying program (`None`: not one). The destination is
/// `None` under `-t DIR`, and for `ln` of one target, where each copy keeps its name.
fn copy_operands(name: &str, args: &[Arg]) -> Option<(Vec<Arg>, Option<Arg>)> {
    if name == "dd" {
        let value = |k: &str| {
            args[1..]
                .iter()
                .find_map(|a| a.text.strip_prefix(k).map(Arg::literal))
        };
        return Some((value("if=").into_iter().collect(), value("of=")));
    }
    let valued: &[&str] = match name {
        "cp" | "mv" | "ln" => &["-S", "--suffix"],
        "install" => &[
            "-m", "--mode", "-o", "--owner", "-g", "--group", "-S", "--suffix",
        ],
        "rsync" => &[
            "-e",
            "--rsh",
            "--exclude",
            "--include",
            "-f",
            "--filter",
            "--chmod",
        ],
        "scp" => &["-P", "-i", "-o", "-F", "-J", "-l", "-S", "-c"],
        _ => return None,
    };
    let (mut ops, mut into_dir, mut flags) = (Vec::new(), false, true);
    let mut words = args[1..].iter();
    while let Some(a) = words.next() {
        let t = a.text.as_str();
        if flags && t == "--" {
            flags = false;
        } else if flags && (t == "-t" || t == "--target-directory") {
            into_dir = true;
            words.next();
        } else if flags
            && (t.starts_with("--target-directory=")
                || t.starts_with("-t") && t.len() > 2 && !t.starts_with("--"))
        {
            into_dir = true;
        } else if flags && valued.contains(&t) {
            words.next();
        } else if !(flags && t.starts_with('-') && t.len() > 1) {
            ops.push(a.clone());
        }
    }
    if into_dir || name == "ln" && ops.len() == 1 {
        return Some((ops, None));
    }
    let dest = ops.pop();
    Some((ops, dest))
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
