//! Regexes from config: compiled once at load with the `regex` crate, whose matching is linear in
//! the input (no backtracking, so no ReDoS). Patterns it cannot express (look-around,
//! back-references) are config errors carrying the crate's message and the key's path.

use crate::config::error::Issues;
use regex::{Regex, RegexBuilder};

/// Longest pattern accepted (NORMATIVE N12).
pub const MAX_PATTERN_LEN: usize = 500;
/// Compiled-program size cap, so a pathological pattern cannot eat memory at load.
const SIZE_LIMIT: usize = 2 << 20;

pub fn compile(
    pattern: &str,
    path: &str,
    case_insensitive: bool,
    issues: &mut Issues,
) -> Option<Regex> {
    if pattern.chars().count() > MAX_PATTERN_LEN {
        issues.push(
            path,
            format!("pattern is longer than {MAX_PATTERN_LEN} characters"),
        );
        return None;
    }
    match RegexBuilder::new(pattern)
        .case_insensitive(case_insensitive)
        .size_limit(SIZE_LIMIT)
        .build()
    {
        Ok(re) => Some(re),
        Err(e) => {
            issues.push(path, format!("invalid regex: {e}"));
            None
        }
    }
}
