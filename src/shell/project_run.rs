//! `npm run post`, `yarn post`, `pnpm test`, `just post` of a package.json or justfile the
//! script or session wrote: the project's tool runs the script's or recipe's lines with `sh`,
//! so they are commands of the line, one level down. The guards judge such a file when it is
//! written (`call::startup::project`); read here, the gate sees a post inside it too. npm's
//! named script runs with its `pre`/`post` scripts and the words after its name appended; an
//! install runs the lifecycle scripts. A package.json that is no JSON object, or a justfile,
//! runs as every command it holds (judging more, never less); a file of unknown text is opaque.

use super::walk::{Exec, Walker};
use super::{Arg, OpaqueKind, MAX_DEPTH};
use crate::call::startup::{commands, Project, Runs};
use serde_json::Value;

/// The scripts `npm install` runs of the project itself, in order.
const LIFECYCLE: [&str; 4] = ["preinstall", "install", "postinstall", "prepare"];

/// Subcommands of yarn, pnpm and bun that are their own, not a script's name (`yarn post`
/// runs the script `post`; `yarn add x` does not).
const BUILTIN: [&str; 40] = [
    "add",
    "audit",
    "autoclean",
    "bin",
    "build",
    "cache",
    "config",
    "create",
    "dedupe",
    "dlx",
    "env",
    "exec",
    "fetch",
    "global",
    "help",
    "import",
    "info",
    "init",
    "licenses",
    "link",
    "list",
    "login",
    "logout",
    "ls",
    "outdated",
    "pack",
    "patch",
    "pm",
    "publish",
    "remove",
    "rm",
    "store",
    "unlink",
    "up",
    "update",
    "upgrade",
    "version",
    "why",
    "workspace",
    "x",
];

/// The wrapper naming a run of every command a project file holds.
const EVERY: &str = "project file (every command)";

/// What a package manager's command runs of package.json.
enum Scripts<'a> {
    /// A script by name, with the words given after it.
    Named(&'a str, &'a [Arg]),
    /// An install: the project's lifecycle scripts.
    Install,
}

impl Walker {
    /// The package manager or `just`, then what it runs of the written package.json or
    /// justfile. `None` when it runs none of it (or the session wrote none).
    pub(super) fn run_project(
        &mut self,
        name: &str,
        args: &[Arg],
        cx: &Exec,
    ) -> Option<Vec<usize>> {
        let (text, every, positional) = match name {
            "npm" | "yarn" | "pnpm" | "bun" => self.package_scripts(name, args)?,
            "just" => (self.recipes(args)?, true, &[][..]),
            _ => return None,
        };
        // Inside a run of every command of a file, the tool run again (`"pretest": "npm run
        // lint"`) runs nothing not judged already; following it would loop.
        if every && self.prefix.iter().any(|w| w == EVERY) {
            return None;
        }
        // A script the file does not have: the tool runs nothing of it.
        if text.as_ref().is_some_and(|t| t.trim().is_empty()) {
            return None;
        }
        let mut out = vec![self.emit(args.to_vec(), cx.clone())];
        let Some(text) = text else {
            self.opaque(OpaqueKind::DynamicScript, &cx.src);
            return Some(out);
        };
        if cx.depth + 1 > MAX_DEPTH {
            self.too_deep(&text);
            return Some(out);
        }
        let (script, positional) = with_words(name, text, positional);
        let label = match every {
            true => EVERY.to_owned(),
            false => format!("{name} (written)"),
        };
        let script = Arg::literal(&script);
        out.extend(self.nested_shell(&label, args, script, positional, cx.clone()));
        Some(out)
    }

    /// What a package manager runs of the written package.json (unknown text: `None` inside),
    /// whether that is every command of it (a file not read as JSON), and the words the
    /// script gets. `None` when it runs no script, or the session wrote no package.json.
    fn package_scripts<'a>(
        &self,
        name: &str,
        args: &'a [Arg],
    ) -> Option<(Option<String>, bool, &'a [Arg])> {
        // Most package manager lines run in projects the session did not write: no parse.
        let text = self.written_text("package.json")?;
        let wanted = scripts(name, args)?;
        let positional = match wanted {
            Scripts::Named(_, rest) => rest,
            Scripts::Install => &[],
        };
        let Some(text) = text else {
            return Some((None, false, positional));
        };
        Some(match npm_scripts(&text, &wanted) {
            Some(run) => (Some(run), false, positional),
            None => {
                let every = commands(Runs::Project(Project::NpmManifest), &text);
                (Some(every), true, positional)
            }
        })
    }

    /// Every recipe body of the justfile `just` reads, when the session wrote it.
    fn recipes(&self, args: &[Arg]) -> Option<Option<String>> {
        let text = match justfile(args) {
            Some(f) => self.written_text(super::wrappers::basename(f))?,
            None => ["justfile", "Justfile", ".justfile"]
                .iter()
                .find_map(|f| self.written_text(f))?,
        };
        Some(text.map(|t| commands(Runs::Project(Project::Just), &t)))
    }
}

/// A script with the words after its name appended, as `"$@"` would be, and the positional
/// parameters those words are.
fn with_words(name: &str, text: String, words: &[Arg]) -> (String, Vec<(String, bool)>) {
    if words.is_empty() {
        return (text, Vec::new());
    }
    let values = words.iter().map(|a| (a.text.clone(), a.unresolved));
    let positional = std::iter::once((name.to_owned(), false)).chain(values);
    let appended = super::nest::positional_words(words.len());
    (format!("{text}{appended}"), positional.collect())
}

/// What `npm run x` (`run-script`, `test`, `start`, `install`…), `yarn x`, `pnpm x`, `bun run
/// x` runs of package.json; `None` for a command that runs none of its scripts.
fn scripts<'a>(name: &str, args: &'a [Arg]) -> Option<Scripts<'a>> {
    let (at, sub) = subcommand(args)?;
    let after = &args[at + 1..];
    let named = |i: usize| {
        let rest = after.get(i + 1..).unwrap_or(&[]);
        Some(Scripts::Named(
            after.get(i)?.text.as_str(),
            past_dashes(rest),
        ))
    };
    match sub {
        "run" | "run-script" | "rum" | "urn" | "rs" => named(0),
        "install" | "i" | "ci" | "in" => Some(Scripts::Install),
        "test" | "t" | "tst" if name != "bun" => Some(Scripts::Named("test", past_dashes(after))),
        "start" | "stop" | "restart" => Some(Scripts::Named(&args[at].text, after)),
        _ if name == "npm" || BUILTIN.contains(&sub) || sub.contains('/') => None,
        // `yarn post`, `pnpm post`, `bun post`: a script of that name.
        _ => Some(Scripts::Named(&args[at].text, after)),
    }
}

/// The words after a leading `--`, which ends the tool's own options.
fn past_dashes(words: &[Arg]) -> &[Arg] {
    match words.first() {
        Some(w) if w.text == "--" => &words[1..],
        _ => words,
    }
}

/// The package manager's subcommand and where it is, past its own options (`npm --prefix d
/// run x`, `yarn --cwd d x`).
fn subcommand(args: &[Arg]) -> Option<(usize, &str)> {
    const VALUED: [&str; 7] = [
        "--prefix",
        "-C",
        "--cwd",
        "-w",
        "--workspace",
        "--filter",
        "-F",
    ];
    let mut i = 1;
    while let Some(a) = args.get(i) {
        let t = a.text.as_str();
        if a.unresolved {
            return None;
        }
        if !t.starts_with('-') {
            return Some((i, t));
        }
        i += if VALUED.contains(&t) { 2 } else { 1 };
    }
    None
}

/// The scripts of package.json a command runs, as shell text: a named one with its `pre` and
/// `post` scripts, or the lifecycle scripts of an install. `None` when the file is no JSON
/// object (an edit's fragment, a file written in parts).
fn npm_scripts(text: &str, wanted: &Scripts) -> Option<String> {
    let Ok(Value::Object(m)) = serde_json::from_str::<Value>(text) else {
        return None;
    };
    let all = m.get("scripts").and_then(Value::as_object);
    let script = |n: &str| all.and_then(|s| s.get(n)).and_then(Value::as_str);
    let names: Vec<String> = match wanted {
        Scripts::Named(n, _) => vec![format!("pre{n}"), (*n).to_owned(), format!("post{n}")],
        Scripts::Install => LIFECYCLE.map(String::from).to_vec(),
    };
    // The named script last: the words after its name are appended to it.
    let (main, around): (Vec<&String>, Vec<&String>) = match wanted {
        Scripts::Named(n, _) => names.iter().partition(|x| x.as_str() == *n),
        Scripts::Install => (Vec::new(), names.iter().collect()),
    };
    let found: Vec<&str> = (around.into_iter().chain(main))
        .filter_map(|n| script(n))
        .collect();
    Some(found.join("\n"))
}

/// The justfile `just -f FILE` / `--justfile FILE` reads.
fn justfile(args: &[Arg]) -> Option<&str> {
    let mut words = args[1..].iter().map(|a| a.text.as_str());
    while let Some(w) = words.next() {
        match w {
            "-f" | "--justfile" => return words.next(),
            _ => {}
        }
        if let Some(v) = w.strip_prefix("--justfile=") {
            return Some(v);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(line: &str) -> Vec<Arg> {
        line.split(' ').map(Arg::literal).collect()
    }

    fn run(line: &str, json: &str) -> Option<String> {
        let a = argv(line);
        let name = a[0].text.clone();
        npm_scripts(json, &scripts(&name, &a)?)
    }

    #[test]
    fn the_named_script_runs_with_its_pre_and_post_scripts() {
        let json = r#"{"scripts": {"prepost": "echo a", "post": "bird tweet", "build": "tsc", "postinstall": "echo i"}}"#;
        assert_eq!(
            run("npm run post", json).as_deref(),
            Some("echo a\nbird tweet")
        );
        assert_eq!(
            run("yarn post x", json).as_deref(),
            Some("echo a\nbird tweet")
        );
        assert_eq!(
            run("pnpm --filter w run build", json).as_deref(),
            Some("tsc")
        );
        assert_eq!(run("npm ci", json).as_deref(), Some("echo i"));
        assert_eq!(run("npm test", json).as_deref(), Some(""));
        assert!(run("npm view x", json).is_none());
        assert!(run("yarn add left-pad", json).is_none());
        assert!(run("npm run post", "{\"post\": \"bird tweet\"").is_none());
    }

    #[test]
    fn words_after_the_name_reach_the_script() {
        let a = argv("npm run post -- hi there");
        match scripts("npm", &a) {
            Some(Scripts::Named("post", rest)) => assert_eq!(rest.len(), 2),
            _ => panic!("named"),
        }
    }
}
