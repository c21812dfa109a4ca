//! Commands whose effect cannot be known from their text: a variable or substitution in
//! command position, `eval`/`bash -c` of something computed, nesting beyond the bound, text
//! the parser rejects, and inline or code-mode programs that reach files, processes or the
//! network. Their verdict is `opaqueCommandAction`.

use super::{editors, inline};
use super::{show, Subject};
use crate::shell::OpaqueKind;

pub fn check(s: &Subject) -> Option<String> {
    for script in &s.view.scripts {
        if let Some(o) = script.opaque.first() {
            return Some(format!("{}: `{}`", describe(o.kind), o.text));
        }
    }
    if let Some(code) = s.view.code.as_ref().filter(|_| !s.view.code_read) {
        if let Some(what) = inline::reaches(code) {
            return Some(format!("code-mode program uses {what}"));
        }
    }
    if let Some(why) = s
        .commands()
        .find_map(|(script, _, c)| computed_words(script, c))
    {
        return Some(why);
    }
    s.commands().find_map(|(_, _, c)| {
        if let Some(why) = manifest(s, c) {
            return Some(why);
        }
        if let Some(what) = editors::reaches(c) {
            return Some(format!(
                "`{}` runs a script of its own that uses {what}",
                show(c)
            ));
        }
        // Read whole as the commands it amounts to, which the guards judge (`call::code`).
        if c.code_read {
            return None;
        }
        let code = inline::code(c)?;
        let what = inline::reaches(&without_data_reads(s, c, &code))
            .or_else(|| inline::reaches_in(super::argv::program(c), &code))
            .or_else(|| inline::preloads(c).then_some("a preloaded module"))?;
        Some(format!("`{}` runs inline code that uses {what}", show(c)))
    })
}

/// Programs that apply a configuration of their own language to this machine: `puppet apply
/// -e CODE` or `puppet apply site.pp` (any resource: files removed, packages, services, exec),
/// and systemd-tmpfiles given a configuration that cannot be read now. `--noop` only reports.
fn manifest(s: &Subject, c: &crate::shell::Command) -> Option<String> {
    let a = super::argv::args(c);
    let puppet = super::argv::program(c) == "puppet"
        && a.first().is_some_and(|v| v.text == "apply")
        && !super::argv::given(a, &["--noop"]);
    let tmpfiles = super::destructive::system::unread_config(s, c);
    (puppet || tmpfiles).then(|| {
        format!(
            "`{}` applies a configuration whose effect is not read here",
            show(c)
        )
    })
}

/// The code without its `require('./x.json')` of files that are not credentials: reading a
/// project's JSON as data reaches nothing else.
fn without_data_reads(s: &Subject, c: &crate::shell::Command, code: &str) -> String {
    let (kept, paths) = inline::local_json_requires(code);
    let secret = paths.iter().any(|p| {
        let path = s.path_in(c, &crate::shell::Arg::literal(p));
        s.env.credentials.hit(&path).is_some()
    });
    if secret {
        code.to_string()
    } else {
        kept
    }
}

fn describe(kind: OpaqueKind) -> &'static str {
    match kind {
        OpaqueKind::DynamicCommand => "the program to run is only known when it runs",
        OpaqueKind::DynamicScript => "a script is computed when it runs",
        OpaqueKind::TooDeep => "nesting is deeper than can be followed",
        OpaqueKind::Unparseable => "the command cannot be parsed",
    }
}

/// `xargs -I{} sh -c '{}'` runs input lines as commands; `cat $(echo … | base64 -d)` takes its
/// arguments from a decoder: what runs, or on what, is only known when it runs.
fn computed_words(script: &crate::shell::Script, c: &crate::shell::Command) -> Option<String> {
    if c.argv
        .first()
        // The byte search first: it is most words' whole answer, and costs less than the
        // substring search's setup.
        .is_some_and(|p| p.unresolved || p.text.contains('{') && p.text.contains("{}"))
    {
        return Some(format!(
            "the command `{}` is built from input lines",
            show(c)
        ));
    }
    if c.argv.first().is_some_and(|p| p.pattern) {
        return Some(format!(
            "the program `{}` is a pattern the shell expands",
            show(c)
        ));
    }
    if let Some(why) = unknown_file(c) {
        return Some(why);
    }
    if let Some(why) = computed_program(script, c) {
        return Some(why);
    }
    // Only a word known when it runs can come from a decoder: asked first, the feeders
    // (most commands have none such) are not looked at.
    if !c.argv.iter().any(|a| a.unresolved) {
        return None;
    }
    let decoded = c
        .inputs
        .iter()
        .filter_map(|&j| script.commands.get(j))
        .find(|f| super::remote_code::decodes(f))?;
    Some(format!(
        "`{}` takes its arguments from `{}`",
        show(c),
        show(decoded)
    ))
}

/// `jq -r … | python3`, `yes CMD | head -n1 | node`: an interpreter runs what its stdin
/// brings, computed by a program rather than printed literally (then `stdin_text` holds it) or
/// read from the project's files (`cat tool.py | python3` runs tool.py, as `python3 tool.py`
/// does).
fn computed_program(script: &crate::shell::Script, c: &crate::shell::Command) -> Option<String> {
    if c.stdin_text.is_some() || c.inputs.is_empty() || !inline::runs_stdin(c) {
        return None;
    }
    let unknown_written = |name: &str| {
        let name = crate::paths::basename(name);
        script.written.iter().any(|(k, t)| k == name && t.is_none())
    };
    let project_file = |f: &crate::shell::Command| {
        let files = super::argv::args(f);
        super::argv::program(f) == "cat"
            && !files.is_empty()
            && (files.iter())
                .all(|a| !a.unresolved && !a.text.starts_with('-') && !unknown_written(&a.text))
    };
    let fed = c.inputs.iter().filter_map(|&i| script.commands.get(i));
    (!fed.clone().all(project_file)).then(|| {
        let from = fed.map(show).next().unwrap_or_default();
        format!("`{}` runs a program computed by `{from}`", show(c))
    })
}

/// Programs that print or send a file's contents: given a file only known at run time
/// (`cat "$F"`, `cat ${a[0]}`), what they read could be any credential.
const READERS: [&str; 24] = [
    "cat", "tac", "less", "more", "head", "tail", "nl", "strings", "od", "xxd", "hexdump",
    "base64", "base32", "cp", "scp", "rsync", "tar", "zip", "curl", "source", ".", "dd", "sed",
    "awk",
];

fn unknown_file(c: &crate::shell::Command) -> Option<String> {
    // The words are looked at first: most are known, and then no operand is gathered.
    let args = super::argv::args(c);
    if !args.iter().any(|a| a.unresolved) || !super::argv::listed(&READERS, super::argv::program(c))
    {
        return None;
    }
    let ops = super::argv::operands(args, &["-n", "-c", "-w", "-f", "-o"]);
    ops.iter()
        .any(|a| a.unresolved && a.text.trim_start_matches("./").chars().all(|ch| ch == '*'))
        .then(|| format!("`{}` reads a file only known when it runs", show(c)))
}
