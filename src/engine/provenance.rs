//! The engine's side of provenance (seed 004): the host's hooks report what entered a session
//! (a tool's result, an inbound message, a sub-agent's work), `before_tool_call` is gated by
//! it. The levels, taint and policies themselves are in `crate::provenance`.

use super::{Basis, Core, GovernanceEngine, Mode};
use crate::context::{Hook, Request};
use crate::policy::model::Action;
use crate::provenance::rule_of_two::{Act, CallLegs};
use crate::provenance::{self, Level, Source, Taint};
use crate::verdict::Verdict;
use serde_json::{Map, Value};

/// Longest description of a source kept (a URL, a path, a command's head), like the seed's
/// 100-character preview.
const WHAT_MAX: usize = 100;

/// An inbound turn as the host describes it (`before_agent_run` and its ctx).
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Inbound {
    pub session_key: String,
    pub sender_is_owner: Option<bool>,
    pub channel: Option<String>,
    pub sender_id: Option<String>,
    /// `ctx.inputProvenance.kind`: external_user | inter_session | internal_system.
    pub provenance_kind: Option<String>,
    /// `ctx.inputProvenance.sourceSessionKey`: the session whose work this turn carries.
    pub source_session_key: Option<String>,
    pub source_tool: Option<String>,
}

/// The session's taint and its current run's model calls, when provenance is on.
pub(super) fn session_state(core: &Core, session: &str) -> (Option<std::sync::Arc<Taint>>, u32) {
    if !core.config.provenance.enabled || session.is_empty() {
        return (None, 0);
    }
    match core.live.provenance.lock() {
        Ok(s) => (s.sessions.shared(session), s.runs.iteration(session)),
        Err(_) => (None, 0),
    }
}

/// `toolTrust` (or the seed's table) for `tool` with the facts of its call.
fn level_of(core: &Core, tool: &str, f: &crate::context::Facts) -> Level {
    match core.config.provenance.tool_trust.as_ref() {
        Some(t) => t.classify(tool, f),
        None => provenance::classify::default_level(tool, f.req.params.as_ref()),
    }
}

/// A call that would complete the rule of two waits for a person, through the approval flow
/// as any escalation (with approvals off, their fallback decides); a deny or another
/// escalation stands.
pub(super) fn rule_of_two(
    core: &Core,
    (req, agent_id): (&Request, &str),
    taint: Option<&Taint>,
    legs: &CallLegs,
    v: &mut Verdict,
) {
    if matches!(v.action, Action::Deny | Action::Escalate) {
        return;
    }
    let Some(reason) = provenance::rule_of_two::judge(taint, legs) else {
        return;
    };
    v.policy_id = Some("provenance".into());
    v.rule_id = Some(provenance::presets::RULE_OF_TWO.into());
    let spec = super::approval::Spec {
        reason,
        timeout_seconds: None,
        fallback: None,
        severity: None,
    };
    super::approval::escalate(&core.config.approval, v, spec, req, agent_id);
}

/// A provenance policy denies what it names, whatever the other policies said (deny wins).
pub(super) fn gate(
    core: &Core,
    req: &Request,
    taint: Option<&Taint>,
    iteration: u32,
    v: &mut Verdict,
) {
    let cfg = &core.config.provenance;
    if !cfg.enabled || v.action == Action::Deny {
        return;
    }
    let tool = req.tool_name.as_deref().unwrap_or("");
    if let Some(block) = provenance::judge(cfg, taint, iteration, tool) {
        v.action = Action::Deny;
        v.reason = block.reason;
        v.policy_id = Some("provenance".into());
        v.rule_id = Some(block.policy);
        v.approval = None;
    }
}

impl GovernanceEngine {
    fn provenance_core(&self) -> Option<&Core> {
        match &self.mode {
            Mode::Ready(core) if core.config.provenance.enabled => Some(core),
            _ => None,
        }
    }

    /// A tool's result entered the session (`after_tool_call`): its level comes from the
    /// tool, its params and the operator's `toolTrust`. A failed call's error text enters the
    /// context too, so it counts the same. Returns the level recorded.
    /// `content` is the result's text as the host passed it; only its SHA-256 is kept.
    pub fn observe_tool_result(&self, req: &Request, content: Option<&str>) -> Option<Level> {
        let core = self.provenance_core()?;
        let session = req.session_key.as_deref().filter(|s| !s.is_empty())?;
        let tool = req.tool_name.as_deref()?;
        let agent_id = super::resolve_agent(req);
        let now = req.timestamp.map_or_else(crate::time::now_ms, |t| t as i64);
        let call = crate::guards::CallFacts::new(req, agent_id, &core.guards);
        let level = self.classify(core, req, (agent_id, session), now, &call);
        let source = Source {
            level,
            via: tool.to_string(),
            what: what(req.params.as_ref()),
            at_ms: now,
            sha256: content.map(sha256_hex),
        };
        self.record_taint(core, |s| s.sessions.taint(session, source));
        if core.config.provenance.rule_of_two {
            self.record_acts(core, session, tool, &call, now);
        }
        Some(level)
    }

    /// What a call that ran did towards the rule of two: its first sensitive access and its
    /// first outward act are remembered for the session.
    fn record_acts(
        &self,
        core: &Core,
        session: &str,
        tool: &str,
        call: &crate::guards::CallFacts,
        now: i64,
    ) {
        let act = |what: String| Act {
            via: tool.to_string(),
            what: cut(&what),
            at_ms: now,
        };
        let (sensitive, outbound) = (call.sensitive(), call.outbound());
        self.record_taint(core, |s| {
            let b = sensitive.is_some_and(|w| s.sessions.act(session, false, act(w)));
            let c = outbound.is_some_and(|w| s.sessions.act(session, true, act(w)));
            b || c
        });
    }

    /// The level of `req`'s result, judged as `before_tool_call` would see the call (its
    /// trust and risk), without taint: `toolTrust` conditions describe the call, not the session.
    fn classify(
        &self,
        core: &Core,
        req: &Request,
        (agent_id, session): (&str, &str),
        now: i64,
        call: &crate::guards::CallFacts,
    ) -> Level {
        let trust = core.live.trust.snapshot(agent_id);
        let local = crate::time::LocalTime::at(now, core.config.timezone);
        let risk = self.risk_of(core, req, (agent_id, session), trust.score, (now, local));
        let basis = Basis {
            hook: Hook::BeforeToolCall,
            req,
            agent_id,
            session_key: session,
            now,
            local,
            trust,
            risk: &risk,
            call,
            taint: None,
        };
        let tool = req.tool_name.as_deref().unwrap_or("");
        self.with_facts(core, &basis, |f| level_of(core, tool, f))
    }

    /// The rule of two's legs this call would bring (before_tool_call), judged with the
    /// decision's own facts.
    pub(super) fn call_legs(&self, core: &Core, b: &Basis) -> CallLegs {
        let tool = b.req.tool_name.as_deref().unwrap_or("");
        let level = self.with_facts(core, b, |f| level_of(core, tool, f));
        CallLegs {
            untrusted: (level <= Level::External)
                .then(|| format!("{} content ({tool})", level.as_str())),
            sensitive: b.call.sensitive(),
            outbound: b.call.outbound(),
        }
    }

    /// A run began with a message (`before_agent_run`): the owner's own words taint nothing;
    /// anyone else's are external; a sub-agent's announced result or another session's reply
    /// brings that session's taint along, and is shared content itself.
    pub fn observe_inbound(&self, inbound: &Inbound) -> Option<Level> {
        let core = self.provenance_core()?;
        let session = inbound.session_key.as_str();
        if session.is_empty() {
            return None;
        }
        let now = crate::time::now_ms();
        let (level, via, what) = match inbound.provenance_kind.as_deref() {
            Some("internal_system") => return Some(Level::System),
            Some("inter_session") => {
                let from = inbound.source_session_key.clone().unwrap_or_default();
                let via = inbound
                    .source_tool
                    .clone()
                    .unwrap_or_else(|| "inter_session".into());
                if !from.is_empty() {
                    self.record_taint(core, |s| s.sessions.inherit(session, &from));
                }
                (Level::Shared, via, from)
            }
            // Mail and webhooks arrive as the prompt of a `hook:` session (hook:gmail:…,
            // hook:imap:…): someone else's words, whatever the run's sender flag says.
            _ if is_hook_session(session) => {
                let source = session.split(':').skip_while(|s| *s != "hook").nth(1);
                (
                    Level::External,
                    "hook".to_string(),
                    source.unwrap_or_default().to_string(),
                )
            }
            _ if inbound.sender_is_owner == Some(true) => return Some(Level::Owner),
            _ => {
                let sender = [inbound.channel.as_deref(), inbound.sender_id.as_deref()]
                    .into_iter()
                    .flatten()
                    .collect::<Vec<_>>()
                    .join(" ");
                (Level::External, "message".to_string(), sender)
            }
        };
        let source = Source {
            level,
            via,
            what: cut(&what),
            at_ms: now,
            sha256: None,
        };
        self.record_taint(core, |s| s.sessions.taint(session, source));
        Some(level)
    }

    /// A sub-agent spawned from `parent` starts with the parent's taint.
    pub(super) fn provenance_spawn(&self, child: &str, parent: &str) {
        if let Some(core) = self.provenance_core() {
            self.record_taint(core, |s| s.sessions.inherit(child, parent));
        }
    }

    /// A model call began in `run` (`model_call_started`); its number in the run.
    pub fn observe_model_call(&self, session: &str, run: &str) -> Option<u32> {
        let core = self.provenance_core()?;
        let mut s = core.live.provenance.lock().ok()?;
        Some(s.runs.model_call(session, run))
    }

    /// The session's context was replaced (`/new`, `/reset`, an idle or daily rollover, a
    /// deletion): what it read is gone. A compaction is no reset: its summary derives from
    /// the tainted content, so the shim does not call this for one.
    pub fn reset_provenance(&self, session: &str) -> bool {
        let Mode::Ready(core) = &self.mode else {
            return false;
        };
        let cleared = core.live.provenance.lock().is_ok_and(|mut s| {
            s.runs.clear(session);
            s.sessions.clear(session)
        });
        if cleared {
            core.live.provenance_changed();
        }
        cleared
    }

    /// The tools of `offered` to give the model when a run of `session` starts
    /// (`before_prompt_build` → `toolsAllow`), or `None` when no `remove_tools` policy holds.
    pub fn tools_allowed(&self, session: &str, offered: &[String]) -> Option<Vec<String>> {
        let core = self.provenance_core()?;
        let (taint, _) = session_state(core, session);
        let kept = provenance::tools_kept(&core.config.provenance, taint.as_deref(), offered)?;
        Some(kept.into_iter().map(str::to_string).collect())
    }

    /// The session's taint, for status and explain.
    pub fn session_taint(&self, session: &str) -> Option<Taint> {
        let Mode::Ready(core) = &self.mode else {
            return None;
        };
        core.live
            .provenance
            .lock()
            .ok()?
            .sessions
            .get(session)
            .cloned()
    }

    fn record_taint(&self, core: &Core, change: impl FnOnce(&mut provenance::State) -> bool) {
        let changed = core
            .live
            .provenance
            .lock()
            .is_ok_and(|mut s| change(&mut s));
        if changed {
            core.live.provenance_changed();
        }
    }
}

fn is_hook_session(key: &str) -> bool {
    key.split(':').any(|s| s == "hook")
}

/// What a call read, for a reason: a URL without its query, a path, a search, a command's head.
fn what(params: Option<&Map<String, Value>>) -> String {
    let Some(p) = params else {
        return String::new();
    };
    let text = |k: &str| p.get(k).and_then(Value::as_str);
    if let Some(url) = text("url").or_else(|| text("targetUrl")) {
        return cut(url.split(['?', '#']).next().unwrap_or(url));
    }
    [
        "path",
        "file_path",
        "query",
        "command",
        "target",
        "channel",
        "sessionKey",
    ]
    .iter()
    .find_map(|k| text(k))
    .map(cut)
    .unwrap_or_default()
}

/// Secrets out, then at most [`WHAT_MAX`] characters.
fn cut(s: &str) -> String {
    let clean = crate::audit::redact::Redactor::whole().text(s);
    match clean.char_indices().nth(WHAT_MAX) {
        Some((i, _)) => format!("{}…", &clean[..i]),
        None => clean,
    }
}

fn sha256_hex(text: &str) -> String {
    use sha2::Digest;
    crate::audit::merkle::hex(&sha2::Sha256::digest(text.as_bytes()).into())
}
