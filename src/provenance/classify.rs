//! Which trust level a tool's result carries (seed 004 "Tool Trust Classification"): the
//! seed's defaults, overridden per tool, and per call by rules written in the policies'
//! condition vocabulary (`exec` of `gog gmail …` → external, `read` under `inbox/` → external).

use super::level::Level;
use crate::config::error::Issues;
use crate::config::reader::{array, Obj};
use crate::context::Facts;
use crate::policy::conditions::{Condition, ParseEnv};
use crate::policy::glob::Glob;
use serde_json::Value;

/// The seed's table with the host's tool names (README "Provenance"). A tool that only acts
/// (writes a file, sends a message) returns text of its own making: local.
const DEFAULTS: [(&str, Level); 33] = [
    // The host stamps these results `network` itself (web, browser, MCP servers).
    ("web_fetch", Level::Untrusted),
    ("web_search", Level::Untrusted),
    ("x_search", Level::Untrusted),
    ("browser", Level::Untrusted),
    ("canvas", Level::Untrusted),
    ("crabbox", Level::Untrusted),
    ("*__*", Level::Untrusted),
    // Other people's messages.
    ("conversations_*", Level::External),
    // A spawn's result is the host's receipt; the child's work arrives later, announced.
    ("sessions_spawn", Level::Local),
    // Memory and other agents' work: anything any of them read may be in it.
    ("memory_*", Level::Shared),
    ("wiki_*", Level::Shared),
    ("intent", Level::Shared),
    ("sessions_*", Level::Shared),
    ("sessions", Level::Shared),
    ("subagents", Level::Shared),
    ("agents_*", Level::Shared),
    ("transcripts", Level::Shared),
    // The machine's own.
    ("read", Level::Local),
    ("exec", Level::Local),
    ("process", Level::Local),
    ("terminal", Level::Local),
    ("write", Level::Local),
    ("edit", Level::Local),
    ("apply_patch", Level::Local),
    ("pdf", Level::Local),
    ("view_image", Level::Local),
    ("cron", Level::Local),
    ("gateway", Level::Local),
    ("plugins", Level::Local),
    ("update_plan", Level::Local),
    // The host's tool catalog (Tool Search): descriptions of its own tools.
    ("tool_search", Level::Local),
    ("tool_describe", Level::Local),
    ("tool_search_code", Level::Local),
];

/// `message` actions that bring other people's content in; the rest send or change things.
pub(crate) const MESSAGE_READS: [&str; 15] = [
    "read",
    "reactions",
    "list-pins",
    "permissions",
    "thread-list",
    "search",
    "sticker-search",
    "member-info",
    "role-info",
    "emoji-list",
    "channel-info",
    "channel-list",
    "voice-status",
    "event-list",
    "download-file",
];

/// Tools the table does not name (another plugin's): their content is neither ours nor the
/// owner's, so it counts as external until the operator says otherwise.
const UNKNOWN: Level = Level::External;

/// One override: when every condition holds, the result carries `level`.
#[derive(Debug, Clone)]
pub struct Rule {
    pub conditions: Vec<Condition>,
    pub level: Level,
}

#[derive(Debug, Clone)]
pub struct ToolTrust {
    /// Operator entries, in config order; the first whose tool glob matches decides.
    entries: Vec<(Glob, Entry)>,
}

#[derive(Debug, Clone)]
enum Entry {
    Level(Level),
    /// Rules in order; none matching leaves the default.
    Rules(Vec<Rule>),
}

impl ToolTrust {
    pub fn parse(v: Option<&Value>, path: &str, env: &ParseEnv, issues: &mut Issues) -> ToolTrust {
        let o = Obj::new(v, path.to_string(), issues);
        let entries = o
            .entries()
            .filter_map(|(tool, v)| {
                let p = o.path_of(tool);
                let entry = match v {
                    Value::String(name) => Entry::Level(level(name, &p, issues)?),
                    _ => Entry::Rules(rules(v, &p, env, issues)),
                };
                Some((Glob::new(tool), entry))
            })
            .collect();
        ToolTrust { entries }
    }

    /// The level of what `tool` returns for the call `f` describes.
    pub fn classify(&self, tool: &str, f: &Facts) -> Level {
        for (glob, entry) in &self.entries {
            if !glob.matches(tool) {
                continue;
            }
            match entry {
                Entry::Level(l) => return *l,
                Entry::Rules(rules) => {
                    if let Some(r) = rules
                        .iter()
                        .find(|r| r.conditions.iter().all(|c| c.eval(f)))
                    {
                        return r.level;
                    }
                }
            }
        }
        default_level(tool, f.req.params.as_ref())
    }
}

/// The seed's level for `tool` called with `params`.
pub fn default_level(tool: &str, params: Option<&serde_json::Map<String, Value>>) -> Level {
    if tool == "message" {
        let action = params.and_then(|p| p.get("action")).and_then(Value::as_str);
        return match action {
            Some(a) if MESSAGE_READS.contains(&a) => Level::External,
            _ => Level::Local,
        };
    }
    static TABLE: std::sync::LazyLock<Vec<(Glob, Level)>> =
        std::sync::LazyLock::new(|| DEFAULTS.iter().map(|(n, l)| (Glob::new(n), *l)).collect());
    TABLE
        .iter()
        .find(|(glob, _)| glob.matches(tool))
        .map_or(UNKNOWN, |(_, l)| *l)
}

fn level(name: &str, path: &str, issues: &mut Issues) -> Option<Level> {
    Level::parse_at(name, path, issues)
}

fn rules(v: &Value, path: &str, env: &ParseEnv, issues: &mut Issues) -> Vec<Rule> {
    array(Some(v), path, issues)
        .iter()
        .enumerate()
        .filter_map(|(i, r)| {
            let o = Obj::new(Some(r), format!("{path}[{i}]"), issues);
            o.check_keys(&["conditions", "level"], issues);
            let lvl = level(&o.string("level", issues)?, &o.path_of("level"), issues)?;
            let cpath = o.path_of("conditions");
            let list = array(o.get("conditions"), &cpath, issues);
            if list.is_empty() {
                issues.push(
                    &cpath,
                    "a rule needs at least one condition (a plain level needs no rule)",
                );
            }
            let conditions: Vec<Condition> = list
                .iter()
                .enumerate()
                .filter_map(|(j, c)| Condition::parse(c, &format!("{cpath}[{j}]"), env, issues))
                .collect();
            if conditions.iter().any(Condition::asks_intent) {
                // Classification runs on every tool result, synchronously: no model is asked.
                issues.push(
                    &cpath,
                    "toolTrust rules cannot ask a model (intent condition)",
                );
                return None;
            }
            (conditions.len() == list.len()).then_some(Rule {
                conditions,
                level: lvl,
            })
        })
        .collect()
}
