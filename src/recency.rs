//! A map that keeps its keys in order of last activity, so a bounded table (call counts per
//! agent and session, recent messages per session) drops its least recently active entry in
//! O(1) instead of scanning every key for the oldest on each new one.

use std::collections::HashMap;

/// No neighbour.
const NIL: usize = usize::MAX;

struct Node<V> {
    key: Box<str>,
    value: V,
    /// Less recently active neighbour.
    older: usize,
    /// More recently active neighbour.
    newer: usize,
}

/// Entries live densely in `nodes` (a removal moves the last node into the hole), linked from
/// the least to the most recently active; `slots` finds a key's node.
pub struct RecencyMap<V> {
    slots: HashMap<Box<str>, usize>,
    nodes: Vec<Node<V>>,
    oldest: usize,
    newest: usize,
}

impl<V> Default for RecencyMap<V> {
    fn default() -> Self {
        RecencyMap {
            slots: HashMap::new(),
            nodes: Vec::new(),
            oldest: NIL,
            newest: NIL,
        }
    }
}

impl<V> RecencyMap<V> {
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Reading is not activity: the order stays.
    pub fn get(&self, key: &str) -> Option<&V> {
        self.slots.get(key).map(|&i| &self.nodes[i].value)
    }

    pub fn get_mut(&mut self, key: &str) -> Option<&mut V> {
        let i = *self.slots.get(key)?;
        Some(&mut self.nodes[i].value)
    }

    /// `key`'s value, made if absent, and `key` now the most recently active.
    pub fn touch(&mut self, key: &str, make: impl FnOnce() -> V) -> &mut V {
        let i = match self.slots.get(key) {
            Some(&i) => {
                self.unlink(i);
                i
            }
            None => {
                let i = self.nodes.len();
                self.nodes.push(Node {
                    key: key.into(),
                    value: make(),
                    older: NIL,
                    newer: NIL,
                });
                self.slots.insert(key.into(), i);
                i
            }
        };
        self.link_newest(i);
        &mut self.nodes[i].value
    }

    pub fn remove(&mut self, key: &str) -> Option<V> {
        let i = *self.slots.get(key)?;
        Some(self.remove_at(i))
    }

    /// Drops the least recently active entries until at most `max` remain.
    pub fn evict_to(&mut self, max: usize) {
        while self.nodes.len() > max && self.oldest != NIL {
            self.remove_at(self.oldest);
        }
    }

    /// Keys from the least to the most recently active.
    pub fn keys_by_age(&self) -> impl Iterator<Item = &str> {
        std::iter::successors((self.oldest != NIL).then_some(self.oldest), |&i| {
            let next = self.nodes[i].newer;
            (next != NIL).then_some(next)
        })
        .map(|i| &*self.nodes[i].key)
    }

    fn remove_at(&mut self, i: usize) -> V {
        self.unlink(i);
        self.slots.remove(&self.nodes[i].key);
        let node = self.nodes.swap_remove(i);
        if i < self.nodes.len() {
            // The last node moved into `i`: point its neighbours and its slot at the new place.
            let (older, newer) = (self.nodes[i].older, self.nodes[i].newer);
            match older {
                NIL => self.oldest = i,
                o => self.nodes[o].newer = i,
            }
            match newer {
                NIL => self.newest = i,
                n => self.nodes[n].older = i,
            }
            if let Some(slot) = self.slots.get_mut(&self.nodes[i].key) {
                *slot = i;
            }
        }
        node.value
    }

    fn unlink(&mut self, i: usize) {
        let (older, newer) = (self.nodes[i].older, self.nodes[i].newer);
        match older {
            NIL => self.oldest = newer,
            o => self.nodes[o].newer = newer,
        }
        match newer {
            NIL => self.newest = older,
            n => self.nodes[n].older = older,
        }
    }

    fn link_newest(&mut self, i: usize) {
        self.nodes[i].older = self.newest;
        self.nodes[i].newer = NIL;
        match self.newest {
            NIL => self.oldest = i,
            n => self.nodes[n].newer = i,
        }
        self.newest = i;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[derive(Debug, Clone)]
    enum Op {
        Touch(u8),
        Remove(u8),
        EvictTo(u8),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            4 => (0u8..12).prop_map(Op::Touch),
            1 => (0u8..12).prop_map(Op::Remove),
            1 => (0u8..8).prop_map(Op::EvictTo),
        ]
    }

    proptest! {
        /// Against a list kept in activity order by hand: same keys, same order, same values.
        #[test]
        fn behaves_like_a_list_in_activity_order(ops in prop::collection::vec(op(), 0..200)) {
            let mut map = RecencyMap::default();
            let mut model: Vec<(String, u32)> = Vec::new();
            for op in ops {
                match op {
                    Op::Touch(k) => {
                        let key = format!("k{k}");
                        *map.touch(&key, || 0) += 1;
                        let count = match model.iter().position(|(m, _)| *m == key) {
                            Some(at) => model.remove(at).1,
                            None => 0,
                        };
                        model.push((key, count + 1));
                    }
                    Op::Remove(k) => {
                        let key = format!("k{k}");
                        let want = model.iter().position(|(m, _)| *m == key).map(|at| model.remove(at).1);
                        prop_assert_eq!(map.remove(&key), want);
                    }
                    Op::EvictTo(max) => {
                        map.evict_to(max.into());
                        let drop = model.len().saturating_sub(max.into());
                        model.drain(..drop);
                    }
                }
                let keys: Vec<&str> = map.keys_by_age().collect();
                let want: Vec<&str> = model.iter().map(|(k, _)| k.as_str()).collect();
                prop_assert_eq!(keys, want);
                prop_assert_eq!(map.len(), model.len());
                for (k, v) in &model {
                    prop_assert_eq!(map.get(k), Some(v));
                }
            }
        }
    }
}
