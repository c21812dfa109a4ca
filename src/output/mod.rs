//! Output validation (seed 000, RFC-003): claims in agent output checked against fact
//! registries, with pass / flag / block verdicts scaled by the agent's trust. Synchronous and
//! bounded, for the host's synchronous `before_message_write`.

mod antecedents;
pub mod bridge;
pub mod claims;
mod clauses;
pub mod config;
pub mod external;
pub mod facts;
mod letters;
mod readable;
pub mod registries;
mod rendered;
pub mod scan;
pub mod sent;
pub mod split;
pub mod text;
mod unicode_tables;

use crate::policy::glob::Glob;
use crate::trust::{TrustSnapshot, TrustTier};
use claims::{ClaimCategory, DetectedClaim, Pattern};
use facts::FactCheck;
use serde::Serialize;
use text::Text;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OutputVerdict {
    Pass,
    Flag,
    Block,
}

impl OutputVerdict {
    pub fn as_str(self) -> &'static str {
        match self {
            OutputVerdict::Pass => "pass",
            OutputVerdict::Flag => "flag",
            OutputVerdict::Block => "block",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ClaimPolicy {
    Ignore,
    Flag,
    Block,
}

impl ClaimPolicy {
    pub fn parse(s: &str) -> Option<ClaimPolicy> {
        Some(match s {
            "ignore" => ClaimPolicy::Ignore,
            "flag" => ClaimPolicy::Flag,
            "block" => ClaimPolicy::Block,
            _ => return None,
        })
    }

    fn verdict(self) -> OutputVerdict {
        match self {
            ClaimPolicy::Ignore => OutputVerdict::Pass,
            ClaimPolicy::Flag => OutputVerdict::Flag,
            ClaimPolicy::Block => OutputVerdict::Block,
        }
    }
}

/// The three policies and the detection depth of one agent (§9.2).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Profile {
    pub unverified: ClaimPolicy,
    pub contradiction: ClaimPolicy,
    pub self_referential: ClaimPolicy,
    /// Run only detectors whose category has facts (trusted agents).
    pub contradiction_only: bool,
}

impl Profile {
    /// The trust-proportional table of §9.2, with one change: untrusted agents get the restricted
    /// row. The seed's untrusted row blocks unverified and self-referential claims, which its own
    /// §14.4 forbids by default (“block for unverified claims should be opt-in”; nothing blocks
    /// unless a fact contradicts it) and which blocked ordinary prose of every agent not named
    /// in `trust.defaults`. That row stays available as the opt-in profile "strict".
    pub fn for_tier(tier: TrustTier) -> Profile {
        use ClaimPolicy::*;
        match tier {
            TrustTier::Untrusted | TrustTier::Restricted => Profile::row(Flag, Block, Flag, false),
            TrustTier::Standard => Profile::row(Flag, Flag, Flag, false),
            TrustTier::Trusted | TrustTier::Privileged => Profile::row(Ignore, Flag, Ignore, true),
        }
    }

    const fn row(
        unverified: ClaimPolicy,
        contradiction: ClaimPolicy,
        self_referential: ClaimPolicy,
        contradiction_only: bool,
    ) -> Profile {
        Profile {
            unverified,
            contradiction,
            self_referential,
            contradiction_only,
        }
    }

    /// Whether any claim is blocked under this profile.
    pub fn blocks(&self) -> bool {
        [self.unverified, self.contradiction, self.self_referential].contains(&ClaimPolicy::Block)
    }

    /// Named profiles of §9.4 overrides; "strict" is the seed's untrusted row.
    pub fn named(name: &str) -> Option<Profile> {
        use ClaimPolicy::*;
        Some(match name {
            "strict" => Profile::row(Block, Block, Block, false),
            "standard" => Profile::for_tier(TrustTier::Standard),
            "lenient" => Profile::for_tier(TrustTier::Trusted),
            _ => return None,
        })
    }
}

/// A claim that makes the verdict worse than pass. It names its claim by index: the claim itself
/// is written out next to it when serialized, not copied.
#[derive(Debug, Clone, PartialEq)]
pub struct Violation {
    /// The claim's index in `OutputResult::claims`.
    pub claim: usize,
    pub reason: Reason,
    pub severity: &'static str,
}

impl Violation {
    /// The fact a contradiction goes against.
    pub fn contradicted_fact_id(&self) -> Option<&str> {
        match &self.reason {
            Reason::Contradicts { fact_id, .. } => Some(fact_id),
            _ => None,
        }
    }

    /// What that fact says.
    pub fn expected(&self) -> Option<&str> {
        match &self.reason {
            Reason::Contradicts { expected, .. } => Some(expected),
            _ => None,
        }
    }
}

/// Violations as JS and the JSON path see them: each with its claim, and with the fact id and
/// expected value written out of the reason (kept once).
pub struct ViolationsView<'a> {
    pub violations: &'a [Violation],
    pub claims: &'a [DetectedClaim],
}

impl Serialize for ViolationsView<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct View<'a> {
            claim: Option<&'a DetectedClaim>,
            reason: &'a Reason,
            severity: &'a str,
            #[serde(skip_serializing_if = "Option::is_none")]
            contradicted_fact_id: Option<&'a str>,
            #[serde(skip_serializing_if = "Option::is_none")]
            expected: Option<&'a str>,
        }
        s.collect_seq(self.violations.iter().map(|v| View {
            claim: self.claims.get(v.claim),
            reason: &v.reason,
            severity: v.severity,
            contradicted_fact_id: v.contradicted_fact_id(),
            expected: v.expected(),
        }))
    }
}

/// Why a claim is a violation. Kept as data and written out only when serialized (for JS or the
/// log), so judging a claim formats nothing.
#[derive(Debug, Clone, PartialEq)]
pub enum Reason {
    Unverified,
    SelfReferential,
    Contradicts {
        fact_id: Text,
        expected: Text,
        claimed: Text,
    },
    /// A registry file could never be read and failMode is closed (its problem).
    Unchecked(Text),
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reason::Unverified => f.write_str("unverified claim: no fact covers it"),
            Reason::SelfReferential => f.write_str("self-referential statement instead of work"),
            Reason::Contradicts {
                fact_id,
                expected,
                claimed,
            } => write!(
                f,
                "contradicts fact {fact_id}: expected {expected}, claimed {claimed}"
            ),
            Reason::Unchecked(problem) => {
                write!(f, "cannot be checked, failMode is closed: {problem}")
            }
        }
    }
}

impl Serialize for Reason {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct OutputResult {
    pub verdict: OutputVerdict,
    /// Shared with the audit record, which the writer thread serializes in its own shape.
    pub claims: std::sync::Arc<Vec<DetectedClaim>>,
    pub fact_checks: Vec<FactCheck>,
    pub violations: std::sync::Arc<Vec<Violation>>,
    pub evaluation_us: f64,
    pub trust: TrustSnapshot,
    /// Why validation did not run (disabled, short text, exempt agent, trust above threshold).
    pub skipped: Option<String>,
    /// Set when `performance.maxEvalUs` ran out before every claim was checked.
    pub incomplete: Option<String>,
}

impl Serialize for OutputResult {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct View<'a> {
            verdict: OutputVerdict,
            claims: &'a [DetectedClaim],
            fact_checks: &'a [FactCheck],
            violations: ViolationsView<'a>,
            evaluation_us: f64,
            trust: TrustSnapshot,
            #[serde(skip_serializing_if = "Option::is_none")]
            skipped: Option<&'a str>,
            #[serde(skip_serializing_if = "Option::is_none")]
            incomplete: Option<&'a str>,
        }
        View {
            verdict: self.verdict,
            claims: &self.claims,
            fact_checks: &self.fact_checks,
            violations: ViolationsView {
                violations: &self.violations,
                claims: &self.claims,
            },
            evaluation_us: self.evaluation_us,
            trust: self.trust,
            skipped: self.skipped.as_deref(),
            incomplete: self.incomplete.as_deref(),
        }
        .serialize(s)
    }
}

/// A per-agent override (§9.4); `None` profile = keep the trust-derived one.
#[derive(Debug, Clone)]
pub struct AgentOverride {
    pub agent: Glob,
    pub disabled: bool,
    pub profile: Option<Profile>,
    pub unverified: Option<ClaimPolicy>,
    pub contradiction: Option<ClaimPolicy>,
    pub self_referential: Option<ClaimPolicy>,
    /// Registry ids applied for this agent though disabled by default (§9.4).
    pub additional: Vec<String>,
    /// Registry ids not applied for this agent.
    pub exclude: Vec<String>,
}

/// Everything compiled from `outputValidation`.
pub struct Validator {
    pub config: config::OutputConfig,
    patterns: Vec<Pattern>,
    pub registries: std::sync::Arc<registries::Registries>,
    /// `failMode: closed`: claims that cannot be checked (a registry file never read) block.
    fail_closed: bool,
}

/// Below this confidence a claim may be flagged but never blocked (§14.4).
const BLOCK_CONFIDENCE: f64 = 0.7;

impl Validator {
    pub fn new(config: config::OutputConfig) -> Validator {
        let mut patterns: Vec<Pattern> = claims::BUILTIN_IDS
            .iter()
            .filter(|id| config.builtin_detectors.contains(&id.to_string()))
            .flat_map(|id| claims::builtin(id))
            .collect();
        patterns.extend(config.custom.iter().cloned());
        let registries = std::sync::Arc::new(registries::Registries::new(
            config.facts.clone(),
            config.files.clone(),
            config.disabled_registries.clone(),
        ));
        Validator {
            config,
            patterns,
            registries,
            fail_closed: false,
        }
    }

    pub fn fail_closed(mut self, closed: bool) -> Validator {
        self.fail_closed = closed;
        self
    }

    fn profile(&self, over: Option<&AgentOverride>, trust: TrustSnapshot) -> Option<Profile> {
        let mut profile = Profile::for_tier(trust.tier);
        if let (TrustTier::Standard, Some((u, c, s))) = (trust.tier, self.config.defaults) {
            (
                profile.unverified,
                profile.contradiction,
                profile.self_referential,
            ) = (u, c, s);
        }
        if let Some(o) = over {
            if o.disabled {
                return None;
            }
            profile = o.profile.unwrap_or(profile);
            profile.unverified = o.unverified.unwrap_or(profile.unverified);
            profile.contradiction = o.contradiction.unwrap_or(profile.contradiction);
            profile.self_referential = o.self_referential.unwrap_or(profile.self_referential);
        }
        Some(profile)
    }

    fn skip_reason(&self, agent: &str, text: &str, trust: TrustSnapshot) -> Option<String> {
        let c = &self.config;
        if !c.enabled {
            return Some("output validation disabled".into());
        }
        // Counting stops at the threshold: the whole text need not be walked.
        if c.min_text_length > 0 && text.chars().nth(c.min_text_length - 1).is_none() {
            return Some(format!(
                "shorter than minTextLength ({})",
                c.min_text_length
            ));
        }
        self.exemption(agent, trust)
    }

    /// Why `agent` is not validated at all, if it is not.
    fn exemption(&self, agent: &str, trust: TrustSnapshot) -> Option<String> {
        let c = &self.config;
        if c.exempt.iter().any(|g| g.matches(agent)) {
            return Some(format!("agent {agent} is exempt"));
        }
        if trust.score > c.trust_exempt_threshold {
            return Some(format!(
                "trust {} above trustExemptThreshold {}",
                trust.score, c.trust_exempt_threshold
            ));
        }
        None
    }

    /// Whether some claim `agent` writes could be blocked: a text that cannot be read matters
    /// to output validation only then.
    pub fn could_block(&self, agent: &str, trust: TrustSnapshot) -> bool {
        let over = self
            .config
            .overrides
            .iter()
            .find(|o| o.agent.matches(agent));
        self.config.enabled
            && self.exemption(agent, trust).is_none()
            && self.profile(over, trust).is_some_and(|p| p.blocks())
    }

    /// The whole pipeline of §6.1, synchronous and bounded by `performance.maxTextLength` and
    /// `maxClaimsPerOutput`.
    pub fn validate(
        &self,
        agent: &str,
        text: &str,
        trust: TrustSnapshot,
        now: i64,
    ) -> OutputResult {
        let started = std::time::Instant::now();
        let mut result = OutputResult {
            verdict: OutputVerdict::Pass,
            claims: Default::default(),
            fact_checks: Vec::new(),
            violations: Default::default(),
            evaluation_us: 0.0,
            trust,
            skipped: self.skip_reason(agent, text, trust),
            incomplete: None,
        };
        // The agent's override, found once: it sets the profile and the registries.
        let over = self
            .config
            .overrides
            .iter()
            .find(|o| o.agent.matches(agent));
        let profile = match (&result.skipped, self.profile(over, trust)) {
            (None, Some(p)) => p,
            (None, None) => {
                result.skipped = Some(format!("output validation disabled for {agent}"));
                return result;
            }
            _ => return result,
        };
        // Claims are found in what recipients read, with the disguises undone.
        let readable = readable::readable(truncate(text, self.config.max_text_length));
        let text = readable.as_ref();
        let facts = match over {
            Some(o) if !o.exclude.is_empty() || !o.additional.is_empty() => {
                self.registries.index_for(&o.exclude, &o.additional)
            }
            _ => self.registries.index(),
        };
        // A registry file that could never be read, under failMode closed: claims cannot be
        // checked, and which categories the file would cover is unknown, so every detector runs.
        let unchecked = facts
            .unavailable
            .as_deref()
            .filter(|_| self.fail_closed)
            .map(Text::new);
        let depth_unknown = unchecked.is_some();
        let patterns: Vec<&Pattern> = self
            .patterns
            .iter()
            .filter(|p| {
                !profile.contradiction_only || depth_unknown || facts.has_category(p.category)
            })
            .collect();
        let mut found = claims::detect(text, &patterns, self.config.max_claims);
        // "No, it is not installed" after "Is nginx installed?": about nginx.
        antecedents::resolve(text, &mut found);
        // Quantities are found through the numeric facts themselves.
        found.extend(facts.quantity_claims(text));
        found.truncate(self.config.max_claims);
        let budget = std::time::Duration::from_micros(self.config.max_eval_us);
        let mut violations = Vec::with_capacity(found.len());
        result.fact_checks.reserve(found.len());
        let mut scratch = Vec::new();
        for (n, claim) in found.iter().enumerate() {
            // A clock read costs a quarter of a fact check: look every eighth claim (under a
            // microsecond of checks apart).
            if n % 8 == 0 && started.elapsed() > budget {
                result.incomplete = Some(format!(
                    "maxEvalUs ({}) reached after {n} of {} claims",
                    self.config.max_eval_us,
                    found.len()
                ));
                break;
            }
            let check = if claim.category == ClaimCategory::SelfReferential || depth_unknown {
                FactCheck::NoFactFound
            } else {
                facts.check(claim, now, &mut scratch)
            };
            if let Some(v) = judge((n, claim), &check, &profile, unchecked.as_ref()) {
                result.verdict = result.verdict.max(v.1);
                violations.push(v.0);
            }
            result.fact_checks.push(check);
        }
        // Moved, not copied: the Arc takes the vectors as they are.
        result.claims = std::sync::Arc::new(found);
        result.violations = std::sync::Arc::new(violations);
        result.evaluation_us = (started.elapsed().as_nanos() as f64 / 100.0).round() / 10.0;
        result
    }
}

impl OutputResult {
    /// About how much memory the result holds beyond itself (for the JS garbage collector).
    pub fn native_bytes(&self) -> usize {
        use std::mem::size_of;
        size_of::<OutputResult>()
            + self.claims.capacity() * size_of::<DetectedClaim>()
            + self.fact_checks.capacity() * size_of::<FactCheck>()
            + self.violations.capacity() * size_of::<Violation>()
    }
}

fn truncate(text: &str, max_chars: usize) -> &str {
    // A text of at most `max_chars` bytes has at most that many characters.
    if text.len() <= max_chars {
        return text;
    }
    match text.char_indices().nth(max_chars) {
        Some((i, _)) => &text[..i],
        None => text,
    }
}

/// §7.2 for one claim: the violation it causes and the verdict it asks for, if any. With
/// `unchecked` (a registry file that could never be read, under failMode closed), a claim facts
/// would decide blocks, naming the file (seed 000 §15.2 read with the config's failMode).
/// Whatever the policy, a low-confidence match never blocks (§14.4).
fn judge(
    (index, claim): (usize, &DetectedClaim),
    check: &FactCheck,
    profile: &Profile,
    unchecked: Option<&Text>,
) -> Option<(Violation, OutputVerdict)> {
    let self_referential = claim.category == ClaimCategory::SelfReferential;
    let (policy, severity) = match (check, unchecked) {
        _ if self_referential => (profile.self_referential, "low"),
        (_, Some(_)) => (ClaimPolicy::Block, "high"),
        (FactCheck::Confirmed { .. }, None) => return None,
        (FactCheck::Contradicted { .. }, None) => (profile.contradiction, "high"),
        (FactCheck::NoFactFound | FactCheck::ExpiredFact { .. }, None) => {
            (profile.unverified, "medium")
        }
    };
    let mut verdict = policy.verdict();
    if verdict == OutputVerdict::Block && claim.confidence < BLOCK_CONFIDENCE {
        verdict = OutputVerdict::Flag;
    }
    if verdict == OutputVerdict::Pass {
        return None;
    }
    // Built only for a violation: the strings are copied once, here.
    let reason = match (check, unchecked) {
        _ if self_referential => Reason::SelfReferential,
        (_, Some(problem)) => Reason::Unchecked(problem.clone()),
        (
            FactCheck::Contradicted {
                fact_id,
                expected,
                claimed,
            },
            None,
        ) => Reason::Contradicts {
            fact_id: fact_id.clone(),
            expected: expected.clone(),
            claimed: claimed.clone(),
        },
        _ => Reason::Unverified,
    };
    let v = Violation {
        claim: index,
        reason,
        severity,
    };
    Some((v, verdict))
}

#[cfg(test)]
mod tests;
