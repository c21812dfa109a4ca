//! The audit record (seed 002 §3.3 `AuditRecord`, NORMATIVE N6) plus the proof-of-prevention
//! fields of seed 003. `id`, `seq`, `prevHash`, `timestampIso`, `controls` and the hash are filled
//! by the writer thread, which owns the chain.

use crate::output::claims::{ClaimCategory, DetectedClaim};
use crate::output::Violation;
use crate::risk::RiskLevel;
use crate::trust::TrustSnapshot;
use serde::Serialize;
use serde_json::{Map, Value};
use std::sync::Arc;

// Field order matters: structs serialize in declaration order, and every struct here lists its
// JSON keys alphabetically, so a record serializes directly to its canonical form (sorted keys,
// compact) without an intermediate map. `hash` is not a field: it prefixes the stored line.

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AuditVerdict {
    Allow,
    Deny,
    Escalate,
    EscalateApproved,
    EscalateDenied,
    EscalateTimeout,
    /// The host could not ask anyone (no approval route, a failed request, an aborted run) and
    /// blocked the call: nobody decided, so it is no human denial.
    EscalateUnavailable,
    ErrorFallback,
    /// Verification found a break; a new segment starts here and names it (old records stay as they are).
    #[serde(rename = "governance.chain.break")]
    ChainBreak,
    /// A torn last line (a write cut off by a crash) was moved aside at start.
    #[serde(rename = "governance.chain.torn")]
    ChainTorn,
    /// Retention removed old daily files; `details` records what the chain still vouches for.
    #[serde(rename = "governance.retention")]
    Retention,
    /// An agent's trust tier moved, or an operator changed its trust.
    #[serde(rename = "governance.trust.change")]
    TrustChange,
    /// The plugin config was edited while the engine ran (ISO A.8.9).
    #[serde(rename = "governance.config.change")]
    ConfigChange,
    /// A model was asked (an intent condition, risk escalation): backend, model, latency, answer.
    #[serde(rename = "governance.llm.call")]
    LlmCall,
    /// Output validation (seed 000 §11.1).
    OutputPass,
    OutputFlag,
    OutputBlock,
}

impl AuditVerdict {
    pub fn as_str(self) -> &'static str {
        match self {
            AuditVerdict::Allow => "allow",
            AuditVerdict::Deny => "deny",
            AuditVerdict::Escalate => "escalate",
            AuditVerdict::EscalateApproved => "escalate_approved",
            AuditVerdict::EscalateDenied => "escalate_denied",
            AuditVerdict::EscalateTimeout => "escalate_timeout",
            AuditVerdict::EscalateUnavailable => "escalate_unavailable",
            AuditVerdict::ErrorFallback => "error_fallback",
            AuditVerdict::ChainBreak => "governance.chain.break",
            AuditVerdict::ChainTorn => "governance.chain.torn",
            AuditVerdict::Retention => "governance.retention",
            AuditVerdict::TrustChange => "governance.trust.change",
            AuditVerdict::ConfigChange => "governance.config.change",
            AuditVerdict::LlmCall => "governance.llm.call",
            AuditVerdict::OutputPass => "output_pass",
            AuditVerdict::OutputFlag => "output_flag",
            AuditVerdict::OutputBlock => "output_block",
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AuditContext {
    pub agent_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub channel: Option<String>,
    pub hook: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message_content: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message_to: Option<String>,
    /// Output validation: claim count, violations (matched segments only), trigger hook (§11.2).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_validation: Option<OutputAudit>,
    pub session_key: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_name: Option<String>,
    /// Redacted by the writer before anything reaches disk.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_params: Option<Map<String, Value>>,
}

/// `context.outputValidation` (seed 000 §11.2); fields in key order (canonical serialization).
/// It shares the validation's claims and violations and is shaped for the log when the writer
/// thread serializes it, not on the thread that validated.
#[derive(Debug, Clone, PartialEq)]
pub struct OutputAudit {
    /// Validated where nothing can be blocked (`llm_output`): the verdict is what happened.
    pub audit_only: bool,
    pub claim_count: usize,
    /// Categories only: agent output is never logged beyond the violations' matched segments.
    pub claims: Arc<Vec<DetectedClaim>>,
    pub trigger_hook: String,
    pub violations: Arc<Vec<Violation>>,
    /// Audit-only, and the profile judged `block`: recorded as a flag, with what it would have been.
    pub would_block: bool,
}

impl OutputAudit {
    /// The violations' text is the agent's (and a contradiction's expected value the operator's):
    /// it passes the redactor like a message. Claims are shared with the verdict, so the log gets
    /// its own copies, and only when there is something to write.
    pub fn redact(&mut self, r: &crate::audit::redact::Redactor) {
        if self.violations.is_empty() {
            return;
        }
        let text =
            |t: &crate::output::text::Text| crate::output::text::Text::from(r.text(t.as_str()));
        let claims = self.claims.iter().map(|c| DetectedClaim {
            matched_text: text(&c.matched_text),
            subject: text(&c.subject),
            assertion: text(&c.assertion),
            name: c.name.as_ref().map(text),
            ..c.clone()
        });
        self.claims = Arc::new(claims.collect());
        let violations = self.violations.iter().map(|v| Violation {
            reason: match &v.reason {
                crate::output::Reason::Contradicts {
                    fact_id,
                    expected,
                    claimed,
                } => crate::output::Reason::Contradicts {
                    fact_id: fact_id.clone(),
                    expected: text(expected),
                    claimed: text(claimed),
                },
                other => other.clone(),
            },
            ..v.clone()
        });
        self.violations = Arc::new(violations.collect());
    }
}

impl Serialize for OutputAudit {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut m = s.serialize_struct("OutputAudit", 6)?;
        if self.audit_only {
            m.serialize_field("auditOnly", &true)?;
        }
        m.serialize_field("claimCount", &self.claim_count)?;
        m.serialize_field("claims", &ClaimCategories(&self.claims))?;
        m.serialize_field("triggerHook", &self.trigger_hook)?;
        m.serialize_field("violations", &ViolationEntries(self))?;
        if self.would_block {
            m.serialize_field("wouldBlock", &true)?;
        }
        m.end()
    }
}

#[derive(Serialize)]
struct ClaimAudit {
    category: ClaimCategory,
}

/// One violation in the log: the claim's fields flattened, its matched segment only.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ViolationAudit<'a> {
    assertion: &'a str,
    category: ClaimCategory,
    #[serde(skip_serializing_if = "Option::is_none")]
    contradicted_fact_id: Option<&'a str>,
    detector_id: &'a str,
    matched_text: &'a str,
    reason: &'a crate::output::Reason,
    severity: &'a str,
    subject: &'a str,
}

struct ClaimCategories<'a>(&'a [DetectedClaim]);

impl Serialize for ClaimCategories<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|c| ClaimAudit {
            category: c.category,
        }))
    }
}

struct ViolationEntries<'a>(&'a OutputAudit);

impl Serialize for ViolationEntries<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let claims = &self.0.claims;
        s.collect_seq(
            self.0
                .violations
                .iter()
                .filter_map(|v| Some((v, claims.get(v.claim)?)))
                .map(|(v, claim)| ViolationAudit {
                    assertion: claim.assertion.as_str(),
                    category: claim.category,
                    contradicted_fact_id: v.contradicted_fact_id(),
                    detector_id: claim.detector_id.as_str(),
                    matched_text: claim.matched_text.as_str(),
                    reason: &v.reason,
                    severity: v.severity,
                    subject: claim.subject.as_str(),
                }),
        )
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MatchedPolicy {
    pub effect: &'static str,
    pub policy_id: String,
    pub rule_id: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RiskSummary {
    /// Only at level `verbose`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub factors: Vec<crate::risk::RiskFactor>,
    pub level: RiskLevel,
    pub score: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AuditRecord {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block_reason: Option<String>,
    pub context: AuditContext,
    pub controls: Vec<&'static str>,
    /// Sub-agent traceability (parent, inherited policies, trust ceiling).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cross_agent: Option<crate::cross_agent::CrossAgentContext>,
    /// Chain events: what happened (break location, torn bytes, pruned range).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<Value>,
    /// Why the engine fell back (`error_fallback` records).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    pub evaluation_us: f64,
    /// Seed 003: the tool layer was never reached.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub execution_prevented: Option<bool>,
    pub id: String,
    pub llm_escalated: bool,
    pub matched_policies: Vec<MatchedPolicy>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy_id: Option<String>,
    pub prev_hash: String,
    /// The session's taint when provenance judged the call: `maxTaint` and where each level came from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provenance: Option<crate::provenance::TaintAudit>,
    pub risk: RiskSummary,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule_id: Option<String>,
    pub seq: u64,
    pub timestamp: i64,
    pub timestamp_iso: String,
    pub trust: TrustSnapshot,
    pub verdict: AuditVerdict,
}

impl AuditRecord {
    /// A chain event written by the audit system itself.
    pub fn event(verdict: AuditVerdict, details: Value, now: i64) -> AuditRecord {
        let context = AuditContext {
            agent_id: "governance".into(),
            hook: "audit".into(),
            ..AuditContext::default()
        };
        AuditRecord {
            details: Some(details),
            ..AuditRecord::of(verdict, context, now)
        }
    }

    /// A record of `verdict` in `context`, with no details.
    pub fn of(verdict: AuditVerdict, context: AuditContext, now: i64) -> AuditRecord {
        AuditRecord {
            block_reason: None,
            context,
            controls: Vec::new(),
            cross_agent: None,
            details: None,
            error: None,
            evaluation_us: 0.0,
            execution_prevented: None,
            id: String::new(),
            llm_escalated: false,
            matched_policies: Vec::new(),
            policy_id: None,
            prev_hash: String::new(),
            provenance: None,
            risk: RiskSummary {
                factors: Vec::new(),
                level: RiskLevel::Low,
                score: 0.0,
            },
            rule_id: None,
            seq: 0,
            timestamp: now,
            timestamp_iso: String::new(),
            trust: TrustSnapshot::of(100.0),
            verdict,
        }
    }
}

/// ISO 27001 Annex A controls by event type (NORMATIVE N6): the one table the records cite.
/// An event's controls are those of its hook plus those of its verdict.
const CONTROLS: &[(&str, &[&str])] = &[
    // hooks
    ("hook:before_tool_call", &["A.8.3", "A.8.5"]),
    ("hook:message_sending", &["A.5.14"]),
    ("hook:before_agent_start", &["A.8.3"]),
    ("hook:session_start", &["A.8.3"]),
    ("hook:trust", &["A.5.15", "A.8.2"]),
    ("hook:config", &["A.8.9"]),
    ("hook:audit", &["A.8.15"]),
    // verdicts
    ("deny", &["A.5.24", "A.5.28"]),
    ("escalate", &["A.5.17", "A.8.2"]),
    ("escalate_approved", &["A.5.17", "A.8.2"]),
    ("escalate_denied", &["A.5.17", "A.8.2"]),
    ("escalate_timeout", &["A.5.17", "A.8.2"]),
    ("escalate_unavailable", &["A.5.17", "A.8.2"]),
    ("error_fallback", &["A.8.9"]),
    ("governance.chain.break", &["A.5.24", "A.8.15"]),
    ("governance.chain.torn", &["A.8.15"]),
    ("governance.retention", &["A.8.15", "A.5.33"]),
    ("governance.config.change", &["A.8.9"]),
    // seed 000 §11.3
    ("output_pass", &["A.8.10"]),
    ("output_flag", &["A.8.10", "A.5.24"]),
    ("output_block", &["A.8.10", "A.5.24", "A.5.28"]),
];

pub fn controls_for(hook: &str, verdict: AuditVerdict) -> Vec<&'static str> {
    let hook_key = format!("hook:{hook}");
    let mut out: Vec<&'static str> = Vec::new();
    for key in [hook_key.as_str(), verdict.as_str()] {
        if let Some((_, controls)) = CONTROLS.iter().find(|(k, _)| *k == key) {
            for c in controls.iter() {
                if !out.contains(c) {
                    out.push(c);
                }
            }
        }
    }
    if out.is_empty() {
        out.extend(["A.8.3", "A.8.5"]);
    }
    out
}

pub fn iso_millis(ms: i64) -> String {
    use chrono::TimeZone;
    chrono::Utc
        .timestamp_millis_opt(ms)
        .single()
        .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true))
        .unwrap_or_default()
}
