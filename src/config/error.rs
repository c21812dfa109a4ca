//! Config problems as values: every problem carries the JSON path of the key that caused it,
//! and resolution collects all of them before failing, so a user fixes a config in one pass.

use std::fmt;

/// One problem in the plugin config, e.g. `policies[2].rules[0].conditions[1].params.command.matches`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ConfigIssue {
    pub path: String,
    pub message: String,
}

/// Every problem found while resolving a config. Never empty.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ConfigError {
    pub issues: Vec<ConfigIssue>,
}

impl ConfigError {
    /// Stable code the binding puts on the JS `Error`.
    pub const CODE: &'static str = "GOVERNANCE_CONFIG_INVALID";
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid governance config ({} problem",
            self.issues.len()
        )?;
        if self.issues.len() != 1 {
            write!(f, "s")?;
        }
        write!(f, "):")?;
        for issue in &self.issues {
            write!(f, " {}: {};", issue.path, issue.message)?;
        }
        Ok(())
    }
}

/// Collects issues while the resolver walks the config.
#[derive(Debug, Default)]
pub struct Issues(Vec<ConfigIssue>);

impl Issues {
    pub fn push(&mut self, path: &str, message: impl Into<String>) {
        self.0.push(ConfigIssue {
            path: path.to_string(),
            message: message.into(),
        });
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn into_result<T>(self, value: T) -> Result<T, ConfigError> {
        if self.0.is_empty() {
            Ok(value)
        } else {
            Err(ConfigError { issues: self.0 })
        }
    }
}

/// Joins a JSON path and a key the way users read them: `a.b`, `a[3]`.
pub fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

pub fn index(path: &str, i: usize) -> String {
    format!("{path}[{i}]")
}
