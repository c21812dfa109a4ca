//! `outputValidation` (seed 000 §10) with the TypeScript plugin's aliases: `enabledDetectors`
//! beside `builtinDetectors`, `unverifiedClaimPolicy` at the top beside `defaults.*`, and flat
//! facts `{subject, predicate, value, source?}` beside typed ones.

use super::claims::{self, ClaimCategory, Pattern};
use super::facts::{Fact, FactValue};
use super::{AgentOverride, ClaimPolicy, Profile};
use crate::config::error::{index, Issues};
use crate::config::reader::{array, string_list, Obj};
use crate::policy::glob::Glob;
use crate::policy::pattern;
use serde_json::Value;

#[derive(Debug, Clone)]
pub struct OutputConfig {
    pub present: bool,
    pub enabled: bool,
    pub min_text_length: usize,
    pub exempt: Vec<Glob>,
    pub trust_exempt_threshold: f64,
    pub facts: Vec<Fact>,
    pub files: Vec<FileRegistry>,
    /// Registries off by default (`enabled: false`); `additionalRegistries` turns them on per agent.
    pub disabled_registries: Vec<String>,
    pub custom: Vec<Pattern>,
    pub builtin_detectors: Vec<String>,
    /// Given `defaults` replace the standard tier's row of §9.2.
    pub defaults: Option<(ClaimPolicy, ClaimPolicy, ClaimPolicy)>,
    pub overrides: Vec<AgentOverride>,
    pub hook_message_sending: bool,
    pub hook_before_message_write: bool,
    pub hook_llm_output: bool,
    pub max_eval_us: u64,
    pub max_claims: usize,
    pub max_text_length: usize,
    pub bridge: Option<super::bridge::BridgeConfig>,
    /// Facts and registry files not applied yet (reported once, never fatal: existing configs
    /// carry them).
    pub unsupported_facts: Vec<String>,
    /// External communication (`llmValidator`, seed 001).
    pub external: ExternalConfig,
}

const KEYS: [&str; 15] = [
    "enabled",
    "minTextLength",
    "exempt",
    "trustExemptThreshold",
    "factRegistries",
    "customDetectors",
    "builtinDetectors",
    "enabledDetectors",
    "defaults",
    "unverifiedClaimPolicy",
    "agentOverrides",
    "hooks",
    "performance",
    "traceBridge",
    "llmValidator",
];

pub fn parse(o: &Obj, issues: &mut Issues) -> OutputConfig {
    o.check_keys(&KEYS, issues);
    let external = llm_validator(&o.child("llmValidator", issues), issues);
    let mut facts = Vec::new();
    let mut files = Vec::new();
    let mut disabled = Vec::new();
    let mut unsupported = Vec::new();
    let regs_path = o.path_of("factRegistries");
    for (i, r) in array(o.get("factRegistries"), &regs_path, issues)
        .iter()
        .enumerate()
    {
        let reg = Obj::new(Some(r), index(&regs_path, i), issues);
        registry(
            &reg,
            &mut facts,
            &mut files,
            &mut disabled,
            &mut unsupported,
            issues,
        );
    }
    let hooks = o.child("hooks", issues);
    hooks.check_keys(
        &["messageSending", "beforeMessageWrite", "llmOutput"],
        issues,
    );
    let perf = o.child("performance", issues);
    perf.check_keys(
        &["maxEvalUs", "maxClaimsPerOutput", "maxTextLength"],
        issues,
    );
    OutputConfig {
        present: o.is_present(),
        enabled: o.bool("enabled", true, issues),
        min_text_length: o.int("minTextLength", 10, 0, 100_000, issues) as usize,
        exempt: string_list(o.get("exempt"), &o.path_of("exempt"), issues)
            .iter()
            .map(|s| Glob::new(s))
            .collect(),
        trust_exempt_threshold: o.num("trustExemptThreshold", 90.0, 0.0, 100.0, issues),
        facts,
        files,
        disabled_registries: disabled,
        custom: custom_detectors(o, issues),
        builtin_detectors: builtin_detectors(o, issues),
        defaults: defaults(o, issues),
        overrides: overrides(o, issues),
        hook_message_sending: hooks.bool("messageSending", true, issues),
        hook_before_message_write: hooks.bool("beforeMessageWrite", true, issues),
        hook_llm_output: hooks.bool("llmOutput", false, issues),
        max_eval_us: perf.int("maxEvalUs", 8000, 1, 10_000_000, issues),
        max_claims: perf.int("maxClaimsPerOutput", 50, 1, 10_000, issues) as usize,
        max_text_length: perf.int("maxTextLength", 10_000, 1, 10_000_000, issues) as usize,
        bridge: bridge(o, issues),
        unsupported_facts: unsupported,
        external,
    }
}

/// Seed 001's gate for external communication (§8.1): which sends are external, and whether a
/// model judges them after the claim and fact stages.
#[derive(Debug, Clone, PartialEq)]
pub struct ExternalConfig {
    /// A model judges external sends (the claim and fact stages judge them either way).
    pub llm: bool,
    /// A model other than the client's own (the host honours it with `allowModelOverride`).
    pub model: Option<String>,
    pub max_tokens: u32,
    pub timeout_ms: u64,
    /// `message` channels that reach people outside (seed 001 §4.2.3).
    pub channels: Vec<String>,
    /// Commands that post outside, as words: `bird tweet` is `["bird", "tweet"]`.
    pub commands: Vec<Vec<String>>,
    /// A failed, late or refused answer blocks the send instead of letting the earlier stages
    /// decide.
    pub fail_closed: bool,
}

const EXTERNAL_CHANNELS: [&str; 3] = ["twitter", "linkedin", "email"];
const EXTERNAL_COMMANDS: [&str; 2] = ["bird tweet", "bird reply"];

fn llm_validator(o: &Obj, issues: &mut Issues) -> ExternalConfig {
    o.check_keys(
        &[
            "enabled",
            "model",
            "maxTokens",
            "timeoutMs",
            "externalChannels",
            "externalCommands",
            "failMode",
        ],
        issues,
    );
    let list = |key: &str, default: &[&str], issues: &mut Issues| match o.get(key) {
        Some(v) => string_list(Some(v), &o.path_of(key), issues),
        None => default.iter().map(|s| s.to_string()).collect(),
    };
    let channels = list("externalChannels", &EXTERNAL_CHANNELS, issues);
    let commands = list("externalCommands", &EXTERNAL_COMMANDS, issues);
    let commands_path = o.path_of("externalCommands");
    ExternalConfig {
        // Present means on (the seed's example writes `enabled: true`; an empty object asks
        // for the gate too).
        llm: o.is_present() && o.bool("enabled", true, issues),
        model: o.string("model", issues),
        max_tokens: o.int("maxTokens", 500, 1, 100_000, issues) as u32,
        timeout_ms: o.int("timeoutMs", 5000, 100, 600_000, issues),
        channels: channels.iter().map(|c| c.to_lowercase()).collect(),
        commands: commands
            .iter()
            .enumerate()
            .filter_map(|(i, c)| {
                let words: Vec<String> = c.split_whitespace().map(str::to_string).collect();
                if words.is_empty() {
                    issues.push(
                        &index(&commands_path, i),
                        "an external command needs a program",
                    );
                }
                (!words.is_empty()).then_some(words)
            })
            .collect(),
        fail_closed: o.choice("failMode", "open", &["open", "closed"], issues) == "closed",
    }
}

/// `~/` at the start of a path is the user's home directory.
pub fn expand_home(path: &str) -> std::path::PathBuf {
    match (path.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => std::path::PathBuf::from(home).join(rest),
        _ => std::path::PathBuf::from(path),
    }
}

/// A registry kept in a file (seed 001 R-003), in either format of §8.3.
#[derive(Debug, Clone)]
pub struct FileRegistry {
    pub path: std::path::PathBuf,
    pub id: Option<String>,
    pub config_path: String,
    /// The bridge's output: absent until the bridge learns a fact, which is no failure.
    pub optional: bool,
}

/// Facts of one registry file's JSON (`{id?, name?, generatedAt?, facts: [...]}`), typed or flat.
pub fn parse_registry_file(
    v: &Value,
    default_id: &str,
) -> Result<(Vec<Fact>, Vec<String>), String> {
    let mut issues = Issues::default();
    let o = Obj::new(Some(v), String::new(), &mut issues);
    let id = o
        .string("id", &mut issues)
        .unwrap_or_else(|| default_id.to_string());
    let mut facts = Vec::new();
    let mut unsupported = Vec::new();
    for (i, f) in array(o.get("facts"), "facts", &mut issues)
        .iter()
        .enumerate()
    {
        let fo = Obj::new(Some(f), index("facts", i), &mut issues);
        let parsed = if fo.get("predicate").is_some() {
            flat_fact(&fo, &id, &mut unsupported, &mut issues)
        } else {
            typed_fact(&fo, &id, &mut issues)
        };
        facts.extend(parsed);
    }
    match issues.into_result(()) {
        Ok(()) => Ok((facts, unsupported)),
        Err(e) => Err(e.to_string()),
    }
}

/// One fact for `updateFact` / `governance.facts.update`, typed or flat.
pub fn parse_fact(v: &Value, registry: &str) -> Result<Fact, String> {
    let mut issues = Issues::default();
    let o = Obj::new(Some(v), "fact".into(), &mut issues);
    let mut unsupported = Vec::new();
    let fact = if o.get("predicate").is_some() {
        flat_fact(&o, registry, &mut unsupported, &mut issues)
    } else {
        typed_fact(&o, registry, &mut issues)
    };
    if let Some(u) = unsupported.first() {
        issues.push("fact.predicate", format!("not supported: {u}"));
    }
    issues
        .into_result(())
        .map_err(|e| e.to_string())
        .and_then(|_| fact.ok_or_else(|| "fact: not a fact".to_string()))
}

fn registry(
    r: &Obj,
    facts: &mut Vec<Fact>,
    files: &mut Vec<FileRegistry>,
    disabled: &mut Vec<String>,
    unsupported: &mut Vec<String>,
    issues: &mut Issues,
) {
    r.check_keys(&["id", "name", "facts", "enabled", "filePath"], issues);
    if let Some(file) = r.string("filePath", issues) {
        // Loaded (and reloaded on change) by `registries`; a missing file is reported, not fatal.
        if r.bool("enabled", true, issues) {
            files.push(FileRegistry {
                path: expand_home(&file),
                id: r.string("id", issues),
                config_path: r.path.clone(),
                optional: false,
            });
        }
        return;
    }
    let id = r.string("id", issues).unwrap_or_default();
    if id.is_empty() {
        issues.push(&r.path_of("id"), "a fact registry needs an id");
    }
    // A disabled registry is kept: agent overrides can turn it on (`additionalRegistries`).
    if !r.bool("enabled", true, issues) {
        disabled.push(id.clone());
    }
    let path = r.path_of("facts");
    for (i, f) in array(r.get("facts"), &path, issues).iter().enumerate() {
        let fo = Obj::new(Some(f), index(&path, i), issues);
        let parsed = if fo.get("predicate").is_some() {
            flat_fact(&fo, &id, unsupported, issues)
        } else {
            typed_fact(&fo, &id, issues)
        };
        facts.extend(parsed);
    }
}

fn subject_check(o: &Obj, subject: &str, is_regex: bool, issues: &mut Issues) {
    if is_regex {
        pattern::compile(subject, &o.path_of("subject"), true, issues);
    }
}

fn typed_fact(o: &Obj, registry: &str, issues: &mut Issues) -> Option<Fact> {
    o.check_keys(
        &[
            "id",
            "category",
            "subject",
            "subjectIsRegex",
            "value",
            "description",
            "ttlSeconds",
            "updatedAt",
        ],
        issues,
    );
    let category = category(o, "category", issues)?;
    let subject = o.string("subject", issues)?;
    let subject_is_regex = o.bool("subjectIsRegex", false, issues);
    subject_check(o, &subject, subject_is_regex, issues);
    let v = o.child("value", issues);
    let value = match v.string("type", issues).as_deref() {
        Some("exists") => FactValue::Exists(v.bool("exists", true, issues)),
        Some("state") => FactValue::State(v.string("state", issues).unwrap_or_default()),
        Some("name") => FactValue::Name {
            correct: v.string("correctName", issues).unwrap_or_default(),
            aliases: string_list(v.get("aliases"), &v.path_of("aliases"), issues),
        },
        Some("status") => FactValue::Status(
            v.choice(
                "status",
                "operational",
                &["operational", "degraded", "down"],
                issues,
            )
            .into(),
        ),
        Some("capability") => FactValue::Capability(v.bool("supported", true, issues)),
        other => {
            issues.push(
                &v.path_of("type"),
                format!("must be exists | state | name | status | capability, got {other:?}"),
            );
            return None;
        }
    };
    o.string("description", issues);
    let updated_at_ms = o.string("updatedAt", issues).and_then(|s| {
        let t = chrono::DateTime::parse_from_rfc3339(&s)
            .ok()
            .map(|t| t.timestamp_millis());
        if t.is_none() {
            issues.push(&o.path_of("updatedAt"), "must be an ISO 8601 time");
        }
        t
    });
    let (id, ttl_seconds) = id_and_ttl(o, format!("{registry}-{subject}"), issues);
    let registry = registry.to_string();
    Some(Fact {
        id: id.into(),
        registry,
        category,
        subject,
        subject_is_regex,
        value,
        ttl_seconds,
        updated_at_ms,
    })
}

/// The keys typed and flat facts share: `id` (or a default from the registry and subject) and
/// `ttlSeconds`.
fn id_and_ttl(o: &Obj, default_id: String, issues: &mut Issues) -> (String, Option<u64>) {
    let id = o.string("id", issues).unwrap_or(default_id);
    let ttl = o
        .get("ttlSeconds")
        .map(|_| o.int("ttlSeconds", 0, 0, 10_000_000_000, issues));
    (id, ttl)
}

/// `{subject, predicate, value, source?}` (seed 001 §8.3), mapped onto the typed categories.
fn flat_fact(
    o: &Obj,
    registry: &str,
    unsupported: &mut Vec<String>,
    issues: &mut Issues,
) -> Option<Fact> {
    // `subjectIsRegex` too: the host fills the manifest's defaults into every fact.
    o.check_keys(
        &[
            "id",
            "subject",
            "subjectIsRegex",
            "predicate",
            "value",
            "source",
            "ttlSeconds",
        ],
        issues,
    );
    let subject = o.string("subject", issues)?;
    let subject_is_regex = o.bool("subjectIsRegex", false, issues);
    subject_check(o, &subject, subject_is_regex, issues);
    let predicate = o.string("predicate", issues)?.to_lowercase();
    let truth = match o.get("value") {
        Some(Value::Bool(b)) => Some(*b),
        Some(Value::String(s)) if s == "true" || s == "false" => Some(s == "true"),
        _ => None,
    };
    let text = o.get("value").and_then(Value::as_str).map(str::to_string);
    let (category, value) = match (predicate.as_str(), truth, text) {
        (
            "installed" | "running" | "configured" | "enabled" | "available" | "present",
            Some(t),
            _,
        ) => (
            ClaimCategory::SystemState,
            FactValue::State(if t {
                predicate.clone()
            } else {
                format!("not_{predicate}")
            }),
        ),
        ("state", _, Some(s)) => (ClaimCategory::SystemState, FactValue::State(s)),
        ("exists", Some(t), _) => (ClaimCategory::Existence, FactValue::Exists(t)),
        ("supports" | "supported", Some(t), _) => {
            (ClaimCategory::Capability, FactValue::Capability(t))
        }
        ("status", _, Some(s)) => (ClaimCategory::OperationalStatus, FactValue::Status(s)),
        ("name" | "is_named" | "named", _, Some(n)) => (
            ClaimCategory::EntityName,
            FactValue::Name {
                correct: n,
                aliases: Vec::new(),
            },
        ),
        ("count" | "total" | "number" | "amount", _, _) => match number(o.get("value")) {
            Some(n) => (ClaimCategory::Quantity, FactValue::Number(n)),
            None => {
                unsupported.push(format!(
                    "{}: {subject} {predicate}: needs a numeric value",
                    o.path
                ));
                return None;
            }
        },
        _ => {
            let why = unsupported_why(&predicate);
            unsupported.push(format!("{}: {subject} {predicate}: {why}", o.path));
            return None;
        }
    };
    let (id, ttl_seconds) = id_and_ttl(o, format!("{registry}:{subject}:{predicate}"), issues);
    let registry = registry.to_string();
    Some(Fact {
        id: id.into(),
        registry,
        category,
        subject,
        subject_is_regex,
        value,
        ttl_seconds,
        updated_at_ms: None,
    })
}

/// Flat predicates by the value they need (seed 001 §8.3 mapped onto the typed categories).
const TRUTH_PREDICATES: [&str; 9] = [
    "installed",
    "running",
    "configured",
    "enabled",
    "available",
    "present",
    "exists",
    "supports",
    "supported",
];
const TEXT_PREDICATES: [&str; 5] = ["state", "status", "name", "is_named", "named"];

/// Why a flat fact that matched no mapping is not applied: its value does not suit a known
/// predicate, or the predicate is unknown.
fn unsupported_why(predicate: &str) -> String {
    if TRUTH_PREDICATES.contains(&predicate) {
        "needs true or false as its value".into()
    } else if TEXT_PREDICATES.contains(&predicate) {
        "needs a text value".into()
    } else {
        format!(
            "unknown predicate \"{predicate}\" (known: {}, {}, count)",
            TRUTH_PREDICATES.join(", "),
            TEXT_PREDICATES.join(", ")
        )
    }
}

fn category(o: &Obj, key: &str, issues: &mut Issues) -> Option<ClaimCategory> {
    let name = o.string(key, issues)?;
    let c = ClaimCategory::parse(&name);
    if c.is_none() {
        issues.push(
            &o.path_of(key),
            format!(
                "unknown claim category \"{name}\" (known: {})",
                ClaimCategory::NAMES.join(", ")
            ),
        );
    }
    c
}

fn custom_detectors(o: &Obj, issues: &mut Issues) -> Vec<Pattern> {
    let path = o.path_of("customDetectors");
    let mut out = Vec::new();
    for (i, d) in array(o.get("customDetectors"), &path, issues)
        .iter()
        .enumerate()
    {
        let d = Obj::new(Some(d), index(&path, i), issues);
        d.check_keys(
            &[
                "id",
                "category",
                "patterns",
                "subjectGroup",
                "assertion",
                "negative",
                "confidence",
            ],
            issues,
        );
        let (Some(id), Some(category)) = (d.string("id", issues), category(&d, "category", issues))
        else {
            issues.push(&d.path, "a custom detector needs an id and a category");
            continue;
        };
        let subject_group = d
            .string("subjectGroup", issues)
            .unwrap_or_else(|| "1".into());
        let ppath = d.path_of("patterns");
        for (j, p) in string_list(d.get("patterns"), &ppath, issues)
            .iter()
            .enumerate()
        {
            let Some(re) = pattern::compile(p, &index(&ppath, j), true, issues) else {
                continue;
            };
            let has_group = subject_group.parse::<usize>().map_or_else(
                |_| {
                    re.capture_names()
                        .any(|n| n == Some(subject_group.as_str()))
                },
                |g| g < re.captures_len(),
            );
            if !has_group {
                issues.push(
                    &index(&ppath, j),
                    format!("pattern has no capture group \"{subject_group}\" for the subject"),
                );
                continue;
            }
            out.push(Pattern {
                re,
                category,
                detector_id: id.as_str().into(),
                assertion: Some(
                    d.string("assertion", issues)
                        .unwrap_or_else(|| "asserted".into())
                        .into(),
                ),
                negative: d.bool("negative", false, issues),
                confidence: d.num("confidence", 0.8, 0.0, 1.0, issues),
                subject_group: subject_group.clone(),
                fast: None,
            });
        }
    }
    out
}

/// `builtinDetectors: {systemState: false, …}` or the alias `enabledDetectors: ["systemState", …]`.
fn builtin_detectors(o: &Obj, issues: &mut Issues) -> Vec<String> {
    if o.get("enabledDetectors").is_some() {
        let path = o.path_of("enabledDetectors");
        let list = string_list(o.get("enabledDetectors"), &path, issues);
        for (i, id) in list.iter().enumerate() {
            if !claims::BUILTIN_IDS.contains(&id.as_str()) {
                issues.push(
                    &index(&path, i),
                    format!(
                        "unknown detector \"{id}\" (known: {})",
                        claims::BUILTIN_IDS.join(", ")
                    ),
                );
            }
        }
        return list;
    }
    let b = o.child("builtinDetectors", issues);
    b.check_keys(&claims::BUILTIN_IDS, issues);
    claims::BUILTIN_IDS
        .iter()
        .filter(|id| b.bool(id, true, issues))
        .map(|s| s.to_string())
        .collect()
}

fn policy(o: &Obj, key: &str, issues: &mut Issues) -> Option<ClaimPolicy> {
    o.get(key)?;
    ClaimPolicy::parse(o.choice(key, "flag", &["ignore", "flag", "block"], issues))
}

fn defaults(o: &Obj, issues: &mut Issues) -> Option<(ClaimPolicy, ClaimPolicy, ClaimPolicy)> {
    let d = o.child("defaults", issues);
    d.check_keys(
        &[
            "unverifiedClaimPolicy",
            "contradictionPolicy",
            "selfReferentialPolicy",
        ],
        issues,
    );
    let top = policy(o, "unverifiedClaimPolicy", issues);
    if !d.is_present() && top.is_none() {
        return None;
    }
    let standard = Profile::for_tier(crate::trust::TrustTier::Standard);
    Some((
        policy(&d, "unverifiedClaimPolicy", issues)
            .or(top)
            .unwrap_or(standard.unverified),
        policy(&d, "contradictionPolicy", issues).unwrap_or(standard.contradiction),
        policy(&d, "selfReferentialPolicy", issues).unwrap_or(standard.self_referential),
    ))
}

fn overrides(o: &Obj, issues: &mut Issues) -> Vec<AgentOverride> {
    let path = o.path_of("agentOverrides");
    array(o.get("agentOverrides"), &path, issues)
        .iter()
        .enumerate()
        .filter_map(|(i, v)| {
            let a = Obj::new(Some(v), index(&path, i), issues);
            a.check_keys(
                &[
                    "agent",
                    "profile",
                    "unverifiedClaimPolicy",
                    "contradictionPolicy",
                    "selfReferentialPolicy",
                    "additionalRegistries",
                    "excludeRegistries",
                ],
                issues,
            );
            let additional = string_list(
                a.get("additionalRegistries"),
                &a.path_of("additionalRegistries"),
                issues,
            );
            let exclude = string_list(
                a.get("excludeRegistries"),
                &a.path_of("excludeRegistries"),
                issues,
            );
            let agent = a.string("agent", issues)?;
            let profile_name = a.get("profile").map(|_| {
                a.choice(
                    "profile",
                    "standard",
                    &["strict", "standard", "lenient", "disabled"],
                    issues,
                )
            });
            Some(AgentOverride {
                agent: Glob::new(&agent),
                disabled: profile_name == Some("disabled"),
                profile: profile_name.and_then(Profile::named),
                unverified: policy(&a, "unverifiedClaimPolicy", issues),
                contradiction: policy(&a, "contradictionPolicy", issues),
                self_referential: policy(&a, "selfReferentialPolicy", issues),
                additional,
                exclude,
            })
        })
        .collect()
}

/// `traceBridge: {enabled?, findingsDir, outputFile?, intervalSeconds?, registryId?}` (seed 001 R-002).
fn bridge(o: &Obj, issues: &mut Issues) -> Option<super::bridge::BridgeConfig> {
    let b = o.child("traceBridge", issues);
    if !b.is_present() {
        return None;
    }
    b.check_keys(
        &[
            "enabled",
            "findingsDir",
            "outputFile",
            "intervalSeconds",
            "registryId",
        ],
        issues,
    );
    let dir = b.string("findingsDir", issues);
    if dir.is_none() {
        issues.push(
            &b.path_of("findingsDir"),
            "required: the directory the trace analyzer writes findings to",
        );
    }
    Some(super::bridge::BridgeConfig {
        enabled: b.bool("enabled", true, issues),
        findings_dir: expand_home(&dir?),
        output_file: b.string("outputFile", issues).map(|f| expand_home(&f)),
        interval_seconds: b.int("intervalSeconds", 300, 5, 86_400, issues),
        registry_id: b
            .string("registryId", issues)
            .unwrap_or_else(|| "trace-learned".into()),
    })
}

/// A number, or a string holding one (`"255908"`, `"255,908"`).
fn number(v: Option<&Value>) -> Option<f64> {
    match v? {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.replace([',', '_'], "").trim().parse().ok(),
        _ => None,
    }
}
