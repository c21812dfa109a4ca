//! The paths inside an `apply_patch` envelope: the host's format names each file on a header
//! line (`*** Add File: p`, `*** Update File: p`, `*** Delete File: p`, `*** Move to: p`).

use super::Access;
use serde_json::{Map, Value};

const HEADERS: [(&str, Access); 4] = [
    ("*** Add File:", Access::Write),
    ("*** Update File:", Access::Write),
    ("*** Delete File:", Access::Delete),
    ("*** Move to:", Access::Write),
];

pub fn paths(p: &Map<String, Value>) -> Vec<(String, Access)> {
    let Some(input) = ["input", "patch"].iter().find_map(|k| p.get(*k)?.as_str()) else {
        return Vec::new();
    };
    input
        .lines()
        .filter_map(|line| {
            let line = line.trim_start_matches(js_space);
            HEADERS.iter().find_map(|(h, access)| {
                let path = line.strip_prefix(h)?.trim_matches(js_space);
                (!path.is_empty()).then(|| (path.to_string(), *access))
            })
        })
        .collect()
}

/// What JS's `trim()` strips, which the host applies to each line: Unicode white space and
/// also U+FEFF (a byte-order mark), which Rust's `trim` keeps. A header hidden behind a mark is
/// still a header to the host.
fn js_space(c: char) -> bool {
    c.is_whitespace() || c == '\u{feff}'
}
