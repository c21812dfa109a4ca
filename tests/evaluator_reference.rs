//! The indexed evaluator (pre-sorted, per-agent candidate lists, early stop on deny) must decide
//! exactly what a naive reference decides: filter every policy by scope at call time, sort by
//! priority then specificity, evaluate all, aggregate deny > escalate > audit > allow.

use openclaw_governance::context::{Facts, Hook, Request};
use openclaw_governance::frequency::FrequencyTracker;
use openclaw_governance::policy::evaluator::evaluate;
use openclaw_governance::policy::index::PolicyIndex;
use openclaw_governance::policy::model::{Action, Policy};
use openclaw_governance::risk::{RiskAssessment, RiskLevel};
use openclaw_governance::time::LocalTime;
use openclaw_governance::trust::TrustSnapshot;
use openclaw_governance::GovernanceConfig;
use proptest::prelude::*;
use serde_json::{json, Value};

const AGENTS: [&str; 4] = ["main", "forge", "forge-2", "cerberus"];
const TOOLS: [&str; 3] = ["exec", "read", "write"];
const HOOKS: [&str; 2] = ["before_tool_call", "message_sending"];

fn condition() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        prop::sample::subsequence(TOOLS.to_vec(), 1..=2)
            .prop_map(|t| json!({ "type": "tool", "name": t })),
        prop::sample::select(vec!["rm", "ls", "git"])
            .prop_map(|s| json!({ "type": "tool", "params": { "command": { "contains": s } } })),
        prop::sample::select(vec!["^rm", "push$", "l+s"])
            .prop_map(|s| json!({ "type": "tool", "params": { "command": { "matches": s } } })),
        prop::sample::select(vec!["forge*", "main", "*"])
            .prop_map(|s| json!({ "type": "agent", "id": s })),
        (0u8..=100).prop_map(|s| json!({ "type": "agent", "minScore": s })),
        prop::sample::select(vec!["low", "medium", "high"])
            .prop_map(|l| json!({ "type": "risk", "minRisk": l })),
    ];
    leaf.prop_recursive(2, 8, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 1..3)
                .prop_map(|c| json!({ "type": "any", "conditions": c })),
            inner.prop_map(|c| json!({ "type": "not", "condition": c })),
        ]
    })
}

fn rule(i: usize) -> impl Strategy<Value = Value> {
    let effect = prop::sample::select(vec!["allow", "deny", "escalate", "audit"]);
    let tier = prop::option::of(prop::sample::select(vec![
        "restricted",
        "standard",
        "trusted",
    ]));
    (prop::collection::vec(condition(), 0..3), effect, tier).prop_map(move |(conditions, action, min)| {
        let mut r = json!({ "id": format!("r{i}"), "conditions": conditions, "effect": { "action": action } });
        if let Some(t) = min {
            r["minTrust"] = json!(t);
        }
        r
    })
}

fn policy(i: usize) -> impl Strategy<Value = Value> {
    let agents = prop::option::of(prop::sample::subsequence(
        vec!["main", "forge*", "cerberus"],
        1..=2,
    ));
    let exclude = prop::option::of(prop::sample::subsequence(vec!["forge-2", "main"], 1..=1));
    let hooks = prop::option::of(prop::sample::subsequence(HOOKS.to_vec(), 1..=1));
    let rules = (1usize..4).prop_flat_map(|n| (0..n).map(rule).collect::<Vec<_>>());
    (agents, exclude, hooks, -2i64..3, any::<bool>(), rules).prop_map(move |(agents, exclude, hooks, priority, enabled, rules)| {
        let mut scope = json!({});
        if let Some(a) = agents { scope["agents"] = json!(a) }
        if let Some(x) = exclude { scope["excludeAgents"] = json!(x) }
        if let Some(h) = hooks { scope["hooks"] = json!(h) }
        json!({ "id": format!("p{i}"), "scope": scope, "priority": priority, "enabled": enabled || !i.is_multiple_of(3), "rules": rules })
    })
}

fn policies() -> impl Strategy<Value = Vec<Value>> {
    (0usize..12).prop_flat_map(|n| (0..n).map(policy).collect::<Vec<_>>())
}

/// The reference: no index, no cache, no early stop.
fn naive<'a>(
    policies: &'a [Policy],
    hook: Hook,
    f: &Facts,
) -> (Action, Option<(&'a str, &'a str)>) {
    let mut live: Vec<(usize, &Policy)> = policies
        .iter()
        .enumerate()
        .filter(|(_, p)| {
            p.enabled
                && p.scope.covers_hook(hook)
                && p.scope.covers_agent(f.agent_id)
                && p.scope.covers_channel(f.req.channel.as_deref())
        })
        .collect();
    live.sort_by_key(|(i, p)| (-p.priority, std::cmp::Reverse(p.scope.specificity()), *i));
    let mut best: Option<(Action, &str, &str)> = None;
    for (_, p) in live {
        if let Some(r) = p.rules.iter().find(|r| r.matches(f)) {
            let a = r.effect.action();
            if best.is_none_or(|(b, _, _)| a > b) {
                best = Some((a, &p.id, &r.id));
            }
        }
    }
    best.map_or((Action::Allow, None), |(a, p, r)| (a, Some((p, r))))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]
    #[test]
    fn indexed_evaluation_matches_the_reference(
        raw in policies(),
        agent in prop::sample::select(AGENTS.to_vec()),
        tool in prop::sample::select(TOOLS.to_vec()),
        command in prop::sample::select(vec!["rm -rf x", "ls -la", "git push", "echo"]),
        hook in prop::sample::select(HOOKS.to_vec()),
        score in 0u8..=100,
        risk in prop::sample::select(vec![RiskLevel::Low, RiskLevel::Medium, RiskLevel::High, RiskLevel::Critical]),
    ) {
        let config = GovernanceConfig::resolve(&json!({ "policies": raw })).expect("generated configs are valid");
        let index = PolicyIndex::build(config.policies.clone());
        let req = Request {
            hook: hook.into(),
            agent_id: Some(agent.into()),
            tool_name: (hook == "before_tool_call").then(|| tool.to_string()),
            params: json!({ "command": command }).as_object().cloned(),
            ..Request::default()
        };
        let hook = Hook::parse(hook).unwrap();
        let frequency = FrequencyTracker::new(10, 10);
        let risk = RiskAssessment { level: risk, score: 0.0, factors: vec![] };
        let guards = openclaw_governance::guards::GuardEnv::new(Default::default(), None, vec![]);
        let call = openclaw_governance::guards::CallFacts::new(&req, agent, &guards);
        let facts = Facts {
            req: &req, call: &call, hook, agent_id: agent, session_key: "agent:x:y", now_ms: 0,
            local: LocalTime { minute_of_day: 600, weekday: 3 },
            trust: TrustSnapshot::of(score as f64), risk: &risk, frequency: &frequency,
            conversation: &[],
            taint: None,
            intents: &openclaw_governance::policy::conditions::intent::Intents::none(),
        };
        let got = evaluate(&index, hook, &facts);
        let want = naive(&config.policies, hook, &facts);
        prop_assert_eq!(got.action, want.0);
        prop_assert_eq!(got.decisive.map(|m| (m.policy.id.as_str(), m.rule.id.as_str())), want.1);
        // Twice through the index (now from the per-agent cache) gives the same answer.
        let again = evaluate(&index, hook, &facts);
        prop_assert_eq!(again.action, got.action);
    }
}
