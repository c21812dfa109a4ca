//! The last few messages the shim has seen per session, for `context.conversationContains`.
//! Bounded in messages per session, characters per message and sessions tracked; never persisted
//! (NORMATIVE N12).

use crate::recency::RecencyMap;
use std::collections::VecDeque;
use std::sync::Mutex;

const MAX_SESSIONS: usize = 1024;
const MAX_CHARS: usize = 4000;

pub struct Conversations {
    per_session: usize,
    /// Sessions in order of their last message, so the least recently active goes first.
    inner: Mutex<RecencyMap<VecDeque<String>>>,
}

impl Conversations {
    pub fn new(per_session: usize) -> Conversations {
        Conversations {
            per_session,
            inner: Mutex::new(RecencyMap::default()),
        }
    }

    pub fn observe(&self, session: &str, text: &str) {
        if self.per_session == 0 || text.is_empty() {
            return;
        }
        let text: String = text.chars().take(MAX_CHARS).collect();
        let Ok(mut map) = self.inner.lock() else {
            return;
        };
        let messages = map.touch(session, VecDeque::new);
        // The host may deliver the same message twice (HOST.md): keep one copy.
        if messages.back() != Some(&text) {
            messages.push_back(text);
        }
        while messages.len() > self.per_session {
            messages.pop_front();
        }
        map.evict_to(MAX_SESSIONS);
    }

    /// Runs `f` over the session's recent messages, oldest first.
    pub fn with<R>(&self, session: &str, f: impl FnOnce(&[String]) -> R) -> R {
        let Ok(mut map) = self.inner.lock() else {
            return f(&[]);
        };
        match map.get_mut(session) {
            Some(q) => f(q.make_contiguous()),
            None => f(&[]),
        }
    }

    /// Sessions tracked now (at most `MAX_SESSIONS`).
    pub fn sessions(&self) -> usize {
        self.inner.lock().map_or(0, |m| m.len())
    }

    pub fn forget(&self, session: &str) {
        if let Ok(mut map) = self.inner.lock() {
            map.remove(session);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_last_n_and_dedups_repeats() {
        let c = Conversations::new(2);
        for m in ["a", "b", "b", "c"] {
            c.observe("s", m);
        }
        assert_eq!(c.with("s", |m| m.to_vec()), vec!["b", "c"]);
        c.forget("s");
        assert!(c.with("s", |m| m.is_empty()));
    }

    #[test]
    fn drops_the_least_recently_active_session_past_the_bound() {
        let c = Conversations::new(2);
        for i in 0..MAX_SESSIONS {
            c.observe(&format!("s{i}"), "hello");
        }
        // s0 speaks again, so s1 is now the least recently active.
        c.observe("s0", "again");
        c.observe("new", "first");
        let kept = |s: &str| c.with(s, |m| m.to_vec());
        assert_eq!(kept("s0"), ["hello", "again"]);
        assert!(kept("s1").is_empty());
        assert_eq!(kept("s2"), ["hello"]);
        assert_eq!(kept("new"), ["first"]);
        assert_eq!(c.sessions(), MAX_SESSIONS);
        // Reading a session is not activity: s2 is next out.
        c.observe("newer", "x");
        assert!(kept("s2").is_empty() && kept("s3") == ["hello"]);
        // A forgotten session frees its place without evicting anyone.
        c.forget("s3");
        c.observe("newest", "y");
        assert_eq!(kept("s4"), ["hello"]);
        assert_eq!(c.sessions(), MAX_SESSIONS);
    }
}
