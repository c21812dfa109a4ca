//! A makefile read as the shell lines make runs: its recipes, and the commands of its
//! `$(shell …)` calls, which run while make reads the file. make's variables are replaced by
//! what the makefile plainly sets them to, and otherwise by a word, so that `$(CC) -o $@ $^`
//! is a compiler run on a file, not a program only known when it runs; one named as a secret
//! (`$(DB_PASSWORD)`) is the environment's, which make hands to every recipe.
//!
//! A run of make (`Walker::make`) also runs what its command line and environment give it:
//! `make CC='…' x` pastes CC into the built-in rule's command line even with no makefile at
//! all (GNU make manual, "Catalogue of Built-In Rules"; "Variables from the Environment"), the
//! makefiles `MAKEFILES` lists are read first, and every makefile's `include`d files are read
//! with it.

use super::vars::Val;
use super::walk::{Exec, Walker};
use super::wrappers::basename;
use super::{Arg, OpaqueKind};

/// A makefile's recipe lines, and the commands its `$(shell …)` calls run when it is read.
/// make's own variables become what they stand for where the makefile sets them plainly, else
/// a word, so a recipe is judged as the line the shell will get.
pub fn makefile_commands(text: &str) -> String {
    let vars = make_vars(text);
    let mut out = Vec::new();
    for line in text.lines() {
        if let Some(recipe) = line.strip_prefix('\t') {
            let recipe = recipe.trim_start_matches(['@', '-', '+', ' ']);
            out.push(expand_make(recipe, &vars).replace("$$", "$"));
        }
        let mut rest = line;
        while let Some(at) = rest.find("$(shell ") {
            let inner = &rest[at + "$(shell ".len()..];
            let end = closing_paren(inner);
            out.push(expand_make(&inner[..end], &vars));
            rest = &inner[end..];
        }
        out.extend(file_calls(line, &vars));
    }
    out.join("\n")
}

/// GNU make's `$(file <F)` reads F while the makefile is read (`$(info $(file <.env))`
/// prints it), `$(file >F,TEXT)` and `$(file >>F,TEXT)` write it: each as the shell line
/// that does the same, `cat F` or `: > F`.
fn file_calls(line: &str, vars: &[(String, String)]) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("$(file ").or_else(|| rest.find("${file ")) {
        let inner = &rest[at + "$(file ".len()..];
        let end = closing_paren(inner).min(inner.find('}').unwrap_or(inner.len()));
        let call = inner[..end].trim_start();
        let (write, target) = match call.strip_prefix(">>").or_else(|| call.strip_prefix('>')) {
            Some(t) => (true, t),
            None => (false, call.strip_prefix('<').unwrap_or(call)),
        };
        let file = expand_make(target.split(',').next().unwrap_or("").trim(), vars);
        let quoted = format!("'{}'", file.replace('\'', "'\\''"));
        out.push(match write {
            true => format!(": > {quoted}"),
            false => format!("cat {quoted}"),
        });
        rest = &inner[end..];
    }
    out
}

/// The byte offset of the `)` that closes a `$(` whose text `s` follows.
pub fn closing_paren(s: &str) -> usize {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => return i,
            ')' => depth -= 1,
            _ => {}
        }
    }
    s.len()
}

/// `NAME = value` (and `:=`, `?=`, `::=`) assignments of a makefile, outside recipes.
fn make_vars(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('\t')) {
        let Some((name, value)) = line.split_once('=') else {
            continue;
        };
        let name = name.trim_end_matches([':', '?', '+', ' ']).trim();
        let plain = !name.is_empty()
            && (name.chars()).all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !name.contains(' ');
        if plain {
            out.push((name.to_string(), value.trim().to_string()));
        }
    }
    out
}

/// `$(NAME)`/`${NAME}` replaced: a value the makefile sets, the environment's `HOME`, make's
/// built-in `RM`/`MAKE`, the automatic variables as a file name; others as their name (a
/// word, never a path outside).
fn expand_make(line: &str, vars: &[(String, String)]) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let (name, used) = match after.chars().next() {
            Some(open @ ('(' | '{')) => {
                let close = if open == '(' { ')' } else { '}' };
                match after[1..].find(close) {
                    Some(end) => (after[1..=end].to_string(), end + 2),
                    None => (String::new(), 0),
                }
            }
            Some('$') => {
                out.push_str("$$");
                rest = &after[1..];
                continue;
            }
            Some(c @ ('@' | '<' | '^' | '*' | '?' | '+')) => (c.to_string(), 1),
            _ => (String::new(), 0),
        };
        rest = &after[used..];
        let value = match name.as_str() {
            "" => "$".to_string(),
            "HOME" => "$HOME".to_string(),
            "RM" => "rm -f".to_string(),
            "MAKE" => "make".to_string(),
            "@" | "<" | "^" | "*" | "?" | "+" => "target".to_string(),
            n => match vars.iter().rev().find(|(k, _)| k == n) {
                // One level: a value naming other variables keeps them as words.
                Some((_, v)) => expand_make_shallow(v),
                None if n.contains(' ') => "value".to_string(),
                // From the environment (or an included dotenv file): the shell's variable.
                None if crate::guards::secret_variable(n) => format!("\"${{{n}}}\""),
                None => n.to_ascii_lowercase(),
            },
        };
        out.push_str(&value);
    }
    out.push_str(rest);
    out
}

/// A variable's value with its own references as words.
fn expand_make_shallow(v: &str) -> String {
    if !v.contains('$') {
        return v.to_string();
    }
    expand_make(v, &[])
}

/// Variables make's built-in rules paste into the command lines they run (`$(CC) $(CFLAGS)
/// $(CPPFLAGS) $(LDFLAGS) $(TARGET_ARCH) $^ $(LDLIBS) -o $@`): the programs first, then their
/// flags. Given in the environment, they replace make's defaults.
const RULE_VARIABLES: [&str; 26] = [
    "CC",
    "CXX",
    "CPP",
    "FC",
    "PC",
    "AS",
    "LD",
    "AR",
    "LEX",
    "YACC",
    "M2C",
    "CO",
    "GET",
    "MAKEINFO",
    "TEX",
    "RM",
    "CFLAGS",
    "CXXFLAGS",
    "CPPFLAGS",
    "LDFLAGS",
    "LDLIBS",
    "ASFLAGS",
    "ARFLAGS",
    "FFLAGS",
    "TARGET_ARCH",
    "YFLAGS",
];

/// Of those, the programs: one only known when it runs is a program only known then.
const RULE_PROGRAMS: usize = 16;

/// The names make reads without `-f`, in its order.
const DEFAULT_MAKEFILES: [&str; 3] = ["GNUmakefile", "makefile", "Makefile"];

impl Walker {
    /// `make …`: the command lines its variables make (`variables`), then the makefiles the
    /// session wrote that it reads (`None` when it reads none: the command is then emitted as
    /// any other is).
    pub(super) fn make(&mut self, name: &str, args: &[Arg], cx: &Exec) -> Option<Vec<usize>> {
        self.make_variables(args, cx);
        self.written_makefiles(name, args, cx)
    }

    /// `make CC='…' x`, `CC='…' make x`, `MAKEFLAGS='CC=…' make`: each value given a variable
    /// on the command line, and each value of a built-in rule's variable from the environment,
    /// judged as the command line make will paste it into (a `$(shell …)` in it runs too).
    /// A computed value is left alone (`make VERSION=$(git describe)`), unless it is a rule's
    /// program.
    fn make_variables(&mut self, args: &[Arg], cx: &Exec) {
        let mut given: Vec<(String, Val)> = Vec::new();
        let assigned = args[1..].iter().filter(|a| !a.text.starts_with('-'));
        for a in assigned {
            let Some((n, v)) = a.text.split_once('=').filter(|(n, _)| plain_name(n)) else {
                continue;
            };
            let v = if a.unresolved {
                Val::Unknown
            } else {
                Val::Set(v.to_owned())
            };
            given.push((n.to_owned(), v));
        }
        for var in RULE_VARIABLES {
            if let Some(v) = self.given(cx, var) {
                given.push((var.to_owned(), v));
            }
        }
        if let Some(Val::Set(flags)) = self.given(cx, "MAKEFLAGS") {
            given.extend(make_words(&flags).into_iter().filter_map(|w| {
                let (n, v) = w.split_once('=').filter(|(n, _)| plain_name(n))?;
                Some((n.to_owned(), Val::Set(v.to_owned())))
            }));
        }
        for (var, value) in given.into_iter().take(16) {
            let text = match value {
                Val::Set(v) => makefile_commands(&format!("x:\n\t{v}\n")),
                Val::Unknown if RULE_VARIABLES[..RULE_PROGRAMS].contains(&var.as_str()) => {
                    let what = format!("make's {var}, a program only known when it runs");
                    self.opaque(OpaqueKind::DynamicCommand, &what);
                    continue;
                }
                _ => continue,
            };
            self.run_lines(&format!("make {var}="), &text, cx);
        }
    }

    /// The makefiles the session wrote that make reads: those `MAKEFILES` lists, then each
    /// `-f FILE` (a here-doc for `-f -`), else the first default name; each with the files
    /// it includes. Their recipes and `$(shell …)` commands run one level down; a text only
    /// known when it runs is opaque.
    fn written_makefiles(&mut self, name: &str, args: &[Arg], cx: &Exec) -> Option<Vec<usize>> {
        let mut files: Vec<String> = match self.given(cx, "MAKEFILES") {
            Some(Val::Set(v)) => v.split_whitespace().map(str::to_owned).collect(),
            _ => Vec::new(),
        };
        let named = makefile_options(args);
        match named.is_empty() {
            true => files.extend(
                (DEFAULT_MAKEFILES.iter())
                    .find(|f| self.written_text(f).is_some())
                    .map(|f| f.to_string()),
            ),
            false => files.extend(named),
        }
        let stdin = || cx.stdin_text.clone().or_else(|| self.fed_text(&cx.inputs));
        let texts: Vec<Option<String>> = (files.iter())
            .filter_map(|f| match f.as_str() {
                "-" | "/dev/stdin" => stdin().map(Some),
                f => self.written_text(basename(f)),
            })
            .collect();
        if texts.is_empty() {
            return None;
        }
        let mut out = vec![self.emit(args.to_vec(), cx.clone())];
        let mut unknown = false;
        let mut whole = String::new();
        for text in texts {
            match text {
                Some(t) => whole.push_str(&self.with_includes(&t, 0, &mut unknown)),
                None => unknown = true,
            }
            whole.push('\n');
        }
        if unknown {
            self.opaque(OpaqueKind::DynamicScript, &cx.src);
        }
        let label = format!("{name} (written)");
        let script = Arg::literal(&makefile_commands(&whole));
        out.extend(self.nested_shell(&label, args, script, Vec::new(), cx.clone()));
        Some(out)
    }

    /// A makefile's text followed by the text of each file it `include`s that the session
    /// wrote (three levels deep); `unknown` is set when one was written with text only known
    /// when it runs. A file make finds on disk is the project's own, as the makefile is.
    fn with_includes(&self, text: &str, depth: u32, unknown: &mut bool) -> String {
        let mut out = text.to_owned();
        if depth > 2 {
            return out;
        }
        for line in text.lines() {
            let rest = ["include ", "-include ", "sinclude "]
                .iter()
                .find_map(|k| line.trim_start().strip_prefix(k));
            for word in rest.into_iter().flat_map(str::split_whitespace).take(8) {
                match self.written_text(basename(word)) {
                    Some(Some(t)) => {
                        out.push('\n');
                        out.push_str(&self.with_includes(&t, depth + 1, unknown));
                    }
                    Some(None) => *unknown = true,
                    None => {}
                }
            }
        }
        out
    }
}

/// A make variable's name as an assignment may give it.
fn plain_name(n: &str) -> bool {
    !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Every makefile `-f FILE` / `-fFILE` / `--file=FILE` / `--makefile FILE` names.
fn makefile_options(args: &[Arg]) -> Vec<String> {
    let mut out = Vec::new();
    let mut words = args[1..].iter().map(|a| a.text.as_str());
    while let Some(w) = words.next() {
        if matches!(w, "-f" | "--file" | "--makefile") {
            out.extend(words.next().map(str::to_owned));
        } else if let Some(v) = (w.strip_prefix("--file="))
            .or(w.strip_prefix("--makefile="))
            .or(w.strip_prefix("-f").filter(|v| !v.is_empty()))
        {
            out.push(v.to_owned());
        }
    }
    out
}

/// MAKEFLAGS's words: split at blanks, a backslash keeping the blank after it.
fn make_words(flags: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut chars = flags.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out
                .last_mut()
                .into_iter()
                .for_each(|w| w.extend(chars.next())),
            ' ' | '\t' => out.push(String::new()),
            c => out.last_mut().into_iter().for_each(|w| w.push(c)),
        }
    }
    out.retain(|w| !w.is_empty());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn makefile_variables_are_what_they_stand_for() {
        let mk = "OUT := build\nall:\n\t@$(RM) -r $(OUT) $@\n\trm -rf $(HOME)/x $$TMP\n";
        assert_eq!(
            makefile_commands(mk),
            "rm -f -r build target\nrm -rf $HOME/x $TMP"
        );
        let secret = "show:\n\t@echo $(DB_PASSWORD) $(CC)\n";
        assert_eq!(makefile_commands(secret), "echo \"${DB_PASSWORD}\" cc");
        let read = "F := .env\n$(info $(file <$(F)))\n$(file >> log,x)\n";
        assert_eq!(makefile_commands(read), "cat '.env'\n: > 'log'");
        assert_eq!(make_words("-s CC=rm\\ -rf\\ x"), ["-s", "CC=rm -rf x"]);
    }
}
