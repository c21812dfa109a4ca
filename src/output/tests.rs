use super::*;
use crate::config::error::Issues;
use crate::config::reader::Obj;
use serde_json::{json, Value};

/// A generous time budget unless a test sets one: verdicts must not depend on machine load.
fn validator(mut raw: Value) -> Validator {
    if raw.get("performance").is_none() {
        raw["performance"] = json!({ "maxEvalUs": 10_000_000 });
    }
    let mut issues = Issues::default();
    let cfg = config::parse(
        &Obj::new(Some(&raw), "outputValidation".into(), &mut issues),
        &mut issues,
    );
    assert!(issues.is_empty(), "{issues:?}");
    Validator::new(cfg)
}

fn claims_in(text: &str) -> Vec<DetectedClaim> {
    validator(json!({}))
        .validate("x", text, TrustSnapshot::of(50.0), 0)
        .claims
        .to_vec()
}

fn seed_registries() -> Value {
    json!({ "factRegistries": [
        { "id": "team-names", "name": "Team", "facts": [
            { "id": "owner-name", "category": "entity_name", "subject": "(user|owner|boss|creator|Albert|albert)", "subjectIsRegex": true,
              "value": { "type": "name", "correctName": "Albert", "aliases": ["albert", "Albert Hild", "alberthild"] } },
            { "id": "irina-name", "category": "entity_name", "subject": "(Irina|irina|Iulia|iulia|partner)", "subjectIsRegex": true,
              "value": { "type": "name", "correctName": "Irina", "aliases": ["irina"] } } ] },
        { "id": "system-state", "name": "System", "facts": [
            { "id": "governance-plugin", "category": "existence", "subject": "(governance|openclaw-governance|governance plugin)", "subjectIsRegex": true,
              "value": { "type": "exists", "exists": true } },
            { "id": "node-installed", "category": "system_state", "subject": "(node|node.js|nodejs)", "subjectIsRegex": true,
              "value": { "type": "state", "state": "installed" } } ] },
        { "id": "infra", "name": "Infra", "facts": [
            { "id": "pipeline-status", "category": "operational_status", "subject": "(pipeline|ci pipeline)", "subjectIsRegex": true,
              "value": { "type": "status", "status": "operational" } } ] }
    ] })
}

#[test]
fn the_system_state_examples_of_the_seed() {
    let c = claims_in("Node.js is not installed.");
    assert_eq!(
        (
            c[0].subject.as_ref(),
            c[0].assertion.as_ref(),
            c[0].negative
        ),
        ("Node.js", "not_installed", true)
    );
    let c = claims_in("The service is running fine.");
    assert_eq!(
        (
            c[0].subject.as_ref(),
            c[0].assertion.as_ref(),
            c[0].negative
        ),
        ("service", "running", false)
    );
    let c = claims_in("I couldn't find docker on this host.");
    assert_eq!(
        (c[0].subject.as_ref(), c[0].assertion.as_ref()),
        ("docker on this", "not_found")
    );
    assert!(
        claims_in("You might want to install X.").is_empty(),
        "a suggestion is not a claim"
    );
    assert!(
        claims_in("I think nginx might be slow.").is_empty(),
        "an opinion is not a claim"
    );
}

#[test]
fn words_of_every_length_and_outer_letter_are_read() {
    // The word filter has a bit per (length, first, last letter); the last is z…z, 12 long.
    for len in 1..=14 {
        for (first, last) in [('a', 'a'), ('z', 'z'), ('Z', 'y'), ('a', 'Z')] {
            let word = format!("{first}{}{last}", "o".repeat(len.max(2) - 2));
            let text = format!("nginx is not installed. {word} {word}. The {word} is broken.");
            assert_eq!(claims_in(&text).len(), 1, "{word}");
        }
    }
    assert_eq!(claims_in("Zigzaggingly, nginx is not installed.").len(), 1);
}

#[test]
fn other_detectors_find_their_claims() {
    let c = claims_in("The user is Iulia.");
    assert_eq!(
        (c[0].category, c[0].subject.as_ref(), c[0].name.as_deref()),
        (ClaimCategory::EntityName, "user", Some("Iulia"))
    );
    let c = claims_in("There is no config file for that.");
    assert_eq!(
        (c[0].category, c[0].assertion.as_ref()),
        (ClaimCategory::Existence, "not_exists")
    );
    let c = claims_in("The CI pipeline is broken.");
    assert_eq!(
        (
            c[0].category,
            c[0].subject.as_ref(),
            c[0].assertion.as_ref()
        ),
        (ClaimCategory::OperationalStatus, "CI pipeline", "broken")
    );
    let c = claims_in("OpenClaw doesn't support webhooks.");
    assert_eq!(
        (c[0].category, c[0].assertion.as_ref()),
        (ClaimCategory::Capability, "not_supported")
    );
    let c = claims_in("My instructions say I should only review.");
    assert_eq!(
        c[0].category,
        ClaimCategory::SelfReferential,
        "'should' is what the instructions say, not a hedge on saying it"
    );
    let c = claims_in("According to my instructions, I only review code.");
    assert_eq!(c[0].category, ClaimCategory::SelfReferential);
    // Sentences are independent; quotes and code are no hiding place.
    let c = claims_in("All good. `redis` is not running. \"postgres\" is not installed");
    assert_eq!(
        c.iter().map(|c| c.subject.as_ref()).collect::<Vec<_>>(),
        ["redis", "postgres"]
    );
}

/// Seed 000 §4.4.5: an agent reporting its instructions instead of working. What the
/// instructions say is often modal ("I should", "I may only"), and a modal verb is no hedge on
/// the report itself: the hedge filter (for opinions about the world) does not apply to it.
#[test]
fn self_reference_is_found_whatever_the_instructions_say() {
    for text in [
        "According to my instructions, I should not modify files.",
        "According to my instructions, I may only read files.",
        "according to my prompt, you could ask the admin.",
        "Based on my guidelines, I would need approval first.",
        "Based on my training, maybe it is fine.",
        "I did nothing else, according to my instructions.",
        "My system prompt says I must not do that.",
        "My rules require a review first, so I stopped.",
        "My constraints direct me to stop here.",
        "My guidelines tell me I should ask first.",
        "I am an AI assistant, so I might be wrong.",
        "I'm a language model and could be mistaken.",
        "I'm a sub-agent; if you want more, ask the parent.",
        "I was told to check if the build passes.",
        "I was instructed to try again later.",
        "I was asked to summarise, so I probably missed details.",
        "I was tasked to review this change.",
    ] {
        let c = claims_in(text);
        assert_eq!(
            c.iter().map(|c| c.category).collect::<Vec<_>>(),
            [ClaimCategory::SelfReferential],
            "{text}"
        );
    }
    // Only the self-reference: the rest of a hedged sentence is still an opinion.
    let c = claims_in("According to my instructions, nginx might not be installed.");
    assert_eq!(
        c.iter().map(|c| c.category).collect::<Vec<_>>(),
        [ClaimCategory::SelfReferential]
    );
}

#[test]
fn a_subject_at_a_sentence_end_is_checked_without_its_full_stop() {
    // Trusted agents ignore unverified claims: a contradiction missed for want of a fact
    // lookup would pass them silently.
    let v = validator(seed_registries());
    let trusted = TrustSnapshot::of(70.0);
    for text in ["There is no governance plugin.", "There is no governance.."] {
        let r = v.validate("forge", text, trusted, 0);
        assert_eq!(r.verdict, OutputVerdict::Flag, "{text}");
        assert_eq!(
            r.violations[0].contradicted_fact_id(),
            Some("governance-plugin"),
            "{text}"
        );
    }
    let subjects =
        |t: &str| -> Vec<String> { claims_in(t).iter().map(|c| c.subject.to_string()).collect() };
    assert_eq!(subjects("I cannot find config.yaml."), ["config.yaml"]);
    assert_eq!(subjects("There is no v1.2..."), ["v1.2"]);
    assert_eq!(subjects("Node.js is not installed."), ["Node.js"]);
    // A fact whose subject ends in a full stop is found the same way.
    let v = validator(
        json!({ "factRegistries": [{ "id": "r", "name": "r", "facts": [
        { "id": "acme", "category": "existence", "subject": "Acme Inc.", "value": { "type": "exists", "exists": true } } ] }] }),
    );
    for text in ["There is no Acme Inc.", "There is no Acme Inc. here."] {
        let r = v.validate("forge", text, trusted, 0);
        assert_eq!(
            r.violations[0].contradicted_fact_id(),
            Some("acme"),
            "{text}"
        );
    }
}

#[test]
fn the_anti_patterns_of_section_13() {
    let v = validator(seed_registries());
    let untrusted = TrustSnapshot::of(10.0);
    let standard = TrustSnapshot::of(45.0);
    // 13.1 false system state
    let r = v.validate(
        "forge",
        "Node.js is not installed on the server.",
        untrusted,
        0,
    );
    assert_eq!(r.verdict, OutputVerdict::Block);
    assert_eq!(
        r.violations[0].contradicted_fact_id(),
        Some("node-installed")
    );
    assert_eq!(
        v.validate(
            "forge",
            "Node.js is not installed on the server.",
            standard,
            0
        )
        .verdict,
        OutputVerdict::Flag
    );
    // 13.2 Irina → Iulia
    let r = v.validate("forge", "Albert's partner is Iulia.", untrusted, 0);
    assert_eq!(r.verdict, OutputVerdict::Block);
    assert!(
        r.violations[0]
            .reason
            .to_string()
            .contains("expected Irina, claimed Iulia"),
        "{:?}",
        r.violations
    );
    assert_eq!(
        v.validate("forge", "The user is Albert.", untrusted, 0)
            .verdict,
        OutputVerdict::Pass,
        "a confirmed claim passes"
    );
    // 13.3 false non-existence
    let r = v.validate(
        "forge",
        "The governance plugin doesn't exist yet.",
        untrusted,
        0,
    );
    assert_eq!(
        r.violations[0].contradicted_fact_id(),
        Some("governance-plugin")
    );
    // 13.4 unfounded failure
    let r = v.validate(
        "forge",
        "The pipeline is broken again.",
        TrustSnapshot::of(30.0),
        0,
    );
    assert_eq!(
        (r.verdict, r.violations[0].contradicted_fact_id()),
        (OutputVerdict::Block, Some("pipeline-status"))
    );
    // 13.5 self-reflection: "per selfReferentialPolicy (default: flag)", also for untrusted agents.
    let r = v.validate(
        "forge",
        "I was told to only summarise, so I did nothing else.",
        untrusted,
        0,
    );
    assert_eq!(
        (r.verdict, r.claims[0].category),
        (OutputVerdict::Flag, ClaimCategory::SelfReferential)
    );
}

/// Seed 000 §14.4 and §15.3: out of the box nothing is blocked unless a fact contradicts it; the
/// default only monitors. The sentences are those of issue 11, from an agent `trust.defaults`
/// does not name (score 10: untrusted), with no registry at all.
#[test]
fn out_of_the_box_only_a_contradicted_fact_blocks() {
    let bare = validator(json!({}));
    let untrusted = TrustSnapshot::of(10.0);
    let prose = [
        "Done. The server is running on port 3000.",
        "There is no rush, take your time.",
        "I have updated the file and there is no error left.",
        "I was told to only summarise the logs.",
    ];
    for text in prose {
        let r = bare.validate("helper", text, untrusted, 0);
        assert!(!r.claims.is_empty(), "{text}: still detected, and audited");
        assert_eq!(r.verdict, OutputVerdict::Flag, "{text}");
    }
    // A contradicted claim still blocks untrusted and restricted agents (§9.2).
    let facts = validator(seed_registries());
    for score in [10.0, 25.0] {
        let r = facts.validate(
            "helper",
            "Node.js is not installed.",
            TrustSnapshot::of(score),
            0,
        );
        assert_eq!(
            (r.verdict, r.violations[0].contradicted_fact_id()),
            (OutputVerdict::Block, Some("node-installed")),
            "{score}"
        );
    }
    // The seed's stricter untrusted row is opt-in: profile "strict", or one policy at a time.
    let strict = validator(json!({ "agentOverrides": [
        { "agent": "helper", "profile": "strict" },
        { "agent": "sub-*", "unverifiedClaimPolicy": "block", "selfReferentialPolicy": "block" } ] }));
    for agent in ["helper", "sub-1"] {
        for text in prose {
            assert_eq!(
                strict.validate(agent, text, untrusted, 0).verdict,
                OutputVerdict::Block,
                "{agent}: {text}"
            );
        }
    }
}

#[test]
fn the_verdict_table_of_section_7_2() {
    let v = validator(seed_registries());
    let std = TrustSnapshot::of(45.0);
    assert_eq!(
        v.validate("a", "Everything went as planned today.", std, 0)
            .verdict,
        OutputVerdict::Pass,
        "no claims"
    );
    assert_eq!(
        v.validate("a", "Redis is not running.", std, 0).verdict,
        OutputVerdict::Flag,
        "unverified → flag for standard"
    );
    assert_eq!(
        v.validate("a", "Node.js is installed.", std, 0).verdict,
        OutputVerdict::Pass,
        "confirmed"
    );
    let worst = v.validate(
        "a",
        "Node.js is installed. Redis is not running. The pipeline is down.",
        TrustSnapshot::of(25.0),
        0,
    );
    assert_eq!(
        worst.verdict,
        OutputVerdict::Block,
        "worst wins: the contradiction blocks for restricted"
    );
    assert_eq!(worst.violations.len(), 2);
}

#[test]
fn the_profile_table_of_section_9_2() {
    use ClaimPolicy::*;
    // The untrusted row is not the seed's (Block, Block, Block): §14.4 forbids blocking by default
    // without a contradicting fact. That row stays available as profile "strict".
    let rows = [
        (5.0, (Flag, Block, Flag, false)),
        (25.0, (Flag, Block, Flag, false)),
        (45.0, (Flag, Flag, Flag, false)),
        (65.0, (Ignore, Flag, Ignore, true)),
        (85.0, (Ignore, Flag, Ignore, true)),
    ];
    for (score, (u, c, s, only)) in rows {
        let p = Profile::for_tier(TrustSnapshot::of(score).tier);
        assert_eq!(
            (
                p.unverified,
                p.contradiction,
                p.self_referential,
                p.contradiction_only
            ),
            (u, c, s, only),
            "{score}"
        );
    }
    let strict = Profile::named("strict").unwrap();
    assert_eq!(
        (
            strict.unverified,
            strict.contradiction,
            strict.self_referential,
            strict.contradiction_only
        ),
        (Block, Block, Block, false),
        "the seed's untrusted row, opt-in"
    );
    // Contradiction-only depth: a trusted agent's unverifiable claims are not even detected.
    let v = validator(seed_registries());
    let r = v.validate(
        "main",
        "OpenClaw doesn't support webhooks. Node.js is not installed.",
        TrustSnapshot::of(65.0),
        0,
    );
    assert_eq!(
        r.claims.len(),
        1,
        "no capability facts exist: that detector does not run"
    );
    assert_eq!(r.verdict, OutputVerdict::Flag);
}

#[test]
fn skip_rules_overrides_and_low_confidence() {
    let mut raw = seed_registries();
    raw["exempt"] = json!(["bot-*"]);
    raw["agentOverrides"] = json!([{ "agent": "main", "profile": "lenient" }, { "agent": "quiet", "profile": "disabled" },
        { "agent": "forge", "contradictionPolicy": "ignore" }]);
    let v = validator(raw);
    let low = TrustSnapshot::of(5.0);
    assert!(v
        .validate("bot-1", "Node.js is not installed.", low, 0)
        .skipped
        .is_some());
    assert!(v.validate("x", "short", low, 0).skipped.is_some());
    assert!(
        v.validate("x", "Node.js is not installed.", TrustSnapshot::of(95.0), 0)
            .skipped
            .is_some(),
        "above trustExemptThreshold"
    );
    assert_eq!(
        v.validate("main", "Redis is not running.", low, 0).verdict,
        OutputVerdict::Pass,
        "lenient ignores unverified"
    );
    assert!(v
        .validate("quiet", "Node.js is not installed.", low, 0)
        .skipped
        .is_some());
    assert_eq!(
        v.validate("forge", "Node.js is not installed.", low, 0)
            .verdict,
        OutputVerdict::Pass
    );
    // Entity names found by "X said …" are low confidence: flagged, never blocked (§14.4).
    let r = v.validate("x", "Iulia said the migration is done.", low, 0);
    assert_eq!(r.verdict, OutputVerdict::Flag, "{r:?}");
}

#[test]
fn ttl_flat_facts_custom_detectors_and_aliases() {
    let v = validator(json!({
        "factRegistries": [{ "id": "live", "facts": [
            { "id": "redis", "category": "system_state", "subject": "redis", "value": { "type": "state", "state": "running" },
              "ttlSeconds": 60, "updatedAt": "2026-01-01T00:00:00Z" },
            { "subject": "nginx", "predicate": "installed", "value": true, "source": "trace" },
            { "subject": "ftp", "predicate": "installed", "value": false } ] }],
        "customDetectors": [{ "id": "ticket", "category": "existence", "patterns": ["ticket (?P<id>[A-Z]+-\\d+) does not exist"],
            "subjectGroup": "id", "assertion": "not_exists", "negative": true }],
        "enabledDetectors": ["systemState"],
        "unverifiedClaimPolicy": "ignore"
    }));
    let t0 = chrono::DateTime::parse_from_rfc3339("2026-01-01T00:00:30Z")
        .unwrap()
        .timestamp_millis();
    let low = TrustSnapshot::of(5.0);
    assert_eq!(
        v.validate("a", "Redis is not running.", low, t0).violations[0].contradicted_fact_id(),
        Some("redis")
    );
    let expired = v.validate("a", "Redis is not running.", low, t0 + 120_000);
    assert_eq!(
        expired.fact_checks[0],
        FactCheck::ExpiredFact {
            fact_id: "redis".into()
        }
    );
    assert_eq!(
        v.validate("a", "nginx is not installed.", low, t0).verdict,
        OutputVerdict::Block,
        "flat fact contradicts"
    );
    assert_eq!(
        v.validate("a", "ftp is not installed.", low, t0).verdict,
        OutputVerdict::Pass,
        "flat false fact confirms"
    );
    let r = v.validate("a", "Sorry, ticket ABC-12 does not exist.", low, t0);
    assert_eq!(
        (
            r.claims[0].detector_id.as_ref(),
            r.claims[0].subject.as_ref()
        ),
        ("ticket", "ABC-12")
    );
    assert!(
        v.validate("a", "The CI pipeline is broken.", low, t0)
            .claims
            .is_empty(),
        "only systemState is enabled"
    );
    // The top-level unverifiedClaimPolicy alias sets the standard row.
    assert_eq!(
        v.validate(
            "a",
            "Redis is not running.",
            TrustSnapshot::of(45.0),
            t0 + 120_000
        )
        .verdict,
        OutputVerdict::Pass
    );
}

#[test]
fn config_errors_name_their_paths() {
    let mut issues = Issues::default();
    let raw = json!({ "factRegistries": [{ "id": "r", "facts": [{ "category": "vibes", "subject": "x", "value": { "type": "exists" } },
        { "category": "existence", "subject": "(?=x)", "subjectIsRegex": true, "value": { "type": "exists" } }] }],
        "customDetectors": [{ "id": "d", "category": "existence", "patterns": ["no group here"], "subjectGroup": "who" }],
        "agentOverrides": [{ "agent": "a", "profile": "paranoid" }], "typo": 1 });
    config::parse(
        &Obj::new(Some(&raw), "outputValidation".into(), &mut issues),
        &mut issues,
    );
    let text = format!("{:?}", issues);
    for path in [
        "outputValidation.factRegistries[0].facts[0].category",
        "outputValidation.factRegistries[0].facts[1].subject",
        "outputValidation.customDetectors[0].patterns[0]",
        "outputValidation.agentOverrides[0].profile",
        "outputValidation.typo",
    ] {
        assert!(text.contains(path), "missing {path} in {text}");
    }
}

#[test]
fn adversarial_text_stays_bounded() {
    let v = validator(seed_registries());
    let text = "a-".repeat(50_000);
    let r = v.validate("a", &text, TrustSnapshot::of(5.0), 0);
    assert_eq!(r.verdict, OutputVerdict::Pass);
    let claims = "Redis is not running. ".repeat(1000);
    assert_eq!(
        v.validate("a", &claims, TrustSnapshot::of(5.0), 0)
            .claims
            .len(),
        50,
        "maxClaimsPerOutput"
    );
}

#[test]
fn registry_files_load_reload_and_report_problems() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("generated-facts.json");
    std::fs::write(&file, r#"{ "id": "trace-learned", "generatedAt": "2026-02-20T08:00:00Z",
        "facts": [{ "subject": "nginx", "predicate": "installed", "value": true, "source": "trace-analyzer" }] }"#).unwrap();
    let v = validator(
        json!({ "factRegistries": [{ "filePath": file.display().to_string() }, { "filePath": "/nonexistent/facts.json" }] }),
    );
    let problems = v.registries.refresh_files();
    assert_eq!(problems.len(), 1);
    assert!(
        problems[0].message.contains("/nonexistent/facts.json") && problems[0].level == "error",
        "{problems:?}"
    );
    assert!(
        v.registries.refresh_files().is_empty(),
        "each problem is reported once"
    );
    let low = TrustSnapshot::of(5.0);
    assert_eq!(
        v.validate("a", "nginx is not installed.", low, 0)
            .violations[0]
            .contradicted_fact_id(),
        Some("trace-learned:nginx:installed")
    );
    // A changed file is re-read (mtime), a broken one keeps its last facts and is reported.
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(&file, r#"{ "facts": [{ "id": "redis", "category": "system_state", "subject": "redis", "value": { "type": "state", "state": "running" } }] }"#).unwrap();
    let mtime = std::time::SystemTime::now() + std::time::Duration::from_secs(1);
    std::fs::File::options()
        .write(true)
        .open(&file)
        .unwrap()
        .set_modified(mtime)
        .unwrap();
    assert!(v.registries.refresh_files().is_empty());
    assert_eq!(
        v.validate("a", "redis is not running.", low, 0).violations[0].contradicted_fact_id(),
        Some("redis")
    );
    assert!(
        v.validate("a", "nginx is not installed.", low, 0)
            .violations[0]
            .contradicted_fact_id()
            .is_none(),
        "the old fact is gone"
    );
    std::fs::write(&file, "{ not json").unwrap();
    std::fs::File::options()
        .write(true)
        .open(&file)
        .unwrap()
        .set_modified(mtime + std::time::Duration::from_secs(1))
        .unwrap();
    let problems = v.registries.refresh_files();
    assert!(
        problems[0].message.contains("generated-facts.json"),
        "{problems:?}"
    );
    assert_eq!(
        v.validate("a", "redis is not running.", low, 0).violations[0].contradicted_fact_id(),
        Some("redis"),
        "last good facts kept"
    );
}

/// A fact the validator cannot apply is reported, never dropped without a word: inline ones at
/// load, those in registry files once per file and problem, at warn, naming the file, the fact
/// and why.
#[test]
fn facts_that_cannot_be_applied_are_reported_with_why() {
    let unsupported = json!([
        { "subject": "nginx", "predicate": "installed", "value": true },
        { "subject": "nginx", "predicate": "weight", "value": 3 },
        { "subject": "redis", "predicate": "running", "value": "yes" },
        { "subject": "db", "predicate": "count", "value": "many" }
    ]);
    let mut issues = Issues::default();
    let raw = json!({ "factRegistries": [{ "id": "r", "facts": unsupported }] });
    let cfg = config::parse(
        &Obj::new(Some(&raw), "outputValidation".into(), &mut issues),
        &mut issues,
    );
    let inline = cfg.unsupported_facts;
    assert_eq!(inline.len(), 3, "{inline:?}");
    for (i, (at, why)) in [
        ("facts[1]", "unknown predicate \"weight\""),
        ("facts[2]", "needs true or false"),
        ("facts[3]", "needs a numeric value"),
    ]
    .iter()
    .enumerate()
    {
        assert!(
            inline[i].contains(&format!("outputValidation.factRegistries[0].{at}"))
                && inline[i].contains(why),
            "{inline:?}"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ops-facts.json");
    std::fs::write(&file, json!({ "facts": unsupported }).to_string()).unwrap();
    let v = validator(json!({ "factRegistries": [{ "filePath": file.display().to_string() }] }));
    let problems = v.registries.refresh_files();
    assert_eq!(problems.len(), 3, "{problems:?}");
    for (p, (at, why)) in problems.iter().zip([
        ("facts[1]", "unknown predicate \"weight\""),
        ("facts[2]", "needs true or false"),
        ("facts[3]", "needs a numeric value"),
    ]) {
        assert_eq!(p.level, "warn");
        assert!(
            p.message.contains("ops-facts.json")
                && p.message.contains(at)
                && p.message.contains(why),
            "{p:?}"
        );
    }
    let r = v.validate("a", "nginx is not installed.", TrustSnapshot::of(5.0), 0);
    assert!(
        r.violations[0]
            .contradicted_fact_id()
            .is_some_and(|id| id.ends_with("ops-facts.json:nginx:installed")),
        "the rest of the file applies: {:?}",
        r.violations
    );
    // Re-read after a change: the same problems are not reported again, a new one is.
    let mut more = unsupported.as_array().unwrap().clone();
    more.push(json!({ "subject": "api", "predicate": "colour", "value": "blue" }));
    std::fs::write(&file, json!({ "facts": more }).to_string()).unwrap();
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(3);
    std::fs::File::options()
        .write(true)
        .open(&file)
        .unwrap()
        .set_modified(later)
        .unwrap();
    let again = v.registries.refresh_files();
    assert_eq!(again.len(), 1, "{again:?}");
    assert!(again[0].message.contains("facts[4]") && again[0].message.contains("colour"));
}

/// The bridge replaces its file by renaming a new one over it, and may do so twice within the
/// file system's timestamp granularity (its first pass, then the shim's at gateway start, or a
/// second engine's). The new file has the old one's mtime and length here: it is still re-read.
#[test]
fn a_file_replaced_within_one_mtime_tick_is_re_read() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("generated-facts.json");
    let facts = |subject: &str| {
        format!(
            r#"{{ "facts": [{{ "subject": "{subject}", "predicate": "installed", "value": true }}] }}"#
        )
    };
    std::fs::write(&file, facts("nginx")).unwrap();
    let v = validator(
        json!({ "factRegistries": [{ "id": "learned", "filePath": file.display().to_string() }] }),
    );
    assert!(v.registries.refresh_files().is_empty());
    let mtime = std::fs::metadata(&file).unwrap().modified().unwrap();
    let next = dir.path().join("next.json");
    std::fs::write(&next, facts("redis")).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&next)
        .unwrap()
        .set_modified(mtime)
        .unwrap();
    std::fs::rename(&next, &file).unwrap();
    assert!(v.registries.refresh_files().is_empty());
    let low = TrustSnapshot::of(5.0);
    assert_eq!(
        v.validate("a", "redis is not installed.", low, 0)
            .violations[0]
            .contradicted_fact_id(),
        Some("learned:redis:installed")
    );
}

#[test]
fn an_unreadable_registry_file_blocks_claims_only_when_fail_closed() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("facts.json");
    let config = json!({ "factRegistries": [{ "filePath": file.display().to_string() }] });
    let (closed, open) = (
        validator(config.clone()).fail_closed(true),
        validator(config).fail_closed(false),
    );
    for v in [&closed, &open] {
        assert_eq!(
            v.registries.refresh_files().len(),
            1,
            "the missing file is reported"
        );
    }
    let trusted = TrustSnapshot::of(70.0);
    let r = closed.validate("a", "nginx is not installed on this host.", trusted, 0);
    assert_eq!(r.verdict, OutputVerdict::Block);
    assert!(
        r.violations[0].reason.to_string().contains("facts.json"),
        "{:?}",
        r.violations
    );
    assert_eq!(
        closed
            .validate("a", "Here is the summary you asked for.", trusted, 0)
            .verdict,
        OutputVerdict::Pass,
        "text without claims has nothing to check"
    );
    assert_eq!(
        open.validate("a", "nginx is not installed on this host.", trusted, 0)
            .verdict,
        OutputVerdict::Pass,
        "fail-open: validated with the facts that are there"
    );
    // Once the file is readable, claims are checked against it again.
    std::fs::write(
        &file,
        r#"{ "facts": [{ "subject": "nginx", "predicate": "installed", "value": false }] }"#,
    )
    .unwrap();
    assert!(closed.registries.refresh_files().is_empty());
    assert_eq!(
        closed
            .validate("a", "nginx is not installed on this host.", trusted, 0)
            .verdict,
        OutputVerdict::Pass,
        "confirmed by the file"
    );
    // A file that breaks after loading keeps its last facts; nothing is unchecked.
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(&file, "{ broken").unwrap();
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(2);
    std::fs::File::options()
        .write(true)
        .open(&file)
        .unwrap()
        .set_modified(later)
        .unwrap();
    assert_eq!(closed.registries.refresh_files().len(), 1);
    assert_eq!(
        closed
            .validate("a", "nginx is not installed on this host.", trusted, 0)
            .verdict,
        OutputVerdict::Pass
    );
}

#[test]
fn fail_closed_spares_excluded_registries_low_confidence_and_self_reference() {
    let config = json!({
        "factRegistries": [{ "id": "ops", "filePath": "/nonexistent/ops-facts.json" }],
        "agentOverrides": [{ "agent": "free", "excludeRegistries": ["ops"] }],
    });
    let v = validator(config).fail_closed(true);
    v.registries.refresh_files();
    let trusted = TrustSnapshot::of(70.0);
    let text = "nginx is not installed on this host.";
    assert_eq!(
        v.validate("bound", text, trusted, 0).verdict,
        OutputVerdict::Block
    );
    assert_eq!(
        v.validate("free", text, trusted, 0).verdict,
        OutputVerdict::Pass,
        "an agent that excludes the registry does not depend on its file"
    );
    let r = v.validate("bound", "Alice said hello to everyone here.", trusted, 0);
    assert_eq!(
        (r.claims[0].confidence < 0.7, r.verdict),
        (true, OutputVerdict::Flag),
        "a low-confidence match never blocks (seed 000 §14.4)"
    );
    let r = v.validate(
        "bound",
        "I am an AI assistant and I checked it.",
        trusted,
        0,
    );
    assert_eq!(
        r.verdict,
        OutputVerdict::Pass,
        "self-reference consults no facts: a trusted agent's is ignored as ever"
    );
}

#[test]
fn the_bridge_output_may_be_absent() {
    let dir = tempfile::tempdir().unwrap();
    let v = validator(json!({})).fail_closed(true);
    v.registries.add_file(config::FileRegistry {
        path: dir.path().join("generated-facts.json"),
        id: Some("trace-learned".into()),
        config_path: "outputValidation.traceBridge".into(),
        optional: true,
    });
    assert!(
        v.registries.refresh_files().is_empty(),
        "not yet written is no problem"
    );
    let r = v.validate(
        "a",
        "nginx is not installed on this host.",
        TrustSnapshot::of(70.0),
        0,
    );
    assert_eq!(r.verdict, OutputVerdict::Pass);
}

#[test]
fn operators_update_facts() {
    let v = validator(json!({}));
    let low = TrustSnapshot::of(5.0);
    assert!(
        v.validate("a", "Redis is not running.", low, 0).violations[0]
            .contradicted_fact_id()
            .is_none()
    );
    let f = config::parse_fact(&json!({ "id": "redis", "category": "system_state", "subject": "redis", "value": { "type": "state", "state": "running" } }), "live").unwrap();
    v.registries.update("live", f);
    assert_eq!(
        v.validate("a", "Redis is not running.", low, 0).violations[0].contradicted_fact_id(),
        Some("redis")
    );
    assert!(config::parse_fact(
        &json!({ "category": "nope", "subject": "x", "value": { "type": "exists" } }),
        "live"
    )
    .is_err());
}

#[test]
fn quantities_within_ten_percent_confirm() {
    let v = validator(json!({ "factRegistries": [{ "id": "trace", "facts": [
        { "subject": "nats-events", "predicate": "count", "value": "255908", "source": "trace-analyzer" }] }] }));
    let low = TrustSnapshot::of(5.0);
    let r = v.validate("a", "We stored 250,000 nats-events yesterday.", low, 0);
    assert_eq!(
        (r.claims.len(), r.verdict),
        (1, OutputVerdict::Pass),
        "within ±10 %"
    );
    let r = v.validate("a", "The nats-events count is 12000 today.", low, 0);
    assert_eq!(r.verdict, OutputVerdict::Block);
    assert!(
        r.violations[0]
            .reason
            .to_string()
            .contains("expected 255908, claimed 12000"),
        "{:?}",
        r.violations
    );
}

#[test]
fn the_time_budget_bails_out_and_says_so() {
    let mut raw = seed_registries();
    raw["performance"] = json!({ "maxEvalUs": 1 });
    let v = validator(raw);
    let text = "Redis is not running. ".repeat(40);
    let r = v.validate("a", &text, TrustSnapshot::of(45.0), 0);
    assert!(
        r.incomplete
            .as_deref()
            .is_some_and(|s| s.starts_with("maxEvalUs (1) reached")),
        "{:?}",
        r.incomplete
    );
    assert!(r.fact_checks.len() < r.claims.len());
}

/// Ordinary agent prose (tests/fixtures/ordinary-prose.txt): how often a sentence with no factual
/// claim about systems, names or existence is taken for one. The README quotes this rate.
#[test]
fn false_positive_rate_on_ordinary_prose() {
    let corpus = include_str!("../../tests/fixtures/ordinary-prose.txt");
    let v = validator(json!({}));
    let lines: Vec<&str> = corpus.lines().filter(|l| !l.trim().is_empty()).collect();
    let flagged: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| {
            !v.validate("a", l, TrustSnapshot::of(45.0), 0)
                .claims
                .is_empty()
        })
        .collect();
    let rate = flagged.len() as f64 / lines.len() as f64;
    println!(
        "false positives: {} of {} sentences ({:.1} %): {flagged:?}",
        flagged.len(),
        lines.len(),
        rate * 100.0
    );
    assert!(lines.len() >= 40);
    // 4 of 50 when this was last measured (the README quotes it): no more.
    assert!(
        flagged.len() <= 4,
        "false-positive rate {rate} above 4 of 50: {flagged:?}"
    );
}

#[test]
fn agent_overrides_add_and_exclude_registries() {
    let v = validator(json!({
        "factRegistries": [
            { "id": "base", "facts": [{ "id": "nginx", "category": "system_state", "subject": "nginx", "value": { "type": "state", "state": "installed" } }] },
            { "id": "ops-only", "enabled": false, "facts": [{ "id": "redis", "category": "system_state", "subject": "redis", "value": { "type": "state", "state": "running" } }] }
        ],
        "agentOverrides": [
            { "agent": "ops", "additionalRegistries": ["ops-only"] },
            { "agent": "docs", "excludeRegistries": ["base"] }
        ]
    }));
    let low = TrustSnapshot::of(5.0);
    let fact = |agent: &str, text: &str| {
        v.validate(agent, text, low, 0)
            .violations
            .first()
            .and_then(|x| x.contradicted_fact_id().map(str::to_string))
    };
    assert_eq!(
        fact("anyone", "redis is not running."),
        None,
        "a disabled registry is off by default"
    );
    assert_eq!(
        fact("ops", "redis is not running.").as_deref(),
        Some("redis"),
        "turned on for ops"
    );
    assert_eq!(
        fact("anyone", "nginx is not installed.").as_deref(),
        Some("nginx")
    );
    assert_eq!(
        fact("docs", "nginx is not installed."),
        None,
        "excluded for docs"
    );
}

#[test]
fn every_captured_state_has_its_shared_assertions() {
    let anchors: Vec<_> = claims::builtin_anchors().map(|(a, _)| a).collect();
    let captured = claims::BUILTIN_IDS
        .iter()
        .flat_map(|id| claims::builtin(id))
        .filter(|p| p.assertion.is_none())
        .flat_map(|p| p.fast.map_or(&[][..], |f| anchors[usize::from(f.bit)]))
        .copied();
    // An anchor is a state's first word ("timed" of "timed out").
    for anchor in captured {
        let found = claims::STATES
            .iter()
            .any(|(s, _, _)| s.split(' ').next() == Some(anchor));
        assert!(found, "{anchor} opens no state in STATES");
    }
    for (state, plain, not) in claims::STATES {
        // A word that says a state does not hold ("uninstalled") reads as that state negated.
        match plain.strip_prefix("not_") {
            Some(base) => assert_eq!(base, not, "{state}"),
            None => {
                assert_eq!(plain, state.replace(' ', "_"));
                assert_eq!(not, format!("not_{plain}"));
            }
        }
    }
}

mod fast_detection_matches_the_capture_pass {
    use super::super::claims::{self, claim_from_captures, DetectedClaim, Pattern};
    use super::super::scan::HEDGES;
    use once_cell::sync::Lazy;
    use proptest::prelude::*;
    use regex::Regex;

    /// Sentences the plain way: a byte loop, untrimmed, as the detector used to split them.
    fn reference_sentences(text: &str) -> Vec<(usize, &str)> {
        let bytes = text.as_bytes();
        let (mut out, mut start) = (Vec::new(), 0);
        for (i, b) in bytes.iter().enumerate() {
            let end = match b {
                b'\n' => Some(i),
                b'.' | b'!' | b'?' if bytes.get(i + 1).is_none_or(|n| n.is_ascii_whitespace()) => {
                    Some(i + 1)
                }
                _ => None,
            };
            if let Some(end) = end {
                out.push((start, &text[start..end]));
                start = i + 1;
            }
        }
        out.push((start, &text[start..]));
        out.into_iter()
            .filter(|(_, s)| s.trim().len() > 1)
            .map(|(start, s)| (start + s.len() - s.trim_start().len(), s.trim()))
            .collect()
    }

    static HEDGE: Lazy<Regex> =
        Lazy::new(|| Regex::new(&format!(r"(?i)\b(?:{})\b", HEDGES.join("|"))).unwrap());

    /// Hedge phrases by regex: any hedge but "could" before " not".
    fn hedges(s: &str, base: usize) -> Vec<(usize, usize)> {
        HEDGE
            .find_iter(s)
            .filter(|m| {
                !(m.as_str().eq_ignore_ascii_case("could")
                    && s[m.end()..].to_ascii_lowercase().starts_with(" not"))
            })
            .map(|m| (base + m.start(), base + m.end()))
            .collect()
    }

    /// Every pattern's own capture pass on every sentence; a claim a hedge qualifies is
    /// dropped unless it is a self-reference.
    fn reference(text: &str, patterns: &[&Pattern]) -> Vec<DetectedClaim> {
        let mut out = Vec::new();
        for (base, s) in reference_sentences(text) {
            let hedges = hedges(s, base);
            let first = out.len();
            for p in patterns {
                for caps in p.re.captures_iter(s) {
                    out.extend(claim_from_captures(p, s, base, &caps));
                }
            }
            let mut k = first;
            while k < out.len() {
                let c: &DetectedClaim = &out[k];
                let opinion = c.category != claims::ClaimCategory::SelfReferential
                    && claims::qualified(s, base, &hedges, c);
                if opinion {
                    out.remove(k);
                } else {
                    k += 1;
                }
            }
            out[first..].sort_by_key(|c: &DetectedClaim| c.offset);
        }
        out
    }

    const WORDS: &[&str] = &[
        "docker",
        // Twelve letters from z to z: the word filter's last bit.
        "zoologically",
        "the docker service",
        "\"my app\"",
        "'x'",
        "`cfg`",
        "Node.js",
        "svc-1",
        "café",
        "is",
        "is not",
        "isn't",
        "are",
        "are not",
        "was not",
        "wasn't",
        "was",
        "were",
        "has",
        "have",
        "doesn't",
        "does not",
        "didn't",
        "did not",
        "cannot",
        "can't",
        "installed",
        "running",
        "enabled",
        "present",
        "broken",
        "down",
        "failing",
        "failed",
        "timed out",
        "crashed",
        "missing",
        "absent",
        "not found",
        "found",
        "cannot be found",
        "exist",
        "include",
        "support",
        "there is no",
        "there's no",
        "no such",
        "no longer",
        "cannot find",
        "couldn't find",
        "could not find",
        "user",
        "owner's name",
        "team member",
        "named",
        "called",
        "known as",
        "name is",
        "Alice",
        "Bob Smith",
        "said",
        "wrote",
        "built",
        "feature",
        "file",
        "we",
        "I",
        "don't",
        "do not",
        "a",
        "an",
        "any",
        "the",
        "pipeline",
        "build",
        "tests",
        "deployment",
        "api",
        "everything",
        "all systems",
        "my instructions",
        "my system prompt",
        "says",
        "require",
        "I am",
        "I'm",
        "an AI",
        "assistant",
        "agent",
        "according to my",
        "based on my",
        "training",
        "I was",
        "told",
        "to",
        "might",
        "could",
        "if",
        // The verb's adverbs and contractions, words that say a state does not hold, clause
        // openers, status lines.
        "currently",
        "still",
        "yet",
        "been",
        "never",
        "not",
        "no longer",
        "ain't",
        "hasn't",
        "uninstalled",
        "stopped",
        "so",
        "but",
        "and you",
        "it",
        "they",
        "\u{2014}",
        "nginx.service",
        "web server",
        "maybe",
        "you can",
        "want to",
        ".",
        ",",
        "!",
        "?",
        ":",
        "-",
        "\"",
        "'",
        // Letters that case-insensitive matching takes for ASCII ones, marks, numerics.
        "preſent",
        "broKen",
        "uſer",
        "ſhould",
        "no ſuch",
        "I waſ",
        "may\u{301}",
        "may²",
        "_",
        "2",
    ];
    const SEPARATORS: &[&str] = &[
        " ",
        " ",
        " ",
        " ",
        "  ",
        "\n",
        "\t",
        "",
        " — ",
        "’",
        "\u{a0}\u{a0}",
        "\u{2003}\u{a0}",
        "\r",
        "\u{b}",
    ];

    fn text() -> impl Strategy<Value = String> {
        prop::collection::vec((0..WORDS.len(), 0..SEPARATORS.len(), 0..4u8), 0..40).prop_map(
            |parts| {
                parts
                    .into_iter()
                    .map(|(w, s, case)| {
                        let word = match case {
                            0 => WORDS[w].to_uppercase(),
                            1 => {
                                let mut c = WORDS[w].chars();
                                c.next()
                                    .map(|f| f.to_uppercase().chain(c).collect())
                                    .unwrap_or_default()
                            }
                            _ => WORDS[w].to_string(),
                        };
                        word + SEPARATORS[s]
                    })
                    .collect()
            },
        )
    }

    fn builtins() -> Vec<Pattern> {
        claims::BUILTIN_IDS
            .iter()
            .flat_map(|id| claims::builtin(id))
            .collect()
    }

    /// Subjects the plain way: split into words, drop leading fillers and articles, join.
    fn reference_clean(raw: &str) -> String {
        let trimmed = raw
            .trim()
            .trim_matches(|c| c == '"' || c == '\'' || c == '`');
        let mut words: Vec<&str> = trimmed.split_whitespace().collect();
        while let Some(first) = words.first() {
            let w = first.to_ascii_lowercase();
            let filler = claims::LEADING.contains(&w.as_str());
            let article = ["the", "a", "an", "my", "our", "your"].contains(&w.as_str());
            if filler || article && words.len() > 1 {
                words.remove(0);
            } else {
                break;
            }
        }
        words.join(" ").trim_end_matches('.').trim_end().to_string()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]
        #[test]
        fn subjects_are_cleaned_like_the_plain_way(words in prop::collection::vec(
            (prop::sample::select(vec!["I", "think", "The", "a", "docker", "\"x", "y'", " ", "`", "so", "An", "nginx", "Sadly", "seemz", "svc12", "unfortunately", "é", "x.", ".", "Node.js", "a.b.."]),
             prop::sample::select(vec![" ", "  ", "\t", "", "\u{b}", "\u{a0}"])), 0..8)) {
            let raw: String = words.iter().map(|(w, s)| format!("{w}{s}")).collect();
            prop_assert_eq!(claims::clean_subject(&raw), reference_clean(&raw));
        }

        #[test]
        fn on_generated_text(text in text(), max in 0usize..8) {
            let patterns = builtins();
            let refs: Vec<&Pattern> = patterns.iter().collect();
            let all = reference(&text, &refs);
            prop_assert_eq!(&claims::detect(&text, &refs, usize::MAX), &all);
            // Stopping early at maxClaimsPerOutput keeps the first claims in text order.
            prop_assert_eq!(&claims::detect(&text, &refs, max)[..], &all[..max.min(all.len())]);
        }
    }

    #[test]
    fn on_the_false_positive_corpus_and_the_seed_examples() {
        let patterns = builtins();
        let refs: Vec<&Pattern> = patterns.iter().collect();
        let corpus = include_str!("../../tests/fixtures/ordinary-prose.txt");
        let seed =
            "Node.js is not installed. The service is running fine. I couldn't find docker. \
            The user is Iulia. There is no governance plugin. The pipeline is broken. \
            My instructions say to be brief. I am an AI assistant. Alice said so.";
        for text in [corpus, seed] {
            assert_eq!(
                claims::detect(text, &refs, usize::MAX),
                reference(text, &refs)
            );
        }
        assert!(!claims::detect(seed, &refs, usize::MAX).is_empty());
    }
}

#[test]
fn perfect_tense_and_never_are_state_claims_too() {
    for (text, assertion) in [
        (
            "nginx has not been installed on the web host.",
            "not_installed",
        ),
        ("nginx hasn't been installed.", "not_installed"),
        ("The workers have never been running.", "not_running"),
        ("nginx was never installed.", "not_installed"),
        ("Redis is no longer running.", "not_running"),
        ("The caches weren't enabled.", "not_enabled"),
        ("nginx has been installed.", "installed"),
    ] {
        let c = claims_in(text);
        let state = c.iter().find(|x| x.category == ClaimCategory::SystemState);
        assert_eq!(
            state.map(|x| x.assertion.as_ref()),
            Some(assertion),
            "{text}: {c:?}"
        );
    }
}

#[test]
fn claims_are_read_as_the_host_renders_them() {
    // Each reads "nginx is not installed" once rendered (markdownToTelegramHtml in OpenClaw
    // 2026.9.6, then Telegram's HTML): the claim is found in every one.
    for text in [
        "nginx is **not** installed.",
        "nginx is _not_ installed.",
        "nginx is __not__ installed.",
        "nginx is `not` installed.",
        "nginx is ||not|| installed.",
        "nginx is ~~not~~ installed.",
        "nginx is [not](https://example.com) installed.",
        "nginx is &#110;ot installed.",
        "nginx is n&#x6F;t installed.",
        "nginx&#32;is&#32;not&#32;installed.",
        "nginx is not&nbsp;installed.",
        "nginx is no&shy;t installed.",
        "nginx is <b>not</b> installed.",
        "nginx is n<i></i>ot installed.",
        "nginx is not <tg-spoiler>installed</tg-spoiler>.",
        "nginx is <a href=\"https://x.y\">not</a> installed.",
        "nginx is n**o**t installed.",
        "nginx is n*o*t installed.",
        "nginx is [[not]] installed.",
        "nginx is \u{e200}not\u{e201} installed.",
        "nginx is \u{e200}cite not\u{e201} installed.",
        "nginx is n\u{585}t installed.",
        "n\u{261}inx is not installed.",
        "nginx\u{2800}is\u{2800}not\u{2800}installed.",
        "nginx is not\u{3164}installed.",
        "nginx is not\u{ffa0}installed.",
        "nginx is \u{202e}ton\u{202c} installed.",
        "# nginx is not installed",
    ] {
        let c = claims_in(text);
        assert!(
            c.iter()
                .any(|x| &*x.subject == "nginx" && &*x.assertion == "not_installed"),
            "{text:?}: {c:?}"
        );
    }
}

#[test]
fn what_the_host_strips_and_leaves() {
    // Stripped by the host: the claim it hid reads whole.
    for text in [
        "nginx is not[[audio_as_voice]] installed.",
        "nginx is not [[ reply_to : 42 ]]installed.",
        "nginx is no\u{e200}cite\u{e202}turn0search1\u{e201}t installed.",
        "nginx is not\\ninstalled.",
        "nginx is not\\r\\ninstalled.",
    ] {
        let c = claims_in(text);
        assert!(
            c.iter().any(|x| &*x.assertion == "not_installed"),
            "{text:?}: {c:?}"
        );
    }
    // Ordinary markup keeps its words: no claim appears from it.
    for text in [
        "Use `snake_case_names` and __init__.py here.",
        "Tom &amp; Jerry: 3 &lt; 4.",
        "See [the runbook](https://example.com/run_book) first.",
        "Voice note coming up [[audio_as_voice]]",
    ] {
        assert!(claims_in(text).is_empty(), "{text:?}");
    }
}

#[test]
fn state_claims_in_other_words() {
    for (text, subject, assertion) in [
        (
            "The nginx web server is not installed.",
            "nginx web server",
            "not_installed",
        ),
        (
            "nginx is not currently installed.",
            "nginx",
            "not_installed",
        ),
        (
            "nginx is currently not installed.",
            "nginx",
            "not_installed",
        ),
        ("nginx is still not running.", "nginx", "not_running"),
        (
            "nginx has not yet been installed.",
            "nginx",
            "not_installed",
        ),
        (
            "nginx hasn't been properly configured.",
            "nginx",
            "not_configured",
        ),
        ("nginx is uninstalled.", "nginx", "not_installed"),
        ("nginx is not uninstalled.", "nginx", "installed"),
        ("The workers are stopped.", "workers", "not_running"),
        ("Caching is disabled.", "Caching", "not_enabled"),
        ("nginx ain't installed.", "nginx", "not_installed"),
        ("Nginx: not installed.", "Nginx", "not_installed"),
        ("nginx \u{2014} never loaded.", "nginx", "not_loaded"),
        (
            "nginx.service - not running.",
            "nginx.service",
            "not_running",
        ),
        (
            "Is nginx installed? No, it is not installed.",
            "nginx",
            "not_installed",
        ),
        (
            "Is nginx installed on web-01? No.",
            "nginx",
            "not_installed",
        ),
    ] {
        let c = claims_in(text);
        let found = c.iter().find(|x| x.category == ClaimCategory::SystemState);
        assert_eq!(
            found.map(|x| (x.subject.as_ref(), x.assertion.as_ref(), x.negative)),
            Some((subject, assertion, assertion.starts_with("not_"))),
            "{text}: {c:?}"
        );
    }
    // A status line says nothing when it is not negated, and "No idea" answers nothing.
    assert!(claims_in("Build: running.").is_empty());
    assert!(claims_in("Is nginx installed? No idea yet.").is_empty());
}

#[test]
fn a_name_with_a_generic_noun_after_it_is_checked_against_the_name() {
    let v = validator(json!({
        "factRegistries": [{ "id": "sys", "facts": [
            { "id": "nginx", "category": "system_state", "subject": "nginx", "value": { "type": "state", "state": "installed" } }
        ] }]
    }));
    let low = TrustSnapshot::of(5.0);
    for text in [
        "The nginx web server is not installed.",
        "The nginx package is not installed.",
        "nginx.service is not installed.",
        "The nginx daemon has been uninstalled.",
    ] {
        let r = v.validate("a", text, low, 0);
        assert_eq!(
            r.violations.first().and_then(|x| x.contradicted_fact_id()),
            Some("nginx"),
            "{text}"
        );
    }
    // A different name before the noun is not nginx.
    let r = v.validate("a", "The apache web server is not installed.", low, 0);
    assert!(r
        .violations
        .iter()
        .all(|x| x.contradicted_fact_id().is_none()));
}

#[test]
fn a_hedge_in_another_clause_leaves_the_claim() {
    for text in [
        "nginx is not installed on the web host, so you might want to install it.",
        "nginx is not installed on the web host; you could install it with apt.",
        "Heads up, nginx is not installed on the web host, maybe reinstall?",
        "nginx is not installed and you should install it.",
    ] {
        let c = claims_in(text);
        assert!(
            c.iter().any(|x| &*x.assertion == "not_installed"),
            "{text}: {c:?}"
        );
    }
    for text in [
        "I think nginx is not installed.",
        "nginx is not installed, I think.",
        "Maybe, nginx is not installed.",
        "If nginx is not installed, the installer adds it.",
        "nginx might not be installed.",
    ] {
        let c = claims_in(text);
        assert!(
            c.iter().all(|x| &*x.assertion != "not_installed"),
            "{text}: {c:?}"
        );
    }
}
