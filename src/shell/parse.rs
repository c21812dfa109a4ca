//! Driving brush-parser: a script to its AST, and what to do when it is rejected.

use brush_parser::{ast, Parser, ParserOptions};
use once_cell::sync::Lazy;

/// bash's defaults as brush models them; extglob on so `@(…)` is read as a pattern rather than
/// rejecting the script (bash would run it when `shopt -s extglob` is set).
pub(super) static OPTIONS: Lazy<ParserOptions> = Lazy::new(ParserOptions::default);

/// The AST, or `None` when the parser rejects the script (or panics on it: the parser's number
/// and brace rules `unwrap`, and a governance hook must not die on hostile input).
pub(super) fn program(text: &str) -> Option<ast::Program> {
    let run = || {
        let mut parser = Parser::new(std::io::BufReader::new(text.as_bytes()), &OPTIONS);
        parser.parse_program().ok()
    };
    quiet_catch(run).flatten()
}

/// Runs `f`, turning a panic into `None` (the default hook still prints it to stderr).
pub(super) fn quiet_catch<T>(f: impl FnOnce() -> T) -> Option<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).ok()
}

/// Splits a rejected script into pieces that may parse on their own: its lines, so one bad
/// line does not hide the commands of the others.
pub(super) fn fallback_lines(text: &str) -> Vec<&str> {
    text.lines().filter(|l| !l.trim().is_empty()).collect()
}

/// The words of a line the parser rejected, split on blanks with quote characters dropped: not
/// what bash would run (it would run nothing), but what the line names, so a guard can still
/// see `rm` or `.env` in it.
pub(super) fn naive_words(line: &str) -> Vec<String> {
    line.split([' ', '\t', ';', '|', '&', '(', ')', '`'])
        .map(|w| w.replace(['\'', '"', '\\', '$', '{', '}'], ""))
        .filter(|w| !w.is_empty())
        .collect()
}
