//! Program code an interpreter runs (`python3 -c`, `node -e`, a script the session wrote, a
//! code-mode program) read for what it does outside plain computation: the files it opens,
//! writes, copies or deletes, the commands it runs, the addresses it fetches, the variables it
//! reads. Python and JavaScript are read into the shell commands that would do the same
//! (`shutil.rmtree(os.path.expanduser('~/docs'))` is `rm -rf ~/'docs'`), which the shell model
//! follows as a nested script so every guard judges them. What cannot be read that way — a
//! path computed at run time, `eval`, a module or name used other than by a call the reader
//! knows — is named in `Reading::unread`, and the program is opaque, as before. A name a
//! directory listing gave (`js::listing`: `for (const f of fs.readdirSync('data'))`) is
//! followed: a path built from it is some entry of that directory, judged as every one.
//!
//! Every name that reaches outside (a module such as `os` or `fs`, a function imported from
//! one, a builtin such as `open`) must be consumed by a call the reader translated; any other
//! use of it leaves the program unread. Third-party modules are not judged (running a
//! project's own dependencies is not judged either), but any string in the program that
//! names a path is read as a file the program may open, so a credential named anywhere is
//! seen.

mod c;
mod chain;
mod go;
pub mod imports;
mod js;
mod lex;
mod literal;
mod meanings;
mod native;
mod process;
mod python;
mod reader;
mod rust;

pub use lex::Lang;

/// What a program does, as shell commands, and what of it could not be read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Reading {
    /// One command per line.
    pub script: String,
    /// The first thing that could not be read (`eval`, `a path computed at run time`…).
    pub unread: Option<String>,
    /// The first of those that runs a program, deletes, moves, changes permissions, loads code
    /// or opens a connection: all but a read, write or listing of a computed path.
    pub grave: Option<String>,
    /// The first of those that runs a program or code, or opens a connection: all but a
    /// read, write, deletion, move or mode change of a computed path.
    pub runs: Option<String>,
}

impl Reading {
    /// The commands, then, when `unread` names what could not be read, a line whose effect is
    /// only known when it runs, so the opaque guard names the program as such.
    pub fn script_with(&self, unread: Option<&str>) -> String {
        match unread {
            Some(why) if self.script.is_empty() => unread_line(why),
            Some(why) => format!("{}\n{}", self.script, unread_line(why)),
            None => self.script.clone(),
        }
    }

    /// The commands without the variables read (`printenv NAME`): a project's code takes its
    /// settings from the environment, and what it sends out is judged by the line that sends.
    pub fn without_env_reads(&self) -> String {
        (self.script.lines())
            .filter(|l| *l != "printenv" && !l.starts_with("printenv '"))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// A shell line whose effect is only known when it runs (`eval` of a substitution), carrying
/// `why` as plain words.
pub fn unread_line(why: &str) -> String {
    let words: String = why
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '.' | '_' | '-' | '/'))
        .collect();
    format!("eval \"$(: {words})\"")
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
        Lang::C => c::read(code),
        Lang::Rust => rust::read(code),
        Lang::Go => go::read(code),
    }
}

/// The language of a source file, by its name: what the readers know, for the files build
/// tools compile or run.
pub fn source_language(name: &str) -> Option<Lang> {
    let ext = name.rsplit_once('.').map(|(_, e)| e)?;
    Some(match ext {
        "py" => Lang::Python,
        "js" | "mjs" | "cjs" | "jsx" | "ts" | "mts" | "cts" | "tsx" => Lang::Js,
        "c" | "h" | "cc" | "cp" | "cpp" | "cxx" | "c++" | "C" | "hh" | "hpp" | "hxx" | "i"
        | "ii" => Lang::C,
        "rs" => Lang::Rust,
        "go" => Lang::Go,
        _ => return None,
    })
}

/// A value known without running the program: a path or text, possibly relative to home.
#[derive(Debug, Clone, PartialEq)]
enum Val {
    Lit(String),
    /// `~` followed by this text (`os.path.expanduser('~/x')`, `os.homedir() + '/x'`).
    Home(String),
    /// A path in a temporary directory the program made itself (Go's `t.TempDir()`,
    /// `os.MkdirTemp`): removing it deletes nothing that was there before.
    Temp(String),
    /// One name a directory listing gave (`f` in `for (const f of fs.readdirSync('data'))`,
    /// `listing`): any name, dotfiles included, but one name: never `.` or `..` (Node's
    /// `readdir` and Python's `os.listdir` leave them out) and never holding a `/`.
    Entry,
    /// Some entry of the directory this value names (`'data/' + f`, `path.join('data', f)`):
    /// whichever the listing gives, so any of them.
    EntryOf(Box<Val>),
}

impl Val {
    fn plus(self, other: Val) -> Option<Val> {
        match (self, other) {
            (Val::Lit(a), Val::Lit(b)) => Some(Val::Lit(a + &b)),
            (Val::Home(a), Val::Lit(b)) => Some(Val::Home(a + &b)),
            (Val::Temp(a), Val::Lit(b)) => Some(Val::temp(a + &b)),
            (Val::Lit(a), Val::Temp(b)) => Some(Val::Lit(a + &b)),
            (Val::Lit(a), Val::Entry) if a.is_empty() => Some(Val::Entry),
            // `'data/' + f`: a directory's text ending in `/`, then a name from a listing.
            (dir, Val::Entry) => dir.slashed_dir().map(|d| Val::EntryOf(Box::new(d))),
            // `f + '.bak'`, `'data/' + f + '.json'`: still one name in the same directory.
            (entry @ (Val::Entry | Val::EntryOf(_)), Val::Lit(b)) if !b.contains('/') => {
                Some(entry)
            }
            // Home in the middle of a text is no path the shell could spell.
            _ => None,
        }
    }

    /// The directory a text ending in `/` names (`data/` is `data`, `/` is `/`).
    fn slashed_dir(self) -> Option<Val> {
        let ends = |s: &str| s.ends_with('/');
        match self {
            Val::Lit(s) if ends(&s) => Some(Val::Lit(dir_text(&s))),
            Val::Temp(s) if ends(&s) => Some(Val::Temp(dir_text(&s))),
            // `~/` is home itself.
            Val::Home(s) if ends(&s) => Some(Val::Home(s.trim_end_matches('/').to_string())),
            _ => None,
        }
    }

    /// The entries of the directory this value names; a listing's name joined to `''` is
    /// itself.
    fn entries(self) -> Option<Val> {
        match self {
            Val::Lit(s) if s.is_empty() => Some(Val::Entry),
            Val::Lit(s) => Some(Val::entries_of(Val::Lit(dir_text(&s)))),
            Val::Temp(s) => Some(Val::entries_of(Val::Temp(dir_text(&s)))),
            Val::Home(s) => Some(Val::entries_of(Val::Home(
                s.trim_end_matches('/').to_string(),
            ))),
            Val::Entry | Val::EntryOf(_) => None,
        }
    }

    fn entries_of(dir: Val) -> Val {
        Val::EntryOf(Box::new(dir))
    }

    /// A name from a listing, or a path built from one.
    fn is_entry(&self) -> bool {
        matches!(self, Val::Entry | Val::EntryOf(_))
    }

    /// The directory whose entries an entry value stands for (a bare name is one of the
    /// working directory's).
    fn listed_dir(&self) -> Option<Val> {
        match self {
            Val::Entry => Some(Val::Lit(".".into())),
            Val::EntryOf(d) => Some((**d).clone()),
            _ => None,
        }
    }

    /// A path under a fresh temporary directory, unless `..` may lead out of it.
    fn temp(path: String) -> Val {
        match path.contains("..") {
            true => Val::Lit(path),
            false => Val::Temp(path),
        }
    }

    /// `os.path.join` / `path.join` / `Path / part`: a part that is absolute starts over. A
    /// name from a listing joined to a directory is one of its entries; nothing is joined
    /// after one (`path.join('packages', d, 'package.json')` is not followed).
    fn join(self, part: Val) -> Option<Val> {
        if self.is_entry() {
            return None;
        }
        Some(match part {
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
                    Val::Temp(a) => Val::temp(format!("{a}{}{p}", sep(&a))),
                    Val::Entry | Val::EntryOf(_) => return None,
                }
            }
            Val::Temp(_) => part,
            Val::Entry => return self.entries(),
            Val::EntryOf(_) => return None,
        })
    }

    /// `expanduser`: a leading `~` is home.
    fn expand_user(self) -> Val {
        match self {
            Val::Lit(s) if s == "~" || s.starts_with("~/") => Val::Home(s[1..].to_string()),
            other => other,
        }
    }

    /// The value as one shell word; an entry as the pattern of every name in its directory
    /// (`'data'/*`), which only a file command's operand may be (`Reader::emit`).
    fn word(&self) -> String {
        match self {
            Val::Lit(s) | Val::Temp(s) => quote(s),
            Val::Home(rest) if rest.is_empty() => "~".to_string(),
            Val::Home(rest) => format!("~{}", quote(rest)),
            Val::Entry => format!("{}/*", quote(".")),
            Val::EntryOf(d) => match &**d {
                Val::Lit(s) if s == "/" => "/*".to_string(),
                d => format!("{}/*", d.word()),
            },
        }
    }
}

/// A directory's path without the `/` after it (`/` stays itself).
fn dir_text(s: &str) -> String {
    match s.trim_end_matches('/') {
        "" if s.starts_with('/') => "/".to_string(),
        t => t.to_string(),
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
    grave: Option<String>,
    runs: Option<String>,
}

impl Out {
    fn line(&mut self, words: &[String]) {
        self.lines.push(words.join(" "));
    }

    fn unread(&mut self, why: impl Into<String>) {
        let why = why.into();
        if self.runs.is_none() {
            self.runs = Some(why.clone());
        }
        self.grave(why);
    }

    /// Unread: a deletion, move or mode change of a path computed at run time.
    fn grave(&mut self, why: impl Into<String>) {
        let why = why.into();
        if self.grave.is_none() {
            self.grave = Some(why.clone());
        }
        self.unknown(why);
    }

    /// Unread, but only a read, write or listing of a path computed at run time.
    fn unknown(&mut self, why: impl Into<String>) {
        if self.unread.is_none() {
            self.unread = Some(why.into());
        }
    }

    fn finish(self) -> Reading {
        Reading {
            script: self.lines.join("\n"),
            unread: self.unread,
            grave: self.grave,
            runs: self.runs,
        }
    }
}

#[cfg(test)]
mod tests;
