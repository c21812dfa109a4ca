//! The builtin guards, judged on what a tool call would do (`call::CallView`) rather than on
//! its text: credential files and environment dumps, production changes, destructive
//! deletion, code that was downloaded or decoded, governance's own state, and commands whose
//! effect cannot be known. Each guard returns at most one finding: the first thing it saw,
//! described for the verdict's reason.

pub mod argv;
mod credential;
mod destructive;
mod editors;
pub mod git;
mod host_admin;
pub mod inline;
mod opaque;
pub mod outbound;
mod outputs;
pub mod production;
mod projects;
pub mod remote_code;
mod self_protection;

use crate::call::{CallView, HostPaths};
use crate::paths::{PathContext, PathSet, Resolved};
use crate::shell::{Arg, Command};
use std::rc::Rc;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Guard {
    Credential,
    Production,
    Destructive,
    RemoteCode,
    SelfProtection,
    Opaque,
}

impl Guard {
    pub const ALL: [Guard; 6] = [
        Guard::SelfProtection,
        Guard::Credential,
        Guard::Destructive,
        Guard::RemoteCode,
        Guard::Production,
        Guard::Opaque,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Guard::Credential => "credential",
            Guard::Production => "production",
            Guard::Destructive => "destructive",
            Guard::RemoteCode => "remoteCode",
            Guard::SelfProtection => "selfProtection",
            Guard::Opaque => "opaque",
        }
    }

    pub fn parse(name: &str) -> Option<Guard> {
        Guard::ALL.into_iter().find(|g| g.name() == name)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub guard: Guard,
    /// What was seen, for the verdict's reason (`rm -rf /srv/data: outside the workspace`).
    pub reason: String,
}

/// What the guards compare against, prepared once per config.
#[derive(Debug)]
pub struct GuardEnv {
    pub host: HostPaths,
    /// The plugin's state dir: audit trail, keys, trust store.
    pub state_dir: Option<String>,
    /// The guards the config turns on, in the order they are judged.
    pub enabled: Vec<Guard>,
    credentials: PathSet,
    /// The operator's `provenance.sensitivePaths`: sensitive data for the rule of two.
    sensitive: Option<PathSet>,
}

impl GuardEnv {
    pub fn new(host: HostPaths, state_dir: Option<String>, enabled: Vec<Guard>) -> GuardEnv {
        let credentials = crate::paths::credential_files(host.home.as_deref());
        GuardEnv {
            host,
            state_dir,
            enabled,
            credentials,
            sensitive: None,
        }
    }

    /// With the operator's sensitive paths (globs checked when the config was read).
    pub fn with_sensitive(mut self, globs: &[String]) -> GuardEnv {
        let entries: Vec<(&str, &str)> = globs
            .iter()
            .map(|g| (g.as_str(), "sensitive path"))
            .collect();
        self.sensitive = (!entries.is_empty())
            .then(|| PathSet::new(&entries, &[], self.host.home.as_deref()).ok())
            .flatten();
        self
    }
}

/// One call as the guards see it: the view and the environment, with path helpers.
pub struct Subject<'a> {
    pub view: &'a CallView,
    pub env: &'a GuardEnv,
    /// Each word resolved once per call, whichever guards ask (by working directory, then
    /// text: looked up without copying either), and shared rather than copied.
    resolved: std::cell::RefCell<Resolutions>,
    /// The credential set's answer for each literal path, once per call: a long command names
    /// the same few paths thousands of times.
    credential_hits: std::cell::RefCell<rustc_hash::FxHashMap<String, Option<&'a str>>>,
    /// Each long command's distinct words, found once for every guard that judges words one
    /// by one (`distinct_positions`).
    distinct: std::cell::RefCell<rustc_hash::FxHashMap<usize, Rc<[bool]>>>,
}

type Resolutions =
    rustc_hash::FxHashMap<Option<String>, rustc_hash::FxHashMap<String, Rc<Resolved>>>;

impl<'a> Subject<'a> {
    pub fn ctx(&self) -> PathContext<'_> {
        self.view.path_context(self.env.host.home.as_deref())
    }

    /// An argument of `c` as the path the program would open, from where `c` runs.
    pub fn path_in(&self, c: &Command, a: &Arg) -> Rc<Resolved> {
        self.path_of(c, &a.text)
    }

    /// An argument of `c` as the path the program reaches through the symbolic links the
    /// session made (`paths::follow`); `last`: the program opens a link given as the operand
    /// itself, as a write does and `rm` does not. `None`: a link on the way leads somewhere
    /// only known when it was made.
    pub fn path_reached(&self, c: &Command, a: &Arg, last: bool) -> Option<Rc<Resolved>> {
        self.reached(c.cwd.as_deref(), &a.text, last)
            .unwrap_or_else(|| Some(self.path_in(c, a)))
    }

    /// A resolved path (a file tool's) the same way.
    pub fn resolved_reached(&self, p: &Resolved, last: bool) -> Option<Rc<Resolved>> {
        let literal = crate::paths::glob_escape(&p.path);
        let text = if p.pattern { &p.path } else { &literal };
        self.reached(None, text, last)
            .unwrap_or_else(|| Some(Rc::new(p.clone())))
    }

    /// `None` when no link is on the way (the lexical path holds).
    fn reached(&self, cwd: Option<&str>, text: &str, last: bool) -> Option<Option<Rc<Resolved>>> {
        if self.view.links.is_empty() {
            return None;
        }
        let ctx = PathContext {
            cwd: cwd.or(self.view.cwd.as_deref()),
            home: self.env.host.home.as_deref(),
        };
        match crate::paths::follow(text, &ctx, &self.view.links, last) {
            crate::paths::Reached::Lexical => None,
            crate::paths::Reached::Through(p) => Some(Some(Rc::new(p))),
            crate::paths::Reached::Unknown => Some(None),
        }
    }

    /// The same for a word's text (a part of it: the value of `--opt=value`).
    pub fn path_of(&self, c: &Command, text: &str) -> Rc<Resolved> {
        let known = (self.resolved.borrow().get(&c.cwd)).and_then(|m| m.get(text).cloned());
        if let Some(r) = known {
            return r;
        }
        let ctx = PathContext {
            cwd: c.cwd.as_deref().or(self.view.cwd.as_deref()),
            home: self.env.host.home.as_deref(),
        };
        let r = Rc::new(crate::paths::resolve(text, &ctx));
        let mut all = self.resolved.borrow_mut();
        // Room for an ordinary command's words from the start: growing costs more than them.
        // Eight words (fourteen before it grows) keep the table under 1 KB, which the
        // allocator serves from its fast path.
        let here = (all.entry(c.cwd.clone())).or_insert_with(|| {
            rustc_hash::FxHashMap::with_capacity_and_hasher(8, Default::default())
        });
        here.insert(text.to_string(), r.clone());
        r
    }

    /// `PathSet::hit` of `set` for a literal path (what `hit_dotglob` and a pattern judgement
    /// also answer for one), remembered for the call when `set` is the credential set (the
    /// rule of two asks the operator's sensitive set too, with the same code).
    /// Whether `set` is the default credential set (not the operator's sensitive one, which the
    /// rule of two judges with the same code): files judged by their content
    /// (`paths::keyed`) belong to the default set only.
    pub fn is_default_set(&self, set: &PathSet) -> bool {
        std::ptr::eq(set, &self.env.credentials)
    }

    pub fn credential_hit<'s>(&self, set: &'s PathSet, p: &Resolved) -> Option<&'s str>
    where
        'a: 's,
    {
        debug_assert!(!p.pattern);
        if !self.is_default_set(set) {
            return set.hit(p);
        }
        if let Some(&label) = self.credential_hits.borrow().get(&p.path) {
            return label;
        }
        let label = self.env.credentials.hit(p);
        let mut hits = self.credential_hits.borrow_mut();
        hits.insert(p.path.clone(), label);
        label
    }

    /// The words after the program, each once: a word judged alone is judged the same
    /// wherever it stands, and an 80 KB command repeats a few words thousands of times.
    pub fn distinct_args<'c>(&self, c: &'c Command) -> impl Iterator<Item = &'c Arg> + use<'c> {
        let words = argv::args(c);
        // A short command is compared in place: a set and a kept copy cost more than the few
        // comparisons (most guards' calls are of a handful of words).
        let positions = (words.len() > argv::SHORT).then(|| self.distinct_positions(c));
        (0..words.len()).filter_map(move |i| match &positions {
            None => (!words[..i].iter().any(|w| argv::same_word(w, &words[i]))).then(|| &words[i]),
            // A word the kept answer does not cover is judged: never skipped on a doubt.
            Some(firsts) => (firsts.get(i) != Some(&false)).then(|| &words[i]),
        })
    }

    /// For each word after the program, whether it is the first of its kind; once per call.
    /// Keyed by the command's address: commands live in the view, which outlives this, so an
    /// address names one command for the whole call.
    fn distinct_positions(&self, c: &Command) -> Rc<[bool]> {
        let key = std::ptr::from_ref(c) as usize;
        if let Some(known) = self.distinct.borrow().get(&key) {
            return known.clone();
        }
        let firsts: Rc<[bool]> = argv::first_occurrences(c).collect();
        self.distinct.borrow_mut().insert(key, firsts.clone());
        firsts
    }

    pub fn commands(&self) -> impl Iterator<Item = (&crate::shell::Script, usize, &Command)> {
        self.view
            .scripts
            .iter()
            .flat_map(|s| s.commands.iter().enumerate().map(move |(i, c)| (s, i, c)))
    }

    /// Inside the agent's workspace (or the call's working directory when no workspace is
    /// known), and not the workspace itself.
    pub fn inside_workspace(&self, p: &Resolved) -> bool {
        let Some(root) = self.view.workspace.as_deref().or(self.view.cwd.as_deref()) else {
            // Nothing known: a relative path that does not climb stays where the agent is.
            return !p.path.starts_with('/')
                && !p.path.starts_with('~')
                && !p.path.starts_with("..");
        };
        let root = root.trim_end_matches('/');
        p.path.len() > root.len() + 1
            && p.path.starts_with(root)
            && p.path.as_bytes()[root.len()] == b'/'
    }
}

impl<'a> Subject<'a> {
    fn new(view: &'a CallView, env: &'a GuardEnv) -> Subject<'a> {
        Subject {
            view,
            env,
            resolved: Default::default(),
            credential_hits: Default::default(),
            distinct: Default::default(),
        }
    }
}

/// The finding of each enabled guard on one call, in `Guard::ALL` order.
pub fn check(view: &CallView, env: &GuardEnv, enabled: &[Guard]) -> Vec<Finding> {
    let s = Subject::new(view, env);
    enabled
        .iter()
        .filter_map(|&g| {
            let reason = match g {
                Guard::Credential => credential::check(&s, &env.credentials),
                Guard::Production => production::check(&s),
                Guard::Destructive => destructive::check(&s),
                Guard::RemoteCode => remote_code::check(&s),
                Guard::SelfProtection => self_protection::check(&s),
                Guard::Opaque => opaque::check(&s),
            }?;
            Some(Finding { guard: g, reason })
        })
        .collect()
}

/// A command shown in a reason: its argv, shortened.
pub fn show(cmd: &Command) -> String {
    // A container's command has the host's paths (`call::containers`): say where it runs.
    let inside = cmd.wrappers.first().is_some_and(|w| w == "container");
    let mut s = cmd
        .argv
        .iter()
        .map(|a| a.text.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    if s.chars().count() > 80 {
        s = s.chars().take(77).collect::<String>() + "…";
    }
    if inside {
        s.insert_str(0, "(in a container) ");
    }
    s
}

/// One evaluation's view of the call and the guards' findings, each worked out on first use:
/// a call no guard or `command` condition asks about is never parsed.
pub struct CallFacts<'a> {
    req: &'a crate::context::Request,
    agent_id: &'a str,
    env: &'a GuardEnv,
    view: once_cell::unsync::OnceCell<CallView>,
    findings: once_cell::unsync::OnceCell<Vec<Finding>>,
    /// What the session's earlier calls wrote or typed (`crate::written`, `crate::typed`).
    earlier: crate::call::Earlier,
}

impl<'a> CallFacts<'a> {
    pub fn new(req: &'a crate::context::Request, agent_id: &'a str, env: &'a GuardEnv) -> Self {
        CallFacts {
            req,
            agent_id,
            env,
            view: Default::default(),
            findings: Default::default(),
            earlier: Default::default(),
        }
    }

    /// With what the session's earlier calls wrote or typed, which this call may run.
    pub fn with_earlier(mut self, earlier: crate::call::Earlier) -> Self {
        self.earlier = earlier;
        self
    }

    /// What the session's earlier calls left that this call may use.
    pub fn earlier(&self) -> &crate::call::Earlier {
        &self.earlier
    }

    pub fn view(&self) -> &CallView {
        self.view.get_or_init(|| {
            crate::call::view(self.req, self.agent_id, &self.env.host, &self.earlier)
        })
    }

    pub fn finding(&self, guard: Guard) -> Option<&Finding> {
        let all = self
            .findings
            .get_or_init(|| check(self.view(), self.env, &self.env.enabled));
        all.iter().find(|f| f.guard == guard)
    }

    /// The rule of two's second leg: the call opens a credential file, prints secrets or dumps
    /// the environment (what the credential guard finds, whether it is on or not), or names
    /// one of the operator's sensitive paths.
    pub fn sensitive(&self) -> Option<String> {
        let s = Subject::new(self.view(), self.env);
        let extra = || credential::check(&s, self.env.sensitive.as_ref()?);
        credential::check(&s, &self.env.credentials).or_else(extra)
    }

    /// The rule of two's third leg: the call sends a message or reaches the network.
    pub fn outbound(&self) -> Option<String> {
        outbound::check(self.req, self.view())
    }

    pub fn home(&self) -> Option<&str> {
        self.env.host.home.as_deref()
    }

    /// The names of the files the call's downloads save (`remote_code::downloaded_names`).
    pub fn downloaded(&self) -> Vec<String> {
        remote_code::downloaded_names(&Subject::new(self.view(), self.env))
    }
}

/// Whether a variable's name says it holds a secret (`DB_PASSWORD`, `GITHUB_TOKEN`): what
/// prints one from the environment prints a secret.
pub fn secret_variable(name: &str) -> bool {
    credential::secret_name(name)
}

/// A word that is only flags (`-la`, `--short`): no path to judge. One with a value attached
/// (`--env-file=.env`, `-f.env`) is still judged.
pub fn only_flags(a: &Arg) -> bool {
    a.text.starts_with('-')
        && a.text[1..]
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::Arg;

    fn command(words: &[&str]) -> Command {
        Command {
            argv: words.iter().map(|w| Arg::literal(w)).collect(),
            ..Command::default()
        }
    }

    /// Short commands are compared in place, long ones through a kept set: both give each
    /// word once, at its first place, and tell a pattern from the same text written literally.
    #[test]
    fn distinct_args_are_the_same_short_or_long() {
        let env = GuardEnv::new(HostPaths::default(), None, Vec::new());
        let view = CallView::default();
        let s = Subject::new(&view, &env);
        let texts =
            |c: &Command| -> Vec<String> { s.distinct_args(c).map(|a| a.text.clone()).collect() };
        let short = command(&["cat", "a", "b", "a", "c", "b"]);
        assert_eq!(texts(&short), ["a", "b", "c"]);
        let mut words = vec!["cat"];
        words.extend(std::iter::repeat_n(["a", "b", "a", "c", "b"], 8).flatten());
        let long = command(&words);
        assert!(long.argv.len() > argv::SHORT + 1);
        assert_eq!(texts(&long), ["a", "b", "c"]);
        // Asked again, the kept answer is the same.
        assert_eq!(texts(&long), ["a", "b", "c"]);
        let mut glob = command(&["cat", "*.env", "*.env"]);
        glob.argv[2].pattern = true;
        assert_eq!(s.distinct_args(&glob).count(), 2);
    }
}
