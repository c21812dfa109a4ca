//! How a program starts another one, beyond its command words: the options that change what
//! runs (`shell=True`, `{shell: true}`, `executable=`), where it runs (`cwd=`) and what it is
//! fed (`input=`, a pipe to its stdin). Read as the command line a shell would run, or, where
//! an option is only known when the program runs, not read at all.

use super::chain;
use super::lex::Tok;
use super::reader::{Dialect, Reader};
use super::Val;
use std::ops::Range;

/// Programs that run the code they are fed on stdin.
const INTERPRETERS: [&str; 24] = [
    "sh",
    "bash",
    "dash",
    "zsh",
    "ksh",
    "mksh",
    "fish",
    "busybox",
    "python",
    "python2",
    "python3",
    "node",
    "nodejs",
    "deno",
    "bun",
    "perl",
    "ruby",
    "php",
    "lua",
    "tclsh",
    "wish",
    "pwsh",
    "osascript",
    "Rscript",
];

/// What the options say.
#[derive(Default)]
pub struct Options {
    /// The first word is a shell command line.
    pub shell: bool,
    /// `cwd`: the directory (`None` inside when only known at run time).
    cwd: Option<Option<Val>>,
    /// The program is fed something on stdin.
    fed: bool,
}

/// A program the caller writes to (`os.popen(cmd, 'w')`).
pub fn fed() -> Options {
    Options {
        fed: true,
        ..Options::default()
    }
}

/// Python's `subprocess` keywords (`args` are the call's arguments, `positional` how many of
/// them are not keywords).
pub fn python(
    r: &Reader,
    d: &dyn Dialect,
    args: &[Range<usize>],
    positional: usize,
) -> Result<Options, String> {
    if args.iter().any(|a| r.punct(a.start, '*')) {
        return Err("options passed as `*args`/`**kwargs`".into());
    }
    if positional > 1 {
        return Err("options passed by position".into());
    }
    if chain::keyword(r.t, args, "executable").is_some() {
        return Err("`executable=` runs another program than the first word names".into());
    }
    if let Some(env) = chain::keyword(r.t, args, "env") {
        environment(r, &env)?;
    }
    let shell = chain::keyword(r.t, args, "shell").is_some_and(|v| !falsy(r, &v));
    let cwd = chain::keyword(r.t, args, "cwd").map(|v| r.value(d, &v));
    let stdin = chain::keyword(r.t, args, "stdin").is_some_and(|v| !devnull(r, &v));
    let fed = stdin || chain::keyword(r.t, args, "input").is_some();
    Ok(Options { shell, cwd, fed })
}

/// A JavaScript options object (`{ shell: true, cwd: 'web', input: … }`).
pub fn js(r: &Reader, d: &dyn Dialect, options: Option<&Range<usize>>) -> Result<Options, String> {
    let Some(o) = options else {
        return Ok(Options::default());
    };
    if !r.punct(o.start, '{') {
        return Err("options computed at run time".into());
    }
    let (members, _) = chain::arguments(r.t, o.start).ok_or("options unread")?;
    let mut out = Options::default();
    for m in &members {
        let key = r.name(m.start).filter(|_| r.punct(m.start + 1, ':'));
        let value = m.start + 2..m.end;
        match key {
            Some("shell") => out.shell = !falsy(r, &value),
            Some("cwd") => out.cwd = Some(r.value(d, &value)),
            Some("input") => out.fed = true,
            Some("env") => environment(r, &value)?,
            Some(_) => {}
            // `...opts`, `[k]: v`, a shorthand `{ shell }`: not known here.
            None => return Err("options computed at run time".into()),
        }
    }
    Ok(out)
}

/// Variables that change what a started program runs: exported bash functions, the loader's
/// and interpreters' preloads and paths, start-up files, the shell's own hooks.
pub fn steers(name: &str) -> bool {
    const NAMES: [&str; 22] = [
        "PATH",
        "BASH_ENV",
        "ENV",
        "PROMPT_COMMAND",
        "PS4",
        "SHELLOPTS",
        "BASHOPTS",
        "IFS",
        "PYTHONPATH",
        "PYTHONSTARTUP",
        "PYTHONHOME",
        "PYTHONINSPECT",
        "NODE_OPTIONS",
        "NODE_PATH",
        "PERL5OPT",
        "PERL5LIB",
        "PERLLIB",
        "RUBYOPT",
        "RUBYLIB",
        "ZDOTDIR",
        "GCONV_PATH",
        "HOME",
    ];
    let prefixed = ["BASH_FUNC_", "LD_", "DYLD_", "GIT_", "TMP", "TEMP"];
    NAMES.contains(&name) || prefixed.iter().any(|p| name.starts_with(p))
}

/// An environment given to a started program (`env={**os.environ, 'CI': '1'}`, `{ env: {
/// ...process.env, CI: '1' } }`): each name must be known and none may steer what runs.
fn environment(r: &Reader, v: &Range<usize>) -> Result<(), String> {
    if !r.punct(v.start, '{') {
        return Err("an environment only known when it runs".into());
    }
    let (members, _) = chain::arguments(r.t, v.start).ok_or("an environment unread")?;
    for m in &members {
        let inherited = |k: usize| {
            r.name(k) == Some("os") && r.name(k + 2) == Some("environ")
                || r.name(k) == Some("process") && r.name(k + 2) == Some("env")
        };
        // `**os.environ`, `...process.env`: what the program has, passed on.
        let spread = (r.punct(m.start, '*') && r.punct(m.start + 1, '*') && inherited(m.start + 2))
            || (r.punct(m.start, '.') && r.punct(m.start + 2, '.') && inherited(m.start + 3));
        if spread {
            continue;
        }
        let key = match &r.t[m.start].0 {
            Tok::Str(Some(k)) => k.clone(),
            Tok::Name(k) if r.punct(m.start + 1, ':') => k.clone(),
            _ => return Err("an environment with names only known when it runs".into()),
        };
        if steers(&key) {
            return Err(format!(
                "`{key}` in the environment of the program it starts"
            ));
        }
    }
    Ok(())
}

/// The command line to judge: run in `cwd` when one is given (in a subshell: the program's
/// own directory does not change), unread when an interpreter is fed its program.
pub fn finish(
    r: &Reader,
    words: Option<Vec<String>>,
    o: &Options,
) -> Result<Option<Vec<String>>, String> {
    let Some(words) = words else {
        return Ok(None);
    };
    let program = words.first().map(|w| program_name(w)).unwrap_or_default();
    let piped =
        r.t.iter()
            .any(|(t, _)| matches!(t, Tok::Name(n) if n == "stdin"));
    if INTERPRETERS.contains(&program.as_str()) && (o.fed || piped) {
        return Err(format!("`{program}` fed the code it runs"));
    }
    match &o.cwd {
        None => Ok(Some(words)),
        Some(None) => Ok(None),
        Some(Some(dir)) => {
            let mut line = vec!["(".to_string(), "cd".into(), dir.word(), "&&".into()];
            line.extend(words);
            line.push(")".into());
            Ok(Some(line))
        }
    }
}

/// The program a command's first word runs: `'/usr/bin/python3'` → `python3`.
fn program_name(word: &str) -> String {
    let first = word.split_whitespace().next().unwrap_or_default();
    let bare = first.trim_matches(|c| c == '\'' || c == '"');
    bare.rsplit('/').next().unwrap_or_default().to_string()
}

/// `False`, `false`, `0`, `None`, `null`, `undefined`: the option is off.
fn falsy(r: &Reader, v: &Range<usize>) -> bool {
    v.len() == 1
        && match &r.t[v.start].0 {
            Tok::Name(n) => matches!(
                n.as_str(),
                "False" | "false" | "None" | "null" | "undefined"
            ),
            Tok::Num(n) => n == "0",
            _ => false,
        }
}

/// `stdin=subprocess.DEVNULL` (or `None`): nothing is fed.
fn devnull(r: &Reader, v: &Range<usize>) -> bool {
    falsy(r, v) || r.name(v.end.saturating_sub(1)) == Some("DEVNULL")
}
