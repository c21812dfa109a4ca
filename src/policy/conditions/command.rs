//! `command`: matches the parsed form of the shell commands a call runs (any of them), so an
//! operator writes `{"type":"command","program":"rm","flags":["-r","-f"]}` and it holds for
//! `rm -rf`, `rm -r -f`, `rm --recursive --force`, `r''m -fr`, `sudo rm -Rf` and `bash -c 'rm …'`.

use super::tool::ParamMatcher;
use super::ParseEnv;
use crate::config::error::Issues;
use crate::config::reader::{string_list, Obj};
use crate::context::Facts;
use crate::guards::argv::{args, has_flag, program};
use crate::policy::glob::Glob;
use crate::shell::Command;
use serde_json::Value;

#[derive(Debug, Clone)]
pub struct CommandCondition {
    /// The program after wrappers, by name (glob); any when empty.
    programs: Vec<Glob>,
    /// Every one must be given, combined or split, short or long where the program has both.
    flags: Vec<String>,
    /// Some argument after the program matches.
    arg: Option<ParamMatcher>,
    /// Some path the command names, resolved (`~`, `..`, the call's working directory).
    path: Option<ParamMatcher>,
}

impl CommandCondition {
    pub fn parse(o: &Obj, env: &ParseEnv, issues: &mut Issues) -> Option<CommandCondition> {
        o.check_keys(&["type", "program", "flags", "args", "path"], issues);
        let programs = string_list(o.get("program"), &o.path_of("program"), issues)
            .iter()
            .map(|p| Glob::new(p))
            .collect();
        let flags = string_list(o.get("flags"), &o.path_of("flags"), issues);
        for (i, f) in flags.iter().enumerate() {
            if !f.starts_with('-') || f == "-" || f == "--" {
                issues.push(
                    &format!("{}[{i}]", o.path_of("flags")),
                    "a flag starts with - or -- (\"-r\", \"--force\")",
                );
            }
        }
        let matcher = |key: &str, issues: &mut Issues| {
            let v = o.get(key)?;
            ParamMatcher::parse(v, &o.path_of(key), env, issues)
        };
        let arg = matcher("args", issues);
        let path = matcher("path", issues);
        Some(CommandCondition {
            programs,
            flags,
            arg,
            path,
        })
    }

    pub fn eval(&self, f: &Facts) -> bool {
        let view = f.call.view();
        view.scripts.iter().flat_map(|s| &s.commands).any(|c| {
            let ctx = crate::paths::PathContext {
                cwd: c.cwd.as_deref().or(view.cwd.as_deref()),
                home: f.call.home(),
            };
            self.holds(c, &ctx)
        })
    }

    fn holds(&self, c: &Command, ctx: &crate::paths::PathContext) -> bool {
        let prog = program(c);
        if !self.programs.is_empty() && !self.programs.iter().any(|g| g.matches(prog)) {
            return false;
        }
        if !self.flags.iter().all(|flag| given(prog, args(c), flag)) {
            return false;
        }
        if let Some(m) = &self.arg {
            if !args(c)
                .iter()
                .any(|a| m.matches(&Value::String(a.text.clone())))
            {
                return false;
            }
        }
        match &self.path {
            None => true,
            Some(m) => args(c)
                .iter()
                .filter(|a| !a.text.starts_with('-'))
                .chain(c.redirects.iter().map(|r| &r.target))
                .any(|a| m.matches(&Value::String(crate::paths::resolve(&a.text, ctx).path))),
        }
    }
}

/// A flag or one of its spellings for this program.
fn given(prog: &str, a: &[crate::shell::Arg], flag: &str) -> bool {
    equivalents(prog, flag)
        .iter()
        .any(|f| match f.strip_prefix("--") {
            Some(long) => has_flag(a, &[], &[long]),
            None => f
                .strip_prefix('-')
                .and_then(|s| s.chars().next())
                .is_some_and(|ch| has_flag(a, &[ch], &[])),
        })
}

/// Spellings coreutils and git share for the flags operators most often name.
fn equivalents<'a>(prog: &str, flag: &'a str) -> Vec<&'a str> {
    const SHARED: [&[&str]; 4] = [
        &["-r", "-R", "--recursive"],
        &["-f", "--force"],
        &["-v", "--verbose"],
        &["-i", "--interactive"],
    ];
    let coreutils = matches!(
        prog,
        "rm" | "cp" | "mv" | "chmod" | "chown" | "chgrp" | "ln" | "rmdir" | "grep" | "git"
    );
    match SHARED.iter().find(|set| set.contains(&flag)) {
        Some(set) if coreutils => set.to_vec(),
        _ => vec![flag],
    }
}
