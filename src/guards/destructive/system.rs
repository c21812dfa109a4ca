//! The machine's own state beyond files a path names: its logs, its packages, its users'
//! homes, and the removals systemd-tmpfiles makes from a configuration. What these destroy
//! is never the workspace's.

use super::{outside_as, Subject};
use crate::guards::argv::{args, given, has_flag, operands, program};
use crate::guards::show;
use crate::shell::{Arg, Command};

/// Why `c` destroys the machine's logs, packages or a user's home, if it does.
pub(super) fn destroys(c: &Command) -> Option<String> {
    let a = args(c);
    let why = match program(c) {
        // `--vacuum-size=1K`, `--vacuum-time=1s`, `--vacuum-files=1`: the journal's archived
        // files are deleted down to the limit.
        "journalctl" if a.iter().any(|x| x.text.starts_with("--vacuum-")) => {
            "deletes the system journal's logs"
        }
        // Removing a package the system needs, with the checks that refuse it turned off.
        "dpkg" if dpkg_removes(a) && forced(a) => "removes packages the system needs, forced",
        "rpm" if has_flag(a, &['e'], &["erase"]) && forced(a) => {
            "removes packages the system needs, forced"
        }
        // `userdel -r` deletes the user's home and mail spool; `deluser --remove-home` too.
        "userdel" if has_flag(a, &['r'], &["remove"]) => "deletes a user and their home",
        "deluser" if given(a, &["--remove-home", "--remove-all-files"]) => {
            "deletes a user and their files"
        }
        _ => return None,
    };
    Some(format!("`{}` {why}", show(c)))
}

fn dpkg_removes(a: &[Arg]) -> bool {
    has_flag(a, &['r', 'P'], &["remove", "purge"])
}

/// `--force-all`, `--force-remove-essential`, `--force-depends` (dpkg), `--nodeps` (rpm).
fn forced(a: &[Arg]) -> bool {
    a.iter()
        .any(|x| x.text.starts_with("--force") || x.text == "--nodeps")
}

/// The tmpfiles.d(5) line types `systemd-tmpfiles --remove` removes (`R`/`r` the path,
/// `D` what the directory holds) and those `--clean` ages out (any with an age field).
const REMOVED: [&str; 3] = ["R", "r", "D"];
const CLEANED: [&str; 7] = ["d", "D", "e", "v", "q", "Q", "C"];

/// `systemd-tmpfiles --remove|--clean CONFIG…`: the paths the configuration's lines remove,
/// judged like `rm -r`'s operands. Without an operand it applies the system's own tmpfiles.d,
/// as every boot does; a configuration only known when it runs is the opaque guard's
/// (`unread_config`).
pub(super) fn tmpfiles(s: &Subject, c: &Command) -> Option<String> {
    let a = args(c);
    let remove = given(a, &["--remove"]);
    let clean = given(a, &["--clean"]);
    if !remove && !clean {
        return None;
    }
    let configs = operands(a, &TMPFILES_VALUED);
    let text: String = configs
        .iter()
        .filter_map(|f| read_config(s, c, f))
        .collect::<Vec<_>>()
        .join("\n");
    text.lines().find_map(|line| {
        let mut fields = line.split_whitespace();
        let kind = fields
            .next()?
            .trim_end_matches(['!', '-', '=', '~', '^', '+']);
        let path = fields.next()?;
        let age = fields.nth(3).unwrap_or("-");
        let hit =
            remove && REMOVED.contains(&kind) || clean && CLEANED.contains(&kind) && age != "-";
        hit.then(|| outside_as(s, c, &Arg::literal(path), "removes"))
            .flatten()
    })
}

const TMPFILES_VALUED: [&str; 4] = ["--prefix", "--exclude-prefix", "--root", "--image"];

/// The configuration file's text, read from the disk; `None` when it is only known when the
/// command runs (a process substitution, a computed name, a file not there now).
fn read_config(s: &Subject, c: &Command, f: &Arg) -> Option<String> {
    if f.unresolved {
        return None;
    }
    let p = s.path_in(c, f);
    // tmpfiles.d files are a few lines: a larger one is not read whole.
    // Only a regular file: `/dev/stdin` or a FIFO would be read from, not looked at.
    let meta = std::fs::metadata(&p.path).ok()?;
    (meta.is_file() && meta.len() < 1 << 20)
        .then(|| std::fs::read_to_string(&p.path).ok())
        .flatten()
}

/// `systemd-tmpfiles --remove <(echo 'R ~/docs')`: a configuration whose lines cannot be read
/// now removes what it will name.
pub fn unread_config(s: &Subject, c: &Command) -> bool {
    let a = args(c);
    program(c) == "systemd-tmpfiles"
        && given(a, &["--remove", "--clean"])
        && operands(a, &TMPFILES_VALUED)
            .iter()
            .any(|f| read_config(s, c, f).is_none())
}
