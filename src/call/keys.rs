//! A `process send-keys` token as the host turns it into bytes, ported from OpenClaw 2026.9.6
//! (`bash-tools-*.mjs`, `encodeKeyToken`): the token is trimmed; `^X` is a control character;
//! `C-`, `M-` and `S-` prefixes (any case, stacked) are modifiers; a named key is matched
//! without regard to case; a single character takes its modifiers (Ctrl makes a control
//! character, Alt puts ESC before it, Shift capitalises a letter); **any other string is sent
//! literally, its modifiers dropped** (`M-.env` types `.env`). What reaches the shell is then
//! read as typed text: a line end runs the line, Up recalls the last one, and every other
//! editing key (ESC sequences: `M-.` yanks the last argument, `M-b` moves a word) makes the
//! line one only known when it runs.

use super::{EDITED, RECALL};
use serde_json::Value;

/// Appends what `key` types to `input`.
pub fn push_key(input: &mut String, key: &Value) {
    let Some(raw) = key.as_str() else { return };
    let token = raw.trim();
    if token.is_empty() {
        // The host sends nothing for a blank token; typing it anyway only ever makes a line
        // more like the one an attacker spelled (`["rm", " ", "-rf"]`), never less.
        return input.push_str(raw);
    }
    if let Some(c) = token.strip_prefix('^').filter(|c| c.chars().count() == 1) {
        if let Some(ctrl) = control_letter(c) {
            return push_control(input, ctrl);
        }
    }
    let (mods, base) = modifiers(token);
    let lower = base.to_ascii_lowercase();
    match lower.as_str() {
        "enter" | "return" if mods.alt => {
            input.push_str(EDITED);
            input.push('\n')
        }
        "enter" | "return" => input.push('\n'),
        "up" if !mods.any() => input.push(RECALL),
        "space" if !mods.alt => input.push(' '),
        "tab" if !mods.any() => input.push('\t'),
        _ if NAMED_KEYS.contains(&lower.as_str()) => input.push_str(EDITED),
        _ if base.chars().count() == 1 => push_char(input, base, mods),
        // Unknown keys, with or without modifiers, are sent as their text.
        _ => input.push_str(base),
    }
}

/// The host's `namedKeyMap` names other than those typed as text or a line end: each sends an
/// escape sequence or an editing character.
const NAMED_KEYS: [&str; 52] = [
    "tab",
    "escape",
    "esc",
    "space",
    "bspace",
    "backspace",
    "up",
    "down",
    "right",
    "left",
    "home",
    "end",
    "pageup",
    "pgup",
    "ppage",
    "pagedown",
    "pgdn",
    "npage",
    "insert",
    "ic",
    "delete",
    "del",
    "dc",
    "btab",
    "f1",
    "f2",
    "f3",
    "f4",
    "f5",
    "f6",
    "f7",
    "f8",
    "f9",
    "f10",
    "f11",
    "f12",
    "kp/",
    "kp*",
    "kp-",
    "kp+",
    "kp.",
    "kpenter",
    "kp0",
    "kp1",
    "kp2",
    "kp3",
    "kp4",
    "kp5",
    "kp6",
    "kp7",
    "kp8",
    "kp9",
];

#[derive(Clone, Copy, Default)]
struct Mods {
    ctrl: bool,
    alt: bool,
    shift: bool,
}

impl Mods {
    fn any(self) -> bool {
        self.ctrl || self.alt || self.shift
    }
}

/// `parseModifiers`: `C-`, `M-`, `S-` prefixes while more than the prefix remains.
fn modifiers(token: &str) -> (Mods, &str) {
    let mut mods = Mods::default();
    let mut rest = token;
    while rest.len() > 2 && rest.as_bytes()[1] == b'-' {
        match rest.as_bytes()[0].to_ascii_lowercase() {
            b'c' => mods.ctrl = true,
            b'm' => mods.alt = true,
            b's' => mods.shift = true,
            _ => break,
        }
        rest = &rest[2..];
    }
    (mods, rest)
}

/// `applyCharModifiers` for one character.
fn push_char(input: &mut String, base: &str, mods: Mods) {
    if mods.alt {
        // ESC then the character: a readline command (M-. yank-last-arg, M-d kill-word…).
        return input.push_str(EDITED);
    }
    let c = base.chars().next().unwrap_or(' ');
    let c = if mods.shift {
        c.to_ascii_uppercase()
    } else {
        c
    };
    match control_letter(&c.to_string()).filter(|_| mods.ctrl) {
        Some(letter) => push_control(input, letter),
        None => input.push(c),
    }
}

/// `toCtrlChar`'s letter: the upper-case character whose control form the key sends (`?`
/// sends DEL, which edits the line).
fn control_letter(c: &str) -> Option<char> {
    let c = c.chars().next()?.to_ascii_uppercase();
    match c {
        '?' => Some('?'),
        '@'..='_' => Some(c),
        _ => None,
    }
}

/// What a control character does on a readline line.
fn push_control(input: &mut String, letter: char) {
    match letter {
        // CR and LF end the line; Ctrl-C abandons it.
        'M' | 'J' | 'C' => input.push('\n'),
        'P' => input.push(RECALL),
        'I' => input.push('\t'),
        // Ctrl-D, Ctrl-Z, Ctrl-\ on an empty line end or stop input.
        'D' | 'Z' | '\\' if input.is_empty() || input.ends_with('\n') => input.push('\n'),
        // Every other control key edits or recalls: the line is one only known when it runs.
        _ => input.push_str(EDITED),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(keys: &[&str]) -> String {
        let mut s = String::new();
        keys.iter().for_each(|k| push_key(&mut s, &Value::from(*k)));
        s
    }

    #[test]
    fn tokens_as_the_host_encodes_them() {
        assert_eq!(typed(&["cat", "Space", "M-.env", "Enter"]), "cat .env\n");
        assert_eq!(
            typed(&["S-cat", "Space", "C-~/.ssh/id_rsa"]),
            "cat ~/.ssh/id_rsa"
        );
        assert_eq!(typed(&["m-c-cat .env", "  Enter  "]), "cat .env\n");
        assert_eq!(typed(&["ENTER", "^M", "C-j"]), "\n\n\n");
        assert_eq!(typed(&["KP_Enter"]), "KP_Enter");
        assert_eq!(typed(&["Up"]), RECALL.to_string());
        assert_eq!(typed(&["S-a"]), "A");
        for editing in [
            "M-.", "M-b", "Alt+.", "BSpace", "C-t", "^?", "Left", "S-Tab",
        ] {
            let t = typed(&[editing]);
            assert!(t.contains(EDITED) || t == editing, "{editing}: {t:?}");
        }
        assert!(typed(&["M-."]).contains(EDITED));
    }
}
