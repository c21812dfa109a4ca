//! The MAC that makes trust.json tamper-evident (issue 12 item 5): HMAC-SHA256 over the bytes
//! the writer serialized, under a key of its own in `<governance>/keys/trust.key`.
//!
//! Why a dedicated symmetric key rather than the audit's Ed25519 key: the only verifier is the
//! engine that wrote the file, so nothing public is needed; the audit key may be configured
//! elsewhere (`audit.checkpoint.keyFile`) or absent (audit off) while trust still persists; and
//! rotating one key must not invalidate what the other protects.
//!
//! Why HMAC by hand over `sha2` instead of the `hmac` crate: it is the dozen lines of RFC 2104,
//! checked against RFC 4231's vectors in the tests, and needs no new crate; the comparison uses
//! `subtle` (already in the tree through ed25519-dalek) so it takes the same time wherever the
//! first wrong byte is.

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine;
use sha2::{Digest, Sha256};
use std::fs;
use std::path::{Path, PathBuf};
use subtle::ConstantTimeEq;

const BLOCK: usize = 64;
/// Binds the MAC to this use: a tag made for anything else with the same key never verifies.
const DOMAIN: &[u8] = b"openclaw-governance trust.json v1\n";
const KEY_PREFIX: &str = "trust-hmac-sha256:";
/// What the writer appends inside the JSON object (`serde_json` pretty output ends in `\n}`).
const MAC_FIELD: &[u8] = b",\n  \"mac\": \"hmac-sha256:";
const MAC_END: &[u8] = b"\"\n}\n";

/// HMAC-SHA256 (RFC 2104) of the concatenated `parts`.
pub fn hmac_sha256(key: &[u8], parts: &[&[u8]]) -> [u8; 32] {
    let mut block = [0u8; BLOCK];
    if key.len() > BLOCK {
        block[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        block[..key.len()].copy_from_slice(key);
    }
    let pad = |byte: u8| block.map(|b| b ^ byte);
    let mut inner = Sha256::new();
    inner.update(pad(0x36));
    for p in parts {
        inner.update(p);
    }
    let mut outer = Sha256::new();
    outer.update(pad(0x5c));
    outer.update(inner.finalize());
    outer.finalize().into()
}

/// `<dir of trust.json>/keys/trust.key`: beside the audit signing key, in the directory
/// self-protection keeps every tool out of.
pub fn key_path(trust_file: &Path) -> PathBuf {
    let dir = trust_file.parent().unwrap_or(Path::new(""));
    dir.join("keys").join("trust.key")
}

/// Why a file does not authenticate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Forged {
    /// No MAC where the writer puts one (removed, truncated, or never signed).
    NoMac,
    /// A MAC, but not the one this key gives for these bytes (edited since it was written).
    WrongMac,
}

impl std::fmt::Display for Forged {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Forged::NoMac => "no MAC (removed, truncated or never signed)",
            Forged::WrongMac => "the MAC does not match (changed since the engine wrote it)",
        })
    }
}

pub struct TrustKey([u8; 32]);

impl TrustKey {
    /// The key if there is one; an unreadable or malformed key is an error that never quotes
    /// the file (it would put key material in the logs).
    pub fn load(path: &Path) -> Result<Option<TrustKey>, String> {
        match fs::read_to_string(path) {
            Ok(text) => TrustKey::parse(&text)
                .map(Some)
                .ok_or_else(|| format!("{} is not a trust key", path.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(format!("{}: {}", path.display(), e.kind())),
        }
    }

    /// A new random key, written 0600 and only if none exists (a key another process made
    /// first wins, and is the one returned). Written whole to a temporary file, then linked
    /// into place: a crash never leaves a half-written key behind.
    pub fn create(path: &Path) -> Result<TrustKey, String> {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).map_err(|e| format!("no randomness for the trust key: {e}"))?;
        let key = TrustKey(bytes);
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        let tmp = path.with_extension(format!("key.{}.tmp", std::process::id()));
        let _ = fs::remove_file(&tmp);
        let text = format!("{KEY_PREFIX}{}\n", B64.encode(key.0));
        let linked =
            crate::private_file::create(&tmp, &text).and_then(|()| fs::hard_link(&tmp, path));
        let _ = fs::remove_file(&tmp);
        match linked {
            Ok(()) => Ok(key),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                TrustKey::load(path)?.ok_or_else(|| format!("{} vanished", path.display()))
            }
            Err(e) => Err(format!("{}: {e}", path.display())),
        }
    }

    fn parse(text: &str) -> Option<TrustKey> {
        let data = text.trim().strip_prefix(KEY_PREFIX)?;
        let bytes = B64.decode(data).ok()?;
        Some(TrustKey(bytes.try_into().ok()?))
    }

    fn mac(&self, body: &[u8]) -> [u8; 32] {
        hmac_sha256(&self.0, &[DOMAIN, body])
    }

    /// `body` (a pretty-printed JSON object) with a `mac` field over exactly these bytes.
    pub fn seal(&self, body: &[u8]) -> Option<Vec<u8>> {
        let open = body.strip_suffix(b"\n}")?;
        let hex: String = self.mac(body).iter().map(|b| format!("{b:02x}")).collect();
        Some([open, MAC_FIELD, hex.as_bytes(), MAC_END].concat())
    }

    /// Checks a sealed file: Ok when its MAC is this key's MAC of the bytes before it.
    pub fn open(&self, file: &[u8]) -> Result<(), Forged> {
        let at = memchr::memmem::rfind(file, MAC_FIELD).ok_or(Forged::NoMac)?;
        let tail = &file[at + MAC_FIELD.len()..];
        let hex = tail.strip_suffix(MAC_END).ok_or(Forged::NoMac)?;
        let given = decode_hex(hex).ok_or(Forged::NoMac)?;
        let body = [&file[..at], b"\n}"].concat();
        match bool::from(self.mac(&body).ct_eq(&given)) {
            true => Ok(()),
            false => Err(Forged::WrongMac),
        }
    }
}

fn decode_hex(hex: &[u8]) -> Option<[u8; 32]> {
    if hex.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (o, pair) in out.iter_mut().zip(hex.chunks(2)) {
        let s = std::str::from_utf8(pair).ok()?;
        *o = u8::from_str_radix(s, 16).ok()?;
    }
    Some(out)
}
