//! The strings of claims, checks and violations: builtin names are `&'static`, short texts (a
//! subject, a matched segment, a fact id) live inline, longer ones are shared.
//!
//! A validation makes a few strings per claim and hands copies to the result and to the audit
//! record. Allocating each, or sharing each behind a reference count that the audit writer
//! thread then decrements on another core, cost more than finding the claims; an inline copy is
//! a plain memcpy.

use serde::Serialize;
use std::sync::Arc;

/// Strings up to this many bytes are stored inline.
const INLINE: usize = 30;

#[derive(Clone)]
pub struct Text(Repr);

#[derive(Clone)]
enum Repr {
    Static(&'static str),
    Inline(u8, [u8; INLINE]),
    Shared(Arc<str>),
}

impl Text {
    pub const fn from_static(s: &'static str) -> Text {
        Text(Repr::Static(s))
    }

    pub fn new(s: &str) -> Text {
        if s.len() > INLINE {
            return Text(Repr::Shared(Arc::from(s)));
        }
        let (b, n) = (s.as_bytes(), s.len());
        let mut buf = [0u8; INLINE];
        // Two fixed-size copies that may overlap instead of a memcpy call of unknown length: a
        // claim makes two or three of these.
        if n >= 16 {
            buf[..16].copy_from_slice(&b[..16]);
            buf[n - 16..n].copy_from_slice(&b[n - 16..]);
        } else if n >= 8 {
            buf[..8].copy_from_slice(&b[..8]);
            buf[n - 8..n].copy_from_slice(&b[n - 8..]);
        } else {
            buf[..n].copy_from_slice(b);
        }
        Text(Repr::Inline(n as u8, buf))
    }

    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Static(s) => s,
            // A whole `&str` was copied in, so the bytes are valid UTF-8.
            Repr::Inline(len, buf) => {
                std::str::from_utf8(&buf[..*len as usize]).unwrap_or_default()
            }
            Repr::Shared(s) => s,
        }
    }
}

impl std::ops::Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Text {
        Text::new(s)
    }
}

impl From<String> for Text {
    fn from(s: String) -> Text {
        Text::new(&s)
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Text {}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl std::fmt::Debug for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

impl std::fmt::Display for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Text {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::Text;

    #[test]
    fn every_kind_reads_back_as_written() {
        let long = "x".repeat(31);
        for s in [
            "",
            "nginx",
            "naïve café ✓",
            "exactly thirty bytes, no more!",
            long.as_str(),
        ] {
            assert_eq!(Text::new(s).as_str(), s);
            assert_eq!(Text::new(s).clone(), Text::from(s.to_string()));
        }
        // Every inline length, each byte distinct: the copies overlap differently for each.
        let bytes: String = ('a'..='z').chain('A'..='Z').collect();
        for n in 0..=31 {
            assert_eq!(Text::new(&bytes[..n]).as_str(), &bytes[..n]);
        }
        assert_eq!(Text::from_static("systemState"), "systemState");
        assert_eq!(
            serde_json::to_string(&Text::new("a\"b")).unwrap(),
            r#""a\"b""#
        );
    }
}
