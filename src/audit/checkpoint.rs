//! Signed checkpoints: `{origin, size, rootHash, timestamp}` as a C2SP tlog checkpoint inside a
//! C2SP signed note, signed with Ed25519. Keys use the signed-note key encodings
//! (`PRIVATE+KEY+<name>+<hash>+<base64>` on disk, `<name>+<hash>+<base64>` for auditors), so
//! any signed-note implementation can check them.

use super::merkle::Hash;
use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine;
use ed25519_dalek::{Signature, Signer, SigningKey, Verifier as _, VerifyingKey};
use sha2::{Digest, Sha256};
use std::fs;
use std::path::Path;

/// Signed-note signature type of an Ed25519 note signature (the log's own key).
pub(crate) const ALG_ED25519: u8 = 0x01;

/// Signed-note key ID: `SHA-256(name ‖ "\n" ‖ alg ‖ public key)[:4]`, big-endian. The algorithm
/// byte keeps a log key and a cosigner key apart even when their names and keys are equal.
pub(crate) fn key_id(name: &str, alg: u8, public: &[u8; 32]) -> u32 {
    let mut h = Sha256::new();
    h.update(name.as_bytes());
    h.update(b"\n");
    h.update([alg]);
    h.update(public);
    let d = h.finalize();
    u32::from_be_bytes([d[0], d[1], d[2], d[3]])
}

/// A key name a signature line can carry: non-empty, no spaces and no `+` (C2SP signed-note).
pub(crate) fn check_key_name(name: &str) -> Result<(), String> {
    match name.is_empty()
        || name
            .chars()
            .any(|c| c == '+' || c.is_whitespace() || c.is_control())
    {
        true => Err(format!(
            "\"{name}\" is not a key name: it must be non-empty, without spaces or +"
        )),
        false => Ok(()),
    }
}

/// Eight random hex digits, to tell apart keys created without a chosen name.
pub(crate) fn random_tag() -> Result<String, String> {
    let mut id = [0u8; 4];
    getrandom::fill(&mut id).map_err(|e| format!("no randomness: {e}"))?;
    Ok(format!("{:08x}", u32::from_be_bytes(id)))
}

/// A new Ed25519 key named `name`, written (mode 0600, parent created) as a private key file.
pub(crate) fn create_private(path: &Path, name: &str, alg: u8) -> Result<SigningKey, String> {
    let mut seed = [0u8; 32];
    getrandom::fill(&mut seed).map_err(|e| format!("no randomness for the key: {e}"))?;
    let key = SigningKey::from_bytes(&seed);
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    crate::private_file::create(path, &encode_private(name, alg, &key))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(key)
}

/// `PRIVATE+KEY+<name>+<key ID>+<base64(alg ‖ seed)>`, the signed-note private key encoding.
pub(crate) fn encode_private(name: &str, alg: u8, key: &SigningKey) -> String {
    let public = key.verifying_key().to_bytes();
    let mut data = vec![alg];
    data.extend_from_slice(&key.to_bytes());
    format!(
        "PRIVATE+KEY+{name}+{:08x}+{}\n",
        key_id(name, alg, &public),
        B64.encode(data)
    )
}

/// The name and key of a private key file written by [`encode_private`] with `alg`.
pub(crate) fn parse_private(text: &str, alg: u8) -> Result<(String, SigningKey), String> {
    let parts: Vec<&str> = text.trim().splitn(5, '+').collect();
    let ["PRIVATE", "KEY", name, _, data] = parts[..] else {
        return Err("not a PRIVATE+KEY+<name>+<hash>+<key> signing key".into());
    };
    let bytes = B64
        .decode(data)
        .map_err(|e| format!("bad key encoding: {e}"))?;
    let seed: [u8; 32] = match bytes.split_first() {
        Some((a, rest)) if *a == alg => {
            rest.try_into().map_err(|_| "bad key length".to_string())?
        }
        _ => return Err(format!("not a key of signature type 0x{alg:02x}")),
    };
    Ok((name.to_string(), SigningKey::from_bytes(&seed)))
}

/// The verifier key: `<name>+<key ID>+<base64(alg ‖ public key)>`.
pub(crate) fn encode_vkey(name: &str, alg: u8, key: &VerifyingKey) -> String {
    let public = key.to_bytes();
    let mut data = vec![alg];
    data.extend_from_slice(&public);
    format!(
        "{name}+{:08x}+{}",
        key_id(name, alg, &public),
        B64.encode(data)
    )
}

/// Name, key ID and key of a verifier key of signature type `alg`; the ID must match the key.
pub(crate) fn parse_vkey(vkey: &str, alg: u8) -> Result<(String, u32, VerifyingKey), String> {
    let parts: Vec<&str> = vkey.trim().splitn(3, '+').collect();
    let [name, hash, data] = parts[..] else {
        return Err("a public key looks like <name>+<hash>+<base64>".into());
    };
    check_key_name(name)?;
    let hash = u32::from_str_radix(hash, 16).map_err(|_| "bad key hash".to_string())?;
    let bytes = B64
        .decode(data)
        .map_err(|e| format!("bad key encoding: {e}"))?;
    let public: [u8; 32] = match bytes.split_first() {
        Some((a, rest)) if *a == alg => {
            rest.try_into().map_err(|_| "bad key length".to_string())?
        }
        Some((a, _)) => {
            return Err(format!(
                "a key of signature type 0x{a:02x} where 0x{alg:02x} was expected"
            ))
        }
        None => return Err("an empty key".into()),
    };
    if key_id(name, alg, &public) != hash {
        return Err("key hash does not match the key".into());
    }
    let key = VerifyingKey::from_bytes(&public).map_err(|e| e.to_string())?;
    Ok((name.to_string(), hash, key))
}

pub struct SignerKey {
    pub name: String,
    key: SigningKey,
}

impl SignerKey {
    /// Loads the key, or creates one (mode 0600) on first start.
    pub fn load_or_create(path: &Path) -> Result<SignerKey, String> {
        match fs::read_to_string(path) {
            Ok(text) => {
                SignerKey::parse(text.trim()).map_err(|e| format!("{}: {e}", path.display()))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => SignerKey::create(path),
            Err(e) => Err(format!("{}: {e}", path.display())),
        }
    }

    /// Loads an existing key; never creates one (for read-only tools).
    pub fn load(path: &Path) -> Result<SignerKey, String> {
        let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        SignerKey::parse(text.trim()).map_err(|e| format!("{}: {e}", path.display()))
    }

    fn create(path: &Path) -> Result<SignerKey, String> {
        let name = format!("openclaw-governance-{}", random_tag()?);
        let key = create_private(path, &name, ALG_ED25519)?;
        Ok(SignerKey { name, key })
    }

    fn parse(text: &str) -> Result<SignerKey, String> {
        let (name, key) = parse_private(text, ALG_ED25519)?;
        Ok(SignerKey { name, key })
    }

    /// The verifier key an auditor pins: `<name>+<hash>+<base64(0x01 ‖ public key)>`.
    pub fn public_key(&self) -> String {
        encode_vkey(&self.name, ALG_ED25519, &self.key.verifying_key())
    }

    pub fn sign(&self, checkpoint: &Checkpoint) -> String {
        let body = checkpoint.body();
        let public = self.key.verifying_key().to_bytes();
        let mut sig = key_id(&self.name, ALG_ED25519, &public)
            .to_be_bytes()
            .to_vec();
        sig.extend_from_slice(&self.key.sign(body.as_bytes()).to_bytes());
        format!("{body}\n\u{2014} {} {}\n", self.name, B64.encode(sig))
    }
}

pub struct VerifierKey {
    pub name: String,
    hash: u32,
    key: VerifyingKey,
}

impl VerifierKey {
    pub fn parse(vkey: &str) -> Result<VerifierKey, String> {
        let (name, hash, key) = parse_vkey(vkey, ALG_ED25519)?;
        Ok(VerifierKey { name, hash, key })
    }

    /// The key as an auditor writes it (`<name>+<hash>+<base64>`), whatever spelling it came in.
    pub fn vkey(&self) -> String {
        encode_vkey(&self.name, ALG_ED25519, &self.key)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Checkpoint {
    pub origin: String,
    pub size: u64,
    #[serde(serialize_with = "ser_hash")]
    pub root_hash: Hash,
    pub timestamp: i64,
    /// The RFC 9162 consistency proof from an earlier checkpoint of this log, carried in the note
    /// so that a witness holding nothing but the `checkpoints` file can check that this tree
    /// extends the last one it cosigned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link: Option<Link>,
    /// Written at a writer's start: how many records the previous run left without a checkpoint
    /// (it crashed, or another writer had not signed yet). This checkpoint covers them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recovered: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Link {
    /// The size of the earlier checkpoint (0: the empty tree, proof empty).
    pub from: u64,
    #[serde(serialize_with = "ser_hashes")]
    pub proof: Vec<Hash>,
}

fn ser_hash<S: serde::Serializer>(h: &Hash, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&super::merkle::hex(h))
}

fn ser_hashes<S: serde::Serializer>(hs: &[Hash], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(hs.iter().map(super::merkle::hex))
}

fn decode_hash(text: &str) -> Result<Hash, String> {
    B64.decode(text)
        .ok()
        .and_then(|b| b.try_into().ok())
        .ok_or_else(|| format!("bad hash \"{text}\""))
}

impl Checkpoint {
    /// A checkpoint of `size` records with `root`, signed now, without extensions.
    pub fn new(origin: &str, size: u64, root_hash: Hash, timestamp: i64) -> Checkpoint {
        Checkpoint {
            origin: origin.to_string(),
            size,
            root_hash,
            timestamp,
            link: None,
            recovered: None,
        }
    }

    /// The tlog-checkpoint body: origin, size, base64 root, then our extension lines
    /// (`timestamp`, and when present `consistency <from> <proof hashes…>` and `recovered <n>`).
    pub fn body(&self) -> String {
        let mut body = format!(
            "{}\n{}\n{}\ntimestamp {}\n",
            self.origin,
            self.size,
            B64.encode(self.root_hash),
            self.timestamp
        );
        if let Some(link) = &self.link {
            body.push_str(&format!("consistency {}", link.from));
            for h in &link.proof {
                body.push(' ');
                body.push_str(&B64.encode(h));
            }
            body.push('\n');
        }
        if let Some(n) = self.recovered {
            body.push_str(&format!("recovered {n}\n"));
        }
        body
    }

    fn parse_body(body: &str) -> Result<Checkpoint, String> {
        let lines: Vec<&str> = body
            .strip_suffix('\n')
            .unwrap_or(body)
            .split('\n')
            .collect();
        let [origin, size, root, ext, rest @ ..] = &lines[..] else {
            return Err("a checkpoint has origin, size, root hash and timestamp lines".into());
        };
        let size = size.parse().map_err(|_| format!("bad size \"{size}\""))?;
        let root = decode_hash(root).map_err(|_| "bad root hash".to_string())?;
        let timestamp = ext
            .strip_prefix("timestamp ")
            .and_then(|t| t.parse().ok())
            .ok_or_else(|| "bad timestamp line".to_string())?;
        let mut cp = Checkpoint::new(origin, size, root, timestamp);
        for line in rest {
            cp.parse_extension(line)?;
        }
        Ok(cp)
    }

    /// Known extension lines must be well formed and appear once; others are opaque (C2SP).
    fn parse_extension(&mut self, line: &str) -> Result<(), String> {
        let (word, value) = line.split_once(' ').unwrap_or((line, ""));
        match word {
            "consistency" if self.link.is_none() => {
                let mut parts = value.split(' ').filter(|p| !p.is_empty());
                let from = parts
                    .next()
                    .and_then(|f| f.parse::<u64>().ok())
                    .filter(|f| *f <= self.size)
                    .ok_or("bad consistency line: no earlier size")?;
                let proof = parts.map(decode_hash).collect::<Result<Vec<_>, _>>()?;
                self.link = Some(Link { from, proof });
            }
            "recovered" if self.recovered.is_none() => {
                let n = value
                    .parse::<u64>()
                    .ok()
                    .filter(|n| *n <= self.size)
                    .ok_or("bad recovered line")?;
                self.recovered = Some(n);
            }
            "consistency" | "recovered" => return Err(format!("{word} appears twice")),
            _ => {}
        }
        Ok(())
    }
}

/// One note of the `checkpoints` file, before its signature is checked.
#[derive(Debug, Clone)]
pub struct SignedNote {
    pub body: String,
    pub signatures: Vec<(String, Vec<u8>)>,
}

impl SignedNote {
    /// The note as written: body, blank line, signature lines (what an auditor saves).
    pub fn text(&self) -> String {
        let sigs: String = self
            .signatures
            .iter()
            .map(|(name, sig)| format!("\u{2014} {name} {}\n", B64.encode(sig)))
            .collect();
        format!("{}\n{sigs}", self.body)
    }
}

/// Splits the `checkpoints` file (notes separated by a blank line) into notes.
pub fn parse_notes(text: &str) -> Result<Vec<SignedNote>, String> {
    let mut notes = Vec::new();
    let mut blocks = text.split("\n\n").filter(|b| !b.trim().is_empty());
    while let Some(body) = blocks.next() {
        let sigs = blocks
            .next()
            .ok_or_else(|| format!("note {} has no signature", notes.len() + 1))?;
        let signatures = sigs
            .lines()
            .map(|l| {
                let rest = l
                    .strip_prefix("\u{2014} ")
                    .ok_or("a signature line starts with an em dash")?;
                let (name, sig) = rest.split_once(' ').ok_or("bad signature line")?;
                Ok((
                    name.to_string(),
                    B64.decode(sig).map_err(|_| "bad signature encoding")?,
                ))
            })
            .collect::<Result<Vec<_>, &str>>()
            .map_err(|e| format!("note {}: {e}", notes.len() + 1))?;
        notes.push(SignedNote {
            body: format!("{body}\n"),
            signatures,
        });
    }
    Ok(notes)
}

/// The checkpoint inside `note`, if `key` signed it.
pub fn open(note: &SignedNote, key: &VerifierKey) -> Result<Checkpoint, String> {
    let sig = note
        .signatures
        .iter()
        .find(|(name, sig)| {
            *name == key.name && sig.len() == 68 && sig[..4] == key.hash.to_be_bytes()
        })
        .ok_or_else(|| format!("no signature by key {}", key.name))?;
    let signature = Signature::from_slice(&sig.1[4..]).map_err(|e| e.to_string())?;
    key.key
        .verify(note.body.as_bytes(), &signature)
        .map_err(|_| format!("signature by {} does not verify", key.name))?;
    Checkpoint::parse_body(&note.body)
}

/// The checkpoint inside `note` without checking who signed it (no key pinned).
pub fn open_unchecked(note: &SignedNote) -> Result<Checkpoint, String> {
    Checkpoint::parse_body(&note.body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_open_and_reject() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("k");
        let key = SignerKey::load_or_create(&path).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(
                fs::metadata(&path).unwrap().permissions().mode() & 0o777,
                0o600
            );
        }
        let again = SignerKey::load_or_create(&path).unwrap();
        assert_eq!(again.public_key(), key.public_key());
        let cp = Checkpoint::new("o/1", 7, [9; 32], 1234);
        let text = key.sign(&cp);
        assert!(text.contains("\n\n\u{2014} openclaw-governance-"));
        let notes = parse_notes(&format!("{text}\n{text}\n")).unwrap();
        assert_eq!(notes.len(), 2);
        let vk = VerifierKey::parse(&key.public_key()).unwrap();
        assert_eq!(open(&notes[0], &vk).unwrap(), cp);
        let other = SignerKey::load_or_create(&dir.path().join("other")).unwrap();
        let wrong = VerifierKey::parse(&other.public_key()).unwrap();
        assert!(open(&notes[0], &wrong).is_err());
        let tampered = SignedNote {
            body: notes[0].body.replace("\n7\n", "\n8\n"),
            ..notes[0].clone()
        };
        assert!(open(&tampered, &vk)
            .unwrap_err()
            .contains("does not verify"));
    }

    #[test]
    fn extension_lines_round_trip_and_malformed_ones_are_refused() {
        let mut cp = Checkpoint::new("o/1", 9, [3; 32], 55);
        cp.link = Some(Link {
            from: 4,
            proof: vec![[1; 32], [2; 32]],
        });
        cp.recovered = Some(2);
        let body = cp.body();
        assert!(body.ends_with("\nrecovered 2\n"), "{body}");
        assert_eq!(Checkpoint::parse_body(&body).unwrap(), cp);
        // Opaque lines of other writers are kept out of the way, not refused (C2SP).
        let other = body.replace("recovered 2\n", "recovered 2\nvendor x\n");
        assert_eq!(Checkpoint::parse_body(&other).unwrap(), cp);
        for bad in [
            body.replace("consistency 4", "consistency 10"),
            body.replace("consistency 4", "consistency x"),
            body.replace("recovered 2", "recovered 2\nrecovered 2"),
            format!("{body}consistency 1\n"),
            body.replace("recovered 2", "recovered 99"),
            body.replacen(&B64.encode([1u8; 32]), "AAAA", 1),
        ] {
            assert!(Checkpoint::parse_body(&bad).is_err(), "{bad}");
        }
    }
}
