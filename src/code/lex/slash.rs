//! JavaScript's `/`: a division after a value, a regular expression where an expression
//! starts. The lexer must tell them apart as the parser does: a regular expression holding a
//! quote (`else /'/.test(s)`) read as a division opens a string that hides the code after it,
//! and a division read as a regular expression hides the code up to the next `/`.
//!
//! Most places are sure (after a name or a literal, a division; after an operator or a
//! keyword like `return`, a regular expression; after the `)` of an `if (…)` header, a
//! regular expression; after a postfix `++`, a division). After a `}` (a block, or an object
//! or function as a value) and after `yield`, `await` and `of` (keywords in some places,
//! names in others) both can be meant: the `/` is read as a division when both readings give
//! the same tokens after it, and the program is not read otherwise.

use super::{Lexer, Run, Spanned, Tok};

/// Keywords after which an expression starts: a `/` there opens a regular expression.
const BEFORE_EXPRESSION: [&str; 13] = [
    "return",
    "typeof",
    "instanceof",
    "in",
    "new",
    "delete",
    "void",
    "case",
    "else",
    "do",
    "throw",
    "extends",
    "default",
];

/// Words that are keywords in some places and names in others (`yield` outside a generator,
/// `await` outside an async function, `of` outside a `for … of`).
const CONTEXTUAL: [&str; 3] = ["yield", "await", "of"];

enum Slash {
    Divide,
    Regex,
    Unsure,
}

/// Whether a `(` after the token at `prev` opens the header of an `if`, `while`, `for` (or
/// `for await`) or `with` statement, after whose `)` a statement starts.
pub(super) fn opens_header(out: &[Spanned], prev: Option<usize>) -> bool {
    let name = |k: Option<usize>| match k.and_then(|k| out.get(k)) {
        Some((Tok::Name(n), _)) => Some(n.as_str()),
        _ => None,
    };
    let before = prev.and_then(|p| p.checked_sub(1));
    match name(prev) {
        Some("if" | "while" | "for" | "with") => !member(out, prev),
        Some("await") => name(before) == Some("for"),
        _ => false,
    }
}

/// Whether the name at `k` is a property (`x.return`, `a?.of`): a value, not a keyword.
fn member(out: &[Spanned], k: Option<usize>) -> bool {
    let before = k.and_then(|k| k.checked_sub(1)).and_then(|k| out.get(k));
    matches!(before, Some((Tok::Punct('.'), _)))
}

impl Lexer<'_> {
    /// A regular expression at the `/` at `i`, pushed as a string of unknown value: the
    /// index after it; `None` for a division.
    pub(super) fn regex(&mut self, i: usize, st: &Run) -> Result<Option<usize>, String> {
        match self.slash(st) {
            Slash::Divide => Ok(None),
            Slash::Unsure if self.reads_alike(i) => Ok(None),
            Slash::Unsure => Err("a `/` that may divide or open a regular expression".into()),
            Slash::Regex => {
                let end = self.regex_close(i).map_or_else(
                    || self.line_end(i),
                    |close| close + 1 + flags(&self.b[close + 1..]),
                );
                self.out.push((Tok::Str(None), i..end));
                Ok(Some(end))
            }
        }
    }

    fn slash(&self, st: &Run) -> Slash {
        let Some(p) = st.prev else {
            return Slash::Regex;
        };
        match &self.out[p].0 {
            Tok::Name(_) if member(&self.out, Some(p)) => Slash::Divide,
            Tok::Name(n) if BEFORE_EXPRESSION.contains(&n.as_str()) => Slash::Regex,
            Tok::Name(n) if CONTEXTUAL.contains(&n.as_str()) => Slash::Unsure,
            Tok::Name(_) | Tok::Num(_) | Tok::Str(_) | Tok::Template(_) => Slash::Divide,
            Tok::Punct(')') if st.header => Slash::Regex,
            Tok::Punct(')' | ']') => Slash::Divide,
            Tok::Punct('}') => Slash::Unsure,
            Tok::Punct(c @ ('+' | '-')) => self.after_increment(p, *c),
            Tok::Punct(_) => Slash::Regex,
        }
    }

    /// After `+` or `-` at `p`: an operand follows a single one (`a + /x/`); after `++` or
    /// `--` a division follows when it is postfix, after a value on the same line (`n++ / 2`,
    /// where a line break would end the statement before it: `a⏎++/x/.lastIndex`).
    fn after_increment(&self, p: usize, c: char) -> Slash {
        let out = &self.out;
        let mut k = p;
        while k > 0 && out[k - 1].0 == Tok::Punct(c) && out[k - 1].1.end == out[k].1.start {
            k -= 1;
        }
        // A run of an odd length ends in a lone sign.
        if !(p - k + 1).is_multiple_of(2) {
            return Slash::Regex;
        }
        let Some(q) = k.checked_sub(1) else {
            return Slash::Regex;
        };
        let same_line = !(out[q].1.end..out[k].1.start).any(|j| self.line_break(j));
        let value = match &out[q].0 {
            Tok::Name(n) => {
                !BEFORE_EXPRESSION.contains(&n.as_str()) && !CONTEXTUAL.contains(&n.as_str())
            }
            Tok::Num(_) | Tok::Str(_) | Tok::Template(_) | Tok::Punct(')' | ']') => true,
            Tok::Punct('}') if same_line => return Slash::Unsure,
            Tok::Punct(_) => false,
        };
        if value && same_line {
            Slash::Divide
        } else {
            Slash::Regex
        }
    }

    /// Whether the `/` at `i` gives the same tokens read either way: no regular expression
    /// closes on its line, or the one that would has only names, numbers and operators in it
    /// (no quote, bracket or backslash to read differently) and no `/` follows it.
    fn reads_alike(&self, i: usize) -> bool {
        let b = self.b;
        let Some(close) = self.regex_close(i) else {
            return true;
        };
        let plain = b[i + 1..close]
            .iter()
            .all(|&c| c.is_ascii_alphanumeric() || b" \t_$.,;:=+-*&|^!?<>%~@".contains(&c));
        let after = close + 1 + flags(&b[close + 1..]);
        let next = (after..b.len()).find(|&j| !b[j].is_ascii_whitespace());
        plain && !matches!(next.map(|j| b[j]), Some(b'/' | b'*'))
    }

    /// The closing `/` of a regular expression opened at `i` (outside a `[…]` class, not
    /// escaped), on its line.
    fn regex_close(&self, i: usize) -> Option<usize> {
        let b = self.b;
        let (mut j, mut class) = (i + 1, false);
        while j < b.len() && !self.line_break(j) {
            match b[j] {
                b'\\' => j += 1,
                b'[' => class = true,
                b']' => class = false,
                b'/' if !class => return Some(j),
                _ => {}
            }
            j += 1;
        }
        None
    }
}

/// The length of a regular expression's flags at the start of `b`.
fn flags(b: &[u8]) -> usize {
    b.iter().take_while(|c| c.is_ascii_alphabetic()).count()
}
