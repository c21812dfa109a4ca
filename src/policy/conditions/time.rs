//! `time`: a named window, or after/before (wrapping midnight), and weekdays, in a zone.

use super::{parse_zone, ParseEnv};
use crate::config::error::{index, Issues};
use crate::config::reader::{array, Obj};
use crate::context::Facts;
use crate::time::{in_window, parse_hhmm, LocalTime};
use chrono_tz::Tz;

/// A resolved `timeWindows` entry.
#[derive(Debug, Clone, PartialEq)]
pub struct TimeWindow {
    pub start: u16,
    pub end: u16,
    /// Bit d set = weekday d allowed (0 = Sunday); `None` = every day.
    pub days: Option<u8>,
    pub tz: Option<Tz>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TimeCondition {
    pub range: Option<(u16, u16)>,
    pub days: Option<u8>,
    pub tz: Option<Tz>,
}

impl TimeCondition {
    pub fn parse(o: &Obj, env: &ParseEnv, issues: &mut Issues) -> Option<TimeCondition> {
        o.check_keys(
            &["type", "window", "after", "before", "days", "timezone"],
            issues,
        );
        let mut cond = TimeCondition {
            range: None,
            days: None,
            tz: None,
        };
        if let Some(name) = o.string("window", issues) {
            match env.windows.get(&name) {
                Some(w) => {
                    cond.range = Some((w.start, w.end));
                    cond.days = w.days;
                    cond.tz = w.tz;
                }
                None => issues.push(
                    &o.path_of("window"),
                    format!("unknown time window \"{name}\" (define it under timeWindows)"),
                ),
            }
        }
        let after = hhmm(o, "after", issues);
        let before = hhmm(o, "before", issues);
        if after.is_some() || before.is_some() {
            cond.range = Some((after.unwrap_or(0), before.unwrap_or(24 * 60)));
        }
        if o.get("days").is_some() {
            cond.days = parse_days(o, "days", issues);
        }
        if o.get("timezone").is_some() {
            cond.tz = parse_zone(o, "timezone", issues);
        }
        Some(cond)
    }

    pub fn eval(&self, f: &Facts) -> bool {
        let local = match self.tz {
            Some(tz) => LocalTime::at(f.now_ms, tz),
            None => f.local,
        };
        self.holds_at(local)
    }

    pub fn holds_at(&self, local: LocalTime) -> bool {
        let in_range = self
            .range
            .is_none_or(|(start, end)| in_window(local.minute_of_day, start, end));
        let on_day = self
            .days
            .is_none_or(|mask| mask & (1 << local.weekday) != 0);
        in_range && on_day
    }
}

/// `"HH:MM"` at `key`, or an issue.
pub fn hhmm(o: &Obj, key: &str, issues: &mut Issues) -> Option<u16> {
    let s = o.string(key, issues)?;
    let parsed = parse_hhmm(&s);
    if parsed.is_none() {
        issues.push(
            &o.path_of(key),
            format!("must be a 24-hour time HH:MM, got \"{s}\""),
        );
    }
    parsed
}

pub fn parse_days(o: &Obj, key: &str, issues: &mut Issues) -> Option<u8> {
    let path = o.path_of(key);
    let mut mask = 0u8;
    for (i, d) in array(o.get(key), &path, issues).iter().enumerate() {
        match d.as_u64() {
            Some(n) if n <= 6 => mask |= 1 << n,
            _ => issues.push(
                &index(&path, i),
                format!("must be a weekday number 0 (Sunday) to 6, got {d}"),
            ),
        }
    }
    Some(mask)
}
