//! Directory listings followed into the names they give, Python's form of `js::listing`: in
//! `for f in os.listdir('data'):`, `f` is one entry of `data` (`Val::Entry`), and a name
//! given `os.path.join('data', f)` is some entry of it, which the guards judge as every
//! entry of `data`.
//!
//! Python's loop variable outlives its loop, and its statements end at line breaks that the
//! reader's tokens do not keep; so a name is followed only where the whole program binds it
//! once (`bindings`) and reaches no name through the interpreter (`globals()`, `exec`,
//! `sys.modules`…): then every use of it, anywhere, means that one binding.

use super::super::chain;
use super::super::lex::Tok;
use super::super::reader::{Dialect, Reader};
use super::super::Val;
use super::bindings;

/// Words that take the value after them.
const PREFIXES: [&str; 5] = ["not", "await", "lambda", "yield", "async"];

/// Whether the word at `j`, right after a value, goes on with the expression: an operator, or
/// the `if` of a conditional expression (`a if c else b`), whose `else` comes before any `:`
/// (an `if` statement's header ends at its `:`). Any other word starts the next statement.
fn operator(r: &Reader, j: usize) -> bool {
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
fn dynamic(n: &str) -> bool {
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

/// Fills `r.entries` with the names bound once to a listing's entries, or to a path built
/// from one.
pub fn bind(r: &mut Reader, d: &dyn Dialect) {
    let names = || {
        r.t.iter().filter_map(|(t, _)| match t {
            Tok::Name(n) => Some(n.as_str()),
            _ => None,
        })
    };
    if !names().any(|n| n == "listdir") || names().any(dynamic) {
        return;
    }
    let everywhere = 0..r.t.len();
    let loops: Vec<String> = (0..r.t.len())
        .filter(|&i| r.name(i) == Some("for"))
        .filter_map(|i| for_in(r, d, i))
        .filter(|name| bound_once(r, name))
        .collect();
    for name in loops {
        r.entries.push((name, everywhere.clone(), Val::Entry));
    }
    for i in 0..r.t.len() {
        if let Some((name, v)) = derived(r, d, i) {
            r.entries.push((name, everywhere.clone(), v));
        }
    }
}

/// `for NAME in LISTING` (a loop's or a comprehension's): the name.
fn for_in(r: &Reader, d: &dyn Dialect, i: usize) -> Option<String> {
    let name = r.name(i + 1)?;
    if r.name(i + 2) != Some("in") {
        return None;
    }
    let end = listing(r, d, i + 3)?;
    let ends = r.punct(end, ':') || r.punct(end, ']') || r.punct(end, ')') || r.punct(end, '}');
    (ends || r.name(end) == Some("if")).then(|| name.to_string())
}

/// The index after a listing at `i`: `os.listdir(DIR)` of a directory known without running
/// (imported as `listdir` or not), perhaps in `sorted(…)`.
fn listing(r: &Reader, d: &dyn Dialect, i: usize) -> Option<usize> {
    let c = chain::at(r.t, i)?;
    let sorted = match c.links.as_slice() {
        [link] if link.name == "sorted" => link,
        _ => return listdir(r, d, &c),
    };
    let [inner] = sorted.args.as_deref()? else {
        return None;
    };
    let builtin = bindings_of(r, "sorted") == 0;
    (builtin && listing(r, d, inner.start)? == inner.end).then_some(c.span.end)
}

/// The index after `os.listdir(DIR)` at the start of `c`.
fn listdir(r: &Reader, d: &dyn Dialect, c: &chain::Chain) -> Option<usize> {
    let mut name = d.qualified(r, &c.links[0].name)?;
    let k = c.links.iter().position(|l| l.args.is_some())?;
    for l in &c.links[1..=k] {
        name.push('.');
        name.push_str(&l.name);
    }
    let [dir] = c.links[k].args.as_deref()? else {
        return None;
    };
    let known = r.value(d, dir).is_some_and(|v| !v.is_entry());
    (name == "os.listdir" && known && k + 1 == c.links.len()).then_some(c.span.end)
}

/// `NAME = EXPR` at `i`, where the whole program binds `NAME` only there and `EXPR` is a path
/// built from an entry (`os.path.join('data', f)`, `f'data/{f}'`): the name and the value.
fn derived(r: &Reader, d: &dyn Dialect, i: usize) -> Option<(String, Val)> {
    let name = r
        .name(i)
        .filter(|_| r.punct(i + 1, '=') && !r.punct(i + 2, '='))?;
    if i > 0 && r.punct(i - 1, '.') {
        return None;
    }
    let end = r.expression_end(i + 2, &operator, &PREFIXES)?;
    // The statement ends there: a new one starts with a name (or the program ends).
    if end < r.t.len() && r.name(end).is_none() {
        return None;
    }
    let v = r.value(d, &(i + 2..end)).filter(Val::is_entry)?;
    (bindings_of(r, name) == 1).then(|| (name.to_string(), v))
}

/// Whether `name` is bound at exactly one place in the program, and not by an import.
fn bound_once(r: &Reader, name: &str) -> bool {
    bindings_of(r, name) == 1
}

/// How many places bind `name` (an import counts as two: its uses may be anywhere), up to 2.
fn bindings_of(r: &Reader, name: &str) -> usize {
    if r.binds.contains_key(name) {
        return 2;
    }
    (0..r.t.len())
        .filter(|&j| r.name(j) == Some(name) && !(j > 0 && r.punct(j - 1, '.')))
        .filter(|&j| bindings::binds_at(r, &(j..j + 1)))
        .take(2)
        .count()
}
