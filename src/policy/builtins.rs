//! Builtin policy templates (seed 002 §4.15, NORMATIVE N2). They are written as ordinary policy
//! JSON and compiled by the same loader as user policies, so they obey the same rules.
//!
//! Unlike the TypeScript plugin: night mode is scoped to tool calls only (it never cancels
//! outbound messages), `enabled: false` disables a builtin, and a limit of N lets N calls through.

use super::conditions::ParseEnv;
use super::loader::load_policies;
use super::model::Policy;
use crate::config::error::Issues;
use crate::time::format_hhmm;
use serde_json::{json, Value};
use std::collections::HashMap;

#[derive(Debug, Clone, PartialEq)]
pub struct NightMode {
    pub start: u16,
    pub end: u16,
    pub timezone: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct BuiltinsConfig {
    pub night_mode: Option<NightMode>,
    pub credential_guard: bool,
    pub production_safeguard: bool,
    pub rate_limiter: Option<u64>,
}

/// Tools night mode still allows (NORMATIVE N2).
pub const NIGHT_TOOLS: [&str; 3] = ["read", "memory_search", "memory_get"];

/// Credential files: .env*, key material, credential and secret stores.
const CREDENTIAL_FILE: &str = r#"(?i)(^|[\s/'"=:<>])(\.env(\.[\w.-]+)?|\.netrc|\.pgpass|\.npmrc|\.pypirc|\.git-credentials|id_(rsa|dsa|ecdsa|ed25519)|credentials(\.json|\.ya?ml|\.toml)?|secrets?(\.(json|ya?ml|toml|env|txt))?|[\w.-]+\.(pem|key|p12|pfx|jks|keystore))($|[\s'"/;|&)<>])"#;
/// Searching for secrets in files or the environment.
const SECRET_SEARCH: &str = r"(?i)\b(grep|egrep|rg|ag|ack|findstr|git\s+grep)\b[^\n]*\b(passwords?|passwd|secrets?|tokens?|api[_-]?keys?|private[_-]?keys?|credentials?)\b|\bprintenv\b";
/// Production-impacting shell commands.
const PRODUCTION_COMMAND: &str = r"(?i)\bdocker\s+push\b|\bsystemctl\s+(restart|stop)\b|\bgit\s+push\b[^\n;&|]*\b(main|master|prod|production)\b|\bkubectl\s+(apply|delete|rollout)\b|\b(npm|pnpm|yarn)\s+publish\b|\bterraform\s+(apply|destroy)\b|\bhelm\s+(install|upgrade|uninstall)\b";
/// Gateway actions that change the running system.
const GATEWAY_CHANGE: &str = r"(?i)restart|config\.(apply|patch)|update";

pub fn builtin_policies(cfg: &BuiltinsConfig, issues: &mut Issues) -> Vec<Policy> {
    let mut raw = Vec::new();
    if let Some(n) = &cfg.night_mode {
        raw.push(night_mode(n));
    }
    if cfg.credential_guard {
        raw.push(credential_guard());
    }
    if cfg.production_safeguard {
        raw.push(production_safeguard());
    }
    if let Some(max) = cfg.rate_limiter {
        raw.push(rate_limiter(max));
    }
    let windows = HashMap::new();
    let env = ParseEnv::new(&windows, true);
    let mut policies = load_policies(Some(&Value::Array(raw)), "builtinPolicies", &env, issues);
    for p in &mut policies {
        p.builtin = true;
    }
    policies
}

fn tool_calls_only(id: &str, name: &str, rules: Value) -> Value {
    json!({ "id": id, "name": name, "version": "1.0.0", "scope": { "hooks": ["before_tool_call"] }, "rules": rules })
}

fn night_mode(n: &NightMode) -> Value {
    let (after, before) = (format_hhmm(n.start), format_hhmm(n.end));
    let mut time = json!({ "type": "time", "after": after, "before": before });
    if let Some(tz) = &n.timezone {
        time["timezone"] = json!(tz);
    }
    let reason = format!(
        "Night mode ({after}–{before}): only {} are allowed until {before}",
        NIGHT_TOOLS.join(", ")
    );
    tool_calls_only(
        "builtin-night-mode",
        "Night Mode",
        json!([{
            "id": "night-restrict",
            "conditions": [time, { "type": "not", "condition": { "type": "tool", "name": NIGHT_TOOLS } }],
            "effect": { "action": "deny", "reason": reason }
        }]),
    )
}

fn credential_guard() -> Value {
    let path_keys = ["path", "file_path", "filePath", "file"];
    let file_tools = json!(["read", "write", "edit", "apply_patch"]);
    let by_path: Vec<Value> = path_keys
        .iter()
        .map(|k| json!({ "type": "tool", "name": file_tools, "params": { *k: { "matches": CREDENTIAL_FILE } } }))
        .collect();
    tool_calls_only(
        "builtin-credential-guard",
        "Credential Guard",
        json!([
            { "id": "credential-file-access", "conditions": [{ "type": "any", "conditions": by_path }],
              "effect": { "action": "deny", "reason": "Credential guard: access to credential files is not allowed" } },
            { "id": "credential-file-shell", "conditions": [{ "type": "tool", "name": ["exec", "process"], "params": { "command": { "matches": CREDENTIAL_FILE } } }],
              "effect": { "action": "deny", "reason": "Credential guard: shell access to credential files is not allowed" } },
            { "id": "secret-search", "conditions": [{ "type": "tool", "name": ["exec", "process"], "params": { "command": { "matches": SECRET_SEARCH } } }],
              "effect": { "action": "deny", "reason": "Credential guard: searching for passwords, tokens or keys is not allowed" } }
        ]),
    )
}

fn production_safeguard() -> Value {
    let escalate = |reason: &str| json!({ "action": "escalate", "to": "human", "reason": reason, "severity": "critical" });
    tool_calls_only(
        "builtin-production-safeguard",
        "Production Safeguard",
        json!([
            { "id": "gateway-change", "conditions": [{ "type": "tool", "name": "gateway", "params": { "action": { "matches": GATEWAY_CHANGE } } }],
              "effect": escalate("Production safeguard: changing the gateway needs approval") },
            { "id": "production-command", "conditions": [{ "type": "tool", "name": ["exec", "process"], "params": { "command": { "matches": PRODUCTION_COMMAND } } }],
              "effect": escalate("Production safeguard: production-impacting command needs approval") }
        ]),
    )
}

fn rate_limiter(max_per_minute: u64) -> Value {
    tool_calls_only(
        "builtin-rate-limiter",
        "Rate Limiter",
        json!([{
            "id": "rate-limit",
            "conditions": [{ "type": "frequency", "maxCount": max_per_minute, "windowSeconds": 60, "scope": "agent" }],
            "effect": { "action": "deny", "reason": format!("Rate limit: at most {max_per_minute} tool calls per minute") }
        }]),
    )
}
