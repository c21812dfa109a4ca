use super::*;
use roster::Roster;
use score::DAY_MS;
use serde_json::json;
use std::collections::BTreeMap;

const T0: i64 = 1_800_000_000_000;

pub(super) fn config() -> TrustConfig {
    TrustConfig {
        enabled: true,
        defaults: HashMap::from([("main".to_string(), 60.0), ("*".to_string(), 10.0)]),
        persist_interval_seconds: 3600,
        decay_enabled: true,
        decay_inactivity_days: 30,
        decay_rate: 0.99,
        weights: TrustWeights::default(),
        max_history_per_agent: 5,
    }
}

#[test]
fn tiers_follow_the_boundaries() {
    for (score, tier) in [
        (0.0, "untrusted"),
        (19.9, "untrusted"),
        (20.0, "restricted"),
        (40.0, "standard"),
        (59.0, "standard"),
        (60.0, "trusted"),
        (80.0, "privileged"),
        (100.0, "privileged"),
    ] {
        assert_eq!(TrustTier::from_score(score).as_str(), tier, "{score}");
    }
    assert_eq!(TrustTier::parse("elevated"), Some(TrustTier::Privileged));
    assert_eq!(TrustTier::parse("root"), None);
}

#[test]
fn defaults_exact_then_star_then_ten() {
    let m = TrustManager::new(config());
    assert_eq!(m.snapshot_at("main", T0).score, 60.0);
    assert_eq!(m.snapshot_at("other", T0).score, 10.0);
    let mut c = config();
    c.defaults.remove("*");
    assert_eq!(TrustManager::new(c).snapshot_at("other", T0).score, 10.0);
}

#[test]
fn the_formula_counts_successes_violations_escalations_age_and_streak() {
    let m = TrustManager::new(config());
    for _ in 0..20 {
        m.record("main", Outcome::Success, false, T0);
    }
    // 60 + 20·0.1 = 62
    assert_eq!(m.snapshot_at("main", T0).score, 62.0);
    m.record("main", Outcome::Blocked, false, T0);
    m.record("main", Outcome::EscalationApproved, false, T0);
    m.record("main", Outcome::EscalationDenied, false, T0);
    m.record("main", Outcome::ToolError, false, T0);
    // 62 − 2 + 0.5 − 3 = 57.5; a tool error changes nothing
    assert_eq!(m.snapshot_at("main", T0).score, 57.5);
    // Ten days later: age +5, streak (days since the violation) +3.
    assert_eq!(m.snapshot_at("main", T0 + days(10)).score, 65.5);
    let v = m.view("main", T0 + days(10)).unwrap();
    assert_eq!((v.signals.age_days, v.signals.clean_streak), (10.0, 10.0));
    assert_eq!(
        (v.signals.success_count, v.signals.violation_count),
        (20, 1)
    );
}

#[test]
fn caps_apply_and_the_clean_streak_counts_days_not_calls() {
    // A daily credit high enough that one day reaches successMax.
    let mut c = config();
    c.weights.success_max_per_day = 1000.0;
    let m = TrustManager::new(c);
    for _ in 0..1000 {
        m.record("x", Outcome::Success, false, T0);
    }
    // 10 + min(100, 30)
    assert_eq!(m.snapshot_at("x", T0).score, 40.0);
    // Many calls on one day add no streak.
    assert_eq!(m.view("x", T0 + 1000).unwrap().signals.clean_streak, 0.0);
    // 200 days: age capped at 20, streak capped at 20 → 80; idle decay starts after 30 days of no action.
    let idle = 0.99f64.powi(170);
    assert!(
        (m.snapshot_at("x", T0 + days(200)).score - (80.0 * idle * 100.0).round() / 100.0).abs()
            < 0.01
    );
}

#[test]
fn decay_is_not_undone_by_the_next_action() {
    let m = TrustManager::new(config());
    m.record("main", Outcome::Success, false, T0);
    let later = T0 + days(60);
    let decayed = m.snapshot_at("main", later).score;
    // raw: 60 + 0.1 + min(60·0.5, 20) + min(60·0.3, 20) = 98.1; idle 60 days → × 0.99^(60−30)
    assert!(
        (decayed - 98.1 * 0.99f64.powi(30)).abs() < 0.05,
        "{decayed}"
    );
    m.record("main", Outcome::Success, false, later);
    let after = m.snapshot_at("main", later).score;
    assert!(
        (after - (decayed + 0.1)).abs() < 0.05,
        "acting again must not restore the decayed score: {decayed} → {after}"
    );
}

#[test]
fn operators_set_lock_floor_unlock_and_reset() {
    let m = TrustManager::new(config());
    let c = m
        .operate("forge", &OperatorChange::SetScore(45.0), T0)
        .unwrap();
    assert_eq!(
        (c.from.score, c.to.score, c.to.tier),
        (10.0, 45.0, TrustTier::Standard)
    );
    m.operate(
        "forge",
        &OperatorChange::LockTier(TrustTier::Restricted),
        T0,
    )
    .unwrap();
    assert_eq!(m.snapshot_at("forge", T0).tier, TrustTier::Restricted);
    for _ in 0..200 {
        m.record("forge", Outcome::Success, false, T0);
    }
    assert_eq!(
        m.snapshot_at("forge", T0).tier,
        TrustTier::Restricted,
        "a locked tier holds"
    );
    m.operate("forge", &OperatorChange::Unlock, T0).unwrap();
    // 45 + the day's credit (twenty successes · 0.1)
    assert_eq!(m.snapshot_at("forge", T0).score, 47.0);
    m.operate("forge", &OperatorChange::Floor(50.0), T0)
        .unwrap();
    for _ in 0..20 {
        m.record("forge", Outcome::Blocked, false, T0);
    }
    assert_eq!(m.snapshot_at("forge", T0).score, 50.0, "the floor holds");
    m.operate("forge", &OperatorChange::ResetHistory, T0)
        .unwrap();
    let v = m.view("forge", T0).unwrap();
    assert_eq!(
        (v.signals.violation_count, v.floor, v.history.len()),
        (0, Some(50.0), 1)
    );
}

#[test]
fn history_is_capped_and_tier_changes_are_reported() {
    let m = TrustManager::new(config());
    let mut changes = 0;
    for _ in 0..10 {
        changes += m.record("main", Outcome::Blocked, false, T0).is_some() as usize;
    }
    // 60 → 58 (standard) … 40 (standard) → the tier moved once: trusted → standard.
    assert_eq!(changes, 1);
    assert_eq!(m.view("main", T0).unwrap().history.len(), 5);
}

#[test]
fn persistence_round_trips_and_a_corrupt_file_is_kept_aside() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("trust.json");
    {
        let m = TrustManager::persistent(config(), path.clone(), T0);
        m.record("main", Outcome::Success, false, T0);
        m.operate("main", &OperatorChange::Floor(30.0), T0).unwrap();
        m.flush().unwrap();
    }
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\"version\": 1"));
    let m = TrustManager::persistent(config(), path.clone(), T0);
    let v = m.view("main", T0).unwrap();
    assert_eq!((v.signals.success_count, v.floor), (1, Some(30.0)));
    drop(m);
    std::fs::write(&path, &text[..text.len() / 2]).unwrap();
    let m = TrustManager::persistent(config(), path.clone(), T0 + 1);
    assert!(m.load_error.as_deref().unwrap().contains("rejected"));
    let aside = dir.path().join(format!("trust.json.rejected-{}", T0 + 1));
    assert_eq!(
        std::fs::read_to_string(&aside).unwrap(),
        &text[..text.len() / 2],
        "the bad file is kept as it was"
    );
    assert!(m.view("main", T0).is_none(), "starts from the defaults");
    m.record("main", Outcome::Success, false, T0);
    m.flush().unwrap();
    assert!(std::fs::read_to_string(&aside).is_ok(), "never overwritten");
}

fn roster_of(capacity: usize, agents: &[(&str, bool, i64)]) -> Roster {
    let m = TrustManager::new(config());
    let mut r = Roster::new(capacity);
    for &(id, ephemeral, seen) in agents {
        r.admit(id, || m.fresh(id, ephemeral, seen));
    }
    r
}

#[test]
fn making_room_evicts_ephemeral_first_then_the_least_recently_seen() {
    let m = TrustManager::new(config());
    let mut r = roster_of(
        4,
        &[
            ("n1", false, 0),
            ("e1", true, 1),
            ("e2", true, 2),
            ("n2", false, 3),
        ],
    );
    // e1 is seen again: e2 is now the ephemeral agent seen longest ago.
    r.update("e1", |a| a.last_seen_ms = 10);
    let mut evicted = Vec::new();
    for (i, id) in ["x1", "x2", "x3", "x4"].into_iter().enumerate() {
        evicted.push(r.admit(id, || m.fresh(id, false, 20 + i as i64)));
        assert_eq!(r.len(), 4, "never more than the capacity");
    }
    let evicted: Vec<_> = evicted
        .into_iter()
        .map(|e| e.unwrap().to_string())
        .collect();
    assert_eq!(evicted, ["e2", "e1", "n1", "n2"]);
    assert_eq!(
        r.admit("x4", || unreachable!()),
        None,
        "a tracked agent is not admitted again"
    );
    assert!(r.consistent());
}

#[test]
fn the_manager_tracks_at_most_max_agents_and_drops_sub_agents_first() {
    let m = TrustManager::new(config());
    for i in 0..MAX_AGENTS as i64 {
        m.record(&format!("a{i}"), Outcome::Success, i % 2 == 0, T0 + i);
    }
    m.record("a0", Outcome::Success, true, T0 + days(1));
    for i in 0..3 {
        m.record(&format!("new{i}"), Outcome::Success, false, T0 + days(1));
    }
    assert_eq!(m.tracked(), MAX_AGENTS);
    let kept = |id: &str| m.view(id, T0 + days(1)).is_some();
    // a0 was seen again, so the ephemeral a2, a4 and a6 went; the named a1 stays.
    assert!(kept("a0") && kept("a1") && kept("a8"));
    assert!(!kept("a2") && !kept("a4") && !kept("a6"));
    assert!(m.agents.lock().unwrap().consistent());
}

#[test]
fn a_file_with_too_many_agents_is_cut_by_the_same_rule() {
    let m = TrustManager::new(config());
    let map = [("n", false, 0), ("e1", true, 5), ("e2", true, 6)]
        .into_iter()
        .map(|(id, eph, seen)| (id.to_string(), m.fresh(id, eph, seen)))
        .collect();
    let r = Roster::from_map(map, 2);
    assert_eq!(r.ids().collect::<Vec<_>>(), ["e2", "n"]);
    assert!(r.consistent());
}

proptest::proptest! {
    /// The ordered index picks the victim the old scan picked: min of (named, last seen, id).
    #[test]
    fn eviction_matches_a_full_scan(
        ops in proptest::collection::vec((0u8..12, proptest::bool::ANY, 0i64..50, proptest::bool::ANY), 1..120)
    ) {
        let m = TrustManager::new(config());
        let mut r = Roster::new(5);
        let mut reference: BTreeMap<String, (bool, i64)> = BTreeMap::new();
        for (n, ephemeral, seen, touch) in ops {
            let id = format!("a{n}");
            if touch && reference.contains_key(&id) {
                r.update(&id, |a| a.last_seen_ms = seen);
                reference.get_mut(&id).unwrap().1 = seen;
                continue;
            }
            let evicted = r.admit(&id, || m.fresh(&id, ephemeral, seen));
            let expected = if reference.contains_key(&id) || reference.len() < 5 {
                None
            } else {
                reference
                    .iter()
                    .min_by_key(|(id, (eph, seen))| (!*eph, *seen, (*id).clone()))
                    .map(|(id, _)| id.clone())
            };
            if let Some(v) = &expected {
                reference.remove(v);
            }
            reference.entry(id).or_insert((ephemeral, seen));
            proptest::prop_assert_eq!(evicted.map(|e| e.to_string()), expected);
            proptest::prop_assert!(r.consistent() && r.len() == reference.len());
        }
    }
}

fn worker_config() -> TrustConfig {
    let mut c = config();
    c.defaults.insert("worker".into(), 15.0);
    c
}

fn read(path: &str) -> Option<ActionFingerprint> {
    let params = json!({ "path": path });
    Some(ActionFingerprint::of("read", params.as_object()))
}

/// `n` successes of `action(i)` one second apart from `start`.
fn succeed(
    m: &TrustManager,
    n: i64,
    start: i64,
    action: impl Fn(i64) -> Option<ActionFingerprint>,
) {
    for i in 0..n {
        m.record_action(
            "worker",
            Outcome::Success,
            action(i),
            false,
            start + i * 1000,
        );
    }
}

#[test]
fn a_day_of_identical_trivial_calls_adds_less_than_five_points() {
    let m = TrustManager::new(worker_config());
    succeed(&m, 250, T0, |_| read("README.md"));
    let s = m.snapshot_at("worker", T0 + 250_000);
    assert!(s.score - 15.0 < 5.0, "15 → {} ({:?})", s.score, s.tier);
    let v = m.view("worker", T0 + 250_000).unwrap();
    assert_eq!(
        (v.signals.success_count, v.signals.uncredited_successes),
        (1, 249),
        "the same call counts once a day"
    );
}

#[test]
fn a_day_of_varied_calls_adds_less_than_five_points() {
    let m = TrustManager::new(worker_config());
    succeed(&m, 250, T0, |i| read(&format!("file{i}.md")));
    let s = m.snapshot_at("worker", T0 + 250_000);
    assert!(s.score - 15.0 < 5.0, "15 → {} ({:?})", s.score, s.tier);
    // successMaxPerDay 2 at successPerAction 0.1: twenty credited.
    assert_eq!(s.score, 17.0);
}

#[test]
fn a_burst_either_side_of_midnight_earns_one_day_not_two() {
    let m = TrustManager::new(worker_config());
    let midnight = (T0 / DAY_MS + 1) * DAY_MS;
    succeed(&m, 250, midnight - 300_000, |i| read(&format!("a{i}")));
    succeed(&m, 250, midnight + 1000, |i| read(&format!("b{i}")));
    let s = m.snapshot_at("worker", midnight + 300_000).score;
    assert!(s - 15.0 < 5.0, "15 → {s}");
}

#[test]
fn successes_spread_over_days_still_earn() {
    let m = TrustManager::new(worker_config());
    for day in 0..10 {
        succeed(&m, 25, T0 + days(day), |i| read(&format!("d{day}-{i}")));
    }
    let end = T0 + days(9) + 25_000;
    let v = m.view("worker", end).unwrap();
    assert_eq!(v.signals.success_count, 200, "twenty a day for ten days");
    // 15 + 200·0.1 + 9 days of age (4.5) and clean streak (2.7)
    assert_eq!(v.score, 42.2);
    assert_eq!(v.tier, TrustTier::Standard);
    // Yesterday's action counts again today.
    let again = m.snapshot_at("worker", end + days(1)).score;
    m.record_action(
        "worker",
        Outcome::Success,
        read("d0-0"),
        false,
        end + days(1),
    );
    assert!((m.snapshot_at("worker", end + days(1)).score - again - 0.1).abs() < 1e-9);
}

#[test]
fn the_daily_credit_is_configurable() {
    let mut c = worker_config();
    c.weights.success_max_per_day = 5.0;
    let m = TrustManager::new(c);
    succeed(&m, 250, T0, |i| read(&format!("file{i}.md")));
    assert_eq!(m.snapshot_at("worker", T0 + 250_000).score, 20.0);
}

#[test]
fn a_restart_does_not_reset_the_days_credit() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("trust.json");
    let mut m = TrustManager::persistent(worker_config(), path.clone(), T0);
    succeed(&m, 250, T0, |i| read(&format!("file{i}.md")));
    m.close().unwrap();
    drop(m);
    let later = T0 + 3_600_000;
    let m = TrustManager::persistent(worker_config(), path, later);
    assert_eq!(m.load_error, None);
    succeed(&m, 250, later, |i| read(&format!("other{i}.md")));
    let v = m.view("worker", later + 250_000).unwrap();
    assert!(v.score - 15.0 < 5.0, "15 → {}", v.score);
    assert_eq!(v.signals.success_count, 20);
}

#[test]
fn a_restart_remembers_which_actions_were_credited() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("trust.json");
    let mut m = TrustManager::persistent(worker_config(), path.clone(), T0);
    m.record_action("worker", Outcome::Success, read("README.md"), false, T0);
    m.close().unwrap();
    drop(m);
    let m = TrustManager::persistent(worker_config(), path, T0 + 1000);
    m.record_action(
        "worker",
        Outcome::Success,
        read("README.md"),
        false,
        T0 + 1000,
    );
    let v = m.view("worker", T0 + 1000).unwrap();
    assert_eq!(
        (v.signals.success_count, v.signals.uncredited_successes),
        (1, 1)
    );
}

#[test]
fn fingerprints_ignore_key_order_and_see_any_difference() {
    let a = json!({ "path": "README.md", "limit": 10 });
    let b = json!({ "limit": 10, "path": "README.md" });
    let c = json!({ "limit": 11, "path": "README.md" });
    let of = |tool, v: &serde_json::Value| ActionFingerprint::of(tool, v.as_object());
    assert_eq!(of("read", &a), of("read", &b));
    assert_ne!(of("read", &a), of("read", &c));
    assert_ne!(of("read", &a), of("write", &a));
    assert_ne!(ActionFingerprint::of("read", None), of("read", &a));
}

#[test]
fn operator_state_survives_close_and_reload() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("trust.json");
    let mut m = TrustManager::persistent(config(), path.clone(), T0);
    m.operate("forge", &OperatorChange::SetScore(45.0), T0)
        .unwrap();
    m.operate("forge", &OperatorChange::LockTier(TrustTier::Trusted), T0)
        .unwrap();
    m.operate("scout", &OperatorChange::SetScore(33.0), T0)
        .unwrap();
    m.operate("scout", &OperatorChange::Floor(30.0), T0)
        .unwrap();
    for _ in 0..3 {
        m.record("scout", Outcome::Blocked, false, T0);
    }
    let later = T0 + days(3);
    let before: Vec<_> = ["forge", "scout"]
        .map(|id| m.view(id, later).unwrap())
        .into();
    m.close().unwrap();
    let m = TrustManager::persistent(config(), path, later);
    assert_eq!(m.load_error, None);
    let after: Vec<_> = ["forge", "scout"]
        .map(|id| m.view(id, later).unwrap())
        .into();
    assert_eq!(after, before);
    let (forge, scout) = (&after[0], &after[1]);
    assert_eq!(
        (forge.locked, forge.tier),
        (Some(TrustTier::Trusted), TrustTier::Trusted)
    );
    assert_eq!(
        forge.score, 60.0,
        "45 + 3 days of age and streak, lifted into the locked tier"
    );
    assert_eq!(
        (scout.floor, scout.score),
        (Some(30.0), 30.0),
        "33 − 3·2 held at the floor"
    );
}

#[test]
fn reconfigure_keeps_signals_locks_and_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("trust.json");
    let mut m = TrustManager::persistent(config(), path.clone(), T0);
    m.record("sub", Outcome::Success, true, T0);
    m.record("main", Outcome::Blocked, false, T0);
    m.operate(
        "forge",
        &OperatorChange::LockTier(TrustTier::Restricted),
        T0,
    )
    .unwrap();
    let signals = m.view("main", T0).unwrap().signals;
    assert_eq!(m.snapshot_at("main", T0).score, 58.0);
    let mut edited = config();
    edited.weights.violation_penalty = -10.0;
    edited.defaults.insert("sub".into(), 40.0);
    edited.persist_interval_seconds = 7200;
    m.reconfigure(edited.clone()).unwrap();
    let main = m.view("main", T0).unwrap();
    assert_eq!(main.signals, signals, "the recorded signals stay");
    assert_eq!(main.score, 50.0, "scored with the new weights: 60 − 10");
    assert_eq!(
        m.snapshot_at("forge", T0).tier,
        TrustTier::Restricted,
        "the lock stays"
    );
    assert!(
        !m.view("sub", T0).unwrap().ephemeral,
        "a configured agent is not evicted first"
    );
    // The persister still writes the same file after its restart with the new interval.
    m.record("main", Outcome::Success, false, T0 + 1);
    m.flush().unwrap();
    m.reconfigure(edited).unwrap();
    m.close().unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let stored: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(stored["agents"]["main"]["signals"]["successCount"], 1);
    assert_eq!(stored["agents"]["forge"]["locked"], "restricted");
}

#[test]
fn a_new_manager_on_the_same_file_works_right_after_close() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("trust.json");
    let mut first = TrustManager::persistent(config(), path.clone(), T0);
    first.record("main", Outcome::Blocked, false, T0);
    first.close().unwrap();
    // Not dropped: the old engine may still be alive while the new one starts.
    let mut second = TrustManager::persistent(config(), path.clone(), T0 + 1);
    assert_eq!(second.load_error, None);
    assert_eq!(
        second.view("main", T0 + 1).unwrap().signals.violation_count,
        1
    );
    second.record("main", Outcome::Blocked, false, T0 + 1);
    second.flush().unwrap();
    // A late outcome on the closed manager is refused, and never written over the new file.
    first.record("main", Outcome::Success, false, T0 + 2);
    assert!(
        first.flush().is_err(),
        "a change after close is reported unsaved"
    );
    drop(first);
    second.close().unwrap();
    let third = TrustManager::persistent(config(), path, T0 + 3);
    let v = third.view("main", T0 + 3).unwrap();
    assert_eq!((v.signals.violation_count, v.signals.success_count), (2, 0));
}
