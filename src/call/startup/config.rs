//! The start-up and config files of tools, and what each makes its tool run. Each kind is read
//! in its own syntax and turned into shell text the guards judge as any command line: a shell
//! command it names (`run-shell 'rm -rf ~'` in `.tmux.conf`, `\! rm …` in `.psqlrc`), a
//! program it runs (`rustc-wrapper = "sccache"`), code handed to the language's interpreter
//! (`python3 -c '…'` for `usercustomize.py`), or the tool itself with the options it will
//! take (`curl --output ~/.bashrc` for `output = ~/.bashrc` in `.curlrc`). What cannot be read
//! as commands (a library preloaded into every program, a program at a path whose text is not
//! known here) is marked as a script computed when it runs, which the opaque guard stops.

use super::Runs;

/// The language of a start-up file that is a program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    Python,
    Ruby,
    R,
    Lua,
    Perl,
    Node,
    EmacsLisp,
}

/// Programs that a file of the same name placed earlier on `PATH` (`~/.local/bin`, `~/bin`,
/// `/usr/local/bin`) would stand in for: the tools a user and an agent run by name.
/// Tools users commonly install there themselves (`kubectl`, `terraform`, `gh`) are left out:
/// downloading one into `~/.local/bin` is ordinary setup.
const SHADOWED: [&str; 50] = [
    "git", "ls", "cat", "grep", "sudo", "su", "ssh", "scp", "python", "python3", "pip", "pip3",
    "node", "npm", "npx", "make", "bash", "sh", "zsh", "curl", "wget", "rm", "cp", "mv", "find",
    "sed", "awk", "tar", "env", "which", "less", "vim", "vi", "nano", "java", "ruby", "gem",
    "perl", "ps", "kill", "chmod", "openssl", "gpg", "rsync", "id", "whoami", "head", "tail",
    "diff", "xargs",
];

/// Whether, and how, a tool runs the file at `path` (`name` its base name).
pub fn kind(path: &str, name: &str) -> Option<Runs> {
    let under = |dir: &str| path.contains(dir);
    let ext = |e: &str| name.ends_with(e);
    Some(match name {
        ".tmux.conf" => Runs::Tmux,
        ".vimrc" | "_vimrc" | ".exrc" | ".gvimrc" => Runs::Vim,
        ".wgetrc" => Runs::WgetRc,
        ".curlrc" | "_curlrc" => Runs::CurlRc,
        ".mailcap" => Runs::Mailcap,
        "pip.conf" | "pip.ini" => Runs::PipConf,
        ".gdbinit" | ".lldbinit" | "gdbinit" => Runs::Debugger,
        ".sqliterc" | ".duckdbrc" => Runs::Sqlite,
        ".irbrc" | ".pryrc" => Runs::Code(Lang::Ruby),
        ".Rprofile" | "Rprofile.site" => Runs::Code(Lang::R),
        ".pdbrc" | "sitecustomize.py" | "usercustomize.py" | ".pythonrc" | ".pythonrc.py" => {
            Runs::Code(Lang::Python)
        }
        "ipython_config.py" | "jupyter_server_config.py" | "jupyter_notebook_config.py" => {
            Runs::Code(Lang::Python)
        }
        ".mongoshrc.js" | ".mongorc.js" => Runs::Code(Lang::Node),
        ".perldb" => Runs::Code(Lang::Perl),
        ".emacs" | ".emacs.el" => Runs::Code(Lang::EmacsLisp),
        ".nvim.lua" => Runs::Code(Lang::Lua),
        "mise.toml" | ".mise.toml" | "mise.local.toml" | ".mise.local.toml" | ".rtx.toml" => {
            Runs::Mise
        }
        ".pam_environment" => Runs::Environment,
        _ if name.starts_with(".psqlrc") => Runs::Psql,
        _ if path.ends_with("/.config/tmux/tmux.conf") => Runs::Tmux,
        _ if path.ends_with("/.vim/vimrc") || ext(".vim") && under_vim(path) => Runs::Vim,
        _ if ext(".lua") && under("/.config/nvim/") => Runs::Code(Lang::Lua),
        _ if ext(".el") && (under("/.emacs.d/") || under("/.config/emacs/")) => {
            Runs::Code(Lang::EmacsLisp)
        }
        _ if path.ends_with("/.config/gdb/gdbinit") => Runs::Debugger,
        _ if ext(".py") && under("/profile_default/startup/") => Runs::Code(Lang::Python),
        _ if ext(".pth") && (under("/site-packages/") || under("/dist-packages/")) => Runs::Pth,
        _ if path.ends_with("/.cargo/config.toml") || path.ends_with("/.cargo/config") => {
            Runs::CargoConfig
        }
        _ if path.ends_with("/.config/mise/config.toml")
            || path.ends_with("/.config/rtx/config.toml")
            || under("/.config/mise/conf.d/") =>
        {
            Runs::Mise
        }
        _ if ext(".sh") && under("/.config/direnv/lib/") => Runs::Shell,
        _ if ext(".conf") && under("/environment.d/") => Runs::Environment,
        _ if path == "/etc/environment" => Runs::Environment,
        _ if matches!(path, "/etc/wgetrc") => Runs::WgetRc,
        _ if matches!(path, "/etc/mailcap") => Runs::Mailcap,
        _ if ext(".desktop") && (under("/autostart/") || under("/applications/")) => Runs::Desktop,
        _ if under("/node_modules/.bin/") => Runs::Executable,
        _ if SHADOWED.contains(&name) && on_path(path) => Runs::Executable,
        _ => return None,
    })
}

/// vim's and neovim's configuration trees, whose scripts run at start.
fn under_vim(path: &str) -> bool {
    ["/.vim/", "/.config/nvim/", "/vimfiles/"]
        .iter()
        .any(|d| path.contains(d))
}

/// Directories searched by name before the system's own: a user's `~/.local/bin` and `~/bin`,
/// `/usr/local/bin`, the toolchains' bin directories.
fn on_path(path: &str) -> bool {
    let Some((dir, _)) = path.rsplit_once('/') else {
        return false;
    };
    let home_bin = (dir.strip_suffix("/bin")).is_some_and(|home| {
        home == "/root" || home.matches('/').count() == 2 && home.starts_with("/home/")
    });
    home_bin
        || dir.ends_with("/.local/bin")
        || dir.ends_with("/.cargo/bin")
        || dir.ends_with("/go/bin")
        || matches!(dir, "/usr/local/bin" | "/usr/local/sbin")
}

/// The commands a file of this kind will run, as shell text.
pub fn commands(kind: Runs, text: &str) -> String {
    match kind {
        Runs::Desktop => desktop(text),
        Runs::Environment => environment(text),
        Runs::Vim => lines(text, vim_line),
        Runs::Code(lang) => code(lang, text),
        Runs::Pth => pth(text),
        Runs::Debugger => lines(text, debugger_line),
        Runs::Psql => lines(text, psql_line),
        Runs::Sqlite => lines(text, sqlite_line),
        Runs::Mailcap => lines(text, mailcap_line),
        Runs::Tmux => lines(text, tmux_line),
        Runs::CurlRc => curlrc(text),
        Runs::WgetRc => wgetrc(text),
        Runs::PipConf => pip_conf(text),
        Runs::CargoConfig => cargo_config(text),
        Runs::Mise => mise(text),
        Runs::Executable => executable(text),
        Runs::Project(p) => super::project::commands(p, text),
        Runs::Shell | Runs::GitConfig | Runs::Cron | Runs::SystemCron | Runs::Unit => {
            text.to_string()
        }
    }
}

/// Each line through `f`, the commands it yields one per line.
fn lines(text: &str, f: fn(&str) -> Option<String>) -> String {
    text.lines().filter_map(f).collect::<Vec<_>>().join("\n")
}

/// `text` as one single-quoted shell word.
pub(super) fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// A line the shell model reads as a script computed when it runs (the opaque guard's
/// `eval` of a substitution), with why in its text.
pub(super) fn unreadable(why: &str) -> String {
    let words: String = why
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '.' | '_' | '-' | '/'))
        .collect();
    format!("eval \"$(: {words})\"")
}

/// The interpreter command that runs `code` in `lang`, as the inline guard reads it.
fn code(lang: Lang, code: &str) -> String {
    let q = quoted(code);
    match lang {
        Lang::Python => format!("python3 -c {q}"),
        Lang::Ruby => format!("ruby -e {q}"),
        Lang::R => format!("Rscript -e {q}"),
        Lang::Lua => format!("lua -e {q}"),
        Lang::Perl => format!("perl -e {q}"),
        Lang::Node => format!("node -e {q}"),
        Lang::EmacsLisp => format!("emacs --batch --eval {q}"),
    }
}

/// `Exec=sh -c 'x' %U`: the command, its field codes (`%f`, `%u`, `%i`…) dropped.
fn desktop(text: &str) -> String {
    let exec = text.lines().filter_map(|l| l.trim().strip_prefix("Exec="));
    exec.map(|e| {
        let mut out = String::with_capacity(e.len());
        let mut chars = e.chars();
        while let Some(c) = chars.next() {
            match c {
                '%' => match chars.next() {
                    Some('%') => out.push('%'),
                    _ => out.push_str("FILE"),
                },
                _ => out.push(c),
            }
        }
        out
    })
    .collect::<Vec<_>>()
    .join("\n")
}

/// Variables whose value programs run as a command.
const COMMAND_VARS: [&str; 12] = [
    "EDITOR",
    "VISUAL",
    "PAGER",
    "MANPAGER",
    "GIT_PAGER",
    "GIT_EDITOR",
    "GIT_SSH_COMMAND",
    "GIT_ASKPASS",
    "SSH_ASKPASS",
    "LESSOPEN",
    "BROWSER",
    "SUDO_ASKPASS",
];

/// Variables that make programs load code they name (a library, a module, a start-up script,
/// options that preload one) or run a prompt's substitutions.
const LOADING_VARS: [&str; 24] = [
    "LD_PRELOAD",
    "LD_AUDIT",
    "LD_LIBRARY_PATH",
    "BASH_ENV",
    "ENV",
    "PROMPT_COMMAND",
    "PS1",
    "PS4",
    "SHELLOPTS",
    "NODE_OPTIONS",
    "NODE_PATH",
    "PYTHONSTARTUP",
    "PYTHONPATH",
    "PYTHONHOME",
    "PERL5OPT",
    "PERL5LIB",
    "PERLLIB",
    "RUBYOPT",
    "RUBYLIB",
    "JAVA_TOOL_OPTIONS",
    "_JAVA_OPTIONS",
    "JDK_JAVA_OPTIONS",
    "GCONV_PATH",
    "GIT_EXEC_PATH",
];

/// `NAME=value` lines (`export` allowed, `~/.pam_environment`'s `NAME DEFAULT=value` too): a
/// command variable's value is run; a loading variable makes every program run code this hook
/// cannot read.
fn environment(text: &str) -> String {
    let mut out = Vec::new();
    for line in text.lines().map(str::trim) {
        let line = line.strip_prefix("export ").unwrap_or(line);
        let (name, value) = match line.split_once('=') {
            Some((n, v)) => (n.split_whitespace().next().unwrap_or(""), v),
            None => continue,
        };
        let value = value.trim().trim_matches(['"', '\'']);
        if COMMAND_VARS.contains(&name) {
            out.push(value.to_string());
        } else if LOADING_VARS.contains(&name) {
            out.push(unreadable(&format!(
                "{name} makes every program load code it names"
            )));
        }
    }
    out.join("\n")
}

/// A vim script line: `!cmd` (also after `silent`, in `:r !cmd`, or in a mapping's `:!cmd`),
/// the literal of `system('…')`/`jobstart('…')`, `:lua`/`:python` code. Settings, mappings
/// and plugin declarations run nothing outside vim.
fn vim_line(line: &str) -> Option<String> {
    let l = line.trim_start_matches([' ', '\t', ':']);
    let l = ["silent!", "silent", "sil!", "sil"]
        .iter()
        .find_map(|p| l.strip_prefix(p))
        .unwrap_or(l)
        .trim_start();
    if let Some(cmd) = l.strip_prefix('!') {
        return Some(cmd.to_string());
    }
    for call in ["system(", "systemlist(", "jobstart(", "termopen("] {
        if let Some(at) = l.find(call) {
            return Some(
                first_literal(&l[at + call.len()..])
                    .unwrap_or_else(|| unreadable("vim runs a command computed when it runs")),
            );
        }
    }
    let word: String = l.chars().take_while(char::is_ascii_alphanumeric).collect();
    let rest = l[word.len()..].trim_start();
    match word.as_str() {
        "lua" => Some(code(Lang::Lua, rest)),
        "py" | "python" | "py3" | "python3" | "pyx" => Some(code(Lang::Python, rest)),
        "perl" => Some(code(Lang::Perl, rest)),
        "ruby" => Some(code(Lang::Ruby, rest)),
        "exe" | "execute" | "luafile" | "pyfile" | "py3file" | "rubyfile" | "perldo" => {
            Some(unreadable("vim runs code computed when it runs"))
        }
        _ => l
            .find(":!")
            .or_else(|| {
                l.find(" !")
                    .filter(|_| matches!(word.as_str(), "r" | "read" | "w"))
            })
            .map(|at| l[at + 2..].trim_end_matches("<CR>").to_string()),
    }
}

/// The text of the quoted literal `text` starts with (`'rm -rf ~')`).
pub(super) fn first_literal(text: &str) -> Option<String> {
    let t = text.trim_start();
    let q = t.chars().next().filter(|q| matches!(q, '\'' | '"'))?;
    let end = t[1..].find(q)?;
    Some(t[1..=end].to_string())
}

/// gdb's `shell CMD`, `!CMD`, `pipe … | CMD`; lldb's `platform shell CMD`. Their Python,
/// Guile and `script` interpreters run code, and `source`/`dump`/`restore` read or write
/// files: unreadable here.
fn debugger_line(line: &str) -> Option<String> {
    let l = line.trim();
    if let Some(cmd) = l.strip_prefix('!').or_else(|| l.strip_prefix("shell ")) {
        return Some(cmd.to_string());
    }
    if let Some(cmd) = l.strip_prefix("platform shell") {
        return Some(cmd.trim_start_matches([' ', '-']).to_string());
    }
    if l.starts_with('|') || l.starts_with("pipe ") {
        return l.split_once('|').map(|(_, cmd)| cmd.to_string());
    }
    let word = l.split_whitespace().next().unwrap_or("");
    let runs_code = matches!(
        word,
        "python"
            | "py"
            | "pi"
            | "python-interactive"
            | "guile"
            | "gu"
            | "source"
            | "dump"
            | "append"
            | "restore"
            | "script"
    ) || l.starts_with("command script");
    runs_code.then(|| unreadable("the debugger runs code or files named in its script"))
}

/// psql's `\\! CMD`, `\\o |CMD` / `\\g |CMD` (output piped to CMD), `COPY … PROGRAM 'CMD'`,
/// and the backquoted commands its meta-commands' arguments run (`\\set x `cmd``).
fn psql_line(line: &str) -> Option<String> {
    let l = line.trim();
    if let Some(cmd) = l.strip_prefix("\\!") {
        return Some(cmd.to_string());
    }
    let meta = l.starts_with('\\');
    if meta {
        if let Some((_, cmd)) = l.split_once('|') {
            return Some(cmd.to_string());
        }
        if let Some(cmd) = l.split('`').nth(1) {
            return Some(cmd.to_string());
        }
    }
    let lower = l.to_ascii_lowercase();
    let at = lower.find("program")?;
    first_literal(&l[at + "program".len()..])
}

/// sqlite3's `.shell CMD`, `.system CMD`, `.output |CMD`/`.once |CMD`/`.read |CMD`, and what
/// loads code (`.load`, `load_extension(`) or writes files (`writefile(`, `edit(`).
fn sqlite_line(line: &str) -> Option<String> {
    let l = line.trim();
    for dot in [".shell", ".system"] {
        if let Some(cmd) = l.strip_prefix(dot) {
            return Some(cmd.to_string());
        }
    }
    let piped = [".output", ".once", ".read"]
        .iter()
        .any(|d| l.starts_with(d));
    if piped {
        return l.split_once('|').map(|(_, cmd)| cmd.to_string());
    }
    let loads = l.starts_with(".load")
        || ["load_extension(", "writefile(", "edit("]
            .iter()
            .any(|f| l.to_ascii_lowercase().contains(f));
    loads.then(|| unreadable("sqlite3 loads code or writes a file named in its script"))
}

/// `type/subtype; COMMAND [%s]; flags…` and a `test=COMMAND` flag: the viewer command run on
/// every file of that type.
fn mailcap_line(line: &str) -> Option<String> {
    let l = line.trim();
    if l.is_empty() || l.starts_with('#') {
        return None;
    }
    let fields: Vec<&str> = l.split(';').map(str::trim).collect();
    let mut out: Vec<&str> = fields.get(1).into_iter().copied().collect();
    out.extend(fields.iter().filter_map(|f| f.strip_prefix("test=")));
    let joined = out.join("\n").replace("%s", "FILE").replace("%t", "TYPE");
    (!joined.trim().is_empty()).then_some(joined)
}

/// A tmux config line as the tmux command it is (`run-shell`, `if-shell`, `new-window CMD`,
/// `set -g default-command CMD`, read by the shell model's tmux wrapper), also inside a key
/// binding or hook, and the `#(CMD)` substitutions of its status formats.
fn tmux_line(line: &str) -> Option<String> {
    let l = line.trim();
    if l.is_empty() || l.starts_with('#') {
        return None;
    }
    let mut out: Vec<String> = Vec::new();
    let mut rest = l;
    while let Some(at) = rest.find("#(") {
        let inner = &rest[at + 2..];
        let end = inner.find(')').unwrap_or(inner.len());
        out.push(inner[..end].to_string());
        rest = &inner[end..];
    }
    let command = tmux_command(l);
    if !command.is_empty() {
        out.push(format!("tmux {command}"));
    }
    (!out.is_empty()).then(|| out.join("\n"))
}

/// The tmux command a line runs: a binding's or hook's command, else the line.
fn tmux_command(l: &str) -> String {
    let words: Vec<&str> = l.split_whitespace().collect();
    match words.first().copied() {
        Some("bind" | "bind-key") => {
            let mut i = 1;
            while let Some(w) = words.get(i).filter(|w| w.starts_with('-')) {
                i += if matches!(*w, "-T" | "-N") { 2 } else { 1 };
            }
            words.get(i + 1..).map(|w| w.join(" ")).unwrap_or_default()
        }
        Some("set-hook") => {
            first_literal(&l[l.find(['\'', '"']).unwrap_or(l.len())..]).unwrap_or_default()
        }
        _ => l.to_string(),
    }
}

/// `key = value`, `key: value`, `key value` and `--key value` lines of a curl or wget config.
fn option_lines(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = line
            .find(|c: char| c == '=' || c == ':' || c.is_whitespace())
            .unwrap_or(line.len());
        let key = line[..at].trim_start_matches('-').to_ascii_lowercase();
        let value =
            line[at..].trim_start_matches(|c: char| c == '=' || c == ':' || c.is_whitespace());
        out.push((key, value.trim().trim_matches('"').to_string()));
    }
    out
}

/// Every later curl takes the config's options: `output`/`-o` names the file its download
/// lands in (a startup file, then, holds remote code).
fn curlrc(text: &str) -> String {
    let mut words = vec!["curl".to_string()];
    for (key, value) in option_lines(text) {
        match key.as_str() {
            "o" | "output" => words.push(format!("--output {}", quoted(&value))),
            "output-dir" => words.push(format!("--output-dir {}", quoted(&value))),
            _ => {}
        }
    }
    if words.len() == 1 {
        return String::new();
    }
    words.push("URL".into());
    words.join(" ")
}

/// Every later wget takes `output_document` (spelt with `_`, `-` or neither); `use_askpass`
/// runs a command for each password.
fn wgetrc(text: &str) -> String {
    let mut out = Vec::new();
    for (key, value) in option_lines(text) {
        match key.replace(['_', '-'], "").as_str() {
            "outputdocument" => out.push(format!("wget -O {} URL", quoted(&value))),
            "useaskpass" => out.push(value),
            _ => {}
        }
    }
    out.join("\n")
}

/// pip's index settings, as the `pip config set` that would make them (judged by the
/// remote-code guard's package sources): `index-url`, `extra-index-url`, `find-links`,
/// `trusted-host`, with values on continuation lines too.
fn pip_conf(text: &str) -> String {
    let mut out = Vec::new();
    let mut section = String::from("global");
    let mut key = String::new();
    for line in text.lines() {
        let t = line.trim();
        if t.is_empty() || t.starts_with(['#', ';']) {
            continue;
        }
        if let Some(head) = t.strip_prefix('[') {
            section = head.trim_end_matches(']').to_string();
            key.clear();
            continue;
        }
        let value = match (line.starts_with([' ', '\t']), t.split_once('=')) {
            (true, _) => t,
            (false, Some((k, v))) => {
                key = k.trim().replace('_', "-").to_ascii_lowercase();
                v.trim()
            }
            (false, None) => continue,
        };
        let source = ["index-url", "extra-index-url", "find-links", "trusted-host"];
        if source.contains(&key.as_str()) {
            for v in value.split_whitespace() {
                out.push(format!("pip config set {section}.{key} {}", quoted(v)));
            }
        }
    }
    out.join("\n")
}

/// TOML `key = value` lines by section (`[a.b]`), values unquoted; an array's strings
/// joined by spaces. Multi-line strings and arrays are joined first.
fn toml_entries(text: &str) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    let mut section = String::new();
    let mut pending: Option<(String, String)> = None;
    for line in text.lines() {
        if let Some((key, mut value)) = pending.take() {
            value.push('\n');
            value.push_str(line);
            if complete(&value) {
                out.push((section.clone(), key, toml_value(&value)));
            } else {
                pending = Some((key, value));
            }
            continue;
        }
        let t = line.trim();
        if t.starts_with('[') {
            section = t.trim_matches(['[', ']']).trim().to_string();
            continue;
        }
        let Some((key, value)) = t.split_once('=') else {
            continue;
        };
        let key = key.trim().trim_matches('"').to_string();
        let value = value.trim().to_string();
        if complete(&value) {
            out.push((section.clone(), key, toml_value(&value)));
        } else {
            pending = Some((key, value));
        }
    }
    out
}

/// Whether a TOML value is whole: multi-line strings and arrays close.
fn complete(value: &str) -> bool {
    for q in ["\"\"\"", "'''"] {
        if value.starts_with(q) {
            return value.len() > 3 && value[3..].contains(q);
        }
    }
    !value.starts_with('[') || value.matches('[').count() <= value.matches(']').count()
}

/// A TOML string's text, or an array's strings joined by spaces; escapes `\"` and `\\`.
fn toml_value(value: &str) -> String {
    let v = value.trim();
    let v = v
        .strip_prefix("\"\"\"")
        .and_then(|r| r.strip_suffix("\"\"\""))
        .or_else(|| v.strip_prefix("'''").and_then(|r| r.strip_suffix("'''")))
        .unwrap_or(v);
    if v.starts_with('[') {
        let inner = v.trim_matches(['[', ']']);
        let items = inner.split(',').map(|i| i.trim().trim_matches(['"', '\'']));
        return items
            .filter(|i| !i.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
    }
    let unquoted = ['"', '\'']
        .iter()
        .find_map(|q| v.strip_prefix(*q).and_then(|r| r.strip_suffix(*q)))
        .unwrap_or(v);
    unquoted.replace("\\\"", "\"").replace("\\\\", "\\")
}

/// Cargo runs `build.rustc`, `build.rustc-wrapper`, `build.rustc-workspace-wrapper`,
/// `build.rustdoc`, a target's `runner` and `linker`, and credential providers. Its sources
/// and registries name where crates come from (judged as `cargo install --index URL`).
fn cargo_config(text: &str) -> String {
    let mut out = Vec::new();
    for (section, key, value) in toml_entries(text) {
        let program = matches!(
            (section.split('.').next().unwrap_or(""), key.as_str()),
            (
                "build",
                "rustc" | "rustc-wrapper" | "rustc-workspace-wrapper" | "rustdoc"
            ) | ("target", "runner" | "linker")
                | (
                    "registry",
                    "credential-provider" | "global-credential-providers"
                )
                | ("registries", "credential-provider")
        );
        if program {
            out.push(program_line(&value));
        } else if matches!(section.split('.').next(), Some("source" | "registries"))
            && matches!(key.as_str(), "registry" | "index" | "git")
            && value.contains("://")
        {
            out.push(format!("cargo install --index {}", quoted(&value)));
        }
    }
    out.join("\n")
}

/// A program a tool will run: a bare name (`sccache`, `mold`) or a system path is the command
/// as written; one at any other path runs a file whose text is not known here.
fn program_line(value: &str) -> String {
    let prog = value.split_whitespace().next().unwrap_or("");
    let system = ["/usr/bin/", "/bin/", "/usr/local/bin/", "/usr/sbin/"]
        .iter()
        .any(|d| prog.starts_with(d));
    if prog.contains('/') && !system {
        return unreadable("the tool runs a file whose text this hook does not see");
    }
    value.to_string()
}

/// mise's `[hooks]` (enter, leave, cd, pre/postinstall) and tasks' `run` are shell; a plugin
/// from an address (`[plugins] x = "https://…"`) is installed as `mise plugins install`.
fn mise(text: &str) -> String {
    let mut out = Vec::new();
    for (section, key, value) in toml_entries(text) {
        let top = section.split('.').next().unwrap_or("");
        match (top, key.as_str()) {
            ("hooks", _) | ("tasks", "run") => out.push(value),
            ("tasks", _) if section == "tasks" => out.push(value),
            ("plugins", name) => out.push(format!(
                "mise plugins install {} {}",
                quoted(name),
                quoted(&value)
            )),
            _ => {}
        }
    }
    out.join("\n")
}

/// A `.pth` file's `import` lines are run by `site` at every start; the others are paths.
fn pth(text: &str) -> String {
    let imports: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("import ") || l.starts_with("import\t"))
        .collect();
    match imports.is_empty() {
        true => String::new(),
        false => code(Lang::Python, &imports.join("\n")),
    }
}

/// An executable's `#!` line names what runs the rest: a language's interpreter, or a shell
/// (also without one: the shell runs a text file that has none).
fn executable(text: &str) -> String {
    let Some(shebang) = text.lines().next().and_then(|l| l.strip_prefix("#!")) else {
        return text.to_string();
    };
    let mut words = shebang.split_whitespace();
    let mut interpreter = words.next().map_or("", crate::paths::basename);
    if interpreter == "env" {
        interpreter = words.find(|w| !w.starts_with('-')).unwrap_or("");
    }
    let lang = match interpreter {
        p if p.starts_with("python") => Lang::Python,
        p if p.starts_with("node") || p == "deno" || p == "bun" => Lang::Node,
        p if p.starts_with("ruby") => Lang::Ruby,
        p if p.starts_with("perl") => Lang::Perl,
        "lua" => Lang::Lua,
        "Rscript" => Lang::R,
        _ => return text.to_string(),
    };
    code(lang, text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn which_tool_files_run_later() {
        let cases = [
            ("/home/a/.tmux.conf", Some(Runs::Tmux)),
            ("/home/a/.config/nvim/init.lua", Some(Runs::Code(Lang::Lua))),
            ("/home/a/.config/nvim/init.vim", Some(Runs::Vim)),
            ("/home/a/.local/bin/git", Some(Runs::Executable)),
            ("/home/a/bin/ls", Some(Runs::Executable)),
            ("/srv/app/node_modules/.bin/jest", Some(Runs::Executable)),
            ("/home/a/.config/autostart/x.desktop", Some(Runs::Desktop)),
            (
                "/home/a/.config/environment.d/90-x.conf",
                Some(Runs::Environment),
            ),
            (
                "/home/a/.local/lib/python3.11/site-packages/zz.pth",
                Some(Runs::Pth),
            ),
            ("/home/a/.cargo/config.toml", Some(Runs::CargoConfig)),
            // A new tool in ~/.local/bin, a project's own bin/, a vim file elsewhere.
            ("/home/a/.local/bin/mytool", None),
            ("/srv/app/bin/git", None),
            ("/srv/app/docs/notes.vim", None),
            ("/srv/app/src/conf.py", None),
        ];
        for (path, want) in cases {
            let name = crate::paths::basename(path);
            assert_eq!(kind(path, name), want, "{path}");
        }
    }

    #[test]
    fn what_each_tool_file_runs() {
        assert_eq!(
            commands(Runs::Vim, "set number\nsilent !rm -rf ~/x\n"),
            "rm -rf ~/x"
        );
        assert_eq!(commands(Runs::Vim, "call system('make')"), "make");
        assert_eq!(
            commands(Runs::Tmux, "run-shell 'x y'"),
            "tmux run-shell 'x y'"
        );
        assert_eq!(
            commands(
                Runs::Tmux,
                "bind r run-shell 'x'\nset -g status-right '#(date)'"
            ),
            "tmux run-shell 'x'\ndate\ntmux set -g status-right '#(date)'"
        );
        assert_eq!(commands(Runs::Psql, "\\set x 1\n\\! rm x"), " rm x");
        assert_eq!(commands(Runs::Sqlite, ".headers on\n.shell rm x"), " rm x");
        assert_eq!(
            commands(Runs::Mailcap, "text/plain; less %s; needsterminal"),
            "less FILE"
        );
        assert_eq!(
            commands(Runs::Debugger, "set pagination off\nshell rm x"),
            "rm x"
        );
        assert_eq!(
            commands(Runs::CurlRc, "silent\noutput = /h/.bashrc\n"),
            "curl --output '/h/.bashrc' URL"
        );
        assert_eq!(
            commands(Runs::WgetRc, "output_document = /h/x"),
            "wget -O '/h/x' URL"
        );
        assert_eq!(
            commands(
                Runs::PipConf,
                "[global]\nindex-url = https://e/simple\ntimeout = 5"
            ),
            "pip config set global.index-url 'https://e/simple'"
        );
        assert_eq!(
            commands(
                Runs::CargoConfig,
                "[build]\nrustc-wrapper = \"sccache\"\njobs = 4"
            ),
            "sccache"
        );
        assert!(
            commands(Runs::CargoConfig, "[build]\nrustc-wrapper = \"/tmp/w.sh\"")
                .starts_with("eval")
        );
        assert_eq!(
            commands(Runs::Mise, "[hooks]\nenter = \"echo hi\"\n"),
            "echo hi"
        );
        assert_eq!(
            commands(Runs::Mise, "[tasks.build]\nrun = \"cargo build\"\n"),
            "cargo build"
        );
        assert_eq!(commands(Runs::Environment, "EDITOR=vim\nGOPATH=/g"), "vim");
        assert!(commands(Runs::Environment, "LD_PRELOAD=/tmp/x.so").starts_with("eval"));
        assert_eq!(
            commands(Runs::Desktop, "[Desktop Entry]\nExec=foo %U"),
            "foo FILE"
        );
        assert_eq!(
            commands(Runs::Pth, "/some/path\nimport os"),
            "python3 -c 'import os'"
        );
        assert_eq!(
            commands(Runs::Executable, "#!/usr/bin/env python3\nprint(1)"),
            "python3 -c '#!/usr/bin/env python3\nprint(1)'"
        );
    }
}
