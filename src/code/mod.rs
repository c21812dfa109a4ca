//! Program code an interpreter runs (`python3 -c`, `node -e`, a script the session wrote, a
//! code-mode program) read for what it does outside plain computation: the files it opens,
//! writes, copies or deletes, the commands it runs, the addresses it fetches, the variables it
//! reads. Python and JavaScript are read into the shell commands that would do the same
//! (`shutil.rmtree(os.path.expanduser('~/docs'))` is `rm -rf ~/'docs'`), which the shell model
//! follows as a nested script so every guard judges them. What cannot be read that way — a
//! path computed at run time, `eval`, a module or name used other than by a call the reader
//! knows — is named in `Reading::unread`, and the program is opaque, as before.
//!
//! Every name that reaches outside (a module such as `os` or `fs`, a function imported from
//! one, a builtin such as `open`) must be consumed by a call the reader translated; any other
//! use of it leaves the program unread. Third-party modules are not judged (running a
//! project's own dependencies is not judged either), but any string in the program that
//! names a path is read as a file the program may open, so a credential named anywhere is
//! seen.

mod chain;
pub mod imports;
mod js;
mod lex;
mod python;
mod reader;

pub use lex::Lang;

/// What a program does, as shell commands, and what of it could not be read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Reading {
    /// One command per line.
    pub script: String,
    /// The first thing that could not be read (`eval`, `a path computed at run time`…).
    pub unread: Option<String>,
}

/// The language an interpreter program speaks, for those the readers know.
pub fn language(program: &str) -> Option<Lang> {
    match program {
        // pytest runs the test files it collects (`imports`): Python.
        p if p.starts_with("python") || p == "pytest" || p == "py.test" => Some(Lang::Python),
        "node" | "nodejs" | "deno" | "bun" | "ts-node" | "tsx" => Some(Lang::Js),
        _ => None,
    }
}

/// Reads `code` in `lang`.
pub fn read(lang: Lang, code: &str) -> Reading {
    match lang {
        Lang::Python => python::read(code),
        Lang::Js => js::read(code),
    }
}

/// A value known without running the program: a path or text, possibly relative to home.
#[derive(Debug, Clone, PartialEq)]
enum Val {
    Lit(String),
    /// `~` followed by this text (`os.path.expanduser('~/x')`, `os.homedir() + '/x'`).
    Home(String),
}

impl Val {
    fn plus(self, other: Val) -> Option<Val> {
        match (self, other) {
            (Val::Lit(a), Val::Lit(b)) => Some(Val::Lit(a + &b)),
            (Val::Home(a), Val::Lit(b)) => Some(Val::Home(a + &b)),
            // Home in the middle of a text is no path the shell could spell.
            _ => None,
        }
    }

    /// `os.path.join` / `path.join` / `Path / part`: a part that is absolute starts over.
    fn join(self, part: Val) -> Val {
        match part {
            Val::Lit(p) if p.starts_with('/') => Val::Lit(p),
            Val::Home(_) => part,
            Val::Lit(p) => {
                let sep = |s: &str| {
                    if s.is_empty() || s.ends_with('/') {
                        ""
                    } else {
                        "/"
                    }
                };
                match self {
                    Val::Lit(a) => Val::Lit(format!("{a}{}{p}", sep(&a))),
                    Val::Home(a) => Val::Home(format!("{a}{}{p}", sep(&format!("~{a}")))),
                }
            }
        }
    }

    /// `expanduser`: a leading `~` is home.
    fn expand_user(self) -> Val {
        match self {
            Val::Lit(s) if s == "~" || s.starts_with("~/") => Val::Home(s[1..].to_string()),
            other => other,
        }
    }

    /// The value as one shell word.
    fn word(&self) -> String {
        match self {
            Val::Lit(s) => quote(s),
            Val::Home(rest) if rest.is_empty() => "~".to_string(),
            Val::Home(rest) => format!("~{}", quote(rest)),
        }
    }
}

/// Single-quoted for the shell, `'` written as `'\''`.
fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// A string that names a file: no blank, a path's shape (`/…`, `./…`, `~/…`, `.name`, or a
/// name with a directory), not an address.
fn path_like(s: &str) -> bool {
    let shaped = s.starts_with('/')
        || s.starts_with("./")
        || s.starts_with("../")
        || s.starts_with("~/")
        || s.starts_with('.') && s.len() > 1
        || s.contains('/');
    shaped
        && s.len() <= 1024
        && !s.contains("://")
        && !s.chars().any(|c| c.is_whitespace() || c.is_control())
}

/// What the readers collect while they walk a program.
#[derive(Default)]
struct Out {
    lines: Vec<String>,
    unread: Option<String>,
}

impl Out {
    fn line(&mut self, words: &[String]) {
        self.lines.push(words.join(" "));
    }

    fn unread(&mut self, why: impl Into<String>) {
        if self.unread.is_none() {
            self.unread = Some(why.into());
        }
    }

    fn finish(self) -> Reading {
        Reading {
            script: self.lines.join("\n"),
            unread: self.unread,
        }
    }
}

#[cfg(test)]
mod tests;
