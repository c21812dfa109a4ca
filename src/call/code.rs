//! Interpreter programs in a call's scripts (`python3 -c …`, `node -e …`, a script the session
//! wrote, a code-mode program) read as the shell commands they amount to (`crate::code`). Each
//! reading becomes a script of its own, run where its interpreter runs, so every guard judges
//! what the program does; a program read whole is marked so (`Command::code_read`) and is not
//! opaque for what it reaches.

use super::{cwd, startup, CallView, Earlier, HostPaths};
use crate::code::{self, Lang};
use crate::guards::{argv, inline};
use crate::shell::{self, Script, ShellInput};

/// Programs inside programs (`os.system("node -e …")`) are followed this deep.
const MAX_DEPTH: u32 = 4;

pub(super) fn follow(v: &mut CallView, host: &HostPaths, earlier: &Earlier) {
    let mut from = 0;
    for round in 0..MAX_DEPTH {
        let until = v.scripts.len();
        let mut read = Vec::new();
        for script in &mut v.scripts[from..until] {
            for c in &mut script.commands {
                let Some(lang) = code::language(argv::program(c)) else {
                    continue;
                };
                let start = || c.cwd.clone().or_else(|| v.cwd.clone());
                for test in &c.discovered {
                    read.push((tests(lang, test), c.depth + 1, start()));
                }
                let Some(text) = inline::code(c) else {
                    continue;
                };
                let reading = code::read(lang, &text);
                c.code_read = reading.unread.is_none();
                // What the reader could not follow stays in the script as a line only known
                // when it runs: the opaque guard names it, whatever words the program uses
                // (`import { rmSync } from 'node:fs'` has no `fs.` for a word search to find).
                let script = reading.script_with(reading.unread.as_deref());
                if !script.is_empty() {
                    read.push((script, c.depth + 1, start()));
                }
            }
        }
        if round == 0 {
            if let Some(program) = v.code.as_deref().filter(|_| v.code_is_js) {
                let reading = code::read(Lang::Js, program);
                v.code_read = reading.unread.is_none();
                read.push((
                    reading.script_with(reading.unread.as_deref()),
                    1,
                    v.cwd.clone(),
                ));
            }
        }
        from = until;
        for (text, depth, start) in read.into_iter().filter(|(t, ..)| !t.is_empty()) {
            let mut s: Script = shell::analyze(&ShellInput {
                script: &text,
                env: &[],
                depth,
                earlier: &earlier.files,
            });
            let home = host.home.as_deref();
            cwd::track(&mut s, start.as_deref(), home, v.workspace.as_deref());
            v.scripts.push(s);
        }
        if v.scripts.len() == from {
            break;
        }
    }
}

/// A test file a runner discovers, as the commands it runs: read as the project's own code
/// is (`startup::Project`), without naming what the reader cannot follow.
fn tests(lang: Lang, text: &str) -> String {
    let kind = match lang {
        Lang::Python => startup::Project::Python,
        Lang::Js => startup::Project::Js,
        // Discovered tests are Python or JavaScript files (`imports`); a compiled
        // language's tests are built first and judged by `startup::build`.
        Lang::C | Lang::Rust | Lang::Go => return String::new(),
    };
    startup::commands(startup::Runs::Project(kind), text)
}
