//! A fast path for the common case: a script of plain words, pipes, `&&`/`||`/`;`/`&`,
//! newlines and simple file redirects. Such a script has nothing to expand or unquote, so its
//! words are its argv; anything else (a quote, `$`, a glob, a keyword, an assignment, …) goes to
//! the full parser. The property test `shell_fast_path_equals_parser` checks the two agree.

use super::RedirectKind;

/// One simple command: its words and its redirects `(fd, kind, target)`.
#[derive(Debug, Default)]
pub(super) struct Simple<'a> {
    pub words: Vec<&'a str>,
    pub redirects: Vec<(Option<u32>, RedirectKind, &'a str)>,
}

/// Characters bash gives no meaning inside a word (no quoting, expansion, globbing, comment).
fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || matches!(
            b,
            b'_' | b'.' | b'/' | b':' | b',' | b'+' | b'@' | b'%' | b'=' | b'-'
        )
}

/// Words that are syntax in command position.
const RESERVED: &[&str] = &[
    "if", "then", "else", "elif", "fi", "do", "done", "case", "esac", "while", "until", "for",
    "in", "select", "function", "time", "coproc",
];

/// The pipelines of `text` (and/or/sequence structure does not matter to the model), or
/// `None` when the script needs the full parser.
pub(super) fn parse(text: &str) -> Option<Vec<Vec<Simple<'_>>>> {
    let bytes = text.as_bytes();
    let mut list: Vec<Vec<Simple>> = Vec::new();
    let mut pipeline: Vec<Simple> = Vec::new();
    let mut cur = Simple::default();
    // After `|`, `&&`, `||` a command must follow (newlines may come first).
    let mut need_cmd = false;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b' ' | b'\t' => i += 1,
            b'\n' | b';' | b'&' | b'|' => {
                let next = bytes.get(i + 1).copied();
                let two = next == Some(b) && b != b'\n';
                if (b == b';' && two) || (b == b'|' && next == Some(b'&')) {
                    return None;
                }
                if b == b'&' && next == Some(b'>') {
                    return None;
                }
                i += if two { 2 } else { 1 };
                if cur.words.is_empty() && cur.redirects.is_empty() {
                    if b == b'\n' {
                        continue;
                    }
                    return None;
                }
                check(&cur)?;
                pipeline.push(std::mem::take(&mut cur));
                need_cmd = b == b'|' || two;
                if b != b'|' || two {
                    list.push(std::mem::take(&mut pipeline));
                }
            }
            b'<' | b'>' => {
                i = redirect(text, i, &mut cur)?;
            }
            _ if is_word_byte(b) => {
                let start = i;
                while i < bytes.len() && is_word_byte(bytes[i]) {
                    i += 1;
                }
                if matches!(bytes.get(i), Some(b'<' | b'>')) && is_fd(&text[start..i]) {
                    i = redirect(text, start, &mut cur)?;
                    continue;
                }
                cur.words.push(&text[start..i]);
            }
            _ => return None,
        }
    }
    if !cur.words.is_empty() || !cur.redirects.is_empty() {
        check(&cur)?;
        pipeline.push(cur);
    } else if need_cmd {
        return None;
    }
    if !pipeline.is_empty() {
        list.push(pipeline);
    }
    Some(list)
}

fn is_fd(word: &str) -> bool {
    !word.is_empty() && word.len() <= 3 && word.bytes().all(|b| b.is_ascii_digit())
}

/// A redirect starting at `i` (an optional fd then `<`, `>` or `>>`) and its target word;
/// returns where it ends.
fn redirect<'a>(text: &'a str, mut i: usize, cur: &mut Simple<'a>) -> Option<usize> {
    let bytes = text.as_bytes();
    let fd_start = i;
    while bytes[i].is_ascii_digit() {
        i += 1;
    }
    let fd = if i > fd_start {
        Some(text[fd_start..i].parse().ok()?)
    } else {
        None
    };
    let kind = match (bytes[i], bytes.get(i + 1)) {
        (b'>', Some(b'>')) => {
            i += 2;
            RedirectKind::Append
        }
        (b'>', Some(b'|' | b'&' | b'(')) | (b'<', Some(b'<' | b'>' | b'&' | b'(')) => return None,
        (b'>', _) => {
            i += 1;
            RedirectKind::Write
        }
        _ => {
            i += 1;
            RedirectKind::Read
        }
    };
    while matches!(bytes.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    let start = i;
    while i < bytes.len() && is_word_byte(bytes[i]) {
        i += 1;
    }
    if i == start || matches!(bytes.get(i), Some(b'<' | b'>')) {
        return None;
    }
    cur.redirects.push((fd, kind, &text[start..i]));
    Some(i)
}

/// What the fast path does not model: keywords and assignments in command position.
fn check(cmd: &Simple) -> Option<()> {
    match cmd.words.first() {
        Some(w) if RESERVED.contains(w) || w.contains('=') => None,
        _ => Some(()),
    }
}
