//! The one piece of I/O in path judgement: does a directory a recursive reader will walk hold a
//! protected basename? Listing is bounded so a huge tree costs a fixed amount: the directory's
//! own entries and those of its first subdirectories, where dotenv files and keys of a project
//! live (`./.env`, `./config/credentials.json`, `./packages/api/.env` is one level too deep when
//! `packages` is walked from the root: a known gap). Past the budget we stop and answer from
//! what we saw: failing closed would deny every `grep -r` in a large repository.

use std::fs;
use std::path::{Path, PathBuf};

use super::set::PathSet;

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
        if let Some(list) = subdirs.as_deref_mut() {
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            if is_dir && list.len() < SUBDIRS {
                list.push(entry.path());
            }
        }
    }
    None
}
