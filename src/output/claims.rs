//! Claim detection (seed 000 §4): statements that assert facts about the world, found by
//! pre-compiled patterns, one sentence at a time. Opinions and suggestions are not claims.

use super::scan;
use super::split::{self, Caps, Split};
use super::text::Text;
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
    pub detector_id: Text,
    pub matched_text: Text,
    pub offset: usize,
    pub subject: Text,
    pub assertion: Text,
    pub negative: bool,
    pub confidence: f64,
    /// For entity names: the name the text gives (the subject may be a role such as "user").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<Text>,
}

/// One compiled pattern and how its captures become a claim.
#[derive(Debug, Clone)]
pub struct Pattern {
    pub re: Regex,
    pub category: ClaimCategory,
    pub detector_id: Text,
    /// Fixed assertion, or `None` to build it from the `state` capture (with `not_` when negative).
    pub assertion: Option<Text>,
    /// Negative regardless of captures.
    pub negative: bool,
    pub confidence: f64,
    /// Capture group holding the subject (name or index as text).
    pub subject_group: String,
    /// Builtins: how to find matches without a capture pass.
    pub fast: Option<Fast>,
}

/// What a builtin pattern adds to its regex for the fast path.
#[derive(Debug, Clone)]
pub struct Fast {
    /// The pattern's bit in the anchor table.
    pub bit: u8,
    /// How its groups are read off a match.
    pub split: Split,
    /// Anchor words and their distance from the match start (see `Builtin::starts`).
    pub starts: &'static [(&'static str, u8)],
    /// The same regex for anchored searches at those starts (`regex::Regex` has none).
    pub anchored: Option<regex_automata::meta::Regex>,
    /// Bytes of which every match holds one (none: no such bytes), up to three: a sentence
    /// without any is not searched.
    pub needs: &'static [u8],
}

/// A noun phrase: up to three words, or a quoted/backticked name.
const SUBJ: &str = r#"(?:"[^"]{1,60}"|'[^']{1,60}'|`[^`]{1,60}`|(?:the |a |an |my |our |your )?[\w.@/+#-]+(?:\s[\w.@/+#-]+){0,2})"#;

/// The states of system-state claims: what a thing is, and the words that say it is not
/// (`uninstalled` is `not installed`; see `STATES`).
const SYSTEM_STATES: [&str; 15] = [
    "installed",
    "running",
    "configured",
    "available",
    "enabled",
    "active",
    "loaded",
    "present",
    "uninstalled",
    "unconfigured",
    "unavailable",
    "unloaded",
    "inactive",
    "disabled",
    "stopped",
];

/// Adverbs that may stand around the negation of a state claim without changing what it
/// asserts: "is not currently installed", "is still not running", "has not yet been
/// enabled". None holds "not", "n't" or "nev", which mark a claim negative.
pub(super) const ADVERBS: [&str; 24] = [
    "currently",
    "presently",
    "still",
    "actually",
    "really",
    "even",
    "yet",
    "now",
    "already",
    "definitely",
    "certainly",
    "apparently",
    "clearly",
    "obviously",
    "simply",
    "just",
    "properly",
    "correctly",
    "fully",
    "officially",
    "truly",
    "genuinely",
    "entirely",
    "completely",
];

/// The verb of a system-state claim (`{BE}`), each word apart by one space as `split` reads
/// it: a copula and a negation with an adverb either side ("is not", "is currently not",
/// "was never", "is no longer"), a contraction ("isn't", "ain't"), the perfect ("has not yet
/// been", "hasn't been", "has been"), or a plain "is"/"are".
fn be_pattern() -> String {
    let adv = format!("(?: (?:{}))?", ADVERBS.join("|"));
    // The same language as `split::be_verb`, its adverbs after the verb written once.
    format!(
        "(?:(?:is|are|was|were){adv} (?:not|never|no longer)\
         |(?:isn't|aren't|wasn't|weren't|ain't)\
         |(?:(?:has|have){adv}(?: (?:not|never){adv})?|(?:hasn't|haven't){adv}) been\
         |is|are){adv}"
    )
}

/// A builtin's regex with its placeholders filled in.
fn expand(pattern: &str) -> String {
    pattern
        .replace("{S}", SUBJ)
        .replace("{BE}", &be_pattern())
        .replace("{STATE}", &SYSTEM_STATES.join("|"))
}

/// The nouns of the operational-status patterns, as whole words (`tests?` and `deploy(?:ment)?`
/// spelled out); the second of them has no gateway or api.
const NOUNS: [&str; 13] = [
    "pipeline",
    "build",
    "test",
    "tests",
    "deploy",
    "deployment",
    "service",
    "server",
    "database",
    "queue",
    "cluster",
    "gateway",
    "api",
];

/// One builtin pattern: its detector, the regex, how the claim reads, its anchors (words every
/// match contains whole, as a run of ASCII letters, case aside) and how its groups are read off
/// a match.
struct Builtin {
    detector: &'static str,
    category: ClaimCategory,
    id: &'static str,
    pattern: &'static str,
    assertion: Option<&'static str>,
    negative: bool,
    confidence: f64,
    anchors: &'static [&'static str],
    /// What follows an anchor in every match.
    follow: Follow,
    /// Words of which every match holds one too, as a whole word (none: no such word): a
    /// sentence is a candidate only with an anchor and one of these.
    with: &'static [&'static str],
    /// For patterns that open with a literal holding an anchor: how many bytes before an anchor
    /// word its match starts, where that is not at the anchor itself (a word may have several).
    /// `None`: the start is not fixed by an anchor.
    starts: Option<&'static [(&'static str, u8)]>,
    split: Split,
    /// Bytes of which every match holds one, where words alone do not say (see
    /// `Fast::needs`).
    needs: &'static [u8],
}

/// What follows an anchor word in every match of its pattern: whitespace (`\s+` comes next), or
/// at least a word boundary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Follow {
    Ws,
    Boundary,
}

/// The builtin detectors of §4.4 (ids: systemState, entityName, existence, operationalStatus,
/// selfReferential), written for the `regex` crate (no look-around, linear time).
const BUILTINS: [Builtin; 19] = {
    use ClaimCategory::*;
    [
        Builtin {
            detector: "systemState",
            category: SystemState,
            id: "systemState",
            pattern: r"(?i)(?P<subject>{S})\s+(?P<neg>{BE})\s+(?P<state>{STATE})\b",
            assertion: None,
            negative: false,
            confidence: 0.9,
            anchors: &SYSTEM_STATES,
            follow: Follow::Boundary,
            with: &[],
            starts: None,
            split: split::subject_be_state,
            needs: &[],
        },
        Builtin {
            detector: "systemState",
            category: SystemState,
            id: "systemState",
            // A status line: "nginx: not installed", "nginx — not running", "nginx - never
            // loaded". Only negated: "Build: running" is a heading more often than a claim.
            pattern: r"(?i)(?P<subject>{S})(?:\s*[:\x{2013}\x{2014}]\s*|\s+-\s+)(?P<neg>not|never)\s+(?P<state>{STATE})\b",
            assertion: None,
            negative: false,
            confidence: 0.85,
            anchors: &SYSTEM_STATES,
            follow: Follow::Boundary,
            with: &["not", "never"],
            starts: None,
            split: split::subject_colon_not_state,
            // `:`, `-`, or the first byte of an en or em dash.
            needs: &[b':', b'-', 0xE2],
        },
        Builtin {
            detector: "systemState",
            category: SystemState,
            id: "systemState",
            pattern: r"(?i)\b(?:no longer|cannot find|can't find|couldn't find|could not find|unable to find|failed to find)\s+(?P<subject>{S})",
            assertion: Some("not_found"),
            negative: true,
            confidence: 0.85,
            anchors: &["longer", "find"],
            follow: Follow::Ws,
            with: &[],
            starts: Some(&[
                ("longer", 3),
                ("find", 6),
                ("find", 7),
                ("find", 9),
                ("find", 10),
            ]),
            split: split::not_found_before,
            needs: &[],
        },
        Builtin {
            detector: "systemState",
            category: SystemState,
            id: "systemState",
            pattern: r"(?i)(?P<subject>{S})\s+(?:is missing|is absent|is not found|was not found|cannot be found|can't be found)\b",
            assertion: Some("not_found"),
            negative: true,
            confidence: 0.85,
            anchors: &["missing", "absent", "found"],
            follow: Follow::Boundary,
            with: &[],
            starts: None,
            split: split::missing_after,
            needs: &[],
        },
        Builtin {
            detector: "entityName",
            category: EntityName,
            id: "entityName",
            pattern: r"(?i:\b(?P<subject>user|person|team member|developer|author|owner|maintainer|creator|partner|boss)(?:'s name)?\s+(?:is|named|called)\s+)[\x22']?(?P<name>[A-Z][\w-]+(?:\s[A-Z][\w-]+)?)",
            assertion: Some("name"),
            negative: false,
            confidence: 0.9,
            anchors: &[
                "user",
                "person",
                "member",
                "developer",
                "author",
                "owner",
                "maintainer",
                "creator",
                "partner",
                "boss",
            ],
            follow: Follow::Boundary,
            with: &[],
            starts: Some(&[("member", 5)]),
            split: split::role_named,
            needs: &[],
        },
        Builtin {
            detector: "entityName",
            category: EntityName,
            id: "entityName",
            pattern: r"(?i:\b(?:name is|named|called|known as)\s+)[\x22']?(?P<subject>[A-Z][\w-]+)",
            assertion: Some("name"),
            negative: false,
            confidence: 0.75,
            anchors: &["name", "named", "called", "known"],
            follow: Follow::Ws,
            with: &[],
            starts: Some(&[]),
            split: split::name_after,
            needs: &[],
        },
        Builtin {
            detector: "entityName",
            category: EntityName,
            id: "entityName",
            pattern: r"(?:^|[.!?]\s+)(?P<subject>[A-Z][a-z]+)\s+(?:said|wrote|created|built|developed|designed|reviewed)\b",
            assertion: Some("name"),
            negative: false,
            confidence: 0.6,
            anchors: &[
                "said",
                "wrote",
                "created",
                "built",
                "developed",
                "designed",
                "reviewed",
            ],
            follow: Follow::Boundary,
            with: &[],
            starts: None,
            split: split::actor_before_verb,
            needs: &[],
        },
        Builtin {
            detector: "existence",
            category: Existence,
            id: "existence",
            pattern: r"(?i)\b(?:there is no|there's no|there are no|no such)\s+(?P<subject>{S})",
            assertion: Some("not_exists"),
            negative: true,
            confidence: 0.85,
            anchors: &["there", "such"],
            follow: Follow::Boundary,
            with: &["no"],
            starts: Some(&[("such", 3)]),
            split: split::there_is_no,
            needs: &[],
        },
        Builtin {
            detector: "existence",
            category: Existence,
            id: "existence",
            pattern: r"(?i)(?P<subject>{S})\s+(?:doesn't|does not|didn't|did not)\s+(?:exist|have|contain|include)\b",
            assertion: Some("not_exists"),
            negative: true,
            confidence: 0.85,
            anchors: &["exist", "have", "contain", "include"],
            follow: Follow::Boundary,
            with: &["doesn", "does", "didn", "did"],
            starts: None,
            split: split::subject_does_not,
            needs: &[],
        },
        Builtin {
            detector: "existence",
            category: Capability,
            id: "capability",
            pattern: r"(?i)(?P<subject>{S})\s+(?:doesn't|does not|didn't|did not|can't|cannot)\s+support\b",
            assertion: Some("not_supported"),
            negative: true,
            confidence: 0.85,
            anchors: &["support"],
            follow: Follow::Boundary,
            with: &["doesn", "does", "didn", "did", "can", "cannot"],
            starts: None,
            split: split::subject_does_not,
            needs: &[],
        },
        Builtin {
            detector: "existence",
            category: Existence,
            id: "existence",
            pattern: r"(?i)\b(?:feature|function|method|file|config|option|setting|field|parameter)\s+[\x22'`]?(?P<subject>[\w.@/-]+)[\x22'`]?\s+(?:is missing|doesn't exist|does not exist|is not (?:available|present|defined|implemented))",
            assertion: Some("not_exists"),
            negative: true,
            confidence: 0.9,
            // Not the tail: "is missing" may run on into a longer word ("missingno").
            anchors: &split::KINDS,
            follow: Follow::Ws,
            with: &[],
            starts: Some(&[]),
            split: split::named_thing_missing,
            needs: &[],
        },
        Builtin {
            detector: "existence",
            category: Existence,
            id: "existence",
            pattern: r"(?i)\b(?:we|you|they|i)\s+(?:don't|do not|didn't)\s+have\s+(?:a|an|the|any)\s+(?P<subject>{S})",
            assertion: Some("not_exists"),
            negative: true,
            confidence: 0.75,
            anchors: &["have"],
            follow: Follow::Ws,
            with: &["don", "do", "didn"],
            starts: None,
            split: split::we_do_not_have,
            needs: &[],
        },
        Builtin {
            detector: "operationalStatus",
            category: OperationalStatus,
            id: "operationalStatus",
            pattern: r"(?i)\b(?P<subject>(?:[\w-]+\s)?(?:pipeline|build|tests?|deploy(?:ment)?|service|server|database|queue|cluster|gateway|api))\s+(?:is|are|was|were)\s+(?P<state>broken|down|failing|crashed|dead|offline|unreachable|unresponsive)\b",
            assertion: None,
            negative: true,
            confidence: 0.9,
            anchors: &[
                "broken",
                "down",
                "failing",
                "crashed",
                "dead",
                "offline",
                "unreachable",
                "unresponsive",
            ],
            follow: Follow::Boundary,
            with: &NOUNS,
            starts: None,
            split: split::status_be_state,
            needs: &[],
        },
        Builtin {
            detector: "operationalStatus",
            category: OperationalStatus,
            id: "operationalStatus",
            pattern: r"(?i)\b(?P<subject>(?:[\w-]+\s)?(?:pipeline|build|tests?|deploy(?:ment)?|service|server|database|queue|cluster))\s+(?:has |have )?(?P<state>failed|crashed|timed out|errored)\b",
            assertion: None,
            negative: true,
            confidence: 0.85,
            anchors: &["failed", "crashed", "timed", "errored"],
            follow: Follow::Boundary,
            // The same nouns less gateway and api, as in the pattern.
            with: NOUNS.split_at(11).0,
            starts: None,
            split: split::status_has_failed,
            needs: &[],
        },
        Builtin {
            detector: "operationalStatus",
            category: OperationalStatus,
            id: "operationalStatus",
            pattern: r"(?i)\b(?P<subject>everything|all (?:systems|services|tests|builds))\s+(?:is|are)\s+(?P<state>broken|failing|down)\b",
            assertion: None,
            negative: true,
            confidence: 0.8,
            anchors: &["broken", "failing", "down"],
            follow: Follow::Boundary,
            with: &["everything", "all"],
            starts: None,
            split: split::everything_be_state,
            needs: &[],
        },
        Builtin {
            detector: "selfReferential",
            category: SelfReferential,
            id: "selfReferential",
            pattern: r"(?i)\b(?P<subject>my (?:system prompt|instructions|guidelines|rules|constraints))\s+(?:say|says|tell|tells|instruct|instructs|direct|directs|require|requires)\b",
            assertion: Some("self_reference"),
            negative: false,
            confidence: 0.9,
            anchors: &[
                "prompt",
                "instructions",
                "guidelines",
                "rules",
                "constraints",
            ],
            follow: Follow::Ws,
            with: &["my"],
            starts: Some(&[
                ("prompt", 10),
                ("instructions", 3),
                ("guidelines", 3),
                ("rules", 3),
                ("constraints", 3),
            ]),
            split: split::all_but_last_word,
            needs: &[],
        },
        Builtin {
            detector: "selfReferential",
            category: SelfReferential,
            id: "selfReferential",
            pattern: r"(?i)\b(?P<subject>I am|I'm)\s+(?:an? )?(?:AI|assistant|language model|sub-agent|agent)\b",
            assertion: Some("self_reference"),
            negative: false,
            confidence: 0.8,
            // "I'm": the word after the apostrophe.
            anchors: &["am", "m"],
            follow: Follow::Ws,
            with: &["ai", "assistant", "language", "sub", "agent"],
            starts: Some(&[("am", 2), ("m", 2)]),
            split: split::opening_phrase,
            needs: &[],
        },
        Builtin {
            detector: "selfReferential",
            category: SelfReferential,
            id: "selfReferential",
            pattern: r"(?i)\b(?P<subject>(?:according to|based on) my)\s+(?:instructions|prompt|guidelines|training)\b",
            assertion: Some("self_reference"),
            negative: false,
            confidence: 0.9,
            anchors: &["according", "based"],
            follow: Follow::Ws,
            with: &["instructions", "prompt", "guidelines", "training"],
            starts: Some(&[]),
            split: split::opening_phrase,
            needs: &[],
        },
        Builtin {
            detector: "selfReferential",
            category: SelfReferential,
            id: "selfReferential",
            pattern: r"(?i)\b(?P<subject>I was) (?:told|instructed|asked|tasked) to\b",
            assertion: Some("self_reference"),
            negative: false,
            confidence: 0.85,
            anchors: &["was"],
            follow: Follow::Ws,
            with: &["told", "instructed", "asked", "tasked"],
            starts: Some(&[("was", 2)]),
            split: split::opening_phrase,
            needs: &[],
        },
    ]
};

/// The compiled builtins, in the order of `BUILTINS` (a pattern's index is its anchor bit).
static COMPILED: Lazy<Vec<Pattern>> = Lazy::new(|| {
    BUILTINS
        .iter()
        .enumerate()
        .map(|(bit, b)| Pattern {
            re: Regex::new(&expand(b.pattern)).expect("builtin pattern"),
            category: b.category,
            detector_id: Text::from_static(b.id),
            assertion: b.assertion.map(Text::from_static),
            negative: b.negative,
            confidence: b.confidence,
            subject_group: "subject".into(),
            fast: Some(Fast {
                bit: bit as u8,
                split: b.split,
                starts: b.starts.unwrap_or_default(),
                needs: b.needs,
                anchored: b.starts.map(|_| {
                    regex_automata::meta::Regex::new(&expand(b.pattern)).expect("builtin pattern")
                }),
            }),
        })
        .collect()
});

/// The patterns of one builtin detector.
pub fn builtin(detector: &str) -> Vec<Pattern> {
    BUILTINS
        .iter()
        .zip(COMPILED.iter())
        .filter(|(b, _)| b.detector == detector)
        .map(|(_, p)| p.clone())
        .collect()
}

/// The anchors of every builtin pattern, by its bit.
pub(super) fn builtin_anchors() -> impl Iterator<Item = (&'static [&'static str], Follow)> {
    BUILTINS.iter().map(|b| (b.anchors, b.follow))
}

/// The second words of every builtin pattern (see `Builtin::with`), by its bit.
pub(super) fn builtin_second_words() -> impl Iterator<Item = &'static [&'static str]> {
    BUILTINS.iter().map(|b| b.with)
}

pub const BUILTIN_IDS: [&str; 5] = [
    "systemState",
    "entityName",
    "existence",
    "operationalStatus",
    "selfReferential",
];

/// Filler words that can precede a subject without being part of it.
pub(super) const LEADING: [&str; 16] = [
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

/// Claims in `text`, at most `max` of them, in text order. Sentences are judged one at a time:
/// a claim a hedge qualifies (its own clause, see `clauses`) is an opinion unless it is a
/// self-reference, and a pattern runs only on sentences that hold one of its anchors
/// (builtins: a DFA `find`, groups read off the match) or on every sentence (custom
/// detectors: a capture pass). Claims never reach across a sentence boundary.
pub fn detect(text: &str, patterns: &[&Pattern], max: usize) -> Vec<DetectedClaim> {
    let scan = scan::Scan::new(text);
    // Builtins by anchor bit: a sentence visits only the patterns its words make candidates
    // (bits ascend in `BUILTINS` order, the order builtins are configured in).
    let mut by_bit: [Option<&Pattern>; 32] = [None; 32];
    for p in patterns {
        if let Some(f) = &p.fast {
            by_bit[usize::from(f.bit)] = Some(p);
        }
    }
    let custom: Vec<&Pattern> = patterns
        .iter()
        .copied()
        .filter(|p| p.fast.is_none())
        .collect();
    // Where literal-prefix patterns start, sentence by sentence: one buffer for them all.
    let mut starts = Vec::new();
    // About one claim per sentence in claim-heavy text: grown by copying otherwise.
    let mut out = Vec::with_capacity(scan.sentences.len().min(max));
    for s in &scan.sentences {
        if out.len() >= max {
            break;
        }
        // Each pattern adds no more claims than could still make the first `max` once the
        // sentence's claims are in text order; in a hedged sentence some are taken back, so
        // all are found there.
        let room = if s.hedged {
            usize::MAX
        } else {
            max - out.len()
        };
        let first = out.len();
        if s.exact {
            // A sentence the word scan cannot vouch for: every pattern by capture pass.
            for pat in patterns {
                capture_pass(pat, text, s, room, &mut out);
            }
        } else {
            let mut bits = s.candidates;
            while bits != 0 {
                let bit = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if let Some(pat) = by_bit[bit] {
                    fast_pass(pat, (&scan, s), text, room, &mut out, &mut starts);
                }
            }
            for pat in &custom {
                capture_pass(pat, text, s, room, &mut out);
            }
        }
        if s.hedged {
            let hedges = scan.hedges_in(s);
            let sentence = &text[s.start..s.end];
            let mut k = first;
            while k < out.len() {
                if hedge_proof(out[k].category) || !qualified(sentence, s.start, hedges, &out[k]) {
                    k += 1;
                } else {
                    out.remove(k);
                }
            }
        }
        out[first..].sort_by_key(|c| c.offset);
    }
    out.truncate(max);
    out
}

/// Whether a hedge of the sentence (which starts at `base`) qualifies `claim`.
pub(super) fn qualified(
    sentence: &str,
    base: usize,
    hedges: &[(usize, usize)],
    claim: &DetectedClaim,
) -> bool {
    let start = claim.offset - base;
    let span = (
        start,
        (start + claim.matched_text.len()).min(sentence.len()),
    );
    hedges
        .iter()
        .any(|&(a, b)| super::clauses::qualifies(sentence, (a - base, b - base), span))
}

/// Hedges make a claim about the world an opinion (§4.4.1: a suggestion is no assertion); they
/// do not make a self-reference any less one (§4.4.5: "My instructions say I should…").
fn hedge_proof(category: ClaimCategory) -> bool {
    category == ClaimCategory::SelfReferential
}

/// A custom detector (or any pattern in an exact sentence): the regex's own capture pass over
/// sentence `s`, adding at most `room` claims.
fn capture_pass(
    pat: &Pattern,
    text: &str,
    s: &scan::Sentence,
    room: usize,
    out: &mut Vec<DetectedClaim>,
) {
    let sentence = &text[s.start..s.end];
    let found = pat
        .re
        .captures_iter(sentence)
        .filter_map(|caps| claim_from_captures(pat, sentence, s.start, &caps));
    out.extend(found.take(room));
}

/// A builtin pattern whose anchors sentence `s` holds: DFA matches, groups read off them, at
/// most `room` claims.
fn fast_pass(
    pat: &Pattern,
    (scan, s): (&scan::Scan, &scan::Sentence),
    text: &str,
    room: usize,
    out: &mut Vec<DetectedClaim>,
    starts: &mut Vec<usize>,
) {
    let Some(f) = &pat.fast else {
        return;
    };
    let sentence = &text[s.start..s.end];
    if let [a, b, c] = *f.needs {
        if memchr::memchr3(a, b, c, sentence.as_bytes()).is_none() {
            return;
        }
    }
    let stop = out.len().saturating_add(room);
    let mut add = |start: usize, end: usize| {
        if let Some(caps) = (f.split)(&sentence[start..end]) {
            let caps = caps.shifted(start);
            out.extend(claim(pat, sentence, s.start, (start, end), &caps));
        }
        out.len() < stop
    };
    match &f.anchored {
        Some(re) => prefix_matches(re, f, (scan, s), text, starts, &mut add),
        None => unanchored_matches(pat, f, scan, s, sentence, &mut add),
    }
}

/// Matches of a pattern in sentence `s`, leftmost first, as `find_iter` would give them: searched
/// only while an anchor of the pattern lies ahead. `add` says whether to go on.
fn unanchored_matches(
    pat: &Pattern,
    f: &Fast,
    scan: &scan::Scan,
    s: &scan::Sentence,
    sentence: &str,
    add: &mut impl FnMut(usize, usize) -> bool,
) {
    let (mut from, mut cursor) = (0, 0);
    while scan.anchor_after(s, f.bit, s.start + from, &mut cursor) {
        let Some(m) = pat.re.find_at(sentence, from) else {
            return;
        };
        // Every builtin consumes its anchor, so a match is never empty.
        if !add(m.start(), m.end()) || m.is_empty() {
            return;
        }
        from = m.end();
    }
}

/// The same for a pattern that opens with a literal holding an anchor: every match starts a
/// fixed distance before one of its anchors, so anchored searches at those few places, in text
/// order, find the same matches without scanning the sentence (and without the reverse pass
/// that finds an unanchored match's start).
fn prefix_matches(
    re: &regex_automata::meta::Regex,
    f: &Fast,
    (scan, s): (&scan::Scan, &scan::Sentence),
    text: &str,
    starts: &mut Vec<usize>,
    add: &mut impl FnMut(usize, usize) -> bool,
) {
    let sentence = &text[s.start..s.end];
    starts.clear();
    for &(at, patterns) in scan.anchors_in(s) {
        if patterns & (1 << f.bit) == 0 {
            continue;
        }
        let len = text[at..]
            .bytes()
            .take_while(u8::is_ascii_alphabetic)
            .count();
        let word = &text[at..at + len];
        let (rel, mut listed) = (at - s.start, false);
        for &(_, back) in f
            .starts
            .iter()
            .filter(|(w, _)| w.eq_ignore_ascii_case(word))
        {
            listed = true;
            starts.extend(rel.checked_sub(usize::from(back)));
        }
        // An anchor that is not listed starts its match.
        if !listed {
            starts.push(rel);
        }
    }
    starts.sort_unstable();
    starts.dedup();
    let mut from = 0;
    for &start in starts.iter() {
        if start < from {
            continue;
        }
        let input = regex_automata::Input::new(sentence)
            .range(start..)
            .anchored(regex_automata::Anchored::Yes);
        if let Some(m) = re.search(&input) {
            if !add(m.start(), m.end()) || m.is_empty() {
                return;
            }
            from = m.end();
        }
    }
}

/// A claim from a regex capture pass (custom detectors; the reference the builtins are tested
/// against).
pub fn claim_from_captures(
    pat: &Pattern,
    sentence: &str,
    base: usize,
    caps: &regex::Captures,
) -> Option<DetectedClaim> {
    let whole = caps.get(0)?;
    let group = caps
        .name(&pat.subject_group)
        .or_else(|| pat.subject_group.parse().ok().and_then(|g| caps.get(g)))
        .or_else(|| caps.get(1))?;
    let span = |m: regex::Match| (m.start(), m.end());
    let found = Caps {
        subject: span(group),
        neg: caps.name("neg").map(span),
        state: caps.name("state").map(span),
        name: caps.name("name").map(span),
    };
    claim(pat, sentence, base, span(whole), &found)
}

/// A claim from a match and its groups (byte ranges within `sentence`, which starts at `base`).
fn claim(
    pat: &Pattern,
    sentence: &str,
    base: usize,
    whole: (usize, usize),
    caps: &Caps,
) -> Option<DetectedClaim> {
    let at = |(a, b): (usize, usize)| &sentence[a..b];
    let mut subject = clean_subject(at(caps.subject));
    if subject.is_empty() || subject.eq_ignore_ascii_case("they") {
        // "No, it is not installed": the thing named before (`antecedents`).
        subject = std::borrow::Cow::Borrowed(pronoun(at(caps.subject))?);
    }
    // "not", "n't", "never", "no longer" in the verb ("has not been", "was never").
    let neg_word = caps.neg.is_some_and(|n| {
        let w = at(n).as_bytes();
        w.windows(3).any(|t| {
            t.eq_ignore_ascii_case(b"not") || t == b"n't" || t.eq_ignore_ascii_case(b"nev")
        }) || w.windows(6).any(|t| t.eq_ignore_ascii_case(b"no lon"))
    });
    let assertion = match (&pat.assertion, caps.state) {
        (Some(a), _) => a.clone(),
        (None, Some(state)) => state_assertion(at(state), neg_word),
        (None, None) => "asserted".into(),
    };
    // "is uninstalled" says what "is not installed" says; "is not uninstalled" the opposite.
    let antonym = caps.state.is_some_and(|st| antonym(at(st)));
    Some(DetectedClaim {
        category: pat.category,
        detector_id: pat.detector_id.clone(),
        matched_text: Text::new(at(whole).trim()),
        offset: base + whole.0,
        subject: Text::new(&subject),
        assertion,
        negative: pat.negative || neg_word != antonym,
        confidence: pat.confidence,
        name: caps.name.map(|n| Text::new(at(n))),
    })
}

/// The states builtin patterns capture (the anchors of those without a fixed assertion), with
/// their assertions plain and negated: most claims carry one of these, shared, not built.
pub(super) const STATES: [(&str, &str, &str); 26] = [
    ("installed", "installed", "not_installed"),
    ("running", "running", "not_running"),
    ("configured", "configured", "not_configured"),
    ("available", "available", "not_available"),
    ("enabled", "enabled", "not_enabled"),
    ("active", "active", "not_active"),
    ("loaded", "loaded", "not_loaded"),
    ("present", "present", "not_present"),
    ("broken", "broken", "not_broken"),
    ("down", "down", "not_down"),
    ("failing", "failing", "not_failing"),
    ("crashed", "crashed", "not_crashed"),
    ("dead", "dead", "not_dead"),
    ("offline", "offline", "not_offline"),
    ("unreachable", "unreachable", "not_unreachable"),
    ("unresponsive", "unresponsive", "not_unresponsive"),
    ("failed", "failed", "not_failed"),
    ("errored", "errored", "not_errored"),
    ("timed out", "timed_out", "not_timed_out"),
    // Words that say a state does not hold: their plain reading is the negated state.
    ("uninstalled", "not_installed", "installed"),
    ("unconfigured", "not_configured", "configured"),
    ("unavailable", "not_available", "available"),
    ("unloaded", "not_loaded", "loaded"),
    ("inactive", "not_active", "active"),
    ("disabled", "not_enabled", "enabled"),
    ("stopped", "not_running", "running"),
];

/// A state word that says another does not hold (`uninstalled`, `stopped`).
fn antonym(state: &str) -> bool {
    STATES
        .iter()
        .any(|(s, plain, _)| plain.starts_with("not_") && s.eq_ignore_ascii_case(state))
}

/// `installed` or `not_installed` for the captured state (lowercased, spaces as `_`).
fn state_assertion(state: &str, negative: bool) -> Text {
    if let Some((_, plain, not)) = STATES
        .iter()
        .find(|(s, _, _)| s.eq_ignore_ascii_case(state))
    {
        return Text::from_static(if negative { not } else { plain });
    }
    let mut s = String::with_capacity(state.len() + 4);
    if negative {
        s.push_str("not_");
    }
    s.extend(state.chars().map(|c| match c {
        ' ' => '_',
        c => c.to_ascii_lowercase(),
    }));
    s.into()
}

/// The pronoun a subject is, when it is nothing else ("it" of "No, it is not installed"),
/// spelled as `antecedents::PRONOUN` looks for it.
fn pronoun(raw: &str) -> Option<&'static str> {
    let last = raw.trim().rsplit(char::is_whitespace).next()?;
    ["it", "they"]
        .into_iter()
        .find(|p| last.eq_ignore_ascii_case(p))
        .map(|_| super::antecedents::PRONOUN)
}

/// Strips quotes, filler words, articles and the full stop a subject at a sentence's end
/// takes along: "I think the docker service" → "docker service", "no nginx." → "nginx".
pub(super) fn clean_subject(raw: &str) -> std::borrow::Cow<'_, str> {
    if single_spaced_ascii(raw) {
        return without_full_stop(without_openings(raw, |c| c == ' ')).into();
    }
    let rest = without_openings(
        raw.trim()
            .trim_matches(|c| c == '"' || c == '\'' || c == '`')
            .trim_start(),
        char::is_whitespace,
    )
    .trim_end();
    // Words are joined by single spaces, however the text separated them.
    if rest
        .split(' ')
        .all(|w| !w.is_empty() && !w.contains(char::is_whitespace))
    {
        without_full_stop(rest).into()
    } else {
        let mut words = rest.split_whitespace().collect::<Vec<_>>().join(" ");
        words.truncate(without_full_stop(&words).len());
        words.into()
    }
}

/// Subject patterns take `.` as part of a name ("Node.js", "config.yaml"), so a subject that
/// ends a sentence ends with its full stop: dropped, or "feature3." would name no fact.
fn without_full_stop(subject: &str) -> &str {
    subject.trim_end_matches('.').trim_end()
}

/// Whether `raw` is ASCII with no whitespace or quote at either end and words separated by
/// single spaces, as most subjects are ("nginx", "the pipeline"): one pass over its bytes.
fn single_spaced_ascii(raw: &str) -> bool {
    let b = raw.as_bytes();
    let edge = |c: &u8| matches!(c, b'"' | b'\'' | b'`' | b' ' | b'\t'..=b'\r');
    if b.first().is_none_or(edge) || b.last().is_none_or(edge) {
        return false;
    }
    let mut after_space = false;
    for &c in b {
        match c {
            b' ' if after_space => return false,
            b' ' => after_space = true,
            b'\t'..=b'\r' | 0x80.. => return false,
            _ => after_space = false,
        }
    }
    true
}

/// `rest` (trimmed at its start) without its opening fillers, and articles that have more
/// after them; words end at `space`.
fn without_openings(mut rest: &str, space: impl Fn(char) -> bool + Copy) -> &str {
    loop {
        let (first, tail) = match rest.split_once(space) {
            Some((first, tail)) => (first, tail.trim_start()),
            None => (rest, ""),
        };
        // Most subjects open with a word of a length and first letter no filler has.
        if !OPENINGS.may_hold(first.as_bytes()) {
            return rest;
        }
        let filler = LEADING.iter().any(|w| first.eq_ignore_ascii_case(w));
        let article = ARTICLES.iter().any(|w| first.eq_ignore_ascii_case(w));
        if filler && !first.is_empty() || article && !tail.is_empty() {
            rest = tail;
        } else {
            return rest;
        }
    }
}

/// A bit for each (length, first letter) of a filler or article: most subjects open with a word
/// that has none, and are let through without comparing it with each.
struct Openings([u64; 4]);

const OPENINGS: Openings = {
    let mut bits = [0u64; 4];
    let mut i = 0;
    while i < LEADING.len() + ARTICLES.len() {
        let w = if i < LEADING.len() {
            LEADING[i].as_bytes()
        } else {
            ARTICLES[i - LEADING.len()].as_bytes()
        };
        assert!(
            !w.is_empty() && w.len() < 16,
            "Openings holds words of 1 to 15 bytes"
        );
        let bit = Openings::bit(w.len(), w[0]);
        bits[bit / 64] |= 1 << (bit % 64);
        i += 1;
    }
    Openings(bits)
};

impl Openings {
    /// Words of up to 15 bytes by their length and first letter (case folded, 0 if none).
    const fn bit(len: usize, first: u8) -> usize {
        let letter = match first {
            b'a'..=b'z' => first - b'a' + 1,
            b'A'..=b'Z' => first - b'A' + 1,
            _ => 0,
        };
        (len % 16) * 16 + letter as usize % 16
    }

    fn may_hold(&self, word: &[u8]) -> bool {
        let (len, first) = (word.len(), word.first().copied().unwrap_or(0));
        let bit = Openings::bit(len, first);
        len < 16 && self.0[bit / 64] >> (bit % 64) & 1 == 1
    }
}

/// Words that may open a subject without being part of it.
const ARTICLES: [&str; 6] = ["the", "a", "an", "my", "our", "your"];

/// The same as `SUBJ` spells them, each with the space after it.
pub(super) const ARTICLES_SPACED: [&str; 6] = ["the ", "a ", "an ", "my ", "our ", "your "];

/// A lowercased subject without its opening article ("the docker service" → "docker service").
pub fn strip_article(lower: &str) -> &str {
    ARTICLES
        .iter()
        .find_map(|a| lower.strip_prefix(a)?.strip_prefix(' '))
        .unwrap_or(lower)
}

/// Lowercased, articles removed: how subjects are compared with facts (§12.2).
pub fn normalize(subject: &str) -> String {
    // A fact's subject without its closing full stop, as claims' subjects are ("Acme Inc.").
    without_full_stop(strip_article(&subject.trim().to_lowercase())).to_string()
}
