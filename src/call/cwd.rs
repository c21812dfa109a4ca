//! `cd` moves where later commands of the same script resolve relative paths:
//! `cd / && rm -rf srv/app` deletes /srv/app, not <workspace>/srv/app. The shell model keeps no
//! scopes, so a `cd` inside a subshell is taken to last (a guard then resolves against the
//! moved directory, which only matters when the script tries to confuse it).

use crate::guards::argv::{args, operands, program};
use crate::paths::{self, PathContext};
use crate::shell::Script;

/// Where a `cd` to a computed directory leaves later commands: unknown, so judged as being
/// anywhere — the root, from which no relative path is inside a workspace.
const UNKNOWN: &str = "/";

pub fn track(script: &mut Script, start: Option<&str>, home: Option<&str>) {
    let mut cwd: Option<String> = None;
    let mut stack: Vec<Option<String>> = Vec::new();
    let mut oldpwd: Option<String> = None;
    for c in &mut script.commands {
        c.cwd = match c.cwd.take() {
            // `env -C DIR cmd`: DIR from where the script is.
            Some(dir) => {
                let here = cwd.as_deref().or(start);
                Some(paths::resolve(&dir, &PathContext { cwd: here, home }).path)
            }
            None => cwd.clone(),
        };
        let prog = program(c);
        if !matches!(prog, "cd" | "pushd" | "popd" | "chdir") {
            continue;
        }
        if prog == "popd" {
            cwd = stack.pop().unwrap_or(None);
            continue;
        }
        let target = operands(args(c), &[])
            .first()
            .map(|a| (a.text.clone(), a.unresolved));
        let here = cwd.as_deref().or(start);
        let next = match target {
            None => home.map(str::to_string),
            Some((_, true)) => Some(UNKNOWN.to_string()),
            // `cd -` returns to where the previous cd left.
            Some((t, false)) if t == "-" => Some(
                oldpwd
                    .clone()
                    .unwrap_or_else(|| start.unwrap_or(UNKNOWN).to_string()),
            ),
            Some((t, false)) => Some(paths::resolve(&t, &PathContext { cwd: here, home }).path),
        };
        if prog == "pushd" {
            stack.push(cwd.clone());
        }
        oldpwd = Some(
            cwd.clone()
                .or_else(|| start.map(str::to_string))
                .unwrap_or_default(),
        );
        cwd = next;
    }
}
