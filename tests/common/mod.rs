//! Helpers shared by the integration tests.

pub mod trail;

use openclaw_governance::audit::store::LogData;
use serde_json::Value;
use std::path::Path;

/// Every record of the trail under `<dir>/governance/audit`, in file order.
#[allow(dead_code)] // not every test crate reads records back
pub fn records(dir: &Path) -> Vec<Value> {
    let data = LogData::read(&dir.join("governance/audit")).unwrap();
    data.files
        .iter()
        .flat_map(|(_, b)| {
            b.split(|c| *c == b'\n')
                .filter(|l| !l.is_empty())
                .map(|l| serde_json::from_slice(l).unwrap())
                .collect::<Vec<Value>>()
        })
        .collect()
}
