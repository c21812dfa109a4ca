//! External communication (seed 001 ): a tool call that would send text outside is
//! judged by the claim and fact stages with the agent's trust profile (as `before_message_write`
//! is), then — with `outputValidation.llmValidator` — by a model. The stricter verdict wins;
//! internal channels never reach the model.

use super::judgment::{Answers, Got, Kind, Question};
use super::Core;
use crate::context::Request;
use crate::llm::answer::{GateAnswer, GateVerdict};
use crate::llm::{prompt, LlmError};
use crate::output::external::{self, Outbound};
use crate::output::OutputVerdict;
use crate::policy::builtins::OpaqueAction;
use crate::policy::model::Action;
use crate::trust::TrustSnapshot;
use crate::verdict::Verdict;
use sha2::{Digest, Sha256};

/// Facts a model is shown at most (the operator's registry, in its order).
const MAX_FACTS: usize = 50;

/// The gate for `req` when it sends outside: a denial on `v`, or the question a model is still
/// to answer.
pub(super) fn judge(
    core: &Core,
    (req, agent_id, trust): (&Request, &str, TrustSnapshot),
    call: &crate::guards::CallFacts,
    answers: &Answers,
    v: &mut Verdict,
) -> Option<Question> {
    if v.action == Action::Deny {
        return None;
    }
    let cfg = &core.config.output.external;
    let mut out = external::detect(cfg, req, call.view())?;
    attach_written(core, req, &mut out);
    let now = req.timestamp.map_or_else(crate::time::now_ms, |t| t as i64);
    let session = req.session_key.as_deref().unwrap_or("");
    let checked = core.validator.validate(agent_id, &out.text, trust, now);
    if let Some(why) = blocked(&checked) {
        let reason = format!(
            "{} would publish what output validation blocks: {why}",
            out.via
        );
        deny(v, "claims", reason);
        return None;
    }
    if let Some(why) = split_claim(core, session, &out.text, (agent_id, trust, now)) {
        let reason = format!(
            "{} would publish, read with the end of the session's previous post, what output \
             validation blocks: {why}",
            out.via
        );
        deny(v, "claims", reason);
        return None;
    }
    core.live.sent.record(session, &out.text);
    // A route the host picks may leave, or not: the claim stage judged it; a model is only
    // asked about text known to leave.
    if !out.leaves {
        return None;
    }
    if !out.known {
        unread(core, (req, agent_id, trust), &out, v);
        return None;
    }
    let judge = core.judge.as_deref().filter(|_| cfg.llm)?;
    let facts = core.validator.registries.lines(MAX_FACTS);
    let key = key(&out, core.validator.registries.version());
    let got = match answers.given.get(&key) {
        Some(a) => a.clone(),
        None if answers.last_pass => return None,
        None => match judge.cached(&key, now) {
            Some(hit) => Ok(hit),
            None => return Some(question(cfg, &out, &facts, key)),
        },
    };
    v.llm_escalated = true;
    apply(&out, got, cfg.fail_closed, v);
    None
}

/// Why output validation blocks a text, if it does.
fn blocked(checked: &crate::output::OutputResult) -> Option<String> {
    if checked.verdict != OutputVerdict::Block {
        return None;
    }
    let first = checked.violations.first().map(|v| v.reason.to_string());
    Some(first.unwrap_or_else(|| "a claim the facts contradict".into()))
}

/// A claim split over this send and the session's previous one (`output::sent`): blocked when
/// the two read together block and the earlier one alone does not (the facts may have changed
/// since it went out; that one is not this send's doing).
fn split_claim(
    core: &Core,
    session: &str,
    text: &str,
    (agent_id, trust, now): (&str, TrustSnapshot, i64),
) -> Option<String> {
    let before = core.live.sent.before(session, text)?;
    let joined = format!("{before} {text}");
    let why = blocked(&core.validator.validate(agent_id, &joined, trust, now))?;
    let alone = core.validator.validate(agent_id, &before, trust, now);
    blocked(&alone).is_none().then_some(why)
}

/// A file the session wrote earlier and now attaches is sent as what it wrote: its text joins
/// the send's (`crate::written` keeps what each call wrote, by file name).
fn attach_written(core: &Core, req: &Request, out: &mut Outbound) {
    if out.files.is_empty() {
        return;
    }
    let session = req.session_key.as_deref().unwrap_or("");
    let said: Vec<&str> = out.files.iter().map(String::as_str).collect();
    for (_, text) in core.live.written.mentioned(session, &said) {
        if let Some(text) = text {
            out.text.push('\n');
            out.text.push_str(&text);
        }
    }
}

/// A post whose text is only known when the command line runs: no stage can read it. Where a
/// stage would have judged it — the agent's claims can be blocked, or a model checks external
/// posts — it is named, not guessed: `opaqueCommandAction` decides, as for a command whose
/// effect cannot be known.
fn unread(
    core: &Core,
    (req, agent_id, trust): (&Request, &str, TrustSnapshot),
    out: &Outbound,
    v: &mut Verdict,
) {
    let judged = core.config.output.external.llm && core.judge.is_some()
        || core.validator.could_block(agent_id, trust);
    if !judged {
        return;
    }
    let reason = format!(
        "{} would post text that is only known when the command runs, so it cannot be checked",
        out.via
    );
    match core.config.builtins.opaque_command_action {
        OpaqueAction::Allow => {}
        OpaqueAction::Deny => deny(v, "unread", reason),
        OpaqueAction::Escalate => {
            v.policy_id = Some("external".into());
            v.rule_id = Some("unread".into());
            let spec = super::approval::Spec::because(reason);
            super::approval::escalate(&core.config.approval, v, spec, req, agent_id);
        }
    }
}

fn question(
    cfg: &crate::output::config::ExternalConfig,
    out: &Outbound,
    facts: &[String],
    key: [u8; 32],
) -> Question {
    let mut p = prompt::gate(&out.text, &out.via, facts, &prompt::nonce(), cfg.max_tokens);
    p.completion.model = cfg.model.clone();
    Question {
        kind: Kind::Gate {
            via: out.via.clone(),
            timeout_ms: cfg.timeout_ms,
        },
        key,
        prompt: p,
    }
}

/// The model's verdict on the send: block denies, flag is recorded (the call's own record and
/// the model call's), pass passes. A planted answer denies; other failures deny only under
/// `llmValidator.failMode: "closed"`.
fn apply(out: &Outbound, got: Result<Got, LlmError>, fail_closed: bool, v: &mut Verdict) {
    match got {
        Ok(Got::Gate(GateAnswer {
            verdict: GateVerdict::Block,
            issues,
        })) => {
            let why = issues
                .first()
                .map(|i| format!("{}: \"{}\"", i.kind, i.text))
                .unwrap_or_else(|| "no reason given".into());
            deny(v, "model", format!("A model blocked {}: {why}", out.via));
        }
        Ok(_) => {}
        Err(LlmError::Planted) => deny(
            v,
            "planted-answer",
            format!("{} carries a planted answer for the model that checks it (prompt injection)", out.via),
        ),
        Err(e) if fail_closed => deny(
            v,
            "fail-closed",
            format!("A model was to check {} and gave no usable answer ({e}); llmValidator.failMode is closed", out.via),
        ),
        Err(_) => {}
    }
}

fn deny(v: &mut Verdict, rule: &str, reason: String) {
    v.action = Action::Deny;
    v.reason = reason;
    v.policy_id = Some("external".into());
    v.rule_id = Some(rule.into());
    v.approval = None;
}

/// A verdict on a text holds for the same text by the same route under the same facts.
fn key(out: &Outbound, facts_version: u64) -> [u8; 32] {
    let mut h = Sha256::new();
    for part in ["gate", out.via.as_str(), out.text.as_str()] {
        h.update((part.len() as u64).to_le_bytes());
        h.update(part.as_bytes());
    }
    h.update(facts_version.to_le_bytes());
    h.finalize().into()
}
