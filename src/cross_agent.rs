//! Cross-agent governance (seed 002 §4.4, USP3): who spawned whom, so a sub-agent is bound by
//! every ancestor's policies (deny wins across the chain) and never trusted more than any
//! ancestor.
//!
//! Identity follows the host's keys: it mints a child's session key as
//! `agent:<target agent>:subagent:<uuid>` (or `:acp:`), so the key names the agent the child
//! runs as, never who asked for it. Who asked comes only from `subagent_spawned`
//! (`requesterSessionKey`); the graph keeps those edges and is persisted, so a restart does not
//! lift a ceiling. A sub-agent session whose requester was never reported is capped as an
//! unknown agent (engine/lineage.rs).

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;
/// Relationships tracked at most (oldest dropped first).
pub const MAX_RELATIONSHIPS: usize = 10_000;
/// Ancestor chains are cut here, which also stops a cycle someone fed in.
pub const MAX_DEPTH: usize = 32;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Relationship {
    pub parent_agent_id: String,
    pub parent_session_key: String,
    pub child_agent_id: String,
    pub child_session_key: String,
    pub created_at: i64,
}

/// What a sub-agent's evaluation and audit record carry (seed 002 `CrossAgentAuditContext`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CrossAgentContext {
    // Keys in alphabetical order: audit records serialize canonically straight from structs.
    /// Ancestors, nearest first.
    pub ancestors: Vec<String>,
    /// Shared between evaluations of the same lineage (computed once per chain and hook).
    pub inherited_policy_ids: std::sync::Arc<Vec<String>>,
    pub parent_agent_id: String,
    pub parent_session_key: String,
    pub trust_ceiling: f64,
    /// The ancestor whose score sets the ceiling.
    pub trust_ceiling_from: String,
}

/// `agent:<id>:…` → `<id>`: the agent a session runs as, sub-agent sessions included.
pub fn agent_of_key(key: &str) -> Option<&str> {
    crate::context::agent_from_session_key(key)
}

/// A session the host minted for a spawned run: `agent:<id>:subagent:…` or `agent:<id>:acp:…`.
pub fn is_subagent_key(key: &str) -> bool {
    let mut parts = key.splitn(4, ':');
    parts.next() == Some("agent")
        && parts.next().is_some_and(|a| !a.is_empty())
        && matches!(parts.next(), Some("subagent" | "acp"))
}

/// Child session → the relationship to its requester; evicted oldest first past
/// [`MAX_RELATIONSHIPS`] (an ordered index, so eviction does not scan).
#[derive(Default)]
pub struct AgentGraph {
    inner: Mutex<Edges>,
}

#[derive(Default)]
struct Edges {
    by_child: HashMap<String, (Relationship, u64)>,
    order: BTreeMap<(i64, u64), String>,
    next: u64,
}

impl Edges {
    fn insert(&mut self, rel: Relationship) {
        self.remove(&rel.child_session_key);
        if self.by_child.len() >= MAX_RELATIONSHIPS {
            if let Some((_, oldest)) = self.order.pop_first() {
                self.by_child.remove(&oldest);
            }
        }
        self.next += 1;
        self.order
            .insert((rel.created_at, self.next), rel.child_session_key.clone());
        self.by_child
            .insert(rel.child_session_key.clone(), (rel, self.next));
    }

    fn remove(&mut self, child: &str) -> bool {
        match self.by_child.remove(child) {
            Some((rel, n)) => {
                self.order.remove(&(rel.created_at, n));
                true
            }
            None => false,
        }
    }
}

impl AgentGraph {
    /// From `subagent_spawned`: `childSessionKey` was spawned by `requesterSessionKey`.
    /// Returns whether the graph changed.
    pub fn register(
        &self,
        child_key: &str,
        parent_key: &str,
        child_agent: Option<&str>,
        now: i64,
    ) -> bool {
        if child_key.is_empty() || parent_key.is_empty() || child_key == parent_key {
            return false;
        }
        let parent_agent = agent_of_key(parent_key).unwrap_or(parent_key).to_string();
        // The key names the agent the child runs as; the event's agentId is the same target.
        let child_agent = agent_of_key(child_key)
            .or(child_agent.filter(|a| !a.is_empty()))
            .unwrap_or(child_key);
        let rel = Relationship {
            parent_agent_id: parent_agent,
            parent_session_key: parent_key.to_string(),
            child_agent_id: child_agent.to_string(),
            child_session_key: child_key.to_string(),
            created_at: now,
        };
        let Ok(mut edges) = self.inner.lock() else {
            return false;
        };
        edges.insert(rel);
        true
    }

    /// From `subagent_ended` / `session_end`. Returns whether the graph changed.
    pub fn remove(&self, child_key: &str) -> bool {
        self.inner
            .lock()
            .map(|mut e| e.remove(child_key))
            .unwrap_or(false)
    }

    pub fn parent(&self, key: &str) -> Option<Relationship> {
        let edges = self.inner.lock().ok()?;
        edges.by_child.get(key).map(|(r, _)| r.clone())
    }

    /// Parent, grandparent, … up to the root (nearest first); empty for a root agent and for a
    /// sub-agent whose spawn was never reported.
    pub fn ancestors(&self, key: &str) -> Vec<Relationship> {
        let mut chain: Vec<Relationship> = Vec::new();
        let mut cur = key.to_string();
        while chain.len() < MAX_DEPTH {
            let Some(rel) = self.parent(&cur) else {
                break;
            };
            if rel.parent_session_key == key
                || chain
                    .iter()
                    .any(|r| r.parent_session_key == rel.parent_session_key)
            {
                break; // a cycle fed in by a confused host
            }
            cur = rel.parent_session_key.clone();
            chain.push(rel);
        }
        chain
    }

    pub fn children(&self, parent_key: &str) -> Vec<Relationship> {
        let mut out: Vec<Relationship> = self
            .relationships()
            .into_iter()
            .filter(|r| r.parent_session_key == parent_key)
            .collect();
        out.sort_by(|a, b| a.child_session_key.cmp(&b.child_session_key));
        out
    }

    pub fn len(&self) -> usize {
        self.inner.lock().map(|e| e.by_child.len()).unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every edge, sorted by child session (for status and for persisting).
    pub fn relationships(&self) -> Vec<Relationship> {
        let mut out: Vec<Relationship> = self
            .inner
            .lock()
            .map(|e| e.by_child.values().map(|(r, _)| r.clone()).collect())
            .unwrap_or_default();
        out.sort_by(|a, b| a.child_session_key.cmp(&b.child_session_key));
        out
    }

    /// A graph holding `edges` (as persisted), oldest first.
    pub fn from_relationships(mut edges: Vec<Relationship>) -> AgentGraph {
        edges.sort_by_key(|r| r.created_at);
        let g = AgentGraph::default();
        if let Ok(mut inner) = g.inner.lock() {
            for r in edges {
                inner.insert(r);
            }
        }
        g
    }
}

/// The session an agent-to-agent message goes to: `sessions_send` params or a `message_sending`
/// target that names an agent session.
pub fn message_target(
    tool: Option<&str>,
    params: Option<&serde_json::Map<String, serde_json::Value>>,
    to: Option<&str>,
) -> Option<String> {
    if let Some(to) = to.filter(|t| t.starts_with("agent:")) {
        return Some(to.to_string());
    }
    if tool != Some("sessions_send") {
        return None;
    }
    let p = params?;
    ["sessionKey", "targetSessionKey", "target", "to"]
        .iter()
        .find_map(|k| p.get(*k).and_then(|v| v.as_str()))
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHILD: &str = "agent:main:subagent:0c7e5a4e-9d3b-4f6a-8a51-2b7f0e3c1d22";

    #[test]
    fn identity_is_the_agent_the_host_key_names() {
        assert_eq!(agent_of_key("agent:main:main"), Some("main"));
        assert_eq!(agent_of_key(CHILD), Some("main"), "not the uuid");
        assert!(is_subagent_key(CHILD));
        assert!(is_subagent_key("agent:forge:acp:1"));
        assert!(!is_subagent_key("agent:main:main"));
        assert!(!is_subagent_key("agent:main:telegram:subagent:x"));
        let g = AgentGraph::default();
        assert!(
            g.ancestors(CHILD).is_empty(),
            "the requester is never read from the key"
        );
    }

    #[test]
    fn a_child_spawned_by_intern_to_run_as_main_has_intern_as_its_parent() {
        let g = AgentGraph::default();
        assert!(g.register(CHILD, "agent:intern:main", Some("main"), 1));
        let chain = g.ancestors(CHILD);
        assert_eq!(chain.len(), 1);
        assert_eq!(
            (
                chain[0].child_agent_id.as_str(),
                chain[0].parent_agent_id.as_str()
            ),
            ("main", "intern")
        );
    }

    #[test]
    fn registered_relationships_chain_and_can_be_removed() {
        let g = AgentGraph::default();
        g.register(
            "agent:forge:subagent:a",
            "agent:main:main",
            Some("forge"),
            1,
        );
        g.register("agent:task:subagent:b", "agent:forge:subagent:a", None, 2);
        let chain: Vec<(String, String)> = g
            .ancestors("agent:task:subagent:b")
            .into_iter()
            .map(|r| (r.child_agent_id, r.parent_agent_id))
            .collect();
        assert_eq!(
            chain,
            [
                ("task".to_string(), "forge".to_string()),
                ("forge".to_string(), "main".to_string())
            ]
        );
        assert_eq!(g.children("agent:main:main").len(), 1);
        assert!(g.remove("agent:forge:subagent:a"));
        assert_eq!(g.ancestors("agent:task:subagent:b").len(), 1);
        assert!(g.children("agent:main:main").is_empty());
        let again = AgentGraph::from_relationships(g.relationships());
        assert_eq!(again.relationships(), g.relationships(), "persisted as is");
    }

    #[test]
    fn cycles_and_size_are_bounded_and_the_oldest_go_first() {
        let g = AgentGraph::default();
        g.register("agent:a:1", "agent:b:1", None, 1);
        g.register("agent:b:1", "agent:a:1", None, 2);
        assert!(g.ancestors("agent:a:1").len() <= 2);
        for i in 0..MAX_RELATIONSHIPS + 10 {
            g.register(
                &format!("agent:c:{i}"),
                "agent:main:main",
                None,
                10 + i as i64,
            );
        }
        assert_eq!(g.len(), MAX_RELATIONSHIPS);
        assert!(g.parent("agent:c:0").is_none() && g.parent("agent:a:1").is_none());
        assert!(g
            .parent(&format!("agent:c:{}", MAX_RELATIONSHIPS + 9))
            .is_some());
    }

    #[test]
    fn finds_agent_message_targets() {
        let p = serde_json::json!({ "sessionKey": "agent:cerberus:main", "message": "hi" });
        assert_eq!(
            message_target(Some("sessions_send"), p.as_object(), None).as_deref(),
            Some("agent:cerberus:main")
        );
        assert_eq!(message_target(Some("exec"), p.as_object(), None), None);
        assert_eq!(
            message_target(None, None, Some("agent:forge:main")).as_deref(),
            Some("agent:forge:main")
        );
        assert_eq!(message_target(None, None, Some("webchat:1")), None);
    }
}
