//! What the engine answers: plain data the shim turns into a hook result (STYLE.md: verdicts are
//! values). `approval` is filled for escalations and maps onto the host's `requireApproval`.

use crate::policy::model::{Action, Fallback, Severity};
use crate::risk::RiskAssessment;
use crate::trust::TrustSnapshot;
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MatchSummary {
    pub policy_id: String,
    pub rule_id: String,
    pub effect: &'static str,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ApprovalRequest {
    /// Names the escalation to the approver and links its audit records (`gov-…`).
    pub id: String,
    pub title: String,
    pub description: String,
    pub severity: Severity,
    pub timeout_ms: u64,
    pub fallback: Fallback,
    /// The id of the escalation's audit record, which its resolution's record names.
    #[serde(skip)]
    pub record_id: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LogLine {
    pub level: &'static str,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Verdict {
    /// allow | deny | escalate. An `audit` effect allows (and is listed in `matched`).
    pub action: Action,
    pub reason: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule_id: Option<String>,
    pub risk: RiskAssessment,
    pub trust: TrustSnapshot,
    pub matched: Vec<MatchSummary>,
    pub evaluation_us: f64,
    /// Set when the evaluation took longer than `performance.maxEvalUs` (the budget, in µs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub over_budget_us: Option<u64>,
    pub llm_escalated: bool,
    /// Set when the verdict waits for a model: the id the binding awaits (`judgePending`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pending: Option<u64>,
    /// The questions a model is to answer before this verdict stands.
    #[serde(skip)]
    pub questions: Vec<crate::engine::judgment::Question>,
    /// What the call writes into files (`crate::written`), noted once the verdict stands and
    /// does not deny.
    #[serde(skip)]
    pub writes: Vec<(String, crate::written::Change)>,
    /// The state a `process` call leaves its shell in, by shell (`crate::typed`), noted like
    /// `writes`.
    #[serde(skip)]
    pub typed: Option<(String, crate::typed::ShellState)>,
    /// The symbolic links the call makes or removes (`crate::links`), noted like `writes`.
    #[serde(skip)]
    pub links: Vec<crate::links::LinkChange>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub approval: Option<ApprovalRequest>,
    /// Set when the verdict is a fail-mode fallback (bad config or an internal error).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// For sub-agents: parent, ancestors, inherited policies and the trust ceiling.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cross_agent: Option<crate::cross_agent::CrossAgentContext>,
    /// What the session's context held when provenance judged the call (seed 004), for the
    /// audit record; not sent to JS (the hook needs the verdict, and a block names the source).
    #[serde(skip)]
    pub taint: Option<std::sync::Arc<crate::provenance::Taint>>,
    /// Log lines the host logger should print (one-time warnings); usually empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub logs: Vec<LogLine>,
}

impl Verdict {
    pub fn is_block(&self) -> bool {
        self.action == Action::Deny
    }
}
