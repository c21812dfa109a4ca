//! `risk`: the assessed risk level within [minRisk, maxRisk].

use crate::config::error::Issues;
use crate::config::reader::Obj;
use crate::context::Facts;
use crate::risk::RiskLevel;

#[derive(Debug, Clone)]
pub struct RiskCondition {
    pub min: Option<RiskLevel>,
    pub max: Option<RiskLevel>,
}

impl RiskCondition {
    pub fn parse(o: &Obj, issues: &mut Issues) -> Option<RiskCondition> {
        o.check_keys(&["type", "minRisk", "maxRisk"], issues);
        Some(RiskCondition {
            min: level(o, "minRisk", issues),
            max: level(o, "maxRisk", issues),
        })
    }

    pub fn eval(&self, f: &Facts) -> bool {
        let level = f.risk.level;
        self.min.is_none_or(|m| level >= m) && self.max.is_none_or(|m| level <= m)
    }
}

fn level(o: &Obj, key: &str, issues: &mut Issues) -> Option<RiskLevel> {
    o.get(key)?;
    let name = o.choice(key, "low", &RiskLevel::NAMES, issues);
    RiskLevel::parse(name)
}
