//! The engine's side of `crate::written` and `crate::typed`: which of the session's files a
//! command call may run and what it typed before, and what a call that was not denied writes
//! or leaves typed.

use super::Core;
use crate::call::Earlier;
use crate::context::Request;
use crate::policy::model::Action;
use crate::typed::ShellState;
use crate::verdict::Verdict;
use crate::written::Change;
use serde_json::Value;

/// Tools whose params are shell input.
const SHELL_TOOLS: [&str; 5] = ["exec", "bash", "shell", "process", "terminal"];

/// Tools that write files (`call::startup::written`).
const FILE_TOOLS: [&str; 4] = ["write", "edit", "multiedit", "apply_patch"];

/// The session's files a shell call mentions by name, and the line typed into its
/// background shell so far (nothing for other tools).
pub(super) fn earlier(core: &Core, session: &str, req: &Request) -> Earlier {
    let tool = req.tool_name.as_deref().unwrap_or("");
    // Any tool's path may run through a link an earlier call made.
    let links = core.live.links.of(session);
    // A patch that moves a file the session wrote (`*** Move to:`) carries that file's text;
    // a file tool writing a project file may name a file the session wrote before, which the
    // project's tool will then run (`yarnPath: .yarn/releases/yarn.cjs`).
    let reads = SHELL_TOOLS.contains(&tool) || FILE_TOOLS.contains(&tool);
    let Some(p) = req.params.as_ref().filter(|_| reads) else {
        return Earlier {
            links,
            ..Earlier::default()
        };
    };
    let shell = match shell_of(req) {
        Some(shell) => core.live.typed.state(session, shell),
        None => ShellState::default(),
    };
    let mut said = Vec::new();
    for v in p.values() {
        match v {
            Value::String(s) => said.push(s.as_str()),
            Value::Array(items) => said.extend(items.iter().filter_map(Value::as_str)),
            _ => {}
        }
    }
    // A build or test tool may run any program the session wrote, named or not.
    let builds =
        || SHELL_TOOLS.contains(&tool) && crate::call::startup::build::mentions_tool(&said);
    let (files, programs) = core.live.written.mentioned_and_all(session, &said, builds);
    Earlier {
        files,
        shell,
        links,
        programs,
    }
}

/// The background shell a `process` call types into.
fn shell_of(req: &Request) -> Option<&str> {
    let tool = req.tool_name.as_deref()?;
    let p = req
        .params
        .as_ref()
        .filter(|_| matches!(tool, "process" | "terminal"))?;
    p.get("sessionId").and_then(Value::as_str)
}

/// The state a `process` call leaves its shell in: what is typed and not yet ended on its
/// line, the lines that set it up for later ones, the last line it ran.
pub(super) fn typed_rest(req: &Request, before: &ShellState) -> Option<(String, ShellState)> {
    let shell = shell_of(req)?;
    let p = req.params.as_ref()?;
    let input = crate::call::process_input(p);
    let line = crate::call::recalled(&format!("{}{input}", before.unfinished), &before.last);
    let rest = crate::typed::unfinished_part(&line);
    let done = &line[..line.len() - rest.len()];
    let last = done.lines().rev().find(|l| !l.trim().is_empty());
    Some((
        shell.to_string(),
        ShellState {
            unfinished: rest.to_string(),
            lasting: before.lasting.clone() + &crate::call::lasting(done),
            last: last.map_or_else(|| before.last.clone(), str::to_string),
        },
    ))
}

/// What a call writes into files, by file name.
pub(super) fn changes(req: &Request, call: &crate::guards::CallFacts) -> Vec<(String, Change)> {
    let tool = req.tool_name.as_deref().unwrap_or("");
    if SHELL_TOOLS.contains(&tool) {
        let printed = (call.view().scripts.iter())
            .flat_map(|s| s.written.iter().cloned())
            .map(|(name, text)| (name, Change::Whole(text)));
        // A download's text is only known when it runs.
        let fetched = (call.downloaded().into_iter()).map(|name| (name, Change::Whole(None)));
        return printed.chain(fetched).collect();
    }
    let Some(p) = req.params.as_ref() else {
        return Vec::new();
    };
    if matches!(tool, "edit" | "multiedit") {
        let path = ["path", "file_path", "filePath", "file"]
            .iter()
            .find_map(|k| p.get(*k).and_then(Value::as_str));
        return path
            .map(|f| {
                (
                    f.to_string(),
                    Change::Edit(crate::call::startup::replacements(p)),
                )
            })
            .into_iter()
            .collect();
    }
    let earlier = &call.earlier().files;
    // A moved file's text is whole: the name it leaves holds nothing the new one adds to.
    let input = p.get("input").and_then(Value::as_str).unwrap_or("");
    let moved: Vec<String> = match tool {
        "apply_patch" => (crate::call::patch::moved(input, earlier).into_iter())
            .map(|(to, _)| to)
            .collect(),
        _ => Vec::new(),
    };
    // An updated file holds its text with the hunks applied; an added one is new, whole.
    let (updated, added) = match tool {
        "apply_patch" => (
            crate::call::patch::updated(input),
            crate::call::patch::added(input),
        ),
        _ => (Vec::new(), Vec::new()),
    };
    (crate::call::startup::written(tool, p, earlier).into_iter())
        .map(|(path, text)| match tool {
            "write" => (path, Change::Whole(Some(text))),
            _ if moved.contains(&path) || added.contains(&path) => {
                (path, Change::Whole(Some(text)))
            }
            _ => match updated.iter().find(|(f, _)| *f == path) {
                Some((_, pairs)) => (path, Change::Edit(pairs.clone())),
                None => (path, Change::Added(text)),
            },
        })
        .collect()
}

/// What a call's commands do to symbolic links (only shell input makes them).
pub(super) fn link_changes(
    req: &Request,
    call: &crate::guards::CallFacts,
) -> Vec<crate::links::LinkChange> {
    let tool = req.tool_name.as_deref().unwrap_or("");
    match SHELL_TOOLS.contains(&tool) {
        true => call.view().link_changes.clone(),
        false => Vec::new(),
    }
}

/// Notes what the call wrote or left typed, unless it was denied (then nothing was).
pub(super) fn remember(core: &Core, session: &str, v: &mut Verdict) {
    let writes = std::mem::take(&mut v.writes);
    let typed = v.typed.take();
    let links = std::mem::take(&mut v.links);
    if v.action != Action::Deny {
        core.live.written.record(session, writes);
        core.live.links.record(session, links);
        if let Some((shell, state)) = typed {
            core.live.typed.record(session, &shell, state);
        }
    }
}
