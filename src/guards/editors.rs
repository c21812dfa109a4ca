//! Programs driven by a script of their own — `sed`, `ed`/`ex`, `vim -es`, `gdb -ex`, `emacs
//! --eval`, `dc` — whose commands can read or write any file (`sed -n w/etc/hosts`, `ed`'s
//! `r .env`) or run the shell (`ed`'s `!rm …`, `gdb -ex '!…'`). Their file names and commands
//! are inside the script, out of the shell model's sight: a script using one is opaque. Plain
//! editing (`sed -i 's/a/b/' f`, `sed -n '1,5p' f`) is not.

use super::argv::{args, operands, option_values, program};
use crate::shell::Command;

/// What in the command's own script reaches a file or the shell, if anything.
pub fn reaches(c: &Command) -> Option<&'static str> {
    let a = args(c);
    match program(c) {
        "sed" | "gsed" => sed_scripts(c).iter().find_map(|s| sed(s)),
        "ed" | "red" | "ex" => c.stdin_text.as_deref().and_then(ex),
        "vim" | "vi" | "nvim" | "view" => {
            let given = option_values(a, Some("-c"), "--cmd").into_iter();
            let plus = a.iter().filter_map(|x| x.text.strip_prefix('+'));
            let silent = a.iter().any(|x| x.text == "-es" || x.text == "-s");
            let piped = c.stdin_text.as_deref().filter(|_| silent);
            given.chain(plus).chain(piped).find_map(ex)
        }
        "gdb" => gdb_commands(a).into_iter().find_map(gdb),
        "emacs" => option_values(a, None, "--eval")
            .iter()
            .chain(option_values(a, Some("-eval"), "--execute").iter())
            .find_map(|code| emacs_lisp(code)),
        "dc" => option_values(a, Some("-e"), "--expression")
            .iter()
            .any(|e| e.contains('!'))
            .then_some("a shell command"),
        _ => None,
    }
}

/// sed's scripts: each `-e`/`--expression`, or the first operand when none is given.
fn sed_scripts(c: &Command) -> Vec<&str> {
    let a = args(c);
    let given = option_values(a, Some("-e"), "--expression");
    if !given.is_empty() {
        return given;
    }
    let from_file = a
        .iter()
        .any(|x| x.text == "-f" || x.text.starts_with("--file"));
    let valued = ["-l", "--line-length", "-f", "--file"];
    match from_file {
        true => Vec::new(),
        false => operands(a, &valued)
            .first()
            .map(|s| vec![s.text.as_str()])
            .unwrap_or_default(),
    }
}

/// A sed script's commands that read (`r`, `R`) or write (`w`, `W`) a file or run the shell
/// (`e`), also as flags of `s` (`s/a/b/w f`, `s/x/y/e`).
fn sed(script: &str) -> Option<&'static str> {
    let b = script.as_bytes();
    let mut i = 0;
    while i < b.len() {
        i = skip_address(b, i);
        let Some(&cmd) = b.get(i) else { break };
        i += 1;
        match cmd {
            b'r' | b'R' | b'w' | b'W' => return Some("a file named in its script"),
            b'e' => return Some("a shell command"),
            b's' | b'y' => {
                let (end, flags) = substitution(b, i);
                if cmd == b's' && flags.iter().any(|f| matches!(f, b'w' | b'e')) {
                    return Some("a file or command named in its script");
                }
                i = end;
            }
            // Text and labels run to the end of the line; `a\` text goes on over lines
            // that end with a backslash.
            b'a' | b'i' | b'c' | b':' | b'b' | b't' | b'T' => {
                i = line_end(b, i);
                while i < b.len() && i > 0 && b[i - 1] == b'\\' {
                    i = line_end(b, i + 1);
                }
            }
            _ => {}
        }
        while i < b.len() && matches!(b[i], b';' | b'\n' | b' ' | b'\t' | b'}' | b'{' | b'!') {
            i += 1;
        }
    }
    None
}

/// Past a sed address: line numbers, `$`, `/re/` or `\cREc`, ranges, steps, negation.
fn skip_address(b: &[u8], mut i: usize) -> usize {
    loop {
        match b.get(i) {
            Some(c) if c.is_ascii_digit() || matches!(c, b'$' | b',' | b'~' | b'+' | b' ') => {
                i += 1
            }
            Some(b'/') => i = delimited(b, i + 1, b'/'),
            Some(b'\\') if i + 1 < b.len() => i = delimited(b, i + 2, b[i + 1]),
            Some(b'!' | b'{' | b';' | b'\n') => i += 1,
            _ => return i,
        }
    }
}

/// The index after the next unescaped `delim` from `i`.
fn delimited(b: &[u8], mut i: usize, delim: u8) -> usize {
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            c if c == delim => return i + 1,
            _ => i += 1,
        }
    }
    b.len()
}

/// `s/re/repl/flags`: where it ends, and its flags.
fn substitution(b: &[u8], i: usize) -> (usize, &[u8]) {
    let Some(&delim) = b.get(i) else {
        return (b.len(), &[]);
    };
    let end = delimited(b, delimited(b, i + 1, delim), delim);
    let flags_end = (end..b.len())
        .find(|&k| matches!(b[k], b';' | b'\n' | b'}' | b' '))
        .unwrap_or(b.len());
    (flags_end, &b[end..flags_end])
}

fn line_end(b: &[u8], i: usize) -> usize {
    (i..b.len()).find(|&k| b[k] == b'\n').unwrap_or(b.len())
}

/// ed/ex/vim commands, one per line (vim also `|`-separated): `!cmd`, and those that read,
/// write or open a file (`r f`, `w f`, `wq! f`, `e f`, `so f`, `sav f`).
fn ex(script: &str) -> Option<&'static str> {
    const FILE_COMMANDS: [&str; 16] = [
        "r", "read", "w", "write", "wq", "x", "xit", "wa", "wall", "e", "edit", "E", "W", "so",
        "source", "sav",
    ];
    script.split(['\n', '|']).find_map(|line| {
        let line = line.trim_start_matches([' ', '\t', ':']);
        let line = line.trim_start_matches(|c: char| {
            c.is_ascii_digit() || matches!(c, ',' | '.' | '$' | '%' | ';' | '+' | '-' | ' ')
        });
        if line.starts_with('!') || line.starts_with("sh") || line.starts_with("redir") {
            return Some("a shell command or file named in its script");
        }
        let word: String = line.chars().take_while(char::is_ascii_alphabetic).collect();
        let rest = line[word.len()..].trim_start_matches('!');
        let named = !rest.trim().is_empty() || word == "r" || word == "e";
        (FILE_COMMANDS.contains(&word.as_str()) && named)
            .then_some("a file named in its script")
            .or_else(|| (word == "call" || word == "py" || word == "python").then_some("code"))
    })
}

/// gdb's commands given on its command line: `-ex`/`--eval-command`, and `-iex`/
/// `--init-eval-command`, run before anything is loaded.
pub fn gdb_commands(a: &[crate::shell::Arg]) -> Vec<&str> {
    let mut out = option_values(a, Some("-ex"), "--eval-command");
    out.extend(option_values(a, Some("-iex"), "--init-eval-command"));
    out
}

/// gdb's `!cmd`, `shell cmd`, `pipe`, `python …`, `source f`, `dump … f`.
fn gdb(cmd: &str) -> Option<&'static str> {
    let t = cmd.trim_start();
    let word = t.split_whitespace().next().unwrap_or("");
    (t.starts_with('!') || t.starts_with('|'))
        .then_some("a shell command")
        .or_else(|| {
            matches!(
                word,
                "shell"
                    | "pipe"
                    | "python"
                    | "py"
                    | "python-interactive"
                    | "pi"
                    | "source"
                    | "dump"
                    | "append"
                    | "restore"
                    | "guile"
                    | "gu"
            )
            .then_some("a shell command, file or code")
        })
}

/// Emacs Lisp that opens files or runs processes.
fn emacs_lisp(code: &str) -> Option<&'static str> {
    const REACH: [&str; 8] = [
        "file",
        "shell-command",
        "process",
        "call-process",
        "url-",
        "load",
        "delete-directory",
        "find-",
    ];
    REACH
        .iter()
        .any(|w| code.contains(w))
        .then_some("files or processes")
}

#[cfg(test)]
mod tests {
    use super::{ex, sed};

    #[test]
    fn sed_scripts_that_reach_out_and_ones_that_do_not() {
        for s in [
            "w/etc/hosts",
            "1r .env",
            "$ r /x",
            "/x/w out",
            "s/a/b/w f",
            "s|a|b|e",
            "1e rm -rf /",
            "/^#/!{w log\n}",
        ] {
            assert!(sed(s).is_some(), "{s:?}");
        }
        for s in [
            "s/foo/bar/g",
            "1,5p",
            "/^#/d",
            "s/write/read/",
            "$a\\\nappended with r and w",
            "1i\\\nline one \\\nread me\n2p",
            "y/abc/xyz/",
            "s/x/y/gI;/w/d",
            "1~2p",
            ":a;N;$!ba;s/\\n/ /g",
        ] {
            assert!(sed(s).is_none(), "{s:?}");
        }
    }

    #[test]
    fn ex_scripts_that_reach_out_and_ones_that_do_not() {
        for s in [
            "r .env\n,p\nq",
            "!cat .env",
            "wq! /x/agents.json",
            "e /etc/shadow",
        ] {
            assert!(ex(s).is_some(), "{s:?}");
        }
        for s in [",p\nq", "%s/a/b/g\nwq", "1d\nw\nq", "set nu"] {
            assert!(ex(s).is_none(), "{s:?}");
        }
    }
}
