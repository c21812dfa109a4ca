//! `cd` moves where later commands of the same script resolve relative paths:
//! `cd / && rm -rf srv/app` deletes /srv/app, not <workspace>/srv/app. A `cd` may also not
//! move them: it can fail (`cd /no/such; rm -rf docs` deletes where the shell already was), or
//! sit in a subshell or a pipeline stage (`(cd /srv/app); rm -rf docs`). The shell model keeps
//! neither exit statuses nor scopes, so after a `cd` a command is judged from every place it may
//! run: where the `cd` leads and where the shell was before it. A command with more than one
//! such place is repeated, once per place, right after itself.

use crate::guards::argv::{args, has_flag, operands, program};
use crate::paths::{self, PathContext};
use crate::shell::{Command, Script};

/// Where a `cd` to a computed directory leaves later commands: unknown, so judged as being
/// anywhere — the root, from which no relative path is inside a workspace.
const UNKNOWN: &str = "/";

/// Places a command is judged from, at most (a bound on the copies a script of many `cd`s
/// makes); past it the oldest give way to `UNKNOWN`, which stands for anywhere.
const MAX_PLACES: usize = 8;

/// The directories a script may be in: `None` is the call's working directory.
type Places = Vec<Option<String>>;

/// What a `cd`'s directory is resolved against.
struct Where<'a> {
    start: Option<&'a str>,
    home: Option<&'a str>,
    workspace: Option<&'a str>,
}

pub fn track(
    script: &mut Script,
    start: Option<&str>,
    home: Option<&str>,
    workspace: Option<&str>,
) {
    // A script with no `cd` and no wrapper's directory runs where the call does: every
    // command keeps `cwd: None`, and nothing is looked at.
    let moves = |c: &Command| c.cwd.is_some() || changes_dir(program(c));
    if !script.commands.iter().any(moves) {
        return;
    }
    let at = Where {
        start,
        home,
        workspace,
    };
    let mut places: Places = vec![None];
    let mut stack: Vec<Places> = Vec::new();
    let mut oldpwd: Places = vec![None];
    let mut copies: Vec<(usize, Places)> = Vec::new();
    for i in 0..script.commands.len() {
        place_command(&mut script.commands[i], i, &places, &at, &mut copies);
        let c = &script.commands[i];
        let prog = program(c);
        if !changes_dir(prog) {
            continue;
        }
        let before = places.clone();
        match prog {
            "pushd" => {
                stack.push(places.clone());
                // `pushd -n DIR` only adds DIR to the stack; the directory does not change.
                if !has_flag(args(c), &['n'], &[]) {
                    places = moved(&places, cd_targets(script, c, &places, &oldpwd, &at));
                }
            }
            "popd" if has_flag(args(c), &['n'], &[]) => continue,
            "popd" => {
                let back = stack.pop().unwrap_or_else(|| vec![None]);
                places = moved(&places, back);
            }
            _ => places = moved(&places, cd_targets(script, c, &places, &oldpwd, &at)),
        }
        oldpwd = before;
    }
    repeat(script, copies);
}

/// The programs that change the shell's directory.
fn changes_dir(prog: &str) -> bool {
    matches!(prog, "cd" | "chdir" | "pushd" | "popd")
}

/// Sets where command `i` runs: the script's first place, or the directory its wrapper moved
/// it to (`env -C DIR`, recorded by the shell model as written) taken from there; the other
/// places are noted for copies.
fn place_command(
    c: &mut Command,
    i: usize,
    places: &Places,
    at: &Where,
    copies: &mut Vec<(usize, Places)>,
) {
    let here = match c.cwd.take() {
        None => {
            c.cwd = places.first().cloned().flatten();
            if places.len() > 1 {
                copies.push((i, places[1..].to_vec()));
            }
            return;
        }
        Some(dir) => {
            let mut out = Places::new();
            for p in places {
                add(&mut out, Some(resolve(&dir, p, at)));
            }
            out
        }
    };
    c.cwd = here.first().cloned().flatten();
    if here.len() > 1 {
        copies.push((i, here[1..].to_vec()));
    }
}

/// The places after a move to `targets`: those, and (the move may not happen) the old ones.
fn moved(old: &Places, targets: Places) -> Places {
    let mut out = Places::new();
    for t in targets.into_iter().chain(old.iter().cloned()) {
        add(&mut out, t);
    }
    out
}

fn add(places: &mut Places, p: Option<String>) {
    if !places.contains(&p) {
        places.push(p);
    }
    if places.len() > MAX_PLACES {
        places.truncate(MAX_PLACES - 1);
        let anywhere = Some(UNKNOWN.to_string());
        if !places.contains(&anywhere) {
            places.push(anywhere);
        }
    }
}

fn resolve(dir: &str, from: &Option<String>, at: &Where) -> String {
    let ctx = PathContext {
        cwd: from.as_deref().or(at.start),
        home: at.home,
    };
    paths::resolve(dir, &ctx).path
}

/// Where a `cd` (or `pushd`) leads from each current place.
fn cd_targets(
    script: &Script,
    c: &Command,
    places: &Places,
    oldpwd: &Places,
    at: &Where,
) -> Places {
    let Some(target) = operands(args(c), &[]).first().copied() else {
        return vec![at.home.map(str::to_string)];
    };
    if target.unresolved {
        let toplevel = from_toplevel(script, c);
        let mut out = Places::new();
        for p in places {
            let here = p.as_deref().or(at.start);
            add(&mut out, Some(computed(toplevel, here, &target.text, at)));
        }
        return out;
    }
    // `cd -` returns to where the previous cd left from.
    if target.text == "-" {
        return oldpwd.clone();
    }
    let mut out = Places::new();
    for p in places {
        add(&mut out, Some(resolve(&target.text, p, at)));
    }
    out
}

/// Whether a `cd`'s computed word comes from `git rev-parse --show-toplevel` alone.
fn from_toplevel(script: &Script, c: &Command) -> bool {
    !c.inputs.is_empty()
        && c.inputs.iter().all(|&j| {
            script.commands.get(j).is_some_and(|g| {
                let a = args(g);
                program(g) == "git"
                    && a.len() == 2
                    && a[0].text == "rev-parse"
                    && a[1].text == "--show-toplevel"
            })
        })
}

/// A computed directory: unknown, except the repository's top level (`cd "$(git rev-parse
/// --show-toplevel)"`), which is the workspace when the shell is inside it (the workspace is
/// the repository an agent works in).
fn computed(toplevel: bool, here: Option<&str>, text: &str, at: &Where) -> String {
    let rest = text
        .strip_prefix('*')
        .filter(|r| r.is_empty() || r.starts_with('/') && !r.contains(".."));
    let (Some(ws), Some(rest), true) = (at.workspace, rest, toplevel) else {
        return UNKNOWN.to_string();
    };
    let ws = ws.trim_end_matches('/');
    let inside = here.is_some_and(|h| h == ws || h.starts_with(&format!("{ws}/")));
    if inside {
        format!("{ws}{rest}")
    } else {
        UNKNOWN.to_string()
    }
}

/// Repeats each command that may run from several places right after itself, once per other
/// place; inputs are renumbered so pipelines still say who feeds whom.
fn repeat(script: &mut Script, copies: Vec<(usize, Places)>) {
    if copies.is_empty() {
        return;
    }
    let old = std::mem::take(&mut script.commands);
    let mut index = Vec::with_capacity(old.len());
    let mut out = Vec::with_capacity(old.len() + copies.len());
    let mut copies = copies.into_iter().peekable();
    for (i, c) in old.into_iter().enumerate() {
        index.push(out.len());
        let others = match copies.peek() {
            Some((j, _)) if *j == i => copies.next().map(|(_, p)| p).unwrap_or_default(),
            _ => Places::new(),
        };
        let mut extra = Vec::with_capacity(others.len());
        for place in others {
            let mut copy = c.clone();
            copy.cwd = place;
            extra.push(copy);
        }
        out.push(c);
        out.extend(extra);
    }
    for c in &mut out {
        for i in &mut c.inputs {
            *i = index.get(*i).copied().unwrap_or(*i);
        }
    }
    script.commands = out;
}
