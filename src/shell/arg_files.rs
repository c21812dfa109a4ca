//! Files that `xargs` and GNU `parallel` read their arguments from instead of stdin:
//! `-a FILE`/`--arg-file=FILE` (both), `:::: FILE` (parallel). The file's lines become the
//! command's arguments, which `echo` or `printf` then print: a read of FILE, emitted one level
//! down as `cat FILE` for every guard to judge. parallel given no command runs each input line
//! as a command line of its own (GNU parallel(1), "If command is not given, the line of input
//! is executed"): those lines are judged as shell lines when the text is known; from a
//! download, `guards::remote_code` sees parallel run its input.

use super::documents::quote;
use super::walk::{Exec, Walker};
use super::wrappers::basename;
use super::{Arg, OpaqueKind};
use crate::guards::argv::option_values;

impl Walker {
    /// `opts`: the wrapper's own options; `rest`: the words after them (its command, and for
    /// parallel the `:::`/`::::` sources).
    pub(super) fn arg_files(&mut self, name: &str, opts: &[Arg], rest: &[Arg], cx: &Exec) {
        let parallel = matches!(name, "parallel" | "sem");
        if name != "xargs" && !parallel {
            return;
        }
        let mut files: Vec<String> = option_values(opts, Some("-a"), "--arg-file")
            .into_iter()
            .map(str::to_owned)
            .collect();
        if parallel {
            files.extend(four_colon_files(rest));
        }
        files.truncate(8);
        let reads: Vec<String> = (files.iter())
            .filter(|f| !is_stdin(f))
            .map(|f| format!("cat {}", quote(f)))
            .collect();
        self.run_lines(&format!("{name} --arg-file"), &reads.join("\n"), cx);
        if parallel && no_command(rest) {
            self.input_as_commands(&files, rest, cx);
        }
    }

    /// parallel with no command: its input lines (files the session wrote, `:::` words, or
    /// stdin text) are the command lines it runs.
    fn input_as_commands(&mut self, files: &[String], rest: &[Arg], cx: &Exec) {
        let mut lines = Vec::new();
        for f in files {
            let text = match is_stdin(f) {
                true => cx.stdin_text.clone().or_else(|| self.fed_text(&cx.inputs)),
                false => match self.written_text(basename(f)) {
                    Some(t) => t,
                    // A file on disk the session did not write is the project's own.
                    None => continue,
                },
            };
            match text {
                Some(t) => lines.push(t),
                None => self.opaque(OpaqueKind::DynamicScript, &cx.src),
            }
        }
        let words = rest
            .iter()
            .skip(1)
            .take_while(|a| !a.text.starts_with(":::"));
        if rest
            .first()
            .is_some_and(|a| a.text.starts_with(":::") && a.text.len() == 3)
        {
            lines.extend(words.map(|a| a.text.clone()));
        }
        if files.is_empty() && rest.is_empty() {
            // Lines on stdin: a download is `remote_code`'s to judge; known text is run here.
            if let Some(t) = cx.stdin_text.clone().or_else(|| self.fed_text(&cx.inputs)) {
                lines.push(t);
            }
        }
        self.run_lines("parallel (input lines)", &lines.join("\n"), cx);
    }
}

/// The files after `::::` (and `::::+`) up to the next source marker.
fn four_colon_files(rest: &[Arg]) -> Vec<String> {
    let mut out = Vec::new();
    let mut inside = false;
    for a in rest {
        match a.text.as_str() {
            "::::" | "::::+" => inside = true,
            t if t.starts_with(":::") => inside = false,
            t if inside => out.push(t.to_owned()),
            _ => {}
        }
    }
    out
}

/// No command before the input sources: each input line is one.
pub(super) fn no_command(rest: &[Arg]) -> bool {
    rest.first().is_none_or(|a| a.text.starts_with(":::"))
}

fn is_stdin(name: &str) -> bool {
    matches!(name, "-" | "/dev/stdin" | "/dev/fd/0" | "/proc/self/fd/0")
}
