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

/// Fills `r.entries` with the names bound once to a listing's entries, or to a path built
/// from one.
pub fn bind(r: &mut Reader, d: &dyn Dialect) {
    let names = || {
        r.t.iter().filter_map(|(t, _)| match t {
            Tok::Name(n) => Some(n.as_str()),
            _ => None,
        })
    };
    if !names().any(|n| n == "listdir") || bindings::dynamic(r) {
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
    let builtin = bindings::bindings_of(r, "sorted") == 0;
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
    let (name, value) = bindings::assignment(r, i)?;
    let v = r.value(d, &value).filter(Val::is_entry)?;
    (bindings::bindings_of(r, name) == 1).then(|| (name.to_string(), v))
}

/// Whether `name` is bound at exactly one place in the program, and not by an import.
fn bound_once(r: &Reader, name: &str) -> bool {
    bindings::bindings_of(r, name) == 1
}
