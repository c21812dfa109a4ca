//! The config's sections, each read with its defaults (seed 002 §4.2) and its aliases.

use super::error::Issues;
use super::reader::{array, kind, number_in, string_list, Obj};
use crate::policy::builtins::{BuiltinsConfig, NightMode, OpaqueAction};
use crate::policy::conditions::parse_zone;
use crate::policy::conditions::time::{hhmm, parse_days, TimeWindow};
use crate::policy::model::Fallback;
use crate::policy::pattern;
use crate::trust::TrustConfig;
use regex::Regex;
use serde_json::Value;
use std::collections::HashMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AuditLevel {
    Minimal,
    Standard,
    Verbose,
}

#[derive(Debug, Clone)]
pub struct AuditConfig {
    pub enabled: bool,
    pub retention_days: u64,
    pub verify_on_startup: bool,
    pub redact_patterns: Vec<Regex>,
    pub level: AuditLevel,
    pub flush_interval_ms: u64,
    /// A block's record is on disk (fsync) before the hook returns.
    pub sync_on_block: bool,
    pub checkpoint: CheckpointConfig,
    /// Witnesses whose cosignatures of this log status reports (`audit witness`).
    pub witnesses: Vec<crate::audit::witness::WitnessKey>,
}

#[derive(Debug, Clone)]
pub struct CheckpointConfig {
    pub every_records: u64,
    pub every_seconds: u64,
    /// Ed25519 signing key; default `<state>/governance/keys/audit-signing.key`, outside `audit/`.
    pub key_file: Option<String>,
}

#[derive(Debug, Clone)]
pub struct ApprovalConfig {
    pub enabled: bool,
    pub timeout_seconds: u64,
    pub default_fallback: Fallback,
    pub max_pending_per_agent: u64,
}

/// The host's longest approval wait (`MAX_PLUGIN_APPROVAL_TIMEOUT_MS`, OpenClaw 2026.9.6): a
/// longer timeout would be cut to this without a word, so it is refused.
pub const MAX_APPROVAL_TIMEOUT_S: u64 = 600;

#[derive(Debug, Clone)]
pub struct LlmConfig {
    pub enabled: bool,
    /// Who answers: the host's own model (`api.runtime.llm.complete`) or an OpenAI-compatible
    /// endpoint of the operator's.
    pub backend: LlmBackend,
    /// A failed, late or refused answer denies instead of falling back to the regex verdict.
    pub fail_closed: bool,
    pub endpoint: String,
    pub model: String,
    /// Held in memory only; never logged, audited or returned by status.
    pub api_key: String,
    pub timeout_ms: u64,
    pub escalation_threshold: f64,
    pub min_risk_for_escalation: f64,
    pub max_concurrent: u64,
    pub cache_results: bool,
    pub cache_ttl_seconds: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LlmBackend {
    Host,
    OpenAi,
}

impl LlmBackend {
    pub fn as_str(self) -> &'static str {
        match self {
            LlmBackend::Host => "host",
            LlmBackend::OpenAi => "openai",
        }
    }
}

#[derive(Debug, Clone)]
pub struct PerformanceConfig {
    /// An evaluation that takes longer is logged, counted and flagged in its record; it is not
    /// cut short, because a deny-wins walk stopped early could miss the deny.
    pub max_eval_us: u64,
    pub max_context_messages: usize,
    pub frequency_buffer_size: usize,
}

pub fn time_windows(o: &Obj, issues: &mut Issues) -> HashMap<String, TimeWindow> {
    let mut out = HashMap::new();
    for (name, v) in o.entries() {
        let w = Obj::new(Some(v), o.path_of(name), issues);
        w.check_keys(&["name", "start", "end", "days", "timezone"], issues);
        for key in ["start", "end"] {
            if w.get(key).is_none() {
                issues.push(&w.path_of(key), "required: HH:MM");
            }
        }
        let (start, end) = (hhmm(&w, "start", issues), hhmm(&w, "end", issues));
        let days = w.get("days").and_then(|_| parse_days(&w, "days", issues));
        let tz = w
            .get("timezone")
            .and_then(|_| parse_zone(&w, "timezone", issues));
        w.string("name", issues);
        if let (Some(start), Some(end)) = (start, end) {
            out.insert(
                name.clone(),
                TimeWindow {
                    start,
                    end,
                    days,
                    tz,
                },
            );
        }
    }
    out
}

/// `true`/`false` or an object with `enabled` (default true when the object is given). The
/// settings are checked even when disabled, so a typo is found before someone turns it on.
fn switch<'a>(o: &Obj<'a>, key: &str, allowed: &[&str], issues: &mut Issues) -> (bool, Obj<'a>) {
    match o.get(key) {
        None => (false, Obj::new(None, o.path_of(key), issues)),
        Some(Value::Bool(on)) => (*on, Obj::new(None, o.path_of(key), issues)),
        Some(_) => {
            let child = o.child(key, issues);
            child.check_keys(allowed, issues);
            (child.bool("enabled", true, issues), child)
        }
    }
}

pub fn builtins(o: &Obj, issues: &mut Issues) -> BuiltinsConfig {
    o.check_keys(
        &[
            "nightMode",
            "credentialGuard",
            "productionSafeguard",
            "destructiveGuard",
            "remoteCodeGuard",
            "selfProtection",
            "rateLimiter",
        ],
        issues,
    );
    let (night_on, night) = switch(
        o,
        "nightMode",
        &["enabled", "after", "before", "start", "end", "timezone"],
        issues,
    );
    // `start`/`end` are the TypeScript plugin's names for `after`/`before`.
    let start = time_alias(&night, "after", "start", issues).unwrap_or(23 * 60);
    let end = time_alias(&night, "before", "end", issues).unwrap_or(8 * 60);
    let timezone = parse_zone(&night, "timezone", issues).map(|tz| tz.name().to_string());
    let (rate_on, rate) = switch(o, "rateLimiter", &["enabled", "maxPerMinute"], issues);
    let max_per_minute = rate.int("maxPerMinute", 15, 1, 100_000, issues);
    BuiltinsConfig {
        night_mode: night_on.then_some(NightMode {
            start,
            end,
            timezone,
        }),
        credential_guard: switch(o, "credentialGuard", &["enabled"], issues).0,
        production_safeguard: switch(o, "productionSafeguard", &["enabled"], issues).0,
        destructive_guard: switch(o, "destructiveGuard", &["enabled"], issues).0,
        remote_code_guard: switch(o, "remoteCodeGuard", &["enabled"], issues).0,
        self_protection: o.get("selfProtection").is_none()
            || switch(o, "selfProtection", &["enabled"], issues).0,
        rate_limiter: rate_on.then_some(max_per_minute),
        ..BuiltinsConfig::default()
    }
}

/// `opaqueCommandAction`: escalate by default. A computed command is common in honest scripts
/// (`$EDITOR`, `$(npm bin)/jest`), so deny would break work a human would allow; allow would
/// let every evasion through a variable. Escalation asks the operator, and where no approver
/// exists (CLI runs) the host blocks it.
pub fn opaque_action(root: &Obj, issues: &mut Issues) -> OpaqueAction {
    match root.choice(
        "opaqueCommandAction",
        "escalate",
        &["allow", "escalate", "deny"],
        issues,
    ) {
        "allow" => OpaqueAction::Allow,
        "deny" => OpaqueAction::Deny,
        _ => OpaqueAction::Escalate,
    }
}

fn time_alias(o: &Obj, key: &str, alias: &str, issues: &mut Issues) -> Option<u16> {
    if o.get(key).is_some() && o.get(alias).is_some() {
        issues.push(
            &o.path_of(alias),
            format!("give either {key} or its alias {alias}, not both"),
        );
    }
    hhmm(o, key, issues).or_else(|| hhmm(o, alias, issues))
}

pub fn scores(o: &Obj, issues: &mut Issues) -> HashMap<String, f64> {
    o.entries()
        .filter_map(|(k, v)| Some((k.clone(), number_in(v, &o.path_of(k), 0.0, 100.0, issues)?)))
        .collect()
}

pub fn trust(o: &Obj, issues: &mut Issues) -> TrustConfig {
    o.check_keys(
        &[
            "enabled",
            "defaults",
            "persistIntervalSeconds",
            "decay",
            "weights",
            "maxHistoryPerAgent",
        ],
        issues,
    );
    let decay = o.child("decay", issues);
    decay.check_keys(&["enabled", "inactivityDays", "rate"], issues);
    let weights = o.child("weights", issues);
    weights.check_keys(&WEIGHT_KEYS, issues);
    let w = crate::trust::TrustWeights::default();
    let weight = |key: &str, default: f64, issues: &mut Issues| {
        weights.num(key, default, -1000.0, 1000.0, issues)
    };
    let parsed = crate::trust::TrustWeights {
        age_per_day: weight("agePerDay", w.age_per_day, issues),
        age_max: weight("ageMax", w.age_max, issues),
        success_per_action: weight("successPerAction", w.success_per_action, issues),
        success_max: weight("successMax", w.success_max, issues),
        // A cap, not a weight: negative would forbid earning at all, which `successPerAction: 0` says.
        success_max_per_day: weights.num(
            "successMaxPerDay",
            w.success_max_per_day,
            0.0,
            1000.0,
            issues,
        ),
        violation_penalty: weight("violationPenalty", w.violation_penalty, issues),
        approved_escalation_bonus: weight(
            "approvedEscalationBonus",
            w.approved_escalation_bonus,
            issues,
        ),
        denied_escalation_penalty: weight(
            "deniedEscalationPenalty",
            w.denied_escalation_penalty,
            issues,
        ),
        clean_streak_per_day: weight("cleanStreakPerDay", w.clean_streak_per_day, issues),
        clean_streak_max: weight("cleanStreakMax", w.clean_streak_max, issues),
    };
    let given = o.child("defaults", issues);
    let defaults = if given.is_present() {
        scores(&given, issues)
    } else {
        HashMap::from([("main".to_string(), 60.0), ("*".to_string(), 10.0)])
    };
    TrustConfig {
        enabled: o.bool("enabled", true, issues),
        defaults,
        persist_interval_seconds: o.int("persistIntervalSeconds", 60, 1, 86_400, issues),
        decay_enabled: decay.bool("enabled", true, issues),
        decay_inactivity_days: decay.int("inactivityDays", 30, 1, 3650, issues),
        decay_rate: decay.num("rate", 0.99, 0.0, 1.0, issues),
        weights: parsed,
        max_history_per_agent: o.int("maxHistoryPerAgent", 100, 0, 100_000, issues),
    }
}

const WEIGHT_KEYS: [&str; 10] = [
    "agePerDay",
    "ageMax",
    "successPerAction",
    "successMax",
    "successMaxPerDay",
    "violationPenalty",
    "approvedEscalationBonus",
    "deniedEscalationPenalty",
    "cleanStreakPerDay",
    "cleanStreakMax",
];

pub fn audit(o: &Obj, issues: &mut Issues) -> AuditConfig {
    o.check_keys(
        &[
            "enabled",
            "backend",
            "retentionDays",
            "verifyOnStartup",
            "redactPatterns",
            "level",
            "flushIntervalMs",
            "syncOnBlock",
            "checkpoint",
            "witnesses",
        ],
        issues,
    );
    let path = o.path_of("redactPatterns");
    let redact_patterns = string_list(o.get("redactPatterns"), &path, issues)
        .iter()
        .enumerate()
        .filter_map(|(i, p)| pattern::compile(p, &format!("{path}[{i}]"), false, issues))
        .collect();
    if let Some(b) = o.get("backend").filter(|b| b.as_str() != Some("local")) {
        // Seed 002's NATS backend does not exist yet; accepting it would drop the records an
        // operator expects there.
        issues.push(
            &o.path_of("backend"),
            format!("only \"local\" is available (the NATS backend does not exist yet), got {b}"),
        );
    }
    AuditConfig {
        enabled: o.bool("enabled", true, issues),
        retention_days: o.int("retentionDays", 90, 1, 36_500, issues),
        verify_on_startup: o.bool("verifyOnStartup", true, issues),
        redact_patterns,
        level: match o.choice(
            "level",
            "standard",
            &["minimal", "standard", "verbose"],
            issues,
        ) {
            "minimal" => AuditLevel::Minimal,
            "verbose" => AuditLevel::Verbose,
            _ => AuditLevel::Standard,
        },
        flush_interval_ms: o.int("flushIntervalMs", 1000, 1, 60_000, issues),
        sync_on_block: o.bool("syncOnBlock", true, issues),
        checkpoint: checkpoint(&o.child("checkpoint", issues), issues),
        witnesses: witnesses(o, issues),
    }
}

/// Witness verifier keys, each checked now: a key that cannot be read would show in status as
/// a witness that never cosigned, and a typo would look like a witness that stopped.
fn witnesses(o: &Obj, issues: &mut Issues) -> Vec<crate::audit::witness::WitnessKey> {
    let path = o.path_of("witnesses");
    let mut keys: Vec<crate::audit::witness::WitnessKey> = Vec::new();
    for (i, item) in array(o.get("witnesses"), &path, issues).iter().enumerate() {
        let at = format!("{path}[{i}]");
        let Some(text) = item.as_str() else {
            issues.push(&at, format!("must be a string, got {}", kind(item)));
            continue;
        };
        match crate::audit::witness::WitnessKey::parse(text) {
            Ok(k) if keys.contains(&k) => issues.push(&at, "this witness is listed twice"),
            Ok(k) => keys.push(k),
            Err(e) => issues.push(
                &at,
                format!(
                    "not a witness key (<name>+<hash>+<base64>, as `audit witness` prints it): {e}"
                ),
            ),
        }
    }
    keys
}

fn checkpoint(o: &Obj, issues: &mut Issues) -> CheckpointConfig {
    o.check_keys(&["everyRecords", "everySeconds", "keyFile"], issues);
    CheckpointConfig {
        every_records: o.int("everyRecords", 1000, 1, 10_000_000, issues),
        every_seconds: o.int("everySeconds", 60, 1, 86_400, issues),
        key_file: o.string("keyFile", issues),
    }
}

pub fn approval(o: &Obj, issues: &mut Issues) -> ApprovalConfig {
    for gone in ["channel", "target"] {
        if o.get(gone).is_some() {
            issues.push(
                &o.path_of(gone),
                "not supported: approvals go through the host's own approval flow, which reaches \
                 the Control UI/TUI or a channel with approvals; it cannot be sent elsewhere",
            );
        }
    }
    o.check_keys(
        &[
            "enabled",
            "timeoutSeconds",
            "defaultFallback",
            "maxPendingPerAgent",
            "channel",
            "target",
        ],
        issues,
    );
    let enabled = o.bool("enabled", true, issues);
    let default_fallback = match o.choice("defaultFallback", "deny", &["allow", "deny"], issues) {
        "allow" => Fallback::Allow,
        _ => Fallback::Deny,
    };
    if enabled && default_fallback == Fallback::Allow {
        issues.push(&o.path_of("defaultFallback"), FALLBACK_ALLOW);
    }
    ApprovalConfig {
        enabled,
        timeout_seconds: o.int("timeoutSeconds", 300, 1, MAX_APPROVAL_TIMEOUT_S, issues),
        default_fallback,
        max_pending_per_agent: o.int("maxPendingPerAgent", 3, 1, 1000, issues),
    }
}

/// Why `fallback: "allow"` is refused while approvals go to the host.
pub const FALLBACK_ALLOW: &str = "\"allow\" cannot be honoured: the host denies every approval \
    nobody answers (OpenClaw 2026.9.6); it applies only with approval.enabled: false";

pub fn llm(o: &Obj, issues: &mut Issues) -> LlmConfig {
    o.check_keys(
        &[
            "enabled",
            "backend",
            "failMode",
            "endpoint",
            "model",
            "apiKey",
            "timeoutMs",
            "escalationThreshold",
            "minRiskForEscalation",
            "maxConcurrent",
            "cacheResults",
            "cacheTtlSeconds",
        ],
        issues,
    );
    let enabled = o.bool("enabled", false, issues);
    // Configs written for the TypeScript plugin name an endpoint: that is where they expect
    // answers from. Without one, the host's own model answers (seed 001 §8.1).
    let own_endpoint = o.get("endpoint").is_some() || o.get("apiKey").is_some();
    let backend = match o.choice(
        "backend",
        if own_endpoint { "openai" } else { "host" },
        &["host", "openai"],
        issues,
    ) {
        "openai" => LlmBackend::OpenAi,
        _ => LlmBackend::Host,
    };
    let cfg = llm_settings(o, enabled, backend, issues);
    if enabled && backend == LlmBackend::OpenAi {
        // The backend's own checks (an http(s) base URL without credentials, a model, a key
        // fit for a header), reported at load rather than on the first call.
        if let Err(e) =
            crate::llm::openai::OpenAiBackend::new(&cfg.endpoint, &cfg.model, &cfg.api_key)
        {
            issues.push(&o.path_of("endpoint"), e.to_string());
        }
    }
    cfg
}

fn llm_settings(o: &Obj, enabled: bool, backend: LlmBackend, issues: &mut Issues) -> LlmConfig {
    LlmConfig {
        enabled,
        backend,
        fail_closed: o.choice("failMode", "open", &["open", "closed"], issues) == "closed",
        endpoint: o
            .string("endpoint", issues)
            .unwrap_or_else(|| "http://localhost:11434/v1".into()),
        model: o
            .string("model", issues)
            .unwrap_or_else(|| "mistral:7b".into()),
        api_key: o.string("apiKey", issues).unwrap_or_default(),
        timeout_ms: o.int("timeoutMs", 5000, 100, 600_000, issues),
        escalation_threshold: o.num("escalationThreshold", 50.0, 0.0, 100.0, issues),
        min_risk_for_escalation: o.num("minRiskForEscalation", 20.0, 0.0, 100.0, issues),
        max_concurrent: o.int("maxConcurrent", 2, 1, 64, issues),
        cache_results: o.bool("cacheResults", true, issues),
        cache_ttl_seconds: o.int("cacheTtlSeconds", 300, 0, 86_400, issues),
    }
}

pub fn performance(o: &Obj, issues: &mut Issues) -> PerformanceConfig {
    o.check_keys(
        &["maxEvalUs", "maxContextMessages", "frequencyBufferSize"],
        issues,
    );
    PerformanceConfig {
        max_eval_us: o.int("maxEvalUs", 5000, 1, 10_000_000, issues),
        max_context_messages: o.int("maxContextMessages", 10, 0, 1000, issues) as usize,
        frequency_buffer_size: o.int("frequencyBufferSize", 1000, 1, 1_000_000, issues) as usize,
    }
}
