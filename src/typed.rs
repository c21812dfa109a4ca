//! Text typed into a background shell (`process write|paste|send-keys`) that no Enter has
//! ended yet, per session and shell: the shell runs the line only when a later call ends it,
//! so that call is judged with everything typed before it (`rm -r` then `f ~/docs\n` runs
//! `rm -rf ~/docs`).
//!
//! Kept in memory only (the text may hold secrets, NORMATIVE N12), bounded in sessions, shells
//! per session and text per line. A line longer than the bound is kept as its last part: what
//! the shell runs then holds text the engine no longer has, so the call is judged as an edited
//! line (opaque).

use crate::recency::RecencyMap;
use std::sync::Mutex;

const MAX_SESSIONS: usize = 1024;
const MAX_SHELLS: usize = 16;
const MAX_LINE: usize = 64 * 1024;

/// What stands for a line part the store let go of: a control character, which the shell
/// model reads as a line edit.
pub const DROPPED: &str = "\u{15}";

#[derive(Default)]
pub struct TypedLines {
    inner: Mutex<RecencyMap<Vec<(String, String)>>>,
}

impl TypedLines {
    /// The unfinished line typed into `shell` of `session` ("" when none).
    pub fn unfinished(&self, session: &str, shell: &str) -> String {
        let Ok(map) = self.inner.lock() else {
            return String::new();
        };
        (map.get(session).into_iter().flatten())
            .find(|(s, _)| s == shell)
            .map(|(_, line)| line.clone())
            .unwrap_or_default()
    }

    /// Notes what is left unfinished after a call that was not denied.
    pub fn record(&self, session: &str, shell: &str, rest: String) {
        let Ok(mut map) = self.inner.lock() else {
            return;
        };
        if rest.is_empty() && map.get(session).is_none() {
            return;
        }
        let shells = map.touch(session, Vec::new);
        shells.retain(|(s, _)| s != shell);
        if !rest.is_empty() {
            shells.push((shell.to_string(), bounded(rest)));
        }
        if shells.len() > MAX_SHELLS {
            let extra = shells.len() - MAX_SHELLS;
            shells.drain(..extra);
        }
        map.evict_to(MAX_SESSIONS);
    }
}

/// What a shell has not run yet of `typed`: the part after its last line end (newline,
/// carriage return, or Ctrl-C, which abandons the line).
pub fn unfinished_part(typed: &str) -> &str {
    typed
        .rfind(['\n', '\r', '\u{3}'])
        .map_or(typed, |at| &typed[at + 1..])
}

fn bounded(mut line: String) -> String {
    if line.len() <= MAX_LINE {
        return line;
    }
    let mut cut = line.len() - MAX_LINE;
    while !line.is_char_boundary(cut) {
        cut += 1;
    }
    line.replace_range(..cut, DROPPED);
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_unfinished_line_is_kept_per_shell_until_a_line_end() {
        let t = TypedLines::default();
        assert_eq!(t.unfinished("s", "p1"), "");
        t.record("s", "p1", unfinished_part("ls\nrm -r").to_string());
        t.record("s", "p2", "echo".to_string());
        assert_eq!(t.unfinished("s", "p1"), "rm -r");
        assert_eq!(t.unfinished("s", "p2"), "echo");
        assert_eq!(t.unfinished("other", "p1"), "");
        t.record("s", "p1", unfinished_part("rm -rf ~/x\n").to_string());
        assert_eq!(t.unfinished("s", "p1"), "");
        assert_eq!(unfinished_part("abc\u{3}de"), "de");
    }

    #[test]
    fn a_long_line_keeps_its_end_and_says_a_part_was_dropped() {
        let t = TypedLines::default();
        let long = format!("{}é{}", "a".repeat(MAX_LINE), "tail");
        t.record("s", "p", long);
        let kept = t.unfinished("s", "p");
        assert!(kept.starts_with(DROPPED) && kept.ends_with("tail"));
        assert!(kept.len() <= MAX_LINE + DROPPED.len() + 1);
    }
}
