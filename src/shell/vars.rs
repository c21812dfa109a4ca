//! The variables a script can see: the exec `env` param, its own assignments, and the unknown
//! rest of the host environment (anything not named here may be set there, so it is unknown,
//! never empty).

use rustc_hash::FxHashMap;

/// The longest value a variable keeps (bytes); longer ones are unknown.
const MAX_VALUE: usize = 64 * 1024;

/// What a variable holds as far as the script text tells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Val {
    Set(String),
    /// `unset X`: known to be absent.
    Unset,
    /// Assigned something we cannot know (`read X`, `X=$(…)`, a `for` variable), or never
    /// mentioned (the host environment may define it).
    Unknown,
}

#[derive(Debug, Clone)]
struct Var {
    val: Val,
    /// Passed to child processes (`bash -c`, `env`): set by `export`, or inherited.
    exported: bool,
    /// `declare -i`: every assignment evaluates its value as arithmetic.
    integer: bool,
}

/// bash resets IFS at startup (it is never imported), so its default is known.
pub(super) const DEFAULT_IFS: &str = " \t\n";

/// `IFS` is in `map` only once the script or the env param gives it a value: until then it has
/// bash's startup value (`get`, `assigned`), and a script that sets no variable has an empty
/// map, which costs nothing to build or ask.
#[derive(Debug, Clone, Default)]
pub(super) struct Vars {
    map: FxHashMap<String, Var>,
    /// Some `LD_*` variable was given a value: the dynamic loader's settings need a look.
    loader: bool,
    /// Some variable a program runs as a command (`GIT_SSH_COMMAND`, `PAGER`) was given a
    /// value: `command_hooks` needs a look.
    hooks: bool,
}

impl Vars {
    pub(super) fn from_env(env: &[(String, String)]) -> Vars {
        let mut vars = Vars::default();
        for (name, value) in env {
            vars.set(name, Val::Set(value.clone()), true);
        }
        // bash never imports IFS: back to its startup value.
        if env.iter().any(|(n, _)| n == "IFS") {
            vars.map.remove("IFS");
        }
        vars
    }

    pub(super) fn get(&self, name: &str) -> Val {
        match self.map.get(name) {
            Some(v) => v.val.clone(),
            None if name == "IFS" => Val::Set(DEFAULT_IFS.to_owned()),
            None => Val::Unknown,
        }
    }

    /// Assigns; a variable that was exported stays exported (bash keeps the attribute).
    pub(super) fn set(&mut self, name: &str, val: Val, export: bool) {
        // `a=$a$a` doubles a value per statement: past the bound it is unknown, or thirty
        // lines would take the engine's memory and time.
        let val = match val {
            Val::Set(v) if v.len() > MAX_VALUE => Val::Unknown,
            v => v,
        };
        self.loader |= name.starts_with("LD_");
        self.hooks |= super::setup::HOOK_VARS.contains(&name);
        let old = self.map.get(name);
        let exported = export || old.is_some_and(|v| v.exported);
        let integer = old.is_some_and(|v| v.integer);
        self.map.insert(
            name.to_owned(),
            Var {
                val,
                exported,
                integer,
            },
        );
    }

    /// `declare -i NAME`: later assignments to NAME are evaluated as arithmetic.
    pub(super) fn set_integer(&mut self, name: &str) {
        match self.map.get_mut(name) {
            Some(v) => v.integer = true,
            None => {
                self.set(name, self.get(name), false);
                if let Some(v) = self.map.get_mut(name) {
                    v.integer = true;
                }
            }
        }
    }

    /// Whether NAME has the integer attribute.
    pub(super) fn integer(&self, name: &str) -> bool {
        self.map.get(name).is_some_and(|v| v.integer)
    }

    /// Whether an `LD_*` variable was ever given a value.
    pub(super) fn loader_set(&self) -> bool {
        self.loader
    }

    /// Whether a command-hook variable was ever given a value.
    pub(super) fn hooks_set(&self) -> bool {
        self.hooks
    }

    /// Whether the script or the exec env gave `name` a value (even an unknown one).
    pub(super) fn assigned(&self, name: &str) -> bool {
        match self.map.get(name) {
            Some(v) => !matches!(v.val, Val::Unset),
            None => name == "IFS",
        }
    }

    pub(super) fn export(&mut self, name: &str) {
        match self.map.get_mut(name) {
            Some(v) => v.exported = true,
            None => self.set(name, self.get(name), true),
        }
    }

    pub(super) fn ifs(&self) -> String {
        match self.get("IFS") {
            Val::Set(v) => v,
            Val::Unset | Val::Unknown => DEFAULT_IFS.to_owned(),
        }
    }

    /// What a child process (`bash -c`, a script run by `env`) sees: the exported variables.
    /// A variable assigned but not exported may still reach the child when the host
    /// environment had it (assignment then updates the exported copy), so it becomes unknown
    /// rather than disappearing.
    pub(super) fn for_child(&self) -> Vars {
        let mut child = Vars::default();
        for (name, var) in &self.map {
            let val = if var.exported {
                var.val.clone()
            } else {
                Val::Unknown
            };
            child.set(name, val, true);
        }
        // Each shell starts with its own IFS.
        child.map.remove("IFS");
        child
    }

    /// `$1`, `$2`… as words, while they are set (unknown ones stand as unresolved).
    pub(super) fn positional(&self) -> Vec<super::Arg> {
        let mut out = Vec::new();
        for i in 1.. {
            match self.map.get(&i.to_string()).map(|v| &v.val) {
                Some(Val::Set(t)) => out.push(super::Arg::literal(t)),
                Some(Val::Unknown) => out.push(super::Arg {
                    text: "*".into(),
                    pattern: true,
                    unresolved: true,
                }),
                _ => break,
            }
        }
        out
    }

    /// Positional parameters of a `bash -c STRING NAME ARGS…`: `$0` is NAME.
    pub(super) fn set_positional(&mut self, args: &[(String, bool)]) {
        for (i, (text, unresolved)) in args.iter().enumerate() {
            let val = if *unresolved {
                Val::Unknown
            } else {
                Val::Set(text.clone())
            };
            self.set(&i.to_string(), val, false);
        }
    }
}
