//! `taint`: what the session's context holds (provenance, seed 004), so taint combines with
//! tool, agent, trust, time and risk: `{"type":"taint","includes":["untrusted"]}` holds when
//! untrusted content was read in the session, `{"type":"taint","atOrBelow":"external"}` when
//! anything external or less trusted was.

use crate::config::error::Issues;
use crate::config::reader::{string_list, Obj};
use crate::context::Facts;
use crate::provenance::Level;

#[derive(Debug, Clone)]
pub enum TaintCondition {
    Includes(Vec<Level>),
    AtOrBelow(Level),
}

impl TaintCondition {
    pub fn parse(o: &Obj, issues: &mut Issues) -> Option<TaintCondition> {
        o.check_keys(&["type", "includes", "atOrBelow"], issues);
        let level = Level::parse_at;
        match (o.get("includes"), o.get("atOrBelow")) {
            (Some(v), None) => {
                let path = o.path_of("includes");
                let names = string_list(Some(v), &path, issues);
                if names.is_empty() {
                    issues.push(&path, "name at least one trust level");
                }
                let levels: Vec<Level> = names
                    .iter()
                    .enumerate()
                    .filter_map(|(i, n)| level(n, &format!("{path}[{i}]"), issues))
                    .collect();
                (levels.len() == names.len()).then_some(TaintCondition::Includes(levels))
            }
            (None, Some(_)) => {
                let name = o.string("atOrBelow", issues)?;
                level(&name, &o.path_of("atOrBelow"), issues).map(TaintCondition::AtOrBelow)
            }
            _ => {
                issues.push(
                    &o.path,
                    "a taint condition needs exactly one of includes, atOrBelow",
                );
                None
            }
        }
    }

    pub fn eval(&self, f: &Facts) -> bool {
        let Some(t) = f.taint else { return false };
        match self {
            TaintCondition::Includes(levels) => levels.iter().any(|l| t.includes(*l)),
            TaintCondition::AtOrBelow(l) => t.lowest().is_some_and(|low| low <= *l),
        }
    }
}
