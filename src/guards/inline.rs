//! Inline interpreter code (`python3 -c`, `perl -e`, `node -e`, `ruby -e`, `php -r`,
//! `osascript -e`) and code-mode programs: plain computation is allowed; code that reaches
//! files, processes or the network could do anything a command could, so it is opaque.

use super::argv::{args, program};
use crate::shell::Command;
use std::borrow::Cow;

/// Flags that introduce a program text, by interpreter.
fn code_flags(prog: &str) -> &'static [&'static str] {
    match prog {
        p if p.starts_with("python") => &["-c"],
        "perl" | "ruby" | "osascript" => &["-e", "-E"],
        "node" | "nodejs" | "deno" | "bun" => &["-e", "--eval", "-p", "--print", "eval"],
        "php" => &["-r"],
        "lua" | "tclsh" | "Rscript" | "R" => &["-e"],
        "julia" => &["-e", "--eval", "-E", "--print"],
        "elixir" | "iex" => &["-e", "--eval"],
        // PowerShell takes its parameters in any case and any unambiguous prefix.
        "pwsh" | "powershell" => &[
            "-c",
            "-C",
            "-Command",
            "-command",
            "-EncodedCommand",
            "-encodedcommand",
            "-ec",
            "-e",
        ],
        "awk" | "gawk" | "mawk" | "nawk" => &[],
        _ => &[],
    }
}

/// The inline program of an interpreter command, if it has one: a file the session wrote that
/// it runs, after its code flag, awk's first operand, or a here-doc an interpreter reads as its
/// program (`python3 - <<EOF`).
pub fn code(c: &Command) -> Option<Cow<'_, str>> {
    // Files it runs first (a preload, an imported module), then its own inline code.
    match (&c.program_text, own_code(c)) {
        (Some(text), Some(own)) => Some(Cow::Owned(format!("{text}\n{own}"))),
        (Some(text), None) => Some(Cow::Borrowed(text)),
        (None, own) => own,
    }
}

/// The program the command line itself gives its interpreter.
fn own_code(c: &Command) -> Option<Cow<'_, str>> {
    let prog = program(c);
    if matches!(prog, "awk" | "gawk" | "mawk" | "nawk") {
        return awk_program(c).map(Cow::Borrowed);
    }
    if prog == "sqlite3" {
        // `sqlite3 DB "select readfile('.env')"`: the SQL after the database.
        // Each operand after the database is a statement or dot-command, run in order.
        let ops = crate::guards::argv::operands(args(c), &["-cmd", "-separator", "-nullvalue"]);
        let text = (ops.get(1..).into_iter().flatten())
            .map(|a| a.text.as_str())
            .collect::<Vec<_>>();
        return (!text.is_empty()).then(|| Cow::Owned(text.join("\n")));
    }
    if let Some(text) = c
        .stdin_text
        .as_deref()
        .filter(|_| reads_program_from_stdin(prog, c))
    {
        return Some(Cow::Borrowed(text));
    }
    let flags = code_flags(prog);
    let a = args(c);
    if prog.starts_with("python") && a.iter().any(|x| x.text == "-m") {
        // `python3 -m timeit -s SETUP STMT`: code given to a module as its arguments.
        let words: Vec<&str> = a.iter().map(|x| x.text.as_str()).collect();
        if let Some(code) = crate::code::imports::module_code(&words) {
            return Some(Cow::Owned(code));
        }
    }
    if prog == "perl" {
        if let Some(uses) = perl_modules(a) {
            let own = inline_text(prog, flags, a).unwrap_or("");
            return Some(Cow::Owned(format!("{uses}\n{own}")));
        }
    }
    inline_text(prog, flags, a).map(Cow::Borrowed)
}

/// The text after an interpreter's code flag (`-c CODE`, `-cCODE` for Python).
fn inline_text<'a>(prog: &str, flags: &[&str], a: &'a [crate::shell::Arg]) -> Option<&'a str> {
    let k = a.iter().position(|x| {
        crate::guards::argv::listed(flags, &x.text)
            || x.text.starts_with("-c") && prog.starts_with("python") && x.text.len() > 2
    })?;
    if a[k].text.len() > 2 && a[k].text.starts_with("-c") {
        return Some(&a[k].text[2..]);
    }
    a.get(k + 1).map(|x| x.text.as_str())
}

/// perl's `-MTEXT` is the code `use TEXT;` run before the program (`-M'strict; system …'`
/// runs the rest, perlrun(1)); `-MMod=a,b` is `use Mod qw(a b);`, `-mMod` `use Mod ();`.
fn perl_modules(a: &[crate::shell::Arg]) -> Option<String> {
    let mut uses = Vec::new();
    let mut words = a.iter().map(|x| x.text.as_str()).take_while(|t| *t != "--");
    while let Some(w) = words.next() {
        let (text, empty) = match w {
            "-M" | "-m" => (words.next().unwrap_or(""), w == "-m"),
            _ if w.starts_with("-M") || w.starts_with("-m") => (&w[2..], w.starts_with("-m")),
            _ if !w.starts_with('-') => break,
            _ => continue,
        };
        let text = text.strip_prefix('-').unwrap_or(text);
        let used = match text.split_once('=') {
            Some((module, list)) if !module.contains([' ', ';']) => {
                format!("use {module} qw({});", list.replace(',', " "))
            }
            _ if empty => format!("use {text} ();"),
            _ => format!("use {text};"),
        };
        uses.push(used);
    }
    (!uses.is_empty()).then(|| uses.join("\n"))
}

fn awk_program(c: &Command) -> Option<&str> {
    if args(c)
        .iter()
        .any(|a| a.text == "-f" || a.text.starts_with("--file"))
    {
        // `awk -f /dev/stdin <<< 'PROG'`: the program is the here-string, read as `awk 'PROG'`.
        return c.stdin_text.as_deref().filter(|_| awk_program_on_stdin(c));
    }
    crate::guards::argv::operands(args(c), &["-F", "-v", "--assign", "--field-separator"])
        .first()
        .map(|a| a.text.as_str())
}

/// `awk -f -`, `-f /dev/stdin`: the program file is standard input.
fn awk_program_on_stdin(c: &Command) -> bool {
    let files = super::argv::option_values(args(c), Some("-f"), "--file");
    files
        .iter()
        .any(|f| matches!(*f, "-" | "/dev/stdin" | "/dev/fd/0" | "/proc/self/fd/0"))
}

/// An interpreter that would run what its stdin holds.
pub fn runs_stdin(c: &Command) -> bool {
    reads_program_from_stdin(program(c), c)
}

/// An interpreter with no script operand (or `-`) runs what its stdin holds.
fn reads_program_from_stdin(prog: &str, c: &Command) -> bool {
    let interpreter = prog.starts_with("python")
        || matches!(
            prog,
            "perl"
                | "ruby"
                | "node"
                | "nodejs"
                | "php"
                | "lua"
                | "osascript"
                | "deno"
                | "bun"
                | "tclsh"
                | "wish"
                | "expect"
                | "sqlite3"
        );
    // ed and ex always take their commands from stdin, vim in Ex mode (`-es`) too.
    if matches!(prog, "awk" | "gawk" | "mawk" | "nawk") {
        return awk_program_on_stdin(c);
    }
    let editor = matches!(prog, "ed" | "red" | "ex")
        || matches!(prog, "vim" | "vi" | "nvim") && args(c).iter().any(|a| a.text == "-es");
    let ops = || crate::guards::argv::operands(args(c), &["-m", "-W", "-X", "-I", "-M"]);
    editor || interpreter && ops().first().is_none_or(|o| o.text == "-")
}

/// Names whose presence in a program means it reaches outside plain computation.
const REACHES: [&str; 58] = [
    // awk, perl (`system "…"`), php; Tcl/expect; sqlite3's file functions and dot-commands
    "system",
    "[open",
    "writefile",
    ".shell",
    "load_extension",
    "getline",
    "print |",
    // files
    "open(",
    "file(",
    "unlink",
    "remove(",
    "rmtree",
    "rmdir",
    "rename",
    "shutil",
    "pathlib",
    "os.",
    "fs.",
    "require(",
    "import(",
    "File.",
    "Dir.",
    "FileUtils",
    "fopen",
    "file_get_contents",
    "file_put_contents",
    "readfile",
    "io.open",
    "Deno.",
    "Bun.",
    // processes
    "subprocess",
    "system(",
    "exec",
    "popen",
    "spawn",
    "child_process",
    "process.",
    "process[",
    "`",
    "%x",
    "Kernel",
    "proc_open",
    "passthru",
    "do shell script",
    "IO.popen",
    "os.execute",
    // Perl's command substitution and File::Path; signals to other processes.
    "qx",
    "readpipe",
    "remove_tree",
    "make_path",
    "kill",
    "truncate",
    // network
    "socket",
    "urllib",
    "requests",
    "http",
    "fetch(",
    "net.",
];

/// What in the program reaches outside, or `None` for plain computation.
pub fn reaches(code: &str) -> Option<&'static str> {
    let dynamic = ["__import__", "eval(", "eval ", "getattr("];
    if dynamic.iter().any(|d| code.contains(d)) {
        return Some("dynamic import or eval");
    }
    let code = without_plain_process_facts(code);
    REACHES.iter().copied().find(|w| code.contains(w))
}

/// What reaches outside in one language's own terms: awk's output redirects, Perl's `open`
/// with a handle, sqlite3's dot-commands. Kept to their language: `print if $. > 1` is a
/// comparison in Perl.
pub fn reaches_in(prog: &str, code: &str) -> Option<&'static str> {
    let hit = match prog {
        "awk" | "gawk" | "mawk" | "nawk" => {
            awk_output_redirect(code) || awk_argv_files(code).iter().any(Option::is_none)
        }
        "perl" => perl_open(code) || any_word(code, &PERL_REACHES),
        "ruby" => any_word(code, &RUBY_REACHES),
        "tclsh" | "wish" | "expect" => any_word(code, &TCL_REACHES),
        "lua" => any_word(code, &LUA_REACHES),
        "julia" => any_word(code, &JULIA_REACHES),
        "elixir" | "iex" => any_word(code, &ELIXIR_REACHES),
        "Rscript" | "R" => any_word(code, &R_REACHES),
        // Every PowerShell cmdlet and alias (`ri`, `del`, `rm`, `iex`, `saps`) may reach files
        // or processes, and its parameters take any case and prefix: no word list keeps up.
        "pwsh" | "powershell" => !code.trim().is_empty(),
        "sqlite3" => SQLITE_DOT
            .iter()
            .any(|d| code.lines().any(|l| l.trim_start().starts_with(d))),
        _ => false,
    };
    hit.then_some("a file or command named in the code")
}

/// Each language's builtins that reach files, processes or the network and that `REACHES`
/// (written for the common spellings) misses: perlfunc(1), Ruby's core classes, Tcl's
/// commands, Lua's standard library, Julia's `Base.Filesystem` and process API, Elixir's
/// `File`/`System`/`Port`.
const PERL_REACHES: [&str; 14] = [
    "truncate", "kill", "chmod", "chown", "symlink", "link", "mkdir", "utime", "fork", "syscall",
    "sysopen", "qx", "require", "do",
];
const RUBY_REACHES: [&str; 10] = [
    "Process",
    "Socket",
    "TCPSocket",
    "UDPSocket",
    "fork",
    "syscall",
    "IO",
    "open",
    "require",
    "load",
];
const TCL_REACHES: [&str; 9] = [
    "file", "exec", "open", "socket", "glob", "cd", "load", "source", "interp",
];
const LUA_REACHES: [&str; 8] = [
    "os", "io", "require", "load", "loadfile", "dofile", "package", "debug",
];
const JULIA_REACHES: [&str; 18] = [
    "rm", "run", "mv", "cp", "write", "touch", "mkdir", "mkpath", "chmod", "chown", "download",
    "Sockets", "ccall", "pipeline", "include", "cd", "Pkg", "Base",
];
const ELIXIR_REACHES: [&str; 6] = ["File", "System", "Port", "Code", "Mix", "Node"];
/// R: the shell, files, downloads, and the installers that build packages from GitHub or an
/// address (`remotes::install_github`, `devtools::`, `pak::`).
const R_REACHES: [&str; 20] = [
    "system",
    "system2",
    "shell",
    "unlink",
    "file.remove",
    "file.rename",
    "file.copy",
    "download.file",
    "source",
    "remotes",
    "devtools",
    "pak",
    "install_github",
    "install_url",
    "install_git",
    "socketConnection",
    "url",
    "dyn.load",
    "eval",
    "parse",
];

/// Whether one of `words` stands in `code` as a whole word (an identifier not part of a
/// longer one): `kill 9, 1` but not `skill`.
fn any_word(code: &str, words: &[&str]) -> bool {
    let ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    words.iter().any(|w| {
        code.match_indices(w).any(|(at, _)| {
            let before = code[..at].chars().next_back().is_none_or(|ch| !ident(ch));
            let after = code[at + w.len()..]
                .chars()
                .next()
                .is_none_or(|ch| !ident(ch));
            before && after
        })
    })
}

/// sqlite3's dot-commands that read, write or open files or run the shell.
const SQLITE_DOT: [&str; 13] = [
    ".import", ".read", ".output", ".once", ".save", ".backup", ".restore", ".open", ".load",
    ".system", ".excel", ".log", ".cd",
];

/// The files an awk program adds to its operands by assigning `ARGV` elements (`BEGIN {
/// ARGV[1] = "/h/.ss" "h/id_rsa"; ARGC = 2 }`): awk then reads and prints each as input
/// (POSIX awk, ARGV). A value of string literals only (juxtaposed, awk's concatenation) is
/// the file's name; any other is computed (`None`).
pub fn awk_argv_files(code: &str) -> Vec<Option<String>> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("ARGV[") {
        let after = &rest[at + "ARGV[".len()..];
        let Some(close) = after.find(']') else { break };
        let tail = after[close + 1..].trim_start();
        rest = &after[close + 1..];
        let Some(value) = tail.strip_prefix('=').filter(|v| !v.starts_with('=')) else {
            continue;
        };
        let end = value.find([';', '}', '\n']).unwrap_or(value.len());
        out.push(awk_literal(&value[..end]));
    }
    out
}

/// Juxtaposed awk string literals (`"a" "b"`) as the one string they make.
fn awk_literal(expr: &str) -> Option<String> {
    let mut out = String::new();
    let mut rest = expr.trim();
    while !rest.is_empty() {
        let body = rest.strip_prefix('"')?;
        let end = body.find('"')?;
        let part = &body[..end];
        if part.contains('\\') {
            return None;
        }
        out.push_str(part);
        rest = body[end + 1..].trim_start();
    }
    (!out.is_empty()).then_some(out)
}

/// awk's `print … > "f"`, `print … | "cmd"` (also `>>`, `|&`, and printf): a redirect is a `>`
/// or `|` in a print statement outside parentheses and strings; `$3 > 100` in a pattern or
/// `if` is a comparison.
fn awk_output_redirect(code: &str) -> bool {
    let mut rest = code;
    while let Some(at) = rest.find("print") {
        let statement = &rest[at + "print".len()..];
        let (mut depth, mut quoted) = (0i32, false);
        let mut prev = ' ';
        for ch in statement.chars() {
            match ch {
                '"' if prev != '\\' => quoted = !quoted,
                _ if quoted => {}
                '(' => depth += 1,
                ')' => depth -= 1,
                ';' | '}' | '\n' => break,
                '>' | '|' if depth <= 0 => return true,
                _ => {}
            }
            prev = ch;
        }
        rest = statement;
    }
    false
}

/// Perl's `open F, "<", ".env"` / `open(my $fh, …)`: `open` as a word followed by a handle and
/// a comma.
fn perl_open(code: &str) -> bool {
    code.match_indices("open").any(|(at, _)| {
        let word_start = code[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        let after = code[at + 4..].trim_start_matches([' ', '(']);
        let after = after.strip_prefix("my ").unwrap_or(after).trim_start();
        let handle: String = after
            .chars()
            .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '$' | ':'))
            .collect();
        word_start && !handle.is_empty() && after[handle.len()..].trim_start().starts_with(',')
    })
}

/// Node's `process` also answers plain questions (`process.version`, `process.platform`) and
/// writes to the console: those uses are taken out, so `node -e 'console.log(process.version)'`
/// is a computation. Any other member (`process.env`, `process.kill`, `process.binding`) stays.
fn without_plain_process_facts(code: &str) -> std::borrow::Cow<'_, str> {
    const PLAIN: [&str; 12] = [
        "version",
        "versions",
        "platform",
        "arch",
        "argv",
        "pid",
        "uptime",
        "hrtime",
        "exit",
        "exitCode",
        "memoryUsage",
        "stdout",
    ];
    if !code.contains("process.") {
        return code.into();
    }
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = rest.find("process.") {
        let after = &rest[at + "process.".len()..];
        let name_len = after
            .find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_' || ch == '$'))
            .unwrap_or(after.len());
        // `child_process.` and `myprocess.` are other objects: only a whole word counts.
        let whole = rest[..at]
            .chars()
            .next_back()
            .is_none_or(|ch| !(ch.is_ascii_alphanumeric() || ch == '_' || ch == '$' || ch == '.'));
        let plain = whole && PLAIN.contains(&&after[..name_len]);
        out.push_str(&rest[..at]);
        if !plain {
            out.push_str("process.");
        }
        rest = after;
    }
    out.push_str(rest);
    out.into()
}

/// Perl's `-M` loads a module before `-e`: `perl -MFile::Path -e rmtree…` reaches files.
pub fn preloads(c: &Command) -> bool {
    args(c)
        .iter()
        .any(|a| a.text.starts_with("-M") && a.text.len() > 2)
}

/// `require('./package.json')`: Node parses a JSON file as data, running nothing. The code
/// with each such require of a plain `./` path (no `..`; a bare `x.json` would be a package
/// from node_modules, whose code runs) taken out, and the paths read
/// (still judged as files by the caller: `require('./credentials.json')` reads a secret).
pub fn local_json_requires(code: &str) -> (String, Vec<&str>) {
    let mut kept = String::with_capacity(code.len());
    let mut paths = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("require(") {
        let after = &rest[at + "require(".len()..];
        match json_literal(after) {
            Some((path, len)) => {
                kept.push_str(&rest[..at]);
                kept.push_str("null");
                paths.push(path);
                rest = &after[len..];
            }
            None => {
                kept.push_str(&rest[..at + "require(".len()]);
                rest = after;
            }
        }
    }
    kept.push_str(rest);
    (kept, paths)
}

/// `'./x.json')` at the start of `text`: the path and the length up to the `)`.
fn json_literal(text: &str) -> Option<(&str, usize)> {
    let quote = text.chars().next().filter(|q| matches!(q, '\'' | '"'))?;
    let end = text[1..].find(quote)? + 1;
    let path = &text[1..end];
    let plain = path
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '/' | '@'));
    let local = plain
        && path.ends_with(".json")
        && path.starts_with("./")
        && !path.split('/').any(|seg| seg == "..");
    (local && text[end + 1..].starts_with(')')).then_some((path, end + 2))
}
