//! Provenance (seed 004): where the content in a session's context came from, and tools gated
//! by it. The host's hooks feed it (a tool's result, an inbound message, a spawned or finished
//! sub-agent, a reset); `before_tool_call` reads it through provenance policies and the `taint`
//! condition.
//!
//! ```text
//! after_tool_call ──▶ classify (tool, params → level) ──▶ Sessions::taint (lowest level wins)
//! before_tool_call ──▶ judge (policies × taint × iteration) ──▶ deny naming the source
//! ```

pub mod classify;
pub mod config;
pub mod files;
pub mod graph;
pub mod level;
pub mod presets;
pub mod rule_of_two;
pub mod runs;
pub mod taint;

pub use config::ProvenanceConfig;
pub use graph::{Graphs, TurnGraph};
pub use level::Level;
pub use runs::Runs;
pub use taint::{Sessions, Source, Taint, TaintAudit};

/// What a process learns: every session's taint (persisted), its current run's model calls
/// and its turn graphs.
#[derive(Default)]
pub struct State {
    pub sessions: Sessions,
    pub runs: Runs,
    pub graphs: Graphs,
    /// Files written by tainted sessions (`files`).
    pub files: files::Files,
}

/// provenance.json: sessions from the least to the most recently active.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct StateFile {
    pub version: u32,
    pub sessions: Vec<(String, Taint)>,
    /// Files written by tainted sessions; absent in files from before they were followed.
    #[serde(default)]
    pub files: Vec<(String, Source)>,
}

/// A provenance policy's block, with the source that brought the taint.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    pub policy: String,
    pub reason: String,
}

/// The first policy that blocks `tool` in a session with `taint`, at model call `iteration`.
/// A tool the policy removes from the model's list is denied too: the list is narrowed only
/// when the next run starts, and a model may name a tool it was not offered.
pub fn judge(
    cfg: &ProvenanceConfig,
    taint: Option<&Taint>,
    iteration: u32,
    tool: &str,
) -> Option<Block> {
    cfg.policies.iter().find_map(|p| {
        let source = holds(p, taint, iteration)?;
        let names = |globs: &[crate::policy::glob::Glob]| globs.iter().any(|g| g.matches(tool));
        if !p.block_turn && !names(&p.block_tools) && !names(&p.remove_tools) {
            return None;
        }
        let why = p.reason.clone().unwrap_or_else(|| default_reason(p));
        let reason = match source {
            Some(s) => format!(
                "{why}: the session read {} content ({})",
                s.level.as_str(),
                describe(s)
            ),
            None => format!("{why}: model call {iteration} of this run"),
        };
        Some(Block {
            policy: p.name.clone(),
            reason,
        })
    })
}

/// Whether `p`'s `when` holds: Some with the source of the first level it names that the
/// context holds (None when it names no level), or None when it does not hold.
#[allow(clippy::option_option)]
pub fn holds<'t>(
    p: &config::ProvenancePolicy,
    taint: Option<&'t Taint>,
    iteration: u32,
) -> Option<Option<&'t Source>> {
    let source = match p.taint_includes.as_slice() {
        [] => None,
        levels => Some(levels.iter().find_map(|l| taint?.source_of(*l))?),
    };
    if p.iteration_gte.is_some_and(|n| iteration < n) {
        return None;
    }
    Some(source)
}

/// The tools of `offered` the model may be given when a run of a session with `taint`
/// starts, or `None` when no policy removes any of them. Judged as at the run's first model
/// call: a policy that waits for a later call removes nothing yet.
pub fn tools_kept<'o>(
    cfg: &ProvenanceConfig,
    taint: Option<&Taint>,
    offered: &'o [String],
) -> Option<Vec<&'o str>> {
    let removing: Vec<_> = (cfg.policies.iter())
        .filter(|p| !p.remove_tools.is_empty() && holds(p, taint, 1).is_some())
        .flat_map(|p| &p.remove_tools)
        .collect();
    let kept: Vec<&str> = (offered.iter())
        .map(String::as_str)
        .filter(|t| !removing.iter().any(|g| g.matches(t)))
        .collect();
    (kept.len() < offered.len()).then_some(kept)
}

/// Whether a policy asking for `wants` (persist_graph, log_full_context) holds.
pub fn wants(
    cfg: &ProvenanceConfig,
    taint: Option<&Taint>,
    iteration: u32,
    wants: impl Fn(&config::ProvenancePolicy) -> bool,
) -> bool {
    cfg.policies
        .iter()
        .any(|p| wants(p) && holds(p, taint, iteration).is_some())
}

fn default_reason(p: &config::ProvenancePolicy) -> String {
    format!("Provenance policy {}", p.name)
}

/// "web_fetch https://x.example/page at 2026-11-24T00:41:07Z".
pub fn describe(s: &Source) -> String {
    let when = chrono::DateTime::from_timestamp_millis(s.at_ms)
        .map(|t| t.format("%Y-%m-%dT%H:%M:%SZ").to_string())
        .unwrap_or_default();
    match s.what.is_empty() {
        true => format!("{} at {when}", s.via),
        false => format!("{} {} at {when}", s.via, s.what),
    }
}

#[cfg(test)]
mod tests;
