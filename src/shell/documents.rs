//! Files a program reads as instructions while it does its job, besides its operands:
//! ssh's configuration (`-F FILE`: `Match exec`, `ProxyCommand`, `LocalCommand` and
//! `KnownHostsCommand` run commands while it is read, even under `-G`, which only prints it;
//! ssh_config(5)), roff documents (`.so`, `.mso`, `.cf`, `.trf`, `.nx` read a file into the
//! output in groff's safe mode; under `-U`, `.sy`/`.pso`/`.pi` run commands and `.open` writes a
//! file; groff(7)), and C sources (`#include "FILE"`, `#embed`, after the backslash-newline
//! splices of translation phase 2, printed by `cpp`/`gcc -E` and quoted in a compiler's errors),
//! m4 input (`include`/`sinclude`/`undivert` copy a file to the output, searched through `-I`
//! directories; `syscmd`/`esyscmd` run shell text; GNU m4 manual, 9–13), soelim's `.so` lines,
//! and GNU as sources (`.include "F"`, `.incbin "F"`: the listing `-a` prints an included
//! file's lines, and its errors quote them).
//! The text is a file the session wrote or a here-doc; what it runs or reads is emitted one
//! level down (a read as `cat FILE`) for every guard to judge; a text only known when it runs
//! is opaque. A file the program finds on disk is the project's own, as a makefile is.

use super::walk::{Exec, Walker};
use super::wrappers::basename;
use super::{Arg, OpaqueKind, MAX_DEPTH};

/// How a program's instruction file holds what it runs or reads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Doc {
    Ssh,
    /// `unsafe`: groff's `-U`.
    Roff {
        unsafe_mode: bool,
    },
    C,
    M4,
    /// GNU as: `.include`, `.incbin`.
    Asm,
}

/// groff's (and nroff's, troff's) options that take the next word.
const ROFF_VALUED: [&str; 15] = [
    "-T", "-P", "-d", "-f", "-F", "-I", "-K", "-L", "-M", "-n", "-o", "-r", "-w", "-W", "-m",
];

impl Walker {
    /// The instruction files of `name` run with `args` (nothing for any other program).
    pub(super) fn documents(&mut self, name: &str, args: &[Arg], cx: &Exec) {
        let (doc, files) = match name {
            "ssh" | "scp" | "sftp" | "autossh" => (Doc::Ssh, ssh_configs(args)),
            "groff" | "nroff" | "troff" | "gtroff" => {
                let unsafe_mode = args[1..].iter().any(|a| roff_flag(&a.text, 'U'));
                (Doc::Roff { unsafe_mode }, inputs(args, &ROFF_VALUED))
            }
            "soelim" => (Doc::Roff { unsafe_mode: false }, inputs(args, &["-I"])),
            "cpp" | "gcc" | "cc" | "g++" | "c++" | "clang" | "clang++" => {
                (Doc::C, inputs(args, &crate::guards::argv::CC_VALUED))
            }
            "m4" | "gm4" => (Doc::M4, inputs(args, &M4_VALUED)),
            "as" | "gas" => (Doc::Asm, inputs(args, &AS_VALUED)),
            _ => return,
        };
        let dirs = include_dirs(args);
        let mut unknown = false;
        let mut lines = String::new();
        for f in files.iter().take(8) {
            let text = match f.as_str() {
                "-" | "/dev/stdin" | "/dev/fd/0" | "/proc/self/fd/0" => {
                    (cx.stdin_text.clone()).or_else(|| self.fed_text(&cx.inputs))
                }
                f => match self.written_text(basename(f)) {
                    Some(t) => t,
                    None => continue,
                },
            };
            match text {
                Some(t) => {
                    let t = match doc {
                        Doc::M4 => format!("{}{t}", m4_defines(args)),
                        _ => t,
                    };
                    lines.push_str(&doc.commands(&t, &dirs));
                    lines.push('\n');
                }
                None => unknown |= !matches!(f.as_str(), "-" | "/dev/stdin"),
            }
        }
        if unknown {
            self.opaque(OpaqueKind::DynamicScript, &cx.src);
        }
        if doc == Doc::C {
            // `gcc -wrapper sh,-c,CMD` runs each of its subprograms through the wrapper.
            let at = args.iter().position(|a| a.text == "-wrapper");
            if let Some(w) = at.and_then(|i| args.get(i + 1)) {
                let words: Vec<String> = w.text.split(',').map(quote).collect();
                self.run_lines("gcc -wrapper", &words.join(" "), cx);
            }
        }
        let label = match doc {
            Doc::Ssh => "ssh config",
            Doc::Roff { .. } => "roff document",
            Doc::C => "C preprocessor",
            Doc::M4 => "m4 input",
            Doc::Asm => "assembler source",
        };
        self.run_lines(label, &lines, cx);
    }

    /// Shell lines a program runs on its own (`label` says which), one level down.
    pub(super) fn run_lines(&mut self, label: &str, text: &str, cx: &Exec) {
        if text.trim().is_empty() {
            return;
        }
        if cx.depth + 1 > MAX_DEPTH {
            self.too_deep(text);
            return;
        }
        let mut inner = Exec::new(cx.depth, cx.src.clone());
        inner.wrappers = cx.wrappers.clone();
        inner.wrappers.push(label.to_owned());
        self.in_prefix(&inner, |w| w.script(text, cx.depth + 1, &[]));
    }
}

impl Doc {
    /// What a file of this kind runs or reads, as shell lines; a relative file it reads is
    /// also looked for in each of `dirs` (`-I`), as the program searches them.
    fn commands(self, text: &str, dirs: &[String]) -> String {
        let lines = match self {
            Doc::Ssh => ssh_commands(text),
            Doc::Roff { unsafe_mode } => roff_commands(text, unsafe_mode),
            Doc::C => c_commands(text),
            Doc::M4 => super::m4::commands(text),
            Doc::Asm => asm_commands(text),
        };
        searched(&lines, dirs)
    }
}

/// m4's options that take the next word (`-D NAME=V`, `-I DIR`, `-o FILE`, frozen state files).
const M4_VALUED: [&str; 9] = ["-D", "-U", "-I", "-o", "-F", "-R", "-L", "-l", "-t"];
/// GNU as's options that take the next word.
const AS_VALUED: [&str; 4] = ["-o", "-I", "--defsym", "-march"];

/// m4's `-D NAME=VALUE` (`--define`) as the `define` calls they amount to, before the input.
fn m4_defines(args: &[Arg]) -> String {
    let mut out = String::new();
    let mut words = args[1..].iter().map(|a| a.text.as_str());
    while let Some(w) = words.next() {
        let def = match w {
            "-D" | "--define" => words.next(),
            _ => w.strip_prefix("-D").or_else(|| w.strip_prefix("--define=")),
        };
        if let Some((name, value)) = def.and_then(|d| d.split_once('=')) {
            out.push_str(&format!("define(`{name}', `{value}')"));
        }
    }
    out
}

/// `-I DIR` and `-IDIR`: the directories a program searches for a relative file it includes.
fn include_dirs(args: &[Arg]) -> Vec<String> {
    let mut out = Vec::new();
    let mut words = args[1..].iter().map(|a| a.text.as_str());
    while let Some(w) = words.next() {
        match w.strip_prefix("-I") {
            Some("") => out.extend(words.next().map(str::to_owned)),
            Some(dir) => out.push(dir.to_owned()),
            None => match w.strip_prefix("--include=") {
                Some(dir) => out.push(dir.to_owned()),
                None if w == "--include" => out.extend(words.next().map(str::to_owned)),
                None => {}
            },
        }
    }
    out.truncate(8);
    out
}

/// Each `cat 'F'` line of `lines` followed by `cat 'DIR/F'` for every search directory when
/// F is relative.
fn searched(lines: &str, dirs: &[String]) -> String {
    if dirs.is_empty() {
        return lines.to_owned();
    }
    let mut out = Vec::new();
    for line in lines.lines() {
        out.push(line.to_owned());
        let Some(file) = line
            .strip_prefix("cat '")
            .and_then(|f| f.strip_suffix('\''))
        else {
            continue;
        };
        if file.starts_with('/') {
            continue;
        }
        for dir in dirs {
            out.push(format!("cat {}/{file}'", quote(dir).trim_end_matches('\'')));
        }
    }
    out.join("\n")
}

/// GNU as's `.include "F"` and `.incbin "F"` (the listing `-a` prints what they bring in).
fn asm_commands(text: &str) -> String {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim_start();
        let rest = [".include", ".incbin"]
            .iter()
            .find_map(|d| line.strip_prefix(d))
            .map(str::trim_start);
        let Some(rest) = rest else { continue };
        let file = match rest.strip_prefix('"') {
            Some(r) => r.split('"').next().unwrap_or(""),
            None => rest.split([',', ' ', '\t']).next().unwrap_or(""),
        };
        out.push(format!("cat {}", quote(file)));
    }
    out.join("\n")
}

/// `-F FILE`, `-FFILE`.
fn ssh_configs(args: &[Arg]) -> Vec<String> {
    let mut out = Vec::new();
    let mut words = args[1..].iter().map(|a| a.text.as_str());
    while let Some(w) = words.next() {
        if w == "-F" {
            out.extend(words.next().map(str::to_owned));
        } else if let Some(v) = w.strip_prefix("-F").filter(|v| !v.is_empty()) {
            out.push(v.to_owned());
        }
    }
    out
}

/// A program's input files (operands past its valued options); none is standard input.
fn inputs(args: &[Arg], valued: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let mut words = args[1..].iter().map(|a| a.text.as_str());
    while let Some(w) = words.next() {
        if valued.contains(&w) {
            words.next();
        } else if w == "-" || !w.starts_with('-') {
            out.push(w.to_owned());
        }
    }
    if out.is_empty() {
        out.push("-".to_owned());
    }
    out
}

/// `-U` alone or in a cluster of groff's flags (`-UTutf8` is not one: T takes a value).
fn roff_flag(word: &str, flag: char) -> bool {
    let Some(cluster) = word.strip_prefix('-').filter(|c| !c.starts_with('-')) else {
        return false;
    };
    for c in cluster.chars() {
        if c == flag {
            return true;
        }
        if ROFF_VALUED.iter().any(|v| v.ends_with(c)) {
            return false;
        }
    }
    false
}

/// `Match … exec "CMD"`, `ProxyCommand CMD`, `LocalCommand CMD`, `KnownHostsCommand CMD`
/// (also `Keyword=value`).
fn ssh_commands(text: &str) -> String {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        let split = line.find([' ', '\t', '=']).unwrap_or(line.len());
        let (key, rest) = line.split_at(split);
        let rest = rest.trim_start_matches([' ', '\t', '=']);
        match key.to_ascii_lowercase().as_str() {
            "match" => {
                let words = config_words(rest);
                let exec = words.iter().position(|w| w.eq_ignore_ascii_case("exec"));
                out.extend(exec.and_then(|i| words.get(i + 1)).cloned());
            }
            "proxycommand" | "localcommand" | "knownhostscommand"
                if !rest.eq_ignore_ascii_case("none") =>
            {
                out.push(rest.to_owned());
            }
            _ => {}
        }
    }
    out.join("\n")
}

/// ssh_config's words: blanks separate them, double quotes keep blanks in one.
fn config_words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in text.chars() {
        match c {
            '"' => quoted = !quoted,
            ' ' | '\t' if !quoted => {
                if !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// A roff document's requests that read files (`cat FILE`), and under `-U` those that run
/// commands or write files. Strings defined with `.ds`/`.as` are interpolated (`\*[p]`,
/// `\*(pa`, `\*p`) as groff does before it reads the request's argument.
fn roff_commands(text: &str, unsafe_mode: bool) -> String {
    let mut strings: Vec<(String, String)> = Vec::new();
    let mut out = Vec::new();
    for line in text.lines() {
        let Some(request) = line.strip_prefix(['.', '\'']) else {
            continue;
        };
        let request = interpolate(request.trim_start(), &strings);
        let (name, arg) = request.split_once([' ', '\t']).unwrap_or((&request, ""));
        let arg = arg.trim_start();
        match name {
            "ds" | "ds1" | "as" | "as1" => {
                let (key, value) = arg.split_once([' ', '\t']).unwrap_or((arg, ""));
                let value = value.strip_prefix('"').unwrap_or(value).to_owned();
                match (
                    name.starts_with('a'),
                    strings.iter_mut().find(|(k, _)| k == key),
                ) {
                    (true, Some((_, old))) => old.push_str(&value),
                    _ => strings.push((key.to_owned(), value)),
                }
            }
            "so" | "mso" | "cf" | "trf" | "nx" | "soquiet" | "msoquiet" => {
                out.push(format!("cat {}", quote(arg)))
            }
            "sy" | "pso" | "pi" if unsafe_mode => out.push(arg.to_owned()),
            "open" | "opena" if unsafe_mode => {
                let file = arg.split_whitespace().nth(1).unwrap_or("");
                out.push(format!(": >> {}", quote(file)));
            }
            _ => {}
        }
    }
    out.join("\n")
}

/// `\*[name]`, `\*(xy`, `\*x` replaced by the string's value (an unknown one by nothing, as
/// groff does).
fn interpolate(line: &str, strings: &[(String, String)]) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find("\\*") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let (name, used) = match after.chars().next() {
            Some('[') => match after.find(']') {
                Some(end) => (&after[1..end], end + 1),
                None => (after, after.len()),
            },
            Some('(') => {
                let end = after.char_indices().nth(3).map_or(after.len(), |(i, _)| i);
                (&after[1..end], end)
            }
            Some(c) => (&after[..c.len_utf8()], c.len_utf8()),
            None => ("", 0),
        };
        if let Some((_, v)) = strings.iter().rev().find(|(k, _)| k == name) {
            out.push_str(v);
        }
        rest = &after[used..];
    }
    out.push_str(rest);
    out
}

/// A C source's `#include "F"` / `#include <F>` (an absolute or climbing `<F>` only: the
/// others are the system's headers) and `#embed`, read after backslash-newline splices; an
/// `#include` of a macro names a file only known when it is preprocessed.
fn c_commands(text: &str) -> String {
    let spliced = text.replace("\\\r\n", "").replace("\\\n", "");
    let mut out = Vec::new();
    for line in spliced.lines() {
        let Some(directive) = line.trim_start().strip_prefix('#') else {
            continue;
        };
        let directive = directive.trim_start();
        let rest = ["include_next", "include", "import", "embed"]
            .iter()
            .find_map(|d| directive.strip_prefix(d));
        let Some(rest) = rest.map(str::trim_start) else {
            continue;
        };
        let file = match rest.chars().next() {
            Some('"') => rest[1..].split('"').next(),
            Some('<') => rest[1..]
                .split('>')
                .next()
                .filter(|f| f.starts_with('/') || f.contains("..")),
            _ => Some("$INCLUDED_BY_A_MACRO"),
        };
        if let Some(f) = file {
            let f = if f.starts_with('$') {
                f.to_owned()
            } else {
                quote(f)
            };
            out.push(format!("cat {f}"));
        }
    }
    out.join("\n")
}

/// A word as the shell reads it back as itself.
pub(super) fn quote(w: &str) -> String {
    format!("'{}'", w.replace('\'', "'\\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_each_document_runs_or_reads() {
        let ssh = "Host x\n  User u\nMatch host y exec \"rm -rf ~/d\"\n ProxyCommand=nc %h %p\n";
        assert_eq!(ssh_commands(ssh), "rm -rf ~/d\nnc %h %p");
        let roff = ".TL\n.ds p /h/.aws/cred\n.so \\*[p]entials\n.sy rm -rf x\n";
        assert_eq!(roff_commands(roff, false), "cat '/h/.aws/credentials'");
        assert_eq!(
            roff_commands(roff, true),
            "cat '/h/.aws/credentials'\nrm -rf x"
        );
        let c = "#include <stdio.h>\n#include \"/h/.ss\\\nh/id_rsa\"\n# include \"x.h\"\n";
        assert_eq!(c_commands(c), "cat '/h/.ssh/id_rsa'\ncat 'x.h'");
        assert!(roff_flag("-U", 'U') && roff_flag("-zU", 'U') && !roff_flag("-TU", 'U'));
    }
}
