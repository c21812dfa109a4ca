//! Raw `policies[]` JSON → compiled [`Policy`] values, with every problem reported by path.

use super::conditions::{parse_list, Condition, ParseEnv};
use super::glob::Glob;
use super::model::{Effect, Fallback, Policy, Rule, Scope, Severity};
use crate::config::error::{index, Issues};
use crate::config::reader::{array, string_list, Obj};
use crate::context::Hook;
use crate::trust::TrustTier;
use serde_json::Value;
use std::collections::HashSet;

pub fn load_policies(
    v: Option<&Value>,
    path: &str,
    env: &ParseEnv,
    issues: &mut Issues,
) -> Vec<Policy> {
    let mut seen = HashSet::new();
    array(v, path, issues)
        .iter()
        .enumerate()
        .filter_map(|(i, p)| {
            let ppath = index(path, i);
            let policy = load_policy(p, &ppath, env, issues)?;
            if !seen.insert(policy.id.clone()) {
                issues.push(
                    &format!("{}.id", named(&ppath, &policy.id)),
                    format!("duplicate policy id \"{}\"", policy.id),
                );
            }
            Some(policy)
        })
        .collect()
}

/// A policy's path with its id, so a problem in policy 612 says which one that is:
/// `policies[612] "no-rm"`. The id is a JSON string, so the path still reads back unambiguously.
fn named(path: &str, id: &str) -> String {
    let quoted = serde_json::to_string(id).unwrap_or_default();
    format!("{path} {quoted}")
}

fn load_policy(v: &Value, path: &str, env: &ParseEnv, issues: &mut Issues) -> Option<Policy> {
    let mut o = Obj::new(Some(v), path.to_string(), issues);
    if !o.is_present() {
        return None;
    }
    let id = required_id(&o, issues);
    if let Some(id) = &id {
        o.path = named(path, id);
    }
    o.check_keys(
        &[
            "id",
            "name",
            "version",
            "description",
            "scope",
            "rules",
            "enabled",
            "priority",
        ],
        issues,
    );
    let scope = load_scope(&o.child("scope", issues), issues);
    let rules_path = o.path_of("rules");
    let mut rule_ids = HashSet::new();
    let rules: Vec<Rule> = array(o.get("rules"), &rules_path, issues)
        .iter()
        .enumerate()
        .filter_map(|(i, r)| {
            let rule = load_rule(r, &index(&rules_path, i), env, issues)?;
            if !rule_ids.insert(rule.id.clone()) {
                issues.push(
                    &format!("{}.id", index(&rules_path, i)),
                    format!("duplicate rule id \"{}\"", rule.id),
                );
            }
            Some(rule)
        })
        .collect();
    if o.get("rules").is_none() {
        issues.push(&rules_path, "a policy needs a list of rules");
    }
    let id = id?;
    Some(Policy {
        name: o.string("name", issues).unwrap_or_else(|| id.clone()),
        version: o
            .string("version", issues)
            .unwrap_or_else(|| "1.0.0".into()),
        description: o.string("description", issues),
        enabled: o.bool("enabled", true, issues),
        priority: o.num("priority", 0.0, -1e9, 1e9, issues) as i64,
        builtin: false,
        id,
        scope,
        rules,
    })
}

fn required_id(o: &Obj, issues: &mut Issues) -> Option<String> {
    match o.string("id", issues) {
        Some(id) if !id.trim().is_empty() => Some(id),
        _ => {
            issues.push(&o.path_of("id"), "required: a non-empty id");
            None
        }
    }
}

fn load_scope(o: &Obj, issues: &mut Issues) -> Scope {
    o.check_keys(&["agents", "excludeAgents", "channels", "hooks"], issues);
    let globs = |key: &str, issues: &mut Issues| -> Vec<Glob> {
        string_list(o.get(key), &o.path_of(key), issues)
            .iter()
            .map(|s| Glob::new(s))
            .collect()
    };
    let hooks_path = o.path_of("hooks");
    let hooks = string_list(o.get("hooks"), &hooks_path, issues)
        .iter()
        .enumerate()
        .filter_map(|(i, h)| {
            let hook = Hook::parse(h);
            if hook.is_none() {
                issues.push(
                    &index(&hooks_path, i),
                    format!("unknown hook \"{h}\" (known: {})", Hook::NAMES.join(", ")),
                );
            }
            if hook == Some(Hook::SessionStart) {
                // Observe-only in the host: a policy there could neither block nor allow.
                issues.push(
                    &index(&hooks_path, i),
                    "session_start cannot stop anything (the host only reports it); use \
                     before_agent_start to stop a run or before_tool_call for its calls",
                );
                return None;
            }
            hook
        })
        .collect();
    Scope {
        agents: globs("agents", issues),
        exclude_agents: globs("excludeAgents", issues),
        channels: string_list(o.get("channels"), &o.path_of("channels"), issues),
        hooks,
    }
}

fn load_rule(v: &Value, path: &str, env: &ParseEnv, issues: &mut Issues) -> Option<Rule> {
    let o = Obj::new(Some(v), path.to_string(), issues);
    if !o.is_present() {
        return None;
    }
    o.check_keys(
        &[
            "id",
            "description",
            "conditions",
            "effect",
            "minTrust",
            "maxTrust",
        ],
        issues,
    );
    let id = required_id(&o, issues);
    let mut conditions = parse_list(o.get("conditions"), &o.path_of("conditions"), env, issues);
    // A model is asked only when everything else about the rule holds: intents go last (the
    // conditions are a conjunction without side effects, so order changes nothing else).
    conditions.sort_by_key(Condition::asks_intent);
    let effect = load_effect(&o.child("effect", issues), env, issues);
    let tier = |key: &str, issues: &mut Issues| single_tier(&o, key, issues);
    let (min_trust, max_trust) = (tier("minTrust", issues), tier("maxTrust", issues));
    Some(Rule {
        id: id?,
        description: o.string("description", issues),
        conditions,
        effect: effect?,
        min_trust,
        max_trust,
    })
}

/// `minTrust` / `maxTrust`: one tier name.
fn single_tier(o: &Obj, key: &str, issues: &mut Issues) -> Option<TrustTier> {
    let name = o.string(key, issues)?;
    let tier = TrustTier::parse(&name);
    if tier.is_none() {
        issues.push(
            &o.path_of(key),
            format!(
                "unknown trust tier \"{name}\" (known: {})",
                TrustTier::NAMES.join(", ")
            ),
        );
    }
    tier
}

fn load_effect(o: &Obj, env: &ParseEnv, issues: &mut Issues) -> Option<Effect> {
    if !o.is_present() {
        issues.push(
            &o.path,
            "a rule needs an effect {action: allow | deny | escalate | audit}",
        );
        return None;
    }
    let action = o.string("action", issues);
    let effect = match action.as_deref() {
        Some("allow") => {
            o.check_keys(&["action"], issues);
            Effect::Allow
        }
        Some("deny") => {
            o.check_keys(&["action", "reason"], issues);
            let reason = o
                .string("reason", issues)
                .unwrap_or_else(|| "Denied by policy".into());
            Effect::Deny { reason }
        }
        Some("escalate") => load_escalate(o, env, issues),
        Some("audit") => {
            o.check_keys(&["action", "level"], issues);
            o.choice(
                "level",
                "standard",
                &["minimal", "standard", "verbose"],
                issues,
            );
            Effect::Audit
        }
        other => {
            let got = other.map_or("nothing".to_string(), |s| format!("\"{s}\""));
            issues.push(
                &o.path_of("action"),
                format!("must be one of allow | deny | escalate | audit, got {got}"),
            );
            return None;
        }
    };
    Some(effect)
}

fn load_escalate(o: &Obj, env: &ParseEnv, issues: &mut Issues) -> Effect {
    o.check_keys(
        &["action", "to", "reason", "timeout", "fallback", "severity"],
        issues,
    );
    o.choice("to", "human", &["human"], issues);
    let fallback =
        o.get("fallback").map(
            |_| match o.choice("fallback", "deny", &["allow", "deny"], issues) {
                "allow" => Fallback::Allow,
                _ => Fallback::Deny,
            },
        );
    let severity = o.get("severity").map(|_| {
        match o.choice(
            "severity",
            "warning",
            &["info", "warning", "critical"],
            issues,
        ) {
            "info" => Severity::Info,
            "critical" => Severity::Critical,
            _ => Severity::Warning,
        }
    });
    if env.host_approvals && fallback == Some(Fallback::Allow) {
        issues.push(&o.path_of("fallback"), crate::config::FALLBACK_ALLOW);
    }
    Effect::Escalate {
        reason: o.string("reason", issues),
        timeout_seconds: o.get("timeout").map(|_| {
            o.int(
                "timeout",
                300,
                1,
                crate::config::MAX_APPROVAL_TIMEOUT_S,
                issues,
            )
        }),
        fallback,
        severity,
    }
}
