//! Reading the trail back: filters over the stored records and export as JSON lines or CSV.

use super::line;
use super::store::LogData;
use serde::Deserialize;
use serde_json::Value;

/// Every filter is optional; all given ones must hold.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Filter {
    pub agent: Option<String>,
    pub session: Option<String>,
    /// Epoch milliseconds or an ISO 8601 time, inclusive.
    pub from: Option<Value>,
    pub to: Option<Value>,
    pub verdict: Option<String>,
    pub policy: Option<String>,
    pub rule: Option<String>,
    pub risk: Option<String>,
    pub hook: Option<String>,
    /// Claim category of output-validation records (`context.outputValidation.claims[].category`).
    pub category: Option<String>,
    /// Keep only the newest `limit` matches.
    pub limit: Option<usize>,
}

fn millis(v: &Value) -> Option<i64> {
    match v {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => s.parse::<i64>().ok().or_else(|| {
            chrono::DateTime::parse_from_rfc3339(s)
                .ok()
                .map(|t| t.timestamp_millis())
                .or_else(|| {
                    chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d")
                        .ok()
                        .and_then(|d| d.and_hms_opt(0, 0, 0))
                        .map(|t| t.and_utc().timestamp_millis())
                })
        }),
        _ => None,
    }
}

impl Filter {
    pub fn validate(&self) -> Result<(), String> {
        for (name, v) in [("from", &self.from), ("to", &self.to)] {
            if v.as_ref().is_some_and(|v| millis(v).is_none()) {
                return Err(format!(
                    "{name}: not a time (epoch ms, ISO 8601 or YYYY-MM-DD)"
                ));
            }
        }
        Ok(())
    }

    pub fn matches(&self, r: &Value) -> bool {
        let ctx = &r["context"];
        let s = |v: &Value| v.as_str().map(str::to_string);
        let eq = |want: &Option<String>, got: Option<String>| {
            want.as_ref()
                .is_none_or(|w| got.as_deref() == Some(w.as_str()))
        };
        let ts = r["timestamp"].as_i64().unwrap_or(0);
        let matched = r["matchedPolicies"].as_array().cloned().unwrap_or_default();
        let policy_ok = self.policy.as_ref().is_none_or(|p| {
            s(&r["policyId"]).as_deref() == Some(p)
                || matched.iter().any(|m| m["policyId"].as_str() == Some(p))
        });
        let rule_ok = self.rule.as_ref().is_none_or(|p| {
            s(&r["ruleId"]).as_deref() == Some(p)
                || matched.iter().any(|m| m["ruleId"].as_str() == Some(p))
        });
        let category_ok = self.category.as_ref().is_none_or(|c| {
            ctx["outputValidation"]["claims"]
                .as_array()
                .is_some_and(|cl| cl.iter().any(|x| x["category"].as_str() == Some(c)))
        });
        eq(&self.agent, s(&ctx["agentId"]))
            && eq(&self.session, s(&ctx["sessionKey"]))
            && eq(&self.verdict, s(&r["verdict"]))
            && eq(&self.risk, s(&r["risk"]["level"]))
            && eq(&self.hook, s(&ctx["hook"]))
            && self.from.as_ref().and_then(millis).is_none_or(|f| ts >= f)
            && self.to.as_ref().and_then(millis).is_none_or(|t| ts <= t)
            && policy_ok
            && rule_ok
            && category_ok
    }
}

/// Matching records, oldest first (the newest `limit` when a limit is set).
pub fn query(data: &LogData, filter: &Filter) -> Vec<Value> {
    let mut out: Vec<Value> = data
        .files
        .iter()
        .flat_map(|(_, bytes)| bytes.split(|b| *b == b'\n'))
        .filter(|l| !l.is_empty())
        .filter_map(|l| {
            let (_, canonical) = line::decode(l).ok()?;
            let mut v: Value = serde_json::from_slice(&canonical).ok()?;
            v["hash"] = Value::String(std::str::from_utf8(&l[9..73]).ok()?.to_string());
            Some(v)
        })
        .filter(|v| filter.matches(v))
        .collect();
    if let Some(limit) = filter.limit {
        let skip = out.len().saturating_sub(limit);
        out.drain(..skip);
    }
    out
}

pub const CSV_COLUMNS: [&str; 17] = [
    "seq",
    "timestampIso",
    "verdict",
    "hook",
    "agentId",
    "sessionKey",
    "toolName",
    "policyId",
    "ruleId",
    "riskLevel",
    "riskScore",
    "trustTier",
    "trustScore",
    "executionPrevented",
    "blockReason",
    "controls",
    "hash",
];

pub fn to_csv(records: &[Value]) -> String {
    let mut out = CSV_COLUMNS.join(",");
    out.push('\n');
    for r in records {
        let ctx = &r["context"];
        let cells = [
            &r["seq"],
            &r["timestampIso"],
            &r["verdict"],
            &ctx["hook"],
            &ctx["agentId"],
            &ctx["sessionKey"],
            &ctx["toolName"],
            &r["policyId"],
            &r["ruleId"],
            &r["risk"]["level"],
            &r["risk"]["score"],
            &r["trust"]["tier"],
            &r["trust"]["score"],
            &r["executionPrevented"],
            &r["blockReason"],
            &r["controls"],
            &r["hash"],
        ];
        let row: Vec<String> = cells.iter().map(|v| csv_cell(v)).collect();
        out.push_str(&row.join(","));
        out.push('\n');
    }
    out
}

fn csv_cell(v: &Value) -> String {
    let text = match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Array(items) => items
            .iter()
            .map(|i| i.as_str().map_or_else(|| i.to_string(), str::to_string))
            .collect::<Vec<_>>()
            .join(" "),
        other => other.to_string(),
    };
    // Formula injection: a cell starting with = + - @ is prefixed so spreadsheets show it as text.
    let text = if text.starts_with(['=', '+', '-', '@']) && !matches!(v, Value::Number(_)) {
        format!("'{text}")
    } else {
        text
    };
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

pub fn to_json_lines(records: &[Value]) -> String {
    records.iter().map(|r| format!("{r}\n")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn filters_combine() {
        let r = json!({ "seq": 1, "timestamp": 1_700_000_000_000i64, "verdict": "deny", "policyId": "p", "ruleId": "r",
            "risk": { "level": "high" }, "context": { "agentId": "a", "sessionKey": "s", "hook": "before_tool_call" },
            "matchedPolicies": [{ "policyId": "p", "ruleId": "r", "effect": "deny" }, { "policyId": "q", "ruleId": "x", "effect": "allow" }] });
        let f = |v: Value| serde_json::from_value::<Filter>(v).unwrap().matches(&r);
        assert!(f(
            json!({ "agent": "a", "verdict": "deny", "risk": "high", "hook": "before_tool_call" })
        ));
        assert!(f(json!({ "policy": "q" })), "any matched policy counts");
        assert!(!f(json!({ "agent": "b" })));
        assert!(f(
            json!({ "from": "2023-11-14", "to": 1_700_000_000_000i64 })
        ));
        assert!(!f(json!({ "from": "2023-11-15T00:00:00Z" })));
        assert!(
            serde_json::from_value::<Filter>(json!({ "agnet": "a" })).is_err(),
            "typos are errors"
        );
    }

    #[test]
    fn csv_quotes_and_defuses_formulas() {
        let recs = vec![
            json!({ "seq": 0, "verdict": "deny", "blockReason": "a, \"b\"", "context": { "agentId": "=cmd()" }, "controls": ["A.8.3", "A.8.5"] }),
        ];
        let csv = to_csv(&recs);
        let row = csv.lines().nth(1).unwrap();
        assert!(row.contains("\"a, \"\"b\"\"\""), "{row}");
        assert!(row.contains("'=cmd()"), "{row}");
        assert!(row.contains("A.8.3 A.8.5"));
    }
}
