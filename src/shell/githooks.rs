//! Hooks directories filled with text the session never showed: `cp /tmp/dl/hook.sh
//! .githooks/pre-commit`, `git checkout FETCH_HEAD -- .githooks`, `unzip hooks.zip -d
//! .git/hooks`. git runs what is there on the next commit, checkout or push, and nothing of
//! it was seen; each such file is remembered as written with unknown text (by its hook name,
//! or as `HOOKS_FILLED` when the names are not known), which the git guard turns into an
//! opaque hook run (`guards::git::config`). A copy of the project's own file (`cp
//! scripts/pre-commit .git/hooks/`, `ln -s ../../scripts/pre-commit .git/hooks/`) is the
//! project's, as a hooks path inside the repository is.

use super::walk::Walker;
use super::wrappers::basename;
use super::Arg;

/// The name remembered for a hooks directory filled with files of unknown names and text.
pub const HOOKS_FILLED: &str = "(git hooks)";

impl Walker {
    /// Notes the hooks a command fills with unknown text (see the module's comment).
    pub(super) fn note_hooks_filled(&mut self, name: &str, args: &[Arg]) {
        let keys = match name {
            "cp" | "mv" | "ln" | "install" | "rsync" => self.copied_in(name, args),
            "git" => checked_out(args),
            "tar" | "bsdtar" | "unzip" | "7z" | "7za" => unpacked_into(name, args),
            _ => return,
        };
        for key in keys {
            self.forget_known(&key);
        }
    }

    /// The hooks a copy puts in from outside the project.
    fn copied_in(&self, name: &str, args: &[Arg]) -> Vec<String> {
        let Some((sources, dest)) = super::copy_operands(name, args) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for src in &sources {
            // A file the session wrote keeps its text (`note_copied`).
            if self.written_text(basename(&src.text)).is_some() {
                continue;
            }
            let (place, key) = match &dest {
                Some(d) if sources.len() == 1 && !d.text.ends_with('/') && !is_dir(&d.text) => {
                    (d.text.clone(), basename(&d.text).to_owned())
                }
                Some(d) => (
                    format!("{}/{}", d.text.trim_end_matches('/'), basename(&src.text)),
                    basename(&src.text).to_owned(),
                ),
                None => (src.text.clone(), basename(&src.text).to_owned()),
            };
            let linked_from = (name == "ln").then_some(place.as_str());
            if hooks_place(&place) && from_outside(src, linked_from) {
                out.push(hook_key(&key));
            }
        }
        out
    }

    /// Marks `key` as written with text only known when it runs.
    fn forget_known(&mut self, key: &str) {
        self.written.retain(|(k, _)| k != key);
        self.written.push((key.to_owned(), None));
    }
}

/// A destination that is a directory by its look (`.git/hooks`, `.githooks`).
fn is_dir(t: &str) -> bool {
    let name = basename(t);
    name == "hooks" || name == ".githooks" || name == ".husky" || name == "."
}

/// The name a hook is remembered by: its own when git runs a file of that name, else the mark
/// of a hooks directory filled with unknown files.
fn hook_key(name: &str) -> String {
    match crate::guards::git::hook_file(name) {
        true => name.to_owned(),
        false => HOOKS_FILLED.to_owned(),
    }
}

/// A path in a directory of hooks: `.git/hooks/…`, `.githooks/…`, `scripts/hooks/…`,
/// `.husky/…`, or a file named as a hook.
fn hooks_place(path: &str) -> bool {
    let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
    let hooky = |seg: &str| seg.contains("hook") || seg == ".husky";
    dir.split('/').any(hooky) || crate::guards::git::hook_file(path)
}

/// A source outside the project: absolute, in a home, climbing out, or only known when it
/// runs. A link's target is taken from the link's own directory (`ln -s ../../x .git/hooks/y`
/// points at `x` in the project).
fn from_outside(src: &Arg, link_at: Option<&str>) -> bool {
    let t = src.text.as_str();
    if src.unresolved || t.starts_with(['/', '~']) {
        return true;
    }
    let joined = match link_at.and_then(|l| l.rsplit_once('/')) {
        Some((dir, _)) => format!("{dir}/{t}"),
        None => t.to_owned(),
    };
    climbs(&joined)
}

/// Whether a relative path leaves the directory it starts from.
fn climbs(path: &str) -> bool {
    let mut depth: i32 = 0;
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." => depth -= 1,
            _ => depth += 1,
        }
        if depth < 0 {
            return true;
        }
    }
    false
}

/// `git checkout REF -- PATHS`, `git restore --source=REF PATHS`: a hooks directory taken from
/// a commit other than the one checked out (a fetched branch's).
fn checked_out(args: &[Arg]) -> Vec<String> {
    let a = &args[1..];
    let Some(sub) = crate::guards::git::sub_index(a) else {
        return Vec::new();
    };
    let rest = &a[sub + 1..];
    let operands = |words: &[Arg]| -> Vec<String> {
        (words.iter())
            .filter(|w| !w.text.starts_with('-'))
            .map(|w| w.text.clone())
            .collect()
    };
    let (source, paths) = match a[sub].text.as_str() {
        "checkout" => match rest.iter().position(|w| w.text == "--") {
            Some(dd) => (
                operands(&rest[..dd]).first().cloned(),
                operands(&rest[dd + 1..]),
            ),
            None => {
                let mut ops = operands(rest);
                let first = (ops.len() > 1).then(|| ops.remove(0));
                (first, ops)
            }
        },
        "restore" => {
            let source = source_option(rest).map(str::to_owned);
            let paths = operands(rest);
            (
                source.clone(),
                paths
                    .into_iter()
                    .filter(|p| Some(p) != source.as_ref())
                    .collect(),
            )
        }
        _ => return Vec::new(),
    };
    if source.is_none_or(|r| own_commit(&r)) {
        return Vec::new();
    }
    (paths.iter())
        .filter(|p| hooks_place(&format!("{}/x", p.trim_end_matches('/'))) || hooks_place(p))
        .map(|p| hook_key(basename(p.trim_end_matches('/'))))
        .collect()
}

/// `--source=REF`, `--source REF`, `-s REF`, `-sREF`.
fn source_option(rest: &[Arg]) -> Option<&str> {
    let mut words = rest.iter().map(|w| w.text.as_str());
    while let Some(w) = words.next() {
        if w == "--source" || w == "-s" {
            return words.next();
        }
        if let Some(v) = w
            .strip_prefix("--source=")
            .or_else(|| w.strip_prefix("-s").filter(|v| !v.is_empty()))
        {
            return Some(v);
        }
    }
    None
}

/// The commit checked out, or the index: what the repository already holds.
fn own_commit(r: &str) -> bool {
    r == "HEAD" || r == "@" || r.starts_with("HEAD~") || r.starts_with("HEAD^")
}

/// `tar -x … -C DIR`, `unzip … -d DIR`, `7z x -oDIR`: an archive's files put in a hooks
/// directory.
fn unpacked_into(name: &str, args: &[Arg]) -> Vec<String> {
    let a = &args[1..];
    let extracts = match name {
        "unzip" => true,
        "7z" | "7za" => a
            .first()
            .is_some_and(|w| matches!(w.text.as_str(), "x" | "e")),
        _ => a.iter().any(|w| {
            let t = w.text.as_str();
            matches!(t, "--extract" | "--get")
                || !t.starts_with("--") && t.contains('x') && std::ptr::eq(w, &a[0])
        }),
    };
    if !extracts {
        return Vec::new();
    }
    let dir = match name {
        "unzip" => value_of(a, "-d", ""),
        "7z" | "7za" => a
            .iter()
            .find_map(|w| w.text.strip_prefix("-o").map(str::to_owned)),
        _ => value_of(a, "-C", "--directory"),
    };
    match dir {
        Some(d) if hooks_place(&format!("{}/x", d.trim_end_matches('/'))) => {
            vec![HOOKS_FILLED.to_owned()]
        }
        _ => Vec::new(),
    }
}

fn value_of(a: &[Arg], short: &str, long: &str) -> Option<String> {
    let mut words = a.iter().map(|w| w.text.as_str());
    while let Some(w) = words.next() {
        if w == short || !long.is_empty() && w == long {
            return words.next().map(str::to_owned);
        }
        if let Some(v) = (!long.is_empty())
            .then(|| w.strip_prefix(long).and_then(|r| r.strip_prefix('=')))
            .flatten()
        {
            return Some(v.to_owned());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn project_sources_and_outside_ones() {
        let lit = Arg::literal;
        assert!(from_outside(&lit("/tmp/dl/hook.sh"), None));
        assert!(from_outside(&lit("../other/pre-commit"), None));
        assert!(!from_outside(&lit("scripts/pre-commit"), None));
        assert!(!from_outside(
            &lit("../../scripts/pre-commit"),
            Some(".git/hooks/pre-commit")
        ));
        assert!(from_outside(
            &lit("../../../x/pre-commit"),
            Some(".git/hooks/pre-commit")
        ));
        assert!(hooks_place(".githooks/pre-commit"));
        assert!(hooks_place(".git/hooks/x"));
        assert!(!hooks_place("src/main.rs"));
    }
}
