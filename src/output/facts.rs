//! Fact registries (seed 000 §5): curated ground truth that claims are checked against.
//! Exact subjects are indexed by (category, lowercased subject); regex subjects are one
//! `RegexSet` per category, so a lookup costs a hash probe and one set match.

use super::claims::{normalize, strip_article, ClaimCategory, DetectedClaim};
use super::text::Text;
use regex::{Regex, RegexSet};
use serde::Serialize;
use std::collections::HashMap;
use std::sync::Arc;

#[derive(Debug, Clone, PartialEq)]
pub enum FactValue {
    Exists(bool),
    State(String),
    Name {
        correct: String,
        aliases: Vec<String>,
    },
    Status(String),
    Capability(bool),
    /// Counts: a claim within ±10 % confirms, outside contradicts (seed 001 §8.3).
    Number(f64),
}

#[derive(Debug, Clone)]
pub struct Fact {
    pub id: Text,
    pub registry: String,
    pub category: ClaimCategory,
    pub subject: String,
    pub subject_is_regex: bool,
    pub value: FactValue,
    pub ttl_seconds: Option<u64>,
    pub updated_at_ms: Option<i64>,
}

impl FactValue {
    /// The value in words, for a model's prompt.
    pub fn describe(&self) -> String {
        match self {
            FactValue::Exists(true) => "exists".into(),
            FactValue::Exists(false) => "does not exist".into(),
            FactValue::State(s) | FactValue::Status(s) => s.clone(),
            FactValue::Name { correct, .. } => format!("named {correct}"),
            FactValue::Capability(true) => "can".into(),
            FactValue::Capability(false) => "cannot".into(),
            FactValue::Number(n) => n.to_string(),
        }
    }
}

impl Fact {
    fn expired(&self, now: i64) -> bool {
        match (self.ttl_seconds, self.updated_at_ms) {
            (Some(ttl), Some(at)) => now > at + ttl as i64 * 1000,
            (Some(_), None) => false,
            _ => false,
        }
    }

    fn expected(&self) -> String {
        match &self.value {
            FactValue::Exists(b) => if *b { "exists" } else { "does not exist" }.into(),
            FactValue::State(s) => s.clone(),
            FactValue::Name { correct, .. } => correct.clone(),
            FactValue::Status(s) => s.clone(),
            FactValue::Capability(b) => if *b { "supported" } else { "not supported" }.into(),
            FactValue::Number(n) => n.to_string(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "status")]
pub enum FactCheck {
    NoFactFound,
    Confirmed {
        #[serde(rename = "factId")]
        fact_id: Text,
    },
    Contradicted {
        #[serde(rename = "factId")]
        fact_id: Text,
        expected: Text,
        claimed: Text,
    },
    ExpiredFact {
        #[serde(rename = "factId")]
        fact_id: Text,
    },
}

/// Lookups hash one short subject per claim; the keys come from the operator's own registries,
/// so SipHash's flooding resistance buys nothing here.
type Map<K, V> = HashMap<K, V, rustc_hash::FxBuildHasher>;

/// How many claim categories there are (`ClaimCategory::NAMES`).
const CATEGORIES: usize = ClaimCategory::NAMES.len();

/// The compiled facts of the registries that apply.
#[derive(Default)]
pub struct FactIndex {
    /// By category (`category as usize`): an array, so a lookup hashes only the subject.
    exact: [Map<String, Vec<usize>>; CATEGORIES],
    regex: [Option<(RegexSet, Vec<usize>)>; CATEGORIES],
    /// Quantities are found by their facts: "255,908 nats-events" / "nats-events count is 255908".
    quantities: Vec<(Regex, usize)>,
    facts: Vec<Fact>,
    /// What each fact says, as a contradiction reports it (by fact index).
    expected: Vec<Text>,
    /// Bit `category as u8` set when some fact has that category.
    categories: u32,
    /// A registry file whose facts could never be read (its problem): claims cannot be checked.
    pub unavailable: Option<Arc<str>>,
}

impl FactIndex {
    /// Regex subjects were validated at load; a set that does not build leaves them out.
    pub fn build(facts: Vec<Fact>) -> FactIndex {
        let mut exact: [Map<String, Vec<usize>>; CATEGORIES] = Default::default();
        let mut patterns: [(Vec<String>, Vec<usize>); CATEGORIES] = Default::default();
        for (i, f) in facts.iter().enumerate() {
            if f.subject_is_regex {
                let e = &mut patterns[f.category as usize];
                e.0.push(format!("(?i)^(?:{})$", f.subject));
                e.1.push(i);
            } else {
                exact[f.category as usize]
                    .entry(normalize(&f.subject))
                    .or_default()
                    .push(i);
            }
        }
        let regex = patterns.map(|(pats, ids)| {
            let set = (!pats.is_empty()).then(|| RegexSet::new(&pats).ok());
            set.flatten().map(|set| (set, ids))
        });
        let quantities = facts
            .iter()
            .enumerate()
            .filter(|(_, f)| matches!(f.value, FactValue::Number(_)) && !f.subject_is_regex)
            .filter_map(|(i, f)| {
                let s = regex::escape(&f.subject);
                let n = r"(?P<count>\d[\d,_]*(?:\.\d+)?)";
                let n2 = r"(?P<count2>\d[\d,_]*(?:\.\d+)?)";
                let p = format!(r"(?i)\b{n}\s+{s}\b|\b{s}(?:\s+count)?\s+(?:is|are|was|were|has|have|totals?|=|:)\s+(?:about\s+|roughly\s+|only\s+)?{n2}");
                Some((Regex::new(&p).ok()?, i))
            })
            .collect();
        let categories = facts.iter().fold(0, |m, f| m | 1 << f.category as u8);
        let expected = facts.iter().map(|f| Text::from(f.expected())).collect();
        FactIndex {
            exact,
            regex,
            quantities,
            facts,
            expected,
            categories,
            unavailable: None,
        }
    }

    pub fn with_unavailable(mut self, problem: Option<Arc<str>>) -> FactIndex {
        self.unavailable = problem;
        self
    }

    /// Quantity claims about subjects a numeric fact covers.
    pub fn quantity_claims(&self, text: &str) -> Vec<DetectedClaim> {
        let mut out = Vec::new();
        for (re, i) in &self.quantities {
            for caps in re.captures_iter(text) {
                let (Some(whole), Some(count)) = (
                    caps.get(0),
                    caps.name("count").or_else(|| caps.name("count2")),
                ) else {
                    continue;
                };
                out.push(DetectedClaim {
                    category: ClaimCategory::Quantity,
                    detector_id: "quantity".into(),
                    matched_text: whole.as_str().into(),
                    offset: whole.start(),
                    subject: self.facts[*i].subject.as_str().into(),
                    assertion: count.as_str().replace([',', '_'], "").into(),
                    negative: false,
                    confidence: 0.8,
                    name: None,
                });
            }
        }
        out
    }

    pub fn is_empty(&self) -> bool {
        self.facts.is_empty()
    }

    pub fn has_category(&self, c: ClaimCategory) -> bool {
        self.categories & 1 << c as u8 != 0
    }

    /// Facts whose subject matches the claim's subject (or its last word, or the name it gives),
    /// by index, in registry order, into `out`.
    fn candidates(&self, claim: &DetectedClaim, out: &mut Vec<usize>) {
        let exact = Some(&self.exact[claim.category as usize]).filter(|m| !m.is_empty());
        let regex = self.regex[claim.category as usize].as_ref();
        if exact.is_none() && regex.is_none() {
            return;
        }
        let mut lookup = |key: &str| {
            if let Some(ids) = exact.and_then(|m| m.get(key)) {
                out.extend(ids);
            }
            if let Some((set, ids)) = regex {
                out.extend(set.matches(key).into_iter().map(|m| ids[m]));
            }
        };
        with_normalized(&claim.subject, |subject| {
            lookup(subject);
            if let Some(last) = subject.rsplit(' ').next().filter(|l| *l != subject) {
                lookup(last);
            }
            if let Some(name) = named(subject).filter(|n| *n != subject) {
                lookup(name);
            }
        });
        if let Some(name) = &claim.name {
            with_normalized(name, &mut lookup);
        }
        out.sort_unstable();
        out.dedup();
    }

    /// `scratch` holds the candidates (kept by the caller across claims, so no claim allocates).
    pub fn check(&self, claim: &DetectedClaim, now: i64, scratch: &mut Vec<usize>) -> FactCheck {
        let mut expired = None;
        scratch.clear();
        self.candidates(claim, scratch);
        for &i in scratch.iter() {
            let fact = &self.facts[i];
            if fact.expired(now) {
                expired = Some(fact.id.clone());
                continue;
            }
            if let Some(result) = compare(claim, fact, &self.expected[i]) {
                return result;
            }
        }
        expired.map_or(FactCheck::NoFactFound, |fact_id| FactCheck::ExpiredFact {
            fact_id,
        })
    }
}

/// Does the claim agree with the fact? `None` when the fact says nothing about this assertion.
fn compare(claim: &DetectedClaim, fact: &Fact, expected: &Text) -> Option<FactCheck> {
    let agrees = match &fact.value {
        FactValue::Exists(exists) => *exists != claim.negative,
        FactValue::Capability(supported) => *supported != claim.negative,
        FactValue::State(state) => {
            // A flat fact `installed: false` is stored as the state `not_installed`.
            let (fact_state, fact_negative) = match state.get(..4) {
                Some(p) if p.eq_ignore_ascii_case("not_") => (&state[4..], true),
                _ => (state.as_str(), false),
            };
            // `strip_prefix` compares bytes; `trim_start_matches` would set up a substring search.
            let mut claimed: &str = &claim.assertion;
            while let Some(rest) = claimed.strip_prefix("not_") {
                claimed = rest;
            }
            let present = [
                "installed",
                "present",
                "available",
                "configured",
                "running",
                "enabled",
                "active",
                "loaded",
            ];
            if claimed.eq_ignore_ascii_case(fact_state) {
                claim.negative == fact_negative
            } else if &*claim.assertion == "not_found"
                && present.iter().any(|p| p.eq_ignore_ascii_case(fact_state))
            {
                fact_negative
            } else {
                return None;
            }
        }
        FactValue::Status(status) => {
            let healthy = status == "operational";
            healthy != claim.negative
        }
        FactValue::Number(actual) => {
            let claimed: f64 = claim.assertion.parse().ok()?;
            (claimed - actual).abs() <= actual.abs() * 0.1
        }
        FactValue::Name { correct, aliases } => {
            let claimed = claim.name.as_deref().unwrap_or(&claim.subject);
            same_name(claimed, correct) || aliases.iter().any(|a| same_name(claimed, a))
        }
    };
    let fact_id = fact.id.clone();
    // `claimed` is the name the text gives, or the assertion; both are shared, not copied.
    Some(if agrees {
        FactCheck::Confirmed { fact_id }
    } else {
        let claimed = match &fact.value {
            FactValue::Name { .. } => claim.name.clone().unwrap_or_else(|| claim.subject.clone()),
            _ => claim.assertion.clone(),
        };
        FactCheck::Contradicted {
            fact_id,
            expected: expected.clone(),
            claimed,
        }
    })
}

/// Generic nouns that follow a name without changing what it names: "the nginx web server",
/// "the nginx package", "the redis daemon" are nginx and redis.
const HEAD_NOUNS: [&str; 24] = [
    "agent",
    "app",
    "application",
    "binary",
    "cli",
    "client",
    "container",
    "daemon",
    "http",
    "image",
    "instance",
    "library",
    "module",
    "package",
    "plugin",
    "process",
    "program",
    "proxy",
    "server",
    "service",
    "software",
    "tool",
    "unit",
    "web",
];

/// systemd unit suffixes: `nginx.service` is the unit of nginx.
const UNIT_SUFFIXES: [&str; 6] = [
    ".service", ".socket", ".timer", ".target", ".mount", ".path",
];

/// The name a (lowercased) subject gives: without a unit suffix and without the generic
/// nouns after its first word ("nginx web server" → "nginx"). `None` when there is nothing
/// to take off.
fn named(subject: &str) -> Option<&str> {
    let mut name = subject;
    loop {
        let before = name;
        if let Some(stem) = UNIT_SUFFIXES.iter().find_map(|s| name.strip_suffix(s)) {
            name = stem;
        }
        if let Some((rest, last)) = name.rsplit_once(' ') {
            if HEAD_NOUNS.contains(&last) {
                name = rest;
            }
        }
        if name == before {
            break;
        }
    }
    (name.len() < subject.len() && !name.is_empty()).then_some(name)
}

/// `f` of the subject as `normalize` has it; short ASCII subjects (nearly all) are lowercased on
/// the stack instead of into a new string.
fn with_normalized<R>(subject: &str, f: impl FnOnce(&str) -> R) -> R {
    let s = subject.trim();
    let mut buf = [0u8; 64];
    if !s.is_ascii() || s.len() > buf.len() {
        return f(&normalize(s));
    }
    let lower = &mut buf[..s.len()];
    lower.copy_from_slice(s.as_bytes());
    lower.make_ascii_lowercase();
    let lower = std::str::from_utf8(lower).unwrap_or_default();
    f(strip_article(lower))
}

/// Names compare case-insensitively, Unicode included ("JOSÉ" is "josé").
fn same_name(a: &str, b: &str) -> bool {
    a.chars()
        .flat_map(char::to_lowercase)
        .eq(b.chars().flat_map(char::to_lowercase))
}
