//! Taint laundered through files: a session that read a web page writes a file, and another
//! session (or the same one after a reset) reads it back as its own local content. A file
//! written by a session whose context holds foreign content (shared, external, untrusted)
//! carries that session's lowest level, and reading it brings that level into the reader's
//! context, naming the file and where its content came from. A clean session's `write`
//! replaces the file and its mark; an edit keeps the mark (the rest of the file is unchanged).

use super::level::Level;
use super::taint::Source;
use crate::recency::RecencyMap;

/// The host's tools whose file reads and writes are followed.
pub const TOOLS: [&str; 4] = ["read", "write", "edit", "apply_patch"];

/// Files remembered; the least recently written go first.
pub const MAX_FILES: usize = 10_000;

#[derive(Default)]
pub struct Files {
    map: RecencyMap<Source>,
}

impl Files {
    /// `path` was written: marked with `by` (the writer's least trusted source) when the
    /// writer's context held foreign content; a whole rewrite by a clean session (`replaced`)
    /// clears the mark. True when the marks changed.
    pub fn written(&mut self, path: &str, by: Option<&Source>, replaced: bool) -> bool {
        match by.filter(|s| s.level <= Level::Shared) {
            Some(s) if self.map.get(path).is_none_or(|old| s.level < old.level) => {
                *self.map.touch(path, || s.clone()) = s.clone();
                self.map.evict_to(MAX_FILES);
                true
            }
            Some(_) => false,
            None if replaced => self.map.remove(path).is_some(),
            None => false,
        }
    }

    /// A deleted file carries nothing any more.
    pub fn deleted(&mut self, path: &str) -> bool {
        self.map.remove(path).is_some()
    }

    /// Where the content of `path` came from, when a tainted session wrote it.
    pub fn source(&self, path: &str) -> Option<&Source> {
        self.map.get(path)
    }

    /// The persisted form, the least recently written first.
    pub fn to_list(&self) -> Vec<(String, Source)> {
        self.map
            .keys_by_age()
            .filter_map(|k| Some((k.to_string(), self.map.get(k)?.clone())))
            .collect()
    }

    pub fn from_list(list: Vec<(String, Source)>) -> Files {
        let mut f = Files::default();
        for (k, s) in list {
            let slot = f.map.touch(&k, || s.clone());
            *slot = s;
        }
        f.map.evict_to(MAX_FILES);
        f
    }

    /// Marks another process wrote, added to ours (the lower level wins a conflict).
    pub fn merge(&mut self, other: Files) {
        for (k, s) in other.to_list() {
            self.written(&k, Some(&s), false);
        }
    }
}

/// What a call that ran did to files (`read`, `write`, `edit`, `apply_patch`; the shell's own
/// redirects and commands are not followed): a read of a marked file taints `session` with
/// the file's level, a write by a tainted session marks the file. True when anything changed.
pub fn follow(
    state: &mut super::State,
    (session, tool, at_ms): (&str, &str, i64),
    uses: &[(String, crate::call::Access)],
) -> bool {
    use crate::call::Access;
    let mut changed = false;
    for (path, access) in uses {
        changed |= match access {
            Access::Read => match state.files.source(path).cloned() {
                Some(origin) => state.sessions.taint(
                    session,
                    Source {
                        level: origin.level,
                        via: tool.to_string(),
                        what: format!("{path}, written after {}", super::describe(&origin)),
                        at_ms,
                        sha256: None,
                    },
                ),
                None => false,
            },
            Access::Write => {
                let by = state.sessions.get(session).and_then(|t| t.sources.first());
                let by = by.cloned();
                state.files.written(path, by.as_ref(), tool == "write")
            }
            Access::Delete => state.files.deleted(path),
        };
    }
    changed
}
