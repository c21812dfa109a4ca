//! Programs built from files the session wrote: `gcc -o x x.c`, `g++ -shared -o x.so x.cpp`,
//! `cc -c x.c` then `cc x.o`, `rustc x.rs`, `go build -o x main.go`. The output holds what its
//! sources were read to do (`crate::code`), as the shell commands they amount to, so running
//! it (`./x`) or loading it into another program (`LD_PRELOAD=./x.so ls`,
//! `LD_LIBRARY_PATH=. ./app`) is judged as running them; what a source could not be read to do
//! makes running the output opaque. `go run x.go` and `tcc -run x.c` run the program at once.
//!
//! Compiling sources the session did not write records nothing: a project's own code is not
//! judged, as elsewhere.

use super::walk::{Exec, Walker};
use super::wrappers::basename;
use super::{Arg, OpaqueKind};
use crate::code::{self, Lang};

/// How a compiler is asked to build, from its argv.
#[derive(Default)]
struct Build {
    /// Operands, each with the language `-x` gave it (`-` is stdin).
    inputs: Vec<(String, Option<Lang>)>,
    /// `-lNAME`: libraries linked in.
    libs: Vec<String>,
    output: Option<String>,
    /// `-c`: one object per source; `-E`/`-S`/`-fsyntax-only`: no program.
    objects: bool,
    nothing: bool,
    /// `tcc -run`, `go run`: the program runs now.
    runs: bool,
    lang: Option<Lang>,
}

/// The C family's compilers by name: `cc`, `gcc-13`, `x86_64-linux-gnu-gcc`, `clang++`.
fn c_compiler(name: &str) -> bool {
    matches!(
        name,
        "cc" | "c++" | "gcc" | "g++" | "clang" | "clang++" | "tcc" | "musl-gcc" | "icx" | "icpx"
    ) || ["gcc-", "g++-", "clang-", "clang++-"]
        .iter()
        .any(|p| name.starts_with(p))
        || ["-gcc", "-g++", "-cc", "-clang"]
            .iter()
            .any(|s| name.ends_with(s))
}

impl Walker {
    /// A compile of files the session wrote: the output is noted as holding their reading;
    /// a program compiled to run now is run.
    pub(super) fn note_compiled(&mut self, name: &str, args: &[Arg], cx: &Exec) {
        let build = match name {
            _ if c_compiler(name) => cc(args, 1),
            "zig"
                if args
                    .get(1)
                    .is_some_and(|a| matches!(a.text.as_str(), "cc" | "c++")) =>
            {
                cc(args, 2)
            }
            "rustc" => rustc(args),
            "go" if args
                .get(1)
                .is_some_and(|a| matches!(a.text.as_str(), "build" | "run")) =>
            {
                go(args)
            }
            _ => return,
        };
        let stdin = cx.stdin_text.is_some() || !cx.inputs.is_empty();
        if build.nothing || self.written.is_empty() && !stdin {
            return;
        }
        let mut texts = Vec::new();
        for (input, lang) in &build.inputs {
            texts.extend(self.input_text(input, lang.or(build.lang), cx));
        }
        for lib in &build.libs {
            let written = [format!("lib{lib}.so"), format!("lib{lib}.a")]
                .iter()
                .find_map(|f| self.written_text(f));
            texts.extend(written);
        }
        if texts.is_empty() {
            return;
        }
        let text = texts
            .into_iter()
            .collect::<Option<Vec<String>>>()
            .map(|t| t.join("\n"));
        if build.runs {
            self.run_built(name, args, text, cx);
            return;
        }
        for out in outputs(&build) {
            self.remember(out, text.clone());
        }
    }

    /// The reading of one compiler input the session wrote (`None` inside when it is not
    /// known): a source read in its language, with the headers or modules it pulls in that
    /// the session wrote too; an object or library built earlier as the text it holds.
    fn input_text(&self, input: &str, lang: Option<Lang>, cx: &Exec) -> Option<Option<String>> {
        let text = match input {
            "-" => match self.stdin_known(cx) {
                Some(t) => Some(t),
                None if !cx.inputs.is_empty() || cx.stdin_dynamic => None,
                None => return None,
            },
            file => self.written_text(basename(file))?,
        };
        let lang = lang.or_else(|| code::source_language(input));
        let assembly = [".s", ".S", ".sx", ".asm"]
            .iter()
            .any(|e| input.ends_with(e));
        Some(match (text, lang) {
            (None, _) => None,
            (Some(_), _) if assembly => Some(code::unread_line("assembly compiled in")),
            (Some(t), Some(lang)) => Some(self.read_source(lang, &t, 0)),
            (Some(t), None) => Some(t),
        })
    }

    /// A source's reading, then that of each file it includes (`#include "x.h"`, Rust's `mod
    /// x;`) that the session wrote, a few levels deep.
    fn read_source(&self, lang: Lang, text: &str, depth: u32) -> String {
        let reading = code::read(lang, text);
        let mut out = reading.script_with(reading.unread.as_deref());
        if depth >= 3 {
            return out;
        }
        for name in included(lang, text) {
            let Some(included) = self.written_text(&name) else {
                continue;
            };
            let more = match included {
                Some(t) => self.read_source(lang, &t, depth + 1),
                None => code::unread_line("an included file only known when it runs"),
            };
            out.push('\n');
            out.push_str(&more);
        }
        out
    }

    /// `tcc -run x.c`, `go run x.go`: the compiler, then the program's reading as a script
    /// one level down.
    fn run_built(&mut self, name: &str, args: &[Arg], text: Option<String>, cx: &Exec) {
        let Some(text) = text else {
            self.opaque(OpaqueKind::DynamicScript, &cx.src);
            return;
        };
        let label = format!("{name} (built)");
        self.nested_shell(&label, args, Arg::literal(&text), Vec::new(), loader(cx));
    }

    /// `LD_PRELOAD=./x.so cmd`: a library the session wrote or built runs its code in the
    /// program that loads it (its constructors run first); `LD_LIBRARY_PATH=DIR cmd`: any
    /// shared object the session wrote may be the one the loader finds. Judged as a script one
    /// level down; one whose text is only known when it runs is opaque.
    pub(super) fn libraries_loaded(&mut self, var: &str, value: &str, cx: &Exec) {
        let libs: Vec<(String, Option<String>)> = match var {
            "LD_LIBRARY_PATH" => (self.written.iter())
                .filter(|(k, _)| k.ends_with(".so") || k.contains(".so."))
                .cloned()
                .collect(),
            _ => (value.split([':', ' ']))
                .filter(|l| !l.is_empty())
                .filter_map(|l| Some((l.to_string(), self.written_text(basename(l))?)))
                .collect(),
        };
        for (lib, text) in libs.into_iter().take(8) {
            let Some(text) = text else {
                self.opaque(OpaqueKind::DynamicScript, &format!("{var}={lib}"));
                continue;
            };
            let label = format!("{var}={lib}");
            let argv = [Arg::literal(&lib)];
            self.nested_shell(&label, &argv, Arg::literal(&text), Vec::new(), loader(cx));
        }
    }
}

/// The command's place, without its environment: what a loaded program's reading runs needs
/// no `LD_PRELOAD` of its own (which would load it again, and again).
fn loader(cx: &Exec) -> Exec {
    let mut load = Exec::new(cx.depth, cx.src.clone());
    load.wrappers = cx.wrappers.clone();
    load.chdir = cx.chdir.clone();
    load.clear_env = true;
    load
}

/// The names of the files an output is written to (by base name).
fn outputs(build: &Build) -> Vec<String> {
    if let Some(out) = &build.output {
        return vec![basename(out).to_string()];
    }
    if build.objects {
        return (build.inputs.iter())
            .filter(|(f, _)| f != "-")
            .map(|(f, _)| {
                let name = basename(f);
                let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
                format!("{stem}.o")
            })
            .collect();
    }
    vec!["a.out".to_string()]
}

/// `gcc [options] files… [-o out]` from argv index `from`.
fn cc(args: &[Arg], from: usize) -> Build {
    let mut b = Build::default();
    let mut lang = None;
    let mut words = args.iter().skip(from).map(|a| a.text.as_str());
    while let Some(t) = words.next() {
        match t {
            "-o" => b.output = words.next().map(str::to_string),
            "-c" => b.objects = true,
            "-E" | "-S" | "-M" | "-MM" | "-fsyntax-only" => b.nothing = true,
            "-run" => b.runs = true,
            "-x" => {
                lang = match words.next() {
                    Some(l) if l.starts_with('c') || l.starts_with("objective-c") => Some(Lang::C),
                    _ => None,
                }
            }
            "-l" => b.libs.extend(words.next().map(str::to_string)),
            _ if crate::guards::argv::CC_VALUED.contains(&t) => {
                words.next();
            }
            _ if t.starts_with("-o") => b.output = Some(t[2..].to_string()),
            _ if t.starts_with("-l") => b.libs.push(t[2..].to_string()),
            _ if t.starts_with('-') && t != "-" => {}
            _ => b.inputs.push((t.to_string(), lang)),
        }
        // `tcc -run file args…`: what follows the file is the program's.
        if b.runs && !b.inputs.is_empty() {
            break;
        }
    }
    b
}

/// `rustc [options] main.rs`: the crate's file; the output by `-o`, else named after the crate
/// and its type (`libx.so` for a `cdylib`).
fn rustc(args: &[Arg]) -> Build {
    let mut b = Build {
        lang: Some(Lang::Rust),
        ..Build::default()
    };
    let (mut name, mut kind) = (None, "bin".to_string());
    let mut words = args.iter().skip(1).map(|a| a.text.as_str());
    while let Some(t) = words.next() {
        match t {
            "-o" => b.output = words.next().map(str::to_string),
            "--crate-name" => name = words.next().map(str::to_string),
            "--crate-type" => kind = words.next().unwrap_or("bin").to_string(),
            "-C" | "-L" | "--extern" | "--cfg" | "--target" | "--edition" | "--emit"
            | "--out-dir" | "-A" | "-W" | "-D" | "-F" | "-l" => {
                words.next();
            }
            _ if t.starts_with("--crate-type=") => kind = t["--crate-type=".len()..].to_string(),
            _ if t.starts_with('-') && t != "-" => {}
            _ => b.inputs.push((t.to_string(), Some(Lang::Rust))),
        }
    }
    if b.output.is_none() {
        let stem = (b.inputs.first())
            .map(|(f, _)| basename(f))
            .map(|f| f.strip_suffix(".rs").unwrap_or(f).replace('-', "_"));
        let crate_name = name.or(stem).unwrap_or_else(|| "rust_out".into());
        b.output = Some(match kind.as_str() {
            "cdylib" | "dylib" => format!("lib{crate_name}.so"),
            "staticlib" => format!("lib{crate_name}.a"),
            "lib" | "rlib" => format!("lib{crate_name}.rlib"),
            _ => crate_name,
        });
    }
    b
}

/// `go build [-o out] files.go…`, `go run files.go… [args]`: the files named (a package by
/// its directory is the build tools' part, `call::startup::build`).
fn go(args: &[Arg]) -> Build {
    let mut b = Build {
        runs: args[1].text == "run",
        lang: Some(Lang::Go),
        ..Build::default()
    };
    let mut words = args.iter().skip(2).map(|a| a.text.as_str());
    while let Some(t) = words.next() {
        match t {
            "-o" => b.output = words.next().map(str::to_string),
            "-C" | "-p" | "-tags" | "-ldflags" | "-gcflags" | "-buildmode" | "-mod" | "-exec" => {
                words.next();
            }
            _ if t.ends_with(".go") => b.inputs.push((t.to_string(), Some(Lang::Go))),
            _ if b.runs && !b.inputs.is_empty() => break,
            _ => {}
        }
    }
    if b.output.is_none() {
        let first = b.inputs.first().map(|(f, _)| basename(f));
        b.output = first.map(|f| f.strip_suffix(".go").unwrap_or(f).to_string());
    }
    b
}

/// The files a source pulls in by name: C's `#include "x.h"` (not `<…>`, the system's), Rust's
/// `mod x;` (x.rs, or x/mod.rs).
fn included(lang: Lang, text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines().map(str::trim) {
        match lang {
            Lang::C => {
                let Some(rest) = line.strip_prefix('#') else {
                    continue;
                };
                let Some(file) = rest.trim_start().strip_prefix("include") else {
                    continue;
                };
                if let Some(name) = file
                    .trim()
                    .strip_prefix('"')
                    .and_then(|f| f.split('"').next())
                {
                    out.push(basename(name).to_string());
                }
            }
            Lang::Rust => {
                let decl = line.strip_prefix("pub ").unwrap_or(line);
                if let Some(name) = decl.strip_prefix("mod ").and_then(|m| m.strip_suffix(';')) {
                    out.push(format!("{}.rs", name.trim()));
                    out.push("mod.rs".into());
                }
            }
            _ => {}
        }
    }
    out.truncate(16);
    out
}
