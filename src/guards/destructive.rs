//! Destructive guard: recursive or forced deletion, wiping, formatting and recursive
//! permission changes are allowed inside the agent's workspace (`rm -rf node_modules`) and
//! denied anywhere else, including the workspace itself.

use super::argv::{args, find_roots, has_flag, operands, program};
use super::{show, Subject};
use crate::shell::{Arg, Command};

/// System locations a recursive `chmod`/`chown` must not touch.
const SYSTEM_DIRS: [&str; 12] = [
    "/", "/etc", "/usr", "/bin", "/sbin", "/lib", "/var", "/boot", "/home", "/root", "/opt", "/srv",
];

pub fn check(s: &Subject) -> Option<String> {
    for f in &s.view.files {
        if f.access == crate::call::Access::Delete && !s.inside_workspace(&f.path) {
            return Some(format!("deletes {} outside the workspace", f.path.path));
        }
        if f.access == crate::call::Access::Write && is_system_file(s, &f.path) {
            return Some(format!("overwrites the system file {}", f.path.path));
        }
    }
    s.commands()
        .find_map(|(_, _, c)| command(s, c).or_else(|| system_files(s, c, &rewritten(c))))
}

fn command(s: &Subject, c: &Command) -> Option<String> {
    let a = args(c);
    let targets: Vec<&Arg> = match program(c) {
        "rm" if has_flag(a, &['r', 'R', 'f'], &["recursive", "force"]) => operands(a, &[]),
        "rmdir" | "unlink" | "rimraf" | "del-cli" => operands(a, &[]),
        // find -exec rm {}: every file under the start point, with or without -r.
        "rm" if c.wrappers.iter().any(|w| w.starts_with("find -")) => operands(a, &[]),
        // `rm ~/docs/*`: a glob deletes every file it matches, recursive or not.
        "rm" if a.iter().any(|o| o.pattern) => {
            operands(a, &[]).into_iter().filter(|o| o.pattern).collect()
        }
        // `ln -sf /dev/null ~/.bashrc` replaces the file at the link's name.
        "ln" if has_flag(a, &['f'], &["force"]) => operands(a, &["-t", "-S"])
            .into_iter()
            .rev()
            .take(1)
            .collect(),
        // Punching, collapsing or zeroing a range destroys the bytes in it.
        "fallocate"
            if has_flag(
                a,
                &['p', 'c', 'z', 'i'],
                &["punch-hole", "collapse-range", "zero-range", "insert-range"],
            ) =>
        {
            operands(a, &["-o", "-l", "--offset", "--length"])
        }
        "rclone" => return rclone(s, c),
        "zip" if has_flag(a, &['m'], &["move"]) => operands(a, &["-b", "-t", "-tt", "-x", "-i"])
            .into_iter()
            .skip(1)
            .collect(),
        "rsync"
            if has_flag(
                a,
                &[],
                &[
                    "delete",
                    "delete-before",
                    "delete-after",
                    "delete-during",
                    "remove-source-files",
                ],
            ) =>
        {
            operands(
                a,
                &["-e", "--rsh", "--exclude", "--include", "-f", "--filter"],
            )
            .into_iter()
            .rev()
            .take(1)
            .collect()
        }
        "shred" | "wipe" | "srm" => operands(a, &["-n", "-s", "--iterations", "--size"]),
        "truncate" => operands(a, &["-s", "-r", "--size", "--reference"]),
        "find" if finds_to_delete(a) => {
            return find_roots(a).iter().find_map(|t| outside_root(s, c, t))
        }
        "tar" if has_flag(a, &[], &["remove-files"]) => operands(a, &["-f", "-C", "-T", "-X"]),
        // git's own verbs (`guards::git`), and its redirects as any command's.
        "git" => {
            return (super::git::destroys(s, c))
                .or_else(|| device_write(c))
                .or_else(|| system_truncation(s, c))
        }
        // A recursive permission change outside the workspace locks out or opens up what it
        // reaches, as a deletion would destroy it: the first operand is the mode or owner.
        "chmod" | "chown" | "chgrp" | "setfacl" if has_flag(a, &['R'], &["recursive"]) => {
            return system_dir(s, c).or_else(|| {
                targets_of_mode_change(a)
                    .into_iter()
                    .find_map(|t| outside(s, c, t))
            });
        }
        p if p.starts_with("mkfs") || matches!(p, "wipefs" | "fdisk" | "sfdisk" | "parted") => {
            return Some(format!("`{}` formats or repartitions a device", show(c)));
        }
        "dd" => return dd_to_device(c).or_else(|| dd_over_file(s, c)),
        // `cp /dev/null f` empties f; `tee f < /dev/null` too, for the system files below.
        "cp" if operands(a, &["-t", "-S"])
            .first()
            .is_some_and(|f| f.text == "/dev/null") =>
        {
            operands(a, &["-t", "-S"]).into_iter().skip(1).collect()
        }
        "tee" => return system_files(s, c, &operands(a, &[])),
        "mv" => return mv_to_void(s, c),
        _ => return device_write(c).or_else(|| system_truncation(s, c)),
    };
    let verb = match program(c) {
        "ln" => "replaces",
        "fallocate" => "destroys bytes of",
        _ => "deletes",
    };
    targets.into_iter().find_map(|t| outside_as(s, c, t, verb))
}

fn outside(s: &Subject, c: &Command, t: &Arg) -> Option<String> {
    outside_as(s, c, t, "deletes")
}

/// `verb` says what the command does to `t` when it lies outside the workspace.
fn outside_as(s: &Subject, c: &Command, t: &Arg, verb: &str) -> Option<String> {
    if t.unresolved {
        return Some(format!(
            "`{}` {verb} a path only known when it runs",
            show(c)
        ));
    }
    let p = s.path_in(c, t);
    (!s.inside_workspace(&p))
        .then(|| format!("`{}` {verb} {} outside the workspace", show(c), p.path))
}

fn finds_to_delete(a: &[Arg]) -> bool {
    a.iter().any(|x| x.text == "-delete")
}

/// `rclone purge|delete|deletefile|rmdirs DEST`: a local DEST is judged like `rm -r`; a remote
/// one (`s3:bucket/dir`) is data outside the workspace.
fn rclone(s: &Subject, c: &Command) -> Option<String> {
    let ops = operands(
        args(c),
        &[
            "--config",
            "--include",
            "--exclude",
            "--filter",
            "--min-age",
            "--max-age",
        ],
    );
    let verb = ops.first()?.text.as_str();
    if !matches!(
        verb,
        "purge" | "delete" | "deletefile" | "rmdir" | "rmdirs" | "cleanup"
    ) {
        return None;
    }
    let target = ops.get(1)?;
    let remote = target
        .text
        .split_once(':')
        .is_some_and(|(r, _)| !r.contains('/') && r.len() > 1);
    if remote {
        return Some(format!("`{}` deletes remote data", show(c)));
    }
    outside(s, c, target)
}

/// The files of `chmod MODE f…`; with `--reference=R` there is no mode operand.
fn targets_of_mode_change(a: &[Arg]) -> Vec<&Arg> {
    let reference = a.iter().any(|x| x.text.starts_with("--reference"));
    let skip = usize::from(!reference);
    operands(a, &["--reference"])
        .into_iter()
        .skip(skip)
        .collect()
}

fn system_dir(s: &Subject, c: &Command) -> Option<String> {
    targets_of_mode_change(args(c)).into_iter().find_map(|t| {
        let p = s.path_in(c, t);
        let hit = t.unresolved
            || SYSTEM_DIRS.contains(&p.path.as_str())
            || s.env.host.home.as_deref() == Some(p.path.as_str());
        hit.then(|| {
            format!(
                "`{}` changes permissions of {} recursively",
                show(c),
                p.path
            )
        })
    })
}

fn dd_to_device(c: &Command) -> Option<String> {
    let out = args(c).iter().find_map(|a| a.text.strip_prefix("of="))?;
    let device =
        out.starts_with("/dev/") && !matches!(out, "/dev/null" | "/dev/stdout" | "/dev/stderr");
    device.then(|| format!("`{}` writes to the device {out}", show(c)))
}

fn device_write(c: &Command) -> Option<String> {
    c.redirects.iter().find_map(|r| {
        let t = r.target.text.as_str();
        let device = t.starts_with("/dev/sd")
            || t.starts_with("/dev/nvme")
            || t.starts_with("/dev/vd")
            || t.starts_with("/dev/disk")
            || t.starts_with("/dev/mapper")
            || t.starts_with("/dev/xvd")
            || t.starts_with("/dev/hd")
            || t.starts_with("/dev/mmcblk");
        device.then(|| format!("`{}` writes to the device {t}", show(c)))
    })
}

/// `find DIR -delete` deletes under DIR, so DIR may be the workspace itself.
fn outside_root(s: &Subject, c: &Command, t: &Arg) -> Option<String> {
    let p = s.path_in(c, t);
    let root = s.view.workspace.as_deref().or(s.view.cwd.as_deref());
    if !t.unresolved && root.is_some_and(|r| r.trim_end_matches('/') == p.path) {
        return None;
    }
    outside(s, c, t)
}

/// `: > /etc/hosts` empties a system file: a truncating redirect into the system's own trees.
/// A target that is a pattern (each file `find -exec sh -c ': > "$1"'` or a loop over a glob
/// visits) empties every file it matches, which outside the workspace is a deletion.
fn system_truncation(s: &Subject, c: &Command) -> Option<String> {
    let targets: Vec<&Arg> = c
        .redirects
        .iter()
        .filter(|r| r.kind == crate::shell::RedirectKind::Write)
        .map(|r| &r.target)
        .collect();
    let each = targets.iter().filter(|t| t.pattern && !t.unresolved);
    system_files(s, c, &targets).or_else(|| {
        each.into_iter()
            .find_map(|t| outside_as(s, c, t, "empties every file of"))
    })
}

/// The system's own trees: overwriting a file there breaks the machine.
const SYSTEM_TREES: [&str; 9] = [
    "/etc/",
    "/usr/",
    "/bin/",
    "/sbin/",
    "/lib",
    "/boot/",
    "/var/lib/",
    "/root/",
    "/var/spool/cron",
];

fn system_files(s: &Subject, c: &Command, targets: &[&Arg]) -> Option<String> {
    targets.iter().find_map(|t| {
        let p = s.path_in(c, t);
        is_system_file(s, &p)
            .then(|| format!("`{}` overwrites the system file {}", show(c), p.path))
    })
}

fn is_system_file(s: &Subject, p: &crate::paths::Resolved) -> bool {
    let Some(tree) = SYSTEM_TREES.iter().find(|d| p.path.starts_with(*d)) else {
        return false;
    };
    // A host run as root keeps its workspaces under /root: the agent's own files there are
    // not the system's. Only a configured workspace counts (never the call's workdir), and
    // only one below the tree's own directory (a workspace of /root does not open /root).
    let own = s.view.workspace.as_deref().is_some_and(|w| below(w, tree)) && s.inside_workspace(p);
    !own
}

/// Files a command rewrites in place or writes over: `sed -i`/`perl -i` operands, `sort -o`,
/// the destination of `cp`/`install`.
fn rewritten(c: &Command) -> Vec<&Arg> {
    let a = args(c);
    let short_has = |x: &Arg, ch: char| {
        let t = x.text.as_str();
        t.starts_with('-')
            && !t.starts_with("--")
            && t[1..].split('e').next().is_some_and(|f| f.contains(ch))
    };
    match program(c) {
        "sed" | "gsed"
            if a.iter()
                .any(|x| short_has(x, 'i') || x.text.starts_with("--in-place")) =>
        {
            operands(a, &["-e", "-f", "--expression", "--file", "-l"])
        }
        "perl" if a.iter().any(|x| short_has(x, 'i')) => operands(a, &["-e", "-E", "-M", "-I"]),
        "sort" => a
            .iter()
            .enumerate()
            .filter(|(i, x)| x.text.starts_with("--output=") || *i > 0 && a[i - 1].text == "-o")
            .map(|(_, x)| x)
            .collect(),
        "cp" | "install" => {
            let dir: Vec<&Arg> = a
                .windows(2)
                .filter(|w| w[0].text == "-t")
                .map(|w| &w[1])
                .collect();
            match dir.is_empty() {
                true => operands(a, &["-S", "-m", "-o", "-g", "--suffix"])
                    .into_iter()
                    .skip(1)
                    .rev()
                    .take(1)
                    .collect(),
                false => dir,
            }
        }
        _ => Vec::new(),
    }
}

/// Whether `dir` lies below `tree`'s own directory: `/root/.openclaw/workspace` below `/root/`,
/// `/lib64/x` below the prefix `/lib`; never `/root` or `/lib64` themselves.
fn below(dir: &str, tree: &str) -> bool {
    let Some(rest) = dir
        .trim_end_matches('/')
        .strip_prefix(tree.trim_end_matches('/'))
    else {
        return false;
    };
    // A prefix tree such as `/lib` names every directory it begins (`/lib32`, `/lib64`).
    let rest = match tree.ends_with('/') {
        true => rest,
        false => rest.find('/').map_or("", |i| &rest[i..]),
    };
    rest.len() > 1 && rest.starts_with('/')
}

/// `dd of=FILE` outside the workspace overwrites it (`conv=notrunc` or not, the old bytes go).
fn dd_over_file(s: &Subject, c: &Command) -> Option<String> {
    let out = args(c).iter().find_map(|a| {
        let t = a.text.strip_prefix("of=")?;
        Some(Arg {
            text: t.to_string(),
            ..a.clone()
        })
    })?;
    if matches!(
        out.text.as_str(),
        "/dev/null" | "/dev/stdout" | "/dev/stderr"
    ) {
        return None;
    }
    let p = s.path_in(c, &out);
    (!s.inside_workspace(&p))
        .then(|| format!("`{}` overwrites {} outside the workspace", show(c), p.path))
}

/// `mv x /dev/null` deletes x.
fn mv_to_void(s: &Subject, c: &Command) -> Option<String> {
    let ops = operands(args(c), &["-t", "-S"]);
    let (dest, sources) = ops.split_last()?;
    if dest.text != "/dev/null" {
        return None;
    }
    sources.iter().find_map(|t| {
        outside(s, c, t).or_else(|| Some(format!("`{}` discards {}", show(c), t.text)))
    })
}
