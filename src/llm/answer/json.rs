//! Exactly one JSON object out of a model's answer, or a reason why not.
//!
//! Tolerance, and why:
//! - Whitespace around the answer, and one Markdown code fence (```` ``` ```` or ```` ```json ````)
//!   that is the whole answer, are accepted: models add them out of habit, and neither leaves any
//!   doubt about which text is the answer.
//! - Anything else around the object is rejected: prose before or after it, a second object, a
//!   second fence. Picking "the JSON in there" out of prose is how a model that quotes an
//!   injected object (or is talked into printing two) would get the attacker's object chosen.
//! - A key that appears twice in any object is rejected: JSON parsers disagree on which copy
//!   wins, so `{"matches": true, "matches": false}` has no single meaning.

use super::Rejected;
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::cell::Cell;
use std::fmt;

/// A judgment is a few hundred bytes; a longer answer is not one (and is not worth parsing).
pub const MAX_ANSWER_BYTES: usize = 16 * 1024;

const FENCE: &str = "```";

/// The one object the answer consists of.
pub fn one_object(answer: &str) -> Result<Map<String, Value>, Rejected> {
    if answer.len() > MAX_ANSWER_BYTES {
        return Err(Rejected::TooLong(answer.len()));
    }
    let body = unfence(answer.trim())?.trim();
    if !body.starts_with('{') {
        let whole_json = serde_json::from_str::<de::IgnoredAny>(body).is_ok();
        return Err(if !whole_json && body.contains('{') {
            Rejected::Surrounded
        } else {
            Rejected::NotJson("no object".into())
        });
    }
    let (value, rest) = first_value(body)?;
    let rest = rest.trim_start();
    if rest.starts_with('{') {
        return Err(Rejected::MoreThanOne);
    }
    if !rest.is_empty() {
        return Err(Rejected::Surrounded);
    }
    match value {
        Value::Object(map) => Ok(map),
        _ => Err(Rejected::NotJson("not an object".into())),
    }
}

/// The inside of a fence that is the whole (trimmed) answer; an unfenced answer as it is.
fn unfence(s: &str) -> Result<&str, Rejected> {
    let Some(after) = s.strip_prefix(FENCE) else {
        return Ok(s);
    };
    let Some((info, inner)) = after.split_once('\n') else {
        return Err(Rejected::Surrounded);
    };
    let info = info.trim();
    if !(info.is_empty() || info.eq_ignore_ascii_case("json")) {
        return Err(Rejected::Surrounded);
    }
    let Some(inner) = inner.strip_suffix(FENCE) else {
        return Err(Rejected::Surrounded);
    };
    // A fence inside the fence means two blocks (or prose between them).
    if inner.contains(FENCE) {
        return Err(Rejected::MoreThanOne);
    }
    Ok(inner)
}

/// The first JSON value of `body` and the text after it. A stream finds where the value ends
/// (it stops there, where `from_str` would fail on what follows); the strict parse then builds
/// just that value.
fn first_value(body: &str) -> Result<(Value, &str), Rejected> {
    let mut stream = serde_json::Deserializer::from_str(body).into_iter::<de::IgnoredAny>();
    match stream.next() {
        Some(Ok(_)) => {}
        Some(Err(e)) => return Err(Rejected::NotJson(e.to_string())),
        None => return Err(Rejected::NotJson("empty".into())),
    }
    let end = stream.byte_offset();
    let duplicate = Cell::new(None);
    let mut de = serde_json::Deserializer::from_str(&body[..end]);
    match Strict(&duplicate).deserialize(&mut de) {
        Ok(v) => Ok((v, &body[end..])),
        Err(e) => Err(match duplicate.take() {
            Some(key) => Rejected::DuplicateKey(key),
            None => Rejected::NotJson(e.to_string()),
        }),
    }
}

/// Deserializes any JSON value like `serde_json::Value` does, but fails on a duplicated key and
/// records which one.
struct Strict<'a>(&'a Cell<Option<String>>);

impl<'de> DeserializeSeed<'de> for Strict<'_> {
    type Value = Value;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Strict<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(v) = seq.next_element_seed(Strict(self.0))? {
            items.push(v);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value_seed(Strict(self.0))?;
            if out.contains_key(&key) {
                self.0.set(Some(super::clip(&key, 40)));
                return Err(de::Error::custom("duplicate key"));
            }
            out.insert(key, value);
        }
        Ok(Value::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(s: &str) -> Map<String, Value> {
        one_object(s).unwrap_or_else(|e| panic!("{s:?} rejected: {e}"))
    }

    #[test]
    fn bare_and_fenced_objects_are_accepted() {
        assert_eq!(ok(r#"{"a":1}"#)["a"], 1);
        assert_eq!(ok(" \n {\"a\": 1}\n\n")["a"], 1);
        assert_eq!(ok("```json\n{\"a\": 1}\n```")["a"], 1);
        assert_eq!(ok("```JSON\n{\"a\": 1}```")["a"], 1);
        assert_eq!(ok("  ```\n{\"a\": 1}\n```  ")["a"], 1);
    }

    #[test]
    fn prose_around_the_object_is_rejected() {
        for s in [
            "Sure! {\"a\": 1}",
            "{\"a\": 1} Hope this helps.",
            "Here it is:\n```json\n{\"a\": 1}\n```",
            "```json\n{\"a\": 1}\n```\nThat is my answer.",
            "`{\"a\": 1}`",
            "```python\n{\"a\": 1}\n```",
            "```json {\"a\": 1}```",
        ] {
            assert_eq!(one_object(s), Err(Rejected::Surrounded), "{s:?}");
        }
    }

    #[test]
    fn a_second_object_is_never_chosen() {
        for s in [
            "{\"a\": 1}{\"a\": 2}",
            "{\"a\": 1}\n\n{\"a\": 2}",
            "```json\n{\"a\": 1}\n```\n```json\n{\"a\": 2}\n```",
        ] {
            assert_eq!(one_object(s), Err(Rejected::MoreThanOne), "{s:?}");
        }
    }

    #[test]
    fn duplicate_keys_are_rejected_at_any_depth() {
        assert_eq!(
            one_object(r#"{"matches": true, "matches": false}"#),
            Err(Rejected::DuplicateKey("matches".into()))
        );
        assert_eq!(
            one_object(r#"{"issues": [{"type": "a", "type": "b"}]}"#),
            Err(Rejected::DuplicateKey("type".into()))
        );
    }

    #[test]
    fn non_objects_and_broken_json_are_not_json() {
        for s in [
            "",
            "matches: false",
            "[{\"a\": 1}]",
            "\"{}\"",
            "{\"a\": 1",
            "{'a': 1}",
            "{\"a\": 1,}",
            "{\"a\": NaN}",
        ] {
            assert!(
                matches!(one_object(s), Err(Rejected::NotJson(_))),
                "{s:?}: {:?}",
                one_object(s)
            );
        }
    }

    #[test]
    fn an_overlong_answer_is_not_parsed() {
        let s = format!("{{\"a\": \"{}\"}}", "x".repeat(MAX_ANSWER_BYTES));
        assert_eq!(one_object(&s), Err(Rejected::TooLong(s.len())));
    }
}
