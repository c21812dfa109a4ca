//! The command a container runs, where it reaches the host: `docker run -v ~:/h alpine rm -rf
//! /h/docs` deletes ~/docs. A container given host directories by bind mount (`-v SRC:DST`,
//! `--mount type=bind`, `--volumes-from`, a compose file's `volumes:`) acts on them under its
//! own names for them; its command (after the image, or after the container for `exec`) is
//! read as a script of its own with every path mapped back to the host's: a path under a
//! mount is the host's file, any other is the container's own and stands in a private place
//! inside the workspace (deleting it harms nothing of the host's). The guards then judge that
//! script as any other, so `rm -rf /w/node_modules` of a mounted workspace stays allowed and
//! `cat /k/id_rsa` of a mounted ~/.ssh is a credential read.
//!
//! A container without host mounts is not followed: what it does stays inside it. The host
//! handed over whole (`-v /:/host`, the Docker socket, `--privileged`) is judged where the
//! command line is (`guards::remote_code`), and compose services are turned into the `docker
//! run` lines they amount to so that check sees them too.

mod compose;
mod run;
mod yaml;

use super::{cwd, feeds, CallView, HostPaths};
use crate::guards::argv::{args, program};
use crate::paths::{self, PathContext, Resolved};
use crate::shell::{self, Arg, Command, Opaque, OpaqueKind, Script};

/// Scripts a call's containers add, at most: each container is one (bounds a script of many
/// containers, and compose files naming each other).
const MAX_SCRIPTS: usize = 64;

/// The private place a container's own files stand in, under the workspace.
const PRIVATE: &str = ".container-fs";

/// A host directory a container sees, under its name inside the container.
#[derive(Debug, Clone)]
struct Bound {
    target: String,
    host: Resolved,
    /// The source is only known when it runs (`-v "$X":/d`).
    unresolved: bool,
}

/// What a container's paths are judged against.
struct Place<'a> {
    home: Option<&'a str>,
    workspace: Option<&'a str>,
    /// Where a command without a `cd` runs: the call's working directory.
    cwd: Option<&'a str>,
    /// The container's own files (`<workspace>/.container-fs`).
    private: String,
}

fn is_container_cli(name: &str) -> bool {
    matches!(
        name,
        "docker" | "podman" | "nerdctl" | "docker-compose" | "podman-compose"
    )
}

/// Adds a script for the command of each container the view's scripts start with host
/// directories mounted, and the `docker run` lines of compose services.
pub(super) fn follow(v: &mut CallView, host: &HostPaths) {
    let any = (v.scripts.iter()).any(|s| s.commands.iter().any(|c| is_container_cli(program(c))));
    let Some(root) = v
        .workspace
        .clone()
        .or_else(|| v.cwd.clone())
        .filter(|_| any)
    else {
        return;
    };
    let (workspace, call_cwd) = (v.workspace.clone(), v.cwd.clone());
    let place = Place {
        home: host.home.as_deref(),
        workspace: workspace.as_deref(),
        cwd: call_cwd.as_deref(),
        private: format!("{}/{PRIVATE}", root.trim_end_matches('/')),
    };
    let mut named: Vec<(String, Vec<Bound>)> = Vec::new();
    let limit = v.scripts.len() + MAX_SCRIPTS;
    let mut i = 0;
    while i < v.scripts.len() && v.scripts.len() < limit {
        let found = in_script(&v.scripts[i], &place, &mut named);
        let room = limit - v.scripts.len();
        v.scripts.extend(found.into_iter().take(room));
        i += 1;
    }
}

/// The scripts the containers of one script add.
fn in_script(s: &Script, at: &Place, named: &mut Vec<(String, Vec<Bound>)>) -> Vec<Script> {
    let launches: Vec<(&Command, run::Verb)> = (s.commands.iter())
        .filter(|c| is_container_cli(program(c)))
        .filter_map(|c| Some((c, run::verb(program(c), args(c))?)))
        .collect();
    // Names first: `--volumes-from db` may come before `--name db` in a compose file.
    for (c, verb) in &launches {
        if let run::Verb::Run(from) = verb {
            let r = run::run(args(c), *from);
            if let Some(name) = r.name.clone() {
                let bounds = bounds(s, c, &r, at);
                named.push((name, bounds));
            }
        }
    }
    let mut out = Vec::new();
    for (c, verb) in launches {
        let a = args(c);
        let r = match verb {
            run::Verb::Run(from) => run::run(a, from),
            run::Verb::Exec(from) => run::exec(a, from),
            run::Verb::Compose(from) => {
                let script = composed(c, a, from, &s.written);
                if !(script.commands.is_empty() && script.opaque.is_empty()) {
                    out.push(script);
                }
                continue;
            }
        };
        out.extend(inside(s, c, &r, at, named));
    }
    out
}

/// The `docker run` lines of the services a compose call starts, as a script (judged by the
/// host-access check and followed into here in turn), or the compose file only known when it
/// runs.
fn composed(c: &Command, a: &[Arg], from: usize, written: &[shell::Written]) -> Script {
    match compose::runs(c, a, from, written) {
        Ok(commands) => Script {
            commands,
            ..Script::default()
        },
        Err(file) => Script {
            opaque: vec![Opaque {
                kind: OpaqueKind::DynamicScript,
                text: format!(
                    "{} of {file}, a compose file only known when it runs",
                    crate::guards::show(c)
                ),
            }],
            ..Script::default()
        },
    }
}

/// The host directories a launch mounts, resolved from where it runs.
fn bounds(s: &Script, c: &Command, r: &run::Run, at: &Place) -> Vec<Bound> {
    let ctx = PathContext {
        cwd: c.cwd.as_deref().or(at.cwd),
        home: at.home,
    };
    (r.mounts.iter())
        .map(|(source, target)| {
            let text = working_dir_word(s, c, source);
            let host = paths::resolve(&text, &ctx);
            Bound {
                target: container_path(target),
                unresolved: source.unresolved && text.contains('*'),
                host,
            }
        })
        .collect()
}

/// `-v "$PWD":/w`, `-v $(pwd)/src:/w`: a source computed from the working directory alone is
/// that directory (the command's only unknowns are `$PWD`, or a `pwd` whose output it takes).
fn working_dir_word(s: &Script, c: &Command, source: &Arg) -> String {
    let pwd_var = c.env_reads.iter().all(|n| n == "PWD");
    let pwd_run =
        (c.inputs.iter()).all(|&j| s.commands.get(j).is_some_and(|p| program(p) == "pwd"));
    let only_pwd = pwd_var && pwd_run && !(c.env_reads.is_empty() && c.inputs.is_empty());
    match source.text.strip_prefix('*') {
        Some(rest) if source.unresolved && only_pwd => format!(".{rest}"),
        _ => source.text.clone(),
    }
}

/// The script the container's command amounts to, with the host's paths, when it mounts host
/// directories.
fn inside(
    s: &Script,
    c: &Command,
    r: &run::Run,
    at: &Place,
    named: &[(String, Vec<Bound>)],
) -> Option<Script> {
    let mut mounted = bounds(s, c, r, at);
    let mut unknown = false;
    let lookup = |name: &str| named.iter().rev().find(|(n, _)| n == name).map(|(_, b)| b);
    for from in &r.volumes_from {
        match lookup(from) {
            Some(b) => mounted.extend(b.iter().cloned()),
            None => unknown = true,
        }
    }
    // `exec` into a container this call did not start: its mounts are not known, and an
    // ordinary `docker exec db psql` is not judged as the host's.
    if let Some(name) = &r.exec_into {
        mounted.extend(lookup(name)?.iter().cloned());
    }
    if mounted.is_empty() && !unknown || r.command.is_empty() {
        return None;
    }
    // Longest target first: a mount inside another wins.
    mounted.sort_by_key(|b| std::cmp::Reverse(b.target.len()));
    let mut script = shell::analyze_words(&r.command, c.depth + 1);
    feeds::complete(&mut script, &[]);
    let map = Mapping {
        mounted: &mounted,
        unknown,
        private: &at.private,
    };
    for ic in &mut script.commands {
        map.command(ic, &r.passed_env);
    }
    let workdir = map.word(&Arg::literal(r.workdir.as_deref().unwrap_or("/")));
    cwd::track(&mut script, Some(&workdir.text), at.home, at.workspace);
    for ic in &mut script.commands {
        ic.cwd.get_or_insert_with(|| workdir.text.clone());
    }
    Some(script)
}

/// From the container's names to the host's.
struct Mapping<'a> {
    mounted: &'a [Bound],
    /// `--volumes-from` a container not known here: any path may be one of the host's.
    unknown: bool,
    private: &'a str,
}

impl Mapping<'_> {
    fn command(&self, c: &mut Command, passed_env: &[String]) {
        for a in &mut c.argv {
            *a = self.word(a);
        }
        for r in &mut c.redirects {
            r.target = self.word(&r.target);
        }
        if let Some(dir) = c.cwd.take() {
            c.cwd = Some(self.word(&Arg::literal(&dir)).text);
        }
        c.wrappers.insert(0, "container".to_string());
        // The container's environment is its own, but for what `-e NAME` handed in.
        c.env_reads.retain(|n| passed_env.contains(n));
    }

    /// A word naming a container path (`/h/x`, `of=/h/x`, `--out=/h/x`), as the host's.
    fn word(&self, a: &Arg) -> Arg {
        let t = a.text.as_str();
        let (prefix, path) = match t.split_once('=') {
            _ if t.starts_with('/') => ("", t),
            Some((k, v)) if v.starts_with('/') && !k.contains('/') => (&t[..k.len() + 1], v),
            _ => return a.clone(),
        };
        let inside = container_path(path);
        let (host, pattern, unresolved) = self.host(&inside);
        Arg {
            text: format!("{prefix}{host}"),
            pattern: a.pattern || pattern,
            unresolved: a.unresolved || unresolved,
        }
    }

    /// A normalised container path as the host's path (in the resolver's escaped form), and
    /// whether it is a pattern and only known when it runs.
    fn host(&self, inside: &str) -> (String, bool, bool) {
        let under = |b: &&Bound| {
            inside == b.target
                || b.target == "/"
                || inside.starts_with(&b.target) && inside.as_bytes()[b.target.len()] == b'/'
        };
        if let Some(b) = self.mounted.iter().find(under) {
            let rest = match b.target.as_str() {
                "/" => inside,
                t => &inside[t.len()..],
            };
            let base = match b.host.pattern {
                true => b.host.path.clone(),
                false => paths::glob_escape(&b.host.path),
            };
            let joined = format!("{}{rest}", base.trim_end_matches('/'));
            let joined = if joined.is_empty() {
                "/".into()
            } else {
                joined
            };
            return (joined, b.host.pattern, b.unresolved);
        }
        if self.unknown {
            return (inside.to_string(), false, true);
        }
        // Devices are the container's view of the host's (a socket in `/dev/tcp` too).
        if inside.starts_with("/dev/") {
            return (inside.to_string(), false, false);
        }
        (format!("{}{inside}", self.private), false, false)
    }
}

/// A container path, lexically normalised (`/h/../etc` is `/etc`, inside the container).
fn container_path(p: &str) -> String {
    let mut kept: Vec<&str> = Vec::new();
    for seg in p.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                kept.pop();
            }
            s => kept.push(s),
        }
    }
    format!("/{}", kept.join("/"))
}
