//! Model calls per run, for `iteration_gte`: the host numbers calls per attempt (a retry starts
//! again under the same run), so the count is ours, per session, reset by a new run.

use crate::recency::RecencyMap;

const MAX_SESSIONS: usize = 10_000;

#[derive(Default)]
pub struct Runs {
    /// Session → (its current run, model calls in it).
    map: RecencyMap<(String, u32)>,
}

impl Runs {
    /// A model call began in `run` of `session`; its number in the run (1 = the first).
    pub fn model_call(&mut self, session: &str, run: &str) -> u32 {
        let entry = self.map.touch(session, || (run.to_string(), 0));
        if entry.0 != run {
            *entry = (run.to_string(), 0);
        }
        entry.1 = entry.1.saturating_add(1);
        let n = entry.1;
        self.map.evict_to(MAX_SESSIONS);
        n
    }

    /// Model calls so far in the session's current run (0 before the first).
    pub fn iteration(&self, session: &str) -> u32 {
        self.map.get(session).map_or(0, |e| e.1)
    }

    pub fn clear(&mut self, session: &str) {
        self.map.remove(session);
    }
}
