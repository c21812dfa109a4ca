//! Session taint (seed 004: "a derived artifact inherits the lowest trust of its inputs"): for
//! each session, which levels of content its context holds and the first source of each, so a
//! block can say which call brought it. Taint only grows until the session is reset; a
//! compaction keeps it (the summary derives from the tainted content).

use super::level::Level;
use super::rule_of_two::Act;
use crate::recency::RecencyMap;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Sessions remembered; the least recently active go first.
pub const MAX_SESSIONS: usize = 10_000;

/// Where a level entered the session: the call (or message) that brought it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Source {
    pub level: Level,
    /// The tool, or `message` for an inbound message, or `subagent` for a child's result.
    pub via: String,
    /// What it read: a URL's host and path, a file, a sender, a child session.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub what: String,
    pub at_ms: i64,
    /// SHA-256 of the content, when the host passed it (never the content itself).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
}

/// One session's taint: the first source of every level present, and how many more came.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Taint {
    /// At most one per level, ordered from the least trusted.
    pub sources: Vec<Source>,
    /// Sources seen after the first of their level.
    #[serde(default)]
    pub more: u32,
    /// The first call that accessed sensitive data in this session (rule of two, leg B).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sensitive: Option<Act>,
    /// The first call that sent a message or reached the network (rule of two, leg C).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outbound: Option<Act>,
}

impl Taint {
    /// The lowest level in the context (`None`: nothing but system and owner content seen).
    pub fn lowest(&self) -> Option<Level> {
        self.sources.first().map(|s| s.level)
    }

    pub fn includes(&self, level: Level) -> bool {
        self.sources.iter().any(|s| s.level == level)
    }

    /// The first source at or below `level`, the least trusted first.
    pub fn source_at_or_below(&self, level: Level) -> Option<&Source> {
        self.sources.first().filter(|s| s.level <= level)
    }

    pub fn source_of(&self, level: Level) -> Option<&Source> {
        self.sources.iter().find(|s| s.level == level)
    }

    /// Adds `source`; true when the taint changed (a level not seen before).
    fn add(&mut self, source: Source) -> bool {
        if self.includes(source.level) {
            self.more = self.more.saturating_add(1);
            return false;
        }
        let at = self.sources.partition_point(|s| s.level < source.level);
        self.sources.insert(at, source);
        true
    }

    /// Everything `other` holds, as its own sources (a parent taking a child's result).
    fn absorb(&mut self, other: &Taint) -> bool {
        let mut changed = false;
        for s in &other.sources {
            changed |= self.add(s.clone());
        }
        for (mine, theirs) in [
            (&mut self.sensitive, &other.sensitive),
            (&mut self.outbound, &other.outbound),
        ] {
            if mine.is_none() && theirs.is_some() {
                mine.clone_from(theirs);
                changed = true;
            }
        }
        changed
    }
}

/// A decision's record of the session's taint (seed 004 summary: `maxTaint` and its sources);
/// fields in key order, as every record struct (canonical serialization).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TaintAudit {
    pub max_taint: Level,
    pub more: u32,
    pub sources: Vec<Source>,
}

impl Taint {
    pub fn audit(&self) -> Option<TaintAudit> {
        Some(TaintAudit {
            max_taint: self.lowest()?,
            more: self.more,
            sources: self.sources.clone(),
        })
    }
}

/// Every session's taint. Owner and system content taints nothing, so a session that only
/// talked to its owner is not stored at all.
#[derive(Default)]
pub struct Sessions {
    /// Shared with the evaluations reading it: a call clones a pointer, not the sources; a
    /// change (rare: the first source of a level) copies the session's taint.
    map: RecencyMap<Arc<Taint>>,
}

impl Sessions {
    pub fn get(&self, session: &str) -> Option<&Taint> {
        self.map.get(session).map(|t| &**t)
    }

    /// The session's taint, shared.
    pub fn shared(&self, session: &str) -> Option<Arc<Taint>> {
        self.map.get(session).cloned()
    }

    /// Records that `source` entered `session`; true when the session's taint changed.
    pub fn taint(&mut self, session: &str, source: Source) -> bool {
        if source.level >= Level::Owner || session.is_empty() {
            return false;
        }
        let changed = Arc::make_mut(self.map.touch(session, Arc::default)).add(source);
        self.map.evict_to(MAX_SESSIONS);
        changed
    }

    /// Records a call that gave the session a rule-of-two leg (`outbound`: leg C, else B);
    /// the first one of each is kept. True when the session's record changed.
    pub fn act(&mut self, session: &str, outbound: bool, act: Act) -> bool {
        let known = self.get(session).map(|t| match outbound {
            true => t.outbound.is_some(),
            false => t.sensitive.is_some(),
        });
        if session.is_empty() || known == Some(true) {
            return false;
        }
        let taint = Arc::make_mut(self.map.touch(session, Arc::default));
        let slot = if outbound {
            &mut taint.outbound
        } else {
            &mut taint.sensitive
        };
        let changed = slot.is_none();
        if changed {
            *slot = Some(act);
        }
        self.map.evict_to(MAX_SESSIONS);
        changed
    }

    /// A child spawned from `parent` starts with the parent's taint; a child's result taints
    /// its parent with the child's. Both are the same union.
    pub fn inherit(&mut self, into: &str, from: &str) -> bool {
        let Some(from) = self.shared(from) else {
            return false;
        };
        if into.is_empty() {
            return false;
        }
        let changed = Arc::make_mut(self.map.touch(into, Arc::default)).absorb(&from);
        self.map.evict_to(MAX_SESSIONS);
        changed
    }

    /// Everything `other` knows, added to what this one knows (a state directory that
    /// changed under a running engine: neither side's taint may be lost).
    pub fn merge(&mut self, other: Sessions) {
        for (k, t) in other.to_list() {
            Arc::make_mut(self.map.touch(&k, Arc::default)).absorb(&t);
        }
        self.map.evict_to(MAX_SESSIONS);
    }

    /// A reset or a new session: what the context held is gone.
    pub fn clear(&mut self, session: &str) -> bool {
        self.map.remove(session).is_some()
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// The persisted form: sessions from the least to the most recently active.
    pub fn to_list(&self) -> Vec<(String, Taint)> {
        self.map
            .keys_by_age()
            .filter_map(|k| Some((k.to_string(), Taint::clone(self.map.get(k)?))))
            .collect()
    }

    pub fn from_list(list: Vec<(String, Taint)>) -> Sessions {
        let mut s = Sessions::default();
        for (k, t) in list {
            *s.map.touch(&k, Arc::default) = Arc::new(t);
        }
        s.map.evict_to(MAX_SESSIONS);
        s
    }
}
