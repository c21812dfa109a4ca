//! The facts in force: inline registries, registry files (re-read when they change, by a
//! background thread, so a validation never waits on the disk) and facts pushed by operators
//! (`governance.facts.update`). Never from agent output or tool results (seed 000 §14.2).

use super::config::{parse_registry_file, FileRegistry};
use super::facts::{Fact, FactIndex};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::Read;
use std::sync::{Arc, Mutex, RwLock};
use std::time::SystemTime;

/// What tells one version of a file from another. The mtime alone does not: a file renamed over
/// another within the file system's timestamp granularity (the bridge's way of writing) may
/// carry the same mtime and length, but it is another inode, changed at another time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    mtime: Option<SystemTime>,
    len: u64,
    /// (device, inode, ctime in ns) where the platform has them.
    node: (u64, u64, i128),
}

impl Stamp {
    fn of(m: &std::fs::Metadata) -> Stamp {
        #[cfg(unix)]
        let node = {
            use std::os::unix::fs::MetadataExt;
            (
                m.dev(),
                m.ino(),
                i128::from(m.ctime()) * 1_000_000_000 + i128::from(m.ctime_nsec()),
            )
        };
        #[cfg(not(unix))]
        let node = (0, 0, 0);
        Stamp {
            mtime: m.modified().ok(),
            len: m.len(),
            node,
        }
    }
}

/// A registry file as last read.
struct LoadedFile {
    registry: FileRegistry,
    /// `None`: not there (or not openable) when last looked at.
    stamp: Option<Stamp>,
    facts: Vec<Fact>,
    problem: Option<String>,
    /// It has been read successfully at least once (so its last facts stand in while broken).
    loaded: bool,
    /// Facts in it already reported as not applied: each is reported once, not at every re-read.
    reported: HashSet<String>,
}

impl LoadedFile {
    fn new(registry: FileRegistry) -> LoadedFile {
        LoadedFile {
            registry,
            stamp: None,
            facts: Vec::new(),
            problem: None,
            loaded: false,
            reported: HashSet::new(),
        }
    }

    /// Its facts are missing altogether: never read, and not a file that may rightly be absent.
    fn unavailable(&self) -> Option<&str> {
        let absent_by_design = self.registry.optional && self.stamp.is_none();
        match &self.problem {
            Some(p) if !self.loaded && !absent_by_design => Some(p),
            _ => None,
        }
    }

    /// Takes in what a read gave: its facts, or its problem (reported once; the last facts stay).
    fn take(&mut self, loaded: Loaded, problems: &mut Problems) {
        let (path, key) = (self.registry.path.display(), &self.registry.config_path);
        match loaded {
            Ok((facts, unsupported)) => {
                self.facts = facts;
                self.problem = None;
                self.loaded = true;
                for fact in unsupported {
                    if self.reported.insert(fact.clone()) {
                        problems.push(Problem {
                            level: "warn",
                            message: format!(
                                "{key}: registry file {path}: fact {fact}; not applied, ignored"
                            ),
                        });
                    }
                }
            }
            Err(e) => {
                let absent_by_design = self.registry.optional && self.stamp.is_none();
                if self.problem.as_deref() != Some(e.as_str()) && !absent_by_design {
                    problems.push(Problem {
                        level: "error",
                        message: e.clone(),
                    });
                }
                // A broken file keeps the facts it last had rather than silently dropping them.
                self.problem = Some(e);
            }
        }
    }
}

/// A registry file's facts and the facts in it that are not applied, or why it cannot be read.
type Loaded = Result<(Vec<Fact>, Vec<String>), String>;

/// A registry file's stamp and, unless the stamp is `seen`, its facts. The stamp is taken from
/// the open file, so it belongs to the bytes read even if the file is replaced meanwhile.
fn read_file(reg: &FileRegistry, seen: Option<Stamp>) -> (Option<Stamp>, Loaded) {
    let failed = |e: String| {
        format!(
            "{}: registry file {}: {e}",
            reg.config_path,
            reg.path.display()
        )
    };
    let opened = std::fs::File::open(&reg.path).and_then(|f| {
        let stamp = Stamp::of(&f.metadata()?);
        Ok((f, stamp))
    });
    let Ok((mut file, stamp)) = opened else {
        let e = format!(
            "{}: cannot read the registry file {}",
            reg.config_path,
            reg.path.display()
        );
        return (None, Err(e));
    };
    if Some(stamp) == seen {
        return (Some(stamp), Ok(Default::default()));
    }
    let default_id = reg
        .id
        .clone()
        .unwrap_or_else(|| reg.path.display().to_string());
    let mut bytes = Vec::new();
    let loaded = file
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())
        .and_then(|_| serde_json::from_slice(&bytes).map_err(|e| e.to_string()))
        .and_then(|v| parse_registry_file(&v, &default_id))
        .map_err(failed);
    (Some(stamp), loaded)
}

#[derive(Default)]
struct State {
    inline: Vec<Fact>,
    files: Vec<LoadedFile>,
    dynamic: BTreeMap<String, Vec<Fact>>,
}

pub struct Registries {
    state: RwLock<State>,
    index: RwLock<Arc<FactIndex>>,
    /// Off by default; agent overrides may turn them on.
    disabled: Vec<String>,
    /// Per-agent views (excluded, added) → index, rebuilt lazily after any change.
    views: RwLock<HashMap<View, Arc<FactIndex>>>,
    /// One refresh at a time (the engine at start, the watcher, the bridge after a write): two
    /// at once could store the older of two reads last.
    refreshing: Mutex<()>,
    /// Counts rebuilds: a model's verdict on a text is cached against the facts it was judged by.
    version: std::sync::atomic::AtomicU64,
}

/// An override's registry choice: (excluded ids, added ids).
type View = (Vec<String>, Vec<String>);

/// Something a refresh found that the log must say, once: a registry file that cannot be read
/// (error), or a fact in one that is not applied (warn).
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    pub level: &'static str,
    pub message: String,
}

pub type Problems = Vec<Problem>;

impl Registries {
    pub fn new(inline: Vec<Fact>, files: Vec<FileRegistry>, disabled: Vec<String>) -> Registries {
        let state = State {
            inline,
            files: files.into_iter().map(LoadedFile::new).collect(),
            dynamic: BTreeMap::new(),
        };
        let r = Registries {
            state: RwLock::new(state),
            index: RwLock::new(Arc::new(FactIndex::default())),
            disabled,
            views: RwLock::default(),
            refreshing: Mutex::new(()),
            version: Default::default(),
        };
        r.rebuild();
        r
    }

    /// The index for an agent override: the default registries, minus `exclude`, plus any
    /// disabled ones named in `additional` (seed 000 §9.4).
    pub fn index_for(&self, exclude: &[String], additional: &[String]) -> Arc<FactIndex> {
        let key = (exclude.to_vec(), additional.to_vec());
        if let Some(hit) = self.views.read().ok().and_then(|v| v.get(&key).cloned()) {
            return hit;
        }
        let keep = |reg: &str| {
            !exclude.iter().any(|e| e == reg)
                && (!self.disabled.iter().any(|d| d == reg) || additional.iter().any(|a| a == reg))
        };
        let index = Arc::new(
            FactIndex::build(
                self.all_facts()
                    .into_iter()
                    .filter(|f| keep(&f.registry))
                    .collect(),
            )
            .with_unavailable(self.unavailable(keep)),
        );
        if let Ok(mut views) = self.views.write() {
            views.insert(key, index.clone());
        }
        index
    }

    fn all_facts(&self) -> Vec<Fact> {
        let Ok(state) = self.state.read() else {
            return Vec::new();
        };
        let mut all = state.inline.clone();
        for file in &state.files {
            all.extend(file.facts.iter().cloned());
        }
        for facts in state.dynamic.values() {
            all.extend(facts.iter().cloned());
        }
        all
    }

    pub fn index(&self) -> Arc<FactIndex> {
        self.index.read().map(|i| i.clone()).unwrap_or_default()
    }

    pub fn has_files(&self) -> bool {
        self.state.read().is_ok_and(|s| !s.files.is_empty())
    }

    /// The first registry file whose facts are missing altogether, as its problem.
    /// Of the registries `keep` lets apply: the first file whose facts are missing altogether,
    /// as its problem. A file whose registry id is not configured may hold any registry, so it
    /// always counts.
    fn unavailable(&self, keep: impl Fn(&str) -> bool) -> Option<Arc<str>> {
        let state = self.state.read().ok()?;
        state
            .files
            .iter()
            .filter(|f| f.registry.id.as_deref().is_none_or(&keep))
            .find_map(|f| f.unavailable().map(Arc::from))
    }

    fn rebuild(&self) {
        let all: Vec<Fact> = self
            .all_facts()
            .into_iter()
            .filter(|f| !self.disabled.contains(&f.registry))
            .collect();
        let index = FactIndex::build(all)
            .with_unavailable(self.unavailable(|reg| !self.disabled.iter().any(|d| d == reg)));
        if let Ok(mut current) = self.index.write() {
            *current = Arc::new(index);
        }
        if let Ok(mut views) = self.views.write() {
            views.clear();
        }
        self.version
            .fetch_add(1, std::sync::atomic::Ordering::Release);
    }

    /// Up to `max` facts in force, one line each (`subject: value`), for a model that checks
    /// a text against them.
    pub fn lines(&self, max: usize) -> Vec<String> {
        self.all_facts()
            .into_iter()
            .filter(|f| !self.disabled.contains(&f.registry))
            .take(max)
            .map(|f| format!("{}: {}", f.subject, f.value.describe()))
            .collect()
    }

    /// Changes whenever the facts do (a push, a file re-read).
    pub fn version(&self) -> u64 {
        self.version.load(std::sync::atomic::Ordering::Acquire)
    }

    /// Re-reads registry files that changed. Returns newly seen problems (once each).
    pub fn refresh_files(&self) -> Problems {
        let Ok(_one_at_a_time) = self.refreshing.lock() else {
            return Vec::new();
        };
        let snapshot: Vec<(usize, FileRegistry, Option<Stamp>, bool)> = match self.state.read() {
            Ok(s) => s
                .files
                .iter()
                .enumerate()
                .map(|(i, f)| (i, f.registry.clone(), f.stamp, f.problem.is_some()))
                .collect(),
            Err(_) => return Vec::new(),
        };
        let mut changed = false;
        let mut problems = Vec::new();
        for (i, reg, seen, known_problem) in snapshot {
            let (stamp, loaded) = read_file(&reg, seen);
            // Unchanged: the same file, or still none (its absence already on record).
            if stamp == seen && (stamp.is_some() || known_problem) {
                continue;
            }
            let Ok(mut state) = self.state.write() else {
                continue;
            };
            let entry = &mut state.files[i];
            entry.stamp = stamp;
            entry.take(loaded, &mut problems);
            changed = true;
        }
        if changed {
            self.rebuild();
        }
        problems
    }

    /// Adds a registry file (the bridge's output) unless one with that path is there already.
    pub fn add_file(&self, file: FileRegistry) {
        if let Ok(mut state) = self.state.write() {
            if !state.files.iter().any(|f| f.registry.path == file.path) {
                state.files.push(LoadedFile::new(file));
            }
        }
    }

    /// Adds or replaces (by id) one operator-supplied fact.
    pub fn update(&self, registry: &str, fact: Fact) {
        if let Ok(mut state) = self.state.write() {
            let list = state.dynamic.entry(registry.to_string()).or_default();
            list.retain(|f| f.id != fact.id);
            list.push(fact);
        }
        self.rebuild();
    }
}
