//! From argv to commands: wrappers peeled off, and the scripts inside a command followed —
//! `bash -c STRING`, `eval WORDS`, a here-doc fed to a shell, `find -exec CMD ;` — one depth
//! further. What cannot be followed (a script that is not literal) is named as opaque.

use super::vars::{Val, Vars};
use super::walk::{Exec, Walker};
use super::wrappers::{self, basename, Peel};
use super::{ansi, Arg, OpaqueKind, MAX_DEPTH};

pub(super) const SHELLS: &[&str] = &[
    "sh",
    "bash",
    "zsh",
    "dash",
    "ksh",
    "ash",
    "mksh",
    "yash",
    "busybox-sh",
];

/// A script file that is the shell's own stdin (`sh /dev/stdin`, as `sh -s`).
pub(super) fn reads_stdin(a: &Arg) -> bool {
    !a.unresolved
        && matches!(
            a.text.as_str(),
            "/dev/stdin" | "/dev/fd/0" | "/proc/self/fd/0"
        )
}

/// The word a `<(…)` stands for (see `Walker::process_substitution`).
fn process_substitution(a: &Arg) -> bool {
    a.unresolved && a.text == super::walk::PROCESS_SUBSTITUTION
}

/// How a shell was asked to get its script.
pub(super) enum ShellCall {
    /// `-c STRING [NAME ARGS…]`: the index of STRING.
    String(usize),
    /// A script file (index): run, not known.
    File(usize),
    /// No script argument, or `-s`: the script is stdin.
    Stdin,
}

pub(super) fn shell_call(args: &[Arg]) -> ShellCall {
    let mut dash_c = false;
    let mut stdin = false;
    let mut i = 1;
    while let Some(a) = args.get(i) {
        let t = a.text.as_str();
        if t == "--" || t == "-" {
            i += 1;
            break;
        }
        if let Some(long) = t.strip_prefix("--") {
            i += if matches!(long, "rcfile" | "init-file") {
                2
            } else {
                1
            };
            continue;
        }
        let Some(flags) = t.strip_prefix(['-', '+']).filter(|f| !f.is_empty()) else {
            break;
        };
        dash_c |= t.starts_with('-') && flags.contains('c');
        stdin |= t.starts_with('-') && flags.contains('s');
        // `-o NAME`, `-O NAME`: the option name is the next word.
        i += if flags.ends_with(['o', 'O']) { 2 } else { 1 };
    }
    match (dash_c, i < args.len()) {
        (true, true) => ShellCall::String(i),
        (false, true) if !stdin => ShellCall::File(i),
        _ => ShellCall::Stdin,
    }
}

impl Walker {
    /// Peels wrappers off `args` and pushes what runs; returns the commands whose output
    /// leaves (for the next pipeline stage).
    pub(super) fn exec(&mut self, mut args: Vec<Arg>, mut cx: Exec) -> Vec<usize> {
        loop {
            if !self.charge(1) {
                return Vec::new();
            }
            match args.first() {
                None => return vec![self.emit(args, cx)],
                Some(a) if a.unresolved => return vec![self.emit(args, cx)],
                Some(_) => {}
            }
            match wrappers::peel(&args) {
                Peel::Program => {
                    self.preload(&cx);
                    self.command_hooks(&cx);
                    self.daemon_vars(&args, &mut cx);
                    return self.run_program(args, cx);
                }
                Peel::Wrap {
                    label,
                    skip,
                    env,
                    clear_env,
                } => {
                    if let Some(dir) = wrappers::chdir(&args[..skip]) {
                        cx.chdir = Some(dir);
                    }
                    cx.wrappers.push(label);
                    cx.clear_env |= clear_env;
                    let env: Vec<(String, Val)> =
                        env.into_iter().map(|(n, v)| (n, Val::Set(v))).collect();
                    self.shell_hooks(&env, &cx);
                    cx.env.extend(env);
                    let xargs = label_is_xargs(&cx);
                    let (opts, rest) = args.split_at(skip);
                    // The argument file is read by xargs itself, not by its command.
                    let mut outer = cx.clone();
                    outer.wrappers.pop();
                    self.arg_files(basename(&opts[0].text), opts, rest, &outer);
                    args.drain(..skip);
                    if xargs {
                        xargs_input(&mut args);
                    }
                }
                Peel::Split {
                    label,
                    at,
                    end,
                    keep,
                    value,
                } => {
                    cx.wrappers.push(label);
                    let mut words: Vec<Arg> = keep.iter().map(|k| Arg::literal(k)).collect();
                    words.extend(self.env_split(&value));
                    args.splice(at..end.min(args.len()), words);
                }
                Peel::Package { label, index } => {
                    cx.wrappers.push(label);
                    args.drain(..index);
                    let bin = wrappers::package_binary(&args[0].text).to_owned();
                    args[0].text = bin;
                }
                Peel::Script {
                    label,
                    from,
                    single,
                } => {
                    let words = if single {
                        &args[from..=from]
                    } else {
                        &args[from..]
                    };
                    let script = join(words);
                    let (opts, rest) = args.split_at(from);
                    self.arg_files(basename(&opts[0].text), opts, rest, &cx);
                    // ssh itself runs here, and its options may run commands of their own
                    // (`-o ProxyCommand=…`): it stays a command, without the remote words.
                    if label.starts_with("ssh ") {
                        self.emit(args[..from].to_vec(), cx.clone());
                        self.documents(basename(&args[0].text), &args[..from], &cx);
                    }
                    // `script -q FILE -c CMD` writes its typescript to FILE: script stays a
                    // command of its own, without `-c CMD`.
                    if label == "script" {
                        let own = (args.iter().enumerate())
                            .filter(|&(i, _)| i != from && i + 1 != from)
                            .map(|(_, a)| a.clone())
                            .collect();
                        self.emit(own, cx.clone());
                    }
                    return self.nested_shell(&label, &args, script, Vec::new(), cx);
                }
                Peel::Commands { label, from, sep } => {
                    let script = join_with(&args[from..], sep);
                    return self.nested_shell(&label, &args, script, Vec::new(), cx);
                }
            }
        }
    }

    /// `args[0]` is the program: shells, `eval` and `find` contain more commands.
    fn run_program(&mut self, args: Vec<Arg>, cx: Exec) -> Vec<usize> {
        let name = basename(&args[0].text).to_owned();
        self.rebinds(&name, &args, &cx);
        if let Some(out) = self.alias(&name, &args, &cx) {
            return out;
        }
        self.note_written(&name, &args, &cx);
        self.note_hooks_filled(&name, &args);
        self.note_compiled(&name, &args, &cx);
        let program = self.given_scripts(&name, &args, &cx);
        self.documents(&name, &args, &cx);
        self.arg_files(&name, &args, &[], &cx);
        self.note_unpacked(&name, &args, &cx);
        if let Some(out) = self.run_written(&name, &args, &cx) {
            return out;
        }
        if let Some(out) = self.run_project(&name, &args, &cx) {
            return out;
        }
        if name == "git" {
            if let Some(out) = self.git(&args, &cx) {
                return out;
            }
        }
        if SHELLS.contains(&name.as_str()) {
            return self.shell(&name, args, cx);
        }
        match name.as_str() {
            "eval" => self.eval(args, cx),
            "source" | "." => self.source(&name, args, cx),
            "find" => self.find(args, cx),
            "mapfile" | "readarray" => {
                self.declare(&name, &args, &cx);
                self.mapfile(args, cx)
            }
            // `echo CMD | at now`: at runs its stdin as a shell script (unless `-f FILE`).
            "at" | "batch" if !args[1..].iter().any(|a| a.text.starts_with("-f")) => {
                self.stdin_script(&name, args, cx)
            }
            "cd" | "pushd" => {
                let alternatives = self.cdpath(&args, &cx);
                let mut out = vec![self.emit(args, cx.clone())];
                for dir in alternatives {
                    let mut alt = cx.clone();
                    alt.wrappers.push("CDPATH/OLDPWD".to_owned());
                    out.push(self.emit(vec![Arg::literal(&name), Arg::literal(&dir)], alt));
                }
                out
            }
            _ => {
                self.evaluated_words(&name, &args, cx.depth, &cx.src);
                self.declare(&name, &args, &cx);
                let at = self.emit(args, cx);
                if let (Some(text), Some(c)) = (program, self.get_mut(at)) {
                    c.program_text = Some(text);
                }
                vec![at]
            }
        }
    }

    fn shell(&mut self, name: &str, args: Vec<Arg>, cx: Exec) -> Vec<usize> {
        match shell_call(&args) {
            ShellCall::String(i) => {
                let script = args[i].clone();
                let positional = args[i + 1..]
                    .iter()
                    .map(|a| (a.text.clone(), a.unresolved))
                    .collect();
                self.nested_shell(&format!("{name} -c"), &args, script, positional, cx)
            }
            ShellCall::File(i) if reads_stdin(&args[i]) => self.stdin_script(name, args, cx),
            ShellCall::File(i) => self.script_file(name, i, args, cx),
            ShellCall::Stdin => self.stdin_script(name, args, cx),
        }
    }

    /// `bash FILE`: the file runs, unknown, except `<(echo CMD)` (see `substituted`). Any
    /// other computed script file is opaque.
    fn script_file(&mut self, name: &str, i: usize, args: Vec<Arg>, cx: Exec) -> Vec<usize> {
        if let Some(out) = self.substituted(name, i, &args, &cx) {
            return out;
        }
        if args[i].unresolved {
            self.opaque(OpaqueKind::DynamicScript, &cx.src);
        }
        vec![self.emit(args, cx)]
    }

    /// `bash <(echo CMD)`, `source <(printf …)`: the script file is a process substitution
    /// whose text is a literal a printer writes: the command, then that text one level down.
    fn substituted(&mut self, name: &str, i: usize, args: &[Arg], cx: &Exec) -> Option<Vec<usize>> {
        if !process_substitution(&args[i]) {
            return None;
        }
        let text = self.fed_text(&cx.inputs)?;
        let mut out = vec![self.emit(args.to_vec(), cx.clone())];
        let label = format!("{name} <(…)");
        let script = Arg::literal(&text);
        out.extend(self.nested_shell(&label, args, script, Vec::new(), cx.clone()));
        Some(out)
    }

    /// `source FILE` / `. FILE` runs FILE in this shell; `/dev/stdin` and `<(…)` as for a
    /// shell. A computed FILE stays a file (`source "$NVM_DIR/nvm.sh"` is everyday setup).
    fn source(&mut self, name: &str, args: Vec<Arg>, cx: Exec) -> Vec<usize> {
        match args.get(1) {
            Some(a) if reads_stdin(a) => self.stdin_script(name, args, cx),
            Some(_) => match self.substituted(name, 1, &args, &cx) {
                Some(out) => out,
                None => vec![self.emit(args, cx)],
            },
            None => vec![self.emit(args, cx)],
        }
    }

    /// A program that runs its stdin as a shell script: the command itself, then the script
    /// when its text is known.
    fn stdin_script(&mut self, name: &str, args: Vec<Arg>, cx: Exec) -> Vec<usize> {
        let from_file = self.read_written(&cx);
        let unknown_file = matches!(from_file, Some(None));
        let text = cx
            .stdin_text
            .clone()
            .or_else(|| self.fed_text(&cx.inputs))
            .or(from_file.flatten());
        let transformed = text.is_none() && self.transformed_literal(&cx.inputs);
        let computed = text.is_none() && !self.feeds_files(&cx.inputs);
        if cx.stdin_dynamic || transformed || unknown_file || computed {
            self.opaque(OpaqueKind::DynamicScript, &cx.src);
        }
        let mut out = vec![self.emit(args.clone(), cx.clone())];
        if let Some(text) = text {
            let script = Arg::literal(&text);
            let label = format!("{name} -s");
            out.extend(self.nested_shell(&label, &args, script, Vec::new(), cx));
        }
        out
    }

    /// The text a literal feeder writes into a pipe (`echo 'rm -rf /x' | sh`): `echo` of known
    /// words (`-e` decoding escapes), `printf` of a plain format, `cat` of a here-doc or of
    /// files the session wrote.
    pub(super) fn fed_text(&self, inputs: &[usize]) -> Option<String> {
        let [i] = inputs else { return None };
        let c = self.get(*i)?;
        if basename(&c.argv.first()?.text) == "cat" && c.argv.len() > 1 {
            return self.copied_text(c.argv[1..].iter()).flatten();
        }
        printed(&c.argv, c.stdin_text.as_ref())
    }

    /// Whether what feeds `inputs` is the project's files read as they are (`cat deploy.sh |
    /// sh` runs deploy.sh, as `sh deploy.sh` does), rather than text a program computes
    /// (`yes CMD | head -n1 | sh`, `jq -r … | sh`) or a file the session wrote unknown.
    pub(super) fn feeds_files(&self, inputs: &[usize]) -> bool {
        inputs.iter().all(|&i| {
            self.get(i).is_some_and(|c| {
                let files = c.argv.get(1..).unwrap_or_default();
                let plain = |a: &Arg| {
                    !a.unresolved
                        && !a.text.starts_with('-')
                        && self.written_text(basename(&a.text)).is_none()
                };
                c.argv.first().is_some_and(|p| basename(&p.text) == "cat")
                    && !files.is_empty()
                    && files.iter().all(plain)
            })
        })
    }

    /// `echo 'Xm -rf ~' | sed s/X/r/ | sh`: text the script wrote is changed on its way into
    /// the shell (sed, cut, tr, dd conv=, awk…), or printed from a variable (`echo "$CMD" |
    /// sh`), so what runs is only known when it runs. A pipe from a file (`cat deploy.sh | sh`)
    /// is the file run, as `sh deploy.sh` is.
    pub(super) fn transformed_literal(&self, inputs: &[usize]) -> bool {
        self.any_upstream(inputs, |c, seen| {
            // Printed straight in but only known when it runs (`echo "$CMD" | sh`) counts too.
            let unknown = c.argv.iter().any(|a| a.unresolved);
            super::written::prints_literal(c) && (seen > 1 || unknown)
        })
    }

    /// Runs `script` as a child shell's script at the next depth, with the child's
    /// environment; a script that is not literal is opaque and the command itself is kept
    /// (its inputs say where the script came from).
    pub(super) fn nested_shell(
        &mut self,
        label: &str,
        args: &[Arg],
        script: Arg,
        positional: Vec<(String, bool)>,
        mut cx: Exec,
    ) -> Vec<usize> {
        if script.unresolved {
            self.opaque(OpaqueKind::DynamicScript, &cx.src);
            return vec![self.emit(args.to_vec(), cx)];
        }
        if cx.depth + 1 > MAX_DEPTH {
            self.too_deep(&script.text);
            return Vec::new();
        }
        let mut child = if cx.clear_env {
            Vars::from_env(&[])
        } else {
            self.vars.for_child()
        };
        for (name, val) in std::mem::take(&mut cx.env) {
            child.set(&name, val, true);
        }
        child.set_positional(&positional);
        let saved_vars = std::mem::replace(&mut self.vars, child);
        cx.wrappers.push(label.to_owned());
        let out = self.in_prefix(&cx, |w| w.script(&script.text, cx.depth + 1, &cx.inputs));
        self.vars = saved_vars;
        out
    }

    /// Walks with `cx`'s wrappers prepended to every command, and its redirects added.
    pub(super) fn in_prefix(
        &mut self,
        cx: &Exec,
        f: impl FnOnce(&mut Walker) -> Vec<usize>,
    ) -> Vec<usize> {
        let from = self.len();
        let saved = self.prefix.len();
        self.prefix.extend(cx.wrappers.iter().cloned());
        let out = f(self);
        self.prefix.truncate(saved);
        self.redirect_range(from, &cx.redirects);
        out
    }

    /// `eval WORDS`: the words joined by spaces are a script run in this shell.
    fn eval(&mut self, args: Vec<Arg>, mut cx: Exec) -> Vec<usize> {
        let words = &args[1..];
        if words.iter().any(|a| a.unresolved) {
            self.opaque(OpaqueKind::DynamicScript, &cx.src);
            return vec![self.emit(args, cx)];
        }
        if cx.depth + 1 > MAX_DEPTH {
            self.too_deep(&cx.src);
            return Vec::new();
        }
        let script = join(words).text;
        cx.wrappers.push("eval".to_owned());
        self.in_prefix(&cx, |w| w.script(&script, cx.depth + 1, &cx.inputs))
    }

    /// `find … -exec CMD {} ;`: find itself, then each CMD as a command of its own.
    fn find(&mut self, args: Vec<Arg>, cx: Exec) -> Vec<usize> {
        let mut execs = Vec::new();
        let mut i = 1;
        while i < args.len() {
            let t = args[i].text.as_str();
            if matches!(t, "-exec" | "-execdir" | "-ok" | "-okdir") {
                let end = args[i + 1..]
                    .iter()
                    .position(|a| a.text == ";" || a.text == "+")
                    .map_or(args.len(), |p| i + 1 + p);
                execs.push((format!("find {t}"), args[i + 1..end].to_vec()));
                i = end;
            }
            i += 1;
        }
        let mut sub_cx = Exec::new(cx.depth, cx.src.clone());
        sub_cx.wrappers = cx.wrappers.clone();
        let found = self.emit(args, cx);
        let mut out = vec![found];
        for (label, sub) in execs {
            if sub.is_empty() {
                continue;
            }
            let mut c = sub_cx.clone();
            c.wrappers.push(label);
            out.extend(self.exec(sub, c));
        }
        out
    }

    /// Builtins that change variables later words see.
    fn declare(&mut self, name: &str, args: &[Arg], cx: &Exec) {
        let operands = args[1..].iter().filter(|a| !a.text.starts_with(['-', '+']));
        match name {
            "export" | "declare" | "typeset" | "readonly" | "local" => {
                let export = name == "export" || args[1..].iter().any(|a| a.text == "-x");
                // `declare -n r=C` makes r a name for C, not the text "C": not followed, so r
                // is unknown (and `$r` in command position opaque).
                let nameref = args[1..]
                    .iter()
                    .any(|a| a.text.starts_with('-') && a.text.contains('n'));
                for a in operands {
                    match wrappers::split_assignment(&a.text) {
                        Some((n, _)) if a.unresolved || nameref => {
                            self.vars.set(n, Val::Unknown, export)
                        }
                        Some((n, v)) => {
                            let val = Val::Set(v.to_owned());
                            self.shell_hooks(&[(n.to_owned(), val.clone())], cx);
                            self.vars.set(n, val, export)
                        }
                        None if export => self.vars.export(&a.text),
                        None => {}
                    }
                }
            }
            "unset" => operands.for_each(|a| self.vars.set(&a.text, Val::Unset, false)),
            "read" | "mapfile" | "readarray" => {
                operands.for_each(|a| self.vars.set(&a.text, Val::Unknown, false));
            }
            _ => {}
        }
    }
}

fn label_is_xargs(cx: &Exec) -> bool {
    cx.wrappers.last().is_some_and(|l| l == "xargs")
}

/// What a printer run by xargs prints holds the items xargs read (`xargs -I@ echo rm -rf @ |
/// sh` runs a command built from its input): a word only known when it runs, so the printed
/// text is not taken as the literal words.
fn xargs_input(args: &mut Vec<Arg>) {
    let printer = args
        .first()
        .is_some_and(|a| matches!(basename(&a.text), "echo" | "printf"));
    if printer {
        args.push(Arg {
            text: "{xargs input}".to_owned(),
            pattern: false,
            unresolved: true,
        });
    }
}

/// What `echo` of known words (`-e` decoding escapes), `printf` of a plain format, or `cat` of
/// a here-doc (`stdin`) prints.
pub(super) fn printed(argv: &[Arg], stdin: Option<&String>) -> Option<String> {
    if argv.iter().any(|a| a.unresolved || a.pattern) {
        return None;
    }
    let args = argv.get(1..)?;
    match basename(&argv.first()?.text) {
        "echo" => {
            let flags = args
                .iter()
                .take_while(|a| a.text == "-n" || a.text == "-e" || a.text == "-E");
            let decode = flags.clone().any(|a| a.text == "-e");
            let text = join(&args[flags.count()..]).text;
            Some(if decode { ansi::decode(&text) } else { text })
        }
        "printf" => printf_output(args),
        "cat" if args.is_empty() => stdin.cloned(),
        _ => None,
    }
}

/// What `printf FORMAT ARGS…` prints when the format's only directives are `%s`, `%b` (the
/// argument with its escapes decoded) and `%%`: escapes decoded, the format reused while
/// arguments remain.
fn printf_output(args: &[Arg]) -> Option<String> {
    let (format, values) = args.split_first()?;
    let (pieces, kinds) = printf_format(&ansi::decode(&format.text.replace("%%", "\u{1}")))?;
    let mut out = String::new();
    let mut values = values.iter().map(|v| v.text.as_str()).peekable();
    for round in 0..64 {
        if round > 0 && (kinds.is_empty() || values.peek().is_none()) {
            break;
        }
        out.push_str(&pieces[0]);
        for (kind, p) in kinds.iter().zip(&pieces[1..]) {
            let v = values.next().unwrap_or("");
            match kind {
                'b' => out.push_str(&printf_b(v)),
                _ => out.push_str(v),
            }
            out.push_str(p);
        }
    }
    Some(out.replace('\u{1}', "%"))
}

/// A format as the literal pieces around its directives, and each directive (`s` or `b`);
/// `None` for any other directive (a width, `%d`…), whose output is not followed.
fn printf_format(format: &str) -> Option<(Vec<String>, Vec<char>)> {
    let mut pieces = vec![String::new()];
    let mut kinds = Vec::new();
    let mut chars = format.chars();
    while let Some(ch) = chars.next() {
        if ch != '%' {
            pieces.last_mut()?.push(ch);
            continue;
        }
        match chars.next() {
            Some(k @ ('s' | 'b')) => {
                kinds.push(k);
                pieces.push(String::new());
            }
            _ => return None,
        }
    }
    Some((pieces, kinds))
}

/// `%b`'s escapes: those of `$'…'`, with octal written `\0NNN`.
fn printf_b(v: &str) -> String {
    ansi::decode(&v.replace("\\0", "\\"))
}

/// `"$@"` as the words it expands to (`"${1}" "${2}"` for two), each a positional parameter
/// the model knows (it keeps no list for `$@` itself), after a space.
pub(super) fn positional_words(n: usize) -> String {
    (1..=n).map(|i| format!(" \"${{{i}}}\"")).collect()
}

/// Words joined by spaces, as `eval` and `sh -c "$*"` see them.
pub(super) fn join(words: &[Arg]) -> Arg {
    join_with(words, " ")
}

/// The words as one script, `sep` between them.
fn join_with(words: &[Arg], sep: &str) -> Arg {
    let mut out = Arg::default();
    for (i, w) in words.iter().enumerate() {
        if i > 0 {
            out.text.push_str(sep);
        }
        out.text.push_str(&w.text);
        out.unresolved |= w.unresolved;
    }
    out
}

impl Walker {
    /// `env -S STRING`'s words, with `${NAME}` from the variables env inherits (an unknown
    /// HOME is the agent's, `~`); a STRING only known when it runs stays one unknown word.
    fn env_split(&self, value: &Arg) -> Vec<Arg> {
        if value.unresolved {
            return vec![value.clone()];
        }
        let lookup = |n: &str| match self.vars.get(n) {
            Val::Set(v) => Some(v),
            Val::Unset => Some(String::new()),
            Val::Unknown if n == "HOME" => Some("~".to_owned()),
            Val::Unknown => None,
        };
        (super::split_string::split(&value.text, lookup).into_iter())
            .map(|w| Arg {
                pattern: w.unresolved,
                text: w.text,
                unresolved: w.unresolved,
            })
            .collect()
    }
}
