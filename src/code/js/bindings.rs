//! Where a JavaScript program gives a name another value: a declaration, an assignment or
//! update, a parameter, a catch or loop binding, a destructuring target, `with` or
//! `arguments`. Judged on tokens, generously: a use that merely looks like one of these
//! counts as a binding, never the other way.

use super::super::lex::Tok;
use super::super::reader::Reader;
use std::ops::Range;

/// A member name (`x.f`, `x?.f`), not the variable.
pub fn member(r: &Reader, j: usize) -> bool {
    j > 0 && r.punct(j - 1, '.')
}

/// A body longer than this is not searched for rebindings: its name is not followed.
const MAX_BODY: usize = 4096;

/// Whether anything in `body` may give `name` another value than the listing's: an
/// assignment or update, a declaration, a parameter, a catch or loop binding, a destructuring
/// target, `with` or `arguments` (a sloppy function's parameters alias it).
pub fn rebound(r: &Reader, name: &str, body: &Range<usize>) -> bool {
    let arguments = |j: usize| r.name(j) == Some("arguments") && !member(r, j);
    body.len() > MAX_BODY
        || body
            .clone()
            .any(|j| arguments(j) || binds_at(r, name, j, body.end))
}

/// Whether the program gives `name` a value anywhere but in the tokens the reader consumed
/// (the `require` or `import` it read), or reaches it through `with`.
pub fn bound_outside(r: &Reader, name: &str) -> bool {
    bound_outside_but(r, name, &(0..0))
}

/// `bound_outside`, with the tokens of `declaration` set aside too (a `const` being judged).
pub fn bound_outside_but(r: &Reader, name: &str, declaration: &Range<usize>) -> bool {
    let aside = |j: usize| r.used[j] || declaration.contains(&j);
    (0..r.t.len()).any(|j| !aside(j) && binds_at(r, name, j, r.t.len()))
}

/// Whether the tokens at `j` bind `name` (a declaration's reaching up to `end`).
fn binds_at(r: &Reader, name: &str, j: usize, end: usize) -> bool {
    let is = |j: usize| j < r.t.len() && r.name(j) == Some(name) && !member(r, j);
    let word = r.name(j).filter(|_| !member(r, j));
    let keyword = matches!(word, Some("with" | "eval"));
    let declares = match word {
        Some(k @ ("const" | "let" | "var" | "function" | "class" | "catch")) => {
            declared(r, j, k, name, end)
        }
        _ => false,
    };
    let changed = is(j)
        && (assigns(r, j + 1)
            || matches!(r.name(j + 1), Some("of" | "in"))
            || updated_before(r, j));
    // `f => …`, `(a, f) => …`; `[f] = …`, `({f} = …)`; `g(f) {…}` (a method's or a
    // function's parameters).
    let arrow = r.punct(j, '=') && r.punct(j + 1, '>');
    let params = arrow && j > 0 && (is(j - 1) || r.punct(j - 1, ')') && group(r, j - 1, name));
    let pattern = (r.punct(j, ']') || r.punct(j, '}')) && assigns(r, j + 1) && group(r, j, name);
    let method = r.punct(j, ')') && r.punct(j + 1, '{') && !control(r, j) && group(r, j, name);
    keyword || declares || changed || params || pattern || method
}

/// Whether the element ending before `j` sits in a destructuring pattern (`[path.join] = …`,
/// `({ a: path.join } = …)`): a bracket around it closes right before an assignment.
pub fn in_pattern(r: &Reader, j: usize) -> bool {
    let mut depth = 0usize;
    for k in j..(j + 256).min(r.t.len()) {
        match &r.t[k].0 {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ';') if depth == 0 => return false,
            // Out of one bracket, perhaps into the next one around it.
            Tok::Punct(']' | '}') if depth == 0 && assigns(r, k + 1) => return true,
            Tok::Punct(']' | '}') if depth == 0 => {}
            Tok::Punct(')' | ']' | '}') => depth -= 1,
            _ => {}
        }
    }
    false
}

/// Whether the tokens at `j` assign what comes before them: `=` (not `==`), `+=`, `??=`,
/// `>>>=`…, `++`, `--`.
pub fn assigns(r: &Reader, j: usize) -> bool {
    if r.punct(j, '=') {
        return !r.punct(j + 1, '=');
    }
    if (r.punct(j, '+') && r.punct(j + 1, '+')) || (r.punct(j, '-') && r.punct(j + 1, '-')) {
        return true;
    }
    let ops: String = (j..j + 4)
        .map_while(|k| match r.t.get(k).map(|x| &x.0) {
            Some(Tok::Punct(c)) if "+-*/%&|^<>?!".contains(*c) => Some(*c),
            _ => None,
        })
        .collect();
    let comparison = matches!(ops.as_str(), "" | "<" | ">" | "!");
    let at = j + ops.chars().count();
    !comparison && r.punct(at, '=') && !r.punct(at + 1, '=')
}

/// `++f`, `--f`.
fn updated_before(r: &Reader, j: usize) -> bool {
    j >= 2
        && ((r.punct(j - 1, '+') && r.punct(j - 2, '+'))
            || (r.punct(j - 1, '-') && r.punct(j - 2, '-')))
}

/// Whether the declaration by `keyword` at `k` binds `name`: its names up to the `=`, `of`,
/// `in` or `;` that ends them, or (a function, class or catch) up to its body.
fn declared(r: &Reader, k: usize, keyword: &str, name: &str, end: usize) -> bool {
    let body_opens = matches!(keyword, "function" | "class" | "catch");
    let mut depth = 0usize;
    for j in k + 1..end {
        match &r.t[j].0 {
            Tok::Punct('{') if depth == 0 && body_opens => return false,
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']' | '}') if depth == 0 => return false,
            Tok::Punct(')' | ']' | '}') => depth -= 1,
            Tok::Punct('=' | ';') if depth == 0 => return false,
            Tok::Name(n) if depth == 0 && (n == "of" || n == "in") => return false,
            Tok::Name(n) if n == name && !member(r, j) => return true,
            _ => {}
        }
    }
    false
}

/// `if (…) {`, `for [await] (…) {`, `while (…) {`, `switch (…) {`: a group that binds nothing (a
/// `for`'s own declarations are judged as declarations).
fn control(r: &Reader, close: usize) -> bool {
    opening(r, close).is_some_and(|open| {
        let word = |k: usize| open.checked_sub(k).and_then(|p| r.name(p));
        let control = |w: Option<&str>| matches!(w, Some("if" | "for" | "while" | "switch"));
        // `for await (…) {`.
        control(word(1)) || (word(1) == Some("await") && word(2) == Some("for"))
    })
}

/// Whether the bracket group closed at `close` holds `name`.
fn group(r: &Reader, close: usize, name: &str) -> bool {
    let Some(open) = opening(r, close) else {
        return true;
    };
    (open..close).any(|j| r.name(j) == Some(name) && !member(r, j))
}

/// The bracket that the one at `close` closes.
fn opening(r: &Reader, close: usize) -> Option<usize> {
    let mut depth = 0usize;
    for j in (0..=close).rev() {
        match &r.t[j].0 {
            Tok::Punct(')' | ']' | '}') => depth += 1,
            Tok::Punct('(' | '[' | '{') => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(j);
                }
            }
            _ => {}
        }
    }
    None
}
