//! Pushes through version-control tools other than git's own push: Jujutsu's `jj git push`
//! and Sapling's `sl push`, judged by the branch they reach as `git push` is.

use super::reaches_protected;
use crate::guards::argv::{has_flag, operands, option_values};
use crate::shell::Arg;

/// `jj git push`: the bookmarks named (`-b main`, `--bookmark=main`), or every tracked one
/// (`--all`, `--tracked`, or none named: the bookmarks of the revisions pushed), which may
/// be protected. `-c REV` pushes a new `push-…` bookmark.
pub(super) fn jj(a: &[Arg]) -> Option<&'static str> {
    let ops = operands(a, &["-R", "--repository", "--at-op", "--config"]);
    let words: Vec<&str> = ops.iter().take(2).map(|o| o.text.as_str()).collect();
    if words != ["git", "push"] || has_flag(a, &[], &["dry-run"]) {
        return None;
    }
    let mut named = option_values(a, Some("-b"), "--bookmark");
    named.extend(option_values(a, None, "--branch"));
    let changes_only = named.is_empty() && has_flag(a, &['c'], &["change"]);
    let protected = named.is_empty() && !changes_only
        || named.iter().any(|b| reaches_protected(&Arg::literal(b)));
    protected.then_some("pushes to a protected branch (jj)")
}

/// Sapling's `sl push --to BRANCH` (`-t`), or a push to the default destination.
pub(super) fn sapling(a: &[Arg]) -> Option<&'static str> {
    if operands(a, &["-r", "--rev", "--to", "-t", "-R", "--repository"])
        .first()
        .is_none_or(|v| v.text != "push")
    {
        return None;
    }
    let to = option_values(a, Some("-t"), "--to");
    let protected = to.is_empty() || to.iter().any(|b| reaches_protected(&Arg::literal(b)));
    protected.then_some("pushes to a protected branch (Sapling)")
}
