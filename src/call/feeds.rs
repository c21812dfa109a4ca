//! What the shell model leaves for the consumer of a command's input to say: arguments `xargs`
//! builds from its input, the files `find -exec` hands over as `{}`, and scripts printed into a
//! shell or hidden in a program's config (`git -c core.pager=…`).

use crate::guards::argv::{args, operands, option_values, program};
use crate::shell::{self, Arg, Command, Script, ShellInput, MAX_DEPTH};

pub fn complete(script: &mut Script, env: &[(String, String)]) {
    let n = script.commands.len();
    let mut extra = Script::default();
    for i in 0..n {
        let fed = fed_text(script, i);
        let under_find = script.commands[i]
            .wrappers
            .iter()
            .any(|w| w.starts_with("find -"));
        let roots = if under_find {
            script_roots(script, i)
        } else {
            Vec::new()
        };
        let c = &mut script.commands[i];
        if c.wrappers.iter().any(|w| w == "xargs") || names_from_stdin(c) {
            xargs_args(c, fed.as_deref());
        }
        if c.stdin_text.is_none() && fed.is_some() && crate::guards::inline::runs_stdin(c) {
            // `echo 'puts [read [open .env]]' | tclsh`: the printed text is its program.
            c.stdin_text = fed.clone();
        }
        if c.wrappers.iter().any(|w| w.starts_with("find -")) {
            find_files(c, &roots);
        }
        let c = &script.commands[i];
        if let Some(text) = printed_script(c, fed.as_deref()) {
            extend(&mut extra, &text, env, c.depth + 1);
        }
        for text in planted(c, fed.as_deref()) {
            extend(&mut extra, &text, env, c.depth + 1);
        }
        for copied in planted_copies(&script.written, c) {
            match copied {
                Some(text) => extend(&mut extra, &text, env, c.depth + 1),
                None => extra.opaque.push(shell::Opaque {
                    kind: shell::OpaqueKind::DynamicScript,
                    text: format!(
                        "a file only known when it runs, put where it runs later by `{}`",
                        crate::guards::show(c)
                    ),
                }),
            }
        }
        for hidden in embedded_scripts(c, &script.written)
            .into_iter()
            .chain(runner_scripts(c, fed.as_deref()))
        {
            extend(&mut extra, &hidden, env, c.depth + 1);
        }
    }
    append(script, extra);
}

fn extend(into: &mut Script, text: &str, env: &[(String, String)], depth: u32) {
    if depth > MAX_DEPTH {
        return;
    }
    let s = shell::analyze(&ShellInput {
        script: text,
        env,
        depth,
        ..Default::default()
    });
    append(into, s);
}

fn append(into: &mut Script, s: Script) {
    let base = into.commands.len();
    into.commands.extend(s.commands.into_iter().map(|mut c| {
        c.inputs.iter_mut().for_each(|i| *i += base);
        c
    }));
    into.opaque.extend(s.opaque);
}

/// The text a command's stdin carries when it is known: a here-doc or here-string, or the
/// output of `echo`/`printf` with resolved words.
fn fed_text(script: &Script, i: usize) -> Option<String> {
    let c = &script.commands[i];
    if let Some(t) = &c.stdin_text {
        return Some(t.clone());
    }
    let feeder = script.commands.get(*c.inputs.last()?)?;
    printed(feeder)
}

/// What `echo`/`printf` print, when every word is known.
fn printed(c: &Command) -> Option<String> {
    let a = args(c);
    let known = || !a.iter().any(|x| x.unresolved);
    match program(c) {
        "echo" if known() => {
            let words: Vec<&str> = a
                .iter()
                .map(|x| x.text.as_str())
                .skip_while(|t| matches!(*t, "-n" | "-e" | "-E" | "-ne" | "-en"))
                .collect();
            let decode = a
                .first()
                .is_some_and(|f| f.text.starts_with('-') && f.text.contains('e'));
            let text = words.join(" ") + "\n";
            Some(if decode { unescape(&text) } else { text })
        }
        "printf" if known() => {
            let (format, rest) = a.split_first()?;
            let mut values = rest.iter().map(|x| x.text.as_str());
            let mut out = String::new();
            let mut parts = format.text.split("%s");
            out.push_str(parts.next().unwrap_or(""));
            for part in parts {
                out.push_str(values.next().unwrap_or(""));
                out.push_str(part);
            }
            Some(unescape(&out))
        }
        _ => None,
    }
}

/// `echo .env | xargs cat` runs `cat .env`; with `-I R`, R in the command is each line. Input
/// that is not known adds an unresolved argument, so guards see a word only known when it runs.
fn xargs_args(c: &mut Command, fed: Option<&str>) {
    let words: Vec<Arg> = match fed {
        Some(text) => text.split_whitespace().map(Arg::literal).collect(),
        None => vec![unknown()],
    };
    let repl = c
        .argv
        .iter()
        .position(|a| a.text == "{}")
        .filter(|_| c.wrappers.iter().any(|w| w == "xargs"));
    match repl {
        Some(k) => {
            if let Some(first) = words.into_iter().next() {
                c.argv[k] = first;
            }
        }
        None => c.argv.extend(words),
    }
}

fn unknown() -> Arg {
    Arg {
        text: "*".into(),
        pattern: true,
        unresolved: true,
    }
}

/// The starting points of the `find` this `-exec` command belongs to: the nearest `find`
/// emitted before it.
fn script_roots(script: &Script, i: usize) -> Vec<String> {
    let Some(find) = script.commands[..i]
        .iter()
        .rev()
        .find(|c| program(c) == "find")
    else {
        return Vec::new();
    };
    crate::guards::argv::find_roots(args(find))
        .into_iter()
        .map(|x| x.text)
        .collect()
}

/// `find DIR -exec shred {} \;` shreds what is under DIR: `{}` becomes `DIR/*` (a pattern),
/// in the words and in redirect targets (`-exec sh -c ': > "$1"' _ {} \;` empties each file).
fn find_files(c: &mut Command, roots: &[String]) {
    let root = roots.first().map_or(".", String::as_str);
    let under = format!("{}/*", root.trim_end_matches('/'));
    let targets = c.redirects.iter_mut().map(|r| &mut r.target);
    for a in (c.argv.iter_mut().chain(targets)).filter(|a| a.text.contains("{}")) {
        *a = Arg {
            text: a.text.replace("{}", &under),
            pattern: true,
            unresolved: a.unresolved,
        };
    }
}

/// A shell (or interpreter) reading its script from stdin, when that script is known text.
fn printed_script(c: &Command, fed: Option<&str>) -> Option<String> {
    // Without text fed in there is no script to read: most commands stop here.
    let fed = fed.filter(|_| c.stdin_text.is_none())?;
    let shell = matches!(
        program(c),
        "sh" | "bash" | "zsh" | "dash" | "ksh" | "ash" | "mksh"
    );
    let reads_stdin =
        || operands(args(c), &["-O", "-o"]).is_empty() || args(c).iter().any(|a| a.text == "-s");
    // The shell model already followed literal feeders (wrapper `… -s`).
    let followed = || c.wrappers.iter().any(|w| w.ends_with(" -s"));
    let filter = || crate::guards::remote_code::filter_runs_input(c);
    (shell && reads_stdin() && !followed() || filter()).then(|| fed.to_string())
}

/// Text written into a file that runs later (`echo 'curl … | sh' >> ~/.bashrc`, `… | tee -a
/// .git/hooks/pre-commit`), as the commands it will run.
fn planted(c: &Command, fed: Option<&str>) -> Vec<String> {
    use super::startup::{commands, runs_later};
    let kind = |target: &str| {
        // Relative names are matched by their parts (`.git/hooks/x`, `.bashrc`).
        let rooted = match target.starts_with('/') {
            true => target.to_string(),
            false => format!("/{target}"),
        };
        runs_later(&rooted)
    };
    let mut out = Vec::new();
    if let Some(text) = printed(c) {
        let written = c.redirects.iter().filter(|r| {
            matches!(
                r.kind,
                shell::RedirectKind::Write | shell::RedirectKind::Append
            )
        });
        out.extend(written.filter_map(|r| kind(&r.target.text).map(|k| commands(k, &text))));
    }
    if let (Some(text), "tee") = (fed, program(c)) {
        let files = operands(args(c), &[]);
        out.extend(
            files
                .iter()
                .filter_map(|f| kind(&f.text).map(|k| commands(k, text))),
        );
    }
    out
}

/// A file the session wrote, copied, moved, linked or appended where it runs later (`cp a.txt
/// ~/.bashrc`, `mv a .git/hooks/pre-commit`, `cat a >> ~/.bashrc`): the commands its text will
/// run (`None`: its text is only known when it runs). The shell model gave each destination
/// the text it got (`Script::written`, by name).
fn planted_copies(written: &[shell::Written], c: &Command) -> Vec<Option<String>> {
    use super::startup::{commands, runs_later};
    if written.is_empty() {
        return Vec::new();
    }
    let prog = program(c);
    let mut targets: Vec<String> = c
        .redirects
        .iter()
        .filter(|r| {
            matches!(
                r.kind,
                shell::RedirectKind::Write | shell::RedirectKind::Append
            )
        })
        .map(|r| r.target.text.clone())
        .collect();
    if let Some((sources, dest)) = shell::copy_operands(prog, &c.argv) {
        match dest {
            Some(d) if !d.text.ends_with('/') && sources.len() < 2 => targets.push(d.text),
            Some(d) => {
                let dir = d.text.trim_end_matches('/').to_string();
                targets.extend(
                    sources
                        .iter()
                        .map(|s| format!("{dir}/{}", crate::paths::basename(&s.text))),
                );
            }
            // `-t DIR`: the directory is not known here; the copies keep their names.
            None => targets.extend(sources.iter().map(|s| s.text.clone())),
        }
    }
    let mut out = Vec::new();
    for t in targets {
        // Only a file the session wrote counts: the name is looked up before the place,
        // which costs more to tell.
        let name = crate::paths::basename(&t);
        let Some((_, text)) = written.iter().find(|(k, _)| k == name) else {
            continue;
        };
        let rooted = if t.starts_with('/') {
            t.clone()
        } else {
            format!("/{t}")
        };
        if let Some(kind) = runs_later(&rooted) {
            out.push(text.as_deref().map(|t| commands(kind, t)));
        }
    }
    out
}

/// split sets `$FILE` for its filter to the piece's name: the prefix (operand after the input,
/// `x` by default), a suffix of letters or digits, then `--additional-suffix`. One such name
/// stands for all of them: they differ only in the suffix's letters.
fn split_piece(a: &[Arg]) -> String {
    const VALUED: [&str; 14] = [
        "-l",
        "-b",
        "-C",
        "-n",
        "-a",
        "-t",
        "--lines",
        "--bytes",
        "--line-bytes",
        "--number",
        "--suffix-length",
        "--separator",
        "--filter",
        "--additional-suffix",
    ];
    let ops = operands(a, &VALUED);
    let prefix = ops.get(1).map_or("x", |p| p.text.as_str());
    let extra = option_values(a, None, "--additional-suffix");
    format!("{prefix}aa{}", extra.last().copied().unwrap_or(""))
}

/// Config values that programs run as shell commands: `git -c core.pager=…` (and the other
/// routes of git's config, `guards::git::config`, which may name files the session `written`),
/// `ssh -o ProxyCommand=…`, `rsync -e …`, `tar --to-command=…`/`-I …`.
fn embedded_scripts(c: &Command, written: &[shell::Written]) -> Vec<String> {
    let a = args(c);
    let mut out = Vec::new();
    match program(c) {
        "git" => {
            out.extend(crate::guards::git::config::scripts(c, written));
            out.extend(git_remote_commands(a));
        }
        // `split --filter=CMD` pipes each piece into `sh -c CMD`; `zip -TT CMD` tests the
        // archive with CMD.
        "split" => {
            let file = split_piece(a);
            out.extend(
                option_values(a, None, "--filter")
                    .iter()
                    .map(|f| format!("FILE='{}'; {f}", file.replace('\'', "'\\''"))),
            )
        }
        "zip" => out.extend(
            option_values(a, Some("-TT"), "--unzip-command")
                .iter()
                .map(|s| s.to_string()),
        ),
        "parallel" => out.extend(parallel(a)),
        "start-stop-daemon" => out.extend(daemon(a)),
        "make" | "gmake" => out.extend(make_eval(a)),
        "ssh" | "scp" | "sftp" => {
            for o in option_values(a, Some("-o"), "--option") {
                let (k, v) = o.split_once(['=', ' ']).unwrap_or((o, ""));
                if matches!(
                    k.to_ascii_lowercase().as_str(),
                    "proxycommand" | "localcommand" | "knownhostscommand"
                ) {
                    out.push(v.to_string());
                }
            }
        }
        "rsync" => out.extend(
            option_values(a, Some("-e"), "--rsh")
                .into_iter()
                .map(str::to_string),
        ),
        "tar" => {
            for v in option_values(a, Some("-I"), "--use-compress-program")
                .into_iter()
                .chain(option_values(a, None, "--to-command"))
                .chain(option_values(a, None, "--checkpoint-action"))
            {
                out.push(v.trim_start_matches("exec=").to_string());
            }
        }
        _ => {}
    }
    out
}

/// What git runs on the other side of a transport, locally for `file://` and `ext::`
/// remotes: `--upload-pack`/`-u`, `--receive-pack`, `--exec`, and an `ext::CMD` URL (`% ` is
/// a space in it).
fn git_remote_commands(a: &[Arg]) -> Vec<String> {
    let given = ["--upload-pack", "--receive-pack", "--exec"]
        .iter()
        .flat_map(|o| option_values(a, None, o));
    // `-u` is `--upload-pack` for clone only; the subcommand is looked for when it is given.
    let mut clone_u = option_values(a, Some("-u"), "--upload-pack");
    if !clone_u.is_empty() {
        let sub = operands(a, &crate::guards::argv::GIT_VALUED);
        if sub.first().is_none_or(|s| s.text != "clone") {
            clone_u.clear();
        }
    }
    let ext = (a.iter())
        .filter_map(|x| x.text.strip_prefix("ext::"))
        .map(ext_command);
    given
        .chain(clone_u)
        .map(str::to_string)
        .chain(ext)
        .collect()
}

/// git's `ext::` syntax: words split at spaces, `% ` a space inside a word, `%%` a percent;
/// given back as a shell command line.
fn ext_command(url: &str) -> String {
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut chars = url.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, chars.peek().copied()) {
            ('%', Some(n @ (' ' | '%'))) => {
                word.push(n);
                chars.next();
            }
            (' ', _) => words.push(std::mem::take(&mut word)),
            (c, _) => word.push(c),
        }
    }
    words.push(word);
    let quoted: Vec<String> = (words.iter())
        .filter(|w| !w.is_empty())
        .map(|w| shell_quote(w))
        .collect();
    quoted.join(" ")
}

/// `parallel CMD ::: ARG…`: CMD run once per argument, the argument appended.
fn parallel(a: &[Arg]) -> Vec<String> {
    let Some(sep) = a.iter().position(|x| x.text == ":::" || x.text == "::::") else {
        return Vec::new();
    };
    let start = a[..sep]
        .iter()
        .position(|x| !x.text.starts_with('-'))
        .unwrap_or(sep);
    let command: Vec<String> = a[start..sep].iter().map(|x| shell_quote(&x.text)).collect();
    // With no command each argument is a command line of its own.
    (a[sep + 1..].iter().take(8))
        .map(|arg| match command.is_empty() {
            true => arg.text.clone(),
            false => format!("{} {}", command.join(" "), shell_quote(&arg.text)),
        })
        .collect()
}

/// `start-stop-daemon --start --exec PATH -- ARGS`: PATH run with ARGS.
fn daemon(a: &[Arg]) -> Vec<String> {
    let program = option_values(a, Some("-x"), "--exec")
        .into_iter()
        .chain(option_values(a, Some("-a"), "--startas"))
        .next();
    let rest = match a.iter().position(|x| x.text == "--") {
        Some(i) => &a[i + 1..],
        None => &[],
    };
    program
        .map(|p| {
            std::iter::once(p)
                .chain(rest.iter().map(|x| x.text.as_str()))
                .map(shell_quote)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .into_iter()
        .collect()
}

/// `make --eval='x: ; CMD' x`: the recipes of a makefile given on the command line.
fn make_eval(a: &[Arg]) -> Vec<String> {
    let texts = option_values(a, Some("-E"), "--eval");
    // `target: ; recipe` is a rule whose recipe is on its own line; read as a makefile, the
    // recipes get make's variables expanded (`$($*)` is make's, not the shell's) and
    // `$(shell …)`/`$(file <F)` are seen.
    (texts.iter())
        .map(|t| {
            let lines = t.lines().map(|line| match line.split_once(':') {
                Some((target, r)) if !line.starts_with('\t') => match r.split_once(';') {
                    Some((deps, recipe)) => format!("{target}:{deps}\n\t{recipe}"),
                    None => line.to_string(),
                },
                _ => line.to_string(),
            });
            shell::makefile_commands(&lines.collect::<Vec<_>>().join("\n"))
        })
        .collect()
}

/// printf's and `echo -e`'s backslash escapes: `\n`, `\t`, `\\`, octal `\NNN`/`\0NNN`,
/// hex `\xHH` (`printf '\162\155 -rf x' | sh` runs `rm -rf x`).
fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('x') => out.push(number(&mut chars, 16, 2)),
            Some(d @ '0'..='7') => {
                let mut digits = String::from(d);
                while digits.len() < 4 && chars.peek().is_some_and(|c| c.is_digit(8)) {
                    digits.extend(chars.next());
                }
                out.push(u8::from_str_radix(&digits, 8).map_or('?', char::from));
            }
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

fn number(chars: &mut std::iter::Peekable<std::str::Chars>, radix: u32, max: usize) -> char {
    let mut digits = String::new();
    while digits.len() < max && chars.peek().is_some_and(|c| c.is_digit(radix)) {
        digits.extend(chars.next());
    }
    u8::from_str_radix(&digits, radix).map_or('?', char::from)
}

/// Programs that take file names on stdin: `cpio -o`, `sftp -b -` (its batch commands name
/// files), `tar -T -`, `zip -@`.
fn names_from_stdin(c: &Command) -> bool {
    let a = args(c);
    let has = |w: &str| a.iter().any(|x| x.text == w);
    match program(c) {
        "cpio" => a
            .iter()
            .any(|x| x.text.starts_with('-') && x.text.contains('o')),
        "sftp" | "ftp" => has("-b") || has("-") || a.len() <= 1,
        "tar" => has("-T") || a.iter().any(|x| x.text.starts_with("--files-from")),
        "zip" => has("-@"),
        _ => false,
    }
}

/// Programs that run a command or script they are handed: schedulers, terminal multiplexers,
/// privilege and sandbox runners, `trap`. Their command is analysed like a nested script.
fn runner_scripts(c: &Command, fed: Option<&str>) -> Vec<String> {
    let a = args(c);
    // Every command comes here: the words are gathered only for the programs matched below.
    let words = || -> Vec<&str> { a.iter().map(|x| x.text.as_str()).collect() };
    let quote = |w: &[&str]| {
        w.iter()
            .map(|x| shell_quote(x))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let after_options = |valued: &[&str], skip: usize| -> Option<String> {
        let ops = operands(a, valued);
        let first = ops.get(skip)?;
        let k = a.iter().position(|x| std::ptr::eq(x, *first))?;
        Some(quote(&words()[k..]))
    };
    let one = match program(c) {
        "at" | "batch" => fed.map(str::to_string),
        "crontab" => fed.map(cron_commands),
        "trap" => a.first().map(|s| s.text.clone()),
        "script" => option_values(a, Some("-c"), "--command")
            .first()
            .map(|s| s.to_string()),
        "tmux" => tmux(&words()),
        "screen" => match a.iter().position(|w| w.text == "stuff") {
            Some(k) => a.get(k + 1).map(|s| s.text.replace("\\n", "\n")),
            None => after_options(
                &[
                    "-S", "-c", "-t", "-T", "-e", "-p", "-X", "-h", "-L", "-Logfile",
                ],
                0,
            ),
        },
        "expect" => option_values(a, Some("-c"), "--command")
            .first()
            .map(|code| spawned(code)),
        "runuser" | "pkexec" | "sg" => after_options(&["-u", "--user", "-g", "--group", "-G"], 0),
        "systemd-run" => after_options(
            &[
                "-p",
                "--property",
                "-u",
                "--unit",
                "-M",
                "--machine",
                "--uid",
                "--gid",
            ],
            0,
        ),
        "chrt" | "taskset" => after_options(&["-p", "--pid"], 1),
        "nsenter" | "unshare" | "firejail" | "proot" | "strace" | "ltrace" | "valgrind"
        | "torsocks" | "proxychains" | "proxychains4" | "numactl" | "cgexec" | "catchsegv"
        | "fakeroot" => after_options(
            &[
                "-t", "--target", "-o", "-e", "-p", "-g", "-u", "-r", "-b", "-w",
            ],
            0,
        ),
        _ => None,
    };
    one.into_iter().collect()
}

/// A word as the shell would need it written to mean itself.
pub(super) fn shell_quote(w: &str) -> String {
    if !w.is_empty()
        && w.chars()
            .all(|c| c.is_alphanumeric() || "-_./=:,+@%".contains(c))
    {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', "'\\''"))
    }
}

/// `* * * * * rm -rf /x` → `rm -rf /x`: the command of each crontab line.
pub(super) fn cron_commands(table: &str) -> String {
    table
        .lines()
        .filter(|l| !l.trim_start().starts_with('#') && !l.contains('=') || l.contains(' '))
        .map(|l| {
            let fields: Vec<&str> = l.split_whitespace().collect();
            let skip = if fields.first().is_some_and(|f| f.starts_with('@')) {
                1
            } else {
                5
            };
            fields.get(skip..).map(|f| f.join(" ")).unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// tmux runs a shell command given to new-session/new-window/split-window/respawn/run-shell,
/// and types send-keys into a pane's shell.
fn tmux(words: &[&str]) -> Option<String> {
    let k = words.iter().position(|w| {
        matches!(
            *w,
            "new-session"
                | "new"
                | "new-window"
                | "neww"
                | "split-window"
                | "splitw"
                | "respawn-pane"
                | "respawnp"
                | "respawn-window"
                | "run-shell"
                | "run"
                | "send-keys"
                | "send"
        )
    })?;
    let rest: Vec<&str> = words[k + 1..]
        .iter()
        .copied()
        .filter(|w| !w.starts_with('-'))
        .collect();
    if matches!(words[k], "send-keys" | "send") {
        let keys: Vec<String> = rest
            .iter()
            .skip(1)
            .map(|w| match *w {
                "Enter" | "C-m" => "\n".to_string(),
                other => other.to_string(),
            })
            .collect();
        return Some(keys.join(" "));
    }
    rest.last().map(|s| s.to_string())
}

/// expect's `spawn cmd args` lines: the commands it starts.
fn spawned(code: &str) -> String {
    code.split(['\n', ';'])
        .filter_map(|l| l.trim().strip_prefix("spawn "))
        .collect::<Vec<_>>()
        .join("\n")
}
