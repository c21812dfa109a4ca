//! Recent-call counts per agent, per session and globally, for frequency conditions, the rate
//! limiter and the risk factor. Memory is bounded: each key keeps at most `per_key_cap`
//! timestamps and at most `max_keys` keys are tracked, least recently active dropped first.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrequencyScope {
    Agent,
    Session,
    Global,
}

pub struct FrequencyTracker {
    per_key_cap: usize,
    max_keys: usize,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    agents: HashMap<String, VecDeque<i64>>,
    sessions: HashMap<String, VecDeque<i64>>,
    global: VecDeque<i64>,
}

impl FrequencyTracker {
    /// `per_key_cap` must exceed every limit a policy checks, or counts would saturate below it.
    pub fn new(per_key_cap: usize, max_keys: usize) -> FrequencyTracker {
        FrequencyTracker {
            per_key_cap: per_key_cap.max(1),
            max_keys: max_keys.max(1),
            inner: Mutex::new(Inner::default()),
        }
    }

    /// Calls recorded in `(now - window_ms, now]` for the scope's key.
    pub fn count(
        &self,
        scope: FrequencyScope,
        agent: &str,
        session: &str,
        window_ms: i64,
        now: i64,
    ) -> usize {
        let Ok(inner) = self.inner.lock() else {
            return 0;
        };
        let q = match scope {
            FrequencyScope::Agent => inner.agents.get(agent),
            FrequencyScope::Session => inner.sessions.get(session),
            FrequencyScope::Global => Some(&inner.global),
        };
        q.map_or(0, |q| {
            q.len() - q.partition_point(|t| *t <= now - window_ms)
        })
    }

    pub fn record(&self, agent: &str, session: &str, now: i64) {
        let Ok(mut inner) = self.inner.lock() else {
            return;
        };
        let (cap, max_keys) = (self.per_key_cap, self.max_keys);
        push(inner.agents.entry(agent.to_string()).or_default(), now, cap);
        push(
            inner.sessions.entry(session.to_string()).or_default(),
            now,
            cap,
        );
        push(&mut inner.global, now, cap);
        evict(&mut inner.agents, max_keys);
        evict(&mut inner.sessions, max_keys);
    }

    pub fn tracked_keys(&self) -> usize {
        self.inner
            .lock()
            .map(|i| i.agents.len() + i.sessions.len())
            .unwrap_or(0)
    }
}

fn push(q: &mut VecDeque<i64>, now: i64, cap: usize) {
    // Clocks can step backwards; keep the deque sorted so counting stays a binary search.
    let at = q.back().map_or(now, |last| now.max(*last));
    q.push_back(at);
    while q.len() > cap {
        q.pop_front();
    }
}

fn evict(map: &mut HashMap<String, VecDeque<i64>>, max_keys: usize) {
    while map.len() > max_keys {
        let oldest = map
            .iter()
            .min_by_key(|(_, q)| q.back().copied().unwrap_or(i64::MIN))
            .map(|(k, _)| k.clone());
        match oldest {
            Some(k) => map.remove(&k),
            None => break,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_inside_the_window_per_scope() {
        let f = FrequencyTracker::new(100, 10);
        for t in [1_000, 2_000, 3_000] {
            f.record("a", "s1", t);
        }
        f.record("b", "s2", 3_500);
        assert_eq!(f.count(FrequencyScope::Agent, "a", "x", 60_000, 4_000), 3);
        assert_eq!(f.count(FrequencyScope::Agent, "a", "x", 2_500, 4_000), 2);
        assert_eq!(
            f.count(FrequencyScope::Session, "x", "s2", 60_000, 4_000),
            1
        );
        assert_eq!(f.count(FrequencyScope::Global, "x", "x", 60_000, 4_000), 4);
        assert_eq!(
            f.count(FrequencyScope::Agent, "nobody", "x", 60_000, 4_000),
            0
        );
    }

    #[test]
    fn memory_stays_bounded() {
        let f = FrequencyTracker::new(5, 3);
        for i in 0..50 {
            f.record(&format!("agent{i}"), &format!("s{i}"), i);
            f.record("hot", "hot", i);
        }
        assert!(f.tracked_keys() <= 6);
        assert_eq!(f.count(FrequencyScope::Agent, "hot", "", 1_000, 50), 5);
        // The most recently active keys survive eviction.
        assert_eq!(f.count(FrequencyScope::Agent, "agent49", "", 1_000, 50), 1);
    }
}
