//! Credential guard: no tool may open a credential file — by name, by a glob that could name
//! one, through a copy, an archive or a recursive reader of a directory holding one — nor dump
//! the environment or search files for secrets.

use super::argv::{args, has_flag, listed, operands, option_values, program};
use super::{show, Subject};
use crate::paths::PathSet;
use crate::shell::{Arg, Command, RedirectKind, Script};

mod stores;

/// Programs that only name a path without showing what it holds: they list, test, create,
/// delete or change the mode of a file, count its lines, print their words, or set variables
/// (`export PATH="$HOME/bin:$PATH"`; a bare `export` dumps the environment, judged before).
/// `:`, `true` and `false` ignore their words (a prompt string is judged as `: "$PS1"`).
const NAMERS: [&str; 27] = [
    "ls", "stat", "test", "[", "[[", "realpath", "basename", "dirname", "echo", "printf", "touch",
    "chmod", "chown", "chgrp", "rm", "rmdir", "mkdir", "wc", "export", "readonly", "local",
    "declare", "typeset", "unset", ":", "true", "false",
];

/// Programs that read whole directory trees when given one (git reads trees through its
/// index, which has no ignored files, so it is not one).
const TREE_READERS: [&str; 8] = [
    "tar", "zip", "7z", "rsync", "scp", "cpio", "bsdtar", "strings",
];

/// A variable name that holds a secret by convention (`AWS_SECRET_ACCESS_KEY`, `GITHUB_TOKEN`,
/// `DATABASE_URL`, `NPM_AUTH`). A framework's public settings are not (`PUBLIC_URL`,
/// `NEXT_PUBLIC_API_BASE`): they are built into the pages it serves, unless the name says
/// secret or private all the same.
pub(super) fn secret_name(name: &str) -> bool {
    let n = name.to_ascii_uppercase();
    let said = |words: &[&str]| words.iter().any(|w| n.contains(w));
    if PUBLIC_PREFIXES.iter().any(|p| n.starts_with(p))
        && !said(&["SECRET", "PASSWORD", "PASSWD", "PRIVATE"])
    {
        return false;
    }
    said(&[
        "KEY",
        "TOKEN",
        "SECRET",
        "PASSWORD",
        "PASSWD",
        "CREDENTIAL",
        "_URL",
        "DSN",
    ]) || n.split(|c: char| !c.is_ascii_alphanumeric()).any(auth_word)
}

/// The prefixes of settings that Next.js, Expo, Nuxt, Vite, create-react-app and SvelteKit
/// put into the code they send to browsers.
const PUBLIC_PREFIXES: [&str; 6] = [
    "NEXT_PUBLIC_",
    "EXPO_PUBLIC_",
    "NUXT_PUBLIC_",
    "VITE_",
    "REACT_APP_",
    "PUBLIC_",
];

/// `AUTH` as a word of a name, or at a word's end or start (`AUTH`, `OAUTH`, `NPM_AUTH`,
/// `AUTHTOKEN`, `AUTHORIZATION`), not in `AUTHOR` or `AUTHORITY`.
fn auth_word(w: &str) -> bool {
    w.ends_with("AUTH")
        || w.starts_with("AUTH") && (!w.starts_with("AUTHOR") || w.starts_with("AUTHORIZ"))
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
    let keyed = s.is_default_set(protected);
    for f in &s.view.files {
        // A keyed file (`.yarnrc.yml`) is a credential for what it holds: writing it is not
        // reading it.
        let read = f.access == crate::call::Access::Read;
        let label = protected
            .hit(&f.path)
            .or_else(|| (keyed && read).then(|| crate::paths::keyed::hit(&f.path))?);
        if let Some(label) = label {
            return Some(format!("{} is a credential file ({label})", f.path.path));
        }
        if f.access != crate::call::Access::Read && ssh_dir(s, &f.path) {
            return Some(format!(
                "{} is in ~/.ssh: writing there grants access",
                f.path.path
            ));
        }
    }
    s.commands().find_map(|(script, i, c)| {
        let why = command(s, protected, c)?;
        (!only_counted(script, i, c)).then_some(why)
    })
}

/// An environment dump whose output only a counter reads (`env | wc -l`, `env | grep -c .`):
/// no value is shown. Written to a file, or read by anything else, it is a dump.
fn only_counted(script: &Script, i: usize, c: &Command) -> bool {
    let prog = program(c);
    if environment_dump(prog, c).is_none() || printed_secret_variable(prog, c).is_some() {
        return false;
    }
    let to_file =
        (c.redirects.iter()).any(|r| matches!(r.kind, RedirectKind::Write | RedirectKind::Append));
    let mut readers = script
        .commands
        .iter()
        .filter(|r| r.inputs.contains(&i))
        .peekable();
    !to_file && readers.peek().is_some() && readers.all(counts_only)
}

/// `wc`, or a grep that prints a count or nothing (`-c`, `-q`, also inside `-ic`; a letter
/// after an option that takes a value is that value: `-ec` searches for `c`).
fn counts_only(c: &Command) -> bool {
    let a = args(c);
    match program(c) {
        "wc" => true,
        "grep" | "egrep" | "fgrep" | "rg" => a.iter().any(|x| {
            let t = x.text.as_str();
            match t.strip_prefix("--") {
                Some(long) => matches!(long, "count" | "quiet" | "silent"),
                None => t.strip_prefix('-').is_some_and(|cluster| {
                    (cluster.chars())
                        .take_while(|l| !"efmABCdD".contains(*l))
                        .any(|l| l == 'c' || l == 'q')
                }),
            }
        }),
        _ => false,
    }
}

/// Anything written into `~/.ssh` (authorized_keys, config) grants or redirects access.
fn ssh_dir(s: &Subject, p: &crate::paths::Resolved) -> bool {
    let Some(home) = s.env.host.home.as_deref() else {
        return false;
    };
    let home = home.trim_end_matches('/');
    // Compared in place: every redirect and copy of every call asks.
    let inside = (p.path.strip_prefix(home)).is_some_and(|rest| rest.starts_with("/.ssh/"));
    inside
        || p.pattern
            && crate::paths::globs_overlap(&p.path, &format!("{home}/.ssh/*")).unwrap_or(true)
}

fn command(s: &Subject, protected: &PathSet, c: &Command) -> Option<String> {
    let prog = program(c);
    if let Some(name) = printed_secret_variable(prog, c) {
        let what = match name {
            crate::shell::ANY_VARIABLE => "a variable named only when it runs (any secret)".into(),
            n => format!("${n}, a secret"),
        };
        return Some(format!("`{}` prints {what} from the environment", show(c)));
    }
    let why = environment_dump(prog, c)
        .or_else(|| secret_search(prog, c))
        .or_else(|| stores::printed_secret(prog, c))
        .or_else(|| in_container(c));
    if let Some(why) = why {
        return Some(format!("`{}` {why}", show(c)));
    }
    if let Some(why) = pip_config_shown(s, prog, c) {
        return Some(format!("`{}` prints pip's config files: {why}", show(c)));
    }
    if let Some(why) = redirect(s, protected, c) {
        return Some(why);
    }
    if prog == "git" {
        if let Some(why) = super::git::exposes(s, protected, c) {
            return Some(why);
        }
        let keyed = s.is_default_set(protected);
        if let Some(why) = keyed
            .then(|| super::git::prints_config_secret(s, c))
            .flatten()
        {
            return Some(why);
        }
    }
    // `wc --files0-from=F`, `find -files0-from F` read file names from F and print each
    // unknown one back.
    let names_from_file =
        || (args(c).iter()).any(|a| a.text.trim_start_matches('-').starts_with("files0-from"));
    if listed(&NAMERS, prog) && !names_from_file() {
        return None;
    }
    if let Some(why) = served(s, protected, c) {
        return Some(why);
    }
    if let Some(why) = awk_operands(s, protected, prog, c) {
        return Some(why);
    }
    let copies = matches!(prog, "cp" | "mv" | "install");
    // Words that are no file (a pattern, a message) are left out; then each word is judged
    // where it stands, since the same text may also be a file further on (`grep .env .env`).
    let skip = not_files(s, prog, c);
    let some = (!skip.is_empty()).then(|| {
        (args(c).iter().enumerate())
            .filter(move |(i, _)| !skip.contains(i))
            .map(|(_, a)| a)
    });
    let distinct = some.is_none().then(|| s.distinct_args(c));
    (some.into_iter().flatten())
        .chain(distinct.into_iter().flatten())
        .filter(|a| !copies || !fresh_copy(s, c, a))
        .find_map(|a| names_credential(s, protected, c, a))
        .or_else(|| tree_read(s, protected, prog, c))
        .or_else(|| linked_tree(s, protected, prog, c))
}

/// `pip config list|get|debug` prints pip's config files as written, which are protected by
/// place; judged by what they hold (`paths::keyed::pip_config`), as `pip config list` is also
/// how one looks at harmless settings.
fn pip_config_shown(s: &Subject, prog: &str, c: &Command) -> Option<&'static str> {
    if !matches!(prog, "pip" | "pip3") {
        return None;
    }
    let ops = operands(args(c), &["--editor", "--log", "--cache-dir", "--python"]);
    let verb = match ops.as_slice() {
        [first, verb, ..] if first.text == "config" => verb.text.as_str(),
        _ => return None,
    };
    if !matches!(verb, "list" | "get" | "debug") {
        return None;
    }
    crate::paths::keyed::pip_config(s.env.host.home.as_deref())
}

/// Positions in `args(c)` of words that name no file the program shows: a search's pattern
/// (`grep -rn .env src`), a commit's message, the operands of git commands that only list,
/// untrack or delete, and files a key generator writes in the workspace.
fn not_files(s: &Subject, prog: &str, c: &Command) -> Vec<usize> {
    let a = args(c);
    let at = |x: &Arg| a.iter().position(|y| std::ptr::eq(x, y));
    match prog {
        "grep" | "egrep" | "fgrep" | "rg" => {
            search_pattern(prog, a).and_then(at).into_iter().collect()
        }
        "git" => git_non_files(a),
        "openssl" => written_here(s, c, &["-out", "-keyout"]),
        "mkcert" => written_here(s, c, &["-key-file", "-cert-file", "-p12-file"]),
        "ssh" | "scp" | "sftp" | "ssh-copy-id" => identity_files(a),
        "ssh-keygen" if generates_key(a) => written_here(s, c, &["-f"]),
        "kubectl" | "oc" | "kubecolor" | "helm" => kubeconfig_files(a),
        "find" => listed_only(a),
        "pnpm" | "npm" | "yarn" | "turbo" | "lerna" | "nx" => selectors(a),
        _ => Vec::new(),
    }
}

/// A package manager's workspace selectors (`pnpm --filter ./packages/**`, `-F`, `--scope`,
/// `--workspace`): which packages a script runs in, not files it shows.
fn selectors(a: &[Arg]) -> Vec<usize> {
    const SELECTORS: [&str; 6] = ["--filter", "-F", "--scope", "--workspace", "-w", "--ignore"];
    let mut out = Vec::new();
    for (i, x) in a.iter().enumerate() {
        let t = x.text.as_str();
        if SELECTORS.contains(&t) {
            out.push(i + 1);
        } else if SELECTORS
            .iter()
            .any(|f| t.starts_with(f) && t[f.len()..].starts_with('='))
        {
            out.push(i);
        }
    }
    out
}

/// `ssh -i KEY`, `-iKEY`, `-o IdentityFile=KEY`: ssh signs with the key and never shows it
/// (ssh-copy-id sends KEY.pub). The files scp copies are operands, still judged.
fn identity_files(a: &[Arg]) -> Vec<usize> {
    let mut out = Vec::new();
    for (i, x) in a.iter().enumerate() {
        let t = x.text.as_str();
        let option = t.strip_prefix("-o").map(str::trim_start);
        if t == "-i" || t == "-o" {
            let value = a.get(i + 1).map_or("", |v| v.text.as_str());
            let identity = t == "-i" || is_identity_option(value);
            if identity && i + 1 < a.len() {
                out.push(i + 1);
            }
        } else if t.starts_with("-i") && !t.starts_with("--")
            || option.is_some_and(is_identity_option)
        {
            out.push(i);
        }
    }
    out
}

/// `kubectl --kubeconfig FILE`, `helm --kubeconfig=FILE`: the client signs in with the
/// file and never shows it (`config view --raw`, which does, is judged as a printed secret
/// first, `stores`).
fn kubeconfig_files(a: &[Arg]) -> Vec<usize> {
    let mut out = Vec::new();
    for (i, x) in a.iter().enumerate() {
        match x.text.strip_prefix("--kubeconfig") {
            Some("") if i + 1 < a.len() => out.push(i + 1),
            Some(v) if v.starts_with('=') => out.push(i),
            _ => {}
        }
    }
    out
}

/// A find that runs nothing only prints names: its words are start points and tests
/// (`-name '*.pem'`), none of them opened. With `-exec`/`-ok` the words stay judged, since they
/// are what the command runs on; `-files0-from F` and `-fprint F` name files it reads or writes.
fn listed_only(a: &[Arg]) -> Vec<usize> {
    let runs = a
        .iter()
        .any(|x| x.text.starts_with("-exec") || x.text.starts_with("-ok"));
    if runs {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut skip_next = false;
    for (i, x) in a.iter().enumerate() {
        let t = x.text.as_str();
        if skip_next {
            skip_next = false;
        } else if t.trim_start_matches('-').starts_with("files0-from")
            || t.starts_with("-fprint")
            || t == "-fls"
        {
            skip_next = true;
        } else {
            out.push(i);
        }
    }
    out
}

/// `ssh-keygen [-t TYPE] -f FILE`: with none of its reading modes (`-y` public key of, `-l`
/// fingerprint, `-p` new passphrase, `-e`/`-i` convert, `-R`/`-F`/`-H` known_hosts, `-c`
/// comment, `-s` sign, `-D`/`-k`/`-L`/`-Q`/`-Y`/`-B` others) it creates a key pair at FILE,
/// printing only the fingerprint.
fn generates_key(a: &[Arg]) -> bool {
    const READING: [char; 16] = [
        'y', 'l', 'p', 'e', 'i', 'R', 'F', 'H', 'c', 'D', 'k', 'L', 'Q', 's', 'Y', 'B',
    ];
    let flags = a
        .iter()
        .filter(|x| x.text.starts_with('-') && !x.text.starts_with("--"));
    !flags.into_iter().any(|x| {
        x.text[1..]
            .chars()
            .next()
            .is_some_and(|f| READING.contains(&f))
    })
}

fn is_identity_option(o: &str) -> bool {
    let name = o.split(['=', ' ']).next().unwrap_or("");
    name.eq_ignore_ascii_case("IdentityFile") || name.eq_ignore_ascii_case("CertificateFile")
}

/// The pattern of `grep PATTERN FILE…` / `rg PATTERN PATH…`: the first operand, unless the
/// pattern is given with `-e`/`-f` (then every operand is a file). Options listed as taking
/// the next word are only those that surely do: a wrong entry would skip a file.
fn search_pattern<'a>(prog: &str, a: &'a [Arg]) -> Option<&'a Arg> {
    let given = a.iter().take_while(|x| x.text != "--").any(|x| {
        let t = x.text.as_str();
        matches!(t, "--regexp" | "--file")
            || t.starts_with("--regexp=")
            || t.starts_with("--file=")
            || !t.starts_with("--") && t.starts_with('-') && t[1..].contains(['e', 'f'])
    });
    if given {
        return None;
    }
    const GREP: &[&str] = &[
        "-A",
        "-B",
        "-C",
        "-m",
        "-d",
        "-D",
        "--after-context",
        "--before-context",
        "--context",
        "--max-count",
        "--directories",
        "--devices",
        "--label",
        "--include",
        "--exclude",
        "--exclude-dir",
        "--exclude-from",
        "--binary-files",
        "--group-separator",
    ];
    const RG: &[&str] = &[
        "-A",
        "-B",
        "-C",
        "-m",
        "-g",
        "-t",
        "-T",
        "-j",
        "-M",
        "-E",
        "-r",
        "-d",
        "--glob",
        "--iglob",
        "--type",
        "--type-not",
        "--threads",
        "--max-columns",
        "--encoding",
        "--replace",
        "--max-count",
        "--max-depth",
        "--max-filesize",
        "--context",
        "--after-context",
        "--before-context",
        "--sort",
        "--sortr",
        "--colors",
        "--path-separator",
        "--pre",
        "--pre-glob",
        "--type-add",
        "--ignore-file",
        "--engine",
    ];
    let valued = if prog == "rg" { RG } else { GREP };
    operands(a, valued).first().copied()
}

/// git: the message of `commit`/`tag`/`merge`/`notes`/`stash` (`-m MSG`, `-am MSG`,
/// `--message=MSG`), and every word after `rm`, `check-ignore`, `ls-files`, `clean`, or a `log` that
/// shows no patch: none of these prints what a file holds, unless it reads its pathspecs from
/// a file (`git rm --pathspec-from-file=.env` prints each unmatched line back).
fn git_non_files(a: &[Arg]) -> Vec<usize> {
    let ops = operands(a, &super::argv::GIT_VALUED);
    let Some(sub) = ops.first() else {
        return Vec::new();
    };
    let Some(start) = a.iter().position(|x| std::ptr::eq(x, *sub)) else {
        return Vec::new();
    };
    let after = start + 1..a.len();
    if a[after.clone()]
        .iter()
        .any(|x| x.text.starts_with("--pathspec-from-file"))
    {
        return Vec::new();
    }
    match sub.text.as_str() {
        // Not `status`: `status -v`, or `status.verbose` in the repo's config, prints the diff.
        // `clean` prints the names it removes (`-n`), never what they hold: its words are
        // pathspecs and `-e PATTERN` exclusions.
        "rm" | "check-ignore" | "ls-files" | "clean" => after.collect(),
        "log" if !a[after.clone()].iter().any(git_patch_flag) => after.collect(),
        "commit" | "tag" | "merge" | "notes" | "stash" => after
            .filter(|&i| {
                let t = a[i].text.as_str();
                let prev = a[i - 1].text.as_str();
                let short_m =
                    !prev.starts_with("--") && prev.starts_with('-') && prev.ends_with('m');
                t.starts_with("--message=") || prev == "--message" || short_m
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// A flag that makes `git log` print diffs: `-p`, `-u`, `-U<n>`, `-L…`, the merge diffs (`-c`,
/// `--cc`, `-m`, `--remerge-diff`, `--diff-merges`), word diffs; short flags also bundled
/// (`-pU1`), up to a letter whose value is the rest of the word (`-Spassword`).
fn git_patch_flag(x: &Arg) -> bool {
    let t = x.text.as_str();
    const LONG: [&str; 7] = [
        "--diff-merges",
        "--cc",
        "--full-diff",
        "--remerge-diff",
        "--patch",
        "--word-diff",
        "--color-words",
    ];
    if t.starts_with("--") {
        return LONG.iter().any(|p| t.starts_with(p));
    }
    let Some(bundle) = t.strip_prefix('-') else {
        return false;
    };
    for ch in bundle.chars() {
        match ch {
            'p' | 'u' | 'c' | 'm' | 'U' | 'L' => return true,
            'S' | 'G' | 'n' | 'O' => return false,
            _ => {}
        }
    }
    false
}

/// The values of `flags` that are files created in the workspace (`openssl genrsa -out
/// certs/dev.key`): written, not read.
fn written_here(s: &Subject, c: &Command, flags: &[&str]) -> Vec<usize> {
    let a = args(c);
    (1..a.len())
        .filter(|&i| flags.contains(&a[i - 1].text.as_str()))
        .filter(|&i| written_in_workspace(s, &s.path_in(c, &a[i])))
        .collect()
}

/// `ln -s ~/.kube k && cat k/config`: a link to a directory holding credentials gives them
/// a name no guard knows (a link to the file itself is caught as naming it).
fn linked_tree(s: &Subject, protected: &PathSet, prog: &str, c: &Command) -> Option<String> {
    if prog != "ln" {
        return None;
    }
    let ops = operands(args(c), &["-t", "--target-directory", "-S", "--suffix"]);
    let targets = match ops.len() {
        0 => return None,
        1 => &ops[..],
        n => &ops[..n - 1],
    };
    targets.iter().find_map(|t| {
        let dir = s.path_in(c, t);
        // Inside the workspace, protected names (`.env`) stay protected through the link.
        if s.inside_workspace(&dir) || is_workspace(s, &dir) {
            return None;
        }
        let label = tree_hit(s, protected, &dir)?;
        Some(format!(
            "`{}` links to {} which holds a credential file ({label})",
            show(c),
            dir.path
        ))
    })
}

/// `cp .env.example .env`: the destination of a copy or move inside the workspace is written,
/// not read — a new dotenv file from a template shows no secret (its source is still judged).
fn fresh_copy(s: &Subject, c: &Command, a: &Arg) -> bool {
    if !matches!(program(c), "cp" | "mv" | "install") {
        return false;
    }
    let a_args = args(c);
    let targeted = a_args
        .iter()
        .any(|x| x.text == "-t" || x.text.starts_with("--target-directory"));
    let ops = operands(a_args, &["-m", "--mode", "-o", "-g", "-S", "--suffix"]);
    let is_dest = !targeted && ops.len() >= 2 && ops.last().is_some_and(|d| std::ptr::eq(*d, a));
    is_dest && written_in_workspace(s, &s.path_in(c, a))
}

/// A file the agent writes in its own workspace (not one reached through `~/.ssh`).
fn written_in_workspace(s: &Subject, p: &crate::paths::Resolved) -> bool {
    !p.pattern && s.inside_workspace(p) && !ssh_dir(s, p)
}

fn redirect(s: &Subject, protected: &PathSet, c: &Command) -> Option<String> {
    c.redirects.iter().find_map(|r| {
        let target = s.path_in(c, &r.target);
        // `echo 'PORT=3000' >> .env` writes the workspace's own dotenv file, reading nothing.
        let writes_only = matches!(r.kind, RedirectKind::Write | RedirectKind::Append);
        if writes_only && written_in_workspace(s, &target) {
            return None;
        }
        if let Some(label) = judged_hit(s, protected, &r.target, &target) {
            return Some(format!(
                "`{}` redirects to or from a credential file ({label})",
                show(c)
            ));
        }
        let writes = !matches!(r.kind, RedirectKind::Read | RedirectKind::Duplicate);
        // Host keys appended to known_hosts (`ssh-keyscan github.com >> ~/.ssh/known_hosts`)
        // grant nobody access; anything else written there may.
        let known_hosts =
            r.kind == RedirectKind::Append && target.path.ends_with("/.ssh/known_hosts");
        (writes && !known_hosts && ssh_dir(s, &target))
            .then(|| format!("`{}` writes into ~/.ssh", show(c)))
    })
}

/// An argument (or the value of `--opt=value`, or curl's `@file`) that names a credential
/// file. A word only partly known is judged by all it could be (`/proc/$$/environ`); a word
/// not known at all names nothing here (that would deny every `cat "$F"`).
fn names_credential(s: &Subject, protected: &PathSet, c: &Command, a: &Arg) -> Option<String> {
    if a.unresolved && a.text.chars().all(|ch| ch == '*') || super::only_flags(a) {
        return None;
    }
    let word = super::argv::path_word(a);
    // `make VERSION=$(git describe)`, `--name="$N"`: a value not known at all names nothing,
    // as a word not known at all does not.
    if a.unresolved && word.chars().all(|ch| ch == '*') {
        return None;
    }
    if let Some(files) = file_url_files(c, a, word) {
        return files
            .iter()
            .find_map(|f| names_credential(s, protected, c, f));
    }
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
    let label = judged_hit(s, protected, a, &path);
    label.map(|label| format!("`{}` opens {} ({label})", show(c), path.path))
}

/// The files a `file://` URL names, percent-decoded; for curl also through its URL globbing
/// (`{a,b}` alternatives, `[a-z]` ranges, unless `-g`/`--globoff`), each alternative a word
/// and a range any character. `None`: the word is no such URL.
fn file_url_files(c: &Command, a: &Arg, word: &str) -> Option<Vec<Arg>> {
    let lower = word.get(..7)?;
    if !lower.eq_ignore_ascii_case("file://") {
        return None;
    }
    // Quoted glob characters come escaped (`\[`): curl sees them bare.
    let bare = word.replace('\\', "");
    let globs = program(c) == "curl" && !has_flag(args(c), &['g'], &["globoff"]);
    let urls = if globs {
        curl_alternatives(&bare)
    } else {
        vec![bare]
    };
    let files = urls.iter().filter_map(|u| {
        let ranged = globs && u.contains('[');
        let path = crate::paths::url_file_path(u)?;
        Some(Arg {
            text: if ranged {
                ranges_as_wildcards(&path)
            } else {
                crate::paths::glob_escape(&path)
            },
            pattern: ranged,
            unresolved: a.unresolved,
        })
    });
    Some(files.collect())
}

/// A path with curl's `[a-z]` ranges as the glob `*` (each could be any character), the rest
/// escaped.
fn ranges_as_wildcards(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut in_range = false;
    for ch in path.chars() {
        match ch {
            '[' if !in_range => {
                in_range = true;
                out.push('*');
            }
            ']' if in_range => in_range = false,
            _ if in_range => {}
            c => out.push_str(&crate::paths::glob_escape(c.encode_utf8(&mut [0; 4]))),
        }
    }
    out
}

/// curl's `{a,b}` sets expanded (up to 16 URLs).
fn curl_alternatives(url: &str) -> Vec<String> {
    let mut out = vec![url.to_string()];
    for _ in 0..4 {
        let mut next = Vec::new();
        for u in &out {
            let (Some(open), Some(close)) = (u.find('{'), u.find('}')) else {
                next.push(u.clone());
                continue;
            };
            if close < open {
                next.push(u.clone());
                continue;
            }
            for alt in u[open + 1..close].split(',').take(16) {
                next.push(format!("{}{alt}{}", &u[..open], &u[close + 1..]));
            }
        }
        next.truncate(16);
        out = next;
    }
    out
}

/// The protected entry a word's resolved path may name: a literal path by lookup, a word
/// partly unknown (`/proc/$PPID/environ`) by everything it could be, an aimed glob by every
/// protected name it could match.
fn judged_hit<'a: 'p, 'p>(
    s: &Subject<'a>,
    protected: &'p PathSet,
    a: &Arg,
    path: &crate::paths::Resolved,
) -> Option<&'p str> {
    if a.unresolved && a.text.chars().all(|ch| ch == '*') {
        return None;
    }
    // `shopt -s dotglob` earlier in the script: `*` and `?` match a leading dot.
    let label = if !path.pattern {
        s.credential_hit(protected, path)
    } else if a.unresolved || a.pattern && dotglob(s) {
        protected.hit_dotglob(path)
    } else {
        pattern_hit(protected, path)
    };
    // Files protected by what they hold (`.yarnrc.yml` with a token) are the default set's.
    let keyed = || s.is_default_set(protected);
    label.or_else(|| keyed().then(|| crate::paths::keyed::hit(path))?)
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

/// `PathSet::contains_protected`, and for the default set a keyed file holding a credential
/// directly in `dir` (a project's `.yarnrc.yml` with a token: `grep -rn npmAuthToken .`).
fn tree_hit<'p>(
    s: &Subject,
    protected: &'p PathSet,
    dir: &crate::paths::Resolved,
) -> Option<&'p str> {
    protected.contains_protected(dir).or_else(|| {
        s.is_default_set(protected)
            .then(|| crate::paths::keyed::in_dir(dir))?
    })
}

/// `tar -cf - .`, `cp -r . /tmp/x`, `zip -r x.zip .`, `grep -r . ~/.aws`: a directory that
/// holds a credential file, read whole.
fn tree_read(s: &Subject, protected: &PathSet, prog: &str, c: &Command) -> Option<String> {
    let a = args(c);
    let search = tree_search(prog, c);
    let recursive = prog == "cp" && has_flag(a, &['r', 'R', 'a'], &["recursive", "archive"]);
    // `python3 -m tarfile -c out.tar DIR`, `-m zipfile -c`: the standard library's archivers.
    let module = prog.starts_with("python")
        && a.windows(2)
            .any(|w| w[0].text == "-m" && matches!(w[1].text.as_str(), "tarfile" | "zipfile"));
    if !listed(&TREE_READERS, prog) && !recursive && !search && !module {
        return None;
    }
    if search {
        return searched_tree(s, protected, c);
    }
    // scp's identity, config and jump options take a value, which is not copied.
    let valued: &[&str] = if prog == "scp" {
        &["-i", "-F", "-o", "-P", "-J", "-l", "-S", "-c"]
    } else {
        &["-f", "-C", "-T", "-X", "--exclude", "-o", "-m"]
    };
    let ops = operands(a, valued);
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
        let label = tree_hit(s, protected, &dir).or_else(|| protected.hit(&dir))?;
        Some(format!(
            "`{}` reads {} which holds a credential file ({label})",
            show(c),
            dir.path
        ))
    })
}

/// Options of grep, rg, ag and ack whose value is the next word (not `-E`, `-T`: grep's are
/// flags, and taking them as valued would make the pattern look like a path).
const SEARCH_VALUED: [&str; 19] = [
    "-e",
    "-f",
    "-m",
    "-A",
    "-B",
    "-C",
    "-g",
    "-t",
    "-d",
    "-j",
    "--glob",
    "--type",
    "--type-not",
    "--regexp",
    "--file",
    "--max-count",
    "--exclude",
    "--include",
    "--max-depth",
];

/// A recursive search prints the lines it matches in every file of the trees it walks. One for
/// a secret word (`grep -ri password .`) or for (nearly) everything (`.`, `^`, `=`, `-v`)
/// prints the secrets of any dotenv or key file there: the tree is judged by what it holds on
/// disk, and a project root is taken to hold a dotenv file, which is where every framework
/// keeps it: the workspace, a directory above it, or one outside it (which may be another
/// project). Subdirectories of the workspace (`src/`) are judged by the disk. Searches that
/// print no lines (`-l`, `-c`, `-q`) or only read files named by `--include`/`-g`/`-t` are
/// judged by the disk alone.
fn searched_tree(s: &Subject, protected: &PathSet, c: &Command) -> Option<String> {
    let a = args(c);
    let mut ops = operands(a, &SEARCH_VALUED);
    let given = option_values(a, Some("-e"), "--regexp");
    let from_file = !option_values(a, Some("-f"), "--file").is_empty();
    let pattern = match given.first() {
        Some(p) => Some(*p),
        None if from_file => None,
        None => ops.first().map(|p| p.text.as_str()),
    };
    if given.is_empty() && !from_file && !ops.is_empty() {
        ops.remove(0);
    }
    let broad = has_flag(a, &['v'], &["invert-match"])
        || from_file
        || pattern.is_some_and(|p| p.trim_matches(['^', '$', '.', '*']).chars().count() <= 1);
    if !broad && !secret_words(c) {
        return None;
    }
    let quiet = has_flag(
        a,
        &['l', 'L', 'c', 'q'],
        &[
            "files-with-matches",
            "files-without-match",
            "count",
            "quiet",
        ],
    );
    let filtered = a.iter().any(|x| {
        let t = x.text.as_str();
        ["--include", "-g", "--glob", "-t", "--type"]
            .iter()
            .any(|f| t == *f || t.starts_with(&format!("{f}=")))
    });
    // rg, ag and ack given no path search what is piped to them, not the directory (grep -r
    // searches `.` whatever its stdin).
    if ops.is_empty() && !args(c).is_empty() && piped_search(c) {
        return None;
    }
    let here = Arg::literal(".");
    let roots = if ops.is_empty() { vec![&here] } else { ops };
    roots.into_iter().find_map(|op| {
        let dir = s.path_in(c, op);
        let label = tree_hit(s, protected, &dir)
            .or_else(|| protected.hit(&dir))
            .or_else(|| {
                let presumed = !s.inside_workspace(&dir);
                (!quiet && !filtered && presumed).then_some("a project's dotenv file")
            })?;
        Some(format!(
            "`{}` prints lines of every file under {} which holds a credential file ({label})",
            show(c),
            dir.path
        ))
    })
}

/// The agent's workspace itself.
fn is_workspace(s: &Subject, dir: &crate::paths::Resolved) -> bool {
    s.view
        .workspace
        .as_deref()
        .is_some_and(|ws| ws.trim_end_matches('/') == dir.path.trim_end_matches('/'))
}

/// Programs that print their words or their stdin (a here-string): `echo "$GITHUB_TOKEN"`,
/// `base64 <<< "$AWS_SECRET_ACCESS_KEY"`. Passing a token to the program that uses it
/// (`curl -H "Authorization: Bearer $GITHUB_TOKEN"`) is not printing it.
const PRINTERS: [&str; 12] = [
    "echo", "printf", "print", "cat", "tee", "base64", "base32", "xxd", "od", "hexdump", "rev",
    "logger",
];

/// A secret-named variable from the host environment expanded into a printing command.
fn printed_secret_variable<'c>(prog: &str, c: &'c Command) -> Option<&'c str> {
    if !listed(&PRINTERS, prog) {
        return None;
    }
    c.env_reads
        .iter()
        .find(|n| secret_name(n) || *n == crate::shell::ANY_VARIABLE)
        .map(String::as_str)
}

/// The whole environment printed: where API keys of the agent's process live.
fn environment_dump(prog: &str, c: &Command) -> Option<&'static str> {
    let a = args(c);
    // `strace -v CMD` prints the whole environment of every execve it traces, CMD's first.
    if c.wrappers.iter().any(|w| w == "strace -v") {
        return Some("prints the environment, where the agent's keys and tokens live");
    }
    let dumps = match prog {
        // `printenv -0` (NUL-separated) prints everything as plain `printenv` does.
        "printenv" => operands(a, &[]).is_empty() || a.iter().any(|x| secret_name(&x.text)),
        "cmake" => a
            .windows(2)
            .any(|w| w[0].text == "-E" && w[1].text == "environment"),
        // `env` with a command is a wrapper (the shell model removed it); what is left runs
        // nothing and prints everything.
        // jq's `env`/`$ENV`, make's database (`-p`).
        "jq" | "gojq" | "yq" => a.iter().any(|x| x.text == "env" || x.text.contains("$ENV")),
        "make" | "gmake" => has_flag(a, &['p'], &["print-data-base"]),
        "env" => operands(a, &["-u", "-C", "-S"])
            .iter()
            .all(|o| o.text.contains('=')),
        // `set -x` traces commands; only a bare `set` prints the variables.
        "set" => a.is_empty(),
        "export" | "declare" | "typeset" => {
            a.is_empty()
                || a.iter()
                    .all(|x| matches!(x.text.as_str(), "-p" | "-x" | "-px" | "-xp"))
        }
        "compgen" => has_flag(a, &['v', 'e'], &[]),
        // `php -i` is phpinfo(): its Environment and `$_SERVER` tables.
        "php" if a.iter().any(|x| x.text == "-i" || x.text == "--info") => true,
        // npm's builtin `env` script (`npm run env`) prints the environment scripts get;
        // systemd's manager and tmux's global environment print theirs.
        "npm" | "pnpm" | "yarn" | "bun" => {
            let words = super::argv::plain_words(a);
            matches!(words.first(), Some(&("run" | "run-script"))) && words.get(1) == Some(&"env")
        }
        "systemctl" => a.iter().any(|x| x.text == "show-environment"),
        // gdb's `show environment` prints what the program it runs would get: this one's.
        "gdb" => super::editors::gdb_commands(a)
            .into_iter()
            .any(gdb_shows_environment),
        "tmux" => a
            .iter()
            .any(|x| matches!(x.text.as_str(), "show-environment" | "showenv")),
        // `direnv dump` prints the whole environment (`direnv export` is what a shell hook
        // evaluates: the difference, consumed by `eval`).
        "direnv" => super::argv::plain_words(a).first() == Some(&"dump"),
        _ if may_hold_code(prog) && mentions_environment(c) => {
            super::inline::code(c).is_some_and(|code| code_reads_environment(&code))
        }
        "ps" => ps_shows_environment(a),
        _ => false,
    };
    dumps.then_some("prints the environment, where the agent's keys and tokens live")
}

/// procps `ps`: only the BSD-style `e` flag (`ps e`, `ps auxe`, `ps eww`) adds each process's
/// environment to its command; `-e` selects every process. The value of an option that takes
/// one (`-o pid,etime,cmd`, `axo etime=`, `--sort=-etime`, `-p $PPID`) is a column or process
/// list, not flags.
fn ps_shows_environment(a: &[Arg]) -> bool {
    // UNIX (`-o`) and BSD (`o`) options whose value is the next word when not attached (BSD
    // `u` is a format, not a user).
    const UNIX_VALUED: &str = "oOpqtUuCGgsk";
    const BSD_VALUED: &str = "oOpqtUk";
    const LONG_VALUED: [&str; 14] = [
        "--format",
        "--sort",
        "--pid",
        "--ppid",
        "--quick-pid",
        "--user",
        "--User",
        "--group",
        "--Group",
        "--tty",
        "--sid",
        "--cols",
        "--columns",
        "--rows",
    ];
    let mut value_next = false;
    for x in a {
        let t = x.text.as_str();
        if std::mem::take(&mut value_next) {
            continue;
        }
        if t.starts_with("--") {
            value_next = LONG_VALUED.contains(&t);
            continue;
        }
        let unix = t.starts_with('-');
        let letters = t.trim_start_matches('-');
        for (i, c) in letters.char_indices() {
            if c == 'e' && !unix {
                return true;
            }
            if (if unix { UNIX_VALUED } else { BSD_VALUED }).contains(c) {
                value_next = i + c.len_utf8() == letters.len();
                break;
            }
        }
    }
    false
}

/// `show environment`, `show env HOME`, `sho env`: gdb takes any unique prefix of a word.
fn gdb_shows_environment(cmd: &str) -> bool {
    let mut words = cmd.split_whitespace();
    let show = words
        .next()
        .is_some_and(|w| w.len() >= 3 && "show".starts_with(w));
    let env = words
        .next()
        .is_some_and(|w| w.len() >= 3 && "environment".starts_with(w));
    // One variable of another name (`show environment HOME`) is not a dump.
    show && env && words.next().is_none_or(secret_name)
}

/// How programs name their environment, as whole words: awk's `ENVIRON`, Perl's `%ENV`/
/// `$ENV{…}` and Ruby's `ENV`, Python's `os.environ`/`os.getenv`, Node's `process.env`, PHP's
/// `getenv`/`$_ENV`/`phpinfo()`, Deno's and Bun's `env`.
const ENV_NAMES: [&str; 9] = [
    "ENVIRON",
    "ENV",
    "environ",
    "getenv",
    "process.env",
    "$_ENV",
    "phpinfo",
    "Deno.env",
    "Bun.env",
];

/// Programs that may run inline code (`inline::code` says which code).
fn may_hold_code(prog: &str) -> bool {
    prog.starts_with("python")
        || matches!(
            prog,
            "awk"
                | "gawk"
                | "mawk"
                | "nawk"
                | "perl"
                | "ruby"
                | "node"
                | "nodejs"
                | "deno"
                | "bun"
                | "php"
                | "lua"
                | "tclsh"
                | "osascript"
                | "pwsh"
                | "powershell"
                | "sqlite3"
        )
}

/// A cheap look before finding a command's inline code: does any word name an environment?
fn mentions_environment(c: &Command) -> bool {
    let names = |t: &str| {
        ["ENV", "environ", "getenv", "process.env", "phpinfo", ".env"]
            .iter()
            .any(|n| t.contains(n))
    };
    c.argv.iter().skip(1).any(|a| names(&a.text)) || c.stdin_text.as_deref().is_some_and(names)
}

/// Inline code that reads the environment whole (`for (k in ENVIRON)`, `ENV.to_h`) or a
/// secret-named variable of it (`ENVIRON["OPENAI_API_KEY"]`, `process.env.GH_TOKEN`); one
/// variable of another name (`ENVIRON["HOME"]`) is not a dump.
fn code_reads_environment(code: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    ENV_NAMES.iter().any(|name| {
        code.match_indices(name).any(|(i, _)| {
            let rest = &code[i + name.len()..];
            let word = !code[..i].ends_with(ident) && !rest.starts_with(ident);
            word && environment_key(rest, *name == "process.env").is_none_or(secret_name)
        })
    })
}

/// The literal key right after an environment's name: `["K"]`, `{K}`, `('K')`, `.get("K")`,
/// and `.K` where that is a property (`process.env.K`, not Ruby's `ENV.to_h`); `None` when
/// the environment is used otherwise.
fn environment_key(rest: &str, property: bool) -> Option<&str> {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    if let Some(name) = rest.strip_prefix('.').filter(|_| property) {
        let end = name.find(|c: char| !ident(c)).unwrap_or(name.len());
        return (end > 0).then(|| &name[..end]);
    }
    let rest = rest.strip_prefix(".get").unwrap_or(rest);
    let opened = rest.trim_start_matches(['[', '{', '(', ' ']);
    if opened.len() == rest.len() {
        return None;
    }
    let body = match opened.chars().next().filter(|q| matches!(q, '"' | '\'')) {
        Some(q) => opened[1..].split(q).next()?,
        None => &opened[..opened.find(|c: char| !ident(c)).unwrap_or(opened.len())],
    };
    (!body.is_empty()).then_some(body)
}

/// `docker exec api env`, `kubectl exec pod -- printenv`, `docker compose exec db sh -c
/// 'echo $POSTGRES_PASSWORD'`: a command run in a container prints that container's
/// environment and stores as it would here. Its files are the container's, judged already
/// as words of the exec (`docker exec api cat /proc/1/environ`).
fn in_container(c: &Command) -> Option<&'static str> {
    let inner = container_command(program(c), args(c))?;
    let words: Vec<String> = inner.iter().map(|a| a.text.clone()).collect();
    let script = crate::shell::analyze_argv(&words, &[], &[]);
    let dumps = script.commands.iter().any(|ic| {
        let prog = program(ic);
        environment_dump(prog, ic).is_some()
            || stores::printed_secret(prog, ic).is_some()
            || printed_secret_variable(prog, ic).is_some()
    });
    dumps.then_some("prints a container's environment or stored secrets")
}

/// The command words of `docker|podman exec [opts] CONTAINER CMD…` (also `container exec`
/// and `compose exec SERVICE`) and `kubectl|oc exec POD [-c C] -- CMD…`.
fn container_command<'a>(prog: &str, a: &'a [Arg]) -> Option<&'a [Arg]> {
    const DOCKER: [&str; 28] = [
        "-e",
        "--env",
        "--env-file",
        "-u",
        "--user",
        "-w",
        "--workdir",
        "--detach-keys",
        "--index",
        "-H",
        "--host",
        "-c",
        "--context",
        "--config",
        "-l",
        "--log-level",
        "-f",
        "--file",
        "-p",
        "--project-name",
        "--project-directory",
        "--profile",
        "--ansi",
        "--progress",
        "--parallel",
        "--tlscacert",
        "--tlscert",
        "--tlskey",
    ];
    const KUBE: [&str; 10] = [
        "-c",
        "--container",
        "-n",
        "--namespace",
        "--context",
        "--kubeconfig",
        "-f",
        "--filename",
        "--pod-running-timeout",
        "--cluster",
    ];
    let kube = matches!(prog, "kubectl" | "oc" | "kubecolor");
    if !kube && !matches!(prog, "docker" | "podman" | "nerdctl" | "docker-compose") {
        return None;
    }
    if kube {
        let ops = operands(a, &KUBE);
        if ops.first()?.text != "exec" {
            return None;
        }
        return match a.iter().position(|x| x.text == "--") {
            Some(i) => a.get(i + 1..),
            None => after(a, ops.get(2).copied()?),
        };
    }
    let ops = operands(a, &DOCKER);
    let verbs = ops.iter().take_while(|o| {
        matches!(o.text.as_str(), "container" | "compose" | "exec") && o.text != "exec"
    });
    let at = verbs.count();
    if ops.get(at)?.text != "exec" {
        return None;
    }
    after(a, ops.get(at + 2).copied()?)
}

/// The words of `a` from `word` on (found by identity, not text).
fn after<'a>(a: &'a [Arg], word: &Arg) -> Option<&'a [Arg]> {
    let i = a.iter().position(|x| std::ptr::eq(x, word))?;
    a.get(i..)
}

fn secret_search(prog: &str, c: &Command) -> Option<&'static str> {
    let searches = matches!(
        prog,
        "grep" | "egrep" | "fgrep" | "rg" | "ag" | "ack" | "findstr"
    ) || (prog == "git" && args(c).first().is_some_and(|a| a.text == "grep"));
    // A search through a directory tree (`grep -rn apiKey src/`) prints the lines of the
    // files it walks: it is judged by what the tree holds (`tree_read`), not by its word.
    if !searches || tree_search(prog, c) {
        return None;
    }
    secret_words(c).then_some("searches files for passwords, tokens or keys")
}

/// By substring: `AWS_SECRET_ACCESS_KEY` is a search for a secret, and so, by its text, is
/// `password_reset` (the held-out corpus's ord-h050 was dropped for that reason).
fn secret_words(c: &Command) -> bool {
    args(c).iter().any(|a| {
        let t = a.text.to_ascii_lowercase();
        SECRET_WORDS.iter().any(|w| {
            t.match_indices(w)
                .map(|(i, _)| &t[i + w.len()..])
                .map(|rest| rest.strip_prefix('s').unwrap_or(rest))
                .any(|rest| !rest.starts_with(|ch: char| ch.is_ascii_lowercase()))
        })
    })
}

/// rg/ag/ack fed on stdin by a pipeline stage, a here-doc or a `<` redirect (and no word
/// of its own only known when it runs, whose substitution would also count as an input).
fn piped_search(c: &Command) -> bool {
    let prog = super::argv::program(c);
    let fed = c.stdin_text.is_some()
        || (c.redirects.iter())
            .any(|r| r.kind == crate::shell::RedirectKind::Read && r.fd.unwrap_or(0) == 0)
        || !c.inputs.is_empty() && !c.argv.iter().any(|a| a.unresolved);
    matches!(prog, "rg" | "ag" | "ack") && fed
}

/// A search that walks directories: `grep -r`, and rg/ag/ack, which always do.
fn tree_search(prog: &str, c: &Command) -> bool {
    match prog {
        "grep" | "egrep" | "fgrep" => has_flag(
            args(c),
            &['r', 'R'],
            &["recursive", "dereference-recursive"],
        ),
        "rg" | "ag" | "ack" => true,
        _ => false,
    }
}

/// `awk 'BEGIN{ARGV[1]=".e" "nv"} 1'`: the files an awk program names as its input.
fn awk_operands(s: &Subject, protected: &PathSet, prog: &str, c: &Command) -> Option<String> {
    if !matches!(prog, "awk" | "gawk" | "mawk" | "nawk") {
        return None;
    }
    let code = super::inline::code(c)?;
    let files = super::inline::awk_argv_files(&code);
    (files.into_iter().flatten()).find_map(|f| names_credential(s, protected, c, &Arg::literal(&f)))
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
    let label = tree_hit(s, protected, &p).or_else(|| protected.hit(&p))?;
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

/// Whether the call's scripts turn on dotglob (then a wildcard matches dotfiles too), by
/// `shopt -s dotglob` or a non-empty `GLOBIGNORE` (`Script::dotglob`).
fn dotglob(s: &Subject) -> bool {
    s.view.scripts.iter().any(|script| script.dotglob)
        || s.commands().any(|(_, _, c)| {
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

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn secret_names_by_convention() {
        for n in [
            "GITHUB_TOKEN",
            "AWS_SECRET_ACCESS_KEY",
            "DATABASE_URL",
            "REDIS_URL",
            "SENTRY_DSN",
            "AUTH",
            "AUTH_TOKEN",
            "OAUTH_CLIENT_ID",
            "NPM_AUTH",
            "HTTP_AUTHORIZATION",
            "ghauthtoken",
            "NEXT_PUBLIC_SECRET",
            "VITE_PRIVATE_KEY",
        ] {
            assert!(secret_name(n), "{n}");
        }
        for n in [
            "PUBLIC_URL",
            "AUTHOR_NAME",
            "GIT_AUTHOR_EMAIL",
            "CERT_AUTHORITY",
            "NEXT_PUBLIC_API_URL",
            "VITE_API_BASE_URL",
            "REACT_APP_MAPS_KEY",
            "EXPO_PUBLIC_SUPABASE_ANON_KEY",
            "HOME",
        ] {
            assert!(!secret_name(n), "{n}");
        }
    }

    fn words(line: &str) -> Vec<Arg> {
        line.split_whitespace().map(Arg::literal).collect()
    }

    #[test]
    fn ps_prints_the_environment_only_with_bsd_e() {
        for env in ["eww -o args=", "auxe", "e", "axeo pid,cmd"] {
            assert!(ps_shows_environment(&words(env)), "{env}");
        }
        for plain in [
            "-o pid,etime,cmd -p $PPID",
            "-p $PPID -o etime=",
            "-eo pid,etime,comm --sort=-etime",
            "--format pid,etime",
            "axo pid,etime",
            "-ef",
            "aux",
        ] {
            assert!(!ps_shows_environment(&words(plain)), "{plain}");
        }
    }
}
