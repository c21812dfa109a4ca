//! The one piece of I/O in path judgement: does a directory a recursive reader will walk hold a
//! protected basename? Listing is bounded so a huge tree costs a fixed amount: the directory's
//! own entries and those of its first subdirectories, where dotenv files and keys of a project
//! live (`./.env`, `./config/credentials.json`, `./packages/api/.env` is one level too deep when
//! `packages` is walked from the root: a known gap). Past the budget we stop and answer from
//! what we saw: failing closed would deny every `grep -r` in a large repository.

use std::fs;
use std::path::{Path, PathBuf};

use super::glob::{has_pattern, matches, parse, unescape, Syntax};
use super::set::PathSet;

/// Whether `path` is a file with content now: writing over it destroys something (a write that
/// creates a file, or replaces an empty one, does not).
pub fn file_with_content(path: &str) -> bool {
    fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() > 0)
}

/// Entries read from the directory itself.
const TOP_ENTRIES: usize = 1024;
/// Subdirectories whose entries are read too.
const SUBDIRS: usize = 64;
/// Entries read from each subdirectory.
const SUB_ENTRIES: usize = 256;

/// The label of the first protected name found within two levels of `root`.
pub(crate) fn first_protected<'s>(set: &'s PathSet, root: &str) -> Option<&'s str> {
    let root = Path::new(root);
    let mut subdirs = Vec::new();
    let hit = scan(set, root, TOP_ENTRIES, Some(&mut subdirs));
    if hit.is_some() {
        return hit;
    }
    subdirs
        .iter()
        .find_map(|dir| scan(set, dir, SUB_ENTRIES, None))
}

/// Checks up to `budget` entries of `dir`; collects real (non-symlink) subdirectories when
/// asked. Unreadable directories answer nothing: the reader will fail on them as well.
fn scan<'s>(
    set: &'s PathSet,
    dir: &Path,
    budget: usize,
    mut subdirs: Option<&mut Vec<PathBuf>>,
) -> Option<&'s str> {
    let entries = fs::read_dir(dir).ok()?;
    for entry in entries.take(budget).flatten() {
        let name = entry.file_name();
        if let Some(label) = set.name_hit(&name.to_string_lossy()) {
            return Some(label);
        }
        // `.kube/config` one level down: a directory and a name in it.
        if subdirs.is_none() {
            if let Some(label) = set.anywhere_hit(&entry.path().to_string_lossy()) {
                return Some(label);
            }
        }
        if let Some(list) = subdirs.as_deref_mut() {
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            if is_dir && list.len() < SUBDIRS {
                list.push(entry.path());
            }
        }
    }
    None
}

/// Entries listed while expanding one pattern, over all its segments.
const EXPAND_ENTRIES: usize = 4096;
/// Paths a pattern may expand to before we stop and fall back to the lexical answer.
const EXPAND_PATHS: usize = 256;

/// The paths an absolute pattern names on disk now, as bash expands it (leading-dot rule, no
/// `globstar`); `None` when that cannot be answered within bounds: a relative path, a `**`, too
/// many entries or matches. A segment that matches nothing leaves no path: bash would pass the
/// word unexpanded, naming a file that does not exist.
pub(crate) fn expand(pattern: &str) -> Option<Vec<String>> {
    let rest = pattern.strip_prefix('/')?;
    if rest.contains("**") {
        return None;
    }
    let mut paths = vec![String::new()];
    let mut budget = EXPAND_ENTRIES;
    for segment in rest.split('/') {
        paths = if has_pattern(segment) {
            expand_segment(&paths, segment, &mut budget)?
        } else {
            let name = unescape(segment);
            paths.iter().map(|p| format!("{p}/{name}")).collect()
        };
    }
    Some(paths)
}

/// Each directory's entries that match one pattern segment.
fn expand_segment(dirs: &[String], segment: &str, budget: &mut usize) -> Option<Vec<String>> {
    let shell = Syntax {
        fold: false,
        hide_dots: true,
    };
    let glob = parse(segment, shell);
    if glob.len() >= 128 {
        return None;
    }
    let mut out = Vec::new();
    for dir in dirs {
        let listing = if dir.is_empty() { "/" } else { dir.as_str() };
        let Ok(entries) = fs::read_dir(listing) else {
            continue; // Not a directory or unreadable: the shell matches nothing there either.
        };
        for entry in entries.flatten() {
            *budget = budget.checked_sub(1)?;
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if matches(&glob, &name, shell) {
                out.push(format!("{dir}/{name}"));
                if out.len() > EXPAND_PATHS {
                    return None;
                }
            }
        }
    }
    Some(out)
}
