use super::*;

const T0: i64 = 1_800_000_000_000;

fn config() -> TrustConfig {
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
    let m = TrustManager::new(config());
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
    assert_eq!(m.snapshot_at("forge", T0).score, 65.0);
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
    assert!(m.load_error.as_deref().unwrap().contains("unreadable"));
    let aside = dir.path().join(format!("trust.json.corrupt-{}", T0 + 1));
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

#[test]
fn the_number_of_agents_is_bounded_ephemeral_first() {
    let mut map = BTreeMap::new();
    let m = TrustManager::new(config());
    for i in 0..MAX_AGENTS {
        let mut a = m.fresh(&format!("a{i}"), i % 2 == 0, T0 + i as i64);
        a.last_seen_ms = T0 + i as i64;
        map.insert(a.agent_id.clone(), a);
    }
    evict_if_full(&mut map);
    assert_eq!(map.len(), MAX_AGENTS - 1);
    assert!(
        !map.contains_key("a0"),
        "the least recently seen ephemeral agent goes first"
    );
    assert!(map.contains_key("a1"));
}
