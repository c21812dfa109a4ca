//! Destructive guard: recursive or forced deletion, wiping, formatting and recursive
//! permission changes are allowed inside the agent's workspace (`rm -rf node_modules`) and
//! denied anywhere else, including the workspace itself.

use super::argv::{args, find_roots, given, has_flag, operands, option_values, program};
use super::{show, Subject};
use crate::paths::Resolved;
use crate::shell::{Arg, Command};
use std::rc::Rc;

mod devices;
pub(super) mod system;

/// System locations a recursive `chmod`/`chown` must not touch.
const SYSTEM_DIRS: [&str; 12] = [
    "/", "/etc", "/usr", "/bin", "/sbin", "/lib", "/var", "/boot", "/home", "/root", "/opt", "/srv",
];

pub fn check(s: &Subject) -> Option<String> {
    for f in &s.view.files {
        let deleted = (f.access == crate::call::Access::Delete)
            .then(|| s.resolved_reached(&f.path, false))
            .flatten();
        if let Some(p) = deleted.filter(|p| !s.inside_workspace(p)) {
            return Some(format!("deletes {} outside the workspace", p.path));
        }
        let written = (f.access == crate::call::Access::Write)
            .then(|| s.resolved_reached(&f.path, true))
            .flatten();
        if let Some(p) = written.filter(|p| is_system_file(s, p)) {
            return Some(format!("overwrites the system file {}", p.path));
        }
    }
    s.commands().find_map(|(_, _, c)| {
        command(s, c)
            .or_else(|| system_files(s, c, rewritten(c)))
            .or_else(|| overwritten(s, c))
    })
}

/// A file outside the workspace that `c` truncates and writes through its own options or
/// operands (`outputs`): `shuf -o ~/docs/r.txt`, `uniq /dev/null ~/docs/r.txt`. The user's
/// file is replaced by the program's output, as `mv` over it would; scratch directories and
/// the places tools install themselves (`~/.local/bin`, `~/bin`, `~/.cache`) are not anybody's
/// documents. A name only known when it runs (`curl -o "$tmp"`) is not judged here, as a
/// credential guard does not judge `cat "$F"`.
fn overwritten(s: &Subject, c: &Command) -> Option<String> {
    let files = super::outputs::written(c);
    files.iter().find_map(|t| {
        if t.unresolved && t.text.starts_with('*') {
            return None;
        }
        let p = landing(s, c, t, true)?;
        if s.inside_workspace(&p) || scratch(&p) || tool_place(s, &p) {
            return None;
        }
        let what = if is_system_file(s, &p) {
            "the system file "
        } else {
            ""
        };
        Some(format!(
            "`{}` overwrites {what}{} outside the workspace",
            show(c),
            p.path
        ))
    })
}

/// Where tools are installed or keep what they can fetch again: `~/.local/bin`, `~/bin`,
/// `~/.cache` (`curl -o ~/.local/bin/kubectl URL`).
fn tool_place(s: &Subject, p: &Resolved) -> bool {
    let Some(home) = s.env.host.home.as_deref() else {
        return false;
    };
    let rest = p.path.strip_prefix(home.trim_end_matches('/'));
    rest.is_some_and(|r| {
        ["/.local/bin/", "/bin/", "/.cache/"]
            .iter()
            .any(|d| r.starts_with(d))
    })
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
        "xfs_io" if xfs_io_writes(a) => operands(a, &["-c", "-p", "-m", "-C"]),
        "zip" if has_flag(a, &['m'], &["move"]) => operands(a, &["-b", "-t", "-tt", "-x", "-i"])
            .into_iter()
            .skip(1)
            .collect(),
        "rsync" if !rsync_deletes(a).is_empty() => rsync_deletes(a),
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
        // Run by `find -exec`/`-execdir`, it changes every file under find's start points
        // (`{}` is `ROOT/*`), as `-R` would.
        "chmod" | "chown" | "chgrp" | "setfacl" | "chcon"
            if has_flag(a, &['R'], &["recursive"]) || under_find(c) =>
        {
            return system_dir(s, c).or_else(|| {
                targets_of_mode_change(program(c), a)
                    .into_iter()
                    .find_map(|t| outside_doing(s, c, t, "changes the permissions of"))
            });
        }
        p if p.starts_with("mkfs") || matches!(p, "wipefs" | "fdisk" | "sfdisk" | "parted") => {
            return Some(format!("`{}` formats or repartitions a device", show(c)));
        }
        // `gio remove|trash PATH…` deletes (or moves to the trash, emptied later) each PATH.
        "gio"
            if a.first()
                .is_some_and(|v| matches!(v.text.as_str(), "remove" | "trash")) =>
        {
            operands(a, &[]).into_iter().skip(1).collect()
        }
        "trash-put" | "trash" => operands(a, &[]),
        // `tmpreaper AGE DIR…`, `tmpwatch AGE DIR…`: every file under DIR older than AGE
        // (`0s`: all of them).
        "tmpreaper" | "tmpwatch" => operands(
            a,
            &[
                "--protect",
                "-x",
                "--exclude",
                "-X",
                "--exclude-pattern",
                "-U",
            ],
        )
        .into_iter()
        .skip(1)
        .collect(),
        "systemd-tmpfiles" => return system::tmpfiles(s, c),
        "dd" => return dd_to_device(c).or_else(|| dd_over_file(s, c)),
        // `cp /dev/null f` empties f; `tee f < /dev/null` too, for the system files below.
        "cp" if operands(a, &["-t", "-S"])
            .first()
            .is_some_and(|f| f.text == "/dev/null") =>
        {
            operands(a, &["-t", "-S"]).into_iter().skip(1).collect()
        }
        "tee" => {
            return system_files(s, c, operands(a, &[]))
                .or_else(|| devices::kernel_write(c))
                .or_else(|| emptied_by_tee(s, c))
        }
        "mv" => {
            return mv_to_void(s, c)
                .or_else(|| mv_to_scratch(s, c))
                .or_else(|| mv_over(s, c))
        }
        "install" if from_void(operands(a, &INSTALL_VALUED).first().copied()) => {
            return operands(a, &INSTALL_VALUED)
                .into_iter()
                .skip(1)
                .find_map(|t| outside_as(s, c, t, "empties"));
        }
        "7z" | "7za" | "7zr" | "7zz" if a.iter().any(|x| x.text == "-sdel") => {
            operands(a, &[]).into_iter().skip(2).collect()
        }
        // `rar m` moves files into the archive; `-df` deletes them after archiving.
        "rar" if a.first().is_some_and(|x| x.text == "m") || given(a, &["-df"]) => {
            operands(a, &[]).into_iter().skip(2).collect()
        }
        "find" if !find_outputs(a).is_empty() => {
            return find_outputs(a)
                .into_iter()
                .find_map(|t| over_user_file(s, c, &t, "overwrites"))
                .or_else(|| redirected(s, c));
        }
        "fd" | "fdfind" => return fd_exec(s, c).or_else(|| redirected(s, c)),
        "crontab" => return crontab(c).or_else(|| redirected(s, c)),
        "chattr" if has_flag(a, &['R'], &[]) => return chattr(s, c),
        "docker" | "podman" | "nerdctl" => return containers(c).or_else(|| redirected(s, c)),
        _ => {
            return (devices::wipes(c))
                .or_else(|| system::destroys(c))
                .or_else(|| redirected(s, c))
        }
    };
    match program(c) {
        "ln" => targets.iter().find_map(|t| outside_as(s, c, t, "replaces")),
        "fallocate" | "xfs_io" => {
            (targets.iter()).find_map(|t| outside_as(s, c, t, "destroys bytes of"))
        }
        _ => (targets.iter().find_map(|t| outside(s, c, t))).or_else(|| moved_in(s, c, &targets)),
    }
}

/// xfs_io's commands (`-c 'truncate 0'`, `-c 'pwrite …'`, `fpunch`, `fzero`, …) that cut,
/// overwrite or punch out the file's bytes (xfs_io(8)).
fn xfs_io_writes(a: &[Arg]) -> bool {
    const WRITES: [&str; 10] = [
        "truncate",
        "pwrite",
        "fpunch",
        "fzero",
        "fcollapse",
        "finsert",
        "reflink",
        "dedupe",
        "sendfile",
        "copy_range",
    ];
    option_values(a, Some("-c"), "-c").iter().any(|cmd| {
        cmd.split_whitespace()
            .next()
            .is_some_and(|w| WRITES.contains(&w))
    })
}

/// `mv ~/docs ./old && rm -rf old`: what a `mv` of the call brought into the workspace from
/// outside it is still the user's, and deleting it there deletes theirs. Scratch sources
/// (`/tmp/build`) are nobody's documents.
fn moved_in(s: &Subject, c: &Command, targets: &[&Arg]) -> Option<String> {
    let moves = s.commands().filter(|(_, _, m)| program(m) == "mv");
    let brought: Vec<(String, String)> = moves.flat_map(|(_, _, m)| brought_by(s, m)).collect();
    if brought.is_empty() {
        return None;
    }
    targets.iter().find_map(|t| {
        let p = s.path_in(c, t);
        let (to, from) = brought.iter().find(|(to, _)| overlaps(&p.path, to))?;
        Some(format!(
            "`{}` deletes {to}, moved there from {from} outside the workspace",
            show(c)
        ))
    })
}

/// The (destination, source) of each file or tree `m` moves into the workspace from outside
/// it; a destination that is a directory takes the source's name.
fn brought_by(s: &Subject, m: &Command) -> Vec<(String, String)> {
    let a = args(m);
    let ops = operands(a, &["-S", "--suffix", "-t", "--target-directory"]);
    let into: Option<&str> = (a.windows(2))
        .find(|w| matches!(w[0].text.as_str(), "-t" | "--target-directory"))
        .map(|w| w[1].text.as_str());
    let (sources, dest) = match into {
        Some(dir) => (&ops[..], Some(dir.to_string() + "/")),
        None => match ops.split_last() {
            Some((d, rest)) => (rest, Some(d.text.clone())),
            None => (&ops[..], None),
        },
    };
    let Some(dest) = dest else { return Vec::new() };
    let dest_dir = sources.len() > 1
        || dest.ends_with('/')
        || std::path::Path::new(&s.path_of(m, &dest).path).is_dir();
    (sources.iter())
        .filter_map(|src| {
            let from = s.path_in(m, src);
            if src.unresolved || s.inside_workspace(&from) || scratch(&from) {
                return None;
            }
            let to = match dest_dir {
                true => format!(
                    "{}/{}",
                    dest.trim_end_matches('/'),
                    crate::paths::basename(&from.path)
                ),
                false => dest.clone(),
            };
            let to = s.path_of(m, &to);
            s.inside_workspace(&to)
                .then(|| (to.path.clone(), from.path.clone()))
        })
        .collect()
}

/// One path is the other or lies under it.
fn overlaps(a: &str, b: &str) -> bool {
    let under = |x: &str, y: &str| x.strip_prefix(y).is_some_and(|r| r.starts_with('/'));
    a == b || under(a, b) || under(b, a)
}

fn outside(s: &Subject, c: &Command, t: &Arg) -> Option<String> {
    outside_doing(s, c, t, "deletes")
}

/// `outside_as`, except for a named entry of a temporary directory (a program's scratch).
fn outside_doing(s: &Subject, c: &Command, t: &Arg, verb: &str) -> Option<String> {
    let here = !t.unresolved && !super::remote_code::on_another_host(c);
    if here && landing(s, c, t, follows_last(c)).is_some_and(|p| scratch_entry(&p)) {
        return None;
    }
    outside_as(s, c, t, verb)
}

/// A named entry of a temporary directory (`/tmp/build-123`, `/var/tmp/x/y`): a program's
/// scratch, not anybody's documents. The directory itself, and a pattern for its entries
/// (`/tmp/*`), reach what other programs and users keep there (sockets, their own builds).
fn scratch_entry(p: &crate::paths::Resolved) -> bool {
    let entry = ["/tmp/", "/var/tmp/", "/dev/shm/"]
        .iter()
        .find_map(|d| p.path.strip_prefix(d))
        .and_then(|rest| rest.split('/').next());
    entry.is_some_and(|e| {
        !e.is_empty() && !matches!(e, "." | "..") && !e.contains(['*', '?', '[', '\\'])
    })
}

/// `verb` says what the command does to `t` when it lies outside the workspace.
fn outside_as(s: &Subject, c: &Command, t: &Arg, verb: &str) -> Option<String> {
    // `ssh host rm -rf docs`: the other machine has no workspace of the agent's (and its
    // relative paths start in the remote user's home, not here).
    if super::remote_code::on_another_host(c) {
        return Some(format!("`{}` {verb} {} on another host", show(c), t.text));
    }
    if t.unresolved {
        return Some(format!(
            "`{}` {verb} a path only known when it runs",
            show(c)
        ));
    }
    let Some(p) = landing(s, c, t, follows_last(c)) else {
        return Some(format!(
            "`{}` {verb} {} through a link only known when it was made",
            show(c),
            t.text
        ));
    };
    (!s.inside_workspace(&p))
        .then(|| format!("`{}` {verb} {} outside the workspace", show(c), p.path))
}

/// `t` where `c` reaches it, through the symbolic links the session made (`ln -s ~/docs dl`
/// makes `dl/*` files of ~/docs). `None` when a link on the way leads somewhere only known
/// when it was made and `c` works through a whole tree there; a single file keeps its lexical
/// place, so an ordinary link to a computed directory does not stop every later edit.
fn landing(s: &Subject, c: &Command, t: &Arg, last: bool) -> Option<Rc<Resolved>> {
    match s.path_reached(c, t, last) {
        Some(p) => Some(p),
        None if recursive(c) => None,
        None => Some(s.path_in(c, t)),
    }
}

/// Whether `c` opens a link given as its operand (a write, truncation, mode change follows
/// it) rather than acting on the name: `rm dl` and `mv dl x` remove or move the link, and
/// find walks into one only under `-H`, `-L` or `-follow`.
fn follows_last(c: &Command) -> bool {
    match program(c) {
        "rm" | "rmdir" | "unlink" | "rimraf" | "del-cli" | "ln" | "mv" | "rsync" | "rclone"
        | "tar" | "zip" | "7z" | "7za" | "7zr" | "7zz" | "rar" | "fd" | "fdfind" => false,
        "find" => args(c)
            .iter()
            .any(|x| matches!(x.text.as_str(), "-H" | "-L" | "-follow")),
        _ => true,
    }
}

/// Deleting or changing a whole tree: `rm -r`, `chmod -R`, find and rsync's deletions.
fn recursive(c: &Command) -> bool {
    match program(c) {
        "find" | "fd" | "fdfind" | "rsync" | "rclone" => true,
        _ => has_flag(args(c), &['r', 'R'], &["recursive"]),
    }
}

fn finds_to_delete(a: &[Arg]) -> bool {
    a.iter().any(|x| x.text == "-delete")
}

/// What rsync deletes: the destination's extra files under `--delete*`, and every source file
/// it sent under `--remove-source-files` (a move: `rsync --remove-source-files ~/docs/ x/`
/// empties ~/docs).
fn rsync_deletes(a: &[Arg]) -> Vec<&Arg> {
    let deletes = has_flag(
        a,
        &[],
        &["delete", "delete-before", "delete-after", "delete-during"],
    );
    let moves = has_flag(a, &[], &["remove-source-files"]);
    let ops = operands(
        a,
        &["-e", "--rsh", "--exclude", "--include", "-f", "--filter"],
    );
    let Some((dest, sources)) = ops.split_last() else {
        return Vec::new();
    };
    let mut out: Vec<&Arg> = Vec::new();
    if moves {
        out.extend(sources.iter().copied());
    }
    if deletes {
        out.push(dest);
    }
    out
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

/// The files of `chmod MODE f…`; with `--reference=R` there is no mode operand, nor for
/// chcon given the context's parts (`chcon -t TYPE f…`, `-u`, `-r`, `-l`).
fn targets_of_mode_change<'a>(prog: &str, a: &'a [Arg]) -> Vec<&'a Arg> {
    const CHCON_PARTS: [&str; 8] = [
        "-u", "-r", "-t", "-l", "--user", "--role", "--type", "--range",
    ];
    let reference = a.iter().any(|x| x.text.starts_with("--reference"));
    let parts = prog == "chcon" && given(a, &CHCON_PARTS);
    let skip = usize::from(!reference && !parts);
    let valued: &[&str] = match prog {
        "chcon" => &CHCON_PARTS,
        _ => &["--reference"],
    };
    operands(a, valued).into_iter().skip(skip).collect()
}

/// A command `find -exec`/`-execdir`/`-ok` runs on each file it finds.
fn under_find(c: &Command) -> bool {
    c.wrappers.iter().any(|w| w.starts_with("find -"))
}

fn system_dir(s: &Subject, c: &Command) -> Option<String> {
    targets_of_mode_change(program(c), args(c))
        .into_iter()
        .find_map(|t| {
            let p = landing(s, c, t, true)?;
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
    let here = !super::remote_code::on_another_host(c);
    if let Some(found) = links_walked_into(s, c, &p) {
        return Some(found);
    }
    if here && !t.unresolved && root.is_some_and(|r| r.trim_end_matches('/') == p.path) {
        return None;
    }
    outside(s, c, t)
}

/// `find -L DIR -delete` (`-follow`, `fd -L`) follows every link it meets below DIR: one the
/// session made there to elsewhere is deleted through, even when DIR is the workspace.
fn links_walked_into(s: &Subject, c: &Command, root: &Resolved) -> Option<String> {
    let a = args(c);
    let follows = match program(c) {
        "find" => a
            .iter()
            .any(|x| matches!(x.text.as_str(), "-L" | "-follow")),
        _ => has_flag(a, &['L'], &["follow"]),
    };
    if !follows {
        return None;
    }
    let under = format!("{}/", root.path.trim_end_matches('/'));
    // A tree of links (`cp -rs`) is walked too, but deleting in it deletes the links.
    let met = (s.view.links.iter()).filter(|l| !l.tree && l.at.starts_with(&under));
    met.into_iter().find_map(|l| {
        let to = match &l.to {
            None => {
                return Some(format!(
                    "`{}` follows {} to a place only known when it was made",
                    show(c),
                    l.at
                ))
            }
            Some(to) => Resolved {
                path: to.clone(),
                pattern: false,
            },
        };
        (!s.inside_workspace(&to)).then(|| {
            format!(
                "`{}` deletes {} through the link {}",
                show(c),
                to.path,
                l.at
            )
        })
    })
}

/// `: > /etc/hosts` empties a system file: a truncating redirect into the system's own trees.
/// A target that is a pattern (each file `find -exec sh -c ': > "$1"'` or a loop over a glob
/// visits) empties every file it matches, which outside the workspace is a deletion.
fn system_truncation(s: &Subject, c: &Command) -> Option<String> {
    let targets = || {
        (c.redirects.iter())
            .filter(|r| r.kind == crate::shell::RedirectKind::Write)
            .map(|r| &r.target)
    };
    system_files(s, c, targets()).or_else(|| {
        targets()
            .filter(|t| t.pattern && !t.unresolved)
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

fn system_files<'a>(
    s: &Subject,
    c: &Command,
    targets: impl IntoIterator<Item = &'a Arg>,
) -> Option<String> {
    targets.into_iter().find_map(|t| {
        let p = landing(s, c, t, true)?;
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
    let p = landing(s, c, &out, true)?;
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

/// `mv ~/docs /tmp/gone`: what lives outside the workspace moved into a temporary directory,
/// which is scratch (its entries may then be removed like any build's) and cleared at
/// reboot: a deletion in two steps.
fn mv_to_scratch(s: &Subject, c: &Command) -> Option<String> {
    let ops = operands(args(c), &["-t", "-S", "--suffix", "--target-directory"]);
    let into = (args(c).windows(2))
        .find(|w| matches!(w[0].text.as_str(), "-t" | "--target-directory"))
        .map(|w| &w[1]);
    let (dest, sources) = match into {
        Some(d) => (d, &ops[..]),
        None => {
            let (d, rest) = ops.split_last()?;
            (*d, rest)
        }
    };
    let to = s.path_in(c, dest);
    let temporary = ["/tmp", "/var/tmp", "/dev/shm"]
        .iter()
        .any(|d| to.path == *d || to.path.starts_with(&format!("{d}/")));
    if dest.unresolved || !temporary {
        return None;
    }
    sources.iter().find_map(|t| {
        let p = s.path_in(c, t);
        let theirs = !t.unresolved && !scratch(&p) && !s.inside_workspace(&p);
        theirs.then(|| {
            let verb = "moves into a temporary directory (a deletion in two steps)";
            format!("`{}` {verb}: {} is outside the workspace", show(c), p.path)
        })
    })
}

/// What a command's redirects destroy: a device written, a system file or a user's file
/// emptied or written over.
fn redirected(s: &Subject, c: &Command) -> Option<String> {
    device_write(c)
        .or_else(|| devices::kernel_write(c))
        .or_else(|| system_truncation(s, c))
        .or_else(|| emptied_by_redirect(s, c))
}

/// `install`'s options that take a value (`-m 755`, `-o root`).
const INSTALL_VALUED: [&str; 10] = [
    "-m", "--mode", "-o", "--owner", "-g", "--group", "-S", "--suffix", "-t", "-Z",
];

/// Sources that hold nothing: copying, installing or teeing one over a file empties it.
fn from_void(a: Option<&Arg>) -> bool {
    a.is_some_and(|x| matches!(x.text.as_str(), "/dev/null" | "/dev/zero"))
}

/// Temporary directories: a file there is scratch, not anybody's document.
fn scratch(p: &crate::paths::Resolved) -> bool {
    ["/tmp/", "/var/tmp/", "/dev/shm/"]
        .iter()
        .any(|d| p.path.starts_with(d))
        || matches!(p.path.as_str(), "/dev/null" | "/dev/stdout" | "/dev/stderr")
}

/// A file outside the workspace that the command empties or writes over, unless it is
/// scratch (`/tmp/list.txt`).
fn over_user_file(s: &Subject, c: &Command, t: &Arg, verb: &str) -> Option<String> {
    if !t.unresolved && scratch(&s.path_in(c, t)) {
        return None;
    }
    outside_as(s, c, t, verb)
}

/// `tee FILE < /dev/null`, or a tee fed nothing at all: FILE is truncated and nothing is
/// written back (`-a` appends, which keeps it).
fn emptied_by_tee(s: &Subject, c: &Command) -> Option<String> {
    let a = args(c);
    if has_flag(a, &['a'], &["append"]) {
        return None;
    }
    let from_void_redirect = c.redirects.iter().any(|r| {
        r.kind == crate::shell::RedirectKind::Read
            && matches!(r.target.text.as_str(), "/dev/null" | "/dev/zero")
    });
    let fed = !c.inputs.is_empty()
        || c.stdin_text.is_some()
        || c.redirects
            .iter()
            .any(|r| r.kind == crate::shell::RedirectKind::Read);
    if !from_void_redirect && fed {
        return None;
    }
    operands(a, &[])
        .into_iter()
        .find_map(|t| over_user_file(s, c, t, "empties"))
}

/// `: > FILE`, `> FILE`, `cat /dev/null > FILE`, `true > FILE`, `printf '' > FILE`: a
/// truncating redirect of a command that prints nothing empties FILE.
fn emptied_by_redirect(s: &Subject, c: &Command) -> Option<String> {
    let a = args(c);
    let silent = match program(c) {
        "" | ":" | "true" | "false" => true,
        // `exec 3> FILE`: an exec with only redirects opens them in the shell itself, and
        // `>` truncates FILE as `: > FILE` would.
        "exec" => a.is_empty(),
        "cat" => a.iter().all(|x| x.text == "/dev/null"),
        "echo" => a.iter().all(|x| x.text == "-n"),
        "printf" => a.iter().all(|x| x.text.is_empty()),
        _ => false,
    };
    c.redirects
        .iter()
        .filter(|r| r.kind == crate::shell::RedirectKind::Write)
        .find_map(|r| {
            if silent {
                return over_user_file(s, c, &r.target, "empties");
            }
            // Output written over a file replaces what it held, as `cp` over it does; a
            // file that does not exist yet (or is empty) loses nothing. Judged by the disk
            // now, and only for a user's file: a scratch or workspace target costs no syscall.
            let why = over_user_file(s, c, &r.target, "writes over")?;
            let target = s.path_in(c, &r.target);
            let known = !r.target.unresolved && !target.pattern;
            (known && crate::paths::file_with_content(&target.path)).then_some(why)
        })
}

/// `find … -fprint F`, `-fprint0 F`, `-fprintf F FORMAT`, `-fls F`: F is truncated and
/// written with the list of names.
fn find_outputs(a: &[Arg]) -> Vec<Arg> {
    a.windows(2)
        .filter(|w| {
            matches!(
                w[0].text.as_str(),
                "-fprint" | "-fprint0" | "-fprintf" | "-fls"
            )
        })
        .map(|w| w[1].clone())
        .collect()
}

/// `mv SRC FILE` where FILE is outside the workspace: the file of that name, if any, is
/// replaced and its content gone (unless `-n`, `--update=none` or a backup keeps it). A
/// destination that is a directory (`mv x ~/bin/`, `-t DIR`) keeps what it holds.
fn mv_over(s: &Subject, c: &Command) -> Option<String> {
    let a = args(c);
    let keeps = has_flag(
        a,
        &['n', 'b', 't'],
        &["no-clobber", "backup", "target-directory"],
    ) || a.iter().any(|x| x.text.starts_with("--update=none"));
    let ops = operands(a, &["-S", "--suffix"]);
    if keeps || ops.len() < 2 {
        return None;
    }
    let dest = ops.last()?;
    if dest.text.ends_with('/') {
        return None;
    }
    let p = s.path_in(c, dest);
    // The one look at the disk: a directory there means `mv` moves into it.
    if !dest.unresolved && !p.pattern && std::path::Path::new(&p.path).is_dir() {
        return None;
    }
    over_user_file(s, c, dest, "replaces")
}

/// fd's `-x CMD` / `-X CMD` (`--exec`, `--exec-batch`) runs CMD on every file it finds, as
/// `find -exec`: a deleting CMD (or a shell given a script, which may be one) deletes under
/// fd's search paths.
fn fd_exec(s: &Subject, c: &Command) -> Option<String> {
    const VALUED: [&str; 28] = [
        "-e",
        "--extension",
        "-t",
        "--type",
        "-E",
        "--exclude",
        "-d",
        "--max-depth",
        "--min-depth",
        "--exact-depth",
        "-S",
        "--size",
        "--changed-within",
        "--changed-before",
        "-o",
        "--owner",
        "-j",
        "--threads",
        "--max-results",
        "-c",
        "--color",
        "--ignore-file",
        "--path-separator",
        "--search-path",
        "--base-directory",
        "--format",
        "--batch-size",
        "--and",
    ];
    let a = args(c);
    let at = a
        .iter()
        .position(|x| matches!(x.text.as_str(), "-x" | "-X" | "--exec" | "--exec-batch"))?;
    let runs = a.get(at + 1).map_or("", |x| super::argv::basename(&x.text));
    let deletes = matches!(
        runs,
        "rm" | "unlink" | "rmdir" | "shred" | "srm" | "wipe" | "trash" | "trash-put" | "gio"
    ) || matches!(runs, "sh" | "bash" | "zsh" | "dash" | "ksh");
    if !deletes {
        return None;
    }
    let own = &a[..at];
    let mut roots: Vec<Arg> = operands(own, &VALUED)
        .into_iter()
        .skip(1)
        .cloned()
        .collect();
    roots.extend(
        option_values(own, None, "--search-path")
            .into_iter()
            .map(Arg::literal),
    );
    if roots.is_empty() {
        let base = option_values(own, None, "--base-directory");
        roots.push(Arg::literal(base.last().copied().unwrap_or(".")));
    }
    roots.iter().find_map(|t| outside_root(s, c, t))
}

/// `crontab -r` removes the user's whole crontab; `crontab /dev/null` replaces it with
/// nothing.
fn crontab(c: &Command) -> Option<String> {
    let a = args(c);
    let removes = has_flag(a, &['r'], &[])
        || operands(a, &["-u"])
            .first()
            .is_some_and(|f| f.text == "/dev/null");
    removes.then(|| format!("`{}` deletes the user's crontab", show(c)))
}

/// `chattr -R +i DIR` makes every file under DIR immutable (`+a`: append-only), which locks
/// its owner out as a recursive chmod would; the attribute operands start with `+`, `-`, `=`.
fn chattr(s: &Subject, c: &Command) -> Option<String> {
    let a = args(c);
    // `-v VERSION`, `-p PROJECT` take a value.
    let value = |i: usize| i > 0 && matches!(a[i - 1].text.as_str(), "-v" | "-p");
    (a.iter().enumerate())
        .filter(|&(i, x)| !x.text.starts_with(['+', '-', '=']) && !value(i))
        .find_map(|(_, t)| outside_as(s, c, t, "changes the attributes of"))
}

/// Docker's deletions of data kept outside the workspace, in the daemon's own directories:
/// volumes (`volume rm`, `volume prune`, `system prune --volumes`, `rm -v`), every stopped
/// container's filesystem (`container prune`, `system prune -a`), and `rm -f` of containers
/// listed only when it runs (`$(docker ps -aq)`). These are judged here rather than by the
/// production guard: a local daemon's volumes are the user's data (databases of every
/// project on the machine), and nothing can bring them back. Images and build cache can be
/// pulled or built again, so their pruning is allowed, and so is `compose down -v`: it
/// removes only the volumes the workspace's own compose file declares, the project's data.
fn containers(c: &Command) -> Option<String> {
    let a = args(c);
    let ops = operands(a, &super::production::DOCKER_VALUED);
    let words: Vec<&str> = ops.iter().map(|o| o.text.as_str()).collect();
    let volumes = has_flag(a, &['v'], &["volumes"]);
    let all = has_flag(a, &['a'], &["all"]);
    let hit = match words.as_slice() {
        ["volume", "rm" | "remove" | "prune", ..] => true,
        ["system", "prune", ..] => volumes || all,
        ["system", "reset", ..] => true,
        ["container", "prune", ..] => true,
        ["rm" | "container", ..] if words.first() == Some(&"rm") || words.get(1) == Some(&"rm") => {
            volumes || has_flag(a, &['f'], &["force"]) && ops.iter().any(|o| o.unresolved)
        }
        _ => false,
    };
    hit.then(|| {
        format!(
            "`{}` deletes data kept outside the workspace (volumes or containers)",
            show(c)
        )
    })
}
