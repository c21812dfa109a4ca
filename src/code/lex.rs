//! Program text cut into the tokens the readers need: names, string literals (their value when
//! it is fixed text), numbers and punctuation. Comments are dropped. The lexer is small on
//! purpose; where it could misread a language (a JavaScript regex literal holding a quote),
//! the readers' residual check on the raw text still sees every name it skipped.
//!
//! C/C++, Rust and Go (`literal` has their quoting) get three more things, so one reader walks
//! all five alike: a path's `::` is a member `.` (`std::fs::remove_file` is the chain
//! `std.fs.remove_file`), Go's line ends are the `;` its compiler inserts, and a C
//! preprocessor line (`#define CMD "rm"`) ends with a `;`.

#[derive(Debug, Clone, PartialEq)]
pub enum Tok {
    Name(String),
    /// A string literal: its value, or `None` when it is not known (unterminated).
    Str(Option<String>),
    /// An f-string or a template literal with placeholders: its text around them (one part
    /// more than placeholders). The placeholders' code follows it, each between two `;`.
    Template(Vec<String>),
    Num(String),
    Punct(char),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    Python,
    Js,
    /// C and C++.
    C,
    Rust,
    Go,
}

impl Lang {
    /// A compiled language whose literals `literal` lexes.
    pub fn native(self) -> bool {
        matches!(self, Lang::C | Lang::Rust | Lang::Go)
    }
}

/// At most this many tokens are read; past it, a program is not read in part.
const MAX_TOKENS: usize = 20_000;

/// Tokens of `code`, each with its byte span. The code inside an f-string's or a template
/// literal's placeholders (`f"{os.system('x')}"`, `` `${fs.readFileSync(p)}` ``) follows its
/// string token, after a `;`. `None` past `MAX_TOKENS` tokens.
pub fn tokens(code: &str, lang: Lang) -> Option<Vec<(Tok, std::ops::Range<usize>)>> {
    let mut out = Vec::new();
    lex_into(code, 0..code.len(), lang, &mut out, 0)?;
    Some(out)
}

fn lex_into(
    code: &str,
    range: std::ops::Range<usize>,
    lang: Lang,
    out: &mut Vec<(Tok, std::ops::Range<usize>)>,
    depth: u32,
) -> Option<()> {
    // Placeholders inside placeholders inside…: a bound, as for the shell's nesting.
    if depth > 16 {
        return None;
    }
    let b = &code.as_bytes()[..range.end];
    let mut i = range.start;
    // Inside a C preprocessor line; at the start of a line.
    let (mut directive, mut line_start) = (false, true);
    while i < b.len() {
        if out.len() > MAX_TOKENS {
            return None;
        }
        let c = b[i];
        let start = i;
        if c == b'\n' && lang.native() {
            directive = at_line_end(out, lang, directive, i);
            line_start = true;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if let Some(end) = comment_end(b, i, lang) {
            i = end;
            continue;
        }
        directive |= lang == Lang::C && line_start && c == b'#';
        line_start = false;
        if lang.native() {
            if let Some((tok, end)) = super::literal::at(&code[..range.end], i, lang) {
                out.extend(tok.map(|t| (t, start..end)));
                i = end;
                continue;
            }
            if c == b':' && b.get(i + 1) == Some(&b':') {
                path_separator(out, i);
                i += 2;
                continue;
            }
        } else if let Some((tok, end, holes)) = string(&code[..range.end], i, lang) {
            // A tagged template (`` $`rm -rf x` ``, `` exec`…` ``) calls its tag with the
            // template: read as the call `tag(`…`)` it amounts to.
            let tagged = c == b'`' && tags(out);
            if tagged {
                out.push((Tok::Punct('('), start..start));
            }
            out.push((tok, start..end));
            if tagged {
                out.push((Tok::Punct(')'), end..end));
            }
            for hole in holes {
                out.push((Tok::Punct(';'), hole.start..hole.start));
                lex_into(code, hole, lang, out, depth + 1)?;
                out.push((Tok::Punct(';'), end..end));
            }
            i = end;
            continue;
        }
        if lang == Lang::Js && c == b'/' && !after_value(out) {
            let end = regex_end(b, i);
            out.push((Tok::Str(None), start..end));
            i = end;
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' || c == b'$' || c >= 0x80 {
            let end = word_end(code, i);
            out.push((Tok::Name(code[i..end].to_string()), start..end));
            i = end;
            continue;
        }
        if c.is_ascii_digit() {
            let end = (i..b.len())
                .find(|&j| !(b[j].is_ascii_alphanumeric() || b[j] == b'_' || b[j] == b'.'))
                .unwrap_or(b.len());
            out.push((Tok::Num(code[i..end].to_string()), start..end));
            i = end;
            continue;
        }
        out.push((Tok::Punct(c as char), start..i + 1));
        i += 1;
    }
    Some(())
}

/// At a line end of a native language: Go's inserted `;` (after a name, a literal or a
/// closing bracket, as its spec says), and the `;` that ends a C preprocessor line unless a
/// `\` continues it. Whether a directive goes on.
fn at_line_end(
    out: &mut Vec<(Tok, std::ops::Range<usize>)>,
    lang: Lang,
    directive: bool,
    i: usize,
) -> bool {
    let last = out.last().map(|x| &x.0);
    let ends = match lang {
        Lang::Go => matches!(
            last,
            Some(
                Tok::Name(_)
                    | Tok::Num(_)
                    | Tok::Str(_)
                    | Tok::Template(_)
                    | Tok::Punct(')' | ']' | '}')
            )
        ),
        Lang::C if directive && last == Some(&Tok::Punct('\\')) => {
            // Continued on the next line: the backslash is no token of the directive.
            out.pop();
            false
        }
        Lang::C => directive,
        _ => false,
    };
    if ends {
        out.push((Tok::Punct(';'), i..i));
    }
    directive && !ends
}

/// `a::b` is the member `a.b`; a leading `::` (`::std::fs`, `::system(…)`) names the root and
/// is dropped, so the chain starts at the name after it.
fn path_separator(out: &mut Vec<(Tok, std::ops::Range<usize>)>, i: usize) {
    let member = matches!(
        out.last().map(|x| &x.0),
        Some(Tok::Name(_) | Tok::Punct('>'))
    );
    if member {
        out.push((Tok::Punct('.'), i..i + 2));
    }
}

/// Whether a `/` here divides (after a value) rather than opens a regular expression.
fn after_value(out: &[(Tok, std::ops::Range<usize>)]) -> bool {
    const OPERATOR_WORDS: [&str; 8] = [
        "return", "typeof", "in", "of", "new", "delete", "void", "case",
    ];
    match out.last().map(|x| &x.0) {
        Some(Tok::Name(n)) => !OPERATOR_WORDS.contains(&n.as_str()),
        Some(Tok::Num(_) | Tok::Str(_) | Tok::Template(_)) => true,
        Some(Tok::Punct(p)) => matches!(p, ')' | ']' | '}'),
        None => false,
    }
}

/// The end of a regular expression literal opened at `i`: past its closing `/` (outside a
/// `[…]` class, not escaped) and its flags; the line's end when unclosed.
fn regex_end(b: &[u8], i: usize) -> usize {
    let (mut j, mut class) = (i + 1, false);
    while j < b.len() && b[j] != b'\n' {
        match b[j] {
            b'\\' => j += 1,
            b'[' => class = true,
            b']' => class = false,
            b'/' if !class => {
                j += 1;
                while j < b.len() && b[j].is_ascii_alphabetic() {
                    j += 1;
                }
                return j;
            }
            _ => {}
        }
        j += 1;
    }
    j.min(b.len())
}

/// The end of a placeholder whose `{` is just before `i`: the index of its matching `}`.
fn placeholder_end(code: &str, mut i: usize, lang: Lang) -> usize {
    let b = code.as_bytes();
    let mut depth = 1;
    while i < b.len() {
        if let Some((_, end, _)) = string(code, i, lang) {
            i = end;
            continue;
        }
        match b[i] {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
        i += 1;
    }
    b.len()
}

fn word_end(code: &str, from: usize) -> usize {
    code[from..]
        .char_indices()
        .find(|&(_, ch)| !(ch.is_alphanumeric() || ch == '_' || ch == '$'))
        .map_or(code.len(), |(k, _)| from + k)
}

fn comment_end(b: &[u8], i: usize, lang: Lang) -> Option<usize> {
    let line_end = |from: usize| (from..b.len()).find(|&j| b[j] == b'\n').unwrap_or(b.len());
    match (lang, b[i], b.get(i + 1)) {
        (Lang::Python, b'#', _) => Some(line_end(i)),
        (Lang::Python, ..) => None,
        (_, b'/', Some(b'/')) => Some(line_end(i)),
        (_, b'/', Some(b'*')) => Some(
            (i + 2..b.len().saturating_sub(1))
                .find(|&j| b[j] == b'*' && b[j + 1] == b'/')
                .map_or(b.len(), |j| j + 2),
        ),
        _ => None,
    }
}

/// Whether a template literal after the tokens so far is tagged: it follows a name that is
/// not a keyword (`` return `x` `` is not a call), a `)` or a `]`.
fn tags(out: &[(Tok, std::ops::Range<usize>)]) -> bool {
    const NOT_TAGS: [&str; 14] = [
        "return",
        "await",
        "yield",
        "typeof",
        "void",
        "delete",
        "case",
        "in",
        "of",
        "new",
        "throw",
        "else",
        "do",
        "instanceof",
    ];
    match out.last().map(|x| &x.0) {
        Some(Tok::Name(n)) => !NOT_TAGS.contains(&n.as_str()),
        Some(Tok::Punct(')' | ']')) => true,
        _ => false,
    }
}

/// A string literal starting at `i`: Python's `'…'`, `"…"`, triple quotes and prefixes
/// (`r`, `b`, `f`, `u`, two at most), JavaScript's quotes and template literals. With its end
/// and the byte ranges of its placeholders' code.
type Lexed = (Tok, usize, Vec<std::ops::Range<usize>>);

fn string(code: &str, i: usize, lang: Lang) -> Option<Lexed> {
    let b = code.as_bytes();
    let mut q = i;
    let (mut raw, mut formatted) = (false, false);
    if lang == Lang::Python {
        while q < b.len() && q - i < 2 && b"rRbBuUfF".contains(&b[q]) {
            raw |= matches!(b[q], b'r' | b'R');
            formatted |= matches!(b[q], b'f' | b'F');
            q += 1;
        }
        if q > i && (q + 1 > b.len() || !matches!(b[q], b'\'' | b'"')) {
            return None;
        }
        // A prefix must start a word: `xr'…'` is a name then a string.
        if q > i && i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_') {
            return None;
        }
    }
    let quote = *b.get(q)?;
    let template = lang == Lang::Js && quote == b'`';
    if !(quote == b'\'' || quote == b'"' || template) {
        return None;
    }
    let triple =
        lang == Lang::Python && b.get(q + 1) == Some(&quote) && b.get(q + 2) == Some(&quote);
    let open = if triple { 3 } else { 1 };
    let mut j = q + open;
    let mut value = String::new();
    let mut parts = Vec::new();
    let mut holes = Vec::new();
    while j < b.len() {
        let ch = b[j];
        if ch == b'\\' && !raw {
            let (decoded, len) = escape(&code[j..]);
            value.push_str(&decoded);
            j += len;
            continue;
        }
        if ch == quote && (!triple || b.get(j + 1) == Some(&quote) && b.get(j + 2) == Some(&quote))
        {
            let end = j + open;
            let tok = if holes.is_empty() {
                Tok::Str(Some(value))
            } else {
                parts.push(value);
                Tok::Template(parts)
            };
            return Some((tok, end, holes));
        }
        // A lone line break ends nothing in a Python single-quoted string: unterminated.
        if ch == b'\n' && lang == Lang::Python && !triple {
            return Some((Tok::Str(None), j, holes));
        }
        let opens = if template && ch == b'$' && b.get(j + 1) == Some(&b'{') {
            2
        } else if formatted && ch == b'{' && b.get(j + 1) == Some(&b'{') {
            value.push('{');
            j += 2;
            continue;
        } else if formatted && ch == b'{' {
            1
        } else {
            0
        };
        if opens > 0 {
            let end = placeholder_end(code, j + opens, lang);
            parts.push(std::mem::take(&mut value));
            holes.push(j + opens..end);
            j = end + 1;
            continue;
        }
        let len = code[j..].chars().next().map_or(1, char::len_utf8);
        value.push_str(&code[j..j + len]);
        j += len;
    }
    // Unterminated: whatever follows is text, not code.
    Some((Tok::Str(None), b.len(), holes))
}

/// A backslash escape at the start of `s`: its value and length (the languages' common
/// escapes, octal ones included; others stand for themselves).
pub(super) fn escape(s: &str) -> (String, usize) {
    let mut chars = s.chars();
    chars.next();
    let Some(c) = chars.next() else {
        return (String::new(), 1);
    };
    let hex = |digits: usize| {
        let h = s.get(2..2 + digits)?;
        let v = u32::from_str_radix(h, 16).ok()?;
        Some((char::from_u32(v)?.to_string(), 2 + digits))
    };
    let simple = |ch: char| (ch.to_string(), 1 + c.len_utf8());
    match c {
        'n' => simple('\n'),
        't' => simple('\t'),
        'r' => simple('\r'),
        '0'..='7' => {
            // `\0`, `\033`, `\101`: up to three octal digits.
            let digits = s[1..]
                .bytes()
                .take(3)
                .take_while(|d| (b'0'..=b'7').contains(d))
                .count();
            let v = u32::from_str_radix(&s[1..1 + digits], 8).unwrap_or(0);
            match char::from_u32(v) {
                Some(ch) => (ch.to_string(), 1 + digits),
                None => simple(c),
            }
        }
        'x' => hex(2).unwrap_or_else(|| simple('x')),
        'u' if s.get(2..3) == Some("{") => {
            let close = s.find('}').unwrap_or(2);
            let v = s
                .get(3..close)
                .and_then(|h| u32::from_str_radix(h, 16).ok());
            match v.and_then(char::from_u32) {
                Some(ch) => (ch.to_string(), close + 1),
                None => simple('u'),
            }
        }
        'u' => hex(4).unwrap_or_else(|| simple('u')),
        'U' => hex(8).unwrap_or_else(|| simple('U')),
        '\n' => (String::new(), 2),
        other => simple(other),
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// The tokens of `code` without their spans (also for `literal`'s tests).
    pub(in crate::code) fn toks(code: &str, lang: Lang) -> Vec<Tok> {
        tokens(code, lang)
            .unwrap()
            .into_iter()
            .map(|(t, _)| t)
            .collect()
    }

    #[test]
    fn python_strings_prefixes_and_comments() {
        let t = toks(
            "open(r'a\\b', f\"{x}\") # open('.env')\nb'\\x41'",
            Lang::Python,
        );
        assert_eq!(
            t,
            vec![
                Tok::Name("open".into()),
                Tok::Punct('('),
                Tok::Str(Some("a\\b".into())),
                Tok::Punct(','),
                Tok::Template(vec![String::new(), String::new()]),
                Tok::Punct(';'),
                Tok::Name("x".into()),
                Tok::Punct(';'),
                Tok::Punct(')'),
                Tok::Str(Some("A".into())),
            ]
        );
        assert_eq!(
            toks("'''a\n'b'''", Lang::Python),
            vec![Tok::Str(Some("a\n'b".into()))]
        );
    }

    #[test]
    fn js_templates_and_comments() {
        let t = toks("fs.rmSync(`/x`, `${h}/y`) /* a */ // b", Lang::Js);
        assert_eq!(t[4], Tok::Str(Some("/x".into())));
        assert_eq!(t[6], Tok::Template(vec![String::new(), "/y".into()]));
        assert_eq!(t[8], Tok::Name("h".into()));
        assert_eq!(t.len(), 11);
        // A regular expression holding a quote is no string.
        let t = toks("x = /'/; f('a')", Lang::Js);
        assert_eq!(t[2], Tok::Str(None));
        assert_eq!(t[5], Tok::Punct('('));
        assert_eq!(
            toks("'\\u{2f}\\u002f'", Lang::Js),
            vec![Tok::Str(Some("//".into()))]
        );
    }
}
