//! Wall-clock facts the policies ask about: local time in a named zone, HH:MM windows with midnight wrap.

use chrono::{Datelike, TimeZone, Timelike};
use chrono_tz::Tz;

/// Local time of one evaluation in one zone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LocalTime {
    /// Minutes since local midnight, 0..1440.
    pub minute_of_day: u16,
    /// 0 = Sunday … 6 = Saturday (the seeds' `days` convention).
    pub weekday: u8,
}

impl LocalTime {
    pub fn at(now_ms: i64, tz: Tz) -> LocalTime {
        let utc = chrono::Utc
            .timestamp_millis_opt(now_ms)
            .single()
            .unwrap_or_else(chrono::Utc::now);
        let local = utc.with_timezone(&tz);
        LocalTime {
            minute_of_day: (local.hour() * 60 + local.minute()) as u16,
            weekday: local.weekday().num_days_from_sunday() as u8,
        }
    }

    pub fn hour(&self) -> u16 {
        self.minute_of_day / 60
    }
}

/// `"HH:MM"` (24 h) → minutes since midnight; `None` for anything else.
pub fn parse_hhmm(s: &str) -> Option<u16> {
    let (h, m) = s.split_once(':')?;
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if h.is_empty() || h.len() > 2 || m.len() != 2 || !digits(h) || !digits(m) {
        return None;
    }
    let h: u16 = h.parse().ok()?;
    let m: u16 = m.parse().ok()?;
    (h < 24 && m < 60).then_some(h * 60 + m)
}

pub fn format_hhmm(minutes: u16) -> String {
    format!("{:02}:{:02}", minutes / 60, minutes % 60)
}

/// Whether `minute` lies in `[start, end)`; a window whose end is not after its start wraps past
/// midnight (23:00–08:00). Equal ends mean the whole day, as a window that never closes.
pub fn in_window(minute: u16, start: u16, end: u16) -> bool {
    match start.cmp(&end) {
        std::cmp::Ordering::Less => minute >= start && minute < end,
        std::cmp::Ordering::Greater => minute >= start || minute < end,
        std::cmp::Ordering::Equal => true,
    }
}

pub fn parse_tz(name: &str) -> Option<Tz> {
    // IANA names are case-sensitive, but "utc" or "europe/berlin" is an obvious intent.
    name.parse::<Tz>()
        .ok()
        .or_else(|| Tz::from_str_insensitive(name).ok())
}

pub fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hhmm_parses_and_rejects() {
        assert_eq!(parse_hhmm("23:00"), Some(1380));
        assert_eq!(parse_hhmm("8:05"), Some(485));
        for bad in [
            "24:00", "12:60", "1200", "ab:cd", "12:5", "", "-1:00", "+1:00", "12:+5",
        ] {
            assert_eq!(parse_hhmm(bad), None, "{bad}");
        }
    }

    #[test]
    fn windows_wrap_midnight() {
        let (s, e) = (parse_hhmm("23:00").unwrap(), parse_hhmm("08:00").unwrap());
        assert!(in_window(23 * 60, s, e));
        assert!(in_window(3 * 60, s, e));
        assert!(!in_window(8 * 60, s, e));
        assert!(!in_window(12 * 60, s, e));
        assert!(in_window(10 * 60, 9 * 60, 17 * 60));
        assert!(!in_window(17 * 60, 9 * 60, 17 * 60));
    }

    #[test]
    fn local_time_uses_the_zone() {
        // 2026-01-05 (a Monday) 23:30 UTC is Tuesday 00:30 in Berlin.
        let ms = chrono::Utc
            .with_ymd_and_hms(2026, 1, 5, 23, 30, 0)
            .unwrap()
            .timestamp_millis();
        let utc = LocalTime::at(ms, chrono_tz::UTC);
        assert_eq!((utc.minute_of_day, utc.weekday), (23 * 60 + 30, 1));
        let berlin = LocalTime::at(ms, parse_tz("Europe/Berlin").unwrap());
        assert_eq!((berlin.minute_of_day, berlin.weekday), (30, 2));
    }
}
