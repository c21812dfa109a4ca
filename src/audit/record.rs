//! The audit record (seed 002 §3.3 `AuditRecord`, NORMATIVE N6) plus the proof-of-prevention
//! fields of seed 003. `seq`, `prevHash` and `hash` are filled by the writer, which owns the chain.

use crate::risk::RiskLevel;
use crate::trust::TrustSnapshot;
use serde::Serialize;
use serde_json::{Map, Value};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AuditVerdict {
    Allow,
    Deny,
    Escalate,
    EscalateApproved,
    EscalateDenied,
    EscalateTimeout,
    ErrorFallback,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AuditContext {
    pub hook: String,
    pub agent_id: String,
    pub session_key: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub channel: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_name: Option<String>,
    /// Redacted by the writer before anything reaches disk.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_params: Option<Map<String, Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message_content: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message_to: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MatchedPolicy {
    pub policy_id: String,
    pub rule_id: String,
    pub effect: &'static str,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RiskSummary {
    pub level: RiskLevel,
    pub score: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AuditRecord {
    pub id: String,
    pub seq: u64,
    pub prev_hash: String,
    pub hash: String,
    pub timestamp: i64,
    pub timestamp_iso: String,
    pub verdict: AuditVerdict,
    pub context: AuditContext,
    pub trust: TrustSnapshot,
    pub risk: RiskSummary,
    pub matched_policies: Vec<MatchedPolicy>,
    pub evaluation_us: f64,
    pub llm_escalated: bool,
    pub controls: Vec<&'static str>,
    /// Seed 003: the tool layer was never reached.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub execution_prevented: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block_reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy_id: Option<String>,
    /// Why the engine fell back (`error_fallback` records).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// ISO 27001 Annex A controls by event (NORMATIVE N6).
pub fn controls_for(hook: &str, verdict: AuditVerdict) -> Vec<&'static str> {
    let mut c: Vec<&'static str> = match hook {
        "message_sending" => vec!["A.5.14"],
        "config" => vec!["A.8.9"],
        _ => vec!["A.8.3", "A.8.5"],
    };
    match verdict {
        AuditVerdict::Deny => c.extend(["A.5.24", "A.5.28"]),
        AuditVerdict::Escalate
        | AuditVerdict::EscalateApproved
        | AuditVerdict::EscalateDenied
        | AuditVerdict::EscalateTimeout => c.extend(["A.5.17", "A.8.2"]),
        AuditVerdict::ErrorFallback => c.push("A.8.9"),
        AuditVerdict::Allow => {}
    }
    c
}

pub fn iso_millis(ms: i64) -> String {
    use chrono::TimeZone;
    chrono::Utc
        .timestamp_millis_opt(ms)
        .single()
        .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true))
        .unwrap_or_default()
}
