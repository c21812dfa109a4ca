//! Symbolic links each session's calls made, kept for its later calls: `ln -s ~/docs dl` in
//! one call and `rm -rf dl/*` in the next delete in ~/docs, and the destructive guard must see
//! the second through the first (`paths::follow`). A link a later call removes is forgotten.
//!
//! Kept in memory only and bounded, like `crate::written`: in sessions, and in links per
//! session (the oldest go first).

use crate::paths::Link;
use crate::recency::RecencyMap;
use std::sync::Mutex;

const MAX_SESSIONS: usize = 1024;
const MAX_LINKS: usize = 64;

/// What a call did to a link, in the order its commands ran.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkChange {
    Made(Link),
    /// `rm dl`, `unlink dl`: the name no longer leads anywhere.
    Removed(String),
}

#[derive(Default)]
pub struct SessionLinks {
    inner: Mutex<RecencyMap<Vec<Link>>>,
}

impl SessionLinks {
    /// Applies a call's changes, in order: a link made again replaces the older one.
    pub fn record(&self, session: &str, changes: Vec<LinkChange>) {
        if changes.is_empty() {
            return;
        }
        let Ok(mut map) = self.inner.lock() else {
            return;
        };
        let links = map.touch(session, Vec::new);
        for change in changes {
            match change {
                LinkChange::Made(link) => {
                    links.retain(|l| l.at != link.at);
                    links.push(link);
                }
                LinkChange::Removed(at) => links.retain(|l| l.at != at),
            }
        }
        if links.len() > MAX_LINKS {
            let extra = links.len() - MAX_LINKS;
            links.drain(..extra);
        }
        map.evict_to(MAX_SESSIONS);
    }

    /// The session's links, oldest first (none for most sessions: nothing is copied then).
    pub fn of(&self, session: &str) -> Vec<Link> {
        let Ok(map) = self.inner.lock() else {
            return Vec::new();
        };
        map.get(session).cloned().unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn made(at: &str, to: &str) -> LinkChange {
        LinkChange::Made(Link {
            at: at.into(),
            to: Some(to.into()),
            tree: false,
        })
    }

    #[test]
    fn links_are_kept_per_session_and_forgotten_when_removed() {
        let s = SessionLinks::default();
        s.record("a", vec![made("/w/dl", "/h/docs"), made("/w/x", "/h/x")]);
        assert_eq!(s.of("a").len(), 2);
        assert!(s.of("b").is_empty());
        s.record("a", vec![LinkChange::Removed("/w/dl".into())]);
        s.record("a", vec![made("/w/x", "/w/y")]);
        assert_eq!(
            s.of("a"),
            vec![Link {
                at: "/w/x".into(),
                to: Some("/w/y".into()),
                tree: false,
            }]
        );
    }

    #[test]
    fn links_are_bounded() {
        let s = SessionLinks::default();
        let many = (0..MAX_LINKS + 3).map(|i| made(&format!("/w/{i}"), "/t"));
        s.record("a", many.collect());
        let kept = s.of("a");
        assert_eq!(kept.len(), MAX_LINKS);
        assert_eq!(kept[0].at, "/w/3");
    }
}
