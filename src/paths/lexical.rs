//! Lexical path arithmetic: `.`, `..` and repeated slashes removed without touching the disk.
//! This is what `path.resolve` does in the host; the kernel resolves `..` after following
//! symlinks instead, so a symlinked directory can lead elsewhere (out of reach without I/O).

/// Joins a relative path to the directory it is relative to.
pub(crate) fn join(dir: &str, path: &str) -> String {
    if path.starts_with('/') {
        return path.to_string();
    }
    format!("{dir}/{path}")
}

/// Normalises `.`/`..`/`//` and drops a trailing slash. `..` at the root stays at the root (as
/// the kernel does); a relative path keeps leading `..` it cannot cancel.
pub(crate) fn normalise(path: &str) -> String {
    let absolute = path.starts_with('/');
    let mut kept: Vec<&str> = Vec::new();
    for segment in path.split('/') {
        match segment {
            "" | "." => {}
            ".." => match kept.last() {
                Some(&last) if last != ".." => {
                    kept.pop();
                }
                _ if absolute => {}
                _ => kept.push(".."),
            },
            s => kept.push(s),
        }
    }
    match (absolute, kept.is_empty()) {
        (true, _) => format!("/{}", kept.join("/")),
        (false, true) => ".".to_string(),
        (false, false) => kept.join("/"),
    }
}

/// Rewrites escapes to one canonical form: an escape is kept only before a glob metacharacter
/// or a backslash (`\.` is `.`, `\/` a separator), and a trailing lone `\` is a backslash.
/// After this, splitting on `/` and comparing segments with `.`/`..` is sound.
pub(crate) fn canonical_escapes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some(n @ ('*' | '?' | '[' | ']' | '\\')) => {
                out.push('\\');
                out.push(n);
            }
            Some(n) => out.push(n),
            None => out.push_str("\\\\"),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dots_and_slashes() {
        assert_eq!(normalise("/srv//app/./x/../.env/"), "/srv/app/.env");
        assert_eq!(normalise("/../../etc/shadow"), "/etc/shadow");
        assert_eq!(normalise("a/../../b"), "../b");
        assert_eq!(normalise("./"), ".");
    }

    #[test]
    fn escapes_canonical() {
        assert_eq!(canonical_escapes("a\\.b\\*c\\/d\\"), "a.b\\*c/d\\\\");
    }
}
