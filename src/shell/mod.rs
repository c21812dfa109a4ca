//! The shell model: a command line understood as bash would run it, so guards judge what runs
//! and not how it is spelt. `analyze` turns a script (an exec `command`, `process` input, the
//! string of `bash -c`, a literal `eval`) into the simple commands it runs: argv after quote
//! removal and the expansions that can be known without running anything; what cannot be known
//! is named in `Script::opaque`, never guessed.
//!
//! Parsing is brush-parser's (see Cargo.toml); this module owns expansion, wrappers and nesting.

/// What the shell is given besides the script.
#[derive(Debug, Clone, Default)]
pub struct ShellInput<'a> {
    pub script: &'a str,
    /// The exec tool's `env` param: variables the script sees on top of its own assignments.
    pub env: &'a [(String, String)],
    /// Nesting already spent by the caller (a `process` write into a shell, …); bounded by
    /// `MAX_DEPTH`.
    pub depth: u32,
    /// Files earlier calls of the session wrote, by name (see `Script::written`): running one
    /// runs that text.
    pub earlier: &'a [Written],
}

/// A file a script wrote, by its name (a basename: `sh ./p.sh` and `sh /tmp/p.sh` both run
/// what `> /tmp/p.sh` wrote, which judges more, never less), and its text when known.
pub type Written = (String, Option<String>);

/// The name an `env_reads` entry has when any variable may be read (`${!v}`, `v` unknown).
pub const ANY_VARIABLE: &str = "*";

/// Nesting of `bash -c`, `eval`, substitutions and here-docs followed before giving up.
pub const MAX_DEPTH: u32 = 16;

/// Everything a script would run, flattened: nested scripts (`bash -c '…'`, literal `eval`,
/// `$(…)`, `<(…)`, a here-doc fed to a shell) contribute their commands with a greater depth.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Script {
    pub commands: Vec<Command>,
    /// What could not be resolved; each one makes the script's effect unknown.
    pub opaque: Vec<Opaque>,
    /// Files the script printed into (`echo … > p.sh`), with the earlier calls' files it was
    /// given: what a later call that runs one runs.
    pub written: Vec<Written>,
    /// Wildcards may match a leading dot: `shopt -s dotglob`'s effect, which setting
    /// `GLOBIGNORE` to anything non-empty has too (`GLOBIGNORE=x; cat *` prints `.env`).
    pub dotglob: bool,
    /// Commands whose output bash evaluates as arithmetic through a variable holding it
    /// (`x=$(curl …); echo $((x))`): a subscript in that output runs (`a[$(rm …)]`).
    pub evaluated: Vec<usize>,
}

/// One simple command as it would be executed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Command {
    /// argv after wrappers (`sudo`, `env`, `timeout`, `xargs`, `nice`, …) are removed: `argv[0]`
    /// is the program that really runs, as written (a path stays a path; guards take its
    /// basename).
    pub argv: Vec<Arg>,
    /// The wrappers removed, outermost first, by program name (`sudo`, `env`, `bash -c`, …).
    pub wrappers: Vec<String>,
    pub redirects: Vec<Redirect>,
    /// Indices in `Script::commands` of the commands whose output this one reads: earlier
    /// pipeline stages (stdin), `<(…)` arguments, `$(…)`/backticks in its words.
    pub inputs: Vec<usize>,
    /// Text fed to stdin by a here-doc or here-string, when literal.
    pub stdin_text: Option<String>,
    /// 0 for the top level; +1 per nesting.
    pub depth: u32,
    /// Variables the script never set (so from the host's environment) expanded in its words,
    /// redirects or here-strings: `echo "$OPENAI_API_KEY"` prints one. `ANY_VARIABLE` when
    /// the name is itself only known when it runs (`${!v}`).
    pub env_reads: Vec<String>,
    /// Where it runs when a `cd` earlier in the script moved it (set by `call::cwd`, resolved);
    /// `None`: the call's working directory. The shell model sets it to a wrapper's directory
    /// as written (`env -C DIR cmd`; `/` when computed), which `call::cwd` then resolves.
    pub cwd: Option<String>,
    /// The program an interpreter runs from a file the session wrote (`python3 t.py` after
    /// `write t.py`): judged as inline code is (`guards::inline::code`).
    pub program_text: Option<String>,
    /// Files the session wrote that a test runner it starts discovers and imports (`python3 -m
    /// unittest`, pytest's `test_*.py`): the project's own code, judged as project files are
    /// (`crate::code::imports`).
    pub discovered: Vec<String>,
    /// Its program (`python3 -c`, `node -e`, `program_text`) was read whole as the commands it
    /// amounts to, which follow as a script of their own (`call::code`).
    pub code_read: bool,
}

/// One word after expansion.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Arg {
    /// The word after brace/tilde/parameter expansion and quote removal. A part that could not
    /// be resolved stands as `*` of a pattern (`pattern` and `unresolved` are set): the word is
    /// judged by everything it could be.
    pub text: String,
    /// Unquoted `*`, `?` or `[…]` remain: `text` is a glob pattern (quoted glob characters are
    /// escaped with `\` in `text` so the pattern means what the shell would match).
    pub pattern: bool,
    /// Some part came from a command substitution or an unknown variable.
    pub unresolved: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    /// The file descriptor redirected, when given (`2>`).
    pub fd: Option<u32>,
    pub kind: RedirectKind,
    pub target: Arg,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RedirectKind {
    /// `<`
    Read,
    /// `>`, `>|`, `&>`
    Write,
    /// `>>`, `&>>`
    Append,
    /// `<>`
    ReadWrite,
    /// `>&N`, `<&N`: a descriptor, not a file.
    Duplicate,
}

/// Something the shell would run that cannot be known without running it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opaque {
    pub kind: OpaqueKind,
    /// The source text concerned (shortened), for the verdict's reason.
    pub text: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpaqueKind {
    /// A substitution or unknown variable in command position (`$X -rf`, `$(echo rm) …`).
    DynamicCommand,
    /// `eval`, `bash -c`, `source` of something that is not a literal.
    DynamicScript,
    /// Nesting deeper than `MAX_DEPTH`.
    TooDeep,
    /// The parser rejected the script (a shell would likely reject it too, but we cannot say
    /// what it runs).
    Unparseable,
}

mod ansi;
mod arg_files;
mod arith;
mod builtins;
mod compile;
mod documents;
mod expand;
mod fast;
mod git_alias;
mod githooks;
mod hooks;
mod m4;
mod makefile;
mod nest;
mod parse;
mod project_run;
mod sed;
mod setup;
mod split_string;
#[cfg(test)]
mod tests;
mod vars;
mod walk;
mod wrappers;
mod written;

pub use githooks::HOOKS_FILLED;
pub use makefile::{closing_paren, makefile_commands};
pub use written::copy_operands;

/// The simple commands `input.script` would run, as bash would run them. Never fails: a script
/// the parser rejects yields `OpaqueKind::Unparseable` plus the commands of the lines that do
/// parse.
pub fn analyze(input: &ShellInput) -> Script {
    let mut walker = walk::Walker::new(input.env, input.earlier);
    walker.env_hooks(input.env, input.depth);
    walker.script(input.script, input.depth, &[]);
    walker.finish()
}

/// Whether the parser accepts `text` as a script (a shell would at least try to run it).
pub fn parses(text: &str) -> bool {
    parse::program(text).is_some()
}

/// The same for a command given as an argv array (exec's array form): the words are taken
/// literally (no quote removal or expansion), but wrappers and the scripts of `bash -c` / `eval`
/// inside it are followed as in `analyze`.
pub fn analyze_argv(argv: &[String], env: &[(String, String)], earlier: &[Written]) -> Script {
    let mut walker = walk::Walker::new(env, earlier);
    walker.env_hooks(env, 0);
    let args = argv.iter().map(|t| Arg::literal(t)).collect();
    walker.exec(args, walk::Exec::new(0, argv.join(" ")));
    walker.finish()
}

/// The same for words a command line already expanded, run at `depth` (the command a container
/// runs, given after its image): each word keeps what is known of it (a part only known when it
/// runs stays so), wrappers and nested scripts are followed as in `analyze`.
pub fn analyze_words(words: &[Arg], depth: u32) -> Script {
    let mut walker = walk::Walker::new(&[], &[]);
    let src = words
        .iter()
        .map(|a| a.text.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    walker.exec(words.to_vec(), walk::Exec::new(depth, src));
    walker.finish()
}

impl Command {
    /// What this command prints when it is a literal printer (`echo` of known words, `printf`
    /// of a plain format, `cat` of a here-doc): the text a pipe or `$(…)` would carry.
    pub fn printed(&self) -> Option<String> {
        nest::printed(&self.argv, self.stdin_text.as_ref())
    }
}

impl Arg {
    /// A word that is exactly `text`, with nothing to expand.
    pub fn literal(text: &str) -> Arg {
        Arg {
            text: text.to_owned(),
            ..Arg::default()
        }
    }
}
