//! `frequency`: true once this call would exceed `maxCount` calls in `windowSeconds`,
//! so a limit of N lets exactly N calls through per window.

use crate::config::error::Issues;
use crate::config::reader::Obj;
use crate::context::Facts;
use crate::frequency::FrequencyScope;

#[derive(Debug, Clone)]
pub struct FrequencyCondition {
    pub max_count: u64,
    pub window_seconds: u64,
    pub scope: FrequencyScope,
}

impl FrequencyCondition {
    pub fn parse(o: &Obj, issues: &mut Issues) -> Option<FrequencyCondition> {
        o.check_keys(&["type", "maxCount", "windowSeconds", "scope"], issues);
        for key in ["maxCount", "windowSeconds"] {
            if o.get(key).is_none() {
                issues.push(&o.path_of(key), "required for a frequency condition");
            }
        }
        let scope = match o.choice("scope", "agent", &["agent", "session", "global"], issues) {
            "session" => FrequencyScope::Session,
            "global" => FrequencyScope::Global,
            _ => FrequencyScope::Agent,
        };
        Some(FrequencyCondition {
            max_count: o.int("maxCount", 1, 0, 100_000, issues),
            window_seconds: o.int("windowSeconds", 60, 1, 86_400 * 7, issues),
            scope,
        })
    }

    pub fn eval(&self, f: &Facts) -> bool {
        let earlier = f.frequency.count(
            self.scope,
            f.agent_id,
            f.session_key,
            self.window_seconds as i64 * 1000,
            f.now_ms,
        );
        // `earlier` holds calls already let through; this call is the (earlier + 1)-th.
        earlier as u64 + 1 > self.max_count
    }
}
