//! Code the shell runs from its own state rather than from a command line: `PROMPT_COMMAND`
//! (run before every prompt of an interactive shell), the prompt strings `PS0`–`PS4` (expanded
//! before a command, at a prompt, or before each traced command under `set -x`, so a `$(…)`
//! inside them runs), and `BASH_FUNC_<name>%%` in the environment (a child bash imports it as
//! the function `<name>`, which then runs in place of the program of that name). Names made to
//! run something else (`hash -p /bin/rm ls`) and builtins loaded from a shared object
//! (`enable -f x.so name`) belong here too, and so does `${x@P}`, which expands x's value as a
//! prompt string, running the `$(…)` in it.
//!
//! A value is judged when it is set, whichever route sets it (an assignment, `export`, a
//! command's prefix, `env`, the exec tool's `env` param): whether and when a shell later runs
//! it is not knowable here, and nobody needs a prompt that deletes files.

use brush_parser::word::Parameter;

use super::vars::Val;
use super::walk::{Exec, Walker};
use super::{Arg, OpaqueKind, MAX_DEPTH};

/// The script a shell variable makes the shell run, if it is one of those above.
fn code_of(name: &str, value: &str) -> Option<String> {
    match name {
        "PROMPT_COMMAND" => Some(value.to_owned()),
        // Only what the shell expands runs: `$(…)` and backquotes inside the prompt, and a
        // `${…}` whose subscript or operator may evaluate code (`${a[i]}`, `${x@P}`).
        "PS0" | "PS1" | "PS2" | "PS3" | "PS4"
            if value.contains("$(") || value.contains('`') || value.contains("${") =>
        {
            Some(format!(": \"{}\"", value.replace('"', "\\\"")))
        }
        _ => imported_function(name, value),
    }
}

/// `BASH_FUNC_ls%%='() { rm -rf ~; }'`: the body of the function bash will define.
fn imported_function(name: &str, value: &str) -> Option<String> {
    let rest = name.strip_prefix("BASH_FUNC_")?;
    if !(rest.ends_with("%%") || rest.ends_with("()")) {
        return None;
    }
    let body = value.trim_start().strip_prefix("()").unwrap_or(value);
    Some(body.to_owned())
}

/// Whether `name` is a variable a shell may run (whatever its value).
fn runs_as_code(name: &str) -> bool {
    code_of(name, "$(").is_some()
}

impl Walker {
    /// Judges every variable in `set` that the shell runs as code, as a script of its own
    /// labelled with the variable; one only known when it runs is opaque.
    pub(super) fn shell_hooks(&mut self, set: &[(String, Val)], cx: &Exec) {
        // A non-empty GLOBIGNORE turns dotglob on: `*` then matches `.env`.
        if set
            .iter()
            .any(|(n, v)| n == "GLOBIGNORE" && *v != Val::Set(String::new()) && *v != Val::Unset)
        {
            self.note_dotglob();
        }
        for (name, val) in set.iter().filter(|(n, _)| runs_as_code(n)) {
            let text = match val {
                Val::Set(v) => code_of(name, v),
                Val::Unset => None,
                Val::Unknown => {
                    let what = format!("{name}=… (the shell runs it)");
                    self.opaque(OpaqueKind::DynamicScript, &what);
                    None
                }
            };
            let Some(text) = text else { continue };
            if cx.depth + 1 > MAX_DEPTH {
                self.too_deep(&text);
                continue;
            }
            let mut inner = Exec::new(cx.depth, cx.src.clone());
            inner.wrappers = cx.wrappers.clone();
            inner.wrappers.push(name.clone());
            self.in_prefix(&inner, |w| w.script(&text, cx.depth + 1, &[]));
        }
    }

    /// `${x@P}`: x's value expanded as a prompt string (backslash escapes decoded, then
    /// parameters and substitutions expanded as in double quotes). A value the script set is
    /// followed one level down; one assigned something only known when it runs is opaque. A
    /// variable the script never set is the host's own (`${PS1@P}` shows the prompt).
    pub(super) fn prompt_expand(
        &mut self,
        parameter: &Parameter,
        indirect: bool,
        depth: u32,
        inputs: &mut Vec<usize>,
    ) -> Option<String> {
        let host = matches!(parameter, Parameter::Named(n) if !self.vars.assigned(n));
        let value = if indirect {
            Val::Unknown
        } else {
            self.lookup(parameter)
        };
        let text = match value {
            Val::Set(v) => v,
            Val::Unset => return Some(String::new()),
            Val::Unknown if host && !indirect => return None,
            Val::Unknown => {
                let what = format!("{parameter}@P of a value only known when it runs");
                self.opaque(OpaqueKind::DynamicScript, &what);
                return None;
            }
        };
        if !text.contains(['$', '`']) {
            return (!text.contains('\\')).then_some(text);
        }
        // One level down per expansion, so a value that names itself stops at the bound.
        if depth + 1 > MAX_DEPTH {
            self.too_deep(&text);
            return None;
        }
        let out = self.heredoc(&text, depth + 1, inputs);
        (!out.unresolved && !out.text.contains('\\')).then_some(out.text)
    }

    /// The exec tool's `env` param, judged as any other route that sets these variables.
    pub(super) fn env_hooks(&mut self, env: &[(String, String)], depth: u32) {
        if env.is_empty() {
            return;
        }
        let set: Vec<(String, Val)> = (env.iter())
            .filter(|(n, _)| runs_as_code(n))
            .map(|(n, v)| (n.clone(), Val::Set(v.clone())))
            .collect();
        self.shell_hooks(&set, &Exec::new(depth, "the exec env param".to_owned()));
    }

    /// `hash -p PATH NAME…` makes each NAME run PATH: kept as an alias, which later commands
    /// named NAME follow. `enable -f FILE NAME…` loads builtins from a shared object whose code
    /// is only known when it runs.
    pub(super) fn rebinds(&mut self, name: &str, args: &[Arg], cx: &Exec) {
        match name {
            "hash" => {
                let Some(at) = args.iter().position(|a| a.text == "-p") else {
                    return;
                };
                let Some(path) = args.get(at + 1) else { return };
                if path.unresolved {
                    let what = format!(
                        "a name bound to a program only known when it runs: {}",
                        cx.src
                    );
                    self.opaque(OpaqueKind::DynamicCommand, &what);
                    return;
                }
                let target = path.text.replace('\'', "'\\''");
                for n in args[at + 2..].iter().filter(|a| !a.text.starts_with('-')) {
                    self.aliases.retain(|(k, _)| *k != n.text);
                    self.aliases.push((n.text.clone(), format!("'{target}'")));
                }
            }
            "bind" => self.key_bindings(args, cx),
            "enable" if args.iter().any(|a| a.text.starts_with("-f")) => {
                let what = format!("a builtin loaded from a shared object: {}", cx.src);
                self.opaque(OpaqueKind::DynamicCommand, &what);
            }
            _ => {}
        }
    }
}

impl Walker {
    /// `bind -x '"zz": CMD'` runs CMD when the keys are typed; `bind '"qq": "text\n"'` types
    /// the text (and submits it at a line end). Both are judged when bound, as a script of their
    /// own: which keys an agent types later is not knowable here. `bind -f FILE` reads bindings
    /// from a file, which is only known when it runs.
    fn key_bindings(&mut self, args: &[Arg], cx: &Exec) {
        let command = args.iter().any(|a| a.text == "-x");
        if args
            .iter()
            .any(|a| a.text == "-f" || a.text.starts_with("-f"))
        {
            let what = format!("key bindings read from a file: {}", cx.src);
            self.opaque(OpaqueKind::DynamicScript, &what);
        }
        for a in args.iter().filter(|a| a.text.contains(':')) {
            let Some(text) = bound(&a.text, command) else {
                continue;
            };
            if a.unresolved {
                let what = format!("a key bound to a value only known when it runs: {}", cx.src);
                self.opaque(OpaqueKind::DynamicScript, &what);
                continue;
            }
            if cx.depth + 1 > MAX_DEPTH {
                self.too_deep(&text);
                continue;
            }
            let mut inner = Exec::new(cx.depth, cx.src.clone());
            inner.wrappers = cx.wrappers.clone();
            inner.wrappers.push("bind".to_owned());
            self.in_prefix(&inner, |w| w.script(&text, cx.depth + 1, &[]));
        }
    }
}

/// What a `KEYSEQ: VALUE` binding runs or types: the shell command of `bind -x`, or the text of
/// a macro (`"…"`, readline's escapes undone); a readline function name runs nothing.
fn bound(binding: &str, command: bool) -> Option<String> {
    let value = match binding.strip_prefix('"') {
        // The key sequence is quoted and may hold `:` itself (`"\C-x:"`).
        Some(rest) => rest.split_once("\":")?.1,
        None => binding.split_once(':')?.1,
    }
    .trim();
    let quoted = value.len() >= 2 && value.starts_with('"') && value.ends_with('"');
    let inner = if quoted {
        &value[1..value.len() - 1]
    } else {
        value
    };
    match (command, quoted) {
        (true, _) => Some(inner.to_owned()),
        (false, true) => Some(macro_text(inner)),
        (false, false) => None,
    }
}

/// A readline macro as the keys it types: `\n`, `\r`, `\C-m`, `\C-j` end a line.
fn macro_text(m: &str) -> String {
    let mut out = m.to_owned();
    for (esc, typed) in [
        ("\\C-m", "\n"),
        ("\\C-j", "\n"),
        ("\\n", "\n"),
        ("\\r", "\n"),
    ] {
        out = out.replace(esc, typed);
    }
    out.replace("\\\"", "\"").replace("\\\\", "\\")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prompt_strings_run_only_what_they_substitute() {
        assert_eq!(code_of("PS1", "\\w $ "), None);
        assert_eq!(
            code_of("PS1", "$(rm -rf ~) \"x\"").as_deref(),
            Some(": \"$(rm -rf ~) \\\"x\\\"\"")
        );
        assert_eq!(
            code_of("PROMPT_COMMAND", "history -a").as_deref(),
            Some("history -a")
        );
        assert_eq!(code_of("PATH", "$(x)"), None);
    }

    #[test]
    fn key_bindings_run_their_command_or_type_their_macro() {
        assert_eq!(
            bound("\"zz\": rm -rf ~/docs", true).as_deref(),
            Some("rm -rf ~/docs")
        );
        assert_eq!(
            bound("\"qq\": \"rm -rf ~/docs\\n\"", false).as_deref(),
            Some("rm -rf ~/docs\n")
        );
        assert_eq!(bound("\"\\C-a\": beginning-of-line", false), None);
        assert_eq!(bound("\"\\C-x:\": \"ls\"", false).as_deref(), Some("ls"));
    }

    #[test]
    fn exported_functions_are_their_body() {
        let body = code_of("BASH_FUNC_ls%%", "() { rm -rf ~/docs; }");
        assert_eq!(body.as_deref(), Some(" { rm -rf ~/docs; }"));
        assert_eq!(code_of("BASH_FUNC_ls", "() { x; }"), None);
        assert!(runs_as_code("BASH_FUNC_git()"));
    }
}
