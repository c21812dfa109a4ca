//! What each session last sent outside. A claim split over two sends ("Status update: nginx
//! is not" and then "installed on the web host.") holds no claim in either; read with the end
//! of the send before it, the second one does. Only the end of the last send is kept: a
//! sentence split across sends fits in it, earlier sentences do not bear on the next one.

use crate::recency::RecencyMap;
use std::sync::Mutex;

/// Sessions remembered; the least recently active goes first.
const MAX_SESSIONS: usize = 1024;
/// Characters kept of a send's end.
const TAIL_CHARS: usize = 240;

#[derive(Default)]
pub struct SentTails {
    inner: Mutex<RecencyMap<Sent>>,
}

struct Sent {
    tail: String,
    /// The whole send's hash: the same send judged again (a second pass with the model's
    /// answer, a retry) is not read as following itself.
    whole: u64,
}

impl SentTails {
    /// The end of what `session` last sent outside, unless it was `text` itself.
    pub fn before(&self, session: &str, text: &str) -> Option<String> {
        let map = self.inner.lock().ok()?;
        let sent = map.get(session)?;
        (sent.whole != hash(text)).then(|| sent.tail.clone())
    }

    /// Notes that `session` sends `text` outside.
    pub fn record(&self, session: &str, text: &str) {
        let Ok(mut map) = self.inner.lock() else {
            return;
        };
        let sent = Sent {
            tail: tail(text).to_owned(),
            whole: hash(text),
        };
        *map.touch(session, || Sent {
            tail: String::new(),
            whole: 0,
        }) = sent;
        map.evict_to(MAX_SESSIONS);
    }
}

/// The last `TAIL_CHARS` characters of `text`.
fn tail(text: &str) -> &str {
    let from = text
        .char_indices()
        .rev()
        .nth(TAIL_CHARS - 1)
        .map_or(0, |(i, _)| i);
    &text[from..]
}

fn hash(text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    text.hash(&mut h);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_end_of_the_last_send_is_kept_per_session() {
        let s = SentTails::default();
        assert!(s.before("a", "x").is_none());
        s.record("a", "Status update: nginx is not");
        assert_eq!(
            s.before("a", "installed.").as_deref(),
            Some("Status update: nginx is not")
        );
        assert!(s.before("b", "installed.").is_none());
        // The same send again does not follow itself.
        assert!(s.before("a", "Status update: nginx is not").is_none());
        let long = "é".repeat(1000);
        s.record("a", &long);
        assert_eq!(
            s.before("a", "y").map(|t| t.chars().count()),
            Some(TAIL_CHARS)
        );
    }

    #[test]
    fn sessions_are_bounded() {
        let s = SentTails::default();
        for i in 0..MAX_SESSIONS + 10 {
            s.record(&i.to_string(), "t");
        }
        assert!(s.before("0", "x").is_none());
        assert!(s.before(&(MAX_SESSIONS + 9).to_string(), "x").is_some());
    }
}
