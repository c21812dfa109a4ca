//! Rust read into shell commands (see `code`): `std::fs`, `std::process::Command`, `std::env`,
//! `std::net` and `std::os::unix` (and their `tokio` twins), by the names `use` binds them to
//! (`use std::fs;`, `use std::process::Command as C;`, `use std::{fs::remove_dir_all, env}`);
//! the `libc` crate's calls as C's; the macros that read at compile time (`include_str!`,
//! `env!`) or escape the language (`asm!`). A build script's usual values are known: `OUT_DIR`
//! is under the project's `target/`, `CARGO_MANIFEST_DIR` is the project.

use super::chain::{self, Chain, Link};
use super::lex::{Lang, Tok};
use super::native::{self, Occurrence};
use super::reader::{self, Dialect, Reader, Step};
use super::{Reading, Val};

pub fn read(code: &str) -> Reading {
    reader::read_text(code, Lang::Rust, &Rust)
}

struct Rust;

/// Modules and crates whose use reaches outside plain computation.
const REACH: [&str; 15] = [
    "std.fs",
    "std.process",
    "std.env",
    "std.net",
    "std.os",
    "libc",
    "nix",
    "tokio.fs",
    "tokio.process",
    "tokio.net",
    "async_std.fs",
    "async_std.process",
    "reqwest",
    "ureq",
    "duct",
];

/// Macros that read files or variables when the program is compiled, or run what they are
/// given.
const MACROS: [&str; 8] = [
    "include_str",
    "include_bytes",
    "include",
    "env",
    "option_env",
    "asm",
    "global_asm",
    "cmd",
];

impl Dialect for Rust {
    fn bind(&self, r: &mut Reader) {
        let mut i = 0;
        while i < r.t.len() {
            match r.name(i) {
                Some("use") if !r.punct(i.wrapping_sub(1), '.') => {
                    let end = use_tree(r, i + 1, "");
                    r.consume(i..end);
                    i = end;
                }
                _ => i += 1,
            }
        }
        native::bind_values(r, self, &occurrence);
    }

    fn qualified(&self, r: &Reader, head: &str) -> Option<String> {
        if let Some(q) = r.binds.get(head) {
            return reaches(q).then(|| q.clone());
        }
        if matches!(
            head,
            "std" | "libc" | "tokio" | "async_std" | "reqwest" | "ureq" | "nix"
        ) {
            return Some(head.to_string());
        }
        if MACROS.contains(&head) {
            return Some(format!("macro.{head}"));
        }
        // `use std::fs::*;`: a name from a module that reaches.
        let glob = r
            .binds
            .iter()
            .find(|(k, v)| k.starts_with('*') && reaches(v));
        glob.map(|(_, module)| format!("{module}.{head}"))
    }

    fn call(&self, r: &mut Reader, name: &str, c: &Chain, k: usize) -> Step {
        // A variable named as a macro (`cmd.arg(…)`) is no macro.
        if !reaches(name) || name.starts_with("macro.") {
            return Step::Pure;
        }
        if let Some(f) = name.strip_prefix("libc.") {
            return super::c::call(self, r, f, c, k);
        }
        let name = name
            .strip_prefix("tokio.")
            .or(name.strip_prefix("async_std."))
            .map_or(name.to_string(), |n| format!("std.{n}"));
        let link = &c.links[k];
        let vals = r.values(self, link);
        let arg = |n: usize| vals.get(n).cloned().flatten();
        match name.as_str() {
            "std.fs.remove_dir_all" => r.emit(&["rm", "-rf"], &[arg(0)]),
            "std.fs.remove_file" => r.emit(&["rm", "-f"], &[arg(0)]),
            "std.fs.remove_dir" => r.emit(&["rmdir"], &[arg(0)]),
            "std.fs.write" | "std.fs.File.create" | "std.fs.File.create_new" => {
                r.emit(&["tee"], &[arg(0)])
            }
            "std.fs.File.open" | "std.fs.read" | "std.fs.read_to_string" | "std.fs.read_link" => {
                r.emit(&["cat"], &[arg(0)])
            }
            "std.fs.copy" => r.emit(&["cp"], &[arg(0), arg(1)]),
            "std.fs.rename" => r.emit(&["mv"], &[arg(0), arg(1)]),
            "std.fs.hard_link" => r.emit(&["ln"], &[arg(0), arg(1)]),
            "std.fs.soft_link" | "std.os.unix.fs.symlink" => {
                r.emit(&["ln", "-s"], &[arg(0), arg(1)])
            }
            "std.fs.create_dir" | "std.fs.create_dir_all" => r.emit(&["mkdir", "-p"], &[arg(0)]),
            "std.fs.read_dir"
            | "std.fs.metadata"
            | "std.fs.symlink_metadata"
            | "std.fs.canonicalize"
            | "std.fs.exists" => r.emit(&["ls", "-d"], &[arg(0)]),
            "std.fs.set_permissions" => {
                let mode = native::mode(r, link.args.as_ref().and_then(|a| a.get(1)));
                r.emit(&["chmod", &mode], &[arg(0)])
            }
            "std.os.unix.fs.chown" | "std.os.unix.fs.lchown" => r.emit(&["chown", "0"], &[arg(0)]),
            "std.fs.OpenOptions.new" => open_options(self, r, c, k),
            "std.process.Command.new" => command(self, r, c, k),
            "std.env.var" | "std.env.var_os" => r.env_read(arg(0)),
            "std.env.vars" | "std.env.vars_os" => r.env_read(None),
            "std.env.set_current_dir" => r.emit(&["cd"], &[arg(0)]),
            "reqwest.get" | "reqwest.blocking.get" | "ureq.get" => {
                r.emit(&["curl", "-s"], &[arg(0)])
            }
            "ureq.post" | "ureq.put" | "ureq.delete" => {
                let verb = name.rsplit('.').next().unwrap_or("post").to_uppercase();
                r.emit(&["curl", "-s", "-X", &verb], &[arg(0)])
            }
            "reqwest.Client.new" | "reqwest.blocking.Client.new" => client(self, r, c, k),
            n if n.starts_with("std.net.") => Step::Unread(format!("`{n}` opens a connection")),
            n if pure(n) => Step::Pure,
            n => Step::Unread(format!("`{n}(…)`")),
        }
    }

    fn attribute(&self, r: &mut Reader, name: &str, c: &Chain) -> Step {
        let head = c.links[0].name.as_str();
        if c.links.len() == 1 && MACROS.contains(&head) && r.punct(c.span.end, '!') {
            return macro_call(self, r, head, c);
        }
        if name.starts_with("macro.") {
            return Step::Pure;
        }
        match name {
            _ if !reaches(name) || pure(name) => Step::Pure,
            // A type or trait named (`use`d, `fs::File` in a signature).
            n if n
                .rsplit('.')
                .next()
                .is_some_and(|l| l.starts_with(char::is_uppercase)) =>
            {
                Step::Pure
            }
            n => Step::Unread(format!("`{n}` used other than by a call this reader knows")),
        }
    }

    fn value_of(&self, r: &Reader, c: &Chain) -> Option<(Val, usize)> {
        if let Some(v) = native::var_through(r, self, &c.links) {
            return Some((v, c.span.end));
        }
        let head = &c.links[0].name;
        if head == "format" && r.punct(c.span.end, '!') {
            return format(self, r, c.span.end + 1);
        }
        if matches!(head.as_str(), "env" | "option_env") && r.punct(c.span.end, '!') {
            let (args, after) = chain::arguments(r.t, c.span.end + 1)?;
            let v = env_value(&r.value(self, args.first()?)?)?;
            return Some((v, after));
        }
        let k = c.links.iter().position(|l| l.args.is_some())?;
        let q = r.binds.get(head).cloned().unwrap_or_else(|| head.clone());
        let name = (c.links[1..=k].iter()).fold(q, |n, l| format!("{n}.{}", l.name));
        let args = r.values(self, &c.links[k]);
        let first = || args.first().cloned().flatten();
        let tail = |suffix: &str| name == suffix || name.ends_with(&format!(".{suffix}"));
        let v = if tail("env.var") || tail("env.var_os") {
            env_value(&first()?)?
        } else if tail("home_dir") {
            Val::Home(String::new())
        } else if tail("env.temp_dir") {
            Val::Lit("/tmp".into())
        } else if [
            "Path.new",
            "PathBuf.from",
            "String.from",
            "OsStr.new",
            "OsString.from",
        ]
        .iter()
        .chain(&["CString.new", "CStr.from_bytes_with_nul"])
        .any(|s| tail(s))
        {
            first()?
        } else {
            return None;
        };
        Some((native::through(r, self, v, &c.links[k + 1..])?, c.span.end))
    }

    fn risky_method(&self, _name: &str) -> bool {
        false
    }
}

/// `use a::b::{c, d::e as f, self, *};` from `i` with `prefix` already read: the bindings, and
/// the index after the tree.
fn use_tree(r: &mut Reader, mut i: usize, prefix: &str) -> usize {
    let mut path = prefix.to_string();
    loop {
        if r.punct(i, '{') {
            let mut j = i + 1;
            while !r.punct(j, '}') && j < r.t.len() {
                j = use_tree(r, j, &path);
                if r.punct(j, ',') {
                    j += 1;
                } else if !r.punct(j, '}') {
                    break;
                }
            }
            return skip_semicolon(r, j + 1);
        }
        if r.punct(i, '*') {
            r.binds.insert(format!("*{path}"), path.clone());
            return skip_semicolon(r, i + 1);
        }
        let Some(n) = r.name(i) else {
            return i;
        };
        let n = n.to_string();
        i += 1;
        if n == "self" {
            let leaf = path.rsplit('.').next().unwrap_or(&path).to_string();
            r.binds.insert(leaf, path.clone());
            return skip_semicolon(r, i);
        }
        if !matches!(n.as_str(), "crate" | "super") {
            path = if path.is_empty() {
                n.clone()
            } else {
                format!("{path}.{n}")
            };
        }
        if r.punct(i, '.') {
            i += 1;
            continue;
        }
        let local = if r.name(i) == Some("as") {
            i += 2;
            r.name(i - 1).unwrap_or(&n).to_string()
        } else {
            n
        };
        if local != "_" {
            r.binds.insert(local, path);
        }
        return skip_semicolon(r, i);
    }
}

fn skip_semicolon(r: &Reader, i: usize) -> usize {
    i + usize::from(r.punct(i, ';'))
}

fn reaches(q: &str) -> bool {
    REACH
        .iter()
        .any(|m| q == *m || q.starts_with(m) && q[m.len()..].starts_with('.'))
        || q == "std"
        || q.starts_with("macro.")
}

/// What reaching modules offer that computes or names without touching anything.
fn pure(name: &str) -> bool {
    const PURE: [&str; 14] = [
        "std.process.exit",
        "std.process.id",
        "std.process.abort",
        "std.process.Stdio",
        "std.process.ExitCode",
        "std.process.ExitStatus",
        "std.process.Output",
        "std.env.args",
        "std.env.args_os",
        "std.env.current_dir",
        "std.env.temp_dir",
        "std.env.home_dir",
        "std.env.consts",
        "std.env.set_var",
    ];
    PURE.iter()
        .any(|p| name == *p || name.starts_with(p) && name[p.len()..].starts_with('.'))
        || name.starts_with("std.os.unix.fs.") && name.ends_with("Ext")
        || name == "std.env.remove_var"
        || name.starts_with("std.fs.Permissions")
        || name.starts_with("std.fs.File") && !name.ends_with(".open") && !name.contains(".create")
}

/// `std::env::var("HOME")` and the variables a build script reads, as values.
fn env_value(key: &Val) -> Option<Val> {
    let Val::Lit(k) = key else { return None };
    Some(match k.as_str() {
        "HOME" => Val::Home(String::new()),
        // cargo sets these for build scripts: the package's own directories.
        "OUT_DIR" => Val::Lit("target/debug/build/out".into()),
        "CARGO_MANIFEST_DIR" => Val::Lit(".".into()),
        "TMPDIR" => Val::Lit("/tmp".into()),
        _ => return None,
    })
}

/// `format!("{}/docs", home)` at the `(` after `!`: the text, when every placeholder is known.
fn format(d: &dyn Dialect, r: &Reader, open: usize) -> Option<(Val, usize)> {
    let (args, after) = chain::arguments(r.t, open)?;
    let Val::Lit(fmt) = r.value(d, args.first()?)? else {
        return None;
    };
    let mut positional = Vec::new();
    let mut named = Vec::new();
    for a in &args[1..] {
        match (r.name(a.start), r.punct(a.start + 1, '=')) {
            (Some(n), true) => named.push((n.to_string(), r.value(d, &(a.start + 2..a.end)))),
            _ => positional.push(r.value(d, a)),
        }
    }
    let lookup = |key: &str| match named.iter().find(|(n, _)| n == key) {
        Some((_, v)) => v.clone(),
        None => r.vars.get(key).cloned(),
    };
    Some((native::rust_format(&fmt, &positional, &lookup)?, after))
}

/// `include_str!(p)`, `env!("X")`, `asm!(…)`, `cmd!("rm", "-rf", p)` (duct's argv, xshell's
/// line after its shell).
fn macro_call(d: &dyn Dialect, r: &mut Reader, m: &str, c: &Chain) -> Step {
    let Some((args, after)) = (r.punct(c.span.end, '!'))
        .then(|| chain::arguments(r.t, c.span.end + 1))
        .flatten()
    else {
        // A variable or function of the same name.
        return Step::Pure;
    };
    let vals: Vec<Option<Val>> = args.iter().map(|a| r.value(d, a)).collect();
    let first = vals.first().cloned().flatten();
    let step = match m {
        "include_str" | "include_bytes" | "include" => r.emit(&["cat"], &[first]),
        "env" | "option_env" => r.env_read(first),
        "asm" | "global_asm" => Step::Unread(format!("`{m}!` runs machine code")),
        _ => {
            // xshell's `cmd!(sh, "git status")` splits its text into words; duct's takes them.
            let words: Option<Vec<String>> = match (args.len(), args.first()) {
                (2, Some(a)) if r.name(a.start).is_some() => match &vals[1] {
                    Some(Val::Lit(line)) => {
                        Some(line.split_whitespace().map(str::to_string).collect())
                    }
                    _ => None,
                },
                _ => vals.iter().map(|v| v.as_ref().map(Val::word)).collect(),
            };
            native::run(r, "cmd!", words)
        }
    };
    if matches!(step, Step::Done) {
        r.consume(c.span.start..after);
    }
    step
}

/// `Command::new(p).arg(a).args([b, c]).env(k, v).current_dir(d).status()`: the command line
/// the chain runs. One that is built here and run in a later statement is unread: its words
/// may still change.
fn command(d: &dyn Dialect, r: &mut Reader, c: &Chain, k: usize) -> Step {
    let program = r.values(d, &c.links[k]).into_iter().next().flatten();
    let mut words: Option<Vec<String>> = program.map(|p| vec![p.word()]);
    let mut prefix: Vec<String> = Vec::new();
    let mut runs = false;
    for l in &c.links[k + 1..] {
        let args = l.args.clone().unwrap_or_default();
        let vals: Vec<Option<Val>> = args.iter().map(|a| r.value(d, a)).collect();
        match l.name.as_str() {
            "arg" => push(
                &mut words,
                vals.first().cloned().flatten().map(|v| vec![v.word()]),
            ),
            "args" => {
                let items = args.first().and_then(|a| native::list_items(r, a));
                push(&mut words, items.and_then(|i| native::words(r, d, &i)))
            }
            "env" => {
                if let (Some(Some(Val::Lit(k))), Some(Some(v))) = (vals.first(), vals.get(1)) {
                    prefix.push(format!("{k}={}", v.word()))
                }
            }
            "current_dir" => match vals.first().cloned().flatten() {
                Some(dir) => prefix.insert(0, format!("cd -- {} &&", dir.word())),
                None => words = None,
            },
            "status" | "output" | "spawn" | "exec" => {
                runs = true;
                break;
            }
            _ => {}
        }
    }
    let end = c.links.last().map_or(c.span.end, |l| l.end);
    if !runs {
        if let Some(w) = &words {
            r.out.line(w);
        }
        return Step::Unread("a command built here and run in a later statement".into());
    }
    let step = native::run(r, "Command::new", words.map(|w| [prefix, w].concat()));
    if matches!(step, Step::Done) {
        r.consume(c.span.start..end);
    }
    step
}

fn push(words: &mut Option<Vec<String>>, more: Option<Vec<String>>) {
    match (words.as_mut(), more) {
        (Some(w), Some(more)) => w.extend(more),
        _ => *words = None,
    }
}

/// `OpenOptions::new().append(true).create(true).open(p)`: a write (or append) when any
/// writing option is set, else a read.
fn open_options(d: &dyn Dialect, r: &mut Reader, c: &Chain, k: usize) -> Step {
    let set = |l: &Link| (l.args.iter().flatten()).any(|a| r.name(a.start) == Some("true"));
    let mut verb: &[&str] = &["cat"];
    for l in &c.links[k + 1..] {
        match l.name.as_str() {
            "append" if set(l) => verb = &["tee", "-a"],
            "write" | "create" | "truncate" | "create_new" if set(l) && verb == ["cat"] => {
                verb = &["tee"]
            }
            "open" => {
                let path = r.values(d, l).into_iter().next().flatten();
                let step = r.emit(verb, &[path]);
                if matches!(step, Step::Done) {
                    r.consume(c.span.start..l.end);
                }
                return step;
            }
            _ => {}
        }
    }
    Step::Unknown("`OpenOptions` opening a file in a later statement".into())
}

/// `reqwest::Client::new().post(url).send()`: the request the chain makes.
fn client(d: &dyn Dialect, r: &mut Reader, c: &Chain, k: usize) -> Step {
    for l in &c.links[k + 1..] {
        let method = match l.name.as_str() {
            "get" | "head" => None,
            "post" | "put" | "patch" | "delete" => Some(l.name.to_uppercase()),
            _ => continue,
        };
        let url = r.values(d, l).into_iter().next().flatten();
        let step = match method {
            Some(m) => r.emit(&["curl", "-s", "-X", &m], &[url]),
            None => r.emit(&["curl", "-s"], &[url]),
        };
        if matches!(step, Step::Done) {
            r.consume(c.span.start..l.end);
        }
        return step;
    }
    Step::Unread("an HTTP client used in a later statement".into())
}

/// How the occurrence of a name at `i` binds it: `let`, `const` and `static` define it;
/// parameters, patterns, closures' arguments, loop variables and assignments bind it
/// otherwise; `let mut` may change it.
fn occurrence(r: &Reader, i: usize) -> Occurrence {
    let prev = i.checked_sub(1).and_then(|k| r.name(k));
    if matches!(prev, Some("let" | "const" | "static")) {
        let mut after = i + 1;
        if r.punct(after, ':') {
            // The type, to the `=` or `;`.
            while after < r.t.len() && !r.punct(after, '=') && !r.punct(after, ';') {
                after += 1;
            }
        }
        return match native::assigned_at(r, after) {
            Some(true) => Occurrence::Def(native::initializer(r, after + 1)),
            _ if r.punct(after, ';') => Occurrence::Bare,
            _ => Occurrence::Poison,
        };
    }
    if matches!(prev, Some("mut" | "for" | "ref"))
        || r.punct(i.wrapping_sub(1), '|')
        || r.punct(i + 1, '|')
        || r.punct(i + 1, ':')
        || r.punct(i + 1, '@')
        || native::assigned_at(r, i + 1).is_some()
        || in_pattern(r, i)
    {
        return Occurrence::Poison;
    }
    Occurrence::Use
}

/// A name alone in a tuple, slice or struct pattern (`Some(p) =>`, `if let (a, p) = …`,
/// `for (k, p) in …`): the group around it is followed by what ends a pattern.
fn in_pattern(r: &Reader, i: usize) -> bool {
    let alone =
        |t: Option<&Tok>| matches!(t, Some(Tok::Punct('(' | ',' | '[' | '{' | ')' | ']' | '}')));
    let before = i.checked_sub(1).map(|k| &r.t[k].0);
    if !alone(before) || !alone(r.t.get(i + 1).map(|x| &x.0)) {
        return false;
    }
    let mut depth = 0usize;
    for j in i + 1..r.t.len().min(i + 256) {
        match &r.t[j].0 {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']' | '}') if depth == 0 => {
                let next = r.t.get(j + 1).map(|x| &x.0);
                return matches!(next, Some(Tok::Punct('=' | '|')))
                    || matches!(next, Some(Tok::Name(n)) if n == "in" || n == "if");
            }
            Tok::Punct(')' | ']' | '}') => depth -= 1,
            Tok::Punct(';') => return false,
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn std_calls_become_commands() {
        let r = read("fn main(){ let _ = std::fs::remove_dir_all(\"/home/agent/docs\"); }");
        assert_eq!(r.script, "rm -rf -- '/home/agent/docs'");
        assert_eq!(r.unread, None);
        let r = read("use std::process::Command;\nfn main() { Command::new(\"sh\").arg(\"-c\").arg(\"rm -rf ~/docs\").status().unwrap(); }");
        assert_eq!(r.script, "'sh' '-c' 'rm -rf ~/docs'");
        let r = read("use std::{env, fs, path::PathBuf};\nfn main() -> std::io::Result<()> {\n let home = env::var(\"HOME\").unwrap();\n let p = PathBuf::from(&home).join(\".ssh\").join(\"id_rsa\");\n println!(\"{}\", fs::read_to_string(&p)?);\n Ok(())\n}");
        assert!(r.script.contains("cat -- ~'/.ssh/id_rsa'"), "{r:?}");
        let r = read("use std::process::Command as C;\nconst D: &str = \"/x\";\nfn main(){ C::new(\"rm\").args([\"-rf\", D]).output().ok(); }");
        assert_eq!(r.script, "'rm' '-rf' '/x'\ncat -- '/x'");
        let r = read("fn main(){ unsafe { libc::system(b\"id\\0\".as_ptr() as *const _); } }");
        assert_eq!(r.script, "id", "{r:?}");
        let r = read("fn main(){ let t = include_str!(\"/home/agent/.aws/credentials\"); }");
        assert_eq!(r.script, "cat -- '/home/agent/.aws/credentials'");
    }

    #[test]
    fn a_plain_build_script_reads_as_nothing_dangerous() {
        let build = "use std::env;\nuse std::fs;\nuse std::path::Path;\nuse std::process::Command;\nfn main() {\n    println!(\"cargo:rerun-if-changed=build.rs\");\n    let out_dir = env::var(\"OUT_DIR\").unwrap();\n    let dest = Path::new(&out_dir).join(\"gen.rs\");\n    fs::write(&dest, \"pub const X: u32 = 1;\").unwrap();\n    let o = Command::new(\"git\").args(&[\"rev-parse\", \"HEAD\"]).output();\n    if let Ok(o) = o { let _ = o; }\n}\n";
        let r = read(build);
        assert_eq!(r.grave, None, "{r:?}");
        assert!(
            r.script.contains("tee -- 'target/debug/build/out/gen.rs'"),
            "{r:?}"
        );
        assert!(r.script.contains("'git' 'rev-parse' 'HEAD'"), "{r:?}");
    }

    #[test]
    fn what_cannot_be_read_is_named() {
        for code in [
            "use std::process::Command;\nfn main(){ let mut c = Command::new(\"rm\"); c.arg(\"-rf\"); c.status(); }",
            "fn f(p: &str){ std::fs::remove_dir_all(p).ok(); }",
            "const P: &str = \"/tmp/x\";\nfn f(P: &str){ std::fs::remove_file(P).ok(); }",
            "fn main(){ let p = \"/tmp\"; if let Some(p) = std::env::args().nth(1) { std::fs::remove_dir_all(p).ok(); } }",
            "use std::net::TcpStream;\nfn main(){ TcpStream::connect(\"1.2.3.4:80\").ok(); }",
            "fn main(){ std::process::Command::new(\"sh\").stdin(std::process::Stdio::piped()).spawn().ok(); }",
            "use std::fs::remove_dir_all as r;\nfn main(){ let f = r; f(\"/x\").ok(); }",
        ] {
            assert!(read(code).grave.is_some(), "{code}: {:?}", read(code));
        }
        let plain = "fn main() { let v: Vec<u32> = (1..4).collect(); println!(\"{:?}\", v.iter().sum::<u32>()); }";
        assert_eq!(read(plain), Reading::default());
    }
}
