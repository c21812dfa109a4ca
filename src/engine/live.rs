//! What an engine learns while it runs — trust, the agent graph, call rates, recent messages,
//! pending approvals, facts operators pushed — kept apart from what it compiles from the config,
//! so a config edit hands all of it to the new configuration instead of starting over.

use super::evidence::Logs;
use crate::config::GovernanceConfig;
use crate::conversation::Conversations;
use crate::cross_agent::AgentGraph;
use crate::frequency::FrequencyTracker;
use crate::lockfile::{DirLock, Held};
use crate::output::facts::Fact;
use crate::trust::TrustManager;
use crate::verdict::LogLine;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

pub struct Live {
    pub trust: TrustManager,
    /// Where trust.json is (None: in memory only) and whether this process writes it.
    pub trust_file: Option<PathBuf>,
    /// Held by the one process that persists trust.json: two processes writing it whole would
    /// undo each other's changes, an operator's lock among them.
    pub trust_owner: Option<Held>,
    pub graph: AgentGraph,
    pub frequency: FrequencyTracker,
    pub conversations: Conversations,
    /// Escalations waiting for the host's answer.
    pub approvals: crate::approvals::Approvals,
    /// Facts operators pushed (`governance.facts.update`), replayed into a new validator.
    pub pushed_facts: Mutex<Vec<(String, Fact)>>,
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
        Live {
            trust,
            trust_file,
            trust_owner,
            graph: AgentGraph::default(),
            frequency: FrequencyTracker::new(sizes.frequency_per_key, FREQUENCY_KEYS),
            conversations: Conversations::new(sizes.context_messages),
            approvals: Default::default(),
            pushed_facts: Mutex::default(),
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
            let (trust, owner) = open_trust(config, trust_file.clone(), logs);
            self.trust = trust;
            self.trust_owner = owner;
            self.trust_file = trust_file;
        } else {
            self.trust.reconfigure(config.trust.clone());
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
