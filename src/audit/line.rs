//! One stored record = one line: `{"hash":"<64 hex>",` followed by the rest of the canonical
//! record. The canonical bytes are `{` + everything after that prefix (compact JSON, keys in
//! alphabetical order, no `hash`), and `hash = SHA-256(0x00 ‖ canonical bytes)` (RFC 6962 leaf).
//! A verifier slices bytes; it never has to re-serialize JSON the way we do.

use super::merkle::{self, Hash};

const PREFIX: &[u8] = b"{\"hash\":\"";
/// `{"hash":"` + 64 hex + `",`
pub const HEADER_LEN: usize = PREFIX.len() + 64 + 2;

/// Hash and line (with trailing newline) for canonical record bytes.
pub fn encode(canonical: &[u8]) -> (Hash, Vec<u8>) {
    let hash = merkle::leaf(canonical);
    let mut line = Vec::with_capacity(canonical.len() + HEADER_LEN + 1);
    line.extend_from_slice(PREFIX);
    line.extend_from_slice(merkle::hex(&hash).as_bytes());
    line.extend_from_slice(b"\",");
    line.extend_from_slice(&canonical[1..]);
    line.push(b'\n');
    (hash, line)
}

/// The stored hash and the canonical bytes of a line (without its newline).
pub fn decode(line: &[u8]) -> Result<(Hash, Vec<u8>), &'static str> {
    if line.len() <= HEADER_LEN
        || !line.starts_with(PREFIX)
        || &line[HEADER_LEN - 2..HEADER_LEN] != b"\","
    {
        return Err("malformed record: it does not start with {\"hash\":\"<64 hex>\",");
    }
    let hex =
        std::str::from_utf8(&line[PREFIX.len()..HEADER_LEN - 2]).map_err(|_| "malformed hash")?;
    let stored = merkle::from_hex(hex).ok_or("malformed hash")?;
    let mut canonical = Vec::with_capacity(line.len() - HEADER_LEN + 1);
    canonical.push(b'{');
    canonical.extend_from_slice(&line[HEADER_LEN..]);
    Ok((stored, canonical))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let (h, line) = encode(br#"{"a":1,"b":"x"}"#);
        assert!(line.ends_with(b"\n"));
        let (stored, canonical) = decode(&line[..line.len() - 1]).unwrap();
        assert_eq!(
            (stored, canonical.as_slice()),
            (h, &br#"{"a":1,"b":"x"}"#[..])
        );
        assert_eq!(merkle::leaf(&canonical), h);
        assert!(decode(b"{\"a\":1}").is_err());
    }
}
