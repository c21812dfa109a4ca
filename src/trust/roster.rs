//! The tracked agents, with their eviction order kept beside them so that making room for a new
//! agent is O(log n), not a scan of up to `MAX_AGENTS` for each one (a burst of fresh sub-agents
//! would pay that scan per agent).

use super::AgentTrust;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// Eviction order, first out first: ephemeral agents (`false` sorts first), then the least
/// recently seen; the id keeps ranks unique and breaks ties by name.
type Rank = (bool, i64, Arc<str>);

fn rank(id: &Arc<str>, a: &AgentTrust) -> Rank {
    (!a.ephemeral, a.last_seen_ms, id.clone())
}

/// The map and its order change only together: every change to an agent goes through `update`.
pub struct Roster {
    /// `Arc<str>` keys: re-ranking on every recorded outcome then costs no allocation.
    agents: BTreeMap<Arc<str>, AgentTrust>,
    order: BTreeSet<Rank>,
    capacity: usize,
}

impl Roster {
    pub fn new(capacity: usize) -> Roster {
        Roster {
            agents: BTreeMap::new(),
            order: BTreeSet::new(),
            capacity: capacity.max(1),
        }
    }

    /// The agents of a loaded file; a file holding more than `capacity` is cut by the same rule.
    pub fn from_map(map: BTreeMap<String, AgentTrust>, capacity: usize) -> Roster {
        let mut roster = Roster::new(capacity);
        for (id, a) in map {
            let id: Arc<str> = id.into();
            roster.order.insert(rank(&id, &a));
            roster.agents.insert(id, a);
        }
        while roster.agents.len() > roster.capacity {
            roster.evict();
        }
        roster
    }

    pub fn get(&self, id: &str) -> Option<&AgentTrust> {
        self.agents.get(id)
    }

    pub fn len(&self) -> usize {
        self.agents.len()
    }

    pub fn is_empty(&self) -> bool {
        self.agents.is_empty()
    }

    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.agents.keys().map(|k| &**k)
    }

    /// For trust.json.
    pub fn agents(&self) -> &BTreeMap<Arc<str>, AgentTrust> {
        &self.agents
    }

    /// Adds the agent `make` builds unless `id` is tracked, first evicting one when full.
    /// Returns the evicted id.
    pub fn admit(&mut self, id: &str, make: impl FnOnce() -> AgentTrust) -> Option<Arc<str>> {
        if self.agents.contains_key(id) {
            return None;
        }
        let evicted = if self.agents.len() >= self.capacity {
            self.evict()
        } else {
            None
        };
        let id: Arc<str> = id.into();
        let a = make();
        self.order.insert(rank(&id, &a));
        self.agents.insert(id, a);
        evicted
    }

    /// Changes one agent and moves it in the eviction order.
    pub fn update<R>(&mut self, id: &str, f: impl FnOnce(&mut AgentTrust) -> R) -> Option<R> {
        let key = self.agents.get_key_value(id)?.0.clone();
        let a = self.agents.get_mut(id)?;
        let before = rank(&key, a);
        let result = f(a);
        let after = rank(&key, a);
        if before != after {
            self.order.remove(&before);
            self.order.insert(after);
        }
        Some(result)
    }

    fn evict(&mut self) -> Option<Arc<str>> {
        let (_, _, id) = self.order.pop_first()?;
        self.agents.remove(&id);
        Some(id)
    }

    /// The order agrees with the map (tests).
    #[cfg(test)]
    pub fn consistent(&self) -> bool {
        self.order.len() == self.agents.len()
            && self
                .order
                .iter()
                .all(|r| self.agents.get(&r.2).is_some_and(|a| rank(&r.2, a) == *r))
    }
}
