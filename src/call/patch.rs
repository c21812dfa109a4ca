//! The paths inside an `apply_patch` envelope: the host's format names each file on a header
//! line (`*** Add File: p`, `*** Update File: p`, `*** Delete File: p`, `*** Move to: p`), and
//! what a file moved by one holds.

use super::Access;
use crate::shell::Written;
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
    let mut out: Vec<(String, Access)> = Vec::new();
    for line in input.lines() {
        let line = line.trim_start_matches(js_space);
        let Some((h, access)) = HEADERS.iter().find(|(h, _)| line.starts_with(h)) else {
            continue;
        };
        // `*** Update File: a` then `*** Move to: b`: the host writes b and removes a.
        if *h == "*** Move to:" {
            if let Some(from) = out.last_mut().filter(|(_, a)| *a == Access::Write) {
                from.1 = Access::Delete;
            }
        }
        let path = line[h.len()..].trim_matches(js_space);
        if !path.is_empty() {
            out.push((path.to_string(), *access));
        }
    }
    out
}

/// `*** Update File: a` + `*** Move to: b` of a file the session wrote: `b` holds `a`'s text
/// with the hunks applied, judged as the file `b` is (a git hook runs all of it, not only the
/// lines this patch adds). Hunks apply as `written::Change::Edit` does: each hunk's old lines
/// (context and `-`) become its new lines (context and `+`), or the new lines are added where
/// the old are not found. Moves of files not written by the session are left to what the
/// patch adds.
pub fn moved(input: &str, earlier: &[Written]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut lines = input.lines();
    let mut pending: Option<&str> = None;
    while let Some(line) = lines.next() {
        // Headers are matched trimmed, as the host does; hunk lines keep their first column.
        let line = line.trim_start_matches(js_space);
        if let Some(from) = line.strip_prefix("*** Update File:") {
            pending = Some(from.trim_matches(js_space));
            continue;
        }
        let (Some(from), Some(to)) = (pending.take(), line.strip_prefix("*** Move to:")) else {
            continue;
        };
        let name = crate::paths::basename(from);
        let known = earlier.iter().find(|(n, _)| n == name);
        let Some(text) = known.and_then(|(_, t)| t.clone()) else {
            continue;
        };
        let body: Vec<&str> = lines
            .clone()
            .take_while(|l| !l.trim_start_matches(js_space).starts_with("*** "))
            .collect();
        let pairs = hunks(&body);
        out.push((
            to.trim_matches(js_space).to_string(),
            crate::written::edited(text, &pairs),
        ));
    }
    out
}

/// `*** Update File: a` without a move: each updated file's hunks, as (old text, new text)
/// pairs `written::Change::Edit` applies to what the session wrote into it, so a later run
/// of the file runs the patched text rather than the old text with the new lines added.
pub fn updated(input: &str) -> Vec<(String, Vec<(String, String)>)> {
    let mut out = Vec::new();
    let mut lines = input.lines().peekable();
    while let Some(line) = lines.next() {
        let line = line.trim_start_matches(js_space);
        let Some(path) = line.strip_prefix("*** Update File:") else {
            continue;
        };
        let moves = lines
            .peek()
            .is_some_and(|l| l.trim_start_matches(js_space).starts_with("*** Move to:"));
        if moves {
            continue;
        }
        let body: Vec<&str> = lines
            .clone()
            .take_while(|l| !l.trim_start_matches(js_space).starts_with("*** "))
            .collect();
        out.push((path.trim_matches(js_space).to_string(), hunks(&body)));
    }
    out
}

/// `*** Add File: p`: the files a patch creates whole.
pub fn added(input: &str) -> Vec<String> {
    (input.lines())
        .filter_map(|l| l.trim_start_matches(js_space).strip_prefix("*** Add File:"))
        .map(|p| p.trim_matches(js_space).to_string())
        .collect()
}

/// Each hunk of an update as (old text, new text).
fn hunks(body: &[&str]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for hunk in body.split(|l| l.starts_with("@@")) {
        let side = |keep: char| {
            (hunk.iter())
                .filter_map(|l| l.strip_prefix(keep).or_else(|| l.strip_prefix(' ')))
                .collect::<Vec<_>>()
                .join("\n")
        };
        let (old, new) = (side('-'), side('+'));
        if !(old.is_empty() && new.is_empty()) {
            out.push((old, new));
        }
    }
    out
}

/// What JS's `trim()` strips, which the host applies to each line: Unicode white space and
/// also U+FEFF (a byte-order mark), which Rust's `trim` keeps. A header hidden behind a mark is
/// still a header to the host.
fn js_space(c: char) -> bool {
    c.is_whitespace() || c == '\u{feff}'
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_moved_file_keeps_what_the_session_wrote() {
        let earlier = vec![(
            "a.txt".to_string(),
            Some("#!/bin/sh\nrm -rf ~/docs\necho ok\n".to_string()),
        )];
        let input = "*** Begin Patch\n*** Update File: scripts/a.txt\n*** Move to: .git/hooks/pre-commit\n@@\n-echo ok\n+echo done\n*** End Patch";
        assert_eq!(
            moved(input, &earlier),
            [(
                ".git/hooks/pre-commit".to_string(),
                "#!/bin/sh\nrm -rf ~/docs\necho done\n".to_string()
            )]
        );
        assert!(moved(input, &[]).is_empty());
        let unmoved = "*** Begin Patch\n*** Update File: scripts/a.txt\n@@\n-echo ok\n+echo done\n*** End Patch";
        assert!(moved(unmoved, &earlier).is_empty());
        assert_eq!(
            updated(unmoved),
            [(
                "scripts/a.txt".to_string(),
                vec![("echo ok".to_string(), "echo done".to_string())]
            )]
        );
        assert!(updated(input).is_empty());
        assert_eq!(
            added("*** Begin Patch\n*** Add File: b.sh\n+x\n*** End Patch"),
            ["b.sh"]
        );
    }
}
