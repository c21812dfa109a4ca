//! git, read as git reads its argv (git(1)): the options before the subcommand, the
//! repository and work tree it acts on (`-C`, `--git-dir`, `--work-tree`, `GIT_DIR`,
//! `GIT_WORK_TREE`), what its config runs (`config`), the subcommands that destroy work or
//! history outside the agent's workspace (the destructive guard), and the ones that put an
//! ignored credential file where git prints it (the credential guard).

pub mod config;

pub use config::{hook_file, ENV_VARS};

use super::argv::{args, has_flag, operands};
use super::{show, Subject};
use crate::paths::{PathContext, PathSet, Resolved};
use crate::shell::{Arg, Command};

/// git's options before the subcommand (`-C dir`, `-c k=v`, `--git-dir=d`, `--no-pager`),
/// and the index of the subcommand in the argv after `git`.
pub struct Invocation<'a> {
    pub globals: Vec<Global<'a>>,
    pub sub: Option<usize>,
}

/// One of git's own options: its name, its value, and whether the value is only known when
/// it runs.
pub struct Global<'a> {
    pub name: &'a str,
    pub value: Option<&'a str>,
    pub unresolved: bool,
}

/// git(1)'s options that take the next word as their value.
const VALUED: [&str; 8] = [
    "-C",
    "-c",
    "--git-dir",
    "--work-tree",
    "--namespace",
    "--config-env",
    "--super-prefix",
    "--attr-source",
];

pub fn invocation(a: &[Arg]) -> Invocation<'_> {
    let mut globals = Vec::new();
    let mut i = 0;
    while let Some(x) = a.get(i) {
        let t = x.text.as_str();
        if !t.starts_with('-') || t == "-" {
            return Invocation {
                globals,
                sub: Some(i),
            };
        }
        if VALUED.contains(&t) {
            let value = a.get(i + 1);
            globals.push(Global {
                name: t,
                value: value.map(|v| v.text.as_str()),
                unresolved: value.is_some_and(|v| v.unresolved),
            });
            i += 2;
            continue;
        }
        let (name, value) = match t.split_once('=') {
            Some((name, value)) if name.starts_with("--") => (name, Some(value)),
            _ => (t, None),
        };
        globals.push(Global {
            name,
            value,
            unresolved: x.unresolved,
        });
        i += 1;
    }
    Invocation { globals, sub: None }
}

/// The index of the subcommand, as `invocation` finds it, without keeping the options: most
/// git commands are judged by it alone.
pub fn sub_index(a: &[Arg]) -> Option<usize> {
    let mut i = 0;
    while let Some(x) = a.get(i) {
        let t = x.text.as_str();
        if !t.starts_with('-') || t == "-" {
            return Some(i);
        }
        i += if VALUED.contains(&t) { 2 } else { 1 };
    }
    None
}

/// The subcommand and the words after it.
fn subcommand(a: &[Arg]) -> Option<(&str, &[Arg])> {
    let i = sub_index(a)?;
    Some((a[i].text.as_str(), &a[i + 1..]))
}

/// The value of a variable the shell model kept on the command (`GIT_DIR=…`).
fn env<'c>(c: &'c Command, name: &str) -> Option<&'c str> {
    (c.wrappers.iter().rev()).find_map(|w| w.strip_prefix(name).and_then(|r| r.strip_prefix('=')))
}

/// Where git acts: the work tree whose files it changes and the repository whose refs,
/// stashes and objects it keeps. `None` for a place only known when it runs.
struct Places {
    work_tree: Option<String>,
    repository: Option<String>,
}

/// Each `-C DIR` is taken from where the previous one left (`-C / -C home/x` is `/home/x`);
/// `--git-dir`/`GIT_DIR` and `--work-tree`/`GIT_WORK_TREE` from there (the option wins over
/// the variable). With a repository named and no work tree, git takes the current directory
/// as the work tree's top (git(1), `GIT_DIR`).
fn places(s: &Subject, c: &Command) -> Places {
    let a = args(c);
    let inv = invocation(a);
    let start = (c.cwd.clone())
        .or_else(|| s.view.cwd.clone())
        .unwrap_or_default();
    let home = s.env.host.home.as_deref();
    let at = |dir: &str, p: &str| {
        let ctx = PathContext {
            cwd: Some(dir),
            home,
        };
        crate::paths::resolve(p, &ctx).path
    };
    // A value only known when it runs: an unresolved word, or `?` from the shell model.
    const UNKNOWN: Option<&str> = Some("?");
    let mut here = Some(start);
    let (mut git_dir, mut work_tree) = (None, None);
    for g in &inv.globals {
        let value = if g.unresolved { UNKNOWN } else { g.value };
        match (g.name, value) {
            ("-C", Some("?")) => here = None,
            ("-C", Some(d)) => here = here.map(|h| at(&h, d)),
            ("--git-dir", v @ Some(_)) => git_dir = v,
            ("--work-tree", v @ Some(_)) => work_tree = v,
            _ => {}
        }
    }
    let git_dir = git_dir.or_else(|| env(c, "GIT_DIR"));
    let work_tree = work_tree.or_else(|| env(c, "GIT_WORK_TREE"));
    let resolve = |d: Option<&str>| match (d, &here) {
        (Some("?"), _) | (Some(_), None) => None,
        (Some(d), Some(h)) => Some(at(h, d)),
        (None, h) => h.clone(),
    };
    Places {
        work_tree: resolve(work_tree),
        repository: resolve(git_dir.or(work_tree)),
    }
}

/// `git remote -v`, `git config --list`, `git var -l`, `git ls-remote --get-url`: print the
/// repository's config, which holds a token when the clone was made with one in its address or
/// actions/checkout persisted its header (`paths::keyed`).
pub fn prints_config_secret(s: &Subject, c: &Command) -> Option<String> {
    let (sub, rest) = subcommand(args(c))?;
    if !prints_config(sub, rest) {
        return None;
    }
    let p = places(s, c);
    let why = match (&p.repository, &p.work_tree) {
        (Some(repo), Some(top)) if repo != top => crate::paths::keyed::git_config(repo, true),
        (Some(dir), _) => crate::paths::keyed::git_config(dir, false),
        (None, _) => None,
    }?;
    Some(format!(
        "`{}` prints the repository's config: {why}",
        show(c)
    ))
}

/// Whether the subcommand prints remote URLs or headers from the config. A read of one plain
/// key (`git config --get user.name`) prints that key only.
fn prints_config(sub: &str, rest: &[Arg]) -> bool {
    let ops = operands(rest, &["-f", "--file", "--type", "--default"]);
    let first = ops.first().map(|o| o.text.as_str());
    let said = |words: &[&str]| rest.iter().any(|x| words.contains(&x.text.as_str()));
    match sub {
        "remote" => {
            has_flag(rest, &['v'], &["verbose"]) || matches!(first, Some("get-url" | "show"))
        }
        "ls-remote" => said(&["--get-url"]),
        // `git var -l` lists the config too, before git's own variables.
        "var" => said(&["-l"]),
        "config" => {
            let lists = has_flag(rest, &['l'], &["list"])
                || said(&["--get-regexp"])
                || first == Some("list");
            let gets = said(&["--get", "--get-all", "--get-urlmatch"]) || first == Some("get");
            let key = if first == Some("get") {
                ops.get(1)
            } else {
                ops.first()
            };
            let secret_key = key.is_none_or(|k| {
                let k = k.text.to_ascii_lowercase();
                ["url", "header", "remote", "*"]
                    .iter()
                    .any(|w| k.contains(w))
            });
            lists || gets && secret_key
        }
        _ => false,
    }
}

/// Subcommands that delete files or uncommitted work in the work tree (`reset --hard`, `rm`,
/// `checkout -f` or of paths, `restore`, `clean -f`, `switch -f`, `checkout-index -f`,
/// `read-tree -u --reset`, `submodule deinit -f`, `worktree remove -f`), or refs, stashes and
/// history in the repository (`stash drop|clear`, `branch -D`, `reflog expire|delete`, `gc
/// --prune=now`, `prune`, `update-ref -d`): allowed inside the agent's workspace, as
/// `rm -rf` is, and denied anywhere else.
pub fn destroys(s: &Subject, c: &Command) -> Option<String> {
    let a = args(c);
    let (sub, rest) = subcommand(a)?;
    let what = work_lost(a, sub, rest)
        .map(|w| (w, true))
        .or_else(|| history_lost(sub, rest).map(|w| (w, false)))?;
    let p = places(s, c);
    let place = if what.1 { p.work_tree } else { p.repository };
    let inside = place.as_deref().is_some_and(|dir| {
        s.inside_workspace(&Resolved {
            path: format!("{}/x", dir.trim_end_matches('/')),
            pattern: false,
        })
    });
    if inside {
        return None;
    }
    match place {
        Some(dir) => Some(format!(
            "`{}` {} in {dir}, outside the workspace",
            show(c),
            what.0
        )),
        None => Some(format!(
            "`{}` {} in a repository only known when it runs",
            show(c),
            what.0
        )),
    }
}

/// What a work-tree subcommand destroys, if it does.
fn work_lost(a: &[Arg], sub: &str, rest: &[Arg]) -> Option<&'static str> {
    let flag = |short: &[char], long: &[&str]| has_flag(rest, short, long);
    let lost = match sub {
        "clean" => {
            // `-c clean.requireForce=false` makes a plain `git clean` delete.
            let unforced = (a.iter())
                .any(|x| (x.text.to_ascii_lowercase()).contains("clean.requireforce=false"));
            unforced || flag(&['f'], &["force"])
        }
        "reset" => flag(&[], &["hard", "merge", "keep"]),
        "rm" => !flag(&['n'], &["cached", "dry-run"]),
        "checkout" => {
            flag(&['f'], &["force"]) || rest.iter().any(|x| x.text == "--" || x.text == ".")
        }
        "restore" => !flag(&['S'], &["staged"]) || flag(&['W'], &["worktree"]),
        "switch" => flag(&['f'], &["force", "discard-changes"]),
        "checkout-index" => flag(&['f'], &["force"]),
        "read-tree" => flag(&['u'], &[]) && flag(&[], &["reset"]),
        "submodule" => says(rest, "deinit") && flag(&['f'], &["force"]),
        "worktree" => says(rest, "remove") && flag(&['f'], &["force"]),
        "stash" => says(rest, "drop") || says(rest, "clear"),
        _ => false,
    };
    lost.then_some(match sub {
        "clean" => "removes untracked files",
        "stash" => "drops stashed work",
        _ => "discards files or uncommitted work",
    })
}

/// What a subcommand destroys of the repository's refs and history, if it does.
fn history_lost(sub: &str, rest: &[Arg]) -> Option<&'static str> {
    let flag = |short: &[char], long: &[&str]| has_flag(rest, short, long);
    let valued = |name: &'static str| {
        (rest.iter()).filter_map(move |x| x.text.strip_prefix(name)?.strip_prefix('='))
    };
    // A time from which everything unreachable is older: `now`, `all`, a few seconds ago.
    let now = |v: &str| matches!(v, "now" | "all") || v.ends_with("seconds.ago");
    let lost = match sub {
        // `-D` is `--delete --force`; `-M`/`-C` rename or copy over an existing branch.
        "branch" => {
            let force = flag(&['f'], &["force"]);
            rest.iter().any(|x| short_cluster(x, &['D', 'M', 'C']))
                || force && flag(&['d', 'm', 'c'], &["delete", "move", "copy"])
        }
        "reflog" => {
            says(rest, "delete")
                || says(rest, "expire")
                    && (valued("--expire").chain(valued("--expire-unreachable"))).any(now)
        }
        "gc" => valued("--prune").any(now),
        "prune" => !flag(&['n'], &["dry-run"]),
        "update-ref" | "symbolic-ref" => flag(&['d'], &["delete"]),
        _ => false,
    };
    lost.then_some("deletes branches, stashes or history")
}

/// A word that is a cluster of short flags holding one of `letters` (`-D`, `-fD`).
fn short_cluster(x: &Arg, letters: &[char]) -> bool {
    let t = x.text.as_str();
    t.len() > 1
        && t.starts_with('-')
        && !t.starts_with("--")
        && t[1..].chars().any(|ch| letters.contains(&ch))
}

fn says(rest: &[Arg], word: &str) -> bool {
    operands(rest, &[]).first().is_some_and(|x| x.text == word)
}

/// `git add -f`/`--force` stages files `.gitignore` keeps out (the `.env` of every template
/// ignore file), and `git stash -a`/`--all` stores them in the stash's third parent: from
/// there `git diff --cached`, `show`, `log -p` and `format-patch` print them. Judged as opening
/// the credential files they could take in: a pathspec that is the workspace, a folder above
/// it or the whole tree (`.`, `-A`, `:/`, a glob there) may, a folder below it when it holds
/// one. `git stash -u` takes untracked files that are *not* ignored, the ones `git status`
/// already shows and `git add -A` stages: a credential file there is not hidden from git, and
/// stashing it exposes nothing `add` would not (so it stays allowed, as `add -A` does).
pub fn exposes(s: &Subject, protected: &PathSet, c: &Command) -> Option<String> {
    let a = args(c);
    let (sub, rest) = subcommand(a)?;
    let ignored_too = match sub {
        "add" => has_flag(rest, &['f'], &["force"]),
        "stash" => {
            let verb = operands(rest, &["-m", "--message"])
                .first()
                .map(|x| x.text.as_str());
            matches!(verb, None | Some("push" | "save")) && has_flag(rest, &['a'], &["all"])
        }
        _ => false,
    };
    if !ignored_too {
        return None;
    }
    let specs = pathspecs(sub, rest);
    let whole = match sub {
        "add" => has_flag(rest, &['A'], &["all"]) && specs.is_empty(),
        // `stash save [MESSAGE]` takes no pathspec: its operand is the message.
        _ => specs.is_empty() || says(rest, "save"),
    };
    let dir = places(s, c).work_tree;
    let Some(dir) = dir else {
        return Some(format!(
            "`{}` stages ignored files of a work tree only known when it runs",
            show(c)
        ));
    };
    let covered = whole.then(|| dir.clone()).or_else(|| {
        specs.iter().find_map(|spec| {
            let p = covering(s, &dir, spec);
            let root = p.pattern || above_workspace(s, &p) || p.path == dir;
            let label = protected.contains_protected(&p);
            (root || label.is_some()).then_some(p.path)
        })
    })?;
    Some(format!(
        "`{}` stages ignored files under {covered}, where credential files such as .env are kept, for git to print",
        show(c)
    ))
}

/// The pathspecs of `add`/`stash push` (after their options and `--`).
fn pathspecs<'a>(sub: &str, rest: &'a [Arg]) -> Vec<&'a Arg> {
    let valued: &[&str] = match sub {
        "add" => &["--chmod", "--pathspec-from-file"],
        _ => &["-m", "--message", "--pathspec-from-file"],
    };
    let ops = operands(rest, valued);
    match sub {
        // `stash push|save [opts] [--] [pathspec…]`.
        "stash" => ops
            .into_iter()
            .skip_while(|x| matches!(x.text.as_str(), "push" | "save"))
            .collect(),
        _ => ops,
    }
}

/// The folder a pathspec covers: `:/` the top of the tree, a glob (git matches it itself,
/// across `/` and dot files) its folder up to the first wildcard, a path itself.
fn covering(s: &Subject, dir: &str, spec: &Arg) -> Resolved {
    let t = spec.text.as_str();
    let t = t
        .strip_prefix(":(top)")
        .or_else(|| t.strip_prefix(":/"))
        .map_or(t, |rest| if rest.is_empty() { "." } else { rest });
    if spec.unresolved {
        return Resolved {
            path: dir.to_string(),
            pattern: true,
        };
    }
    let wild = t.find(['*', '?', '[']);
    let t = match wild {
        Some(k) => t[..k].rsplit_once('/').map_or(".", |(d, _)| d),
        None => t,
    };
    let ctx = PathContext {
        cwd: Some(dir),
        home: s.env.host.home.as_deref(),
    };
    let p = crate::paths::resolve(if t.is_empty() { "/" } else { t }, &ctx);
    Resolved {
        path: p.path,
        pattern: false,
    }
}

/// The workspace itself or a folder holding it: the top of the project, where `.env` lives.
fn above_workspace(s: &Subject, p: &Resolved) -> bool {
    let Some(ws) = s.view.workspace.as_deref().or(s.view.cwd.as_deref()) else {
        return false;
    };
    let ws = ws.trim_end_matches('/');
    let dir = p.path.trim_end_matches('/');
    ws == dir
        || dir.is_empty()
        || ws.starts_with(dir) && ws.as_bytes().get(dir.len()) == Some(&b'/')
}
