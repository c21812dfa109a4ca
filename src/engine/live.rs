//! What an engine learns while it runs — trust, the agent graph, call rates, recent messages,
//! pending approvals, facts operators pushed — kept apart from what it compiles from the config,
//! so a config edit hands all of it to the new configuration instead of starting over.

use super::evidence::Logs;
use crate::config::GovernanceConfig;
use crate::conversation::Conversations;
use crate::cross_agent::{AgentGraph, Relationship};
use crate::frequency::FrequencyTracker;
use crate::lockfile::{DirLock, Held};
use crate::output::facts::Fact;
use crate::trust::store::Persister;
use crate::trust::TrustManager;
use crate::verdict::LogLine;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub struct Live {
    pub trust: TrustManager,
    /// Where trust.json is (None: in memory only) and whether this process writes it.
    pub trust_file: Option<PathBuf>,
    /// Held by the one process that persists trust.json: two processes writing it whole would
    /// undo each other's changes, an operator's lock among them.
    pub trust_owner: Option<Held>,
    pub graph: Arc<AgentGraph>,
    /// Writes the graph to agents.json (beside trust.json) when it changes, if this process
    /// persists trust: a restart must not lift a sub-agent's ceiling.
    graph_writer: Option<Persister>,
    pub frequency: FrequencyTracker,
    pub conversations: Conversations,
    /// Files each session's calls wrote, for a later call that runs one.
    pub written: crate::written::WrittenFiles,
    pub typed: crate::typed::TypedLines,
    /// The end of what each session last sent outside, for a claim split over two sends.
    pub sent: crate::output::sent::SentTails,
    /// Symbolic links each session's calls made, which later paths may run through.
    pub links: crate::links::SessionLinks,
    /// Escalations waiting for the host's answer.
    pub approvals: crate::approvals::Approvals,
    /// Facts operators pushed (`governance.facts.update`), replayed into a new validator.
    pub pushed_facts: Mutex<Vec<(String, Fact)>>,
    /// The host's model, once the binding hands it over; every config's LLM client asks it.
    pub host_llm: Arc<crate::llm::client::HostSlot>,
    /// Sessions' taint and runs' model calls (seed 004).
    pub provenance: Arc<Mutex<crate::provenance::State>>,
    /// Writes sessions' taint to provenance.json (beside trust.json) when it changes, if this
    /// process persists trust: a restart must not forget what a session read.
    provenance_writer: Option<Persister>,
    sizes: Sizes,
}

/// The config values the stateful parts were sized by.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Sizes {
    frequency_per_key: usize,
    context_messages: usize,
}

fn sizes(config: &GovernanceConfig) -> Sizes {
    Sizes {
        frequency_per_key: config
            .performance
            .frequency_buffer_size
            .max(config.max_frequency_limit() as usize + 1),
        context_messages: config.performance.max_context_messages,
    }
}

/// Frequency keys tracked at most (agents and sessions each).
const FREQUENCY_KEYS: usize = 10_000;

impl Live {
    pub fn start(config: &GovernanceConfig, trust_file: Option<PathBuf>, logs: &Logs) -> Live {
        let sizes = sizes(config);
        let (trust, trust_owner) = open_trust(config, trust_file.clone(), logs);
        let graph_file = trust_file.as_deref().map(graph_path);
        let graph = Arc::new(load_graph(graph_file.as_deref(), logs));
        let graph_writer = graph_file
            .filter(|_| trust_owner.is_some())
            .map(|f| graph_persister(f, graph.clone()));
        let taint_file = trust_file.as_deref().map(provenance_path);
        let provenance = Arc::new(Mutex::new(load_provenance(taint_file.as_deref(), logs)));
        let provenance_writer = taint_file
            .filter(|_| trust_owner.is_some())
            .map(|f| provenance_persister(f, provenance.clone()));
        Live {
            trust,
            trust_file,
            trust_owner,
            graph,
            graph_writer,
            frequency: FrequencyTracker::new(sizes.frequency_per_key, FREQUENCY_KEYS),
            conversations: Conversations::new(sizes.context_messages),
            written: Default::default(),
            typed: Default::default(),
            sent: Default::default(),
            links: Default::default(),
            approvals: Default::default(),
            pushed_facts: Mutex::default(),
            host_llm: Arc::default(),
            provenance,
            provenance_writer,
            sizes,
        }
    }

    /// The same state under a new config. Trust moves to a new file only when the state
    /// directory changed; rate windows and recent messages are resized only when their bounds
    /// changed (and then start empty, which the log says).
    pub fn adopt(
        mut self,
        config: &GovernanceConfig,
        trust_file: Option<PathBuf>,
        logs: &Logs,
    ) -> Live {
        if trust_file != self.trust_file {
            if let Err(e) = self.trust.close() {
                log(logs, "error", format!("trust store: {e}"));
            }
            self.trust_owner = None;
            if let Some(mut w) = self.graph_writer.take() {
                let _ = w.close();
            }
            if let Some(mut w) = self.provenance_writer.take() {
                let _ = w.close();
            }
            let (trust, owner) = open_trust(config, trust_file.clone(), logs);
            self.trust = trust;
            self.graph_writer = trust_file
                .as_deref()
                .map(graph_path)
                .filter(|_| owner.is_some())
                .map(|f| graph_persister(f, self.graph.clone()));
            self.graph_changed();
            let taint_file = trust_file.as_deref().map(provenance_path);
            let loaded = load_provenance(taint_file.as_deref(), logs);
            if let Ok(mut p) = self.provenance.lock() {
                p.sessions.merge(loaded.sessions);
                p.files.merge(loaded.files);
            }
            self.provenance_writer = taint_file
                .filter(|_| owner.is_some())
                .map(|f| provenance_persister(f, self.provenance.clone()));
            self.provenance_changed();
            self.trust_owner = owner;
            self.trust_file = trust_file;
        } else if let Err(e) = self.trust.reconfigure(config.trust.clone()) {
            log(logs, "error", format!("trust store: {e}"));
        }
        let new = sizes(config);
        if new.frequency_per_key != self.sizes.frequency_per_key {
            self.frequency = FrequencyTracker::new(new.frequency_per_key, FREQUENCY_KEYS);
            log(logs, "warn", "frequency windows start over: the largest rate limit or performance.frequencyBufferSize changed".into());
        }
        if new.context_messages != self.sizes.context_messages {
            self.conversations = Conversations::new(new.context_messages);
        }
        self.sizes = new;
        self
    }

    pub fn persists_trust(&self) -> bool {
        self.trust_owner.is_some()
    }

    /// `child` was spawned by `parent` (subagent_spawned).
    pub fn register_subagent(&self, child: &str, parent: &str, agent: Option<&str>, now: i64) {
        if self.graph.register(child, parent, agent, now) {
            self.graph_changed();
        }
    }

    /// `child` ended (subagent_ended, session_end).
    pub fn end_subagent(&self, child: &str) {
        if self.graph.remove(child) {
            self.graph_changed();
        }
    }

    /// A session's taint changed: provenance.json is rewritten soon.
    pub fn provenance_changed(&self) {
        if let Some(w) = &self.provenance_writer {
            w.mark_dirty();
        }
    }

    fn graph_changed(&self) {
        if let Some(w) = &self.graph_writer {
            w.mark_dirty();
        }
    }

    /// Trust and the graph on disk now.
    pub fn flush(&self) -> Result<(), String> {
        let graph = self.graph_writer.as_ref().map_or(Ok(()), |w| w.flush());
        let taint = self
            .provenance_writer
            .as_ref()
            .map_or(Ok(()), |w| w.flush());
        self.trust.flush().and(graph).and(taint)
    }

    pub fn close(&mut self) -> Result<(), String> {
        let graph = self.graph_writer.as_mut().map_or(Ok(()), |w| w.close());
        let taint = self
            .provenance_writer
            .as_mut()
            .map_or(Ok(()), |w| w.close());
        self.trust.close().and(graph).and(taint)
    }
}

/// agents.json: the spawn edges the host reported (seed 002 `AgentRelationship`).
#[derive(serde::Serialize, serde::Deserialize)]
struct GraphFile {
    version: u32,
    relationships: Vec<Relationship>,
}

fn graph_path(trust_file: &std::path::Path) -> PathBuf {
    trust_file.with_file_name("agents.json")
}

fn load_graph(path: Option<&std::path::Path>, logs: &Logs) -> AgentGraph {
    let Some(path) = path else {
        return AgentGraph::default();
    };
    match std::fs::read(path) {
        Ok(bytes) => match serde_json::from_slice::<GraphFile>(&bytes) {
            Ok(f) => AgentGraph::from_relationships(f.relationships),
            Err(e) => {
                log(logs, "error", format!("{}: unreadable ({e}); sub-agents whose spawn it recorded are capped as unknown agents", path.display()));
                AgentGraph::default()
            }
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => AgentGraph::default(),
        Err(e) => {
            log(logs, "error", format!("{}: {e}", path.display()));
            AgentGraph::default()
        }
    }
}

fn graph_persister(path: PathBuf, graph: Arc<AgentGraph>) -> Persister {
    let snapshot = Box::new(move || {
        let file = GraphFile {
            version: 1,
            relationships: graph.relationships(),
        };
        serde_json::to_vec_pretty(&file).ok()
    });
    Persister::start(path, Duration::from_secs(1), snapshot, None)
}

fn provenance_path(trust_file: &std::path::Path) -> PathBuf {
    trust_file.with_file_name("provenance.json")
}

/// An unreadable file is reported, and the process starts without the taint it held: the
/// operator must know that sessions it named may run tools their taint would have blocked.
fn load_provenance(path: Option<&std::path::Path>, logs: &Logs) -> crate::provenance::State {
    use crate::provenance::{Sessions, State, StateFile};
    let Some(path) = path else {
        return State::default();
    };
    match std::fs::read(path) {
        Ok(bytes) => match serde_json::from_slice::<StateFile>(&bytes) {
            Ok(f) => State {
                sessions: Sessions::from_list(f.sessions),
                files: crate::provenance::files::Files::from_list(f.files),
                ..State::default()
            },
            Err(e) => {
                log(
                    logs,
                    "error",
                    format!(
                        "{}: unreadable ({e}); the sessions' taint it held is lost",
                        path.display()
                    ),
                );
                State::default()
            }
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => State::default(),
        Err(e) => {
            log(logs, "error", format!("{}: {e}", path.display()));
            State::default()
        }
    }
}

fn provenance_persister(path: PathBuf, state: Arc<Mutex<crate::provenance::State>>) -> Persister {
    let snapshot = Box::new(move || {
        let (sessions, files) = {
            let s = state.lock().ok()?;
            (s.sessions.to_list(), s.files.to_list())
        };
        serde_json::to_vec(&crate::provenance::StateFile {
            version: 1,
            sessions,
            files,
        })
        .ok()
    });
    Persister::start(path, Duration::from_secs(1), snapshot, None)
}

/// trust.json, persisted by this process if no other holds `trust.lock`; otherwise read once
/// and kept in memory (the other process's writes would overwrite ours, and ours theirs).
fn open_trust(
    config: &GovernanceConfig,
    path: Option<PathBuf>,
    logs: &Logs,
) -> (TrustManager, Option<Held>) {
    let now = crate::time::now_ms();
    let Some(path) = path else {
        return (TrustManager::new(config.trust.clone()), None);
    };
    let dir = path.parent().map(PathBuf::from).unwrap_or_default();
    let owner = std::fs::create_dir_all(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))
        .and_then(|_| DirLock::open(&dir, "trust.lock"))
        .and_then(|lock| lock.acquire(Duration::ZERO));
    match owner {
        Ok(held) => (
            TrustManager::persistent(config.trust.clone(), path, now),
            Some(held),
        ),
        Err(e) => {
            log(logs, "warn", format!("trust: another process persists {} ({e}); this one reads it once and keeps its own changes in memory", path.display()));
            (
                TrustManager::read_only(config.trust.clone(), &path, now),
                None,
            )
        }
    }
}

fn log(logs: &Logs, level: &'static str, message: String) {
    if let Ok(mut l) = logs.lock() {
        l.push(LogLine { level, message });
    }
}
