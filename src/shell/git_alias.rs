//! git's aliases (git-config(1) `alias.*`): `git t ARGS` runs what `alias.t` says. A value
//! starting with `!` is a shell command, which git runs as `sh -c '<value> "$@"' '<value>'
//! ARGS` (run-command.c `prepare_shell_cmd`): `git -c alias.t='!bird' t tweet "…"` posts. Any
//! other value is git's own words put where the alias stood (`alias.p = push` makes `git p
//! origin main` a push), and may name another alias.
//!
//! Aliases come from `-c alias.X=V`, from `git config [--global] alias.X V` earlier in the
//! script, and from a `.git/config` or `~/.gitconfig` the session wrote. A `git config` that
//! sets one is kept as the config file it writes (`Script::written`), so the session's later
//! calls see the alias as git will. An alias never hides one of git's own commands (git runs
//! the command), and a value only known when git runs makes the command opaque.

use super::walk::{Exec, Walker};
use super::{Arg, OpaqueKind, MAX_DEPTH};
use crate::guards::git::config::file_entries;
use crate::guards::git::{invocation, sub_index};

/// git config files as the session's written files name them (by base name), in the order git
/// lets them override each other: the repository's `.git/config` (also
/// `~/.config/git/config`), the user's `~/.gitconfig`, the system's `/etc/gitconfig`.
pub(super) const CONFIG_FILES: [&str; 3] = ["config", ".gitconfig", "gitconfig"];

/// Aliases naming aliases followed at most (git stops at a loop; a chain this long is none
/// anyone writes).
const MAX_CHAIN: usize = 8;

/// What an alias makes git run.
enum Alias {
    /// `!…`: a shell command, the alias's arguments appended.
    Shell(String),
    /// git's own words in the alias's place.
    Git(Vec<String>),
    /// Only known when git runs (a computed value, a config file of unknown text).
    Unknown,
}

impl Walker {
    /// `git …` whose subcommand is an alias: the git command, then what the alias runs. `None`
    /// when no alias applies (git runs as written). A `git config` that sets an alias is noted
    /// first.
    pub(super) fn git(&mut self, args: &[Arg], cx: &Exec) -> Option<Vec<usize>> {
        self.note_git_config(args);
        // Most git lines run a builtin (`git status`): nothing to unfold, nothing copied.
        let first = sub_index(&args[1..]).map(|sub| &args[1 + sub]);
        if first.is_none_or(|w| w.unresolved || builtin(&w.text)) {
            return None;
        }
        let mut argv = args.to_vec();
        let mut seen: Vec<String> = Vec::new();
        let mut cx = cx.clone();
        while seen.len() < MAX_CHAIN {
            let a = &argv[1..];
            let inv = invocation(a);
            let Some(sub) = inv.sub else { break };
            let word = &a[sub];
            let name = word.text.to_ascii_lowercase();
            if word.unresolved || builtin(&word.text) || seen.contains(&name) {
                break;
            }
            let values = (inv.globals.iter())
                .filter(|g| matches!(g.name, "-c" | "--config-env"))
                .map(|g| (g.name, g.value.unwrap_or(""), g.unresolved));
            let given = given_alias(values, &name);
            let Some(alias) = given.or_else(|| self.stored_alias(&name)) else {
                break;
            };
            match alias {
                Alias::Unknown => {
                    self.opaque(OpaqueKind::DynamicScript, &cx.src);
                    return Some(vec![self.emit(argv, cx)]);
                }
                Alias::Shell(text) => {
                    let rest = a[sub + 1..].iter().map(|x| (x.text.clone(), x.unresolved));
                    let positional = std::iter::once((text.clone(), false)).chain(rest).collect();
                    return Some(self.shell_alias(&name, argv, &text, positional, cx));
                }
                Alias::Git(words) => {
                    let mut next: Vec<Arg> = argv[..=sub].to_vec();
                    next.extend(words.iter().map(|w| Arg::literal(w)));
                    next.extend(argv[sub + 2..].iter().cloned());
                    cx.wrappers.push(format!("git alias {name}"));
                    argv = next;
                    seen.push(name);
                }
            }
        }
        (!seen.is_empty()).then(|| vec![self.emit(argv, cx)])
    }

    /// git itself, then `sh -c '<text> "$@"' '<text>' ARGS` one level down.
    fn shell_alias(
        &mut self,
        name: &str,
        argv: Vec<Arg>,
        text: &str,
        positional: Vec<(String, bool)>,
        cx: Exec,
    ) -> Vec<usize> {
        let mut out = vec![self.emit(argv.clone(), cx.clone())];
        if cx.depth + 1 > MAX_DEPTH {
            self.too_deep(text);
            return out;
        }
        let words = super::nest::positional_words(positional.len().saturating_sub(1));
        let script = Arg::literal(&format!("{text}{words}"));
        let label = format!("git alias {name}");
        out.extend(self.nested_shell(&label, &argv, script, positional, cx));
        out
    }

    /// The alias `name` as the config files the script or session wrote define it: the
    /// repository's first, then the user's and the system's; the last definition in a file
    /// wins, as in git.
    fn stored_alias(&self, name: &str) -> Option<Alias> {
        for file in CONFIG_FILES {
            let text = match self.written_text(file) {
                Some(Some(text)) => text,
                Some(None) => return Some(Alias::Unknown),
                None => continue,
            };
            let entries = file_entries(&text);
            let found = (entries.iter().rev()).find(|(k, _)| alias_key(k) == Some(name));
            if let Some((_, value)) = found {
                return parse(value);
            }
        }
        None
    }

    /// `git config [--global|--system|--local] [set] alias.X VALUE`: the config file it
    /// writes holds the alias from now on (its text unknown when the key or value is only
    /// known when it runs).
    fn note_git_config(&mut self, args: &[Arg]) {
        let a = &args[1..];
        let Some(sub) = sub_index(a) else { return };
        if a[sub].text != "config" {
            return;
        }
        let Some((file, key, value)) = config_set(&a[sub + 1..]) else {
            return;
        };
        let text = match (key.unresolved, value.unresolved) {
            (false, false) => match alias_key(&key.text) {
                Some(name) => Some(format!("[alias]\n\t{name} = {}\n", quoted(&value.text))),
                None => return,
            },
            // `git config "alias.$n" …`: any alias may be set.
            (true, _) if key.text.contains('*') || alias_key(&key.text).is_some() => None,
            (false, true) if alias_key(&key.text).is_some() => None,
            _ => return,
        };
        self.remember(file.to_owned(), text);
    }
}

/// The alias `name` given on the command line (`-c alias.NAME=V`, the last one winning), or
/// only known when git runs (`--config-env alias.NAME=VAR`, a computed `-c`).
fn given_alias<'a>(
    globals: impl DoubleEndedIterator<Item = (&'a str, &'a str, bool)>,
    name: &str,
) -> Option<Alias> {
    for (option, kv, unresolved) in globals.rev() {
        let (key, value) = kv.split_once('=').unwrap_or((kv, ""));
        let ours = alias_key(key) == Some(name);
        match (option, unresolved) {
            ("--config-env", _) if ours => return Some(Alias::Unknown),
            ("-c", true) if ours || key.contains('*') => return Some(Alias::Unknown),
            ("-c", false) if ours => return parse(value),
            _ => {}
        }
    }
    None
}

/// `alias.NAME` → NAME (lower-cased by git, so compared so); `None` for any other key.
fn alias_key(key: &str) -> Option<&str> {
    let (section, name) = key.split_once('.')?;
    (section.eq_ignore_ascii_case("alias") && !name.is_empty()).then_some(name)
}

/// An alias's value: `!` a shell command, otherwise git's words (split as git's
/// `split_cmdline` does); an empty value is no alias.
fn parse(value: &str) -> Option<Alias> {
    if let Some(command) = value.strip_prefix('!') {
        return Some(Alias::Shell(command.to_owned()));
    }
    let words = split_cmdline(value);
    (!words.is_empty()).then_some(Alias::Git(words))
}

/// git's `split_cmdline`: words at white space, `'…'` and `"…"` quoting, `\` escaping the
/// next character outside single quotes.
fn split_cmdline(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut started = false;
    let mut chars = text.chars();
    while let Some(ch) = chars.next() {
        match (ch, quote) {
            ('\\', q) if q != Some('\'') => {
                word.extend(chars.next());
                started = true;
            }
            (c, Some(q)) if c == q => quote = None,
            (c, Some(_)) => word.push(c),
            ('\'' | '"', None) => {
                quote = Some(ch);
                started = true;
            }
            (c, None) if c.is_whitespace() => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            (c, None) => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        words.push(word);
    }
    words
}

/// The file a `git config` set writes, and the key and value it sets; `None` for a read, an
/// unset, an edit, or a file named with `--file` that git does not read by itself.
fn config_set(rest: &[Arg]) -> Option<(&'static str, &Arg, &Arg)> {
    const VALUED: [&str; 5] = ["--type", "--default", "--comment", "--value", "--blob"];
    let mut file = CONFIG_FILES[0];
    let mut operands: Vec<&Arg> = Vec::new();
    let mut words = rest.iter();
    while let Some(w) = words.next() {
        let t = w.text.as_str();
        match t {
            "--global" => file = CONFIG_FILES[1],
            "--system" => file = CONFIG_FILES[2],
            "--local" | "--worktree" | "--add" | "--replace-all" | "--fixed-value" => {}
            "-f" | "--file" => file = config_file(&words.next()?.text)?,
            _ if t.starts_with("--file=") => file = config_file(&t["--file=".len()..])?,
            _ if VALUED.contains(&t) => {
                words.next();
            }
            // Reads, removals and edits (`--get`, `--unset`, `-l`, `-e`, …) set nothing.
            _ if t.starts_with('-') && !t.contains('=') => return None,
            _ if t.starts_with('-') => {}
            _ => operands.push(w),
        }
    }
    if operands.first().is_some_and(|o| o.text == "set") {
        operands.remove(0);
    }
    match operands.as_slice() {
        [key, value, ..] => Some((file, key, value)),
        _ => None,
    }
}

/// A file named by `--file` that git reads as config by itself, by its base name.
fn config_file(path: &str) -> Option<&'static str> {
    let name = crate::paths::basename(path);
    CONFIG_FILES.iter().find(|f| **f == name).copied()
}

/// A config value as git writes it: in double quotes, `"` and `\` escaped.
fn quoted(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for ch in value.chars() {
        match ch {
            '"' | '\\' => {
                out.push('\\');
                out.push(ch);
            }
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// git's own commands (`git help -a`, git 2.47): an alias of the same name is never used.
const BUILTINS: [&str; 153] = [
    "add",
    "am",
    "annotate",
    "apply",
    "archimport",
    "archive",
    "bisect",
    "blame",
    "branch",
    "bugreport",
    "bundle",
    "cat-file",
    "check-attr",
    "check-ignore",
    "check-mailmap",
    "check-ref-format",
    "checkout",
    "checkout-index",
    "cherry",
    "cherry-pick",
    "citool",
    "clean",
    "clone",
    "column",
    "commit",
    "commit-graph",
    "commit-tree",
    "config",
    "count-objects",
    "credential",
    "credential-cache",
    "credential-store",
    "cvsexportcommit",
    "cvsimport",
    "cvsserver",
    "daemon",
    "describe",
    "diagnose",
    "diff",
    "diff-files",
    "diff-index",
    "diff-tree",
    "difftool",
    "fast-export",
    "fast-import",
    "fetch",
    "fetch-pack",
    "filter-branch",
    "fmt-merge-msg",
    "for-each-ref",
    "for-each-repo",
    "format-patch",
    "fsck",
    "gc",
    "get-tar-commit-id",
    "gitk",
    "gitweb",
    "grep",
    "gui",
    "hash-object",
    "help",
    "hook",
    "http-backend",
    "imap-send",
    "index-pack",
    "init",
    "instaweb",
    "interpret-trailers",
    "log",
    "ls-files",
    "ls-remote",
    "ls-tree",
    "mailinfo",
    "mailsplit",
    "maintenance",
    "merge",
    "merge-base",
    "merge-file",
    "merge-index",
    "merge-one-file",
    "merge-tree",
    "mergetool",
    "mktag",
    "mktree",
    "multi-pack-index",
    "mv",
    "name-rev",
    "notes",
    "p4",
    "pack-objects",
    "pack-redundant",
    "pack-refs",
    "patch-id",
    "prune",
    "prune-packed",
    "pull",
    "push",
    "quiltimport",
    "range-diff",
    "read-tree",
    "rebase",
    "reflog",
    "refs",
    "remote",
    "repack",
    "replace",
    "replay",
    "request-pull",
    "rerere",
    "reset",
    "restore",
    "rev-list",
    "rev-parse",
    "revert",
    "rm",
    "scalar",
    "send-email",
    "send-pack",
    "sh-i18n",
    "sh-setup",
    "shortlog",
    "show",
    "show-branch",
    "show-index",
    "show-ref",
    "sparse-checkout",
    "stage",
    "stash",
    "status",
    "stripspace",
    "submodule",
    "svn",
    "switch",
    "symbolic-ref",
    "tag",
    "unpack-file",
    "unpack-objects",
    "update-index",
    "update-ref",
    "update-server-info",
    "upload-archive",
    "upload-pack",
    "var",
    "verify-commit",
    "verify-pack",
    "verify-tag",
    "version",
    "whatchanged",
    "worktree",
    "write-tree",
    "init-db",
    "receive-pack",
    "shell",
];

/// Whether `name` is one of git's own commands, in any case (as git's alias lookup compares
/// them): a set, since every git command asks.
fn builtin(name: &str) -> bool {
    static SET: std::sync::OnceLock<rustc_hash::FxHashSet<&str>> = std::sync::OnceLock::new();
    let set = SET.get_or_init(|| BUILTINS.into_iter().collect());
    match name.bytes().any(|b| b.is_ascii_uppercase()) {
        true => set.contains(name.to_ascii_lowercase().as_str()),
        false => set.contains(name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_as_git_splits_them() {
        assert_eq!(split_cmdline("log --oneline"), ["log", "--oneline"]);
        assert_eq!(
            split_cmdline(r#"-c "core.pager=less -R" log 'a b' c\ d"#),
            ["-c", "core.pager=less -R", "log", "a b", "c d"]
        );
        assert!(split_cmdline("  ").is_empty());
    }

    #[test]
    fn keys_values_and_builtins() {
        assert_eq!(alias_key("Alias.t"), Some("t"));
        assert_eq!(alias_key("core.pager"), None);
        assert!(matches!(parse("!bird tweet"), Some(Alias::Shell(t)) if t == "bird tweet"));
        assert!(matches!(parse("push"), Some(Alias::Git(w)) if w == ["push"]));
        assert!(parse("").is_none());
        assert!(builtin("status") && builtin("push") && !builtin("st"));
        assert_eq!(quoted(r#"!echo "a\b""#), r#""!echo \"a\\b\"""#);
        let text = format!("[alias]\n\tp = {}\n", quoted(r#"!f() { echo "$1"; }; f"#));
        assert_eq!(
            file_entries(&text),
            [(
                "alias.p".to_string(),
                r#"!f() { echo "$1"; }; f"#.to_string()
            )]
        );
    }
}
