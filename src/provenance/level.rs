//! Trust levels of content (seed 004 "Trust Levels"): where a piece of the context came from.
//! A derived artifact takes the lowest level of its inputs, so the order is what matters:
//! `system > owner > local > shared > external > untrusted`.

use serde::{Serialize, Serializer};

/// Declared from the least to the most trusted, so `Ord` and `min` follow the seed's rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Web content, unknown webhooks, strangers.
    Untrusted,
    /// Email, chat channels, calendars: known senders, not controlled.
    External,
    /// Shared memory, other agents' results.
    Shared,
    /// Local operations: files read, commands run.
    Local,
    /// The verified owner's own messages.
    Owner,
    /// System prompt and workspace instructions.
    System,
}

impl Level {
    pub const ALL: [Level; 6] = [
        Level::System,
        Level::Owner,
        Level::Local,
        Level::Shared,
        Level::External,
        Level::Untrusted,
    ];
    pub const NAMES: [&'static str; 6] = [
        "system",
        "owner",
        "local",
        "shared",
        "external",
        "untrusted",
    ];

    pub fn parse(name: &str) -> Option<Level> {
        Some(match name {
            "system" => Level::System,
            "owner" => Level::Owner,
            "local" => Level::Local,
            "shared" => Level::Shared,
            "external" => Level::External,
            "untrusted" => Level::Untrusted,
            _ => return None,
        })
    }

    /// `name` read from config at `path`; an unknown name is an issue naming the levels.
    pub fn parse_at(
        name: &str,
        path: &str,
        issues: &mut crate::config::error::Issues,
    ) -> Option<Level> {
        let l = Level::parse(name);
        if l.is_none() {
            issues.push(
                path,
                format!(
                    "unknown trust level \"{name}\" (one of {})",
                    Level::NAMES.join(", ")
                ),
            );
        }
        l
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Level::System => "system",
            Level::Owner => "owner",
            Level::Local => "local",
            Level::Shared => "shared",
            Level::External => "external",
            Level::Untrusted => "untrusted",
        }
    }

    /// Below what the owner and the machine produce: content someone else controls.
    pub fn is_foreign(self) -> bool {
        self <= Level::Shared
    }
}

impl Serialize for Level {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for Level {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Level, D::Error> {
        let name = String::deserialize(d)?;
        Level::parse(&name).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "unknown trust level \"{name}\" (one of {})",
                Level::NAMES.join(", ")
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_order_is_the_seeds() {
        let mut sorted = Level::ALL;
        sorted.sort_by(|a, b| b.cmp(a));
        assert_eq!(sorted, Level::ALL, "ALL lists the most trusted first");
        assert_eq!(Level::Owner.min(Level::External), Level::External);
        for (l, n) in Level::ALL.iter().zip(Level::NAMES) {
            assert_eq!(Level::parse(n), Some(*l));
            assert_eq!(l.as_str(), n);
        }
        assert_eq!(Level::parse("Untrusted"), None, "names are exact");
    }
}
