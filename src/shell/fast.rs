//! A fast path for the common case (brush-parser costs ~15 µs for 60 characters; the hook's
//! whole budget is 10): a script of words, pipes, `&&`/`||`/`;`/`&`, newlines and simple file
//! redirects, whose words use only single quotes, double quotes, backslashes, `$NAME`/`${NAME}`,
//! a leading `~` and glob characters. Its words are cut into the same pieces brush's word parser
//! gives, and expanded by the same code. Anything else (`$(`, braces, parentheses, keywords,
//! assignments, comments, here-docs, …) goes to the full parser. The property test
//! `shell_fast_path_equals_parser` checks both paths give the same `Script`.

use brush_parser::word::{Parameter, ParameterExpr, TildeExpr, WordPiece, WordPieceWithSource};

use super::RedirectKind;

/// One simple command: its words and its redirects `(fd, kind, target)`.
#[derive(Debug, Default)]
pub(super) struct Simple<'a> {
    pub words: Vec<Word<'a>>,
    pub redirects: Vec<(Option<u32>, RedirectKind, &'a str)>,
}

impl Simple<'_> {
    /// The words joined by spaces, as the parsed path gives a command's source.
    pub fn source(&self) -> String {
        let len = self.words.iter().map(|w| w.text.len() + 1).sum();
        let mut out = String::with_capacity(len);
        for (i, w) in self.words.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(w.text);
        }
        out
    }
}

/// A word as written, and its pieces when it needs expansion (`None`: it is its own text).
#[derive(Debug)]
pub(super) struct Word<'a> {
    pub text: &'a str,
    pub pieces: Option<Vec<WordPiece>>,
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
    "!", "[[", "]]", "if", "then", "else", "elif", "fi", "do", "done", "case", "esac", "while",
    "until", "for", "in", "select", "function", "time", "coproc",
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
            _ => {
                let start = i;
                let (end, pieces) = word(text, i)?;
                i = end;
                if matches!(bytes.get(i), Some(b'<' | b'>')) && is_fd(&text[start..i]) {
                    i = redirect(text, start, &mut cur)?;
                    continue;
                }
                cur.words.push(Word {
                    text: &text[start..i],
                    pieces,
                });
            }
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
    let ends = matches!(
        bytes.get(i),
        None | Some(b' ' | b'\t' | b'\n' | b';' | b'&' | b'|')
    );
    if i == start || !ends {
        return None;
    }
    cur.redirects.push((fd, kind, &text[start..i]));
    Some(i)
}

/// What the fast path does not model: keywords and assignments in command position.
fn check(cmd: &Simple) -> Option<()> {
    match cmd.words.first() {
        Some(w) if RESERVED.contains(&w.text) || w.text.contains('=') => None,
        _ => Some(()),
    }
}

fn is_unquoted_byte(b: u8) -> bool {
    is_word_byte(b) || b >= 0x80 || matches!(b, b'*' | b'?' | b'[' | b']' | b'^' | b'#' | b'~')
}

fn piece(piece: WordPiece) -> WordPieceWithSource {
    WordPieceWithSource {
        piece,
        start_index: 0,
        end_index: 0,
    }
}

/// The word starting at `start`: where it ends, and its pieces (`None` when it is plain text).
fn word(text: &str, start: usize) -> Option<(usize, Option<Vec<WordPiece>>)> {
    let bytes = text.as_bytes();
    let mut i = start;
    while i < bytes.len() && is_word_byte(bytes[i]) {
        i += 1;
    }
    let end_plain = matches!(
        bytes.get(i),
        None | Some(b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'<' | b'>')
    );
    if i > start && end_plain {
        return Some((i, None));
    }
    if bytes[start] == b'#' {
        return None;
    }
    let mut pieces = Vec::new();
    let mut text_run = String::new();
    i = start;
    while let Some(&b) = bytes.get(i) {
        match b {
            b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'<' | b'>' => break,
            b'~' if i == start => {
                if !matches!(
                    bytes.get(i + 1),
                    None | Some(b'/' | b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'<' | b'>')
                ) {
                    return None;
                }
                pieces.push(WordPiece::TildeExpansion(TildeExpr::Home));
                i += 1;
            }
            b'\'' => {
                flush(&mut text_run, &mut pieces);
                let close = text[i + 1..].find('\'')? + i + 1;
                pieces.push(WordPiece::SingleQuotedText(text[i + 1..close].to_owned()));
                i = close + 1;
            }
            b'"' => {
                flush(&mut text_run, &mut pieces);
                let (end, inner) = double_quoted(text, i + 1)?;
                pieces.push(WordPiece::DoubleQuotedSequence(inner));
                i = end;
            }
            b'\\' => {
                flush(&mut text_run, &mut pieces);
                let c = text[i + 1..].chars().next().filter(|&c| c != '\n')?;
                pieces.push(WordPiece::EscapeSequence(format!("\\{c}")));
                i += 1 + c.len_utf8();
            }
            b'$' => {
                flush(&mut text_run, &mut pieces);
                let (end, name) = parameter(text, i)?;
                pieces.push(named(name));
                i = end;
            }
            _ if is_unquoted_byte(b) => {
                let run = i;
                while bytes
                    .get(i)
                    .is_some_and(|&b| is_unquoted_byte(b) && b != b'~')
                {
                    i += 1;
                }
                if i == run {
                    text_run.push('~');
                    i += 1;
                } else {
                    text_run.push_str(&text[run..i]);
                }
            }
            _ => return None,
        }
    }
    flush(&mut text_run, &mut pieces);
    Some((i, Some(pieces)))
}

fn flush(run: &mut String, pieces: &mut Vec<WordPiece>) {
    if !run.is_empty() {
        pieces.push(WordPiece::Text(std::mem::take(run)));
    }
}

fn named(name: &str) -> WordPiece {
    WordPiece::ParameterExpansion(ParameterExpr::Parameter {
        parameter: Parameter::Named(name.to_owned()),
        indirect: false,
    })
}

/// `$NAME` or `${NAME}` at `i`: where it ends and the name.
fn parameter(text: &str, i: usize) -> Option<(usize, &str)> {
    let rest = &text[i + 1..];
    let braced = rest.starts_with('{');
    let body = if braced { &rest[1..] } else { rest };
    let len = body
        .bytes()
        .position(|b| !(b.is_ascii_alphanumeric() || b == b'_'))
        .unwrap_or(body.len());
    let name = &body[..len];
    if name.is_empty() || name.as_bytes()[0].is_ascii_digit() {
        return None;
    }
    if braced {
        if body.as_bytes().get(len) != Some(&b'}') {
            return None;
        }
        return Some((i + 1 + 1 + len + 1, name));
    }
    Some((i + 1 + len, name))
}

/// The inside of `"…"` from `i` (after the quote): where it ends (after the closing quote) and
/// its pieces.
fn double_quoted(text: &str, mut i: usize) -> Option<(usize, Vec<WordPieceWithSource>)> {
    let bytes = text.as_bytes();
    let mut inner = Vec::new();
    let mut run = String::new();
    loop {
        let b = *bytes.get(i)?;
        match b {
            b'"' => break,
            b'`' => return None,
            b'\\' => match bytes.get(i + 1) {
                Some(&e @ (b'$' | b'`' | b'"' | b'\\')) => {
                    if !run.is_empty() {
                        inner.push(piece(WordPiece::Text(std::mem::take(&mut run))));
                    }
                    inner.push(piece(WordPiece::EscapeSequence(format!("\\{}", e as char))));
                    i += 2;
                }
                Some(b'\n') | None => return None,
                Some(_) => {
                    run.push('\\');
                    i += 1;
                }
            },
            b'$' => {
                if !run.is_empty() {
                    inner.push(piece(WordPiece::Text(std::mem::take(&mut run))));
                }
                let (end, name) = parameter(text, i)?;
                inner.push(piece(named(name)));
                i = end;
            }
            _ => {
                let start = i;
                while bytes
                    .get(i)
                    .is_some_and(|&b| !matches!(b, b'"' | b'`' | b'\\' | b'$'))
                {
                    i += 1;
                }
                run.push_str(&text[start..i]);
            }
        }
    }
    if !run.is_empty() {
        inner.push(piece(WordPiece::Text(run)));
    }
    Some((i + 1, inner))
}
