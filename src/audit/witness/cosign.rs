//! C2SP tlog-cosignature v1 with Ed25519: the cosigner's key (signature type 0x04), the message
//! it signs and the signature line it adds to a checkpoint note.

use crate::audit::checkpoint::{self, SignedNote};
use ed25519_dalek::{Signature, Signer, SigningKey, Verifier as _, VerifyingKey};
use std::fs;
use std::path::Path;

/// Signature type of an Ed25519 cosignature (tlog-cosignature): a cosigner key can never be
/// mistaken for a log key (0x01), whose signatures mean something else.
pub const ALG_COSIGNATURE: u8 = 0x04;

/// The message an Ed25519 cosignature signs: the `cosignature/v1` header line, the `time` line
/// and the whole checkpoint body (its final newline included, no signature lines).
pub fn signed_message(body: &str, time: u64) -> String {
    format!("cosignature/v1\ntime {time}\n{body}")
}

/// A witness's private key.
pub struct CosignerKey {
    pub name: String,
    key: SigningKey,
}

impl CosignerKey {
    /// Loads the key at `path`, or creates it (mode 0600) named `name` or a random name. A name
    /// given for an existing key must be its name: a cosigner is known by name and key together.
    pub fn load_or_create(path: &Path, name: Option<&str>) -> Result<CosignerKey, String> {
        if let Some(n) = name {
            checkpoint::check_key_name(n)?;
        }
        let key = match CosignerKey::load(path) {
            Err(e) if !path.exists() => {
                let name = match name {
                    Some(n) => n.to_string(),
                    None => format!("openclaw-governance-witness-{}", checkpoint::random_tag()?),
                };
                let key = checkpoint::create_private(path, &name, ALG_COSIGNATURE)
                    .map_err(|c| format!("{e}; creating it: {c}"))?;
                return Ok(CosignerKey { name, key });
            }
            other => other?,
        };
        match name {
            Some(n) if n != key.name => Err(format!(
                "{} holds the key of witness {}, not {n}",
                path.display(),
                key.name
            )),
            _ => Ok(key),
        }
    }

    /// Loads an existing key; never creates one.
    pub fn load(path: &Path) -> Result<CosignerKey, String> {
        let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let (name, key) = checkpoint::parse_private(&text, ALG_COSIGNATURE)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(CosignerKey { name, key })
    }

    /// The verifier key auditors pin: `<name>+<key ID>+<base64(0x04 ‖ public key)>`.
    pub fn vkey(&self) -> String {
        checkpoint::encode_vkey(&self.name, ALG_COSIGNATURE, &self.key.verifying_key())
    }

    fn key_id(&self) -> u32 {
        let public = self.key.verifying_key().to_bytes();
        checkpoint::key_id(&self.name, ALG_COSIGNATURE, &public)
    }

    /// `note` with this witness's cosignature at `time` (seconds) added to its signatures.
    pub fn cosign(&self, note: &SignedNote, time: u64) -> SignedNote {
        let sig = self.key.sign(signed_message(&note.body, time).as_bytes());
        let mut bytes = self.key_id().to_be_bytes().to_vec();
        bytes.extend_from_slice(&time.to_be_bytes());
        bytes.extend_from_slice(&sig.to_bytes());
        let mut out = note.clone();
        out.signatures.push((self.name.clone(), bytes));
        out
    }
}

/// A witness's public key, as an auditor or the config names it.
#[derive(Debug, Clone)]
pub struct WitnessKey {
    pub name: String,
    id: u32,
    key: VerifyingKey,
}

impl PartialEq for WitnessKey {
    fn eq(&self, other: &WitnessKey) -> bool {
        self.name == other.name && self.key == other.key
    }
}

impl WitnessKey {
    pub fn parse(vkey: &str) -> Result<WitnessKey, String> {
        let (name, id, key) = checkpoint::parse_vkey(vkey, ALG_COSIGNATURE)?;
        Ok(WitnessKey { name, id, key })
    }

    pub fn vkey(&self) -> String {
        checkpoint::encode_vkey(&self.name, ALG_COSIGNATURE, &self.key)
    }

    /// The time (seconds) of this witness's cosignature on `note`, when one verifies. Lines
    /// with another name or key ID are someone else's and are passed over (signed-note rules).
    pub fn cosigned(&self, note: &SignedNote) -> Option<u64> {
        note.signatures
            .iter()
            .filter(|(name, sig)| *name == self.name && sig.len() == 76)
            .filter(|(_, sig)| sig[..4] == self.id.to_be_bytes())
            .find_map(|(_, sig)| self.check(&note.body, sig))
    }

    fn check(&self, body: &str, sig: &[u8]) -> Option<u64> {
        let time = u64::from_be_bytes(sig[4..12].try_into().ok()?);
        // tlog-cosignature: a timestamp never exceeds 2^63 - 1.
        if time > i64::MAX as u64 {
            return None;
        }
        let signature = Signature::from_slice(&sig[12..]).ok()?;
        self.key
            .verify(signed_message(body, time).as_bytes(), &signature)
            .ok()
            .map(|()| time)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::checkpoint::{parse_notes, SignerKey};
    use base64::engine::general_purpose::STANDARD as B64;
    use base64::Engine;
    use sha2::{Digest, Sha256};

    fn note(dir: &Path) -> SignedNote {
        let log = SignerKey::load_or_create(&dir.join("log")).unwrap();
        let cp = crate::audit::checkpoint::Checkpoint::new("example.org/log", 5, [3; 32], 1000);
        parse_notes(&format!("{}\n", log.sign(&cp)))
            .unwrap()
            .remove(0)
    }

    #[test]
    fn a_cosignature_verifies_and_round_trips_through_the_note_text() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("w");
        let w = CosignerKey::load_or_create(&path, Some("witness.example/w1")).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600);
        }
        let again = CosignerKey::load_or_create(&path, None).unwrap();
        assert_eq!(again.vkey(), w.vkey());
        assert!(CosignerKey::load_or_create(&path, Some("other")).is_err());
        let cosigned = w.cosign(&note(dir.path()), 1_700_000_000);
        let reread = parse_notes(&format!("{}\n", cosigned.text())).unwrap();
        let pinned = WitnessKey::parse(&w.vkey()).unwrap();
        assert_eq!(pinned.cosigned(&reread[0]), Some(1_700_000_000));
        assert_eq!(reread[0].signatures.len(), 2, "the log's signature stays");
    }

    #[test]
    fn the_key_id_and_signed_message_are_as_c2sp_specifies() {
        let dir = tempfile::tempdir().unwrap();
        let w = CosignerKey::load_or_create(&dir.path().join("w"), Some("w.example")).unwrap();
        let vkey = w.vkey();
        let [name, id, data] = vkey.splitn(3, '+').collect::<Vec<_>>()[..] else {
            panic!("{vkey}")
        };
        let data = B64.decode(data).unwrap();
        assert_eq!((name, data[0], data.len()), ("w.example", 0x04, 33));
        let mut h = Sha256::new();
        h.update(b"w.example\n\x04");
        h.update(&data[1..]);
        assert_eq!(
            id,
            format!(
                "{:08x}",
                u32::from_be_bytes(h.finalize()[..4].try_into().unwrap())
            )
        );

        let n = note(dir.path());
        let cosigned = w.cosign(&n, 1_679_315_147);
        let (sig_name, sig) = cosigned.signatures.last().unwrap();
        assert_eq!(sig_name, "w.example");
        assert_eq!(sig.len(), 4 + 8 + 64);
        assert_eq!(
            format!("{:08x}", u32::from_be_bytes(sig[..4].try_into().unwrap())),
            id
        );
        assert_eq!(
            u64::from_be_bytes(sig[4..12].try_into().unwrap()),
            1_679_315_147
        );
        let message = format!("cosignature/v1\ntime 1679315147\n{}", n.body);
        assert!(n.body.starts_with("example.org/log\n5\n") && n.body.ends_with('\n'));
        let public = VerifyingKey::from_bytes(&data[1..].try_into().unwrap()).unwrap();
        let signature = Signature::from_slice(&sig[12..]).unwrap();
        assert!(public.verify(message.as_bytes(), &signature).is_ok());
    }

    #[test]
    fn another_key_id_an_altered_body_or_another_witness_does_not_verify() {
        let dir = tempfile::tempdir().unwrap();
        let w = CosignerKey::load_or_create(&dir.path().join("w"), Some("w")).unwrap();
        let pinned = WitnessKey::parse(&w.vkey()).unwrap();
        let good = w.cosign(&note(dir.path()), 7);
        let mut wrong_id = good.clone();
        wrong_id.signatures.last_mut().unwrap().1[0] ^= 1;
        assert_eq!(pinned.cosigned(&wrong_id), None);
        let altered = SignedNote {
            body: good.body.replace("\n5\n", "\n6\n"),
            ..good.clone()
        };
        assert_eq!(pinned.cosigned(&altered), None);
        let mut later = good.clone();
        later.signatures.last_mut().unwrap().1[11] ^= 1;
        assert_eq!(pinned.cosigned(&later), None, "the time is signed");
        // Same name, another key: passed over, and still refused when it claims the pinned ID.
        let impostor = CosignerKey::load_or_create(&dir.path().join("x"), Some("w")).unwrap();
        let mut forged = impostor.cosign(&note(dir.path()), 7);
        assert_eq!(pinned.cosigned(&forged), None);
        forged.signatures.last_mut().unwrap().1[..4].copy_from_slice(&pinned.id.to_be_bytes());
        assert_eq!(pinned.cosigned(&forged), None);
        assert_eq!(
            pinned.cosigned(&note(dir.path())),
            None,
            "the log's own signature is no cosignature"
        );
    }

    #[test]
    fn a_witness_key_is_not_a_log_key() {
        let dir = tempfile::tempdir().unwrap();
        let w = CosignerKey::load_or_create(&dir.path().join("w"), None).unwrap();
        assert!(w.name.starts_with("openclaw-governance-witness-"));
        assert!(crate::audit::checkpoint::VerifierKey::parse(&w.vkey()).is_err());
        let log = SignerKey::load_or_create(&dir.path().join("log")).unwrap();
        assert!(WitnessKey::parse(&log.public_key()).is_err());
        assert!(CosignerKey::load_or_create(&dir.path().join("log"), None).is_err());
        assert!(CosignerKey::load_or_create(&dir.path().join("n"), Some("a b")).is_err());
    }
}
