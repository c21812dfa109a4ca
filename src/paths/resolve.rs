//! From the text of a path argument to the absolute path a tool would open. Two readers: the
//! shell (a quote-removed word, where unescaped `*?[` are a pattern) and the host's file tools
//! (`read`/`write`/`edit` `path`, a literal with the host's own prefixes).

use once_cell::sync::Lazy;
use regex::Regex;
use unicode_normalization::UnicodeNormalization;

use super::glob::{escape, has_pattern, unescape};
use super::lexical::{canonical_escapes, join, normalise};
use super::url::file_url_path;
use super::{PathContext, Resolved};

/// A word as a shell command receives it, after quote removal. The shell model hands quoted
/// glob characters (and backslashes) escaped with `\`, so `'.e*'` arrives as `.e\*` and names
/// one file, while `.e*` is a pattern. `~`, `~/…`, `~+` and `~user` are expanded as bash does
/// (for `~user` we can only guess the home: `/root` or `/home/user`).
pub fn resolve(raw: &str, ctx: &PathContext) -> Resolved {
    match plain(raw, ctx.cwd) {
        Some(path) => Resolved {
            path,
            pattern: false,
        },
        None => resolve_any(raw, ctx),
    }
}

/// Most words (`src`, `/tmp/ls.txt`, `-n`) have nothing for the passes of `resolve_any` to
/// change, and each pass copies the text: for those the answer is the joined path itself, the
/// same as `resolve_any` gives (a property test checks) at a tenth of the cost.
fn plain(raw: &str, cwd: Option<&str>) -> Option<String> {
    // No tilde, escape or glob character to interpret, and ASCII (so already NFC).
    // One pass over the word: a word is short, and memchr's searches cost more to set up than
    // such a scan.
    let literal = |s: &str| {
        let special = |c: u8| !c.is_ascii() || matches!(c, b'\\' | b'*' | b'?' | b'[' | b']');
        !s.bytes().any(special)
    };
    if raw.starts_with('~') || !literal(raw) {
        return None;
    }
    let joined = match cwd {
        Some(dir) if !raw.starts_with('/') => {
            if !literal(dir) {
                return None;
            }
            // Pushed rather than `format!`ed: every word of every command comes here.
            let mut joined = String::with_capacity(dir.len() + 1 + raw.len());
            joined.push_str(dir);
            joined.push('/');
            joined.push_str(raw);
            joined
        }
        _ => raw.to_string(),
    };
    let body = joined.strip_prefix('/').unwrap_or(&joined);
    // Already lexically normal (no empty, `.` or `..` segment), and no `/proc` alias.
    let marked = has_dot_or_empty_segment(body.as_bytes());
    let normal = joined == "/"
        || !(body.is_empty()
            || matches!(body, "." | "..")
            || body.starts_with('/')
            || body.starts_with("./")
            || body.starts_with("../")
            || body.ends_with('/')
            || body.ends_with("/.")
            || body.ends_with("/..")
            || marked);
    (normal && !joined.starts_with("/proc/")).then_some(joined)
}

/// Text of up to this many bytes is scanned byte by byte: setting up memchr's and memmem's
/// searches costs more than a short word's scan; they pay on long text only.
const SHORT_SCAN: usize = 64;

/// Whether a path holds `//`, `/./` or `/../`: an empty, `.` or `..` segment inside it.
fn has_dot_or_empty_segment(bytes: &[u8]) -> bool {
    let after_slash = |i: usize| {
        let rest = &bytes[i + 1..];
        rest.starts_with(b"/") || rest.starts_with(b"./") || rest.starts_with(b"../")
    };
    if bytes.len() <= SHORT_SCAN {
        return (0..bytes.len()).any(|i| bytes[i] == b'/' && after_slash(i));
    }
    // Searched with memmem, not slash by slash: a script that `cd`s deeper line after line
    // makes working directories kilobytes long (a thousand slashes), and every word of every
    // line is joined to one. `/./` and `/../` both begin with `/.`, which is rare in a path (a
    // dotfile). Searchers built once: building one per word cost more than a short word's
    // search.
    static DOUBLE_SLASH: Lazy<memchr::memmem::Finder<'static>> =
        Lazy::new(|| memchr::memmem::Finder::new("//"));
    static SLASH_DOT: Lazy<memchr::memmem::Finder<'static>> =
        Lazy::new(|| memchr::memmem::Finder::new("/."));
    DOUBLE_SLASH.find(bytes).is_some() || SLASH_DOT.find_iter(bytes).any(after_slash)
}

fn resolve_any(raw: &str, ctx: &PathContext) -> Resolved {
    let expanded = shell_tilde(raw, ctx);
    let text = canonical_escapes(&expanded);
    let cwd = ctx.cwd.map(escape);
    let path = absolute_nfc(&text, cwd.as_deref());
    if has_pattern(&path) {
        Resolved {
            path,
            pattern: true,
        }
    } else {
        Resolved {
            path: unescape(&path),
            pattern: false,
        }
    }
}

/// A shell word with `~` expanded and joined to the working directory, before any `.`/`..`
/// is taken: what `links::follow` walks component by component (glob characters escaped as
/// in `resolve`).
pub(super) fn joined(raw: &str, ctx: &PathContext) -> String {
    let text = canonical_escapes(&shell_tilde(raw, ctx));
    match ctx.cwd {
        Some(dir) => join(&escape(dir), &text),
        None => text,
    }
}

/// A `path` parameter of the host's `read`/`write`/`edit` tools, resolved as OpenClaw 2026.9.6
/// does: `normalizeFileToolPathParam` (before-tool-call), then `resolveLocalPathToCwd` →
/// `expandPath` → `resolveToCwd` (`src/agents/sessions/tools/path-utils.ts`). The read tool does
/// not glob: `*` here is a character of the name.
pub fn resolve_literal(raw: &str, ctx: &PathContext) -> Resolved {
    let repaired = repair_model_suffixes(raw);
    let text = expand_host_path(&file_reference(&repaired), ctx);
    Resolved {
        path: absolute_nfc(&text, ctx.cwd),
        pattern: false,
    }
}

/// Joins to the working directory when there is one, normalises lexically, composes to NFC
/// (the form the host tries when the exact spelling is missing; macOS filesystems compose too).
pub(super) fn absolute_nfc(text: &str, cwd: Option<&str>) -> String {
    let joined = match cwd {
        Some(dir) => join(dir, text),
        None => text.to_string(),
    };
    let aliased = dev_fd_alias(joined);
    let normal = proc_alias(&normalise(&super::dotdot::through_links(&aliased)), cwd);
    match unicode_normalization::is_nfc_quick(normal.chars()) {
        unicode_normalization::IsNormalized::Yes => normal,
        _ => normal.nfc().collect(),
    }
}

/// `/dev/fd` is a link to `/proc/self/fd`, so `/dev/fd/../environ` is `/proc/self/environ`:
/// rewritten before `..` is taken lexically.
fn dev_fd_alias(path: String) -> String {
    match path.strip_prefix("/dev/fd") {
        Some(rest) if rest.is_empty() || rest.starts_with('/') => format!("/proc/self/fd{rest}"),
        _ => path,
    }
}

/// `/proc/<pid>/root` is a link to that process's root and `/proc/self/cwd` to the caller's
/// working directory, so `/proc/self/root/etc/shadow` is `/etc/shadow`. Rewritten lexically
/// (also under `task/<tid>/`, and for a pattern pid); another process's cwd is unknown and is
/// left as written.
fn proc_alias(path: &str, cwd: Option<&str>) -> String {
    let segments: Vec<&str> = path.split('/').collect();
    let (pid, link, rest) = match segments.as_slice() {
        ["", "proc", pid, "task", _, link, rest @ ..] => (*pid, *link, rest),
        ["", "proc", pid, link, rest @ ..] => (*pid, *link, rest),
        _ => return path.to_string(),
    };
    let base = match (link, pid) {
        ("root", _) => "",
        ("cwd", "self" | "thread-self") => match cwd {
            Some(dir) => dir.trim_end_matches('/'),
            None => return path.to_string(),
        },
        _ => return path.to_string(),
    };
    // The target may itself be a /proc alias (`/proc/self/root/proc/1/root/…`).
    let rewritten = normalise(&format!("{base}/{}", rest.join("/")));
    proc_alias(&rewritten, cwd)
}

/// `normalizeFileToolPathParam`: the host strips a stray `</arg_value>>` some models append and
/// fixes hallucinated Office extensions (`.docxodex` → `.docx`) before anything else, so
/// `.env</arg_value>>` opens `.env`.
fn repair_model_suffixes(raw: &str) -> String {
    static XML_SUFFIX: Lazy<Regex> =
        Lazy::new(|| Regex::new(r"</arg_value>>+$").expect("static regex"));
    static OFFICE: Lazy<Regex> = Lazy::new(|| {
        Regex::new(r"(?i)\.(doc|ppt|xls)(?:odex|codex|xodex|xcodex)$").expect("static regex")
    });
    // Both rewrites touch a suffix; most paths have neither and skip the regexes.
    if !raw.ends_with('>') && !raw.to_ascii_lowercase().ends_with("odex") {
        return raw.to_string();
    }
    let stripped = XML_SUFFIX.replace(raw, "");
    OFFICE
        .replace(&stripped, |c: &regex::Captures| {
            format!(".{}x", c[1].to_ascii_lowercase())
        })
        .into_owned()
}

/// `normalizeFileReferencePrefix`: one leading `@` is a file reference and is dropped; a second
/// one is kept as part of a relative name. The host also keeps the first `@` when a file named
/// `@…` exists (`preserveAtPrefixedRelativePath`, an I/O check): we always judge the stripped
/// name, the one that can reach a protected file.
fn file_reference(text: &str) -> String {
    match text.strip_prefix('@') {
        Some(rest) if rest.starts_with('@') => format!("./{rest}"),
        Some(rest) => rest.to_string(),
        None => text.to_string(),
    }
}

/// `expandPath`: a `file://` URL through `fileURLToPath` (kept as text if that throws), else
/// `~` / `~/…` with the OS home (`expandOsHomePrefix`; `~user` is not expanded by the host).
fn expand_host_path(text: &str, ctx: &PathContext) -> String {
    if text.starts_with("file://") {
        return file_url_path(text).unwrap_or_else(|| text.to_string());
    }
    match (ctx.home, text.strip_prefix('~')) {
        (Some(home), Some(rest)) if rest.is_empty() || rest.starts_with('/') => {
            format!("{home}{rest}")
        }
        _ => text.to_string(),
    }
}

/// Bash tilde expansion of an unquoted word: the prefix up to the first `/` must be unescaped.
fn shell_tilde(raw: &str, ctx: &PathContext) -> String {
    let Some(rest) = raw.strip_prefix('~') else {
        return raw.to_string();
    };
    let (name, tail) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let dir = match name {
        "" => ctx.home.map(str::to_string),
        "+" => ctx.cwd.map(str::to_string),
        "root" => Some("/root".to_string()),
        n if is_user_name(n) => Some(format!("/home/{n}")),
        _ => None, // `~-` (OLDPWD, unknown) or a quoted prefix: left as written.
    };
    match dir {
        Some(dir) => format!("{}{tail}", escape(&dir)),
        None => raw.to_string(),
    }
}

/// POSIX portable user names: what bash would look up for `~name`.
fn is_user_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('-')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::Strategy;

    #[test]
    fn model_suffixes_repaired_like_the_host() {
        assert_eq!(repair_model_suffixes(".env</arg_value>>"), ".env");
        assert_eq!(
            repair_model_suffixes(".env</arg_value>"),
            ".env</arg_value>"
        );
        assert_eq!(repair_model_suffixes("a.DOCxodex"), "a.docx");
    }

    /// Text made of the pieces each pass of `resolve_any` interprets.
    fn text(pieces: &'static [&'static str], n: usize) -> impl Strategy<Value = String> {
        proptest::collection::vec(proptest::sample::select(pieces), 0..n).prop_map(|v| v.concat())
    }

    const WORD: &[&str] = &[
        "/../",
        "/./",
        "//",
        "a",
        "b",
        "/",
        ".",
        "..",
        "~",
        "*",
        "?",
        "\\",
        "[",
        "]",
        "\u{e9}",
        "e\u{301}",
        "proc",
        "self",
        "root",
        "cwd",
        "-",
        "+",
        "/proc/self/root",
        "/proc/self/cwd",
    ];
    const DIR: &[&str] = &[
        "/", "w", ".", "..", "*", "\\", "[", "\u{e9}", "proc", "self",
    ];

    proptest::proptest! {
        /// The shortcut for plain words gives what the full resolution gives.
        #[test]
        fn plain_words_resolve_as_any_word(
            raw in text(WORD, 8),
            cwd in proptest::option::of(text(DIR, 5)),
            home in proptest::option::of(text(DIR, 3)),
        ) {
            let ctx = PathContext { cwd: cwd.as_deref(), home: home.as_deref() };
            proptest::prop_assert_eq!(resolve(&raw, &ctx), resolve_any(&raw, &ctx));
        }
    }

    #[test]
    fn plain_words_take_the_shortcut() {
        assert_eq!(
            plain("src/x.txt", Some("/w")).as_deref(),
            Some("/w/src/x.txt")
        );
        assert_eq!(
            plain("/tmp/ls.txt", Some("/w")).as_deref(),
            Some("/tmp/ls.txt")
        );
        for other in [
            "../x",
            "a/../b",
            "a/./b",
            "./a",
            "a/.",
            "a/..",
            ".",
            "a//b",
            "a/",
            "~/x",
            "a\\b",
            "*.rs",
            "/proc/self/root/x",
            "caf\u{e9}",
        ] {
            assert_eq!(plain(other, Some("/w")), None, "{other}");
        }
    }

    #[test]
    fn at_prefix_like_the_host() {
        assert_eq!(file_reference("@.env"), ".env");
        assert_eq!(file_reference("@@.env"), "./@.env");
        assert_eq!(file_reference("a@b"), "a@b");
    }
}
