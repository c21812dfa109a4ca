//! Build and test tools run a project's code without naming it: `cargo build` runs build.rs,
//! `cargo test` and `go test` run the tests and the code they call, `go generate` runs its
//! `//go:generate` lines, `npm run build` runs what package.json names, `make` its recipes,
//! `pytest` the test files. A program the session wrote under the tool's directory is judged
//! as run by it: what it was read to do (`crate::code`), as a script one level down.
//!
//! Two strengths. Where the tool certainly runs the file (build.rs on any build, every Rust or
//! Go file a test or run compiles), a call the reader could not read that runs a program,
//! deletes, moves or connects is opaque. Where the project file that decides is not one the
//! session wrote (package.json, a Makefile on disk), the file is only possibly run: its named
//! commands are judged and nothing else, so a session that wrote a harmless build script and
//! runs `npm run build` stays allowed. As for project files (`project`), the variables a
//! program reads are left out: a project's code takes its settings from the environment.

use super::super::{cwd, CallView, Earlier, HostPaths};
use crate::code::{self, Lang};
use crate::guards::argv::{args, program};
use crate::paths::{self, PathContext};
use crate::shell::{self, Command, ShellInput, Written};

/// Which files a tool runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Certain {
    /// Only possibly (the project file decides).
    Nothing,
    /// `build.rs`, which cargo runs before any build or check.
    BuildScript,
    /// Every file of its languages under its directory.
    All,
    /// The `//go:generate` lines of the Go files.
    Generate,
}

#[derive(Debug, Clone, Copy)]
struct Tool {
    langs: &'static [Lang],
    /// Shell scripts (`scripts/test.sh`) may be run by it.
    shell: bool,
    certain: Certain,
    /// The project file that names what runs (judged itself when the session wrote it, so
    /// the files are then not taken as possibly run).
    project: &'static [&'static str],
}

const ALL: &[Lang] = &[Lang::Js, Lang::Python, Lang::C, Lang::Rust, Lang::Go];
const JS: &[Lang] = &[Lang::Js];
const NPM: &[&str] = &["package.json"];
const MAKE: &[&str] = &["Makefile", "makefile", "GNUmakefile"];

/// Programs whose name in a call's text makes the session's files worth looking at.
const TOOLS: [&str; 36] = [
    "cargo",
    "go",
    "npm",
    "pnpm",
    "yarn",
    "bun",
    "npx",
    "pnpx",
    "bunx",
    "node",
    "deno",
    "make",
    "gmake",
    "just",
    "task",
    "pytest",
    "py.test",
    "tox",
    "nox",
    "python",
    "python3",
    "jest",
    "vitest",
    "mocha",
    "ava",
    "playwright",
    "cypress",
    "karma",
    "gradle",
    "gradlew",
    "mvn",
    "mvnw",
    "ant",
    "rake",
    "ninja",
    "bazel",
];

/// Whether `said` (a call's params) names a build or test tool as a word.
/// Every call of a session that wrote a file asks this, for each of its words: split by byte,
/// and looked up in a set (no tool name is longer than 10 bytes).
pub fn mentions_tool(said: &[&str]) -> bool {
    let word = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-');
    said.iter().any(|s| {
        (s.as_bytes().split(|b| !word(b))).any(|w| (2..=10).contains(&w.len()) && is_tool(w))
    })
}

/// Whether `name` is one of `TOOLS`: a set, since every word of a call and every command's
/// program is asked.
fn is_tool(name: &[u8]) -> bool {
    static SET: std::sync::OnceLock<rustc_hash::FxHashSet<&[u8]>> = std::sync::OnceLock::new();
    let tools = SET.get_or_init(|| TOOLS.iter().map(|t| t.as_bytes()).collect());
    tools.contains(name)
}

/// Adds, for each build or test tool a call runs, the readings of the session's programs it
/// may run, as scripts of their own; and notes what `go build` of a package builds.
pub fn follow(v: &mut CallView, host: &HostPaths, earlier: &Earlier) {
    // Most calls come from sessions that wrote nothing, or run no such tool: nothing is
    // looked at or copied for them.
    let wrote = |v: &CallView| v.scripts.iter().any(|s| !s.written.is_empty());
    if earlier.programs.is_empty() && !wrote(v) {
        return;
    }
    let runs = |c: &Command| tool(c).is_some() || go_builds(c);
    if !v.scripts.iter().any(|s| s.commands.iter().any(runs)) {
        return;
    }
    let files = session_files(v, earlier);
    let ctx = PathContext {
        cwd: v.workspace.as_deref().or(v.cwd.as_deref()),
        home: host.home.as_deref(),
    };
    let mut found: Vec<Found> = Vec::new();
    let mut built: Vec<(usize, Written)> = Vec::new();
    for (i, script) in v.scripts.iter().enumerate() {
        for c in script.commands.iter().filter(|c| runs(c)) {
            let start = c.cwd.clone().or_else(|| v.cwd.clone());
            let under = |p: &str| match start.as_deref() {
                Some(dir) => (paths::resolve_literal(p, &ctx).path.strip_prefix(dir))
                    .is_some_and(|r| r.starts_with('/')),
                None => true,
            };
            let mine: Vec<&Written> = files.iter().filter(|(p, _)| under(p)).collect();
            for f in tool(c)
                .map(|t| run_by(t, c, start.as_deref(), &mine))
                .unwrap_or_default()
            {
                if !found.contains(&f) {
                    found.push(f);
                }
            }
            built.extend(go_built(c, start.as_deref(), &mine).map(|out| (i, out)));
        }
    }
    for (i, out) in built {
        v.scripts[i].written.push(out);
    }
    for f in found {
        let mut s = shell::analyze(&ShellInput {
            script: &f.text,
            env: &[],
            depth: f.depth,
            earlier: &earlier.files,
        });
        if f.possible {
            only_named(&mut s);
        }
        let home = host.home.as_deref();
        cwd::track(&mut s, f.start.as_deref(), home, v.workspace.as_deref());
        v.scripts.push(s);
    }
}

/// What tool `t`, run by `c` from `start`, runs of the files under its directory.
fn run_by(t: Tool, c: &Command, start: Option<&str>, files: &[&Written]) -> Vec<Found> {
    let theirs = (files.iter()).any(|(p, _)| t.project.contains(&paths::basename(p)));
    (files.iter())
        .filter_map(|(path, text)| judged(t, path, text.as_deref(), theirs))
        .map(|(text, possible)| Found {
            text,
            depth: c.depth + 1,
            start: start.map(str::to_string),
            possible,
        })
        .collect()
}

/// A file only possibly run is judged by its named commands: what could not be known of it
/// (a computed script, a program named by a variable: `"$CC" -o app app.c`) is left, as the
/// reader leaves what it cannot read.
fn only_named(s: &mut shell::Script) {
    s.opaque.clear();
    for c in &mut s.commands {
        if c.argv.first().is_some_and(|p| p.unresolved || p.pattern) {
            c.argv = vec![shell::Arg::literal(":")];
        }
    }
}

/// A file's reading to judge where a tool runs.
#[derive(PartialEq)]
struct Found {
    text: String,
    depth: u32,
    start: Option<String>,
    possible: bool,
}

/// The session's files by path, and this call's own (a base name) where no path is known.
fn session_files(v: &CallView, earlier: &Earlier) -> Vec<Written> {
    let mut files: Vec<Written> = earlier.programs.clone();
    for (name, text) in v.scripts.iter().flat_map(|s| s.written.iter()) {
        if !files.iter().any(|(p, _)| paths::basename(p) == name) {
            files.push((name.clone(), text.clone()));
        }
    }
    files
}

/// `go build [-o out]` of a package (no `.go` file named, which `shell::compile` follows):
/// the program holds what the session's Go files under its directory were read to do; it is
/// named by `-o`, else after the directory.
fn go_built(c: &Command, start: Option<&str>, files: &[&Written]) -> Option<Written> {
    let a = args(c);
    if !go_builds(c) || a.iter().any(|x| x.text.ends_with(".go")) {
        return None;
    }
    let named = a
        .windows(2)
        .find(|w| w[0].text == "-o")
        .map(|w| w[1].text.as_str());
    let out = paths::basename(named.or(start)?).to_string();
    let sources: Vec<Option<&str>> = (files.iter())
        .filter(|(p, _)| p.ends_with(".go") && !p.ends_with("_test.go"))
        .map(|(_, t)| t.as_deref())
        .collect();
    if sources.is_empty() {
        return None;
    }
    let text = (sources.into_iter())
        .map(|t| {
            let reading = code::read(Lang::Go, t?);
            Some(reading.script_with(reading.unread.as_deref()))
        })
        .collect::<Option<Vec<String>>>()
        .map(|t| t.join("\n"));
    Some((out, text))
}

fn go_builds(c: &Command) -> bool {
    program(c) == "go" && args(c).first().is_some_and(|x| x.text == "build")
}

/// The shell text a tool runs of one file, and whether it is only possibly run; `None` when
/// the tool runs no such file, or it holds nothing to judge.
fn judged(
    t: Tool,
    path: &str,
    text: Option<&str>,
    project_written: bool,
) -> Option<(String, bool)> {
    let name = paths::basename(path);
    let lang = code::source_language(name).or_else(|| text.and_then(shebang));
    let shell = lang.is_none() && is_shell(name, text);
    if !(shell && t.shell || lang.is_some_and(|l| t.langs.contains(&l))) {
        return None;
    }
    let certain = match t.certain {
        Certain::All => true,
        Certain::BuildScript => name == "build.rs",
        Certain::Generate => {
            let lines = super::commands(super::Runs::Project(super::Project::GoSource), text?);
            return (!lines.is_empty()).then_some((lines, false));
        }
        Certain::Nothing => false,
    };
    if !certain && project_written {
        return None;
    }
    let Some(text) = text else {
        // Its text is only known when it runs.
        return certain.then(|| {
            (
                code::unread_line("a program written with unknown text"),
                false,
            )
        });
    };
    let script = match lang {
        None => text.to_string(),
        Some(lang) => {
            let reading = code::read(lang, text);
            let named = code::Reading {
                script: reading.without_env_reads(),
                ..reading
            };
            let grave = named.grave.as_deref().filter(|_| certain);
            named.script_with(grave)
        }
    };
    (!script.trim().is_empty()).then_some((script, !certain))
}

/// A shell script by its name (`.sh`, `.bash`) or its `#!` line.
fn is_shell(name: &str, text: Option<&str>) -> bool {
    let by_name = [".sh", ".bash", ".zsh", ".ksh"]
        .iter()
        .any(|e| name.ends_with(e));
    let first = text.and_then(|t| t.lines().next()).unwrap_or("");
    let by_line = first.starts_with("#!")
        && ["sh", "bash", "zsh", "dash", "ksh"]
            .iter()
            .any(|s| first.split(['/', ' ']).any(|w| w == *s));
    by_name || by_line
}

/// The language a `#!` line names (`#!/usr/bin/env python3`, `#!/usr/bin/node`).
fn shebang(text: &str) -> Option<Lang> {
    let first = text.lines().next()?.strip_prefix("#!")?;
    first.split(['/', ' ']).find_map(code::language)
}

/// The tool a command runs, and what it runs of the project; `None` for any other command
/// (or a tool's subcommand that runs none of the project's code).
fn tool(c: &Command) -> Option<Tool> {
    let prog = program(c);
    if !is_tool(prog.as_bytes()) && !prog.starts_with("python") {
        return None;
    }
    let a = args(c);
    let sub = first_word(
        a,
        &[
            "-C",
            "--manifest-path",
            "-Z",
            "--config",
            "--color",
            "--prefix",
        ],
    );
    let possible = |langs: &'static [Lang], project: &'static [&'static str]| Tool {
        langs,
        shell: true,
        certain: Certain::Nothing,
        project,
    };
    Some(match prog {
        "cargo" => {
            let certain = match sub? {
                "build" | "b" | "check" | "c" | "clippy" | "doc" | "d" | "fix" | "publish"
                | "package" | "install" => Certain::BuildScript,
                "run" | "r" | "test" | "t" | "bench" | "miri" => Certain::All,
                _ => return None,
            };
            Tool {
                langs: &[Lang::Rust],
                shell: false,
                certain,
                project: &[],
            }
        }
        "go" => {
            let certain = match sub? {
                "test" | "run" => Certain::All,
                "generate" => Certain::Generate,
                _ => return None,
            };
            // `go run main.go` of named files is the shell model's (`shell::compile`).
            let named = a.iter().any(|x| x.text.ends_with(".go"));
            if named && sub == Some("run") {
                return None;
            }
            Tool {
                langs: &[Lang::Go],
                shell: false,
                certain,
                project: &[],
            }
        }
        "npm" | "pnpm" | "yarn" | "bun" if runs_scripts(prog, sub, a) => {
            possible(&[Lang::Js, Lang::Python], NPM)
        }
        "npx" | "pnpx" | "bunx" | "jest" | "vitest" | "mocha" | "ava" | "playwright"
        | "cypress" | "karma" => possible(JS, NPM),
        "node"
            if a.iter()
                .any(|x| x.text == "--test" || x.text.starts_with("--run")) =>
        {
            possible(JS, NPM)
        }
        "deno" if matches!(sub, Some("task" | "test" | "bench")) => possible(JS, &["deno.json"]),
        "make" | "gmake" => possible(ALL, MAKE),
        "just" => possible(ALL, &["justfile", "Justfile", ".justfile"]),
        "task" => possible(ALL, &["Taskfile.yml", "Taskfile.yaml"]),
        "gradle" | "gradlew" | "mvn" | "mvnw" | "ant" | "rake" | "ninja" | "bazel" | "tox"
        | "nox" => possible(ALL, &[]),
        "pytest" | "py.test" => possible(&[Lang::Python], &[]),
        p if p.starts_with("python") && pytest_module(a) => possible(&[Lang::Python], &[]),
        _ => return None,
    })
}

/// `npm run build`, `npm test`, `yarn build`, `pnpm install`: a subcommand that runs the
/// project's scripts (yarn, pnpm and bun also run a script named as the subcommand).
fn runs_scripts(prog: &str, sub: Option<&str>, a: &[shell::Arg]) -> bool {
    let Some(sub) = sub else {
        // A bare `yarn` installs, running the project's lifecycle scripts.
        return prog == "yarn";
    };
    match sub {
        "run" | "run-script" | "rum" | "urn" | "test" | "t" | "tst" | "start" | "stop"
        | "restart" | "exec" | "x" => true,
        // Installing the project (no package named) runs its own lifecycle scripts.
        "install" | "i" | "ci" => (a.iter().skip(1)).all(|x| x.text.starts_with('-')),
        _ if prog == "npm" => false,
        // Their own commands; any other word is a script's name.
        "add"
        | "remove"
        | "rm"
        | "upgrade"
        | "up"
        | "update"
        | "info"
        | "why"
        | "init"
        | "config"
        | "cache"
        | "global"
        | "login"
        | "logout"
        | "publish"
        | "list"
        | "ls"
        | "outdated"
        | "audit"
        | "licenses"
        | "pack"
        | "link"
        | "unlink"
        | "dlx"
        | "create"
        | "store"
        | "env"
        | "setup"
        | "root"
        | "bin"
        | "version"
        | "help"
        | "patch"
        | "import"
        | "fetch"
        | "upgrade-interactive"
        | "set"
        | "plugin"
        | "node" => false,
        _ => true,
    }
}

/// `python3 -m pytest` (or unittest, tox, nox): the test runner as a module.
fn pytest_module(a: &[shell::Arg]) -> bool {
    a.windows(2).any(|w| {
        w[0].text == "-m" && matches!(w[1].text.as_str(), "pytest" | "unittest" | "tox" | "nox")
    })
}

/// The first word that is no option (and no option's value), nor a toolchain (`+nightly`).
fn first_word<'a>(a: &'a [shell::Arg], valued: &[&str]) -> Option<&'a str> {
    let mut words = a.iter().map(|x| x.text.as_str());
    while let Some(w) = words.next() {
        if valued.contains(&w) {
            words.next();
        } else if !w.starts_with('-') && !w.starts_with('+') {
            return Some(w);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_named_as_a_word() {
        assert!(TOOLS.iter().all(|t| (2..=10).contains(&t.len())));
        assert!(mentions_tool(&["cargo build --release"]));
        assert!(mentions_tool(&["npx playwright test"]));
        assert!(mentions_tool(&["cd app && ./gradlew test"]));
        assert!(!mentions_tool(&["git log --oneline", "/srv/app"]));
        assert!(!mentions_tool(&["cat cargo.lock.bak"]));
    }

    #[test]
    fn what_each_tool_runs_of_a_file() {
        let cargo = Tool {
            langs: &[Lang::Rust],
            shell: false,
            certain: Certain::BuildScript,
            project: &[],
        };
        let build = "fn main(){ std::fs::remove_dir_all(\"/home/a/docs\").ok(); }";
        assert_eq!(
            judged(cargo, "build.rs", Some(build), false),
            Some(("rm -rf -- '/home/a/docs'".into(), false))
        );
        // Another Rust file is only possibly run by a build: named commands only.
        let lib = "fn f(p: &str){ std::fs::remove_dir_all(p).ok(); }";
        assert_eq!(judged(cargo, "src/lib.rs", Some(lib), false), None);
        assert!(
            judged(cargo, "build.rs", Some(lib), false).is_some_and(|(t, _)| t.contains("eval"))
        );
        let npm = Tool {
            langs: JS,
            shell: true,
            certain: Certain::Nothing,
            project: NPM,
        };
        let js = "require('child_process').execSync('rm -rf ~/docs')";
        assert_eq!(
            judged(npm, "scripts/build.js", Some(js), false),
            Some(("rm -rf ~/docs".into(), true))
        );
        // package.json written by the session: it says what runs, judged on its own.
        assert_eq!(judged(npm, "scripts/build.js", Some(js), true), None);
        assert!(judged(npm, "scripts/t.sh", Some("rm -rf ~/x"), false).is_some());
        assert_eq!(judged(npm, "README.md", Some("rm -rf ~/x"), false), None);
    }
}
