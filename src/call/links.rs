//! The symbolic links a call's commands make (`ln -s T L`, `cp -s T L`) and the names they
//! remove (`rm L`, `unlink L`), read from the commands once `call::cwd` has placed each one,
//! so a link's name and a relative target resolve where the command runs. They join the
//! links earlier calls made (`crate::links`) for the guards (`paths::follow`).

use super::CallView;
use crate::guards::argv::{args, has_flag, operands, program};
use crate::links::LinkChange;
use crate::paths::{self, Link, PathContext};
use crate::shell::{Arg, Command};

/// `ln`'s options that take the next word as their value.
const LN_VALUED: [&str; 4] = ["-t", "--target-directory", "-S", "--suffix"];

/// What the call's commands do to links, in the order they run; `earlier`: the links the
/// session's earlier calls made, which a command here may rename.
pub fn changes(v: &CallView, home: Option<&str>, earlier: &[Link]) -> Vec<LinkChange> {
    let commands = v.scripts.iter().flat_map(|s| s.commands.iter());
    let mut out = Vec::new();
    for c in commands {
        let ctx = PathContext {
            cwd: c.cwd.as_deref().or(v.cwd.as_deref()),
            home,
        };
        match program(c) {
            "ln" if has_flag(args(c), &['s'], &["symbolic"]) => {
                out.extend(made_by_ln(c, &ctx).into_iter().map(LinkChange::Made));
            }
            "cp" if copies_as_link(c) => out.extend(made_by_cp(c, &ctx).map(LinkChange::Made)),
            "rm" | "unlink" => out.extend(removed(c, &ctx).map(LinkChange::Removed)),
            "mv" => {
                let known: Vec<&Link> = earlier.iter().chain(made(&out)).collect();
                let moved = renamed(c, &ctx, &known);
                out.extend(moved);
            }
            _ => {}
        }
    }
    out
}

/// `ln -s TARGET LINK`, `ln -s TARGET` (a link of the same name here), `ln -s T… DIR/`, `ln
/// -s -t DIR T…`. Without `-T` an existing directory at LINK would take the link inside it;
/// that is not known here, and taking LINK as the link judges the worse case.
fn made_by_ln(c: &Command, ctx: &PathContext) -> Vec<Link> {
    let a = args(c);
    let relative = has_flag(a, &['r'], &["relative"]);
    let ops = operands(a, &LN_VALUED);
    let into = target_directory(a);
    // The word that names where the links go: a computed one leaves them nowhere known.
    let (pairs, named_by): (Vec<(&Arg, String)>, Option<&Arg>) = match (into, ops.as_slice()) {
        (Some(dir), targets) => (in_dir(&dir, targets), None),
        (None, [target]) => (
            vec![(*target, paths::basename(&target.text).to_string())],
            Some(*target),
        ),
        (None, [target, name]) if !name.text.ends_with('/') => {
            (vec![(*target, name.text.clone())], Some(*name))
        }
        (None, [targets @ .., dir]) => (in_dir(&dir.text, targets), Some(*dir)),
        (None, []) => (Vec::new(), None),
    };
    if named_by.is_some_and(|n| n.unresolved) {
        return Vec::new();
    }
    (pairs.into_iter())
        .filter_map(|(target, name)| link(target, &name, ctx, relative))
        .collect()
}

/// `-t DIR`, `--target-directory=DIR`, `-tDIR`.
fn target_directory(a: &[Arg]) -> Option<String> {
    let mut words = a.iter().map(|x| x.text.as_str());
    while let Some(w) = words.next() {
        if w == "--" {
            break;
        }
        if matches!(w, "-t" | "--target-directory") {
            return words.next().map(str::to_string);
        }
        if let Some(d) = w.strip_prefix("--target-directory=") {
            return Some(d.to_string());
        }
        if let Some(d) = w
            .strip_prefix("-t")
            .filter(|d| !d.is_empty() && !w.starts_with("--"))
        {
            return Some(d.to_string());
        }
    }
    None
}

/// Links made in `dir`, each named as its target.
fn in_dir<'a>(dir: &str, targets: &[&'a Arg]) -> Vec<(&'a Arg, String)> {
    let dir = dir.trim_end_matches('/');
    (targets.iter())
        .map(|t| {
            (
                *t,
                format!("{dir}/{}", paths::basename(t.text.trim_end_matches('/'))),
            )
        })
        .collect()
}

/// The link `name` → `target`. A relative target is relative to the link's directory (to
/// the working directory under `ln -r`, which rewrites it); a computed or glob target is
/// unknown.
fn link(target: &Arg, name: &str, ctx: &PathContext, relative: bool) -> Option<Link> {
    let at = paths::resolve(name, ctx);
    if at.pattern || !at.path.starts_with('/') {
        return None;
    }
    let to = (!target.unresolved && !target.pattern).then(|| {
        let dir = parent(&at.path);
        let from = PathContext {
            cwd: if relative { ctx.cwd } else { Some(dir) },
            home: ctx.home,
        };
        paths::resolve(&target.text, &from).path
    });
    Some(Link {
        at: at.path,
        to,
        tree: false,
    })
}

fn parent(path: &str) -> &str {
    match path.rfind('/') {
        Some(0) | None => "/",
        Some(i) => &path[..i],
    }
}

/// `cp -s` makes links instead of copies; with `-r` a directory becomes a real directory of
/// links to its files (a `tree`: writing a file below it writes the original, removing one
/// removes the link).
fn copies_as_link(c: &Command) -> bool {
    has_flag(args(c), &['s'], &["symbolic-link"])
}

fn made_by_cp(c: &Command, ctx: &PathContext) -> Option<Link> {
    let (sources, dest) = crate::shell::copy_operands("cp", &c.argv)?;
    let (Some(dest), [source]) = (dest, sources.as_slice()) else {
        return None;
    };
    let name = match dest.text.ends_with('/') {
        true => format!("{}{}", dest.text, paths::basename(&source.text)),
        false => dest.text.clone(),
    };
    let tree = has_flag(args(c), &['r', 'R', 'a'], &["recursive", "archive"]);
    let made = (!dest.unresolved).then(|| link(source, &name, ctx, true));
    made.flatten().map(|l| Link { tree, ..l })
}

/// `mv dl notes`: a known link renamed still leads where it did (its target is kept as
/// resolved when it was made; a relative one would be read again from the new place, which
/// judges the same for a move within one directory).
fn renamed(c: &Command, ctx: &PathContext, known: &[&Link]) -> Vec<LinkChange> {
    let Some((sources, Some(dest))) = crate::shell::copy_operands("mv", &c.argv) else {
        return Vec::new();
    };
    let [source] = sources.as_slice() else {
        return Vec::new();
    };
    if source.unresolved || dest.unresolved || source.text.ends_with('/') {
        return Vec::new();
    }
    let from = paths::resolve(&source.text, ctx).path;
    let Some(link) = known.iter().rev().find(|l| l.at == from) else {
        return Vec::new();
    };
    let name = match dest.text.ends_with('/') {
        true => format!("{}{}", dest.text, paths::basename(&from)),
        false => dest.text.clone(),
    };
    let at = paths::resolve(&name, ctx);
    if at.pattern {
        return vec![LinkChange::Removed(from)];
    }
    let moved = Link {
        at: at.path,
        ..(*link).clone()
    };
    vec![LinkChange::Removed(from), LinkChange::Made(moved)]
}

/// Names `rm`/`unlink` remove as they are written (no trailing slash: the link itself).
fn removed<'c>(c: &'c Command, ctx: &'c PathContext<'c>) -> impl Iterator<Item = String> + 'c {
    (operands(args(c), &[]).into_iter())
        .filter(|o| !o.unresolved && !o.pattern && !o.text.ends_with('/'))
        .map(|o| paths::resolve(&o.text, ctx))
        .filter(|p| !p.pattern)
        .map(|p| p.path)
}

/// The links a call's own commands make, for its guards (removals are not applied: a link
/// removed late in the line was still there for the commands before).
pub fn made(changes: &[LinkChange]) -> impl Iterator<Item = &Link> {
    changes.iter().filter_map(|c| match c {
        LinkChange::Made(l) => Some(l),
        LinkChange::Removed(_) => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::{analyze, ShellInput};

    fn links_of(line: &str) -> Vec<LinkChange> {
        let v = CallView {
            scripts: vec![analyze(&ShellInput {
                script: line,
                ..Default::default()
            })],
            cwd: Some("/w".into()),
            ..Default::default()
        };
        changes(&v, Some("/h"), &[])
    }

    fn made_link(at: &str, to: Option<&str>) -> LinkChange {
        LinkChange::Made(Link {
            at: at.into(),
            to: to.map(str::to_string),
            tree: false,
        })
    }

    #[test]
    fn ln_forms() {
        assert_eq!(
            links_of("ln -s ~/docs dl"),
            [made_link("/w/dl", Some("/h/docs"))]
        );
        assert_eq!(
            links_of("ln -sf build/app bin/app"),
            [made_link("/w/bin/app", Some("/w/bin/build/app"))]
        );
        assert_eq!(
            links_of("ln -sr build/app bin/app"),
            [made_link("/w/bin/app", Some("/w/build/app"))]
        );
        assert_eq!(
            links_of("sudo ln -s -t out /a /b/"),
            [
                made_link("/w/out/a", Some("/a")),
                made_link("/w/out/b", Some("/b"))
            ]
        );
        assert_eq!(links_of("ln -s /etc"), [made_link("/w/etc", Some("/etc"))]);
        assert_eq!(
            links_of("ln -s \"$(cat p)\" dl"),
            [made_link("/w/dl", None)]
        );
        assert!(links_of("ln a b").is_empty());
    }

    #[test]
    fn cp_links_and_removals() {
        assert_eq!(
            links_of("cp -s /h/a.txt a.txt"),
            [made_link("/w/a.txt", Some("/h/a.txt"))]
        );
        assert_eq!(
            links_of("cp -rs /h/docs d"),
            [LinkChange::Made(Link {
                at: "/w/d".into(),
                to: Some("/h/docs".into()),
                tree: true,
            })]
        );
        assert_eq!(
            links_of("rm dl; rm -rf x/"),
            [LinkChange::Removed("/w/dl".into())]
        );
        assert_eq!(
            links_of("ln -s /h/docs dl && mv dl notes"),
            [
                made_link("/w/dl", Some("/h/docs")),
                LinkChange::Removed("/w/dl".into()),
                made_link("/w/notes", Some("/h/docs")),
            ]
        );
    }
}
