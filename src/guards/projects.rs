//! Build and test tools run code from the directory they work in, without naming it: `make` its
//! Makefile's recipes, `npm install` the lifecycle scripts of package.json, `pytest` conftest.py,
//! `pip install .` setup.py, `python -m mod` a mod.py found there. A file downloaded under one of
//! those names, or a repository cloned into that directory, is remote code once such a tool runs
//! there (`curl -o Makefile URL && make`, `git clone URL x && make -C x`).

use super::argv::{args, operands, option_values, program};
use crate::shell::{Arg, Command};

/// What a build tool run by `c` executes: the directory it works in (as written, relative to
/// the command's own directory) and which files there it runs.
pub struct Project<'a> {
    pub dir: &'a str,
    /// File names the tool runs from `dir`; `*.py` stands for every Python file below it.
    pub files: Vec<String>,
    /// Files it was told to run (`make -f F`, `cargo --manifest-path F`), as written.
    pub named: Vec<&'a str>,
}

/// Lifecycle scripts run by these package-manager verbs (npm, pnpm, yarn and bun share them).
const NODE_VERBS: [&str; 16] = [
    "install",
    "i",
    "ci",
    "add",
    "test",
    "t",
    "tst",
    "run",
    "run-script",
    "start",
    "stop",
    "restart",
    "rebuild",
    "pack",
    "publish",
    "exec",
];

pub fn project(c: &Command) -> Option<Project<'_>> {
    let a = args(c);
    let prog = program(c);
    let files = |names: &[&str]| names.iter().map(|n| n.to_string()).collect();
    let mut named = Vec::new();
    let (dir, files) = match prog {
        "make" | "gmake" | "bmake" => {
            named = option_values(a, Some("-f"), "--file");
            (
                last(option_values(a, Some("-C"), "--directory")),
                files(&["Makefile", "makefile", "GNUmakefile"]),
            )
        }
        "npm" | "pnpm" | "yarn" | "bun" => {
            let verb = operands(a, &NODE_VALUED).first().map(|v| v.text.as_str());
            // Bare `yarn` and `pnpm` install.
            let runs = verb.is_none_or(|v| NODE_VERBS.contains(&v) || prog == "yarn");
            if !runs {
                return None;
            }
            let dir = last(option_values(a, None, "--prefix"))
                .or(last(option_values(a, Some("-C"), "--dir")))
                .or(last(option_values(a, None, "--cwd")));
            (dir, files(&["package.json"]))
        }
        "pytest" | "py.test" => (test_root(a), files(&["*.py"])),
        "pip" | "pip3" | "uv" => return pip_project(a),
        p if p.starts_with("python") => return python_module(c).or_else(|| loads(c)),
        "cargo" => {
            named = option_values(a, None, "--manifest-path");
            let dir = last(named.clone()).map(|m| m.rsplit_once('/').map_or(".", |(d, _)| d));
            (dir, files(&["build.rs", "Cargo.toml"]))
        }
        "rake" => (
            last(option_values(a, Some("-C"), "--directory")),
            files(&["Rakefile", "rakefile", "Rakefile.rb"]),
        ),
        "bundle" => (None, files(&["Gemfile"])),
        "gradle" | "gradlew" => (
            last(option_values(a, Some("-p"), "--project-dir")),
            files(&[
                "build.gradle",
                "build.gradle.kts",
                "settings.gradle",
                "settings.gradle.kts",
            ]),
        ),
        "mvn" | "mvnw" => (None, files(&["pom.xml"])),
        "cmake" => (
            last(option_values(a, Some("-S"), "-S")).or(operands(a, &["-B", "-G", "-D"])
                .first()
                .map(|o| o.text.as_str())),
            files(&["CMakeLists.txt"]),
        ),
        "just" => (None, files(&["justfile", "Justfile", ".justfile"])),
        "task" => (None, files(&["Taskfile.yml", "Taskfile.yaml"])),
        "composer" => (
            last(option_values(a, Some("-d"), "--working-dir")),
            files(&["composer.json"]),
        ),
        "tox" => (None, files(&["tox.ini", "setup.py", "pyproject.toml"])),
        "nox" => (None, files(&["noxfile.py"])),
        "invoke" | "inv" => (None, files(&["tasks.py"])),
        // Node 22's `node --run build` runs a package.json script.
        "node"
            if a.iter()
                .any(|x| x.text == "--run" || x.text.starts_with("--run=")) =>
        {
            (None, files(&["package.json"]))
        }
        "deno" if sub(a) == Some("task") => (None, files(&["deno.json", "deno.jsonc"])),
        "node" | "nodejs" | "deno" => return loads(c),
        // `go generate` runs the commands its comments name; run and test build and run the code.
        "go" if matches!(sub(a), Some("run" | "test" | "generate")) => (None, files(&["*.go"])),
        "pre-commit" => (None, files(&[".pre-commit-config.yaml"])),
        // `direnv allow` makes the shell source .envrc on every cd.
        "direnv" if sub(a) == Some("allow") => (None, files(&[".envrc"])),
        "mix" => (None, files(&["mix.exs"])),
        "sbt" => (None, files(&["build.sbt"])),
        "swift" if matches!(sub(a), Some("build" | "run" | "test")) => {
            (None, files(&["Package.swift"]))
        }
        "dotnet" if matches!(sub(a), Some("build" | "run" | "test" | "msbuild")) => (
            None,
            files(&["*.csproj", "*.fsproj", "*.props", "*.targets"]),
        ),
        "meson" => (None, files(&["meson.build"])),
        "bazel" | "bazelisk" => (
            None,
            files(&["WORKSPACE", "MODULE.bazel", "BUILD", "BUILD.bazel"]),
        ),
        _ => return None,
    };
    Some(Project {
        dir: dir.unwrap_or("."),
        files,
        named,
    })
}

/// npm options that take a value, so that the verb is found after them.
const NODE_VALUED: [&str; 6] = ["--prefix", "-C", "--dir", "--cwd", "-w", "--workspace"];

/// The first word after the program that is no option (`go test` → `test`).
fn sub(a: &[Arg]) -> Option<&str> {
    a.iter()
        .map(|x| x.text.as_str())
        .find(|t| !t.starts_with('-'))
}

fn last(values: Vec<&str>) -> Option<&str> {
    values.last().copied()
}

/// `pytest tests/`: the directory of the first path given, else the current one.
fn test_root(a: &[Arg]) -> Option<&str> {
    let ops = operands(a, &["-k", "-m", "-p", "-c", "-o", "--rootdir"]);
    ops.first().map(|o| o.text.as_str())
}

/// `pip install .`, `pip install -e ./pkg`, `uv pip install .`, `python -m pip install .`: a
/// local project's build code.
fn pip_project(a: &[Arg]) -> Option<Project<'_>> {
    let mut words = a.iter().map(|x| x.text.as_str());
    words.find(|w| *w == "install")?;
    let local = words.find(|w| *w == "." || w.starts_with("./") || w.starts_with('/'))?;
    Some(Project {
        dir: local,
        files: ["setup.py", "pyproject.toml", "setup.cfg"]
            .iter()
            .map(|n| n.to_string())
            .collect(),
        named: Vec::new(),
    })
}

/// `python -m mod` runs mod.py (or the package mod) from the current directory first.
fn python_module(c: &Command) -> Option<Project<'_>> {
    let a = args(c);
    let module = option_values(a, Some("-m"), "-m").first().copied()?;
    let top = module.split('.').next().unwrap_or(module);
    // `python -m pytest` also collects the tests; pip and build run setup.py.
    let mut files = vec![format!("{top}.py"), format!("{top}/__main__.py")];
    match top {
        "pytest" => files.push("*.py".to_string()),
        "pip" if a.iter().any(|x| x.text == "install") => return pip_project(a),
        "build" => files.extend(["setup.py".to_string(), "pyproject.toml".to_string()]),
        _ => {}
    }
    files.extend(loads(c).map(|p| p.files).unwrap_or_default());
    Some(Project {
        dir: ".",
        files,
        named: Vec::new(),
    })
}

/// What an interpreter command loads without naming it (`crate::code::imports`): the modules
/// its inline code imports, preloads, discovered tests, doctest's text. Each as a pattern for
/// `runs`: a path (`random.py`, `json/__init__.py`), a directory (`node_modules/x/`), a glob.
fn loads(c: &Command) -> Option<Project<'_>> {
    use crate::code::imports::{self, Load};
    let lang = crate::code::language(program(c))?;
    let words: Vec<&str> = args(c).iter().map(|x| x.text.as_str()).collect();
    let mut found = imports::command(lang, program(c), &words, None);
    if let Some(code) = imports::inline(lang, &words) {
        found.extend(imports::modules(lang, &code));
    }
    let files: Vec<String> = (found.into_iter())
        .map(|l| match l {
            Load::File(p) | Load::Under(p) | Load::Tests(p) | Load::Examples(p) => p,
        })
        .collect();
    (!files.is_empty()).then_some(Project {
        dir: ".",
        files,
        named: Vec::new(),
    })
}

/// Whether a tool running `project` (its directory resolved to `dir`) runs the file `saved`:
/// one of its file names directly in `dir`, or `dir` at or under a saved tree.
pub fn runs(project: &Project, dir: &str, saved: &str) -> bool {
    let dir = dir.trim_end_matches('/');
    let saved = saved.trim_end_matches('/');
    if dir == saved || dir.strip_prefix(saved).is_some_and(|r| r.starts_with('/')) {
        return true;
    }
    let Some(rest) = saved.strip_prefix(dir).and_then(|r| r.strip_prefix('/')) else {
        return false;
    };
    // A glob names files anywhere below (`*.py`, `test*.py`), a directory what is under it
    // (`node_modules/x/`), a path that file in `dir`.
    let name = crate::paths::basename(rest);
    project.files.iter().any(|f| match f {
        f if f.contains('*') => crate::paths::glob_matches(f, name),
        f if f.ends_with('/') => rest.starts_with(f.as_str()),
        f => rest == f,
    })
}
