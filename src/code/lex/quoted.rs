//! Python's and JavaScript's string literals: Python's quotes, triple quotes and prefixes
//! (`r`, `b`, `f`, `u`, two at most), JavaScript's quotes and template literals, each with
//! its language's escapes. The placeholders of an f-string or a template literal are lexed
//! as code where they stand, so a string, a comment or a regular expression in them (`` `${
//! /}/.source }` ``) is read as the interpreter reads it.

use super::{Lang, Lexer, Run, Stop, Tok};

#[derive(Default)]
struct Prefix {
    raw: bool,
    formatted: bool,
    bytes: bool,
}

/// The value a literal has so far: `None` once an escape makes it unknown.
type Text = Option<String>;

impl Lexer<'_> {
    /// A string literal at `i`, pushed with its placeholders' code after it: the index after
    /// it; `None` when no string starts here.
    pub(super) fn string(
        &mut self,
        i: usize,
        st: &mut Run,
        nesting: u32,
    ) -> Result<Option<usize>, String> {
        let (b, lang) = (self.b, self.lang);
        let Some((p, q)) = self.prefix(i) else {
            return Ok(None);
        };
        let quote = b[q];
        let template = lang == Lang::Js && quote == b'`';
        let triple =
            lang == Lang::Python && b.get(q + 1) == Some(&quote) && b.get(q + 2) == Some(&quote);
        let open = if triple { 3 } else { 1 };
        // A tagged template (`` $`rm -rf x` ``, `` exec`…` ``) calls its tag with the
        // template: read as the call `tag(`…`)` it amounts to.
        let tagged = template && tags(self, st);
        if tagged {
            self.out.push((Tok::Punct('('), i..i));
        }
        let at = self.out.len();
        self.out.push((Tok::Str(None), i..i));
        if tagged {
            self.out.push((Tok::Punct(')'), i..i));
            st.header = false;
        }
        st.literal = Some(self.out.len() - 1);
        let (mut j, mut value, mut parts) = (q + open, String::new(), Vec::new());
        let (mut closers, mut closed, mut known) = (Vec::new(), false, true);
        while j < b.len() {
            let ch = b[j];
            if ch == b'\\' {
                let (decoded, len) = self.escaped(j, &p);
                known &= decoded.is_some();
                value.push_str(&decoded.unwrap_or_default());
                j += len;
                continue;
            }
            if ch == quote
                && (!triple || b.get(j + 1) == Some(&quote) && b.get(j + 2) == Some(&quote))
            {
                j += open;
                closed = true;
                break;
            }
            // A line break ends no single-quoted string: unterminated.
            if !triple && !template && matches!(ch, b'\n' | b'\r') {
                break;
            }
            let doubled = p.formatted && matches!(ch, b'{' | b'}') && b.get(j + 1) == Some(&ch);
            let hole = if template && ch == b'$' && b.get(j + 1) == Some(&b'{') {
                2
            } else if p.formatted && ch == b'{' && !doubled {
                1
            } else {
                0
            };
            if hole > 0 {
                parts.push(std::mem::take(&mut value));
                self.out.push((Tok::Punct(';'), j + hole..j + hole));
                let close = if template {
                    self.run(j + hole, Stop::Brace, nesting + 1)?
                } else {
                    self.field(j + hole, nesting + 1)?
                };
                closers.push(self.out.len());
                self.out.push((Tok::Punct(';'), close..close));
                j = close + 1;
                continue;
            }
            let len = if doubled {
                2
            } else {
                self.code[j..].chars().next().map_or(1, char::len_utf8)
            };
            value.push_str(&self.code[j + usize::from(doubled)..j + len]);
            j += len;
        }
        let end = j.min(b.len());
        let tok = if !(closed && known) {
            Tok::Str(None)
        } else if parts.is_empty() {
            Tok::Str(Some(value))
        } else {
            parts.push(value);
            Tok::Template(parts)
        };
        self.out[at] = (tok, i..end);
        for k in closers.into_iter().chain(tagged.then_some(at + 1)) {
            self.out[k].1 = end..end;
        }
        Ok(Some(end))
    }

    /// A string's prefix at `i` and the index of its opening quote.
    fn prefix(&self, i: usize) -> Option<(Prefix, usize)> {
        let b = self.b;
        let mut p = Prefix::default();
        let mut q = i;
        if self.lang == Lang::Python {
            while q < b.len() && q - i < 2 && b"rRbBuUfF".contains(&b[q]) {
                p.raw |= matches!(b[q], b'r' | b'R');
                p.formatted |= matches!(b[q], b'f' | b'F');
                p.bytes |= matches!(b[q], b'b' | b'B');
                q += 1;
            }
        }
        match b.get(q)? {
            b'\'' | b'"' => Some((p, q)),
            b'`' if self.lang == Lang::Js => Some((p, q)),
            _ => None,
        }
    }

    /// The escape at the `\` at `j`: its value (`None` when unknown) and length. In a raw
    /// string the backslash stays, and still keeps the character after it (`r'\''` is one
    /// string of two characters).
    fn escaped(&self, j: usize, p: &Prefix) -> (Text, usize) {
        let s = &self.code[j..];
        if p.raw {
            let len = match s.as_bytes().get(1..3) {
                Some(b"\r\n") => 3,
                _ => 1 + s[1..].chars().next().map_or(0, char::len_utf8),
            };
            return (Some(s[..len].to_string()), len);
        }
        if self.lang == Lang::Python {
            return python_escape(s, p.bytes);
        }
        let (decoded, len) = escape(s);
        (Some(decoded), len)
    }

    /// The expression of an f-string's replacement field from `i`, then its conversion
    /// (`!r`) and format spec (`:>{width}`), which give it another value than the
    /// expression's (a fill character: `{'':/<1}` is `/`): they follow as tokens no value is
    /// known for. The index of the field's `}`.
    fn field(&mut self, i: usize, nesting: u32) -> Result<usize, String> {
        let b = self.b;
        let mut k = self.run(i, Stop::Field, nesting)?;
        if b.get(k) == Some(&b'!') {
            self.out.push((Tok::Punct('!'), k..k + 1));
            k += 1;
        }
        if b.get(k) == Some(&b':') {
            self.out.push((Tok::Punct(':'), k..k + 1));
            self.out.push((Tok::Str(None), k..k + 1));
            k += 1;
        }
        // The conversion's letter and the spec's text, with the fields nested in it.
        while k < b.len() && b[k] != b'}' {
            if b[k] == b'{' {
                self.out.push((Tok::Punct(';'), k..k + 1));
                k = self.field(k + 1, nesting + 1)?;
                self.out.push((Tok::Punct(';'), k..k));
            }
            k += 1;
        }
        Ok(k)
    }
}

/// Whether a template literal is tagged: it follows a name that is not a keyword (`` return
/// `x` `` is not a call), or a `)` (not an `if (…)` header's) or a `]`.
fn tags(lx: &Lexer, st: &Run) -> bool {
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
    match st.prev.map(|p| &lx.out[p].0) {
        Some(Tok::Name(n)) => !NOT_TAGS.contains(&n.as_str()),
        Some(Tok::Punct(')')) => !st.header,
        Some(Tok::Punct(']')) => true,
        _ => false,
    }
}

/// A Python escape at the start of `s`: its value and length. Python keeps the backslash of
/// an unknown escape (`'\q'` is two characters), and knows `\N{…}`, `\u` and `\U` only in a
/// `str`. A `\N{…}` name that is not an ASCII character's makes the value unknown.
fn python_escape(s: &str, bytes: bool) -> (Text, usize) {
    let Some(c) = s[1..].chars().next() else {
        return (Some("\\".into()), 1);
    };
    let simple = |ch: char| (Some(ch.to_string()), 1 + c.len_utf8());
    match c {
        '\n' => (Some(String::new()), 2),
        '\r' => (
            Some(String::new()),
            if s[2..].starts_with('\n') { 3 } else { 2 },
        ),
        '\\' | '\'' | '"' => simple(c),
        'a' => simple('\x07'),
        'b' => simple('\x08'),
        'f' => simple('\x0c'),
        'v' => simple('\x0b'),
        'n' | 'r' | 't' | '0'..='7' | 'x' => {
            let (decoded, len) = escape(s);
            (Some(decoded), len)
        }
        'u' | 'U' if !bytes && s.get(2..3) != Some("{") => {
            let (decoded, len) = escape(s);
            (Some(decoded), len)
        }
        'N' if !bytes => {
            let Some(close) = s.find('}').filter(|_| s.get(2..3) == Some("{")) else {
                return (None, 2);
            };
            (named(&s[3..close]).map(String::from), close + 1)
        }
        _ => (Some(format!("\\{c}")), 1 + c.len_utf8()),
    }
}

/// The ASCII character a Unicode name names (as `\N{…}` looks it up, in any case).
fn named(name: &str) -> Option<char> {
    const PUNCTUATION: [(&str, char); 33] = [
        ("SPACE", ' '),
        ("EXCLAMATION MARK", '!'),
        ("QUOTATION MARK", '"'),
        ("NUMBER SIGN", '#'),
        ("DOLLAR SIGN", '$'),
        ("PERCENT SIGN", '%'),
        ("AMPERSAND", '&'),
        ("APOSTROPHE", '\''),
        ("LEFT PARENTHESIS", '('),
        ("RIGHT PARENTHESIS", ')'),
        ("ASTERISK", '*'),
        ("PLUS SIGN", '+'),
        ("COMMA", ','),
        ("HYPHEN-MINUS", '-'),
        ("FULL STOP", '.'),
        ("SOLIDUS", '/'),
        ("COLON", ':'),
        ("SEMICOLON", ';'),
        ("LESS-THAN SIGN", '<'),
        ("EQUALS SIGN", '='),
        ("GREATER-THAN SIGN", '>'),
        ("QUESTION MARK", '?'),
        ("COMMERCIAL AT", '@'),
        ("LEFT SQUARE BRACKET", '['),
        ("REVERSE SOLIDUS", '\\'),
        ("RIGHT SQUARE BRACKET", ']'),
        ("CIRCUMFLEX ACCENT", '^'),
        ("LOW LINE", '_'),
        ("GRAVE ACCENT", '`'),
        ("LEFT CURLY BRACKET", '{'),
        ("VERTICAL LINE", '|'),
        ("RIGHT CURLY BRACKET", '}'),
        ("TILDE", '~'),
    ];
    const DIGITS: [&str; 10] = [
        "ZERO", "ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE",
    ];
    let name = name.to_ascii_uppercase();
    let letter = |prefix: &str| {
        let l = name.strip_prefix(prefix)?;
        (l.len() == 1 && l.as_bytes()[0].is_ascii_uppercase()).then(|| l.as_bytes()[0] as char)
    };
    if let Some(l) = letter("LATIN CAPITAL LETTER ") {
        return Some(l);
    }
    if let Some(l) = letter("LATIN SMALL LETTER ") {
        return Some(l.to_ascii_lowercase());
    }
    if let Some(d) = name.strip_prefix("DIGIT ") {
        let k = DIGITS.iter().position(|x| *x == d)?;
        return char::from_digit(k as u32, 10);
    }
    PUNCTUATION
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, c)| *c)
}

/// A backslash escape at the start of `s`: its value and length (JavaScript's and the
/// compiled languages' common escapes, octal ones included; others stand for themselves). A
/// backslash before a line break (`\n`, `\r\n`, `\r`, and JavaScript's U+2028 and U+2029)
/// continues the string on the next line.
pub fn escape(s: &str) -> (String, usize) {
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
        '\n' | '\u{2028}' | '\u{2029}' => (String::new(), 1 + c.len_utf8()),
        '\r' if s[2..].starts_with('\n') => (String::new(), 3),
        '\r' => (String::new(), 2),
        other => simple(other),
    }
}
