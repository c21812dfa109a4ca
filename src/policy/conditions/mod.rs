//! Condition types of seed 002 §3.3. Each is parsed (and its regexes compiled) once at load;
//! evaluation only reads the prepared form.

pub mod agent;
pub mod command;
pub mod context;
pub mod frequency;
pub mod intent;
pub mod risk;
pub mod taint;
pub mod time;
pub mod tool;

use crate::config::error::{index, Issues};
use crate::config::reader::{array, Obj};
use crate::context::Facts;
use crate::policy::pattern::{Pattern, PatternCache};
use chrono_tz::Tz;
use serde_json::Value;
use std::cell::RefCell;
use std::collections::HashMap;

#[derive(Debug, Clone)]
pub enum Condition {
    Tool(tool::ToolCondition),
    Time(time::TimeCondition),
    Agent(agent::AgentCondition),
    Context(context::ContextCondition),
    Risk(risk::RiskCondition),
    Frequency(frequency::FrequencyCondition),
    /// A builtin guard's finding on the call (builtin policies only).
    Guard(crate::guards::Guard),
    Command(command::CommandCondition),
    /// What the session's context holds (provenance).
    Taint(taint::TaintCondition),
    /// A model's answer (only at a rule's top level, asked after every other condition).
    Intent(intent::IntentCondition),
    Any(Vec<Condition>),
    Not(Box<Condition>),
}

/// What parsing needs besides the condition itself.
pub struct ParseEnv<'a> {
    pub windows: &'a HashMap<String, time::TimeWindow>,
    /// Approvals go to the host's approval flow (`approval.enabled`), which denies every
    /// approval nobody answers and waits at most 600 s.
    pub host_approvals: bool,
    /// Every policy pattern of the config, so identical ones compile once within one budget.
    pub patterns: RefCell<PatternCache>,
    /// Builtin policies may name a guard; operators' policies use `command` conditions.
    pub builtin: bool,
}

impl<'a> ParseEnv<'a> {
    pub fn new(
        windows: &'a HashMap<String, time::TimeWindow>,
        host_approvals: bool,
    ) -> ParseEnv<'a> {
        ParseEnv {
            windows,
            host_approvals,
            patterns: RefCell::default(),
            builtin: false,
        }
    }

    /// A policy regex, shared with every earlier identical one.
    pub fn pattern(
        &self,
        pattern: &str,
        path: &str,
        case_insensitive: bool,
        issues: &mut Issues,
    ) -> Option<Pattern> {
        self.patterns
            .borrow_mut()
            .compile(pattern, path, case_insensitive, issues)
    }
}

pub const TYPES: [&str; 11] = [
    "tool",
    "command",
    "taint",
    "time",
    "agent",
    "context",
    "risk",
    "frequency",
    "intent",
    "any",
    "not",
];

impl Condition {
    pub fn parse(v: &Value, path: &str, env: &ParseEnv, issues: &mut Issues) -> Option<Condition> {
        let o = Obj::new(Some(v), path.to_string(), issues);
        if !o.is_present() {
            return None;
        }
        let ty = o.string("type", issues);
        Some(match ty.as_deref() {
            Some("tool") => Condition::Tool(tool::ToolCondition::parse(&o, env, issues)?),
            Some("time") => Condition::Time(time::TimeCondition::parse(&o, env, issues)?),
            Some("agent") => Condition::Agent(agent::AgentCondition::parse(&o, issues)?),
            Some("context") => {
                Condition::Context(context::ContextCondition::parse(&o, env, issues)?)
            }
            Some("risk") => Condition::Risk(risk::RiskCondition::parse(&o, issues)?),
            Some("frequency") => {
                Condition::Frequency(frequency::FrequencyCondition::parse(&o, issues)?)
            }
            Some("intent") => Condition::Intent(intent::IntentCondition::parse(&o, issues)?),
            Some("command") => {
                Condition::Command(command::CommandCondition::parse(&o, env, issues)?)
            }
            Some("guard") if env.builtin => {
                let name = o.string("guard", issues)?;
                match crate::guards::Guard::parse(&name) {
                    Some(g) => Condition::Guard(g),
                    None => {
                        issues.push(&o.path_of("guard"), format!("unknown guard \"{name}\""));
                        return None;
                    }
                }
            }
            Some("taint") => Condition::Taint(taint::TaintCondition::parse(&o, issues)?),
            Some("any") => {
                o.check_keys(&["type", "conditions"], issues);
                let list = parse_list(o.get("conditions"), &o.path_of("conditions"), env, issues);
                if list.is_empty() {
                    issues.push(
                        &o.path_of("conditions"),
                        "an `any` condition needs at least one condition",
                    );
                }
                refuse_nested_intent(&list, &o.path_of("conditions"), issues);
                Condition::Any(list)
            }
            Some("not") => {
                o.check_keys(&["type", "condition"], issues);
                match o.get("condition") {
                    Some(inner) => {
                        let inner = Condition::parse(inner, &o.path_of("condition"), env, issues)?;
                        refuse_nested_intent(
                            std::slice::from_ref(&inner),
                            &o.path_of("condition"),
                            issues,
                        );
                        Condition::Not(Box::new(inner))
                    }
                    None => {
                        issues.push(
                            &o.path_of("condition"),
                            "a `not` condition needs `condition`",
                        );
                        return None;
                    }
                }
            }
            Some(other) => {
                issues.push(
                    &o.path_of("type"),
                    format!(
                        "unknown condition type \"{other}\" (known: {})",
                        TYPES.join(", ")
                    ),
                );
                return None;
            }
            None => {
                if o.get("type").is_none() {
                    issues.push(&o.path_of("type"), "missing condition type");
                }
                return None;
            }
        })
    }

    pub fn eval(&self, f: &Facts) -> bool {
        match self {
            Condition::Tool(c) => c.eval(f),
            Condition::Time(c) => c.eval(f),
            Condition::Agent(c) => c.eval(f),
            Condition::Context(c) => c.eval(f),
            Condition::Risk(c) => c.eval(f),
            Condition::Frequency(c) => c.eval(f),
            Condition::Guard(g) => f.call.finding(*g).is_some(),
            Condition::Command(c) => c.eval(f),
            Condition::Taint(c) => c.eval(f),
            Condition::Intent(c) => f.intents.holds(c),
            Condition::Any(list) => list.iter().any(|c| c.eval(f)),
            Condition::Not(c) => !c.eval(f),
        }
    }

    /// Whether it asks a model anywhere inside.
    pub fn asks_intent(&self) -> bool {
        match self {
            Condition::Intent(_) => true,
            Condition::Any(list) => list.iter().any(Condition::asks_intent),
            Condition::Not(c) => c.asks_intent(),
            _ => false,
        }
    }

    /// Whether it reads the session's taint anywhere inside (which needs provenance on).
    pub fn reads_taint(&self) -> bool {
        match self {
            Condition::Taint(_) => true,
            Condition::Any(list) => list.iter().any(Condition::reads_taint),
            Condition::Not(c) => c.reads_taint(),
            _ => false,
        }
    }

    /// Tool names this condition positively names (for the unknown-tool check).
    pub fn named_tools<'a>(&'a self, out: &mut Vec<&'a crate::policy::glob::Glob>) {
        match self {
            Condition::Tool(c) => out.extend(c.names.iter()),
            Condition::Any(list) => list.iter().for_each(|c| c.named_tools(out)),
            _ => {}
        }
    }

    /// Largest frequency limit inside, so the tracker keeps enough history to see it exceeded.
    pub fn max_frequency_limit(&self) -> u64 {
        match self {
            Condition::Frequency(c) => c.max_count,
            Condition::Any(list) => list
                .iter()
                .map(|c| c.max_frequency_limit())
                .max()
                .unwrap_or(0),
            Condition::Not(c) => c.max_frequency_limit(),
            _ => 0,
        }
    }
}

pub fn parse_list(
    v: Option<&Value>,
    path: &str,
    env: &ParseEnv,
    issues: &mut Issues,
) -> Vec<Condition> {
    array(v, path, issues)
        .iter()
        .enumerate()
        .filter_map(|(i, c)| Condition::parse(c, &index(path, i), env, issues))
        .collect()
}

/// A model's answer under `any` or `not` would let a failed or refused call decide the other
/// way (a `not intent` that matches because the model timed out): intents stand at the top of
/// a rule, where no answer means the rule does not match (the regex-only verdict of N8).
fn refuse_nested_intent(list: &[Condition], path: &str, issues: &mut Issues) {
    if list.iter().any(Condition::asks_intent) {
        issues.push(
            path,
            "an intent condition cannot stand inside `any` or `not`: put it at the top of the \
             rule's conditions",
        );
    }
}

/// An IANA zone name, or an issue naming the key.
pub fn parse_zone(o: &Obj, key: &str, issues: &mut Issues) -> Option<Tz> {
    let name = o.string(key, issues)?;
    match crate::time::parse_tz(&name) {
        Some(tz) => Some(tz),
        None => {
            issues.push(
                &o.path_of(key),
                format!("unknown timezone \"{name}\" (use an IANA name such as Europe/Berlin)"),
            );
            None
        }
    }
}
