//! Credential guard: no tool may open a credential file — by name, by a glob that could name
//! one, through a copy, an archive or a recursive reader of a directory holding one — nor dump
//! the environment or search files for secrets.

use super::argv::{args, has_flag, operands, program};
use super::{show, Subject};
use crate::paths::PathSet;
use crate::shell::Command;

/// Programs that only name a path without opening it.
const NAMERS: [&str; 9] = [
    "ls", "stat", "test", "[", "[[", "realpath", "basename", "dirname", "echo",
];

/// Programs that read whole directory trees when given one.
const TREE_READERS: [&str; 9] = [
    "tar", "zip", "7z", "rsync", "scp", "cpio", "bsdtar", "strings", "git",
];

/// Words that make a search a search for secrets.
const SECRET_WORDS: [&str; 10] = [
    "password",
    "passwd",
    "secret",
    "token",
    "api_key",
    "apikey",
    "api-key",
    "private_key",
    "private-key",
    "credential",
];

pub fn check(s: &Subject, protected: &PathSet) -> Option<String> {
    for f in &s.view.files {
        if let Some(label) = protected.hit(&f.path) {
            return Some(format!("{} is a credential file ({label})", f.path.path));
        }
    }
    s.commands().find_map(|(_, _, c)| command(s, protected, c))
}

fn command(s: &Subject, protected: &PathSet, c: &Command) -> Option<String> {
    let prog = program(c);
    if let Some(why) = environment_dump(prog, c) {
        return Some(format!("`{}` {why}", show(c)));
    }
    if let Some(why) = secret_search(prog, c) {
        return Some(format!("`{}` {why}", show(c)));
    }
    for r in &c.redirects {
        if let Some(label) = protected.hit(&s.path_in(c, &r.target)) {
            return Some(format!(
                "`{}` redirects to or from a credential file ({label})",
                show(c)
            ));
        }
    }
    if NAMERS.contains(&prog) {
        return None;
    }
    for a in args(c) {
        let word = a.text.split_once('=').map_or(a.text.as_str(), |(_, v)| v);
        let word = word.strip_prefix('@').unwrap_or(word);
        let path = s.path_in(
            c,
            &crate::shell::Arg {
                text: word.to_string(),
                ..a.clone()
            },
        );
        if let Some(label) = protected.hit(&path) {
            return Some(format!("`{}` opens {} ({label})", show(c), path.path));
        }
    }
    tree_read(s, protected, prog, c)
}

/// `tar -cf - .`, `cp -r . /tmp/x`, `zip -r x.zip .`: a directory that holds a credential file.
fn tree_read(s: &Subject, protected: &PathSet, prog: &str, c: &Command) -> Option<String> {
    let recursive_copy = matches!(prog, "cp" | "grep" | "egrep" | "fgrep")
        && has_flag(args(c), &['r', 'R', 'a'], &["recursive", "archive"]);
    if !TREE_READERS.contains(&prog) && !recursive_copy {
        return None;
    }
    if prog == "git" || matches!(prog, "grep" | "egrep" | "fgrep") {
        // git reads trees through its index, which has no ignored files; a recursive grep
        // for a word prints matching lines only (secret searches are caught above).
        return None;
    }
    operands(args(c), &["-f", "-C", "-T", "-X", "-e", "--exclude", "-o"])
        .into_iter()
        .find_map(|a| {
            let dir = s.path_in(c, a);
            let label = protected.contains_protected(&dir)?;
            Some(format!(
                "`{}` reads {} which holds a credential file ({label})",
                show(c),
                dir.path
            ))
        })
}

/// The whole environment printed: where API keys of the agent's process live.
fn environment_dump(prog: &str, c: &Command) -> Option<&'static str> {
    let a = args(c);
    let dumps = match prog {
        "printenv" => true,
        // `env` with a command is a wrapper (the shell model removed it); what is left runs
        // nothing and prints everything.
        "env" => operands(a, &["-u", "-C", "-S"])
            .iter()
            .all(|o| o.text.contains('=')),
        "set" | "export" | "declare" | "typeset" => {
            a.is_empty()
                || a.iter()
                    .all(|x| matches!(x.text.as_str(), "-p" | "-x" | "-px" | "-xp"))
        }
        "compgen" => has_flag(a, &['v', 'e'], &[]),
        "ps" => a
            .iter()
            .any(|x| !x.text.starts_with('-') && x.text.contains('e')),
        _ => false,
    };
    dumps.then_some("prints the environment, where the agent's keys and tokens live")
}

fn secret_search(prog: &str, c: &Command) -> Option<&'static str> {
    let searches = matches!(
        prog,
        "grep" | "egrep" | "fgrep" | "rg" | "ag" | "ack" | "findstr"
    ) || (prog == "git" && args(c).first().is_some_and(|a| a.text == "grep"));
    if !searches {
        return None;
    }
    let hit = args(c).iter().any(|a| {
        let t = a.text.to_ascii_lowercase();
        SECRET_WORDS.iter().any(|w| t.contains(w))
    });
    hit.then_some("searches files for passwords, tokens or keys")
}
