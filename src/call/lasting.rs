//! The lines typed into a background shell that set it up for the lines after it: a `cd`
//! (`cd ~` in one call, `rm -rf docs` in the next), an alias or a function defined, a variable
//! exported, an option set. They are kept (`crate::typed`) and replayed before each later
//! line, so that line is judged in the shell it really runs in. Only what sets the shell up
//! is kept: a line that also ran something was judged when it ran and is not judged again,
//! but its directory changes still count.

use super::feeds::shell_quote;
use crate::guards::argv::program;
use crate::shell::{self, ShellInput};

/// Builtins whose effect outlasts their line and which run nothing themselves.
const SETS_UP: [&str; 16] = [
    "cd", "pushd", "popd", "dirs", "alias", "unalias", "export", "declare", "typeset", "local",
    "readonly", "set", "shopt", "hash", "unset", "umask",
];

/// Builtins that move the shell to another directory.
const MOVES: [&str; 3] = ["cd", "pushd", "popd"];

/// What of the lines `done` (each ended) lasts into later lines, as lines to replay.
pub fn lasting(done: &str) -> String {
    let mut out = String::new();
    for line in done.lines().filter(|l| !l.trim().is_empty()) {
        let script = shell::analyze(&ShellInput {
            script: line,
            env: &[],
            depth: 0,
            earlier: &[],
        });
        // A plain assignment runs no command at all; a function definition runs none either
        // (the shell model judges its body where it is defined, and again where it is called).
        let sets_up_only = script.opaque.is_empty()
            && (defines_function(line)
                || (script.commands.iter()).all(|c| SETS_UP.contains(&program(c))));
        if sets_up_only {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        let moves = (script.commands.iter())
            .filter(|c| c.depth == 0 && MOVES.contains(&program(c)))
            .filter(|c| c.argv.iter().all(|a| !a.unresolved && !a.pattern));
        for c in moves {
            let words: Vec<String> = c.argv.iter().map(|a| shell_quote(&a.text)).collect();
            out.push_str(&words.join(" "));
            out.push('\n');
        }
    }
    out
}

/// `f() { …; }`, `function f { …; }`: a line that only defines a function.
fn defines_function(line: &str) -> bool {
    let line = line.trim_start();
    if let Some(rest) = line.strip_prefix("function ") {
        return rest
            .trim_start()
            .starts_with(|c: char| c.is_alphabetic() || c == '_');
    }
    let name_end = line
        .find(|c: char| !(c.is_alphanumeric() || "_-.:".contains(c)))
        .unwrap_or(line.len());
    name_end > 0 && line[name_end..].trim_start().starts_with("()")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_sets_the_shell_up_lasts_and_nothing_else() {
        let done = "cd ~\nls -la\nalias ll='rm -rf'\nf() { rm -rf ~/x; }\nX=$(curl -s u)\n";
        assert_eq!(
            lasting(done),
            "cd ~\nalias ll='rm -rf'\nf() { rm -rf ~/x; }\n"
        );
        assert_eq!(
            lasting("cd /srv/other && git clean -fdx\n"),
            "cd /srv/other\n"
        );
        assert_eq!(lasting("cd \"$D\" && make\n"), "");
    }
}
