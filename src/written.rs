//! Files a session's own calls wrote, with what the calls showed of their text: a `write`'s
//! content, an `edit`'s new text, a patch's added lines, what a command line printed into a
//! file. A later call that runs one (`sh /tmp/p.sh`, `make -f Mk`, `source env.sh`) is judged
//! with that text, as if it had been written and run in one command line: splitting an attack
//! over two calls hides nothing.
//!
//! Kept in memory only (the text may hold secrets, NORMATIVE N12), bounded in sessions, files
//! per session and text per file. A file whose text is only known when it runs (printed from a
//! variable) is kept as unknown, and running it is opaque.

use crate::recency::RecencyMap;
use crate::shell::Written as File;
use std::sync::Mutex;

const MAX_SESSIONS: usize = 1024;
const MAX_FILES: usize = 64;
/// Longer texts are kept as unknown: judging a truncated script would judge part of it.
const MAX_TEXT: usize = 64 * 1024;
/// The names `make` reads without `-f`.
const MAKEFILES: [&str; 3] = ["GNUmakefile", "makefile", "Makefile"];

/// How a call changed a file.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// Its whole text (`write`, `>` of a command line).
    Whole(Option<String>),
    /// Text added to what it held (`edit`, a patch): judged with whatever is known of the rest.
    Added(String),
}

#[derive(Default)]
pub struct WrittenFiles {
    inner: Mutex<RecencyMap<Vec<File>>>,
}

impl WrittenFiles {
    /// Notes what a call wrote, by file name, newest last.
    pub fn record(&self, session: &str, changes: Vec<(String, Change)>) {
        if changes.is_empty() {
            return;
        }
        let Ok(mut map) = self.inner.lock() else {
            return;
        };
        let files = map.touch(session, Vec::new);
        for (name, change) in changes {
            let old = (files.iter().position(|(n, _)| *n == name)).map(|i| files.remove(i));
            let text = match (change, old) {
                (Change::Whole(text), _) => text,
                (Change::Added(more), Some((_, Some(mut text)))) => {
                    text.push('\n');
                    text.push_str(&more);
                    Some(text)
                }
                (Change::Added(_), Some((_, None))) => None,
                (Change::Added(more), None) => Some(more),
            };
            files.push((name, text.filter(|t| t.len() <= MAX_TEXT)));
        }
        if files.len() > MAX_FILES {
            let extra = files.len() - MAX_FILES;
            files.drain(..extra);
        }
        map.evict_to(MAX_SESSIONS);
    }

    /// The session's files a call could run: those whose name its text mentions (the
    /// default makefiles when it mentions `make`). Most calls mention none, and nothing is
    /// copied for them.
    pub fn mentioned(&self, session: &str, said: &[&str]) -> Vec<File> {
        let Ok(map) = self.inner.lock() else {
            return Vec::new();
        };
        let Some(files) = map.get(session) else {
            return Vec::new();
        };
        let named = |name: &str| {
            said.iter()
                .any(|s| s.contains(name) || MAKEFILES.contains(&name) && s.contains("make"))
        };
        files.iter().filter(|(n, _)| named(n)).cloned().collect()
    }
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
