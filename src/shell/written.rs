//! Files a script writes and then runs: `echo 'rm -rf ~' > t.sh && sh t.sh`, a makefile it
//! wrote and then makes, the same across the calls of a session (`ShellInput::earlier`), and a
//! copy, move or link of such a file (`cp t.sh u.sh && sh u.sh`). What an interpreter runs from
//! such a file (`python3 t.py`) is its program text (`Command::program_text`), judged as inline
//! code is. A file written with text only known when it runs (`curl URL > t.sh`, `cmd > t.sh`)
//! is kept as unknown, and running it is opaque.

use super::nest::{printed, shell_call, ShellCall, SHELLS};
use super::vars::Val;
use super::walk::{Exec, Walker};
use super::wrappers::basename;
use super::{Arg, OpaqueKind, RedirectKind};
use crate::code::imports::{self, Load};

/// The name standing for every file of an archive unpacked with unknown contents.
const UNPACKED: &str = "*";

impl Walker {
    /// `echo 'rm -rf ~/docs' > t.sh`, `cat > t.sh <<EOF`, `printf … | tee t.sh`: the literal
    /// text a command writes into files, remembered by their base names (a later run of the
    /// same name through another spelling of its path is judged by it too). What any other
    /// program writes (`curl URL > t.sh`, `base64 -d > t.sh`, `sed … > t.sh`) is unknown; a
    /// copy (`cp`, `mv`, `ln`, `install`, `dd`, `cat a.sh > b.sh`) of a file the script or
    /// session wrote holds that file's text.
    pub(super) fn note_written(&mut self, name: &str, args: &[Arg], cx: &Exec) {
        if self.note_copied(name, args, cx) || self.note_in_place(name, args) {
            return;
        }
        let mut targets: Vec<&Arg> = cx
            .redirects
            .iter()
            .filter(|r| matches!(r.kind, RedirectKind::Write | RedirectKind::Append))
            .map(|r| &r.target)
            .collect();
        if matches!(name, "tee" | "sponge") {
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
            // A package's file is found by its package too (`json/__init__.py`).
            if let Some(q) = imports::qualified(&t.text) {
                self.remember(q.to_owned(), text.clone());
            }
        }
    }

    /// What a command writes through a redirect or `tee`: `Some(None)` when only known when it
    /// runs, `None` when nothing the session wrote or computed reaches the file (`cat
    /// README.md > x`, a copy of a project file, is judged as that file would be).
    fn text_written(&self, name: &str, args: &[Arg], cx: &Exec) -> Option<Option<String>> {
        let files = || args[1..].iter().filter(|a| !a.text.starts_with('-'));
        match name {
            // echo ends its line unless told not to; printf prints what its format says.
            "echo" => {
                let newline = !args[1..].iter().any(|a| a.text == "-n");
                Some(printed(args, None).map(|t| if newline { t + "\n" } else { t }))
            }
            "printf" => Some(printed(args, None)),
            "cat" if files().next().is_some() => self.copied_text(files()),
            "cat" | "tee" | "sponge" => {
                let known = self.stdin_known(cx);
                match (known, self.read_written(cx)) {
                    (_, _) if self.transformed_literal(&cx.inputs) => Some(None),
                    (Some(t), _) => Some(Some(t)),
                    (None, Some(file)) => Some(file),
                    // `tee` with nothing known feeding it is a program's own write (the code
                    // reader's `tee -- FILE` for `open(FILE, 'w')`): what it holds is only
                    // known when it runs, and running that file runs unknown code.
                    (None, None) if cx.inputs.is_empty() && !cx.stdin_dynamic && name != "tee" => {
                        None
                    }
                    (None, None) => Some(None),
                }
            }
            _ => Some(None),
        }
    }

    /// What a command reads on stdin, when known: a here-doc or here-string, a literal
    /// printer's output.
    pub(super) fn stdin_known(&self, cx: &Exec) -> Option<String> {
        cx.stdin_text.clone().or_else(|| self.fed_text(&cx.inputs))
    }

    /// The text of files concatenated, when one of them is a file the session wrote (unknown
    /// when any part is).
    pub(super) fn copied_text<'a>(
        &self,
        files: impl Iterator<Item = &'a Arg>,
    ) -> Option<Option<String>> {
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
    fn note_copied(&mut self, name: &str, args: &[Arg], cx: &Exec) -> bool {
        let Some((sources, dest)) = copy_operands(name, args) else {
            return false;
        };
        let many = sources.len() > 1;
        // `dd of=x <<< …`, `cp /dev/stdin x <<EOF`: the copy of stdin.
        let from_stdin =
            |s: &Arg| matches!(s.text.as_str(), "/dev/stdin" | "-" | "/proc/self/fd/0");
        if let Some(d) = dest
            .as_ref()
            .filter(|_| sources.is_empty() || sources.iter().all(from_stdin))
        {
            if let Some(text) = self.stdin_known(cx) {
                self.remember(basename(&d.text).to_owned(), Some(text));
            } else if !cx.inputs.is_empty() {
                self.remember(basename(&d.text).to_owned(), None);
            }
            return true;
        }
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
    pub(super) fn remember(&mut self, key: String, text: Option<String>) {
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
            return self.make(name, args, cx);
        }
        if code_interpreter(name) || matches!(name, "pytest" | "py.test") {
            // pytest's files, named or not, are the tests it collects (`loaded`).
            let keys = match code_interpreter(name) {
                true => program_files(name, args),
                false => Vec::new(),
            };
            let texts: Vec<Option<String>> =
                keys.iter().filter_map(|k| self.written_text(k)).collect();
            let stdin = self.read_written(cx).filter(|_| keys.is_empty());
            let loaded = self.loaded(name, args, cx, &keys, &texts);
            if texts.is_empty() && stdin.is_none() && loaded.is_empty() {
                return None;
            }
            // Modules it loads, preloads and the program run one after the other: judged as
            // one text. Discovered tests are the project's own, judged as project files are.
            let strict: Vec<Option<String>> = (loaded.imported.into_iter())
                .chain(texts)
                .chain(stdin)
                .collect();
            if loaded.tests.iter().any(Option::is_none) {
                self.opaque(OpaqueKind::DynamicScript, &cx.src);
            }
            let out = match strict.is_empty() {
                true => vec![self.emit(args.to_vec(), cx.clone())],
                false => {
                    let text = strict.into_iter().collect::<Option<Vec<String>>>();
                    self.run_code(args.to_vec(), text.map(|t| t.join("\n")), cx)
                }
            };
            if let Some(c) = out.first().and_then(|&at| self.get_mut(at)) {
                c.discovered = loaded.tests.into_iter().flatten().collect();
            }
            return Some(out);
        }
        if name == "run-parts" {
            // Every file of the directory runs: any the session wrote may be one.
            let text = self.matching_text("*")?;
            return Some(self.run_shell_text(name, args, text, cx));
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
        let text = match file.pattern || key.contains("{}") {
            // `sh /tmp/hooks.d/*`, `. "$f"` over a glob, `find … -exec sh {} \;`: every
            // written file it may match.
            true => self.matching_text(&key.replace("{}", "*"))?,
            false => self.written_text(key)?,
        };
        if let Some(kernel_argv) = text.as_deref().and_then(|t| interpreted(t, args)) {
            return Some(self.run_code(kernel_argv, text, cx));
        }
        Some(self.run_shell_text(name, args, text, cx))
    }

    /// The command, then the text it runs as a script one level down (opaque when unknown).
    fn run_shell_text(
        &mut self,
        name: &str,
        args: &[Arg],
        text: Option<String>,
        cx: &Exec,
    ) -> Vec<usize> {
        let mut out = vec![self.emit(args.to_vec(), cx.clone())];
        let Some(text) = text else {
            self.opaque(OpaqueKind::DynamicScript, &cx.src);
            return out;
        };
        let label = format!("{name} (written)");
        let script = Arg::literal(&text);
        out.extend(self.nested_shell(&label, args, script, Vec::new(), cx.clone()));
        out
    }

    /// Files the session wrote that a program runs by an option or a variable rather than as
    /// its operand: `awk -f x.awk`, `sed -f`, `vim -S`/`-u`, `gdb -x`, `cmake -P`, `sqlite3
    /// -init`, `psql -f`, `make SHELL=x`, a shell's `--rcfile`/`--init-file` or `BASH_ENV`/`ENV`,
    /// `NODE_OPTIONS=--require x`, `PERL5OPT=-Mx`, `RUBYOPT=-rx`, a `sitecustomize.py` on
    /// `PYTHONPATH`, or a stdin redirect into a program that runs its input (`sqlite3 db <
    /// q.sql`, `ed -s f < e.ed`). A shell's startup file with known text runs first, as a
    /// script; awk's is returned as the command's program (judged as inline awk is); any
    /// other is opaque (the program's own language is not read here).
    pub(super) fn given_scripts(&mut self, name: &str, args: &[Arg], cx: &Exec) -> Option<String> {
        let awk = matches!(name, "awk" | "gawk" | "mawk" | "nawk");
        let mut program = None;
        let shell = SHELLS.contains(&name);
        let mut files: Vec<String> = script_options(name, args)
            .into_iter()
            .map(|f| basename(&f).to_string())
            .collect();
        let vars: &[&str] = match name {
            _ if shell => &["BASH_ENV", "ENV"],
            "node" | "nodejs" | "npm" | "npx" | "yarn" | "pnpm" => &["NODE_OPTIONS"],
            "perl" => &["PERL5OPT"],
            "ruby" => &["RUBYOPT"],
            _ => &[],
        };
        for var in vars {
            match self.given(cx, var) {
                // BASH_ENV and ENV name the file itself.
                Some(Val::Set(v)) if shell => files.push(basename(&v).to_string()),
                Some(Val::Set(v)) => files.extend(option_files(&v)),
                _ => {}
            }
        }
        // Python imports sitecustomize/usercustomize and runs a site-packages `.pth`'s import
        // lines at every start.
        if name.starts_with("python") {
            files.extend(["sitecustomize.py", "usercustomize.py"].map(String::from));
            let pth = self.written.iter().filter(|(k, _)| k.ends_with(".pth"));
            files.extend(pth.map(|(k, _)| k.clone()).collect::<Vec<_>>());
        }
        let runs_input = matches!(
            name,
            "sqlite3" | "ed" | "red" | "ex" | "psql" | "mysql" | "gdb"
        );
        if runs_input {
            if let Some(Some(_) | None) = self.read_written(cx) {
                self.opaque(OpaqueKind::DynamicScript, &cx.src);
            }
        }
        for f in files {
            match self.written_text(&f) {
                Some(Some(text)) if shell => {
                    let label = format!("{name} (startup file)");
                    self.nested_shell(&label, args, Arg::literal(&text), Vec::new(), cx.clone());
                }
                Some(Some(text)) if awk => program = Some(text),
                Some(_) => self.opaque(OpaqueKind::DynamicScript, &cx.src),
                None => {}
            }
        }
        program
    }

    /// Files the session wrote that an interpreter command loads without naming them
    /// (`crate::code::imports`): modules its program or its files import, preloads, a
    /// start-up file, doctest's examples, the tests a runner discovers; followed into what
    /// each imports in turn. Nothing is looked at when the session wrote nothing.
    fn loaded(
        &self,
        name: &str,
        args: &[Arg],
        cx: &Exec,
        keys: &[String],
        texts: &[Option<String>],
    ) -> Loaded {
        let mut out = Loaded::default();
        let lang = crate::code::language(name).filter(|_| !self.written.is_empty());
        let Some(lang) = lang else {
            return out;
        };
        let words: Vec<&str> = args[1..].iter().map(|a| a.text.as_str()).collect();
        let startup = match self.given(cx, "PYTHONSTARTUP") {
            Some(Val::Set(v)) => Some(v),
            _ => None,
        };
        let mut loads = imports::command(lang, name, &words, startup.as_deref());
        if let Some(code) = imports::inline(lang, &words) {
            loads.extend(imports::modules(lang, &code));
        }
        for t in texts.iter().flatten() {
            loads.extend(imports::modules(lang, t));
        }
        let mut taken: Vec<&str> = keys.iter().map(String::as_str).collect();
        let mut i = 0;
        while let Some(load) = loads.get(i).cloned() {
            i += 1;
            for (key, text) in &self.written {
                if taken.len() >= MAX_LOADED || taken.contains(&key.as_str()) || !load.matches(key)
                {
                    continue;
                }
                taken.push(key);
                let text = match &load {
                    Load::Examples(_) => text.as_deref().map(imports::examples),
                    _ => text.clone(),
                };
                if let Some(t) = text.as_deref().filter(|_| loads.len() < MAX_IMPORTS) {
                    loads.extend(imports::modules(lang, t));
                }
                match load {
                    Load::Tests(_) => out.tests.push(text),
                    _ => out.imported.push(text),
                }
            }
        }
        out
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

/// What an interpreter command loads from the session's files (`Walker::loaded`): `None`
/// where the text is only known when it runs.
#[derive(Default)]
struct Loaded {
    /// Modules, preloads, start-up files, doctest examples: part of its program.
    imported: Vec<Option<String>>,
    /// Test files a runner discovers.
    tests: Vec<Option<String>>,
}

impl Loaded {
    fn is_empty(&self) -> bool {
        self.imported.is_empty() && self.tests.is_empty()
    }
}

/// Most files one command is followed into, and import names gathered on the way.
const MAX_LOADED: usize = 32;
const MAX_IMPORTS: usize = 512;

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

/// The files an interpreter runs, by name: its program file (`python3 -u t.py`, `deno run
/// t.ts`; past flags and the values of flags that take one), a module run as a program
/// (`python3 -m tools.clean` runs tools/clean.py), and files preloaded before it (`node -r
/// ./hook.js`, `--import`).
fn program_files(name: &str, args: &[Arg]) -> Vec<String> {
    const VALUED: [&str; 6] = ["-W", "-X", "-I", "-x", "-C", "--loader"];
    const PRELOAD: [&str; 3] = ["-r", "--require", "--import"];
    const NO_FILE: [&str; 5] = ["-c", "-e", "-p", "--eval", "--print"];
    let mut out = Vec::new();
    let mut i = 1;
    while let Some(a) = args.get(i) {
        let t = a.text.as_str();
        let value = args.get(i + 1).map(|v| v.text.as_str());
        if NO_FILE.contains(&t) {
            break;
        }
        if t == "-m" {
            if let Some(m) = value {
                let leaf = m.rsplit('.').next().unwrap_or(m);
                out.push(format!("{leaf}.py"));
                out.push("__main__.py".into());
            }
            break;
        }
        if PRELOAD.contains(&t) || name == "lua" && t == "-l" {
            out.extend(value.map(|v| preloaded(name, v)).into_iter().flatten());
            i += 2;
            continue;
        }
        if let Some(v) = glued_preload(name, t) {
            out.extend(preloaded(name, v));
            i += 1;
            continue;
        }
        if matches!(name, "deno" | "bun") && t == "run" {
            i += 1;
            continue;
        }
        if !t.starts_with('-') {
            out.push(basename(t).to_string());
            break;
        }
        i += if VALUED.contains(&t) { 2 } else { 1 };
    }
    out
}

/// The value of a preload flag written in the same word: Ruby's `-r/tmp/x.rb`, `-rx` (require
/// before the program, ruby(1)) and Lua's `-lx` (`require("x")`, lua(1)).
fn glued_preload<'a>(name: &str, t: &'a str) -> Option<&'a str> {
    let flag = match name {
        "ruby" => "-r",
        "lua" => "-l",
        _ => return None,
    };
    t.strip_prefix(flag).filter(|v| !v.is_empty())
}

/// The files a preload names: the file itself, and for a bare module name the file its
/// `require` finds in the working directory (`-rx` → x.rb, `-lx` → x.lua).
fn preloaded(name: &str, v: &str) -> Vec<String> {
    let file = basename(v).to_string();
    let ext = match name {
        "ruby" => ".rb",
        "lua" => ".lua",
        _ => return vec![file],
    };
    match file.ends_with(ext) {
        true => vec![file],
        false => vec![format!("{file}{ext}"), file],
    }
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
pub fn copy_operands(name: &str, args: &[Arg]) -> Option<(Vec<Arg>, Option<Arg>)> {
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
    /// What the script wrote to a file named `key` (by basename): `Some(None)` when written
    /// but not known.
    pub(super) fn written_text(&self, key: &str) -> Option<Option<String>> {
        let own = self.written.iter().find(|(k, _)| k == key);
        // After an archive of unknown contents was unpacked, any file may be one of its.
        let unpacked = || {
            self.written
                .iter()
                .find(|(k, _)| k == UNPACKED)
                .map(|_| None)
        };
        own.map(|(_, t)| t.clone()).or_else(unpacked)
    }

    /// The text of every written file whose name matches `pattern`, one after the other
    /// (unknown when any is).
    fn matching_text(&self, pattern: &str) -> Option<Option<String>> {
        let matched: Vec<&Option<String>> = (self.written.iter())
            .filter(|(k, _)| k == UNPACKED || crate::paths::glob_matches(pattern, k))
            .map(|(_, t)| t)
            .collect();
        if matched.is_empty() {
            return None;
        }
        Some(
            matched
                .into_iter()
                .cloned()
                .collect::<Option<Vec<String>>>()
                .map(|t| t.join("\n")),
        )
    }

    /// `tar xzf pkg.tgz`, `unzip x.zip`, `curl … | tar x`: an archive the session wrote with
    /// text only known when it runs (a download), or one fed by a program, unpacked: its files
    /// are unknown, by any name (`UNPACKED`).
    pub(super) fn note_unpacked(&mut self, name: &str, args: &[Arg], cx: &Exec) {
        let unpacks = match name {
            "tar" | "bsdtar" => args.get(1).is_some_and(|a| {
                let flags = a.text.trim_start_matches('-');
                a.text.starts_with("--extract") || !a.text.starts_with("--") && flags.contains('x')
            }),
            "unzip" | "7z" | "7za" | "cpio" | "unrar" | "gunzip" => true,
            _ => false,
        };
        if !unpacks {
            return;
        }
        let unknown_archive = args[1..]
            .iter()
            .any(|a| matches!(self.written_text(basename(&a.text)), Some(None)));
        let fed = !cx.inputs.is_empty() && !self.feeds_files(&cx.inputs);
        if unknown_archive || fed || matches!(self.read_written(cx), Some(None)) {
            self.remember(UNPACKED.to_owned(), None);
        }
    }
}

/// Files a program takes as a script of its own language through an option.
fn script_options(name: &str, args: &[Arg]) -> Vec<String> {
    let options: &[&str] = match name {
        "awk" | "gawk" | "mawk" | "nawk" | "sed" | "gsed" => &["-f", "--file"],
        "vim" | "nvim" | "vi" | "ex" | "view" | "gvim" => &["-S", "-u"],
        "gdb" => &["-x", "--command", "-ix", "--init-command"],
        "cmake" => &["-P"],
        "sqlite3" => &["-init"],
        "psql" => &["-f", "--file"],
        _ if SHELLS.contains(&name) => &["--rcfile", "--init-file"],
        _ => &[],
    };
    let make = matches!(name, "make" | "gmake");
    // Most programs take no such option: their words are not looked at.
    if options.is_empty() && !make {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (i, a) in args.iter().enumerate().skip(1) {
        let t = a.text.as_str();
        if options.contains(&t) {
            out.extend(args.get(i + 1).map(|v| v.text.clone()));
        }
        for o in options.iter().filter(|o| o.starts_with("--")) {
            if let Some(v) = t.strip_prefix(&format!("{o}=")) {
                out.push(v.to_string());
            }
        }
        // make's `SHELL=prog` runs every recipe line through prog.
        if make {
            out.extend(t.strip_prefix("SHELL=").map(str::to_string));
        }
    }
    out
}

/// The files an option string loads (`--require ./x.js -r y`, `-M/tmp/x`, `-r/tmp/x.rb`).
fn option_files(v: &str) -> Vec<String> {
    let words: Vec<&str> = v.split_whitespace().collect();
    let mut out = Vec::new();
    for (i, w) in words.iter().enumerate() {
        if matches!(*w, "-r" | "--require" | "--import" | "--loader") {
            out.extend(words.get(i + 1).map(|f| basename(f).to_string()));
        }
        for prefix in ["--require=", "--import=", "-M", "-m", "-r"] {
            if let Some(f) = w
                .strip_prefix(prefix)
                .filter(|f| !f.is_empty() && !f.starts_with('='))
            {
                let f = f.split_once('=').map_or(f, |(m, _)| m);
                out.push(basename(f).to_string());
                // Perl's -MFoo::Bar loads Foo/Bar.pm.
                out.push(format!(
                    "{}.pm",
                    basename(f.rsplit("::").next().unwrap_or(f))
                ));
                out.push(format!("{}.rb", basename(f)));
            }
        }
    }
    out
}
