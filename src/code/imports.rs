//! Code an interpreter loads that its command line does not name: the modules a program
//! imports (`import random` finds a `random.py` in the script's directory or the current one
//! before the standard library's, `require('left-pad')` a `node_modules/left-pad/`), the files
//! a runner discovers (`python3 -m unittest` imports every `test*.py`, pytest its test files
//! and `conftest.py`, `node --test` its test files), the examples of a text doctest runs, the
//! start-up file of an interactive Python (`PYTHONSTARTUP`), files preloaded by an option
//! (`node --import ./x.mjs`), and code a module takes as its arguments (`python3 -m timeit -s
//! SETUP STMT`).
//!
//! Only the session's own files can be followed (the hook reads no disk): the shell model looks
//! these names up among the files the session wrote (`crate::written`) and judges their text
//! with the readers, and `guards::projects` among the ones a line downloads before running the
//! interpreter. A module found nowhere is the project's own or an installed package, judged as
//! before.

use super::lex::{self, Lang, Tok};

/// A file an interpreter may load, as the written-file store can find it.
#[derive(Debug, Clone, PartialEq)]
pub enum Load {
    /// A file by its path where the interpreter looks (`random.py`, `json/__init__.py`).
    File(String),
    /// Any file below a directory (`node_modules/left-pad/`).
    Under(String),
    /// Any file whose name matches a glob (`test*.py`), discovered by a test runner: the
    /// project's own tests, judged as project code is (what is read, not opaque for the rest).
    Tests(String),
    /// A text file whose `>>>` examples run as Python (`python3 -m doctest usage.txt`).
    Examples(String),
}

/// File names that say nothing alone: which package they belong to is their directory.
const GENERIC: [&str; 7] = [
    "__init__.py",
    "__main__.py",
    "index.js",
    "index.mjs",
    "index.cjs",
    "index.ts",
    "package.json",
];

/// Words that name a test runner that discovers its files (`tests/test_x.py`).
const RUNNERS: [&str; 4] = ["unittest", "pytest", "py.test", "--test"];

/// Most files a command is followed into, and import names collected from them.
const MAX_LOADS: usize = 256;

fn basename(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

impl Load {
    /// Whether the store's key for a file (its name, or for a package's file its path from
    /// the package on: see `qualified`) may be this file.
    pub fn matches(&self, key: &str) -> bool {
        match self {
            Load::File(p) | Load::Examples(p) => {
                let tail = key.strip_suffix(p.as_str());
                let leaf = basename(p);
                tail.is_some_and(|h| h.is_empty() || h.ends_with('/'))
                    || !key.contains('/') && key == leaf && !GENERIC.contains(&leaf)
            }
            Load::Under(dir) => {
                key.contains('/')
                    && (key.starts_with(dir.as_str())
                        || key
                            .match_indices(dir.as_str())
                            .any(|(at, _)| key[..at].ends_with('/')))
            }
            Load::Tests(glob) => crate::paths::glob_matches(glob, basename(key)),
        }
    }
}

/// The part of a path that tells its package apart, for files whose name alone does not:
/// `node_modules/left-pad/index.js` from anywhere under `node_modules`, `json/__init__.py` for
/// a package's own file. `None` for other files, known by their name.
pub fn qualified(path: &str) -> Option<&str> {
    // Asked for every file of a session on each of its calls: a byte test before the search.
    if memchr::memchr(b'_', path.as_bytes()).is_some() {
        let at = path.match_indices("node_modules/").map(|(at, _)| at);
        if let Some(at) = at
            .into_iter()
            .find(|&at| at == 0 || path[..at].ends_with('/'))
        {
            return Some(&path[at..]);
        }
    }
    let name = basename(path);
    let dir = path.strip_suffix(name)?.strip_suffix('/')?;
    if !GENERIC.contains(&name) || dir.is_empty() {
        return None;
    }
    let start = dir.rfind('/').map_or(0, |i| i + 1);
    Some(&path[start..])
}

/// Whether a call whose text says `said` may load the file at `path` without naming it: a
/// package's file when the call names the package (`python3 -m json.tool` loads
/// `json/__init__.py`, `require('left-pad')` `node_modules/left-pad/index.js`), a test file
/// when it names a test runner.
pub fn loaded_unnamed(path: &str, said: &[&str]) -> bool {
    let name = basename(path);
    let runner = || said.iter().any(|s| RUNNERS.iter().any(|r| s.contains(r)));
    if test_file(name) && runner() {
        return true;
    }
    let Some(q) = qualified(path) else {
        return false;
    };
    let q = q.strip_prefix("node_modules/").unwrap_or(q);
    let mut parts = q.split('/');
    let first = parts.next().unwrap_or_default();
    // `@scope/name`: the package is both.
    let package = match (first.starts_with('@'), parts.next()) {
        (true, Some(second)) => &q[..first.len() + 1 + second.len()],
        _ => first,
    };
    !package.is_empty() && said.iter().any(|s| s.contains(package))
}

/// A name test runners collect: `test_x.py`, `x_test.py`, `x.test.js`, `x-test.mjs`.
fn test_file(name: &str) -> bool {
    let Some((stem, ext)) = name.rsplit_once('.') else {
        return false;
    };
    let code = matches!(ext, "py" | "js" | "mjs" | "cjs" | "ts" | "mts" | "cts");
    code && (stem.starts_with("test")
        || stem.ends_with("_test")
        || stem.ends_with(".test")
        || stem.ends_with("-test")
        || stem == "conftest")
}

/// The modules a program imports, as the files that may hold them.
pub fn modules(lang: Lang, code: &str) -> Vec<Load> {
    let Ok(t) = lex::tokens(code, lang) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    match lang {
        Lang::Python => python_imports(&t, &mut out),
        Lang::Js => js_imports(&t, &mut out),
        // A compiled language's includes are the written files a compile call brings along
        // (`written::mentioned`).
        Lang::C | Lang::Rust | Lang::Go => {}
    }
    out.truncate(MAX_LOADS);
    out
}

type Toks = [(Tok, std::ops::Range<usize>)];

fn name(t: &Toks, i: usize) -> Option<&str> {
    match t.get(i).map(|x| &x.0) {
        Some(Tok::Name(n)) => Some(n),
        _ => None,
    }
}

fn punct(t: &Toks, i: usize, c: char) -> bool {
    t.get(i).map(|x| &x.0) == Some(&Tok::Punct(c))
}

fn string(t: &Toks, i: usize) -> Option<&str> {
    match t.get(i).map(|x| &x.0) {
        Some(Tok::Str(Some(s))) => Some(s),
        _ => None,
    }
}

/// A dotted name at `i` and the index after it.
fn dotted(t: &Toks, mut i: usize) -> (String, usize) {
    let mut out = String::new();
    while let Some(n) = name(t, i) {
        if !out.is_empty() {
            out.push('.');
        }
        out.push_str(n);
        if !punct(t, i + 1, '.') {
            return (out, i + 1);
        }
        i += 2;
    }
    (out, i)
}

/// `import a.b`, `from a import b`, `from . import b`, `__import__('a')`,
/// `importlib.import_module('a')`.
fn python_imports(t: &Toks, out: &mut Vec<Load>) {
    for i in 0..t.len() {
        let after_dot = i > 0 && punct(t, i - 1, '.');
        match name(t, i) {
            Some("import") if !after_dot => {
                let mut j = i + 1;
                loop {
                    let (m, next) = dotted(t, j);
                    python_module(&m, out);
                    j = next;
                    if name(t, j) == Some("as") {
                        j += 2;
                    }
                    if !punct(t, j, ',') {
                        break;
                    }
                    j += 1;
                }
            }
            Some("from") if !after_dot => {
                let mut j = i + 1;
                while punct(t, j, '.') {
                    j += 1;
                }
                let (m, next) = dotted(t, j);
                python_module(&m, out);
                if name(t, next) != Some("import") {
                    continue;
                }
                // Each name may be a submodule (`from pkg import util` loads pkg/util.py).
                let mut k = next + 1 + usize::from(punct(t, next + 1, '('));
                while let Some(n) = name(t, k) {
                    let sub = if m.is_empty() {
                        n.to_string()
                    } else {
                        format!("{m}.{n}")
                    };
                    python_module(&sub, out);
                    k += if name(t, k + 1) == Some("as") { 3 } else { 1 };
                    if !punct(t, k, ',') {
                        break;
                    }
                    k += 1;
                }
            }
            Some("__import__" | "import_module") if punct(t, i + 1, '(') => {
                if let Some(m) = string(t, i + 2) {
                    python_module(m.trim_start_matches('.'), out);
                }
            }
            _ => {}
        }
    }
}

/// `a.b.c`: `a.py` or the package `a/__init__.py`, then each submodule in its package.
fn python_module(module: &str, out: &mut Vec<Load>) {
    if module.is_empty() || out.len() >= MAX_LOADS {
        return;
    }
    let mut path = String::new();
    for part in module.split('.') {
        if !path.is_empty() {
            path.push('/');
        }
        path.push_str(part);
        out.push(Load::File(format!("{path}.py")));
        out.push(Load::File(format!("{path}/__init__.py")));
    }
}

/// `require('m')`, `import('m')`, `import … from 'm'`, `export … from 'm'`, `import 'm'`.
fn js_imports(t: &Toks, out: &mut Vec<Load>) {
    for i in 0..t.len() {
        let spec = match name(t, i) {
            Some("require" | "import") if punct(t, i + 1, '(') => string(t, i + 2),
            Some("from") => string(t, i + 1),
            Some("import") => string(t, i + 1),
            _ => None,
        };
        if let Some(s) = spec {
            js_module(s, out);
        }
    }
}

/// A relative module is a file beside the program (`./util` is util.js, util/index.js…); a
/// bare one a package under `node_modules`.
fn js_module(spec: &str, out: &mut Vec<Load>) {
    if out.len() >= MAX_LOADS || spec.starts_with("node:") || spec.is_empty() {
        return;
    }
    if spec.starts_with("./") || spec.starts_with("../") || spec.starts_with('/') {
        let leaf = basename(spec);
        out.push(Load::File(leaf.to_string()));
        if !leaf.contains('.') {
            for ext in ["js", "mjs", "cjs", "ts", "json"] {
                out.push(Load::File(format!("{leaf}.{ext}")));
            }
            out.push(Load::File(format!("{leaf}/index.js")));
        }
        return;
    }
    let mut parts = spec.split('/');
    let first = parts.next().unwrap_or_default();
    let package = match (first.starts_with('@'), parts.next()) {
        (true, Some(second)) => format!("{first}/{second}"),
        _ => first.to_string(),
    };
    out.push(Load::Under(format!("node_modules/{package}/")));
}

/// What a command line of `lang`'s interpreter loads besides its program and the program's
/// imports: `words` are its arguments after the program name (`pytest` counts as Python);
/// `startup` is `PYTHONSTARTUP` when the command has it.
pub fn command(lang: Lang, program: &str, words: &[&str], startup: Option<&str>) -> Vec<Load> {
    match lang {
        Lang::Python if matches!(program, "pytest" | "py.test") => pytest(words),
        Lang::Python => python_command(words, startup),
        Lang::Js => node_command(words),
        Lang::C | Lang::Rust | Lang::Go => Vec::new(),
    }
}

/// Python's options that take a value.
const PY_VALUED: [&str; 3] = ["-W", "-X", "--check-hash-based-pycs"];

fn python_command(words: &[&str], startup: Option<&str>) -> Vec<Load> {
    let mut out = Vec::new();
    // `-i` runs the start-up file whatever else runs.
    let mut forced = false;
    let mut i = 0;
    while let Some(&w) = words.get(i) {
        match w {
            "-i" => forced = true,
            "-c" => return finish(out, forced, startup),
            "-m" => {
                let Some(&module) = words.get(i + 1) else {
                    break;
                };
                // The packages of `-m a.b` are imported first (`json/__init__.py`).
                python_module(module, &mut out);
                out.extend(runner(module, words.get(i + 2..).unwrap_or(&[])));
                return finish(out, forced, startup);
            }
            w if PY_VALUED.contains(&w) => i += 1,
            w if !w.starts_with('-') || w == "-" => return finish(out, forced, startup),
            _ => {}
        }
        i += 1;
    }
    finish(out, true, startup)
}

/// A bare `python3` (no script, `-c` or `-m`) is interactive: it runs `PYTHONSTARTUP` first.
fn finish(mut out: Vec<Load>, interactive: bool, startup: Option<&str>) -> Vec<Load> {
    if interactive {
        out.extend(startup.map(|s| Load::File(s.to_string())));
    }
    out.dedup();
    out
}

/// The files a module run with `-m` runs from its arguments.
fn runner(module: &str, rest: &[&str]) -> Vec<Load> {
    match module {
        "unittest" => unittest(rest),
        "pytest" => pytest(rest),
        "doctest" => operands(rest, &["-o", "--option"])
            .into_iter()
            .map(|f| match f.ends_with(".py") {
                true => Load::File(basename(f).to_string()),
                false => Load::Examples(basename(f).to_string()),
            })
            .collect(),
        // Debuggers, tracers and profilers run the script they are given as `__main__`
        // (`python3 -m pdb -c continue x.py`, `-m trace --count -C d x.py`, `-m cProfile -o
        // out x.py`): the file runs as `python3 x.py` would.
        "pdb" | "trace" | "cProfile" | "profile" => {
            let valued = match module {
                "pdb" => &["-c", "--command"][..],
                "trace" => &[
                    "-C",
                    "--coverdir",
                    "-f",
                    "--file",
                    "--ignore-module",
                    "--ignore-dir",
                ][..],
                _ => &["-o", "--outfile", "-s", "--sort"][..],
            };
            let script = operands(rest, valued).into_iter().next();
            script
                .map(|f| Load::File(basename(f).to_string()))
                .into_iter()
                .collect()
        }
        _ => Vec::new(),
    }
}

/// `python3 -m unittest [discover [-s DIR] [-p PATTERN]]` imports every file matching the
/// pattern (`test*.py`); `python3 -m unittest tests.test_x` the modules named.
fn unittest(rest: &[&str]) -> Vec<Load> {
    const VALUED: [&str; 8] = [
        "-s",
        "--start-directory",
        "-p",
        "--pattern",
        "-t",
        "--top-level-directory",
        "-k",
        "--locals",
    ];
    let ops = operands(rest, &VALUED);
    if ops.first().is_some_and(|o| *o != "discover") {
        let mut out = Vec::new();
        for o in ops {
            match o.ends_with(".py") {
                true => out.push(Load::File(basename(o).to_string())),
                false => python_module(o, &mut out),
            }
        }
        return out;
    }
    let pattern = value(rest, &["-p", "--pattern"]).or(ops.get(2).copied());
    vec![Load::Tests(pattern.unwrap_or("test*.py").to_string())]
}

/// pytest collects `test_*.py` and `*_test.py` and imports every `conftest.py`.
fn pytest(words: &[&str]) -> Vec<Load> {
    let mut out: Vec<Load> = ["test_*.py", "*_test.py", "conftest.py"]
        .iter()
        .map(|g| Load::Tests(g.to_string()))
        .collect();
    let named = operands(words, &["-k", "-m", "-p", "-c", "-o", "--rootdir"]);
    let files = named.into_iter().filter(|f| f.ends_with(".py"));
    out.extend(files.map(|f| Load::Tests(basename(f).to_string())));
    out
}

/// Node's options that load a module before the program.
const NODE_PRELOAD: [&str; 5] = [
    "-r",
    "--require",
    "--import",
    "--loader",
    "--experimental-loader",
];

/// `node --import ./x.mjs`, `-r ./x.js`, `--require=x`, `--loader x`: files preloaded before
/// the program; `node --test` the test files it discovers.
fn node_command(words: &[&str]) -> Vec<Load> {
    let mut out = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let (flag, attached) = w.split_once('=').map_or((*w, None), |(f, v)| (f, Some(v)));
        if NODE_PRELOAD.contains(&flag) {
            if let Some(v) = attached.or(words.get(i + 1).copied()) {
                js_module(v, &mut out);
            }
        }
        if flag == "--test" {
            for g in ["*.test.*", "*-test.*", "*_test.*", "test.*", "test-*.*"] {
                out.push(Load::Tests(g.to_string()));
            }
        }
        if matches!(*w, "-e" | "--eval" | "-p" | "--print") {
            break;
        }
    }
    out
}

/// Code a module run with `-m` takes as its arguments: `python3 -m timeit -s SETUP STMT…`
/// runs the setup then each statement; `python3 -m pdb -c CMD` runs each command, Python
/// where it is no debugger command (`!` forces it).
pub fn module_code(words: &[&str]) -> Option<String> {
    // The first of `-m`, `-c` or a script decides what runs.
    let at = words
        .iter()
        .position(|w| matches!(*w, "-m" | "-c") || !w.starts_with('-'))
        .filter(|&at| words[at] == "-m")?;
    let rest = words.get(at + 2..).unwrap_or(&[]);
    let mut lines: Vec<&str> = Vec::new();
    match *words.get(at + 1)? {
        "timeit" => {
            let mut stmts = Vec::new();
            let mut i = 0;
            while let Some(&w) = rest.get(i) {
                i += 1;
                match w {
                    "-s" | "--setup" => {
                        lines.extend(rest.get(i));
                        i += 1;
                    }
                    "-n" | "--number" | "-r" | "--repeat" | "-u" | "--unit" => i += 1,
                    _ if w.starts_with("--setup=") => lines.push(&w["--setup=".len()..]),
                    _ if w.starts_with("-s") && !w.starts_with("--") => lines.push(&w[2..]),
                    // `-p`, `-v`, `-n1`.
                    _ if w.starts_with('-') && w.len() > 1 => {}
                    _ => stmts.push(w),
                }
            }
            lines.extend(stmts);
        }
        "pdb" => {
            for (i, w) in rest.iter().enumerate() {
                if matches!(*w, "-c" | "--command") {
                    lines.extend(rest.get(i + 1).map(|c| c.trim_start_matches('!')));
                }
            }
        }
        _ => return None,
    }
    (!lines.is_empty()).then(|| lines.join("\n"))
}

/// The program a command line gives its interpreter inline: `python3 -c CODE` (`-cCODE`),
/// `node -e CODE` (`--eval`, `-p`, `--print`), or a module's code arguments (`module_code`).
pub fn inline<'a>(lang: Lang, words: &[&'a str]) -> Option<std::borrow::Cow<'a, str>> {
    let flags: &[&str] = match lang {
        Lang::Python => &["-c"],
        Lang::Js => &["-e", "--eval", "-p", "--print"],
        Lang::C | Lang::Rust | Lang::Go => return None,
    };
    let valued: &[&str] = match lang {
        Lang::Python => &PY_VALUED,
        Lang::Js => &NODE_PRELOAD,
        Lang::C | Lang::Rust | Lang::Go => return None,
    };
    let mut i = 0;
    while let Some(w) = words.get(i) {
        if flags.contains(w) {
            return words.get(i + 1).map(|c| std::borrow::Cow::Borrowed(*c));
        }
        if lang == Lang::Python && w.starts_with("-c") {
            return Some(std::borrow::Cow::Borrowed(&w[2..]));
        }
        // What follows the program (a script, `-m mod`) is its own arguments.
        if !w.starts_with('-') || *w == "-m" {
            break;
        }
        i += if valued.contains(w) { 2 } else { 1 };
    }
    match lang {
        Lang::Python => module_code(words).map(std::borrow::Cow::Owned),
        Lang::Js | Lang::C | Lang::Rust | Lang::Go => None,
    }
}

/// The `>>>` and `...` lines of a doctest text, as the Python they run.
pub fn examples(text: &str) -> String {
    let mut out = Vec::new();
    for line in text.lines() {
        let l = line.trim_start();
        if let Some(code) = l.strip_prefix(">>>").or_else(|| l.strip_prefix("...")) {
            out.push(code.strip_prefix(' ').unwrap_or(code));
        }
    }
    out.join("\n")
}

/// Operands after options (`-x VALUE` for the options in `valued`; `--opt=value` is one).
fn operands<'a>(words: &[&'a str], valued: &[&str]) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&w) = words.get(i) {
        if valued.contains(&w) {
            i += 2;
            continue;
        }
        if !w.starts_with('-') || w == "-" {
            out.push(w);
        }
        i += 1;
    }
    out
}

fn value<'a>(words: &[&'a str], names: &[&str]) -> Option<&'a str> {
    let at = words.iter().position(|w| names.contains(w))?;
    words.get(at + 1).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(loads: &[Load]) -> Vec<&str> {
        loads
            .iter()
            .map(|l| match l {
                Load::File(p) | Load::Under(p) | Load::Tests(p) | Load::Examples(p) => p.as_str(),
            })
            .collect()
    }

    #[test]
    fn imports_name_the_files_that_may_hold_them() {
        let l = modules(
            Lang::Python,
            "import random, os.path as p\nfrom pkg import util",
        );
        let f = files(&l);
        for want in [
            "random.py",
            "random/__init__.py",
            "os/path.py",
            "pkg/util.py",
        ] {
            assert!(f.contains(&want), "{want} in {f:?}");
        }
        let l = modules(
            Lang::Js,
            "const lp = require('left-pad'); import x from './util'",
        );
        assert!(l.contains(&Load::Under("node_modules/left-pad/".into())));
        assert!(l.contains(&Load::File("util.js".into())));
        assert!(modules(Lang::Js, "require('node:fs')").is_empty());
    }

    #[test]
    fn store_keys_match_by_name_or_by_package() {
        assert!(Load::File("random.py".into()).matches("random.py"));
        assert!(Load::File("random.py".into()).matches("/srv/app/random.py"));
        assert!(!Load::File("random.py".into()).matches("my_random.py"));
        let init = Load::File("json/__init__.py".into());
        assert!(init.matches("json/__init__.py"));
        assert!(!init.matches("__init__.py"));
        assert!(!init.matches("pkg/__init__.py"));
        let lp = Load::Under("node_modules/left-pad/".into());
        assert!(lp.matches("node_modules/left-pad/index.js"));
        assert!(!lp.matches("index.js"));
        assert!(Load::Tests("test*.py".into()).matches("test_smoke.py"));
        assert_eq!(
            qualified("/srv/app/node_modules/left-pad/index.js"),
            Some("node_modules/left-pad/index.js")
        );
        assert_eq!(
            qualified("/srv/app/json/__init__.py"),
            Some("json/__init__.py")
        );
        assert_eq!(qualified("/srv/app/util.py"), None);
        assert!(loaded_unnamed(
            "/srv/app/json/__init__.py",
            &["python3 -m json.tool"]
        ));
        assert!(loaded_unnamed(
            "/srv/app/tests/test_a.py",
            &["python3 -m unittest"]
        ));
        assert!(!loaded_unnamed("/srv/app/tests/test_a.py", &["ls"]));
    }

    #[test]
    fn runners_and_arguments_that_run_code() {
        let l = command(
            Lang::Python,
            "python3",
            &["-m", "unittest", "discover", "-s", "tests"],
            None,
        );
        assert_eq!(l.last(), Some(&Load::Tests("test*.py".into())));
        let l = command(
            Lang::Python,
            "python3",
            &["-m", "doctest", "docs/usage.txt"],
            None,
        );
        assert!(l.contains(&Load::Examples("usage.txt".into())));
        let l = command(Lang::Python, "python3", &["-i"], Some("tools/startup.py"));
        assert!(l.contains(&Load::File("tools/startup.py".into())));
        let l = command(Lang::Python, "python3", &["t.py"], Some("s.py"));
        assert!(l.is_empty());
        let l = command(
            Lang::Js,
            "node",
            &["--import=./tools/register.mjs", "-e", "1"],
            None,
        );
        assert!(l.contains(&Load::File("register.mjs".into())));
        let code = module_code(&["-m", "timeit", "-n", "1", "-s", "import os", "os.getpid()"]);
        assert_eq!(code.as_deref(), Some("import os\nos.getpid()"));
        assert_eq!(
            examples("Use:\n>>> import os\n... x = 1\ntext"),
            "import os\nx = 1"
        );
    }
}
