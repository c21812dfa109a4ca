//! Claim detection (seed 000 §4): statements that assert facts about the world, found by
//! pre-compiled patterns, one sentence at a time. Opinions and suggestions are not claims.

use once_cell::sync::Lazy;
use regex::Regex;
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum ClaimCategory {
    SystemState,
    EntityName,
    Existence,
    OperationalStatus,
    Capability,
    /// An agent reflecting on its own instructions instead of working (§4.4.5).
    SelfReferential,
    /// A count or amount (flat facts with a numeric value, seed 001 §8.3).
    Quantity,
}

impl ClaimCategory {
    pub const NAMES: [&'static str; 7] = [
        "system_state",
        "entity_name",
        "existence",
        "operational_status",
        "capability",
        "self_referential",
        "quantity",
    ];

    pub fn parse(s: &str) -> Option<ClaimCategory> {
        Some(match s {
            "system_state" => ClaimCategory::SystemState,
            "entity_name" => ClaimCategory::EntityName,
            "existence" => ClaimCategory::Existence,
            "operational_status" => ClaimCategory::OperationalStatus,
            "capability" => ClaimCategory::Capability,
            "self_referential" => ClaimCategory::SelfReferential,
            "quantity" => ClaimCategory::Quantity,
            _ => return None,
        })
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DetectedClaim {
    pub category: ClaimCategory,
    pub detector_id: String,
    pub matched_text: String,
    pub offset: usize,
    pub subject: String,
    pub assertion: String,
    pub negative: bool,
    pub confidence: f64,
    /// For entity names: the name the text gives (the subject may be a role such as "user").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// One compiled pattern and how its captures become a claim.
#[derive(Debug, Clone)]
pub struct Pattern {
    pub re: Regex,
    pub category: ClaimCategory,
    pub detector_id: String,
    /// Fixed assertion, or `None` to build it from the `state` capture (with `not_` when negative).
    pub assertion: Option<String>,
    /// Negative regardless of captures.
    pub negative: bool,
    pub confidence: f64,
    /// Capture group holding the subject (name or index as text).
    pub subject_group: String,
}

/// A noun phrase: up to three words, or a quoted/backticked name.
const SUBJ: &str = r#"(?:"[^"]{1,60}"|'[^']{1,60}'|`[^`]{1,60}`|(?:the |a |an |my |our |your )?[\w.@/+#-]+(?:\s[\w.@/+#-]+){0,2})"#;

fn p(
    category: ClaimCategory,
    id: &str,
    pattern: &str,
    assertion: Option<&str>,
    negative: bool,
    confidence: f64,
) -> Pattern {
    Pattern {
        re: Regex::new(&pattern.replace("{S}", SUBJ)).expect("builtin pattern"),
        category,
        detector_id: id.to_string(),
        assertion: assertion.map(str::to_string),
        negative,
        confidence,
        subject_group: "subject".into(),
    }
}

/// The builtin detectors of §4.4 (ids: systemState, entityName, existence, operationalStatus,
/// selfReferential), written for the `regex` crate (no look-around, linear time).
pub fn builtin(id: &str) -> Vec<Pattern> {
    use ClaimCategory::*;
    match id {
        "systemState" => vec![
            p(
                SystemState,
                id,
                r"(?i)(?P<subject>{S})\s+(?P<neg>is|isn't|is not|was not|wasn't|are|aren't|are not)\s+(?P<state>installed|running|configured|available|enabled|active|loaded|present)\b",
                None,
                false,
                0.9,
            ),
            p(
                SystemState,
                id,
                r"(?i)\b(?:no longer|cannot find|can't find|couldn't find|could not find|unable to find|failed to find)\s+(?P<subject>{S})",
                Some("not_found"),
                true,
                0.85,
            ),
            p(
                SystemState,
                id,
                r"(?i)(?P<subject>{S})\s+(?:is missing|is absent|is not found|was not found|cannot be found|can't be found)\b",
                Some("not_found"),
                true,
                0.85,
            ),
        ],
        "entityName" => vec![
            p(
                EntityName,
                id,
                r"(?i:\b(?P<subject>user|person|team member|developer|author|owner|maintainer|creator|partner|boss)(?:'s name)?\s+(?:is|named|called)\s+)[\x22']?(?P<name>[A-Z][\w-]+(?:\s[A-Z][\w-]+)?)",
                Some("name"),
                false,
                0.9,
            ),
            p(
                EntityName,
                id,
                r"(?i:\b(?:name is|named|called|known as)\s+)[\x22']?(?P<subject>[A-Z][\w-]+)",
                Some("name"),
                false,
                0.75,
            ),
            p(
                EntityName,
                id,
                r"(?:^|[.!?]\s+)(?P<subject>[A-Z][a-z]+)\s+(?:said|wrote|created|built|developed|designed|reviewed)\b",
                Some("name"),
                false,
                0.6,
            ),
        ],
        "existence" => vec![
            p(
                Existence,
                id,
                r"(?i)\b(?:there is no|there's no|there are no|no such)\s+(?P<subject>{S})",
                Some("not_exists"),
                true,
                0.85,
            ),
            p(
                Existence,
                id,
                r"(?i)(?P<subject>{S})\s+(?:doesn't|does not|didn't|did not)\s+(?:exist|have|contain|include)\b",
                Some("not_exists"),
                true,
                0.85,
            ),
            p(
                Capability,
                "capability",
                r"(?i)(?P<subject>{S})\s+(?:doesn't|does not|didn't|did not|can't|cannot)\s+support\b",
                Some("not_supported"),
                true,
                0.85,
            ),
            p(
                Existence,
                id,
                r"(?i)\b(?:feature|function|method|file|config|option|setting|field|parameter)\s+[\x22'`]?(?P<subject>[\w.@/-]+)[\x22'`]?\s+(?:is missing|doesn't exist|does not exist|is not (?:available|present|defined|implemented))",
                Some("not_exists"),
                true,
                0.9,
            ),
            p(
                Existence,
                id,
                r"(?i)\b(?:we|you|they|i)\s+(?:don't|do not|didn't)\s+have\s+(?:a|an|the|any)\s+(?P<subject>{S})",
                Some("not_exists"),
                true,
                0.75,
            ),
        ],
        "operationalStatus" => vec![
            p(
                OperationalStatus,
                id,
                r"(?i)\b(?P<subject>(?:[\w-]+\s)?(?:pipeline|build|tests?|deploy(?:ment)?|service|server|database|queue|cluster|gateway|api))\s+(?:is|are|was|were)\s+(?P<state>broken|down|failing|crashed|dead|offline|unreachable|unresponsive)\b",
                None,
                true,
                0.9,
            ),
            p(
                OperationalStatus,
                id,
                r"(?i)\b(?P<subject>(?:[\w-]+\s)?(?:pipeline|build|tests?|deploy(?:ment)?|service|server|database|queue|cluster))\s+(?:has |have )?(?P<state>failed|crashed|timed out|errored)\b",
                None,
                true,
                0.85,
            ),
            p(
                OperationalStatus,
                id,
                r"(?i)\b(?P<subject>everything|all (?:systems|services|tests|builds))\s+(?:is|are)\s+(?P<state>broken|failing|down)\b",
                None,
                true,
                0.8,
            ),
        ],
        "selfReferential" => vec![
            p(
                SelfReferential,
                id,
                r"(?i)\b(?P<subject>my (?:system prompt|instructions|guidelines|rules|constraints))\s+(?:say|says|tell|tells|instruct|instructs|direct|directs|require|requires)\b",
                Some("self_reference"),
                false,
                0.9,
            ),
            p(
                SelfReferential,
                id,
                r"(?i)\b(?P<subject>I am|I'm)\s+(?:an? )?(?:AI|assistant|language model|sub-agent|agent)\b",
                Some("self_reference"),
                false,
                0.8,
            ),
            p(
                SelfReferential,
                id,
                r"(?i)\b(?P<subject>(?:according to|based on) my)\s+(?:instructions|prompt|guidelines|training)\b",
                Some("self_reference"),
                false,
                0.9,
            ),
            p(
                SelfReferential,
                id,
                r"(?i)\b(?P<subject>I was) (?:told|instructed|asked|tasked) to\b",
                Some("self_reference"),
                false,
                0.85,
            ),
        ],
        _ => Vec::new(),
    }
}

pub const BUILTIN_IDS: [&str; 5] = [
    "systemState",
    "entityName",
    "existence",
    "operationalStatus",
    "selfReferential",
];

/// Hedges that make a sentence an opinion or a suggestion rather than an assertion.
static HEDGE: Lazy<Regex> = Lazy::new(|| {
    Regex::new(r"(?i)\b(?:might|maybe|perhaps|probably|possibly|i think|i believe|i guess|i suppose|should|would|could|may|want to|you can|consider|try|if)\b")
        .expect("static regex")
});
/// Filler words that can precede a subject without being part of it.
const LEADING: [&str; 16] = [
    "i",
    "think",
    "yes",
    "no",
    "so",
    "and",
    "but",
    "also",
    "well",
    "now",
    "then",
    "it",
    "seems",
    "that",
    "sadly",
    "unfortunately",
];

/// Sentences with their offsets: a line break, or `.`/`!`/`?` before whitespace or the end, ends
/// one (so `Node.js` stays whole). Quotes and code fences are no hiding place: plain text here.
fn sentences(text: &str) -> Vec<(usize, &str)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    for (i, b) in bytes.iter().enumerate() {
        let end = match b {
            b'\n' => Some(i),
            b'.' | b'!' | b'?' if bytes.get(i + 1).is_none_or(|n| n.is_ascii_whitespace()) => {
                Some(i + 1)
            }
            _ => None,
        };
        if let Some(end) = end {
            if text[start..end].trim().len() > 1 {
                out.push((start, &text[start..end]));
            }
            start = i + 1;
        }
    }
    if text[start..].trim().len() > 1 {
        out.push((start, &text[start..]));
    }
    out
}

/// "could" hedges, but "could not find" asserts.
fn hedged(s: &str) -> bool {
    HEDGE.find_iter(s).any(|m| {
        !(m.as_str().eq_ignore_ascii_case("could")
            && s[m.end()..].to_ascii_lowercase().starts_with(" not"))
    })
}

/// Claims in `text`, at most `max` of them, in text order. Each pattern scans the whole text
/// once (a DFA pass, then captures on the match only); a match belongs to the sentence its verb
/// ends in, hedged sentences are skipped, and a subject never reaches into the sentence before.
pub fn detect_refs(text: &str, patterns: &[&Pattern], max: usize) -> Vec<DetectedClaim> {
    let spans: Vec<(usize, usize, bool)> = sentences(text)
        .into_iter()
        .map(|(start, s)| (start, start + s.len(), hedged(s)))
        .collect();
    let mut out = Vec::new();
    for pat in patterns {
        for caps in pat.re.captures_iter(text) {
            let Some(whole) = caps.get(0) else { continue };
            let idx = spans
                .partition_point(|(start, _, _)| *start < whole.end())
                .saturating_sub(1);
            let Some(&(start, _, is_hedged)) = spans.get(idx) else {
                continue;
            };
            if is_hedged {
                continue;
            }
            if let Some(claim) = claim_from(pat, &caps, start) {
                out.push(claim);
            }
        }
    }
    out.sort_by_key(|c| c.offset);
    out.truncate(max);
    out
}

fn claim_from(
    pat: &Pattern,
    caps: &regex::Captures,
    sentence_start: usize,
) -> Option<DetectedClaim> {
    let whole = caps.get(0)?;
    let group = caps
        .name(&pat.subject_group)
        .or_else(|| pat.subject_group.parse().ok().and_then(|g| caps.get(g)))
        .or_else(|| caps.get(1))?;
    // A subject that starts in the previous sentence keeps only its part in this one.
    let subject_text = if group.start() < sentence_start && group.end() > sentence_start {
        &group.as_str()[sentence_start - group.start()..]
    } else {
        group.as_str()
    };
    let subject = clean_subject(subject_text);
    if subject.is_empty() {
        return None;
    }
    let neg_word = caps.name("neg").is_some_and(|m| {
        let w = m.as_str().to_ascii_lowercase();
        w.contains("not") || w.contains("n't")
    });
    let negative = pat.negative || neg_word;
    let assertion = match (&pat.assertion, caps.name("state")) {
        (Some(a), _) => a.clone(),
        (None, Some(state)) => {
            let state = state.as_str().to_ascii_lowercase().replace(' ', "_");
            if neg_word {
                format!("not_{state}")
            } else {
                state
            }
        }
        (None, None) => "asserted".into(),
    };
    let start = whole.start().max(sentence_start);
    Some(DetectedClaim {
        category: pat.category,
        detector_id: pat.detector_id.clone(),
        matched_text: whole.as_str()[start - whole.start()..].trim().to_string(),
        offset: start,
        subject,
        assertion,
        negative,
        confidence: pat.confidence,
        name: caps.name("name").map(|m| m.as_str().to_string()),
    })
}

/// Strips quotes, filler words and articles: "I think the docker service" → "docker service".
fn clean_subject(raw: &str) -> String {
    let trimmed = raw
        .trim()
        .trim_matches(|c| c == '"' || c == '\'' || c == '`');
    let mut words: Vec<&str> = trimmed.split_whitespace().collect();
    while let Some(first) = words.first() {
        let w = first.to_ascii_lowercase();
        if LEADING.contains(&w.as_str())
            || ["the", "a", "an", "my", "our", "your"].contains(&w.as_str()) && words.len() > 1
        {
            words.remove(0);
        } else {
            break;
        }
    }
    words.join(" ")
}

/// Lowercased, articles removed: how subjects are compared with facts (§12.2).
pub fn normalize(subject: &str) -> String {
    let lower = subject.trim().to_lowercase();
    for article in ["the ", "a ", "an ", "my ", "our ", "your "] {
        if let Some(rest) = lower.strip_prefix(article) {
            return rest.to_string();
        }
    }
    lower
}
