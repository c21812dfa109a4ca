//! Where `..` lands when the directory before it is a symbolic link on disk. The kernel
//! follows the link first and climbs from its target: `/var/run` is `/run`, so
//! `/var/run/../proc/self/environ` is `/proc/self/environ`, where lexical folding says
//! `/var/proc/…`; `/proc/net` is `self/net`, so `/proc/net/../environ` is the process's
//! environment. Only a path holding a `..` segment pays for this, one `readlink` per component
//! before its last `..`: everything after that folds lexically as before.

use std::borrow::Cow;
use std::fs;

/// Linux gives up after 40 links in one lookup (ELOOP); so does this walk.
const MAX_HOPS: usize = 40;
/// Components looked up per path at most: a path kilobytes long is judged lexically past them
/// rather than costing thousands of syscalls.
const MAX_LOOKUPS: usize = 64;

/// `path` (absolute, not yet normalised) with each link on disk that a later `..` climbs out of
/// replaced by its target. Components holding glob or escape characters are not looked up: a
/// pattern names no one file (the same text reaches here escaped from the shell and raw from
/// the file tools).
pub(super) fn through_links(path: &str) -> Cow<'_, str> {
    if !path.starts_with('/') || !path.split('/').any(|s| s == "..") {
        return Cow::Borrowed(path);
    }
    let mut todo: Vec<String> = path.split('/').rev().map(str::to_owned).collect();
    let mut kept: Vec<String> = Vec::new();
    let (mut hops, mut lookups, mut changed) = (0, 0, false);
    while let Some(segment) = todo.pop() {
        match segment.as_str() {
            "" | "." => continue,
            ".." => {
                kept.pop();
                continue;
            }
            _ => kept.push(segment),
        }
        let climbed_later = todo.iter().any(|s| s == "..");
        if !climbed_later || !may_look_up(&kept) || lookups >= MAX_LOOKUPS {
            continue;
        }
        lookups += 1;
        let Ok(target) = fs::read_link(format!("/{}", kept.join("/"))) else {
            continue;
        };
        let target = target.to_string_lossy().into_owned();
        hops += 1;
        if hops > MAX_HOPS || target.contains(['*', '?', '[', ']', '\\']) {
            return Cow::Borrowed(path);
        }
        changed = true;
        kept.pop();
        if target.starts_with('/') {
            kept.clear();
        }
        // The target's components are walked again: they may hold links of their own.
        todo.extend(target.split('/').rev().map(str::to_owned));
    }
    match changed {
        true => Cow::Owned(format!("/{}", kept.join("/"))),
        false => Cow::Borrowed(path),
    }
}

/// Whether the component `kept` ends in is worth a `readlink`. Under `/proc`, `self`,
/// `thread-self` and everything below a process directory (`cwd`, `root`, `fd/N`) point into
/// the process that asks, which is governance, not the agent's shell; `proc::alias` handles
/// what they mean for the agent. The top-level links (`/proc/net`, `/proc/mounts`) are the
/// same for every process and are followed.
fn may_look_up(kept: &[String]) -> bool {
    let last = kept.last().map(String::as_str).unwrap_or("");
    if last.contains(['*', '?', '[', ']', '\\']) {
        return false;
    }
    match kept.first().map(String::as_str) {
        Some("proc") => {
            kept.len() < 2 || kept.len() == 2 && !matches!(last, "self" | "thread-self")
        }
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dotdot_after_a_link_climbs_from_its_target() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path().display().to_string();
        std::fs::create_dir_all(format!("{root}/real/deep")).expect("dirs");
        std::os::unix::fs::symlink(format!("{root}/real/deep"), format!("{root}/abs"))
            .expect("link");
        std::os::unix::fs::symlink("real/deep", format!("{root}/rel")).expect("link");
        let at = |p: &str| through_links(&format!("{root}/{p}")).into_owned();
        assert_eq!(at("abs/../x"), format!("{root}/real/x"));
        assert_eq!(at("rel/../x"), format!("{root}/real/x"));
        // No `..` after the link: nothing is looked up, the text stays.
        assert_eq!(at("abs/x"), format!("{root}/abs/x"));
        assert_eq!(at("real/../x"), format!("{root}/real/../x"));
    }

    #[test]
    fn proc_links_of_the_asking_process_are_not_followed() {
        assert_eq!(through_links("/proc/self/cwd/../x"), "/proc/self/cwd/../x");
        if std::fs::read_link("/proc/net").is_ok() {
            assert_eq!(through_links("/proc/net/../environ"), "/proc/self/environ");
        }
    }
}
