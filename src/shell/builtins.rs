//! Builtins whose operands are code: `mapfile -C CALLBACK` evaluates CALLBACK (with the index
//! and the line read appended, as `eval` would) every `-c` lines, and the words of builtins
//! that take variable names (see `arith`).

use super::vars::Val;
use super::walk::{Exec, Walker};
use super::{Arg, OpaqueKind, MAX_DEPTH};

/// The variable that stands for the line mapfile hands its callback: only known when it runs.
const CALLBACK_LINE: &str = "__mapfile_line";

/// `mapfile`'s options that take a value (in the same word or the next).
const MAPFILE_VALUED: &str = "dnOsuCc";

/// `read`'s options that take a value.
const READ_VALUED: &str = "adinNptu";

/// The callback of `mapfile [-d D] [-n N] [-O O] [-s S] [-t] [-u FD] [-C CALLBACK] [-c Q]`:
/// its text, and whether some of it is only known when it runs.
fn callback(args: &[Arg]) -> Option<(String, bool)> {
    let mut found = None;
    let mut i = 1;
    while let Some(a) = args.get(i) {
        let Some(flags) = a.text.strip_prefix('-').filter(|f| !f.is_empty()) else {
            break;
        };
        i += 1;
        if flags == "-" {
            break;
        }
        let Some((pos, c)) = flags
            .char_indices()
            .find(|(_, c)| MAPFILE_VALUED.contains(*c))
        else {
            continue;
        };
        let joined = &flags[pos + c.len_utf8()..];
        let value = if joined.is_empty() {
            i += 1;
            args.get(i - 1).map(|v| (v.text.clone(), v.unresolved))
        } else {
            Some((joined.to_owned(), a.unresolved))
        };
        if c == 'C' {
            found = value;
        }
    }
    found
}

/// The variable names `read [opts] NAME…` assigns.
pub(super) fn read_names(words: &[Arg]) -> impl Iterator<Item = &Arg> {
    let mut i = 0;
    while let Some(a) = words.get(i) {
        let Some(flags) = a.text.strip_prefix('-').filter(|f| !f.is_empty()) else {
            break;
        };
        i += 1;
        if flags == "-" {
            break;
        }
        let valued = flags.char_indices().find(|(_, c)| READ_VALUED.contains(*c));
        if let Some((pos, c)) = valued {
            if pos + c.len_utf8() == flags.len() {
                i += 1;
            }
        }
    }
    words.get(i..).unwrap_or_default().iter()
}

impl Walker {
    /// `mapfile -C CALLBACK …`: the command, then CALLBACK run as `eval` runs a script, with
    /// an index and the line read as its last two words (bash's `execute_array_command`).
    pub(super) fn mapfile(&mut self, args: Vec<Arg>, cx: Exec) -> Vec<usize> {
        let cb = callback(&args);
        let line = cx.stdin_text.as_deref().and_then(|t| t.lines().next());
        let line = line.map(|l| format!("'{}'", l.replace('\'', "'\\''")));
        let out = vec![self.emit(args, cx.clone())];
        let Some((text, unresolved)) = cb else {
            return out;
        };
        if unresolved {
            self.opaque(OpaqueKind::DynamicScript, &cx.src);
            return out;
        }
        if cx.depth + 1 > MAX_DEPTH {
            self.too_deep(&text);
            return out;
        }
        let line = line.unwrap_or_else(|| format!("\"${CALLBACK_LINE}\""));
        let script = format!("{text} 0 {line}");
        let mut inner = cx;
        inner.wrappers.push("mapfile -C".to_owned());
        let saved = self.vars.get(CALLBACK_LINE);
        self.vars.set(CALLBACK_LINE, Val::Unknown, false);
        self.in_prefix(&inner, |w| w.script(&script, inner.depth + 1, &[]));
        self.vars.set(CALLBACK_LINE, saved, false);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(t: &[&str]) -> Vec<Arg> {
        t.iter().map(|w| Arg::literal(w)).collect()
    }

    #[test]
    fn the_callback_is_found_in_either_form() {
        let a = words(&["mapfile", "-t", "-C", "rm -rf x", "-c", "1", "l"]);
        assert_eq!(callback(&a), Some(("rm -rf x".to_owned(), false)));
        let a = words(&["readarray", "-tCrm", "-c1", "arr"]);
        assert_eq!(callback(&a), Some(("rm".to_owned(), false)));
        let a = words(&["mapfile", "-t", "-u", "3", "lines"]);
        assert!(callback(&a).is_none());
    }

    #[test]
    fn read_names_follow_the_options() {
        let a = words(&["-r", "-p", "Name: ", "-t5", "x", "y"]);
        let names: Vec<&str> = read_names(&a).map(|a| a.text.as_str()).collect();
        assert_eq!(names, vec!["x", "y"]);
    }
}
