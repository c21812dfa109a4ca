//! Answers kept for a while (N8: TTL 300 s), keyed by SHA-256 of what was asked, so the same
//! question about the same action is not paid for twice. Bounded: the oldest entry goes first.
//! A new config (policies, facts) builds a new engine core and with it an empty cache.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

pub type Key = [u8; 32];

/// Enough for a busy gateway's distinct questions within a TTL; each entry is a few hundred bytes.
pub const MAX_ENTRIES: usize = 4_096;

pub struct Cache<V> {
    ttl_ms: i64,
    max: usize,
    inner: Mutex<Entries<V>>,
}

struct Entries<V> {
    map: HashMap<Key, (i64, V)>,
    /// Insertion order, for eviction; a key may appear again after it was replaced.
    order: VecDeque<Key>,
}

impl<V: Clone> Cache<V> {
    /// `ttl_ms` 0 keeps nothing.
    pub fn new(ttl_ms: i64, max: usize) -> Cache<V> {
        Cache {
            ttl_ms,
            max,
            inner: Mutex::new(Entries {
                map: HashMap::new(),
                order: VecDeque::new(),
            }),
        }
    }

    pub fn get(&self, key: &Key, now_ms: i64) -> Option<V> {
        let e = self.inner.lock().ok()?;
        let (at, v) = e.map.get(key)?;
        (now_ms - at < self.ttl_ms).then(|| v.clone())
    }

    pub fn put(&self, key: Key, value: V, now_ms: i64) {
        if self.ttl_ms <= 0 || self.max == 0 {
            return;
        }
        let Ok(mut e) = self.inner.lock() else { return };
        e.map.insert(key, (now_ms, value));
        e.order.push_back(key);
        while e.map.len() > self.max || e.order.len() > 2 * self.max {
            let Some(old) = e.order.pop_front() else {
                break;
            };
            // Only the last insertion of a key stands for it in the order.
            if !e.order.contains(&old) {
                e.map.remove(&old);
            }
        }
    }

    pub fn len(&self) -> usize {
        self.inner.lock().map(|e| e.map.len()).unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(n: u8) -> Key {
        [n; 32]
    }

    #[test]
    fn an_answer_lives_for_the_ttl() {
        let c = Cache::new(300_000, 10);
        c.put(key(1), "yes", 1_000);
        assert_eq!(c.get(&key(1), 300_999), Some("yes"));
        assert_eq!(c.get(&key(1), 301_000), None);
        assert_eq!(c.get(&key(2), 1_000), None);
    }

    #[test]
    fn the_oldest_answer_goes_first_when_full() {
        let c = Cache::new(300_000, 2);
        c.put(key(1), 1, 0);
        c.put(key(2), 2, 0);
        c.put(key(1), 10, 1);
        c.put(key(3), 3, 2);
        assert_eq!(c.len(), 2);
        assert_eq!(c.get(&key(2), 3), None, "2 was the oldest");
        assert_eq!((c.get(&key(1), 3), c.get(&key(3), 3)), (Some(10), Some(3)));
    }

    #[test]
    fn a_zero_ttl_keeps_nothing() {
        let c = Cache::new(0, 10);
        c.put(key(1), 1, 0);
        assert!(c.is_empty());
    }
}
