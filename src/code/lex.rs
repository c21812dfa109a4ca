//! Program text cut into the tokens the readers need: names, string literals (their value when
//! it is fixed text), numbers and punctuation. Comments are dropped. The lexer must see the
//! tokens the interpreter sees: where a reading could differ from the language's (a source
//! encoding other than UTF-8, a `/` that may divide or open a regular expression), the
//! program is not read (`tokens` fails with the reason) rather than read one way by guess.
//!
//! C/C++, Rust and Go (`literal` has their quoting) get three more things, so one reader walks
//! all five alike: a path's `::` is a member `.` (`std::fs::remove_file` is the chain
//! `std.fs.remove_file`), Go's line ends are the `;` its compiler inserts, and a C
//! preprocessor line (`#define CMD "rm"`) ends with a `;`.

mod quoted;
mod slash;
mod source;

pub(super) use quoted::escape;
use std::ops::Range;
use unicode_normalization::UnicodeNormalization;

#[derive(Debug, Clone, PartialEq)]
pub enum Tok {
    Name(String),
    /// A string literal: its value, or `None` when it is not known (unterminated, or an
    /// escape the lexer cannot decode).
    Str(Option<String>),
    /// An f-string or a template literal with placeholders: its text around them (one part
    /// more than placeholders). The placeholders' code follows it, each between two `;`.
    Template(Vec<String>),
    Num(String),
    Punct(char),
}

#[derive(Debug, Clone, Copy, PartialEq)]
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

pub type Spanned = (Tok, Range<usize>);

/// At most this many tokens are read; past it, a program is not read in part.
const MAX_TOKENS: usize = 20_000;

/// Placeholders inside placeholders inside…: a bound, as for the shell's nesting.
const MAX_DEPTH: u32 = 16;

/// Tokens of `code`, each with its byte span. The code inside an f-string's or a template
/// literal's placeholders (`f"{os.system('x')}"`, `` `${fs.readFileSync(p)}` ``) follows its
/// string token, after a `;`. Why not, when the program cannot be read as its interpreter
/// reads it (or is too long to read).
pub fn tokens(code: &str, lang: Lang) -> Result<Vec<Spanned>, String> {
    let start = source::start(code, lang)?;
    let mut lx = Lexer {
        code,
        b: code.as_bytes(),
        lang,
        out: Vec::new(),
    };
    lx.run(start, Stop::End, 0)?;
    Ok(lx.out)
}

/// Where a run of the lexer ends.
#[derive(Clone, Copy, PartialEq)]
enum Stop {
    /// At the end of the text.
    End,
    /// At the `}` closing a template literal's placeholder.
    Brace,
    /// At what ends the expression of an f-string's replacement field: its `}`, or the `!` of
    /// a conversion or the `:` of a format spec outside brackets.
    Field,
}

struct Lexer<'a> {
    code: &'a str,
    b: &'a [u8],
    lang: Lang,
    out: Vec<Spanned>,
}

/// What a run remembers between tokens.
#[derive(Default)]
struct Run {
    /// Open brackets (`(`, `[`, `{`) not closed yet in this run.
    depth: usize,
    /// For each open `(`, whether it opens an `if`/`while`/`for`/`with` header.
    parens: Vec<bool>,
    /// Whether the last `)` closed such a header.
    header: bool,
    /// The index in `out` of this run's last token: a template's own token (or a tagged
    /// one's `)`), not its placeholders' code, which `literal` holds until then.
    prev: Option<usize>,
    literal: Option<usize>,
    /// Inside a C preprocessor line; at the start of a line.
    directive: bool,
    line_start: bool,
}

impl Lexer<'_> {
    /// Lexes from `i` until `stop`: the index where it stopped.
    fn run(&mut self, mut i: usize, stop: Stop, nesting: u32) -> Result<usize, String> {
        if nesting > MAX_DEPTH {
            return Err("placeholders nested too deep to read".into());
        }
        let (b, lang) = (self.b, self.lang);
        let mut st = Run {
            line_start: true,
            ..Run::default()
        };
        while i < b.len() {
            if self.out.len() > MAX_TOKENS {
                return Err("a program too long to read".into());
            }
            let c = b[i];
            if c == b'\n' && lang.native() {
                st.directive = at_line_end(&mut self.out, lang, st.directive, i);
                st.line_start = true;
            }
            if let Some(end) = self.blank(i) {
                i = end;
                continue;
            }
            if let Some(end) = self.comment_end(i) {
                i = end;
                continue;
            }
            if st.depth == 0 && self.stops(i, stop) {
                return Ok(i);
            }
            st.directive |= lang == Lang::C && st.line_start && c == b'#';
            st.line_start = false;
            let before = self.out.len();
            i = self.token(i, &mut st, nesting)?;
            if self.out.len() > before {
                st.prev = Some(st.literal.take().unwrap_or(self.out.len() - 1));
            }
        }
        Ok(b.len())
    }

    /// Whether the text at `i` ends a run that stops at `stop` (outside brackets).
    fn stops(&self, i: usize, stop: Stop) -> bool {
        let b = self.b;
        match stop {
            Stop::End => false,
            Stop::Brace => b[i] == b'}',
            Stop::Field => {
                b[i] == b'}' || b[i] == b':' || b[i] == b'!' && b.get(i + 1) != Some(&b'=')
            }
        }
    }

    /// Whitespace, and a Python line continuation (`\` before a line break, which Python
    /// reads as a space: `import \⏎ subprocess`): the index after it.
    fn blank(&self, i: usize) -> Option<usize> {
        let b = self.b;
        if b[i].is_ascii_whitespace() {
            return Some(i + 1);
        }
        if self.lang == Lang::Python && b[i] == b'\\' {
            return match (b.get(i + 1), b.get(i + 2)) {
                (Some(b'\r'), Some(b'\n')) => Some(i + 3),
                (Some(b'\n' | b'\r'), _) => Some(i + 2),
                _ => None,
            };
        }
        // JavaScript's whitespace includes the Unicode spaces, its line terminators U+2028
        // and U+2029, and the byte-order mark.
        if self.lang != Lang::Js || b[i] < 0x80 {
            return None;
        }
        let ch = self.code[i..].chars().next()?;
        (ch.is_whitespace() || ch == '\u{feff}').then(|| i + ch.len_utf8())
    }

    /// The token at `i`, pushed on `out`: the index after it.
    fn token(&mut self, i: usize, st: &mut Run, nesting: u32) -> Result<usize, String> {
        let (code, b, lang) = (self.code, self.b, self.lang);
        let c = b[i];
        if lang.native() {
            if let Some((tok, end)) = super::literal::at(code, i, lang) {
                self.out.extend(tok.map(|t| (t, i..end)));
                return Ok(end);
            }
            if c == b':' && b.get(i + 1) == Some(&b':') {
                path_separator(&mut self.out, i);
                return Ok(i + 2);
            }
        } else if let Some(end) = self.string(i, st, nesting)? {
            return Ok(end);
        }
        if lang == Lang::Js && c == b'/' {
            if let Some(end) = self.regex(i, st)? {
                return Ok(end);
            }
        }
        if let Some((name, end)) = self.word(i) {
            self.out.push((Tok::Name(name), i..end));
            return Ok(end);
        }
        if c.is_ascii_digit() {
            let end = (i..b.len())
                .find(|&j| !(b[j].is_ascii_alphanumeric() || b[j] == b'_' || b[j] == b'.'))
                .unwrap_or(b.len());
            self.out.push((Tok::Num(code[i..end].to_string()), i..end));
            return Ok(end);
        }
        let ch = code[i..].chars().next().unwrap_or('\u{fffd}');
        self.brackets(ch, st);
        self.out.push((Tok::Punct(ch), i..i + ch.len_utf8()));
        Ok(i + ch.len_utf8())
    }

    /// Keeps count of the open brackets, and of which `(` open a statement's header (after
    /// whose `)` a `/` opens a regular expression).
    fn brackets(&self, ch: char, st: &mut Run) {
        match ch {
            '(' => {
                st.parens.push(slash::opens_header(&self.out, st.prev));
                st.depth += 1;
            }
            '[' | '{' => st.depth += 1,
            ')' => {
                st.header = st.parens.pop().unwrap_or(false);
                st.depth = st.depth.saturating_sub(1);
            }
            ']' | '}' => st.depth = st.depth.saturating_sub(1),
            _ => {}
        }
    }

    /// A name at `i` as its language compares names, and the index after it.
    fn word(&self, i: usize) -> Option<(String, usize)> {
        let (code, b) = (self.code, self.b);
        let c = b[i];
        match self.lang {
            // Python takes every character above ASCII into a name, then normalises it to
            // NFKC (PEP 3131): `ｅｘｅｃ` is `exec` (a name that normalises to no identifier
            // is a syntax error, and the program does not run).
            Lang::Python => {
                if !(c.is_ascii_alphabetic() || c == b'_' || c >= 0x80) {
                    return None;
                }
                let end = (i..b.len())
                    .find(|&j| !(b[j].is_ascii_alphanumeric() || b[j] == b'_' || b[j] >= 0x80))
                    .unwrap_or(b.len());
                let w = &code[i..end];
                Some((
                    if w.is_ascii() {
                        w.to_string()
                    } else {
                        w.nfkc().collect()
                    },
                    end,
                ))
            }
            Lang::Js => js_word(code, i),
            _ => {
                let first = code[i..].chars().next()?;
                if !(first.is_alphabetic() || first == '_' || first == '$') {
                    return None;
                }
                let end = code[i..]
                    .char_indices()
                    .find(|&(_, ch)| !(ch.is_alphanumeric() || ch == '_' || ch == '$'))
                    .map_or(code.len(), |(k, _)| i + k);
                Some((code[i..end].to_string(), end))
            }
        }
    }

    /// The end of a comment at `i`: Python's `#`, the `//` and `/* */` of the others. A line
    /// ends at `\r` too (Python reads `\r` as a line break; JavaScript ends a line at
    /// `\r`, U+2028 and U+2029): `# note\ros.system(…)` runs the call.
    fn comment_end(&self, i: usize) -> Option<usize> {
        let b = self.b;
        let line_end = |from: usize| match self.lang {
            Lang::Python | Lang::Js => self.line_end(from),
            _ => (from..b.len()).find(|&j| b[j] == b'\n').unwrap_or(b.len()),
        };
        match (self.lang, b[i], b.get(i + 1)) {
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

    /// The index of the line break at or after `from` (or the end), as Python and
    /// JavaScript break lines.
    fn line_end(&self, from: usize) -> usize {
        (from..self.b.len())
            .find(|&j| self.line_break(j))
            .unwrap_or(self.b.len())
    }

    fn line_break(&self, j: usize) -> bool {
        let b = self.b;
        match b[j] {
            b'\n' | b'\r' => true,
            // U+2028 and U+2029 (E2 80 A8/A9) end a JavaScript line.
            0xe2 => {
                self.lang == Lang::Js
                    && b.get(j + 1) == Some(&0x80)
                    && matches!(b.get(j + 2), Some(0xa8 | 0xa9))
            }
            _ => false,
        }
    }
}

/// A JavaScript name at `i` and the index after it. A `\u` escape in a name is the letter
/// it spells (`\u0072equire` is `require`, `\u{65}val` is `eval`).
fn js_word(code: &str, i: usize) -> Option<(String, usize)> {
    let mut name = String::new();
    let mut j = i;
    while let Some(ch) = code[j..].chars().next() {
        let (ch, len) = match ch {
            '\\' if code[j..].starts_with("\\u") => match escape(&code[j..]) {
                (e, len) if e.chars().count() == 1 && len > 2 => (e.chars().next()?, len),
                _ => break,
            },
            _ => (ch, ch.len_utf8()),
        };
        let part = ch.is_alphabetic() || ch == '_' || ch == '$';
        let more = ch.is_alphanumeric() || ch == '\u{200c}' || ch == '\u{200d}';
        if !(part || !name.is_empty() && more) {
            break;
        }
        name.push(ch);
        j += len;
    }
    (j > i).then_some((name, j))
}

/// At a line end of a native language: Go's inserted `;` (after a name, a literal or a
/// closing bracket, as its spec says), and the `;` that ends a C preprocessor line unless a
/// `\` continues it. Whether a directive goes on.
fn at_line_end(out: &mut Vec<Spanned>, lang: Lang, directive: bool, i: usize) -> bool {
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
fn path_separator(out: &mut Vec<Spanned>, i: usize) {
    let member = matches!(
        out.last().map(|x| &x.0),
        Some(Tok::Name(_) | Tok::Punct('>'))
    );
    if member {
        out.push((Tok::Punct('.'), i..i + 2));
    }
}

#[cfg(test)]
pub(super) mod tests;
