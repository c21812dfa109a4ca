//! Where a Python program gives a name (or an attribute) a value: an assignment or augmented
//! assignment, a walrus, a target list of `=` or `for … in`, `def`/`class`, `as`,
//! `global`/`nonlocal`/`del`, a parameter of a `def` or `lambda`, a capture in a `case`
//! pattern. Judged on tokens, without the line breaks that end Python statements, so it is
//! generous: a use that merely looks like one of these counts as a binding, never the other
//! way (the reader then follows the name less, and the program is judged as unread).

use super::super::lex::Tok;
use super::super::reader::Reader;
use std::ops::Range;

/// Words that take the value after them.
const PREFIXES: [&str; 5] = ["not", "await", "lambda", "yield", "async"];

/// Whether the word at `j`, right after a value, goes on with the expression: an operator, or
/// the `if` of a conditional expression (`a if c else b`), whose `else` comes before any `:`
/// (an `if` statement's header ends at its `:`). Any other word starts the next statement.
fn goes_on(r: &Reader, j: usize) -> bool {
    match r.name(j) {
        Some("and" | "or" | "not" | "in" | "is") => true,
        Some("if") => {
            let mut depth = 0usize;
            for k in j + 1..r.t.len() {
                match &r.t[k].0 {
                    Tok::Punct('(' | '[' | '{') => depth += 1,
                    Tok::Punct(')' | ']' | '}') => depth = depth.saturating_sub(1),
                    Tok::Punct(':') if depth == 0 => return false,
                    Tok::Name(n) if depth == 0 && n == "else" => return true,
                    _ => {}
                }
            }
            true
        }
        _ => false,
    }
}

/// Names through which a program can give any variable another value, or reach the
/// interpreter that holds them.
fn dynamic_name(n: &str) -> bool {
    matches!(
        n,
        "globals"
            | "locals"
            | "vars"
            | "exec"
            | "eval"
            | "compile"
            | "setattr"
            | "delattr"
            | "__dict__"
            | "__builtins__"
            | "builtins"
            | "__import__"
            | "importlib"
            | "modules"
            | "__main__"
            | "inspect"
            | "gc"
            | "ctypes"
            | "f_globals"
            | "f_locals"
            | "__globals__"
    )
}

/// Whether the program reaches names through the interpreter (`globals()`, `exec`,
/// `sys.modules`…), where any variable may be given any value.
pub fn dynamic(r: &Reader) -> bool {
    r.t.iter()
        .any(|(t, _)| matches!(t, Tok::Name(n) if dynamic_name(n)))
}

/// `NAME = EXPR` at `i` ending where a new statement starts: the name and the tokens of
/// the value.
pub fn assignment<'r>(r: &'r Reader, i: usize) -> Option<(&'r str, Range<usize>)> {
    let name = r.name(i)?;
    // `NAME = …`, or `NAME: T = …` (the value after the annotation's `=`).
    let eq = match r.punct(i + 1, ':') {
        true => (i + 2..(i + 2 + REACH).min(r.t.len())).find(|&j| r.punct(j, '='))?,
        false => i + 1,
    };
    if !r.punct(eq, '=') || r.punct(eq + 1, '=') || (eq > i + 1 && !annotated(r, i + 2)) {
        return None;
    }
    // Not a member, a target list or a call's keyword (`f(x='a')` binds nothing).
    if i > 0 && (r.punct(i - 1, '.') || r.punct(i - 1, ',')) || !binds_at(r, &(i..i + 1)) {
        return None;
    }
    let end = r.expression_end(eq + 1, &goes_on, &PREFIXES)?;
    // The statement ends there: a new one starts with a name (or the program ends).
    if end < r.t.len() && r.name(end).is_none() {
        return None;
    }
    Some((name, eq + 1..end))
}

/// How many places bind `name` (an import counts as two: its uses may be anywhere), up to 2.
pub fn bindings_of(r: &Reader, name: &str) -> usize {
    if r.binds.contains_key(name) {
        return 2;
    }
    (0..r.t.len())
        .filter(|&j| r.name(j) == Some(name) && !(j > 0 && r.punct(j - 1, '.')))
        .filter(|&j| binds_at(r, &(j..j + 1)))
        .take(2)
        .count()
}

/// Whether the element at `s` (a name, or a name with its attributes) is bound there.
pub fn binds_at(r: &Reader, s: &Range<usize>) -> bool {
    let before = s.start.checked_sub(1).and_then(|p| r.name(p));
    let keyword = matches!(
        before,
        Some("def" | "class" | "as" | "global" | "nonlocal" | "del" | "case" | "for")
    );
    keyword || target(r, s) || parameter(r, s.start) || case_pattern(r, s.start)
}

/// Part of a target list: followed, through `,`, `*`, attributes and brackets, by `=` or an
/// augmented `+=`, or by `in` after a `for`; after `global`, `nonlocal` or `del`; or named by
/// a walrus (`f := …`) or an annotated assignment (`f: T = …`).
fn target(r: &Reader, s: &Range<usize>) -> bool {
    if r.punct(s.end, ':') {
        return r.punct(s.end + 1, '=') || annotated(r, s.end + 1);
    }
    match forward(r, s.end) {
        // Inside a call's parentheses, `=` is a keyword argument's (`f(OUT, exist_ok=True)`).
        End::Assign => !call_argument(r, s.start),
        End::In => matches!(backward(r, s.start), Some("for" | FAR)),
        // `with x as (OUT, n):`, `global a, OUT`, `del a, OUT`, a `case` pattern's names.
        End::Other => matches!(
            backward(r, s.start),
            Some("global" | "nonlocal" | "del" | "as" | "case" | FAR)
        ),
    }
}

/// What `backward` answers when the target-shaped tokens go on past its reach: taken as a
/// binding (a 41-name tuple must not hide one).
const FAR: &str = "\u{0}far";

/// An annotation after `NAME:` that ends in `=` (`OUT: list[str] = …`): tokens at depth 0
/// up to an `=` that is not a comparison, before any `:` or a name that starts the next
/// statement. Not found within reach: taken as one.
fn annotated(r: &Reader, from: usize) -> bool {
    let mut depth = 0usize;
    let mut after_value = false;
    for j in from..(from + REACH).min(r.t.len()) {
        match &r.t[j].0 {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']' | '}') if depth == 0 => return false,
            Tok::Punct(')' | ']' | '}') => depth -= 1,
            Tok::Punct('=') if depth == 0 => {
                let compared = j > 0 && matches!(r.t[j - 1].0, Tok::Punct('<' | '>' | '!' | '='));
                return !compared && !r.punct(j + 1, '=');
            }
            Tok::Punct(':' | ';') if depth == 0 => return false,
            Tok::Name(_) if depth == 0 && after_value => return false,
            _ => {}
        }
        after_value = matches!(
            r.t[j].0,
            Tok::Name(_) | Tok::Str(_) | Tok::Num(_) | Tok::Punct(']')
        );
    }
    from + REACH < r.t.len()
}

/// How many tokens the target-shaped scans look at; past it, what they would find is taken
/// as a binding.
const REACH: usize = 256;

enum End {
    Assign,
    In,
    Other,
}

/// What ends the target-shaped tokens from `j`, right after an element.
fn forward(r: &Reader, mut j: usize) -> End {
    // Whether the next token must start an element (after `,`, `*`, `.` or an opening bracket).
    let mut need_element = false;
    for _ in 0..REACH {
        let Some((t, _)) = r.t.get(j) else {
            return End::Other;
        };
        match t {
            Tok::Punct('=') if r.punct(j + 1, '=') => return End::Other,
            Tok::Punct('=') => return End::Assign,
            Tok::Punct(c) if !need_element && augmented(r, j, *c) => return End::Assign,
            Tok::Name(n) if n == "in" => return End::In,
            Tok::Name(_) if need_element => need_element = false,
            // After an element, a bracket calls or subscripts it: no name is bound there.
            Tok::Punct('(' | '[') if need_element => {}
            Tok::Punct(',' | '*') => need_element = true,
            Tok::Punct(')' | ']') if !need_element => {}
            Tok::Punct('.') if !need_element => need_element = true,
            // A name right after an element starts the next statement.
            _ => return End::Other,
        }
        j += 1;
    }
    End::Assign
}

/// `+=`, `//=`, `**=`, `>>=`…: an operator (not a comparison) right before `=`.
fn augmented(r: &Reader, j: usize, c: char) -> bool {
    if !"+-*/%@&|^<>".contains(c) {
        return false;
    }
    let Some(k) = (j..j + 4).find(|&k| !r.t.get(k).is_some_and(|x| operator(&x.0))) else {
        return false;
    };
    let comparison = k == j + 1 && matches!(c, '<' | '>');
    r.punct(k, '=') && !r.punct(k + 1, '=') && !comparison
}

fn operator(t: &Tok) -> bool {
    matches!(t, Tok::Punct(c) if "+-*/%@&|^<>".contains(*c))
}

/// The word before the target-shaped tokens that end at `j`, if any.
fn backward<'r>(r: &'r Reader, mut j: usize) -> Option<&'r str> {
    // Whether the token before must end an element (before `,` or `.`).
    let mut need_end = false;
    for _ in 0..REACH {
        j = j.checked_sub(1)?;
        match (&r.t[j].0, need_end) {
            (Tok::Name(n), false) => return Some(n),
            (Tok::Name(_), true) | (Tok::Punct('(' | '[' | '*'), false) => need_end = false,
            (Tok::Punct(')' | ']'), true) => {}
            (Tok::Punct(',' | '.'), false) => need_end = true,
            _ => return None,
        }
    }
    Some(FAR)
}

/// Whether the token at `j` is inside the parentheses of a call (`f(x=1)`: a keyword
/// argument, which binds nothing in the caller).
fn call_argument(r: &Reader, j: usize) -> bool {
    let Some(o) = r.enclosing(j) else {
        return false;
    };
    let called = o > 0 && (r.punct(o - 1, ')') || r.punct(o - 1, ']') || r.name(o - 1).is_some());
    r.punct(o, '(') && called && !definition(r, o)
}

/// Whether the `(` at `o` opens a `def`'s parameters.
fn definition(r: &Reader, o: usize) -> bool {
    o >= 2 && r.name(o - 2) == Some("def")
}

/// A parameter of `def name(…)` or of a `lambda …:`.
fn parameter(r: &Reader, j: usize) -> bool {
    let def = r
        .enclosing(j)
        .is_some_and(|o| r.punct(o, '(') && definition(r, o));
    def || lambda(r, j)
}

/// Whether `lambda` comes before `j` in the same clause (`lambda a, OUT: …`).
fn lambda(r: &Reader, j: usize) -> bool {
    clause_after(r, j, "lambda")
}

/// Whether `j` lies in a `case` pattern (`case [a, OUT]:`, `case {"k": OUT}:`), where every
/// plain name captures.
fn case_pattern(r: &Reader, j: usize) -> bool {
    clause_after(r, j, "case")
}

/// Whether `word` starts the clause `j` is in: found looking back before a `:` or `;` outside
/// brackets (out of the brackets `j` sits in too: patterns nest). A clause longer than the
/// scans' reach counts when `word` appears anywhere before.
fn clause_after(r: &Reader, j: usize, word: &str) -> bool {
    let mut depth = 0usize;
    let from = j.saturating_sub(REACH);
    for k in (from..j).rev() {
        match &r.t[k].0 {
            Tok::Punct(')' | ']' | '}') => depth += 1,
            Tok::Punct('(' | '[' | '{') => depth = depth.saturating_sub(1),
            Tok::Punct(':' | ';') if depth == 0 => return false,
            Tok::Name(n) if depth == 0 && n == word => return true,
            _ => {}
        }
    }
    (0..from).any(|k| r.name(k) == Some(word))
}
