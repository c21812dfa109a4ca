//! trust.json is tamper-evident (issue 12 item 5): what another hand wrote there while the
//! engine was stopped is reported, kept aside and not trusted.

use super::*;
use serde_json::Value;
use std::path::Path;

const T0: i64 = 1_800_000_000_000;

use super::tests::config;

fn key_file(dir: &Path) -> PathBuf {
    dir.join("keys").join("trust.key")
}

/// A first engine lifetime: the intern is seen once and the operator floors `main`.
fn first_lifetime(path: &Path) {
    let mut m = TrustManager::persistent(config(), path.to_path_buf(), T0);
    m.record("intern", Outcome::Success, false, T0);
    m.operate("main", &OperatorChange::Floor(50.0), T0).unwrap();
    m.close().unwrap();
}

fn edit(path: &Path, f: impl FnOnce(&mut Value)) {
    let mut v: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    f(&mut v);
    std::fs::write(path, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
}

/// The edit an agent with file access makes: the intern becomes privileged.
fn promote_intern(v: &mut Value) {
    let intern = &mut v["agents"]["intern"];
    intern["score"] = 95.0.into();
    intern["tier"] = "privileged".into();
    intern["signals"]["manualAdjustment"] = 95.0.into();
}

fn rejected_copies(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("trust.json.rejected-"))
        })
        .collect();
    out.sort();
    out
}

/// Rejected: reported naming the file, kept aside as it was, and the defaults in force.
fn assert_rejected(dir: &Path, m: &TrustManager, tampered: &[u8]) {
    let path = dir.join("trust.json");
    let err = m.load_error.as_deref().expect("the rejection is reported");
    assert!(err.contains(&path.display().to_string()), "{err}");
    assert_eq!(m.integrity(), store::Integrity::Rejected);
    let aside = rejected_copies(dir);
    assert_eq!(aside.len(), 1, "moved aside once: {aside:?}");
    assert_eq!(
        std::fs::read(&aside[0]).unwrap(),
        tampered,
        "kept as it was"
    );
    assert!(
        !path.exists(),
        "not left where the next start would read it"
    );
    assert_eq!(
        m.snapshot_at("intern", T0).score,
        10.0,
        "the configured default"
    );
    assert!(
        m.view("main", T0).is_none(),
        "the floor was not authenticated"
    );
}

#[test]
fn an_offline_edit_of_a_score_is_not_trusted_and_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("trust.json");
    first_lifetime(&path);
    edit(&path, promote_intern);
    let tampered = std::fs::read(&path).unwrap();

    let m = TrustManager::persistent(config(), path.clone(), T0 + 1);
    assert_eq!(m.snapshot_at("intern", T0 + 1).tier, TrustTier::Untrusted);
    assert_rejected(dir.path(), &m, &tampered);
    assert!(m.load_error.as_deref().unwrap().contains("MAC"));
}

#[test]
fn a_single_changed_byte_is_enough() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("trust.json");
    first_lifetime(&path);
    let text = std::fs::read_to_string(&path).unwrap();
    // The floor 50 becomes 59: the JSON stays valid, the MAC field untouched.
    let tampered = text.replacen("\"floor\": 50.0", "\"floor\": 59.0", 1);
    assert_ne!(tampered, text);
    std::fs::write(&path, &tampered).unwrap();
    let m = TrustManager::persistent(config(), path, T0 + 1);
    assert_rejected(dir.path(), &m, tampered.as_bytes());
}

#[test]
fn a_file_whose_mac_was_removed_does_not_get_the_legacy_path() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("trust.json");
    first_lifetime(&path);
    assert!(std::fs::read_to_string(&path).unwrap().contains("\"mac\""));
    edit(&path, |v| {
        promote_intern(v);
        v.as_object_mut().unwrap().remove("mac");
    });
    let tampered = std::fs::read(&path).unwrap();
    let m = TrustManager::persistent(config(), path, T0 + 1);
    assert_rejected(dir.path(), &m, &tampered);
}

#[test]
fn a_signed_file_without_its_key_is_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("trust.json");
    first_lifetime(&path);
    edit(&path, promote_intern);
    std::fs::remove_file(key_file(dir.path())).unwrap();
    let tampered = std::fs::read(&path).unwrap();
    let m = TrustManager::persistent(config(), path, T0 + 1);
    assert_rejected(dir.path(), &m, &tampered);
}

#[test]
fn a_file_from_an_older_version_is_accepted_once_and_signed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("trust.json");
    first_lifetime(&path);
    // What an older version wrote: the same shape, no MAC, no key yet.
    edit(&path, |v| {
        v.as_object_mut().unwrap().remove("mac");
    });
    std::fs::remove_dir_all(dir.path().join("keys")).unwrap();

    let mut m = TrustManager::persistent(config(), path.clone(), T0 + 1);
    assert_eq!(m.load_error, None);
    assert_eq!(m.integrity(), store::Integrity::Legacy);
    let notice = m.load_notice.as_deref().unwrap();
    assert!(notice.contains("re-signed"), "{notice}");
    assert_eq!(m.view("main", T0).unwrap().floor, Some(50.0));
    assert!(
        std::fs::read_to_string(&path).unwrap().contains("\"mac\""),
        "signed at once, not at the next change"
    );
    assert_private(&key_file(dir.path()));
    m.close().unwrap();

    let m = TrustManager::persistent(config(), path, T0 + 2);
    assert_eq!(m.load_error, None);
    assert_eq!(m.integrity(), store::Integrity::Authenticated);
    assert_eq!(m.view("main", T0).unwrap().floor, Some(50.0));
}

#[test]
fn once_a_key_exists_an_unsigned_file_is_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("trust.json");
    // A fresh install makes its key at start, before it ever writes trust.json.
    drop(TrustManager::persistent(config(), path.clone(), T0));
    assert!(key_file(dir.path()).exists());
    let forged = serde_json::to_vec_pretty(&serde_json::json!({
        "version": 1, "updated": "2027-01-15T08:00:00.000Z", "agents": {}
    }))
    .unwrap();
    std::fs::write(&path, &forged).unwrap();
    let m = TrustManager::persistent(config(), path, T0 + 1);
    assert_eq!(m.integrity(), store::Integrity::Rejected);
    assert_eq!(rejected_copies(dir.path()).len(), 1);
}

#[cfg(unix)]
fn assert_private(key: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(key).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
}

#[cfg(not(unix))]
fn assert_private(key: &Path) {
    assert!(key.exists());
}

#[test]
fn a_round_trip_keeps_scores_locks_and_floors() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("trust.json");
    let mut m = TrustManager::persistent(config(), path.clone(), T0);
    m.operate("forge", &OperatorChange::LockTier(TrustTier::Trusted), T0)
        .unwrap();
    m.operate("scout", &OperatorChange::Floor(30.0), T0)
        .unwrap();
    m.record("scout", Outcome::Blocked, false, T0);
    let before: Vec<_> = ["forge", "scout"].map(|id| m.view(id, T0).unwrap()).into();
    m.close().unwrap();
    assert_private(&key_file(dir.path()));

    let m = TrustManager::persistent(config(), path.clone(), T0);
    assert_eq!(m.load_error, None);
    assert_eq!(m.integrity(), store::Integrity::Authenticated);
    let after: Vec<_> = ["forge", "scout"].map(|id| m.view(id, T0).unwrap()).into();
    assert_eq!(after, before);
    let key = std::fs::read_to_string(key_file(dir.path())).unwrap();
    let secret = key.trim().rsplit(':').next().unwrap();
    assert!(!std::fs::read_to_string(&path).unwrap().contains(secret));
}

#[test]
fn truncated_or_garbage_files_are_rejected_without_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("trust.json");
    first_lifetime(&path);
    let good = std::fs::read(&path).unwrap();
    let garbage: Vec<Vec<u8>> = vec![
        good[..good.len() / 2].to_vec(),
        good[..good.len() - 3].to_vec(),
        Vec::new(),
        b"null".to_vec(),
        b"[]".to_vec(),
        b"{\"mac\": 5}".to_vec(),
        b"{\"version\":1,\"updated\":\"x\",\"agents\":{},\"mac\":\"hmac-sha256:zz\"}".to_vec(),
        vec![0xff, 0xfe, 0x00, 0x7b, 0x22],
        "[".repeat(100_000).into_bytes(),
        [good.clone(), good.clone()].concat(),
    ];
    for (i, bytes) in garbage.iter().enumerate() {
        std::fs::write(&path, bytes).unwrap();
        let now = T0 + 1 + i as i64;
        let m = TrustManager::persistent(config(), path.clone(), now);
        assert!(m.load_error.is_some(), "case {i} is reported");
        assert_ne!(m.integrity(), store::Integrity::Authenticated, "case {i}");
        assert!(m.view("main", now).is_none(), "case {i}: defaults");
        let aside = dir.path().join(format!("trust.json.rejected-{now}"));
        assert_eq!(
            &std::fs::read(&aside).unwrap(),
            bytes,
            "case {i} kept aside"
        );
    }
}

#[test]
fn a_process_that_only_reads_the_file_checks_it_too_and_moves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("trust.json");
    first_lifetime(&path);
    let m = TrustManager::read_only(config(), &path, T0);
    assert_eq!(m.load_error, None);
    assert_eq!(m.view("main", T0).unwrap().floor, Some(50.0));

    edit(&path, promote_intern);
    let m = TrustManager::read_only(config(), &path, T0);
    assert!(m.load_error.as_deref().unwrap().contains("trust.json"));
    assert_eq!(m.integrity(), store::Integrity::Rejected);
    assert_eq!(m.snapshot_at("intern", T0).score, 10.0);
    assert!(path.exists(), "the owner decides what happens to the file");
    assert!(rejected_copies(dir.path()).is_empty());
}

#[test]
fn a_key_file_that_is_not_a_key_blocks_saving_and_trusts_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("trust.json");
    first_lifetime(&path);
    let signed = std::fs::read(&path).unwrap();
    std::fs::write(key_file(dir.path()), "not a key").unwrap();
    let m = TrustManager::persistent(config(), path.clone(), T0 + 1);
    let err = m.load_error.as_deref().unwrap();
    assert!(err.contains("trust.key"), "{err}");
    assert!(!err.contains("not a key"), "key material is never echoed");
    assert!(m.view("main", T0).is_none());
    m.operate("main", &OperatorChange::Floor(10.0), T0 + 1)
        .unwrap();
    assert!(m.flush().is_err(), "nothing is written without a key");
    assert_eq!(std::fs::read(&path).unwrap(), signed, "left as it was");
}

#[test]
fn hmac_sha256_matches_rfc_4231() {
    // Test cases 1, 2 and 6 (a key longer than the block).
    let cases: [(&[u8], &[u8], &str); 3] = [
        (
            &[0x0b; 20],
            b"Hi There",
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
        ),
        (
            b"Jefe",
            b"what do ya want for nothing?",
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
        ),
        (
            &[0xaa; 131],
            b"Test Using Larger Than Block-Size Key - Hash Key First",
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
        ),
    ];
    for (key, data, want) in cases {
        let got: String = seal::hmac_sha256(key, &[data])
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(got, want);
    }
}
