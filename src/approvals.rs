//! Escalations waiting for a human (NORMATIVE N7): each has an id that the approver sees and
//! that links the escalation's audit record to its resolution's; an agent may have at most
//! `approval.maxPendingPerAgent` waiting. The host runs the approval itself (`requireApproval`)
//! and reports how it ended: allow-once | allow-always | deny | timeout | cancelled.

use crate::context::Request;
use std::collections::HashMap;
use std::sync::Mutex;

/// Escalations tracked at most over all agents (each agent is also bounded by its limit).
const MAX_PENDING: usize = 10_000;
/// The host resolves every approval it was asked for; one it has not resolved this long after
/// its timeout is counted as gone (a run killed with its process, say).
const GRACE_MS: i64 = 60_000;

/// How the host ended an approval.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolution {
    Approved,
    Denied,
    /// Nobody decided in time; the host denies.
    TimedOut,
    /// No decision was possible: no approval route (CLI and `--local` runs, a client without
    /// `operator.approvals`), the request failed, or the run was aborted. Not a human's denial.
    Unavailable,
}

impl Resolution {
    /// The host's decision names (`PluginApprovalResolutions`).
    pub fn parse(decision: &str) -> Option<Resolution> {
        Some(match decision {
            "allow-once" | "allow-always" => Resolution::Approved,
            "deny" => Resolution::Denied,
            "timeout" => Resolution::TimedOut,
            "cancelled" => Resolution::Unavailable,
            _ => return None,
        })
    }
}

/// One escalation waiting for the host's answer.
#[derive(Debug, Clone)]
pub struct Pending {
    pub id: String,
    /// The audit record of the escalation, which the resolution's record names.
    pub record_id: String,
    pub agent_id: String,
    pub request: Request,
    pub policy_id: Option<String>,
    pub rule_id: Option<String>,
    pub timeout_ms: u64,
    pub created_ms: i64,
}

#[derive(Default)]
pub struct Approvals {
    pending: Mutex<HashMap<String, Pending>>,
}

/// The agent already has as many approvals waiting as it may.
#[derive(Debug, PartialEq, Eq)]
pub struct TooMany {
    pub waiting: usize,
}

impl Approvals {
    /// Registers an escalation unless the agent is at its limit.
    pub fn open(&self, p: Pending, max_per_agent: usize, now: i64) -> Result<(), TooMany> {
        let Ok(mut map) = self.pending.lock() else {
            return Err(TooMany { waiting: 0 });
        };
        map.retain(|_, q| now <= q.created_ms + q.timeout_ms as i64 + GRACE_MS);
        let waiting = map.values().filter(|q| q.agent_id == p.agent_id).count();
        if waiting >= max_per_agent || map.len() >= MAX_PENDING {
            return Err(TooMany { waiting });
        }
        map.insert(p.id.clone(), p);
        Ok(())
    }

    /// The escalation `id` ended; None if it is not (or no longer) known.
    pub fn close(&self, id: &str) -> Option<Pending> {
        self.pending.lock().ok()?.remove(id)
    }

    pub fn waiting_for(&self, agent_id: &str) -> usize {
        self.pending
            .lock()
            .map(|m| m.values().filter(|q| q.agent_id == agent_id).count())
            .unwrap_or(0)
    }

    pub fn len(&self) -> usize {
        self.pending.lock().map(|m| m.len()).unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A short id an approver can read out (`gov-` and 12 hex digits).
pub fn new_id() -> String {
    let mut b = [0u8; 6];
    let _ = getrandom::fill(&mut b);
    format!(
        "gov-{}",
        b.iter().map(|x| format!("{x:02x}")).collect::<String>()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pending(id: &str, agent: &str, now: i64) -> Pending {
        Pending {
            id: id.into(),
            record_id: format!("rec-{id}"),
            agent_id: agent.into(),
            request: Request::default(),
            policy_id: None,
            rule_id: None,
            timeout_ms: 1_000,
            created_ms: now,
        }
    }

    #[test]
    fn an_agent_may_have_only_so_many_waiting() {
        let a = Approvals::default();
        for i in 0..3 {
            a.open(pending(&format!("a{i}"), "intern", 0), 3, 0)
                .unwrap();
        }
        assert_eq!(
            a.open(pending("a3", "intern", 0), 3, 0),
            Err(TooMany { waiting: 3 })
        );
        assert!(
            a.open(pending("b0", "main", 0), 3, 0).is_ok(),
            "the limit is per agent"
        );
        assert!(a.close("a1").is_some());
        assert!(a.close("a1").is_none(), "resolved once");
        assert!(a.open(pending("a4", "intern", 0), 3, 0).is_ok());
    }

    #[test]
    fn approvals_the_host_never_resolved_stop_counting_after_their_timeout() {
        let a = Approvals::default();
        a.open(pending("x", "intern", 0), 1, 0).unwrap();
        assert!(a.open(pending("y", "intern", 10), 1, 10).is_err());
        let later = 1_000 + GRACE_MS + 1;
        assert!(a.open(pending("z", "intern", later), 1, later).is_ok());
        assert_eq!(a.waiting_for("intern"), 1);
    }

    #[test]
    fn host_decisions_map_to_resolutions() {
        assert_eq!(Resolution::parse("allow-once"), Some(Resolution::Approved));
        assert_eq!(
            Resolution::parse("allow-always"),
            Some(Resolution::Approved)
        );
        assert_eq!(Resolution::parse("deny"), Some(Resolution::Denied));
        assert_eq!(Resolution::parse("timeout"), Some(Resolution::TimedOut));
        assert_eq!(
            Resolution::parse("cancelled"),
            Some(Resolution::Unavailable)
        );
        assert_eq!(Resolution::parse("maybe"), None);
    }
}
