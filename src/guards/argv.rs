//! Reading an argv the way its program does: the program's name, combined short flags, long
//! flags, and the operands left once options and their values are skipped.

use crate::shell::{Arg, Command};

/// The program's name without its directory (`/usr/bin/rm` → `rm`, `\rm` is already `rm`).
pub fn program(cmd: &Command) -> &str {
    cmd.argv.first().map_or("", |a| basename(&a.text))
}

pub use crate::paths::basename;

/// The words that are no option (`aws --profile prod ec2 …` → `prod ec2 …`), for CLIs whose
/// command words may have options between them.
pub fn plain_words(args: &[Arg]) -> Vec<&str> {
    (args.iter().map(|x| x.text.as_str()))
        .filter(|t| !t.starts_with('-'))
        .collect()
}

/// Whether `words` stand one after another among `plain` (see `plain_words`).
pub fn says(plain: &[&str], words: &[&str]) -> bool {
    words.is_empty() || plain.windows(words.len()).any(|w| w == words)
}

/// Whether one of `flags` is given, alone or as `FLAG=VALUE`, spelled exactly (`-json`,
/// `--show-token`).
pub fn given(args: &[Arg], flags: &[&str]) -> bool {
    args.iter().any(|x| {
        (flags.iter())
            .any(|f| x.text == *f || x.text.strip_prefix(f).is_some_and(|r| r.starts_with('=')))
    })
}

/// git's global options that take the next word (`git -C repo push`).
pub const GIT_VALUED: [&str; 6] = [
    "-C",
    "-c",
    "--git-dir",
    "--work-tree",
    "--namespace",
    "--exec-path",
];

/// The options of the C family's compilers and preprocessor (gcc, clang, cpp) whose value is
/// the next word: one list for every reader of their command lines (outputs, the files they
/// read, what they build).
pub const CC_VALUED: [&str; 25] = [
    "-o",
    "-x",
    "-D",
    "-U",
    "-I",
    "-L",
    "-include",
    "-imacros",
    "-isystem",
    "-iquote",
    "-idirafter",
    "-iprefix",
    "-MF",
    "-MT",
    "-MQ",
    "-wrapper",
    "-Xlinker",
    "-Xassembler",
    "-Xpreprocessor",
    "-T",
    "-u",
    "-z",
    "--param",
    "-arch",
    "-target",
];

/// The path a word may name: the value of `--opt=value` / `if=value`, else the word. An `=`
/// inside a glob's bracket (`id_[[=r=]]sa`, an equivalence class) is the pattern's own.
pub fn path_word(a: &Arg) -> &str {
    match a.text.split_once('=') {
        Some((key, _)) if a.pattern && key.contains('[') => &a.text,
        Some((_, value)) => value,
        None => &a.text,
    }
}

/// Whether `word` is one of `list` (program names, options). Compared by length and last byte
/// first (options all begin with `-`): most words are in no list, and `contains` calls memcmp
/// for every entry of the same length — ~60 calls for an ordinary command line.
pub fn listed(list: &[&str], word: &str) -> bool {
    let w = word.as_bytes();
    list.iter().any(|x| {
        let x = x.as_bytes();
        x.len() == w.len() && x.last() == w.last() && x == w
    })
}

/// The words after the program.
pub fn args(cmd: &Command) -> &[Arg] {
    cmd.argv.get(1..).unwrap_or(&[])
}

/// Commands of up to this many words after the program have their distinct words found by
/// comparing in place (`Subject::distinct_args`).
pub const SHORT: usize = 16;

/// The same word for every guard: text and how it was expanded.
pub fn same_word(a: &Arg, b: &Arg) -> bool {
    a.text == b.text && a.pattern == b.pattern && a.unresolved == b.unresolved
}

/// For each word after the program, whether it is the first of its kind.
pub fn first_occurrences(cmd: &Command) -> impl Iterator<Item = bool> + '_ {
    let mut seen = rustc_hash::FxHashSet::default();
    args(cmd)
        .iter()
        .map(move |a| seen.insert((a.text.as_str(), a.pattern, a.unresolved)))
}

/// Whether a flag is given: `short` as `-r` or inside a cluster (`-rfv`), `long` as `--force`
/// or `--force=…`. Options end at `--`.
pub fn has_flag(args: &[Arg], short: &[char], long: &[&str]) -> bool {
    for a in args {
        let t = a.text.as_str();
        if t == "--" {
            break;
        }
        if let Some(name) = t.strip_prefix("--") {
            let name = name.split('=').next().unwrap_or(name);
            // GNU getopt takes any unambiguous prefix (`--recu` is `--recursive`); a prefix of
            // three or more letters is taken as the option it begins.
            if long
                .iter()
                .any(|l| *l == name || name.len() >= 3 && l.starts_with(name))
            {
                return true;
            }
        } else if let Some(cluster) = t.strip_prefix('-') {
            if cluster.chars().any(|c| short.contains(&c)) && !cluster.is_empty() {
                return true;
            }
        }
    }
    false
}

/// Operands: words that are not options. `takes_value` lists short and long options whose
/// value is the next word (`-n prod`, `--namespace prod`); everything after `--` is an operand.
pub fn operands<'a>(args: &'a [Arg], takes_value: &[&str]) -> Vec<&'a Arg> {
    let mut out = Vec::new();
    let mut it = args.iter();
    let mut options_done = false;
    while let Some(a) = it.next() {
        let t = a.text.as_str();
        if options_done || !t.starts_with('-') || t == "-" {
            out.push(a);
        } else if t == "--" {
            options_done = true;
        } else if listed(takes_value, t) || ends_in_valued(t, takes_value) {
            it.next();
        }
    }
    out
}

/// Values of an option wherever it appears: `-o F`, `-oF`, `-so F` (a cluster ending in it),
/// `--output F`, `--output=F`.
pub fn option_values<'a>(args: &'a [Arg], short: Option<&str>, long: &str) -> Vec<&'a str> {
    let letter = short
        .and_then(|s| s.strip_prefix('-'))
        .filter(|l| l.len() == 1);
    debug_assert!(long.starts_with('-') && short.is_none_or(|s| s.starts_with('-')));
    let mut out = Vec::new();
    for (i, a) in args.iter().enumerate() {
        let t = a.text.as_str();
        // Every form asked for starts with `-`: operands cost one byte's look.
        if !t.starts_with('-') {
            continue;
        }
        let next = || args.get(i + 1).map(|n| n.text.as_str());
        let cluster_ends = letter.is_some_and(|l| {
            t.len() > 2 && t.starts_with('-') && !t.starts_with("--") && t.ends_with(l)
        });
        if t == long || short == Some(t) || cluster_ends {
            out.extend(next());
        } else if let Some(v) = t.strip_prefix(long).and_then(|r| r.strip_prefix('=')) {
            out.push(v);
        } else if let Some(v) = short
            .and_then(|s| t.strip_prefix(s))
            .filter(|v| !v.is_empty() && !t.starts_with("--"))
        {
            out.push(v);
        }
    }
    out
}

/// `-dmS name`: a cluster of short flags whose last one takes the next word as its value.
fn ends_in_valued(t: &str, takes_value: &[&str]) -> bool {
    if t.starts_with("--") || !t.starts_with('-') || t.chars().count() <= 2 {
        return false;
    }
    let last = t.chars().last();
    takes_value
        .iter()
        .any(|v| v.len() == 2 && v.starts_with('-') && v.chars().nth(1) == last)
}

/// find's start points: after -H/-L/-P and `-D opts`/`-O level`, before the expression;
/// none means `.`.
pub fn find_roots(a: &[Arg]) -> Vec<Arg> {
    let mut i = 0;
    while let Some(x) = a.get(i) {
        match x.text.as_str() {
            "-H" | "-L" | "-P" => i += 1,
            "-D" => i += 2,
            t if t.starts_with("-O") => i += 1,
            _ => break,
        }
    }
    let roots: Vec<Arg> = a[i.min(a.len())..]
        .iter()
        .take_while(|x| !x.text.starts_with('-') && !matches!(x.text.as_str(), "(" | "!"))
        .cloned()
        .collect();
    if roots.is_empty() {
        return vec![Arg::literal(".")];
    }
    roots
}

/// `docker compose` / `docker-compose` options that take a value (before the subcommand).
pub const COMPOSE_VALUED: [&str; 16] = [
    "-f",
    "--file",
    "-p",
    "--project-name",
    "--project-directory",
    "--env-file",
    "--profile",
    "--ansi",
    "--progress",
    "--parallel",
    "-H",
    "--host",
    "-c",
    "--context",
    "--config",
    "--log-level",
];

#[cfg(test)]
mod tests {
    use super::listed;

    #[test]
    fn listed_is_exact_membership() {
        let shells = ["sh", "bash", "dash", "-c", ""];
        for w in ["sh", "bash", "dash", "-c", ""] {
            assert!(listed(&shells, w), "{w}");
        }
        // Same length and last byte, or a prefix, or another case: not listed.
        for w in ["ah", "bish", "bas", "bashh", "-C", "Bash", "s"] {
            assert!(!listed(&shells, w), "{w}");
        }
    }
}
