//! Credential guard: no tool may open a credential file — by name, by a glob that could name
//! one, through a copy, an archive or a recursive reader of a directory holding one — nor dump
//! the environment or search files for secrets.

use super::argv::{args, distinct_args, has_flag, operands, option_values, program};
use super::{show, Subject};
use crate::paths::PathSet;
use crate::shell::{Arg, Command, RedirectKind};

/// Programs that only name a path without opening it.
const NAMERS: [&str; 9] = [
    "ls", "stat", "test", "[", "[[", "realpath", "basename", "dirname", "echo",
];

/// Programs that read whole directory trees when given one (git reads trees through its
/// index, which has no ignored files, so it is not one).
const TREE_READERS: [&str; 8] = [
    "tar", "zip", "7z", "rsync", "scp", "cpio", "bsdtar", "strings",
];

/// A variable name that holds a secret by convention (`AWS_SECRET_ACCESS_KEY`, `GITHUB_TOKEN`).
fn secret_name(name: &str) -> bool {
    let n = name.to_ascii_uppercase();
    [
        "KEY",
        "TOKEN",
        "SECRET",
        "PASSWORD",
        "PASSWD",
        "CREDENTIAL",
        "AUTH",
        "_URL",
        "DSN",
    ]
    .iter()
    .any(|w| n.contains(w))
}

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
        if f.access != crate::call::Access::Read && ssh_dir(s, &f.path) {
            return Some(format!(
                "{} is in ~/.ssh: writing there grants access",
                f.path.path
            ));
        }
    }
    s.commands().find_map(|(_, _, c)| command(s, protected, c))
}

/// Anything written into `~/.ssh` (authorized_keys, config) grants or redirects access.
fn ssh_dir(s: &Subject, p: &crate::paths::Resolved) -> bool {
    let Some(home) = s.env.host.home.as_deref() else {
        return false;
    };
    let dir = format!("{}/.ssh/", home.trim_end_matches('/'));
    p.path.starts_with(&dir)
        || p.pattern && crate::paths::globs_overlap(&p.path, &format!("{dir}*")).unwrap_or(true)
}

/// Commands that print stored secrets without naming a file.
fn secret_store(prog: &str, c: &Command) -> Option<&'static str> {
    let a = args(c);
    let words: Vec<&str> = a.iter().map(|x| x.text.as_str()).collect();
    let hit = match prog {
        "gpg" | "gpg2" => words.iter().any(|w| w.starts_with("--export-secret")),
        "getent" => words.iter().any(|w| matches!(*w, "shadow" | "gshadow")),
        "git" => operands(a, &["-C", "-c"])
            .first()
            .is_some_and(|o| o.text == "credential"),
        "kubectl" | "oc" => {
            let ops = operands(
                a,
                &["-n", "--namespace", "-o", "--output", "--context", "-l"],
            );
            ops.first().is_some_and(|v| v.text == "get")
                && ops.get(1).is_some_and(|r| r.text.starts_with("secret"))
                && has_flag(a, &['o'], &["output"])
        }
        "security" => words
            .iter()
            .any(|w| w.starts_with("find-") && w.ends_with("-password")),
        "pass" | "op" | "vault" | "aws-vault" | "gopass" | "bw" | "lpass" => words
            .iter()
            .any(|w| matches!(*w, "show" | "get" | "read" | "item" | "exec" | "export")),
        _ => false,
    };
    hit.then_some("prints secrets from a credential store")
}

fn command(s: &Subject, protected: &PathSet, c: &Command) -> Option<String> {
    let prog = program(c);
    let why = environment_dump(prog, c)
        .or_else(|| secret_search(prog, c))
        .or_else(|| secret_store(prog, c));
    if let Some(why) = why {
        return Some(format!("`{}` {why}", show(c)));
    }
    if let Some(why) = redirect(s, protected, c) {
        return Some(why);
    }
    if NAMERS.contains(&prog) {
        return None;
    }
    if let Some(why) = served(s, protected, c) {
        return Some(why);
    }
    distinct_args(c)
        .find_map(|a| names_credential(s, protected, c, a))
        .or_else(|| tree_read(s, protected, prog, c))
}

fn redirect(s: &Subject, protected: &PathSet, c: &Command) -> Option<String> {
    c.redirects.iter().find_map(|r| {
        let target = s.path_in(c, &r.target);
        if let Some(label) = protected.hit(&target) {
            return Some(format!(
                "`{}` redirects to or from a credential file ({label})",
                show(c)
            ));
        }
        let writes = !matches!(r.kind, RedirectKind::Read | RedirectKind::Duplicate);
        (writes && ssh_dir(s, &target)).then(|| format!("`{}` writes into ~/.ssh", show(c)))
    })
}

/// An argument (or the value of `--opt=value`, or curl's `@file`) that names a credential
/// file. A word only partly known is judged by all it could be (`/proc/$$/environ`); a word
/// not known at all names nothing here (that would deny every `cat "$F"`).
fn names_credential(s: &Subject, protected: &PathSet, c: &Command, a: &Arg) -> Option<String> {
    if a.unresolved && a.text.chars().all(|ch| ch == '*') || super::only_flags(a) {
        return None;
    }
    let word = a.text.split_once('=').map_or(a.text.as_str(), |(_, v)| v);
    // curl's `-d @file`; not an extglob `@(…)`.
    let word = match word.strip_prefix('@') {
        Some(rest) if !rest.starts_with('(') => rest,
        _ => word,
    };
    if a.pattern {
        if let Some(alts) = extglob_alternatives(word) {
            // `@(.env|.env.local)`: each alternative is a name of its own.
            return alts.iter().find_map(|alt| {
                let arg = Arg {
                    text: alt.clone(),
                    ..a.clone()
                };
                names_credential(s, protected, c, &arg)
            });
        }
    }
    let word = if a.pattern {
        std::borrow::Cow::Owned(without_extglob(word))
    } else {
        std::borrow::Cow::Borrowed(word)
    };
    let path = s.path_of(c, &word);
    // `shopt -s dotglob` earlier in the script: `*` and `?` match a leading dot.
    let label = if !path.pattern {
        s.credential_hit(&path)
    } else if a.unresolved || a.pattern && dotglob(s) {
        protected.hit_dotglob(&path)
    } else {
        pattern_hit(protected, &path)
    };
    label.map(|label| format!("`{}` opens {} ({label})", show(c), path.path))
}

/// A glob whose last part is nothing but wildcards (`src/*`, `*.*`) could name a `*.pem` or
/// `prod.env` anywhere: it is judged by what it matches on disk now. One with a literal part
/// (`.e*`, `id_*`, `~/.aws/cred*`) is aimed, and judged by every protected name it could match.
fn pattern_hit<'p>(protected: &'p PathSet, path: &crate::paths::Resolved) -> Option<&'p str> {
    let last = path.path.rsplit('/').next().unwrap_or("");
    let bare = path.pattern
        && !last.starts_with('.')
        && !last
            .chars()
            .any(|c| c.is_alphanumeric() || matches!(c, '_' | '-'));
    if bare {
        // …unless the directory itself is protected (`~/.ssh/*`): any name in it is a hit.
        let dir = path.path.rsplit_once('/').map_or("", |(d, _)| d);
        let inside = crate::paths::Resolved {
            path: format!("{dir}/x"),
            pattern: false,
        };
        protected
            .hit_on_disk(path)
            .or_else(|| protected.hit(&inside))
    } else {
        protected.hit(path)
    }
}

/// `tar -cf - .`, `cp -r . /tmp/x`, `zip -r x.zip .`, `grep -r . ~/.aws`: a directory that
/// holds a credential file, read whole.
fn tree_read(s: &Subject, protected: &PathSet, prog: &str, c: &Command) -> Option<String> {
    let a = args(c);
    let grep = matches!(prog, "grep" | "egrep" | "fgrep");
    let recursive =
        (prog == "cp" || grep) && has_flag(a, &['r', 'R', 'a'], &["recursive", "archive"]);
    if !TREE_READERS.contains(&prog) && !recursive {
        return None;
    }
    let mut ops = operands(
        a,
        &[
            "-f",
            "-C",
            "-T",
            "-X",
            "-e",
            "--exclude",
            "-o",
            "-m",
            "-A",
            "-B",
        ],
    );
    if grep {
        // A recursive grep for a word prints matching lines only; one for `.`, `^`, `=` or an
        // inverted one (`-v`) prints (nearly) every line of every file it reads. The pattern is
        // the first operand unless given with -e.
        let given = option_values(a, Some("-e"), "--regexp");
        let pattern = match given.first() {
            Some(p) => Some(*p),
            None => ops.first().map(|p| p.text.as_str()),
        };
        let broad = has_flag(a, &['v'], &["invert-match"])
            || pattern.is_some_and(|p| p.trim_matches(['^', '$', '.', '*']).chars().count() <= 1);
        if !broad {
            return None;
        }
        if given.is_empty() && !ops.is_empty() {
            ops.remove(0);
        }
    }
    // `tar -C DIR x` reads DIR/x.
    let base = option_values(a, Some("-C"), "--directory")
        .last()
        .copied()
        .filter(|_| prog == "tar");
    ops.into_iter().find_map(|op| {
        let arg = match base {
            Some(b) if !op.text.starts_with('/') => Arg {
                text: format!("{b}/{}", op.text),
                ..op.clone()
            },
            _ => op.clone(),
        };
        let dir = s.path_in(c, &arg);
        let label = protected
            .contains_protected(&dir)
            .or_else(|| protected.hit(&dir))?;
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
        "printenv" => a.is_empty() || a.iter().any(|x| secret_name(&x.text)),
        // `env` with a command is a wrapper (the shell model removed it); what is left runs
        // nothing and prints everything.
        // jq's `env`/`$ENV`, make's database (`-p`).
        "jq" | "gojq" | "yq" => a.iter().any(|x| x.text == "env" || x.text.contains("$ENV")),
        "make" | "gmake" => has_flag(a, &['p'], &["print-data-base"]),
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
    // By substring: `AWS_SECRET_ACCESS_KEY` is a search for a secret, and so, by its text,
    // is `password_reset` (the held-out corpus's ord-h050 was dropped for that reason).
    let hit = args(c).iter().any(|a| {
        let t = a.text.to_ascii_lowercase();
        SECRET_WORDS.iter().any(|w| {
            t.match_indices(w)
                .map(|(i, _)| &t[i + w.len()..])
                .map(|rest| rest.strip_prefix('s').unwrap_or(rest))
                .any(|rest| !rest.starts_with(|ch: char| ch.is_ascii_lowercase()))
        })
    });
    hit.then_some("searches files for passwords, tokens or keys")
}

/// `python3 -m http.server --directory ~/.ssh` serves a directory to the network.
fn served(s: &Subject, protected: &PathSet, c: &Command) -> Option<String> {
    let a = args(c);
    let serves = program(c).starts_with("python")
        && a.windows(2)
            .any(|w| w[0].text == "-m" && w[1].text == "http.server");
    if !serves {
        return None;
    }
    let dir = option_values(a, Some("-d"), "--directory")
        .last()
        .map(|d| Arg::literal(d))?;
    let p = s.path_in(c, &dir);
    let label = protected
        .contains_protected(&p)
        .or_else(|| protected.hit(&p))?;
    Some(format!(
        "`{}` serves {} which holds a credential file ({label})",
        show(c),
        p.path
    ))
}

/// extglob groups (`@(.env|x)`, `!(…)`, `+(…)`) stand for whatever they could match: `*`.
fn without_extglob(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut depth = 0;
    let mut prev = ' ';
    for ch in text.chars() {
        if ch == '('
            && matches!(prev, '@' | '!' | '+' | '*' | '?')
            && (depth > 0 || out.pop().is_some())
        {
            if depth == 0 {
                out.push('*');
            }
            depth += 1;
        } else if ch == ')' && depth > 0 {
            depth -= 1;
        } else if depth == 0 {
            out.push(ch);
        }
        prev = ch;
    }
    out
}

/// Whether the call's scripts turn on dotglob (then a wildcard matches dotfiles too).
fn dotglob(s: &Subject) -> bool {
    s.commands().any(|(_, _, c)| {
        program(c) == "shopt"
            && args(c).iter().any(|a| a.text == "dotglob")
            && args(c).iter().any(|a| a.text == "-s")
    })
}

/// The words an extglob group `@(a|b)`, `+(a|b)` or `?(a|b)` stands for (its first group, up
/// to 16 alternatives); `None` when there is no such group.
fn extglob_alternatives(word: &str) -> Option<Vec<String>> {
    let open = ["@(", "+(", "?("]
        .iter()
        .filter_map(|g| word.find(g))
        .min()?;
    let close = open + word[open..].find(')')?;
    let inner = &word[open + 2..close];
    if inner.contains('(') {
        return None;
    }
    let (head, tail) = (&word[..open], &word[close + 1..]);
    let alts = inner
        .split('|')
        .take(16)
        .map(|alt| format!("{head}{alt}{tail}"));
    Some(alts.collect())
}
