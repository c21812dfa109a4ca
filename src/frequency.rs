//! Recent-call counts per agent, per session and globally, for frequency conditions, the rate
//! limiter and the risk factor. Memory is bounded: each key keeps at most `per_key_cap`
//! timestamps and at most `max_keys` keys are tracked, least recently active dropped first
//! (in constant time: the keys are kept in activity order, not scanned for the oldest).

use crate::recency::RecencyMap;
use std::collections::VecDeque;
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
    agents: RecencyMap<VecDeque<i64>>,
    sessions: RecencyMap<VecDeque<i64>>,
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
        push(inner.agents.touch(agent, VecDeque::new), now, cap);
        push(inner.sessions.touch(session, VecDeque::new), now, cap);
        push(&mut inner.global, now, cap);
        inner.agents.evict_to(max_keys);
        inner.sessions.evict_to(max_keys);
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

    #[test]
    fn evicts_the_least_recently_active_key_first() {
        let f = FrequencyTracker::new(10, 3);
        f.record("a", "s-a", 100);
        f.record("b", "s-b", 200);
        f.record("c", "s-c", 300);
        f.record("a", "s-a", 400);
        // Over the bound: b, the least recently active, goes; a, active again, stays.
        f.record("d", "s-d", 500);
        let agent = |k: &str| f.count(FrequencyScope::Agent, k, "", 1_000_000, 500);
        let session = |k: &str| f.count(FrequencyScope::Session, "", k, 1_000_000, 500);
        assert_eq!(
            [agent("a"), agent("b"), agent("c"), agent("d")],
            [2, 0, 1, 1]
        );
        assert_eq!([session("s-a"), session("s-b"), session("s-d")], [2, 0, 1]);
        assert_eq!(f.tracked_keys(), 6);
        // The clock stepped back (NTP): activity order still decides, not the timestamps, so
        // the newcomer e evicts c (least recently active), not itself for its earlier time.
        f.record("e", "s-e", 50);
        f.record("a", "s-a", 60);
        f.record("f", "s-f", 70);
        assert_eq!([agent("c"), agent("d")], [0, 0]);
        assert_eq!([agent("a"), agent("e"), agent("f")], [3, 1, 1]);
        assert_eq!(f.tracked_keys(), 6);
    }

    #[test]
    fn a_global_history_is_kept_whatever_is_evicted() {
        let f = FrequencyTracker::new(4, 2);
        for i in 0..100 {
            f.record(&format!("a{i}"), &format!("s{i}"), i);
            assert!(f.tracked_keys() <= 4);
        }
        assert_eq!(f.count(FrequencyScope::Global, "", "", 1_000, 100), 4);
        assert_eq!(f.count(FrequencyScope::Agent, "a98", "", 1_000, 100), 1);
        assert_eq!(f.count(FrequencyScope::Agent, "a97", "", 1_000, 100), 0);
    }
}
