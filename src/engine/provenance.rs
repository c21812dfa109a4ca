//! The engine's side of provenance (seed 004): the host's hooks report what entered a session
//! (a tool's result, an inbound message, a sub-agent's work), `before_tool_call` is gated by
//! it. The levels, taint and policies themselves are in `crate::provenance`.

use super::{Basis, Core, GovernanceEngine, Mode};
use crate::context::{Hook, Request};
use crate::policy::model::Action;
use crate::provenance::graph::{self, At, Call, Content, Decision, TurnGraph};
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
    /// The host's run id (`ctx.runId`): the turn graph's id.
    pub run_id: Option<String>,
    pub agent_id: Option<String>,
    /// The run's prompt: hashed (and previewed when foreign) in the turn graph, not kept.
    pub prompt: Option<String>,
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
    let spec = super::approval::Spec::because(reason);
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
            sha256: content.map(graph::sha256_hex),
        };
        let node = Content {
            level,
            source: graph::source_text(&source),
            text: content,
            hash: source.sha256.clone(),
        };
        let at = (req.run_id.as_deref(), Some(agent_id), now);
        self.record_graph(core, session, at, |g, at| {
            let call = (tool, req.tool_call_id.as_deref());
            g.tool_result(session, at, call, node)
        });
        self.record_taint(core, |s| s.sessions.taint(session, source));
        if core.config.provenance.rule_of_two {
            self.record_acts(core, session, tool, &call, now);
        }
        // Only the host's file tools: an exec's view would be parsed for no files.
        if provenance::files::TOOLS.contains(&tool) {
            let uses: Vec<(String, crate::call::Access)> = (call.view().files.iter())
                .filter(|f| !f.path.pattern)
                .map(|f| (f.path.path.clone(), f.access))
                .collect();
            self.record_taint(core, |s| {
                provenance::files::follow(s, (session, tool, now), &uses)
            });
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
            // Classification asks no model (config refuses intents in toolTrust).
            intents: &crate::policy::conditions::intent::Intents::none(),
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
        let at = (inbound.run_id.as_deref(), inbound.agent_id.as_deref(), now);
        // The run's turn opens on what the session held before this message.
        self.record_graph(core, session, at, |g, at| g.begin(session, at));
        let level = self.inbound_taint(core, inbound, now);
        let source = match level {
            Ok(l) => l,
            Err(l) => Source {
                level: l,
                via: "message".into(),
                what: String::new(),
                at_ms: now,
                sha256: None,
            },
        };
        let prompt = inbound.prompt.as_deref();
        let node = Content {
            level: source.level,
            source: graph::source_text(&source),
            text: prompt,
            hash: prompt.map(graph::sha256_hex),
        };
        self.record_graph(core, session, at, |g, at| g.input(session, at, node));
        Some(source.level)
    }

    /// Records what the inbound message brings; Ok with the source it recorded, or Err with
    /// the level of a message that taints nothing (the owner's, the system's).
    fn inbound_taint(&self, core: &Core, inbound: &Inbound, now: i64) -> Result<Source, Level> {
        let session = inbound.session_key.as_str();
        let (level, via, what) = match inbound.provenance_kind.as_deref() {
            Some("internal_system") => return Err(Level::System),
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
            _ if inbound.sender_is_owner == Some(true) => return Err(Level::Owner),
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
        self.record_taint(core, |s| s.sessions.taint(session, source.clone()));
        Ok(source)
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
        let n = core
            .live
            .provenance
            .lock()
            .ok()?
            .runs
            .model_call(session, run);
        let at = (Some(run), None, crate::time::now_ms());
        self.record_graph(core, session, at, |g, at| g.model_call(session, at));
        Some(n)
    }

    /// The run ended (`agent_end`): its turn graph is finished, and persisted when a
    /// `persist_graph` policy held. `duration_ms` is the host's figure.
    pub fn observe_run_end(&self, session: &str, run: Option<&str>, duration_ms: Option<i64>) {
        let Some(core) = self.provenance_core() else {
            return;
        };
        let now = crate::time::now_ms();
        let finished = core
            .live
            .provenance
            .lock()
            .is_ok_and(|mut s| s.graphs.end(session, run, duration_ms, now));
        if finished {
            self.turn_finished(core, session);
        }
    }

    /// The session's context was replaced (`/new`, `/reset`, an idle or daily rollover, a
    /// deletion): what it read is gone. A compaction is no reset: its summary derives from
    /// the tainted content, so the shim does not call this for one.
    pub fn reset_provenance(&self, session: &str) -> bool {
        let Mode::Ready(core) = &self.mode else {
            return false;
        };
        if core.config.provenance.enabled {
            // The run that read what is now gone is over: its graph is judged on that taint.
            self.observe_run_end(session, None, None);
        }
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

    /// The session's current turn graph and its recent ones, or None when provenance is off.
    pub fn provenance_graph(&self, session: &str) -> Option<Value> {
        let core = self.provenance_core()?;
        let s = core.live.provenance.lock().ok()?;
        let recent: Vec<&TurnGraph> = s.graphs.recent(session).collect();
        // Graphs other processes wrote (a CLI run, the process before a restart), newest last.
        let known = |id: &str| recent.iter().any(|g| g.turn_id == id);
        let persisted: Vec<TurnGraph> = graphs_dir(core)
            .map(|d| graph::read_persisted(&d, session, graph::MAX_TURNS))
            .unwrap_or_default()
            .into_iter()
            .filter(|g| !known(&g.turn_id))
            .collect();
        Some(serde_json::json!({
            "sessionKey": session,
            "taint": s.sessions.get(session),
            "current": s.graphs.current(session),
            "recent": recent,
            "persisted": persisted,
        }))
    }

    /// A tool call was judged: its node (and the decision's when it was stopped or held) in
    /// the turn graph. Returns the graph so far when a `log_full_context` policy holds, for the
    /// decision's audit record: hashes and redacted previews only, never content.
    pub(super) fn graph_decision(
        &self,
        core: &Core,
        req: &Request,
        v: &Verdict,
        now: i64,
    ) -> Option<Value> {
        if !core.config.provenance.enabled {
            return None;
        }
        let session = req.session_key.as_deref().filter(|s| !s.is_empty())?;
        let decision = match v.action {
            Action::Deny => Some("deny"),
            Action::Escalate => Some("escalate"),
            Action::Allow | Action::Audit => None,
        }
        .map(|action| Decision {
            action,
            policy: v.policy_id.as_deref(),
            rule: v.rule_id.as_deref(),
            reason: &v.reason,
        });
        let call = Call {
            tool: req.tool_name.as_deref().unwrap_or(""),
            call_id: req.tool_call_id.as_deref(),
            decision,
        };
        let taint = v.taint.as_deref();
        let lowest = taint.and_then(Taint::lowest);
        let at = (req.run_id.as_deref(), Some(super::resolve_agent(req)), now);
        self.record_graph(core, session, at, |g, at| {
            g.tool_call(session, at, call, lowest)
        });
        let cfg = &core.config.provenance;
        let persist = v.is_block() && cfg.policies.iter().any(|p| p.persist_graph);
        if !persist && !cfg.policies.iter().any(|p| p.log_full_context) {
            return None;
        }
        let s = core.live.provenance.lock().ok()?;
        let iteration = s.runs.iteration(session);
        let holds = |want: fn(&provenance::config::ProvenancePolicy) -> bool| {
            provenance::wants(cfg, taint, iteration, want)
        };
        let current = s.graphs.current(session)?;
        let logged = holds(|p| p.log_full_context).then(|| serde_json::to_value(current).ok());
        // A refusal is written at once: a run whose end the host never reports (a process
        // that exits first) still leaves the graph that explains it; the turn's end rewrites it.
        let written = (persist && holds(|p| p.persist_graph)).then(|| current.clone());
        drop(s);
        if let Some(g) = written {
            self.persist_graph(core, &g);
        }
        logged.flatten()
    }

    /// Runs `change` on the graphs with the event's place (the sessions' taint, for the
    /// history of a turn the event opens); a turn it finishes is judged for persistence.
    fn record_graph(
        &self,
        core: &Core,
        session: &str,
        (run, agent, now): (Option<&str>, Option<&str>, i64),
        change: impl FnOnce(&mut provenance::Graphs, &At) -> bool,
    ) {
        let finished = core.live.provenance.lock().is_ok_and(|mut s| {
            let s = &mut *s;
            let at = At {
                run,
                agent,
                at_ms: now,
                taints: Some(&s.sessions),
            };
            change(&mut s.graphs, &at)
        });
        if finished {
            self.turn_finished(core, session);
        }
    }

    /// A finished turn is written to `provenance/graphs/` beside trust.json when a
    /// `persist_graph` policy held during it. Taint only grows within a session and the model
    /// calls only within a run, so a policy that held at any point of the turn holds at its end.
    fn turn_finished(&self, core: &Core, session: &str) {
        let cfg = &core.config.provenance;
        if !cfg.policies.iter().any(|p| p.persist_graph) {
            return;
        }
        let wanted = core.live.provenance.lock().ok().and_then(|s| {
            let g = s.graphs.last_finished(session)?;
            let taint = s.sessions.get(session);
            let iteration = g.summary.iteration_count;
            provenance::wants(cfg, taint, iteration, |p| p.persist_graph).then(|| g.clone())
        });
        if let Some(g) = wanted {
            self.persist_graph(core, &g);
        }
    }

    /// Once per finished run (and per refusal), on the hook that ended it: small, and an
    /// operator who asked for the graph must find it even if the process dies right after.
    fn persist_graph(&self, core: &Core, g: &TurnGraph) {
        let Some(dir) = graphs_dir(core) else { return };
        if let Err(e) = graph::persist(&dir, g) {
            self.log("error", format!("provenance graph not written: {e}"));
        }
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

/// `<governance>/provenance/graphs`, beside trust.json; None without a state directory.
fn graphs_dir(core: &Core) -> Option<std::path::PathBuf> {
    let governance = core.live.trust_file.as_deref()?.parent()?;
    Some(governance.join("provenance").join("graphs"))
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
