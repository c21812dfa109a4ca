//! What a background shell (`process write|paste|send-keys`) carries from one call to the
//! next, per session and shell:
//! - the text typed that no Enter has ended yet: the shell runs the line only when a later
//!   call ends it, so that call is judged with everything typed before it (`rm -r` then
//!   `f ~/docs\n` runs `rm -rf ~/docs`);
//! - the lines that changed the shell for later ones (`cd ~`, `alias ll='rm -rf'`, a function,
//!   an exported variable: `crate::call::lasting`), replayed before each later line;
//! - the last line run, which Up then Enter runs again.
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
/// Lines that set the shell up: the newest are kept (a `cd` overrides older ones anyway).
const MAX_LASTING: usize = 16 * 1024;

/// What stands for a line part the store let go of: a control character, which the shell
/// model reads as a line edit.
pub const DROPPED: &str = "\u{15}";

/// One background shell's state between calls.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ShellState {
    /// Typed and not yet ended by a line end.
    pub unfinished: String,
    /// Lines that set the shell up for later ones, each ending in a newline.
    pub lasting: String,
    /// The last line the shell ran.
    pub last: String,
}

impl ShellState {
    fn is_empty(&self) -> bool {
        self.unfinished.is_empty() && self.lasting.is_empty() && self.last.is_empty()
    }
}

#[derive(Default)]
pub struct TypedLines {
    inner: Mutex<RecencyMap<Vec<(String, ShellState)>>>,
}

impl TypedLines {
    /// The state of `shell` of `session` (empty when none).
    pub fn state(&self, session: &str, shell: &str) -> ShellState {
        let Ok(map) = self.inner.lock() else {
            return ShellState::default();
        };
        (map.get(session).into_iter().flatten())
            .find(|(s, _)| s == shell)
            .map(|(_, state)| state.clone())
            .unwrap_or_default()
    }

    /// Notes the shell's state after a call that was not denied.
    pub fn record(&self, session: &str, shell: &str, state: ShellState) {
        let Ok(mut map) = self.inner.lock() else {
            return;
        };
        if state.is_empty() && map.get(session).is_none() {
            return;
        }
        let shells = map.touch(session, Vec::new);
        shells.retain(|(s, _)| s != shell);
        if !state.is_empty() {
            let state = ShellState {
                unfinished: bounded(state.unfinished),
                lasting: last_lines(state.lasting, MAX_LASTING),
                last: bounded(state.last),
            };
            shells.push((shell.to_string(), state));
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

/// `text`'s last whole lines that fit in `max` bytes.
fn last_lines(text: String, max: usize) -> String {
    if text.len() <= max {
        return text;
    }
    let mut cut = text.len() - max;
    while !text.is_char_boundary(cut) {
        cut += 1;
    }
    let rest = &text[cut..];
    let start = rest.find('\n').map_or(rest.len(), |i| i + 1);
    rest[start..].to_string()
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
        let typed = |s: &str| ShellState {
            unfinished: s.to_string(),
            ..ShellState::default()
        };
        assert_eq!(t.state("s", "p1").unfinished, "");
        t.record("s", "p1", typed(unfinished_part("ls\nrm -r")));
        t.record("s", "p2", typed("echo"));
        assert_eq!(t.state("s", "p1").unfinished, "rm -r");
        assert_eq!(t.state("s", "p2").unfinished, "echo");
        assert_eq!(t.state("other", "p1").unfinished, "");
        t.record("s", "p1", typed(unfinished_part("rm -rf ~/x\n")));
        assert_eq!(t.state("s", "p1"), ShellState::default());
        assert_eq!(unfinished_part("abc\u{3}de"), "de");
    }

    #[test]
    fn lasting_lines_keep_the_newest_whole_lines() {
        let lines: String = (0..4000).map(|i| format!("cd /d{i}\n")).collect();
        let kept = last_lines(lines, MAX_LASTING);
        assert!(kept.len() <= MAX_LASTING && kept.starts_with("cd /d"));
        assert!(kept.ends_with("cd /d3999\n"));
    }

    #[test]
    fn a_long_line_keeps_its_end_and_says_a_part_was_dropped() {
        let t = TypedLines::default();
        let long = format!("{}é{}", "a".repeat(MAX_LINE), "tail");
        let state = ShellState {
            unfinished: long,
            ..ShellState::default()
        };
        t.record("s", "p", state);
        let kept = t.state("s", "p").unfinished;
        assert!(kept.starts_with(DROPPED) && kept.ends_with("tail"));
        assert!(kept.len() <= MAX_LINE + DROPPED.len() + 1);
    }
}
