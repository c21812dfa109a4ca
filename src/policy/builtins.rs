//! Builtin policy templates (seed 002 §4.15, NORMATIVE N2). They are written as ordinary policy
//! JSON and compiled by the same loader as user policies, so they obey the same rules.
//!
//! Unlike the TypeScript plugin: night mode is scoped to tool calls only (it never cancels
//! outbound messages), `enabled: false` disables a builtin, and a limit of N lets N calls through.

use super::conditions::ParseEnv;
use super::loader::load_policies;
use super::model::Policy;
use crate::config::error::Issues;
use crate::guards::Guard;
use crate::time::format_hhmm;
use serde_json::{json, Value};
use std::collections::HashMap;

#[derive(Debug, Clone, PartialEq)]
pub struct NightMode {
    pub start: u16,
    pub end: u16,
    pub timezone: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct BuiltinsConfig {
    pub night_mode: Option<NightMode>,
    pub credential_guard: bool,
    pub production_safeguard: bool,
    pub destructive_guard: bool,
    pub remote_code_guard: bool,
    /// On unless turned off: governance's state and OpenClaw's config are not the agents' to
    /// change.
    pub self_protection: bool,
    /// What a command whose effect cannot be known gets while a command guard is on.
    pub opaque_command_action: OpaqueAction,
    pub rate_limiter: Option<u64>,
}

impl Default for BuiltinsConfig {
    fn default() -> Self {
        BuiltinsConfig {
            night_mode: None,
            credential_guard: false,
            production_safeguard: false,
            destructive_guard: false,
            remote_code_guard: false,
            self_protection: true,
            opaque_command_action: OpaqueAction::Escalate,
            rate_limiter: None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpaqueAction {
    Allow,
    Escalate,
    Deny,
}

impl BuiltinsConfig {
    /// The guards these switches turn on, in the order they are judged. Opaque commands are
    /// judged only while a guard that reads commands is on: alone, self-protection does not
    /// make every `$CMD` wait for a human.
    pub fn guards(&self) -> Vec<Guard> {
        let on = [
            (self.self_protection, Guard::SelfProtection),
            (self.credential_guard, Guard::Credential),
            (self.destructive_guard, Guard::Destructive),
            (self.remote_code_guard, Guard::RemoteCode),
            (self.production_safeguard, Guard::Production),
        ];
        let mut out: Vec<Guard> = on.iter().filter(|(b, _)| *b).map(|(_, g)| *g).collect();
        let reads_commands = on[1..].iter().any(|(b, _)| *b);
        if reads_commands && self.opaque_command_action != OpaqueAction::Allow {
            out.push(Guard::Opaque);
        }
        out
    }
}

/// Tools night mode still allows (NORMATIVE N2).
pub const NIGHT_TOOLS: [&str; 3] = ["read", "memory_search", "memory_get"];

/// Gateway actions that change the running system.
const GATEWAY_CHANGE: &str = r"(?i)restart|config\.(apply|patch)|update";

pub fn builtin_policies(cfg: &BuiltinsConfig, issues: &mut Issues) -> Vec<Policy> {
    let mut raw = Vec::new();
    if let Some(n) = &cfg.night_mode {
        raw.push(night_mode(n));
    }
    for guard in cfg.guards() {
        raw.push(guard_policy(guard, cfg.opaque_command_action));
    }
    if cfg.production_safeguard {
        raw.push(gateway_changes());
    }
    if let Some(max) = cfg.rate_limiter {
        raw.push(rate_limiter(max));
    }
    let windows = HashMap::new();
    let mut env = ParseEnv::new(&windows, true);
    env.builtin = true;
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

/// A guard as a policy of one rule, so its verdicts are ranked, audited and explained like any
/// other; the verdict's reason is the guard's finding (engine::guard_reason).
fn guard_policy(guard: Guard, opaque: OpaqueAction) -> Value {
    let (id, name, reason) = match guard {
        Guard::SelfProtection => ("builtin-self-protection", "Self-Protection", "Self-protection: governance's state and OpenClaw's config are not for agents to change"),
        Guard::Credential => ("builtin-credential-guard", "Credential Guard", "Credential guard: access to credential files is not allowed"),
        Guard::Destructive => ("builtin-destructive-guard", "Destructive Guard", "Destructive guard: deleting outside the workspace is not allowed"),
        Guard::RemoteCode => ("builtin-remote-code-guard", "Remote Code Guard", "Remote code guard: running downloaded or decoded code is not allowed"),
        Guard::Production => ("builtin-production-safeguard", "Production Safeguard", "Production safeguard: production-impacting command needs approval"),
        Guard::Opaque => ("builtin-opaque-command", "Opaque Commands", "Opaque command: what it runs is only known when it runs"),
    };
    let escalates =
        guard == Guard::Production || guard == Guard::Opaque && opaque == OpaqueAction::Escalate;
    let effect = if escalates {
        json!({ "action": "escalate", "to": "human", "reason": reason, "severity": "critical" })
    } else {
        json!({ "action": "deny", "reason": reason })
    };
    tool_calls_only(
        id,
        name,
        json!([{ "id": guard.name(), "conditions": [{ "type": "guard", "guard": guard.name() }], "effect": effect }]),
    )
}

fn gateway_changes() -> Value {
    let escalate = |reason: &str| json!({ "action": "escalate", "to": "human", "reason": reason, "severity": "critical" });
    tool_calls_only(
        "builtin-production-gateway",
        "Production Safeguard: gateway",
        json!([
            { "id": "gateway-change", "conditions": [{ "type": "tool", "name": "gateway", "params": { "action": { "matches": GATEWAY_CHANGE } } }],
              "effect": escalate("Production safeguard: changing the gateway needs approval") }
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
