//! Paths as the tool that receives them would open them, and the protected sets they are
//! compared with. A path is resolved lexically: `@` and `file://` forms the host accepts,
//! percent-decoding, `~`, `.`/`..`, the call's working directory, Unicode NFC; the one look at
//! the disk is for a `..` that follows a symbolic link (`dotdot`). A glob
//! stays a pattern and is compared as one: `.e*` names every protected file it could match.

mod defaults;
mod dotdot;
mod glob;
pub mod keyed;
mod lexical;
mod links;
mod overlap;
mod probe;
mod resolve;
mod set;
mod url;
mod variants;
pub use url::url_file_path;
pub use variants::read_variants;

pub use defaults::credential_files;
pub use links::{follow, Link, Reached};
pub use probe::file_with_content;
pub use resolve::{resolve, resolve_literal};
pub use set::basename;
pub use set::{PathSet, PathSetError};

/// Where relative paths start and what `~` is.
#[derive(Debug, Clone, Default)]
pub struct PathContext<'a> {
    /// The call's working directory (`workdir`/`cwd` param, else the agent's workspace).
    pub cwd: Option<&'a str>,
    pub home: Option<&'a str>,
}

/// A path as a tool would open it: absolute when a working directory was known, lexically
/// normalised, NFC. When `pattern` is set the path still holds its glob characters (quoted
/// ones escaped with `\`) and stands for every path it matches; otherwise it is the real name,
/// without escapes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    pub path: String,
    pub pattern: bool,
}

/// Whether two globs (in the syntax of protected entries: `*`, `**`, `?`, classes, `\`
/// escapes) can match a common string, compared case-sensitively. `None` when the pair is too
/// large to decide (callers must then assume they do). Exposed for tests and policy tooling.
pub fn globs_overlap(a: &str, b: &str) -> Option<bool> {
    let syntax = glob::Syntax {
        fold: false,
        hide_dots: false,
    };
    match overlap::overlap(&glob::parse(a, syntax), &glob::parse(b, syntax)) {
        overlap::Overlap::Yes => Some(true),
        overlap::Overlap::No => Some(false),
        overlap::Overlap::TooLarge => None,
    }
}

/// `text` with its glob characters escaped: a literal name as `resolve` takes one.
pub fn glob_escape(text: &str) -> String {
    glob::escape(text)
}

/// Whether `text` is in the glob's language (same syntax as `globs_overlap`).
pub fn glob_matches(glob: &str, text: &str) -> bool {
    let syntax = glob::Syntax {
        fold: false,
        hide_dots: false,
    };
    let tokens = glob::parse(glob, syntax);
    if tokens.len() < 128 {
        return glob::matches(&tokens, text, syntax);
    }
    // Past the bitmask walk's width: the product walk with the text as a literal glob.
    let literal = glob::parse(&glob::escape(text), syntax);
    overlap::overlap(&tokens, &literal) == overlap::Overlap::Yes
}
