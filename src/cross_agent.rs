//! Cross-agent governance (seed 002 §4.4, USP3): who spawned whom, so a sub-agent is bound by
//! every ancestor's policies (deny wins across the chain) and never trusted more than any
//! ancestor. The graph is fed by the host's `subagent_spawned` / `subagent_ended` hooks and,
//! where those are missing, read from session keys (`agent:main:subagent:forge:subagent:task1`).

use serde::Serialize;
use std::collections::HashMap;
use std::sync::Mutex;

const SUBAGENT: &str = ":subagent:";
/// Relationships tracked at most (oldest dropped first).
pub const MAX_RELATIONSHIPS: usize = 10_000;
/// Ancestor chains are cut here, which also stops a cycle someone fed in.
pub const MAX_DEPTH: usize = 32;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
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

/// `agent:<id>:…` → `<id>`; in a sub-agent key, the segment after the last `:subagent:`.
pub fn agent_of_key(key: &str) -> Option<&str> {
    match key.rfind(SUBAGENT) {
        Some(i) => key[i + SUBAGENT.len()..]
            .split(':')
            .next()
            .filter(|s| !s.is_empty()),
        None => crate::context::agent_from_session_key(key),
    }
}

/// The parent read from a sub-agent session key, when the host did not report the spawn.
pub fn parse_parent(key: &str, now: i64) -> Option<Relationship> {
    let i = key.rfind(SUBAGENT)?;
    let parent_key = &key[..i];
    Some(Relationship {
        parent_agent_id: agent_of_key(parent_key)?.to_string(),
        parent_session_key: parent_key.to_string(),
        child_agent_id: agent_of_key(key)?.to_string(),
        child_session_key: key.to_string(),
        created_at: now,
    })
}

#[derive(Default)]
pub struct AgentGraph {
    edges: Mutex<HashMap<String, Relationship>>,
}

impl AgentGraph {
    /// From `subagent_spawned`: `childSessionKey` was spawned by `requesterSessionKey`.
    pub fn register(&self, child_key: &str, parent_key: &str, child_agent: Option<&str>, now: i64) {
        if child_key.is_empty() || parent_key.is_empty() || child_key == parent_key {
            return;
        }
        let parent_agent = agent_of_key(parent_key).unwrap_or(parent_key).to_string();
        let child_agent = child_agent
            .filter(|a| !a.is_empty())
            .or_else(|| agent_of_key(child_key))
            .unwrap_or(child_key);
        let rel = Relationship {
            parent_agent_id: parent_agent,
            parent_session_key: parent_key.to_string(),
            child_agent_id: child_agent.to_string(),
            child_session_key: child_key.to_string(),
            created_at: now,
        };
        let Ok(mut edges) = self.edges.lock() else {
            return;
        };
        if edges.len() >= MAX_RELATIONSHIPS && !edges.contains_key(child_key) {
            if let Some(oldest) = edges
                .values()
                .min_by_key(|r| r.created_at)
                .map(|r| r.child_session_key.clone())
            {
                edges.remove(&oldest);
            }
        }
        edges.insert(child_key.to_string(), rel);
    }

    /// From `subagent_ended` / `session_end`.
    pub fn remove(&self, child_key: &str) {
        if let Ok(mut edges) = self.edges.lock() {
            edges.remove(child_key);
        }
    }

    pub fn parent(&self, key: &str, now: i64) -> Option<Relationship> {
        let known = self.edges.lock().ok().and_then(|e| e.get(key).cloned());
        known.or_else(|| parse_parent(key, now))
    }

    /// Parent, grandparent, … up to the root (nearest first); empty for a root agent.
    pub fn ancestors(&self, key: &str, now: i64) -> Vec<Relationship> {
        let mut chain: Vec<Relationship> = Vec::new();
        let mut cur = key.to_string();
        while chain.len() < MAX_DEPTH {
            let Some(rel) = self.parent(&cur, now) else {
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
            .edges
            .lock()
            .map(|e| {
                e.values()
                    .filter(|r| r.parent_session_key == parent_key)
                    .cloned()
                    .collect()
            })
            .unwrap_or_default();
        out.sort_by(|a, b| a.child_session_key.cmp(&b.child_session_key));
        out
    }

    pub fn len(&self) -> usize {
        self.edges.lock().map(|e| e.len()).unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn relationships(&self) -> Vec<Relationship> {
        let mut out: Vec<Relationship> = self
            .edges
            .lock()
            .map(|e| e.values().cloned().collect())
            .unwrap_or_default();
        out.sort_by(|a, b| a.child_session_key.cmp(&b.child_session_key));
        out
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

    #[test]
    fn parses_chains_from_session_keys() {
        assert_eq!(agent_of_key("agent:main:main"), Some("main"));
        assert_eq!(
            agent_of_key("agent:main:subagent:forge:subagent:task1"),
            Some("task1")
        );
        assert_eq!(agent_of_key("agent:main:subagent:forge:abc"), Some("forge"));
        let g = AgentGraph::default();
        let chain: Vec<String> = g
            .ancestors("agent:main:subagent:forge:subagent:task1", 0)
            .into_iter()
            .map(|r| r.parent_agent_id)
            .collect();
        assert_eq!(chain, ["forge", "main"]);
        assert!(
            g.ancestors("agent:main:main", 0).is_empty(),
            "root agents have no parent"
        );
    }

    #[test]
    fn registered_relationships_win_and_can_be_removed() {
        let g = AgentGraph::default();
        g.register("agent:forge:run-1", "agent:main:main", Some("forge"), 1);
        g.register("agent:task:x", "agent:forge:run-1", None, 2);
        let chain: Vec<(String, String)> = g
            .ancestors("agent:task:x", 3)
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
        g.remove("agent:forge:run-1");
        assert_eq!(g.ancestors("agent:task:x", 3).len(), 1);
        assert!(g.children("agent:main:main").is_empty());
    }

    #[test]
    fn cycles_and_size_are_bounded() {
        let g = AgentGraph::default();
        g.register("agent:a:1", "agent:b:1", None, 1);
        g.register("agent:b:1", "agent:a:1", None, 2);
        assert!(g.ancestors("agent:a:1", 3).len() <= 2);
        for i in 0..MAX_RELATIONSHIPS + 10 {
            g.register(&format!("agent:c:{i}"), "agent:main:main", None, i as i64);
        }
        assert_eq!(g.len(), MAX_RELATIONSHIPS);
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
