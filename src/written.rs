//! Files a session's own calls wrote, with what the calls showed of their text: a `write`'s
//! content, an `edit`'s new text, a patch's added lines, what a command line printed into a
//! file. A later call that runs one (`sh /tmp/p.sh`, `make -f Mk`, `source env.sh`) is judged
//! with that text, as if it had been written and run in one command line: splitting an attack
//! over two calls hides nothing.
//!
//! Kept in memory only (the text may hold secrets, NORMATIVE N12), bounded in sessions, files
//! per session and text per file. A file whose text is only known when it runs (printed from a
//! variable) is kept as unknown, and running it is opaque.

use crate::code::imports;
use crate::recency::RecencyMap;
use crate::shell::Written as File;
use std::sync::Mutex;

const MAX_SESSIONS: usize = 1024;
const MAX_FILES: usize = 64;
/// Longer texts are kept as unknown: judging a truncated script would judge part of it.
const MAX_TEXT: usize = 64 * 1024;
/// Files a program reads without being named, by the word that names the program: the
/// makefiles `make` reads without `-f`, the package.json whose scripts `npm run x` (yarn, pnpm,
/// bun) runs, the justfile of `just x`, and git's config files, whose aliases `git x` runs.
const READ_BY: [(&str, &str); 13] = [
    ("GNUmakefile", "make"),
    ("makefile", "make"),
    ("Makefile", "make"),
    ("package.json", "npm"),
    ("package.json", "yarn"),
    ("package.json", "pnpm"),
    ("package.json", "bun"),
    ("justfile", "just"),
    ("Justfile", "just"),
    (".justfile", "just"),
    // `.git/config`, `~/.config/git/config`; `~/.gitconfig`; `/etc/gitconfig`.
    ("config", "git"),
    (".gitconfig", "git"),
    ("gitconfig", "git"),
];
/// Files a program loads without being named: Python's startup hooks, and the mark the shell
/// model leaves for an archive unpacked with contents only known when it runs.
const IMPLICIT: [&str; 3] = ["sitecustomize.py", "usercustomize.py", "*"];

/// How a call changed a file.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// Its whole text (`write`, `>` of a command line).
    Whole(Option<String>),
    /// Text added to what it held (a patch): judged with whatever is known of the rest.
    Added(String),
    /// `edit`'s replacements (old text, new text), applied to what is known of the file; one
    /// whose old text is not there adds its new text (judging more, never less).
    Edit(Vec<(String, String)>),
}

#[derive(Default)]
pub struct WrittenFiles {
    inner: Mutex<RecencyMap<Vec<File>>>,
}

impl WrittenFiles {
    /// Notes what a call wrote, by file (its path as the call named it, or its name alone
    /// when that is all the shell model kept), newest last (`earlier_version`: which file a
    /// change is to).
    pub fn record(&self, session: &str, changes: Vec<(String, Change)>) {
        if changes.is_empty() {
            return;
        }
        let Ok(mut map) = self.inner.lock() else {
            return;
        };
        let files = map.touch(session, Vec::new);
        for (path, change) in changes {
            let (path, old) = earlier_version(files, path);
            let text = match (change, old) {
                (Change::Whole(text), _) => text,
                (Change::Added(more), Some((_, Some(mut text)))) => {
                    text.push('\n');
                    text.push_str(&more);
                    Some(text)
                }
                (Change::Added(_) | Change::Edit(_), Some((_, None))) => None,
                (Change::Added(more), None) => Some(more),
                (Change::Edit(pairs), Some((_, Some(text)))) => Some(edited(text, &pairs)),
                (Change::Edit(pairs), None) => Some(edited(String::new(), &pairs)),
            };
            files.push((path, text.filter(|t| t.len() <= MAX_TEXT)));
        }
        if files.len() > MAX_FILES {
            let extra = files.len() - MAX_FILES;
            files.drain(..extra);
        }
        map.evict_to(MAX_SESSIONS);
    }

    /// The session's files a call could run, by name: those whose name, name without its
    /// extension (`python3 -m tools.clean` runs clean.py) or directory (`run-parts
    /// /tmp/hooks.d`) its text mentions; the files a program it mentions reads without being
    /// named (`READ_BY`: the default makefiles for `make`, git's config for `git`); files
    /// programs load without being named (`sitecustomize.py`, a `.pth`); libraries and
    /// headers the session built for a call that links or compiles; and the mark of an
    /// archive unpacked with unknown contents (`*`). Most calls mention none, and nothing is
    /// copied for them.
    pub fn mentioned(&self, session: &str, said: &[&str]) -> Vec<File> {
        self.mentioned_and_all(session, said, || false).0
    }

    /// `mentioned`, and every file of the session by its path as the call named it (relative
    /// to the workspace for a file tool, a base name for a command line's redirect) when
    /// `wants_all` says so: what a build or test tool may run (`call::startup::build`). One
    /// look at the store; `wants_all` is only asked when the session wrote files.
    pub fn mentioned_and_all(
        &self,
        session: &str,
        said: &[&str],
        wants_all: impl FnOnce() -> bool,
    ) -> (Vec<File>, Vec<File>) {
        let Ok(map) = self.inner.lock() else {
            return (Vec::new(), Vec::new());
        };
        let Some(files) = map.get(session).filter(|f| !f.is_empty()) else {
            return (Vec::new(), Vec::new());
        };
        let all = if wants_all() {
            files.clone()
        } else {
            Vec::new()
        };
        // A call that links or loads libraries (`-lhook`, `LD_LIBRARY_PATH=/tmp/lib`) may load
        // any shared object the session built; one that compiles may include any header or
        // module the session wrote (`#include "x.h"`, `mod x;`). Looked for only when the
        // session has such files.
        let has = |ext: fn(&str) -> bool| files.iter().any(|(p, _)| ext(p));
        let says = |words: &[&str]| said.iter().any(|s| words.iter().any(|w| s.contains(w)));
        let links = has(shared_object) && says(&["LD_", "-l"]);
        let compiles = has(included_source) && says(&["cc", "++", "clang", "rustc"]);
        // Files where git runs hooks from are run by any git command (`guards::git::config`),
        // and compose reads its files without being told their names.
        let git = said.iter().any(|s| s.contains("git"));
        let compose = said.iter().any(|s| s.contains("compose"));
        let named = |path: &str| {
            let name = crate::paths::basename(path);
            let hook = || name == crate::shell::HOOKS_FILLED || crate::guards::git::hook_file(path);
            let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
            let dir = path[..path.len() - name.len()].trim_end_matches('/');
            IMPLICIT.contains(&name)
                || name.ends_with(".pth")
                || git && hook()
                || compose
                    && name.contains("compose")
                    && (name.ends_with(".yml") || name.ends_with(".yaml"))
                || links && shared_object(name)
                || compiles && included_source(name)
                || said.iter().any(|s| {
                    s.contains(name)
                        || !stem.is_empty() && s.contains(stem)
                        || !dir.is_empty() && s.contains(dir)
                        || READ_BY.iter().any(|(f, p)| *f == name && s.contains(p))
                })
                || imports::loaded_unnamed(path, said)
        };
        let mut chosen: Vec<bool> = files.iter().map(|(p, _)| named(p)).collect();
        // A chosen file that names another (a makefile's `include build/config.inc`, a
        // script's `source lib.sh`) brings that one along: the program reads it too.
        for _ in 0..2 {
            let texts: Vec<&str> = (files.iter().zip(&chosen))
                .filter_map(|((_, t), &c)| t.as_deref().filter(|_| c))
                .collect();
            let brought: Vec<usize> = (files.iter().enumerate())
                .filter(|(i, (path, _))| {
                    let name = crate::paths::basename(path);
                    !chosen[*i] && !name.is_empty() && texts.iter().any(|t| t.contains(name))
                })
                .map(|(i, _)| i)
                .collect();
            if brought.is_empty() {
                break;
            }
            brought.into_iter().for_each(|i| chosen[i] = true);
        }
        // A program the call runs may import another file the session wrote (`import util`
        // in app.py): the files the chosen code files import are chosen too.
        let mut read = vec![false; files.len()];
        while let Some(i) = (0..files.len()).find(|&i| chosen[i] && !read[i]) {
            read[i] = true;
            let Some((lang, text)) = code_of(&files[i]) else {
                continue;
            };
            let loads = imports::modules(lang, text);
            for (j, (p, _)) in files.iter().enumerate() {
                let keys = [Some(crate::paths::basename(p)), imports::qualified(p)];
                let key = |l: &imports::Load| keys.iter().flatten().any(|k| l.matches(k));
                chosen[j] = chosen[j] || loads.iter().any(key);
            }
        }
        let mut out = Vec::new();
        for ((p, t), _) in files.iter().zip(chosen).filter(|(_, c)| *c) {
            out.push((crate::paths::basename(p).to_string(), t.clone()));
            // A package's file is found by its package as well (`json/__init__.py`).
            if let Some(q) = imports::qualified(p) {
                out.push((q.to_string(), t.clone()));
            }
        }
        (out, all)
    }
}

/// The version of the file `path` names that a change to it starts from (taken out: the change
/// replaces it), and the spelling to keep it under. Two spellings with directories are two
/// files (a package's `node_modules/left-pad/index.js` and the project's `index.js`): keyed by
/// name, the later would hide the earlier's text from a call that loads it. A name alone (all
/// the shell model keeps of a redirect) is the newest file of that name, kept under the longer
/// spelling: a directory a later call may name (`run-parts DIR`).
fn earlier_version(files: &mut Vec<File>, path: String) -> (String, Option<File>) {
    let name = crate::paths::basename(&path);
    let bare = |p: &str| !p.contains('/');
    let same =
        |(n, _): &File| *n == path || crate::paths::basename(n) == name && (bare(n) || bare(&path));
    let Some(i) = files.iter().rposition(same) else {
        return (path, None);
    };
    let old = files.remove(i);
    let path = if old.0.len() > path.len() {
        old.0.clone()
    } else {
        path
    };
    (path, Some(old))
}

/// A file whose text imports others (Python or JavaScript), with that text.
fn code_of((path, text): &File) -> Option<(crate::code::Lang, &str)> {
    let lang = match path.rsplit_once('.').map_or("", |(_, e)| e) {
        "py" => crate::code::Lang::Python,
        "js" | "mjs" | "cjs" | "ts" | "mts" | "cts" => crate::code::Lang::Js,
        _ => return None,
    };
    Some((lang, text.as_deref()?))
}

/// `libx.so`, `libx.so.1`.
fn shared_object(path: &str) -> bool {
    path.ends_with(".so") || path.contains(".so.")
}

/// A file a compiler pulls in by name from the file it compiles.
fn included_source(path: &str) -> bool {
    [".h", ".hh", ".hpp", ".hxx", ".inc", ".c", ".rs"]
        .iter()
        .any(|e| path.ends_with(e))
}

/// `text` with each replacement made where its old text is, else its new text added.
pub(crate) fn edited(mut text: String, pairs: &[(String, String)]) -> String {
    for (old, new) in pairs {
        match text.find(old.as_str()).filter(|_| !old.is_empty()) {
            Some(at) => text.replace_range(at..at + old.len(), new),
            None => {
                text.push('\n');
                text.push_str(new);
            }
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn whole(name: &str, text: &str) -> (String, Change) {
        (name.into(), Change::Whole(Some(text.into())))
    }

    #[test]
    fn a_file_is_found_by_the_name_a_call_mentions() {
        let w = WrittenFiles::default();
        w.record(
            "s",
            vec![whole("p.sh", "rm -rf /x"), whole("notes.md", "hi")],
        );
        let got = w.mentioned("s", &["sh /tmp/p.sh"]);
        assert_eq!(
            got,
            vec![("p.sh".to_string(), Some("rm -rf /x".to_string()))]
        );
        assert!(w.mentioned("other", &["sh /tmp/p.sh"]).is_empty());
        assert!(w.mentioned("s", &["ls"]).is_empty());
        w.record("s", vec![whole("Makefile", "all:\n\ttrue")]);
        assert_eq!(w.mentioned("s", &["make all"]).len(), 1);
    }

    #[test]
    fn two_paths_of_one_name_are_two_files_and_a_name_alone_is_the_newest() {
        let w = WrittenFiles::default();
        w.record(
            "s",
            vec![whole("/ws/node_modules/left-pad/index.js", "rm -rf ~")],
        );
        w.record("s", vec![whole("/ws/index.js", "console.log(1)")]);
        let got = w.mentioned("s", &["node -e require('left-pad')"]);
        let texts: Vec<_> = got.iter().filter_map(|(_, t)| t.as_deref()).collect();
        assert!(texts.contains(&"rm -rf ~"), "{got:?}");
        // A redirect's bare name replaces the newest file of that name, under its spelling.
        w.record("s", vec![whole("index.js", "console.log(2)")]);
        w.record("s", vec![whole("/ws/index.js", "console.log(3)")]);
        let got = w.mentioned("s", &["node index.js"]);
        let mut texts: Vec<_> = got.iter().filter_map(|(_, t)| t.as_deref()).collect();
        texts.dedup();
        assert_eq!(texts, ["rm -rf ~", "console.log(3)"]);
    }

    #[test]
    fn edits_add_to_what_is_known_and_unknown_stays_unknown() {
        let w = WrittenFiles::default();
        w.record("s", vec![whole("a.sh", "echo a")]);
        w.record(
            "s",
            vec![("a.sh".into(), Change::Added("rm -rf /x".into()))],
        );
        w.record("s", vec![("b.sh".into(), Change::Whole(None))]);
        w.record("s", vec![("b.sh".into(), Change::Added("echo b".into()))]);
        w.record("s", vec![("c.sh".into(), Change::Added("echo c".into()))]);
        let got = w.mentioned("s", &["a.sh b.sh c.sh"]);
        assert_eq!(
            got,
            vec![
                ("a.sh".to_string(), Some("echo a\nrm -rf /x".to_string())),
                ("b.sh".to_string(), None),
                ("c.sh".to_string(), Some("echo c".to_string())),
            ]
        );
    }

    #[test]
    fn an_edit_replaces_what_it_names() {
        let w = WrittenFiles::default();
        w.record("s", vec![whole("a.sh", "echo rm -rf ~/ZZdocs")]);
        let pairs = vec![
            ("echo ".to_string(), String::new()),
            ("ZZ".to_string(), String::new()),
        ];
        w.record("s", vec![("a.sh".into(), Change::Edit(pairs))]);
        let pairs = vec![("absent".to_string(), "echo new".to_string())];
        w.record("s", vec![("b.sh".into(), Change::Edit(pairs))]);
        assert_eq!(
            w.mentioned("s", &["sh a.sh b.sh"]),
            vec![
                ("a.sh".to_string(), Some("rm -rf ~/docs".to_string())),
                ("b.sh".to_string(), Some("\necho new".to_string())),
            ]
        );
    }

    #[test]
    fn files_and_text_are_bounded() {
        let w = WrittenFiles::default();
        for i in 0..MAX_FILES + 5 {
            w.record("s", vec![whole(&format!("f{i}.sh"), "true")]);
        }
        assert!(w
            .mentioned("s", &["f0.sh f1.sh f2.sh f3.sh f4.sh"])
            .is_empty());
        assert_eq!(w.mentioned("s", &["f5.sh"]).len(), 1);
        // Too long to keep whole: unknown, so running it is opaque, not judged in part.
        w.record("s", vec![whole("big.sh", &"x".repeat(MAX_TEXT + 1))]);
        assert_eq!(
            w.mentioned("s", &["big.sh"]),
            vec![("big.sh".to_string(), None)]
        );
    }
}
