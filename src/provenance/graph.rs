//! The turn graph (seed 004 "Provenance Graph", "Graph Schema"): for each session, what one
//! run did and where its context came from: the inbound message, what the session had read
//! before, each model call, each tool call and its result, each decision that stopped a call.
//!
//! ```text
//! history ◀─derives_from─ llm_call#1 ─produces─▶ tool_call ─produces─▶ tool_result
//! input ─triggers─▶ llm_call#1       llm_call#2 ─consumes─▶ tool_result
//!                                     tool_call ─blocked_by─▶ policy_decision
//! ```
//!
//! An edge reads as a sentence, `from <relation> to`. Nodes hold SHA-256 hashes of content and,
//! for foreign content only, a redacted preview of at most [`PREVIEW_MAX`] characters: never the
//! content itself. Everything is bounded (see the constants); what a bound drops is counted in
//! `truncated`, and the summary counts everything, dropped nodes included.

use super::level::Level;
use super::taint::{Sessions, Source, Taint};
use crate::recency::RecencyMap;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::path::{Path, PathBuf};

/// Nodes kept per turn. An ordinary run makes a few model calls with a few tool calls each (a
/// node per model call, two per tool call); 128 holds some 40 tool calls, and a node is at most
/// ~400 bytes, so a turn stays under ~64 KB however long a runaway loop goes. Past it nodes are
/// dropped (counted in `truncated.nodes`), except decisions that stopped a call: those are what
/// an investigation needs, and they get [`DECISION_RESERVE`] more places.
pub const MAX_NODES: usize = 128;
/// Places beyond [`MAX_NODES`] kept for policy decisions only.
pub const DECISION_RESERVE: usize = 32;
/// Edges kept per turn: each node brings one or two.
pub const MAX_EDGES: usize = 2 * (MAX_NODES + DECISION_RESERVE);
/// Finished turns kept in memory per session, besides the open one: the recent past an operator
/// asks about (`governance.provenance`); older turns live on only as persisted files.
pub const MAX_TURNS: usize = 4;
/// Sessions whose graphs are kept in memory, the least recently active dropped first. With the
/// bounds above a session holds at most ~320 KB (five turns), so 256 sessions stay under
/// ~80 MB, and an ordinary session (a few small turns) a few KB.
pub const MAX_SESSIONS: usize = 256;
/// Graphs persisted per session directory; the oldest files go first.
pub const MAX_FILES: usize = 50;
/// Characters of foreign content shown, as the seed's preview.
pub const PREVIEW_MAX: usize = 100;
/// Entries of a summary list (sources, blocked tools); further ones are counted.
const MAX_LISTED: usize = 32;
/// Characters the redactor sees around a preview, so a secret that starts inside the preview
/// but ends after it is still recognised by its whole shape before the cut.
const REDACT_WINDOW: usize = 2_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeKind {
    /// The message that started the run.
    Input,
    /// What the session had read before this run (its taint when the run began).
    History,
    LlmCall,
    ToolCall,
    ToolResult,
    PolicyDecision,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Relation {
    Triggers,
    Produces,
    Consumes,
    DerivesFrom,
    BlockedBy,
}

/// What a node's kind alone does not say. Ids and names only, never content.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Meta {
    pub at_ms: i64,
    /// Where content came from: a URL without its query, a path, a sender (redacted, cut).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub source: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// A decision's policy and rule, and its action (deny, escalate).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
}

/// A node's id in its turn, written `n<number>`: a number in memory, so recording a call
/// allocates no id strings (the hot path of `before_tool_call`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NodeId(pub u32);

impl Serialize for NodeId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&format_args!("n{}", self.0))
    }
}

impl<'de> Deserialize<'de> for NodeId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<NodeId, D::Error> {
        let text = String::deserialize(d)?;
        text.strip_prefix('n')
            .and_then(|n| n.parse().ok())
            .map(NodeId)
            .ok_or_else(|| serde::de::Error::custom(format!("not a node id: {text:?}")))
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Node {
    pub id: NodeId,
    pub kind: NodeKind,
    pub trust: Level,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub iteration: Option<u32>,
    /// SHA-256 of the content (hex): audit without storing it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_hash: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_preview: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub blocked: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block_reason: Option<String>,
    pub metadata: Meta,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Edge {
    pub from: NodeId,
    pub to: NodeId,
    pub relation: Relation,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    /// The least trusted content in the turn's context (`system` when nothing else entered).
    pub max_taint: Level,
    /// Foreign sources (shared, external, untrusted) in the context: `via what`.
    pub external_sources: Vec<String>,
    pub tools_blocked: Vec<String>,
    pub iteration_count: u32,
}

/// What the bounds dropped.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Truncated {
    pub nodes: u32,
    pub edges: u32,
    /// Summary list entries past [`MAX_LISTED`].
    pub listed: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TurnGraph {
    pub turn_id: String,
    pub session_key: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
    /// When the turn began (ms since the epoch).
    pub timestamp: i64,
    /// Until the last event seen, or the host's own figure once the run ended.
    pub duration_ms: i64,
    /// False while the run goes on.
    pub finished: bool,
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    pub summary: Summary,
    pub truncated: Truncated,
}

/// Where an event happened: its session's run, agent and time, and what the session held
/// already (read only when the event opens a turn: its `history` node).
#[derive(Clone, Copy)]
pub struct At<'a> {
    pub run: Option<&'a str>,
    pub agent: Option<&'a str>,
    pub at_ms: i64,
    /// Every session's taint, read only when the event opens a turn (its `history` node):
    /// most events do not, and a lookup per tool call is what provenance must not cost.
    pub taints: Option<&'a Sessions>,
}

/// Content that entered the context (the run's message, a tool's result).
pub struct Content<'a> {
    pub level: Level,
    /// `via what`, as a source is described.
    pub source: String,
    /// The text as the host passed it: hashed here, previewed only when foreign.
    pub text: Option<&'a str>,
    /// Its SHA-256 when the caller computed it already.
    pub hash: Option<String>,
}

/// A tool call and the decision on it.
pub struct Call<'a> {
    pub tool: &'a str,
    pub call_id: Option<&'a str>,
    /// deny | escalate with (policy, rule, reason); None: allowed.
    pub decision: Option<Decision<'a>>,
}

pub struct Decision<'a> {
    pub action: &'a str,
    pub policy: Option<&'a str>,
    pub rule: Option<&'a str>,
    pub reason: &'a str,
}

/// One open turn and how new nodes attach to it.
struct Turn {
    graph: TurnGraph,
    run: Option<String>,
    /// The latest model call, which produced the calls that follow.
    last_llm: Option<NodeId>,
    /// Nodes the next model call consumes (the input, results since the last call).
    unconsumed: Vec<(NodeId, Relation)>,
    next_id: u32,
}

#[derive(Default)]
struct SessionGraphs {
    open: Option<Turn>,
    done: VecDeque<TurnGraph>,
}

/// Every session's open turn and recent finished ones.
#[derive(Default)]
pub struct Graphs {
    map: RecencyMap<SessionGraphs>,
    /// Turn ids made when the host named no run.
    made: u64,
}

impl Graphs {
    /// A run began (`before_agent_run`, or the first event of a run when that hook is not
    /// granted). The open turn of another run is finished (each method answers true when it
    /// finished one: `last_finished` has it); the same run's attempt (a retry) goes on.
    pub fn begin(&mut self, session: &str, at: &At) -> bool {
        self.turn(session, at).1
    }

    /// The run's message, once its level is known.
    pub fn input(&mut self, session: &str, at: &At, c: Content) -> bool {
        let (t, finished) = self.turn(session, at);
        if let Some(id) = t.push(node(NodeKind::Input, c, at.at_ms), None) {
            t.unconsumed.push((id, Relation::Triggers));
        }
        finished
    }

    /// A model call began (`model_call_started`).
    pub fn model_call(&mut self, session: &str, at: &At) -> bool {
        let (t, finished) = self.turn(session, at);
        t.graph.summary.iteration_count += 1;
        let mut llm = bare(NodeKind::LlmCall, t.graph.summary.max_taint, at.at_ms);
        llm.iteration = t.iteration();
        let Some(id) = t.push(llm, None) else {
            return finished;
        };
        let mut inputs = std::mem::take(&mut t.unconsumed);
        if let Some(prev) = t.last_llm.replace(id) {
            inputs.insert(0, (prev, Relation::DerivesFrom));
        }
        for (other, rel) in inputs {
            // The input triggers the call; the call consumes results and derives from the rest.
            match rel {
                Relation::Triggers => t.edge(other, id, rel),
                _ => t.edge(id, other, rel),
            }
        }
        finished
    }

    /// A tool call was judged (`before_tool_call`); `taint` is the session's lowest level then.
    pub fn tool_call(&mut self, session: &str, at: &At, c: Call, taint: Option<Level>) -> bool {
        let (t, finished) = self.turn(session, at);
        let context = t.graph.summary.max_taint;
        let trust = taint.map_or(context, |l| l.min(context));
        if c.decision.is_none() && t.graph.nodes.len() >= MAX_NODES {
            // A full turn counts an allowed call without building its node.
            t.graph.summary.max_taint = trust;
            t.graph.truncated.nodes += 1;
            return finished;
        }
        let blocked = c.decision.as_ref().is_some_and(|d| d.action == "deny");
        let mut call = bare(NodeKind::ToolCall, trust, at.at_ms);
        call.tool = Some(c.tool.to_string());
        call.iteration = t.iteration();
        call.metadata.tool_call_id = c.call_id.map(str::to_string);
        call.blocked = blocked;
        if blocked {
            call.block_reason = c.decision.as_ref().map(|d| d.reason.to_string());
            note(
                &mut t.graph.summary.tools_blocked,
                c.tool,
                &mut t.graph.truncated,
            );
        }
        let id = t.push(call, None);
        if let (Some(id), Some(llm)) = (id, t.last_llm) {
            t.edge(llm, id, Relation::Produces);
        }
        let Some(d) = c.decision else {
            return finished;
        };
        let mut n = bare(NodeKind::PolicyDecision, Level::System, at.at_ms);
        n.blocked = blocked;
        n.block_reason = Some(d.reason.to_string());
        n.metadata.policy = d.policy.map(str::to_string);
        n.metadata.rule = d.rule.map(str::to_string);
        n.metadata.action = Some(d.action.to_string());
        if let (Some(call), Some(decision)) = (id, t.push(n, Some(DECISION_RESERVE))) {
            let rel = match blocked {
                true => Relation::BlockedBy,
                false => Relation::Triggers,
            };
            t.edge(call, decision, rel);
        }
        finished
    }

    /// A tool's result entered the context (`after_tool_call`).
    pub fn tool_result(
        &mut self,
        session: &str,
        at: &At,
        (tool, call_id): (&str, Option<&str>),
        c: Content,
    ) -> bool {
        let (t, finished) = self.turn(session, at);
        let mut n = node(NodeKind::ToolResult, c, at.at_ms);
        n.tool = Some(tool.to_string());
        n.iteration = t.iteration();
        n.metadata.tool_call_id = call_id.map(str::to_string);
        let call = t.call_of(tool, call_id);
        if let Some(id) = t.push(n, None) {
            if let Some(call) = call {
                t.edge(call, id, Relation::Produces);
            }
            t.unconsumed.push((id, Relation::Consumes));
        }
        finished
    }

    /// The run ended (`agent_end`): true when it finished the session's open turn.
    pub fn end(
        &mut self,
        session: &str,
        run: Option<&str>,
        duration_ms: Option<i64>,
        at_ms: i64,
    ) -> bool {
        let Some(s) = self.map.get_mut(session) else {
            return false;
        };
        let other = |o: &Turn| run.is_some() && o.run.is_some() && o.run.as_deref() != run;
        if s.open.as_ref().is_none_or(other) {
            return false;
        }
        s.finish(duration_ms, at_ms)
    }

    /// The session's latest finished turn (the one a `true` answer above finished).
    pub fn last_finished(&self, session: &str) -> Option<&TurnGraph> {
        self.map.get(session)?.done.back()
    }

    /// The session's open turn, if a run is going on.
    pub fn current(&self, session: &str) -> Option<&TurnGraph> {
        self.map.get(session)?.open.as_ref().map(|t| &t.graph)
    }

    /// The session's finished turns kept in memory, the oldest first.
    pub fn recent(&self, session: &str) -> impl Iterator<Item = &TurnGraph> {
        self.map
            .get(session)
            .into_iter()
            .flat_map(|s| s.done.iter())
    }

    /// Sessions with graphs in memory.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// The open turn of `at.run`: the session's open turn when it is the same run (or either
    /// run is unnamed), else a new one, the previous returned finished.
    fn turn(&mut self, session: &str, at: &At) -> (&mut Turn, bool) {
        if self.map.len() >= MAX_SESSIONS && self.map.get(session).is_none() {
            self.map.evict_to(MAX_SESSIONS - 1);
        }
        let made = &mut self.made;
        let s = self.map.touch(session, SessionGraphs::default);
        let same = s
            .open
            .as_ref()
            .is_some_and(|t| at.run.is_none() || t.run.is_none() || t.run.as_deref() == at.run);
        let finished = !same && s.finish(None, at.at_ms);
        let t = s.open.get_or_insert_with(|| {
            *made += 1;
            Turn::new(session, at, *made)
        });
        if t.run.is_none() {
            t.run = at.run.map(str::to_string);
        }
        if t.graph.agent_id.is_none() {
            t.graph.agent_id = at.agent.map(str::to_string);
        }
        t.graph.duration_ms = t.graph.duration_ms.max(at.at_ms - t.graph.timestamp);
        (t, finished)
    }
}

impl SessionGraphs {
    /// Moves the open turn to the finished ones; true when there was one.
    fn finish(&mut self, duration_ms: Option<i64>, at_ms: i64) -> bool {
        let Some(t) = self.open.take() else {
            return false;
        };
        let mut g = t.graph;
        g.finished = true;
        g.duration_ms = duration_ms.unwrap_or(at_ms - g.timestamp).max(0);
        self.done.push_back(g);
        while self.done.len() > MAX_TURNS {
            self.done.pop_front();
        }
        true
    }
}

impl Turn {
    fn new(session: &str, at: &At, made: u64) -> Turn {
        let turn_id = match at.run {
            Some(r) if !r.is_empty() => r.to_string(),
            _ => format!("turn-{}-{made}", at.at_ms),
        };
        let mut t = Turn {
            graph: TurnGraph {
                turn_id,
                session_key: session.to_string(),
                agent_id: at.agent.map(str::to_string),
                timestamp: at.at_ms,
                duration_ms: 0,
                finished: false,
                nodes: Vec::new(),
                edges: Vec::new(),
                summary: Summary {
                    max_taint: Level::System,
                    external_sources: Vec::new(),
                    tools_blocked: Vec::new(),
                    iteration_count: 0,
                },
                truncated: Truncated::default(),
            },
            run: at.run.map(str::to_string),
            last_llm: None,
            unconsumed: Vec::new(),
            next_id: 0,
        };
        if let Some(taint) = at.taints.and_then(|s| s.get(session)) {
            t.history(taint, at.at_ms);
        }
        t
    }

    /// What the session had read before the run: one node at its lowest level; every foreign
    /// source it held is in the summary.
    fn history(&mut self, taint: &Taint, at_ms: i64) {
        let Some(lowest) = taint.sources.first() else {
            return;
        };
        let g = &mut self.graph;
        for s in taint.sources.iter().filter(|s| s.level.is_foreign()) {
            note(
                &mut g.summary.external_sources,
                &source_text(s),
                &mut g.truncated,
            );
        }
        let mut n = bare(NodeKind::History, lowest.level, at_ms);
        n.metadata.source = source_text(lowest);
        n.content_hash = lowest.sha256.clone();
        if let Some(id) = self.push(n, None) {
            self.unconsumed.push((id, Relation::DerivesFrom));
        }
    }

    /// Adds `n` unless the turn is full (`reserve`: places beyond the cap for this kind);
    /// the summary takes it in either way.
    fn push(&mut self, mut n: Node, reserve: Option<usize>) -> Option<NodeId> {
        let g = &mut self.graph;
        g.summary.max_taint = g.summary.max_taint.min(n.trust);
        if n.trust.is_foreign() && !n.metadata.source.is_empty() {
            note(
                &mut g.summary.external_sources,
                &n.metadata.source,
                &mut g.truncated,
            );
        }
        if g.nodes.len() >= MAX_NODES + reserve.unwrap_or(0) {
            g.truncated.nodes += 1;
            return None;
        }
        self.next_id += 1;
        n.id = NodeId(self.next_id);
        g.nodes.push(n);
        Some(NodeId(self.next_id))
    }

    fn edge(&mut self, from: NodeId, to: NodeId, relation: Relation) {
        let g = &mut self.graph;
        if g.edges.len() >= MAX_EDGES {
            g.truncated.edges += 1;
            return;
        }
        g.edges.push(Edge { from, to, relation });
    }

    fn iteration(&self) -> Option<u32> {
        Some(self.graph.summary.iteration_count).filter(|n| *n > 0)
    }

    /// The call a result belongs to: the one with its id, else the latest call of the tool
    /// that has no result yet (hosts and tests that pass no ids).
    fn call_of(&self, tool: &str, call_id: Option<&str>) -> Option<NodeId> {
        let nodes = &self.graph.nodes;
        let answered = |id: NodeId| {
            self.graph
                .edges
                .iter()
                .any(|e| e.from == id && e.relation == Relation::Produces)
        };
        let found = match call_id {
            Some(cid) => nodes.iter().rev().find(|n| {
                n.kind == NodeKind::ToolCall && n.metadata.tool_call_id.as_deref() == Some(cid)
            }),
            None => nodes.iter().rev().find(|n| {
                n.kind == NodeKind::ToolCall
                    && n.tool.as_deref() == Some(tool)
                    && !n.blocked
                    && !answered(n.id)
            }),
        };
        found.map(|n| n.id)
    }
}

fn note(list: &mut Vec<String>, item: &str, truncated: &mut Truncated) {
    if list.iter().any(|s| s == item) {
        return;
    }
    if list.len() >= MAX_LISTED {
        truncated.listed += 1;
        return;
    }
    list.push(item.to_string());
}

/// `web_fetch https://x.example/page`: a source as the summary lists it.
pub fn source_text(s: &Source) -> String {
    match s.what.is_empty() {
        true => s.via.clone(),
        false => format!("{} {}", s.via, s.what),
    }
}

fn bare(kind: NodeKind, trust: Level, at_ms: i64) -> Node {
    Node {
        id: NodeId::default(),
        kind,
        trust,
        tool: None,
        iteration: None,
        content_hash: None,
        content_preview: None,
        blocked: false,
        block_reason: None,
        metadata: Meta {
            at_ms,
            ..Meta::default()
        },
    }
}

/// A node for content: hashed; previewed only when someone else wrote it (the owner's words
/// and the machine's own files may hold what an operator reading graphs should not see).
fn node(kind: NodeKind, c: Content, at_ms: i64) -> Node {
    let mut n = bare(kind, c.level, at_ms);
    n.content_hash = c.hash.or_else(|| c.text.map(sha256_hex));
    n.content_preview = c.text.filter(|_| c.level.is_foreign()).map(preview);
    n.metadata.source = c.source;
    n
}

/// At most [`PREVIEW_MAX`] characters of `text`, secrets out (NORMATIVE N6). The redactor
/// reads a wider window than is kept, so a secret that straddles the cut is replaced whole.
pub fn preview(text: &str) -> String {
    let window = match text.char_indices().nth(REDACT_WINDOW) {
        Some((i, _)) => &text[..i],
        None => text,
    };
    let clean = crate::audit::redact::Redactor::whole().text(window);
    match clean.char_indices().nth(PREVIEW_MAX) {
        Some((i, _)) => format!("{}…", &clean[..i]),
        None => clean,
    }
}

pub fn sha256_hex(text: &str) -> String {
    use sha2::Digest;
    crate::audit::merkle::hex(&sha2::Sha256::digest(text.as_bytes()).into())
}

/// A file or directory name for a host-given key (a session key, a run id): the safe
/// characters kept (others become `_`), cut, and a hash of the whole key appended, so two keys
/// that read the same after the cut never share a name. The CLI computes the same name.
pub fn file_name(key: &str) -> String {
    let safe: String = key
        .chars()
        .take(64)
        .map(|c| match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '.' | '_' | '-' => c,
            _ => '_',
        })
        .collect();
    format!(
        "{}-{}",
        safe.trim_start_matches('.'),
        &sha256_hex(key)[..12]
    )
}

/// Where `g` is persisted under `dir` (`provenance/graphs`).
pub fn path_of(dir: &Path, g: &TurnGraph) -> PathBuf {
    dir.join(file_name(&g.session_key))
        .join(format!("{}.json", file_name(&g.turn_id)))
}

/// Writes `g` atomically under `dir`, then drops the session's oldest files past
/// [`MAX_FILES`]. Returns the file written.
pub fn persist(dir: &Path, g: &TurnGraph) -> Result<PathBuf, String> {
    let path = path_of(dir, g);
    let bytes = serde_json::to_vec_pretty(g).map_err(|e| e.to_string())?;
    crate::audit::store::write_atomic(&path, &bytes)?;
    if let Some(session_dir) = path.parent() {
        prune(session_dir, MAX_FILES);
    }
    Ok(path)
}

/// The `max` most recently written graphs of `session` under `dir`, the oldest first; files
/// that do not parse as turn graphs are skipped (they are not ours to judge here).
pub fn read_persisted(dir: &Path, session: &str, max: usize) -> Vec<TurnGraph> {
    let files = by_age(&dir.join(file_name(session)));
    files[files.len().saturating_sub(max)..]
        .iter()
        .filter_map(|f| serde_json::from_slice(&std::fs::read(f).ok()?).ok())
        .collect()
}

/// Keeps the `keep` most recently written graphs of a session directory.
fn prune(dir: &Path, keep: usize) {
    let files = by_age(dir);
    if files.len() <= keep {
        return;
    }
    for f in &files[..files.len() - keep] {
        let _ = std::fs::remove_file(f);
    }
}

/// The graph files of a session directory, the least recently written first.
fn by_age(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<(std::time::SystemTime, PathBuf)> = entries
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    files.sort();
    files.into_iter().map(|(_, f)| f).collect()
}

#[cfg(test)]
#[path = "graph_tests.rs"]
mod tests;
