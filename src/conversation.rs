//! The last few messages the shim has seen per session, for `context.conversationContains`.
//! Bounded in messages per session, characters per message and sessions tracked; never persisted
//! (NORMATIVE N12).

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

const MAX_SESSIONS: usize = 1024;
const MAX_CHARS: usize = 4000;

pub struct Conversations {
    per_session: usize,
    inner: Mutex<HashMap<String, (u64, VecDeque<String>)>>,
    tick: std::sync::atomic::AtomicU64,
}

impl Conversations {
    pub fn new(per_session: usize) -> Conversations {
        Conversations {
            per_session,
            inner: Mutex::new(HashMap::new()),
            tick: Default::default(),
        }
    }

    pub fn observe(&self, session: &str, text: &str) {
        if self.per_session == 0 || text.is_empty() {
            return;
        }
        let text: String = text.chars().take(MAX_CHARS).collect();
        let tick = self.tick.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let Ok(mut map) = self.inner.lock() else {
            return;
        };
        let entry = map.entry(session.to_string()).or_default();
        // The host may deliver the same message twice (HOST.md): keep one copy.
        if entry.1.back() != Some(&text) {
            entry.1.push_back(text);
        }
        entry.0 = tick;
        while entry.1.len() > self.per_session {
            entry.1.pop_front();
        }
        if map.len() > MAX_SESSIONS {
            if let Some(oldest) = map
                .iter()
                .min_by_key(|(_, (t, _))| *t)
                .map(|(k, _)| k.clone())
            {
                map.remove(&oldest);
            }
        }
    }

    /// Runs `f` over the session's recent messages, oldest first.
    pub fn with<R>(&self, session: &str, f: impl FnOnce(&[String]) -> R) -> R {
        let Ok(mut map) = self.inner.lock() else {
            return f(&[]);
        };
        match map.get_mut(session) {
            Some((_, q)) => f(q.make_contiguous()),
            None => f(&[]),
        }
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
}
