//! Directory listings followed into the names they give: in `for (const f of
//! fs.readdirSync('data')) {…}` or `fs.readdirSync('data').forEach(f => …)`, `f` is one entry
//! of the directory (`Val::Entry`), so `'data/' + f` or `path.join('data', f)` is some entry of
//! `data`, which the guards judge as every entry of it (`Reader::emit`). A listing kept in a
//! `const` (`const files = fs.readdirSync('data')`) is followed where the program only iterates
//! or reads it.
//!
//! A name is followed only where the listing's binding is the one it means: inside the loop's
//! braces or the callback, and only when nothing there may bind or assign the name again
//! (`rebound`). Anything else — a listing with options that change what it gives
//! (`withFileTypes`, `recursive`), a name passed to a function, a `var`, a callback given by
//! name — is not followed, and a path built from it stays one computed at run time.

use super::super::chain::{self, Chain};
use super::super::lex::Tok;
use super::super::reader::{Dialect, Reader};
use super::bindings::{assigns, member, rebound};
use super::{module_name, normal, Val};
use std::collections::HashMap;
use std::ops::Range;

/// A word that joins two values in an expression; words that take the value after them.
pub fn operator(r: &Reader, j: usize) -> bool {
    matches!(r.name(j), Some("in" | "instanceof" | "of" | "as"))
}
pub const PREFIXES: [&str; 7] = ["await", "new", "typeof", "void", "delete", "yield", "async"];

/// Array methods whose callback is given the entries (first parameter).
const CALLBACKS: [&str; 8] = [
    "forEach",
    "filter",
    "map",
    "flatMap",
    "some",
    "every",
    "find",
    "findIndex",
];

/// Array methods whose result still holds only entries of the listing.
const KEEPS: [&str; 6] = [
    "filter",
    "sort",
    "slice",
    "reverse",
    "toSorted",
    "toReversed",
];

/// What a program may do with a `const` listing and still have it followed: iterate it, or
/// read it through a callback method, one that keeps its entries, or these.
fn reads(member: &str) -> bool {
    CALLBACKS.contains(&member)
        || KEEPS.contains(&member)
        || matches!(member, "includes" | "indexOf" | "length" | "join")
}

/// Fills `r.entries` with the names bound to a listing's entries and where each is meant.
pub fn bind(r: &mut Reader, d: &dyn Dialect) {
    let names = || {
        r.t.iter().filter_map(|(t, _)| match t {
            Tok::Name(n) => Some(n.as_str()),
            _ => None,
        })
    };
    if !names().any(listing_name) || names().any(reshapes) || computed_builtin(r) {
        return;
    }
    let lists = kept_lists(r, d);
    let mut found = Vec::new();
    for i in 0..r.t.len() {
        if r.name(i) == Some("for") {
            found.extend(for_of(r, d, &lists, i));
        }
        if let Some(c) = chain::at(r.t, i) {
            found.extend(callbacks(r, d, &lists, &c, i));
        }
    }
    found.retain(|(name, body)| !rebound(r, name, body));
    for (name, body) in &found {
        r.entries.push((name.clone(), body.clone(), Val::Entry));
    }
    for (_, body) in &found {
        paths_in(r, d, body);
    }
}

/// `const p = path.join('data', f)` in a body where `f` is an entry: `p` is some entry of
/// `data` where the declaration is the one it means.
fn paths_in(r: &mut Reader, d: &dyn Dialect, body: &Range<usize>) {
    for i in body.clone() {
        let declares = matches!(r.name(i), Some("const" | "let")) && !member(r, i);
        let Some(name) = r.name(i + 1).filter(|_| declares) else {
            continue;
        };
        if !r.punct(i + 2, '=') || r.punct(i + 3, '=') {
            continue;
        }
        let Some(end) = r
            .expression_end(i + 3, &operator, &PREFIXES)
            .filter(|&e| e <= body.end)
        else {
            continue;
        };
        let Some(v) = r.value(d, &(i + 3..end)).filter(Val::is_entry) else {
            continue;
        };
        let scope = end..block_end(r, i);
        if !rebound(r, name, &scope) {
            let name = name.to_string();
            r.entries.push((name, scope, v));
        }
    }
}

fn listing_name(n: &str) -> bool {
    n == "readdir" || n == "readdirSync"
}

/// A name through which a program could change what a listing gives: an array's methods or
/// its iterator (`Array.prototype.filter = …`, `[][Symbol.iterator]`, `[].__proto__`), or the
/// module loader (`module.constructor._load`, which could hand out another `fs`). A program
/// naming one has its listings not followed. (`fs.readdirSync = …` is unread already.)
fn reshapes(n: &str) -> bool {
    n.to_ascii_lowercase().contains("proto")
        || matches!(n, "Symbol" | "constructor" | "_load" | "Module")
}

/// A member of a builtin reached by a computed name (`Array['proto' + 'type']`), which could
/// be any of the names `reshapes` looks for.
fn computed_builtin(r: &Reader) -> bool {
    (0..r.t.len()).any(|j| {
        let builtin = matches!(
            r.name(j),
            Some("Array" | "Object" | "Reflect" | "Function" | "String" | "globalThis" | "global")
        );
        builtin && r.punct(j + 1, '[')
    })
}

/// `for [await] (const|let NAME of LISTING) {…}`: the name and the braces.
fn for_of(
    r: &Reader,
    d: &dyn Dialect,
    lists: &HashMap<String, Range<usize>>,
    i: usize,
) -> Option<(String, Range<usize>)> {
    let open = i + 1 + usize::from(r.name(i + 1) == Some("await"));
    if !r.punct(open, '(') {
        return None;
    }
    let (header, after) = chain::arguments(r.t, open)?;
    let [h] = header.as_slice() else {
        return None;
    };
    // `var` is the function's, which code outside the loop may assign.
    let declared = matches!(r.name(h.start), Some("const" | "let"));
    let name = r.name(h.start + 1)?;
    if !declared || r.name(h.start + 2) != Some("of") {
        return None;
    }
    if !listing(r, d, lists, &(h.start + 3..h.end)) || !r.punct(after, '{') {
        return None;
    }
    let (_, end) = chain::arguments(r.t, after)?;
    Some((name.to_string(), after..end))
}

/// The callbacks given a listing's entries along a chain (`fs.readdirSync('d').filter(f =>
/// …).forEach(f => …)`, `files.forEach(…)`): each one's parameter and body.
fn callbacks(
    r: &Reader,
    d: &dyn Dialect,
    lists: &HashMap<String, Range<usize>>,
    c: &Chain,
    at: usize,
) -> Vec<(String, Range<usize>)> {
    let mut out = Vec::new();
    let Some(start) = prefix(r, d, lists, c, at) else {
        return out;
    };
    for l in &c.links[start..] {
        let Some(args) = &l.args else { break };
        if CALLBACKS.contains(&l.name.as_str()) {
            if !harmless(r, args.first()) {
                break;
            }
            out.extend(args.first().and_then(|a| callback(r, a, 0)));
        }
        if !KEEPS.contains(&l.name.as_str()) {
            break;
        }
    }
    out
}

/// An inline function: its parameters (token ranges), its body, and whether it is a
/// `function` (which has `arguments` of its own).
struct Function {
    params: Vec<Range<usize>>,
    body: Range<usize>,
    plain: bool,
}

/// The inline function an argument is: `f => …`, `(f, i) => {…}`, `async f => …`,
/// `function (f) {…}`.
fn function(r: &Reader, a: &Range<usize>) -> Option<Function> {
    let s = a.start + usize::from(r.name(a.start) == Some("async"));
    let arrow = |j: usize| r.punct(j, '=') && r.punct(j + 1, '>');
    if r.name(s).is_some_and(|w| w != "function") {
        let params = std::iter::once(s..s + 1).collect();
        return arrow(s + 1).then(|| Function {
            params,
            body: s + 3..a.end,
            plain: false,
        });
    }
    let plain = r.name(s) == Some("function");
    let mut open = s + usize::from(plain);
    if plain && r.name(open).is_some() {
        open += 1;
    }
    let (params, after) = chain::arguments(r.t, open).filter(|_| r.punct(open, '('))?;
    if plain {
        let (_, end) = chain::arguments(r.t, after).filter(|_| r.punct(after, '{'))?;
        return Some(Function {
            params,
            body: after..end,
            plain,
        });
    }
    arrow(after).then(|| Function {
        params,
        body: after + 2..a.end,
        plain,
    })
}

/// An inline function's parameter `n`, when a plain name, and its body.
fn callback(r: &Reader, a: &Range<usize>, n: usize) -> Option<(String, Range<usize>)> {
    let f = function(r, a)?;
    let param = f.params.get(n).filter(|p| p.len() == 1)?;
    Some((r.name(param.start)?.to_string(), f.body))
}

/// An array method's callback (called with the element, its index and the array) that
/// cannot change the array it walks: inline, with no third parameter, and no `arguments`.
fn harmless(r: &Reader, a: Option<&Range<usize>>) -> bool {
    let Some(f) = a.and_then(|a| function(r, a)) else {
        return false;
    };
    let arguments = || f.body.clone().any(|j| r.name(j) == Some("arguments"));
    f.params.len() <= 2 && !(f.plain && arguments())
}

/// Whether the tokens of `e` are a listing's entries, whole: `fs.readdirSync('d')`,
/// `await fs.promises.readdir('d')`, `(await readdir('d'))`, a kept listing, each perhaps
/// filtered or sorted.
fn listing(
    r: &Reader,
    d: &dyn Dialect,
    lists: &HashMap<String, Range<usize>>,
    e: &Range<usize>,
) -> bool {
    let start = e.start + usize::from(r.name(e.start) == Some("await"));
    if r.punct(start, '(') {
        return match chain::arguments(r.t, start) {
            Some((inner, after)) if inner.len() == 1 && after == e.end => {
                listing(r, d, lists, &inner[0])
            }
            _ => false,
        };
    }
    let Some(c) = chain::at(r.t, start).filter(|c| c.span.end == e.end) else {
        return false;
    };
    let Some(from) = prefix(r, d, lists, &c, start) else {
        return false;
    };
    (c.links[from..]).iter().all(|l| {
        let callback = CALLBACKS.contains(&l.name.as_str());
        let args = l.args.as_deref().unwrap_or_default();
        l.args.is_some()
            && KEEPS.contains(&l.name.as_str())
            && (!callback || harmless(r, args.first()))
    })
}

/// How many links of `c` (at token `at`) make a listing: a kept listing's name, or a
/// `readdir` call of a known directory whose options leave its names plain.
fn prefix(
    r: &Reader,
    d: &dyn Dialect,
    lists: &HashMap<String, Range<usize>>,
    c: &Chain,
    at: usize,
) -> Option<usize> {
    let head = &c.links[0];
    if head.args.is_none() && lists.get(&head.name).is_some_and(|s| s.contains(&at)) {
        return Some(1);
    }
    let (k, args) = readdir(r, d, c)?;
    let plain = match args {
        [_] => true,
        [_, options] => plain_options(r, options),
        _ => false,
    };
    plain.then_some(k + 1)
}

/// The first call of `c` when it is `fs.readdir` (`fs.readdirSync`, `fs.promises.readdir`,
/// a name imported from `fs`) of a directory known without running: its link and arguments.
fn readdir<'c>(r: &Reader, d: &dyn Dialect, c: &'c Chain) -> Option<(usize, &'c [Range<usize>])> {
    let head = &c.links[0];
    // `require('fs').readdirSync(…)`: the module stands in for a bound name.
    let (module, skip) = match (head.name.as_str(), r.values(d, head).first()) {
        ("require", Some(Some(Val::Lit(m)))) => (module_name(m), 1),
        _ => (d.qualified(r, &head.name)?, 0),
    };
    let k = (skip..c.links.len()).find(|&k| c.links[k].args.is_some())?;
    let mut name = module;
    for l in &c.links[1..=k] {
        name.push('.');
        name.push_str(&l.name);
    }
    let args = c.links[k].args.as_deref()?;
    let dir = args.first().and_then(|a| r.value(d, a));
    (normal(&name) == "fs.readdir" && dir.is_some()).then_some((k, args))
}

/// `fs.readdir('data', (err, files) => {…})`: the callback's listing and its body.
fn given_list(r: &Reader, d: &dyn Dialect, c: &Chain) -> Option<(String, Range<usize>)> {
    let (_, args) = readdir(r, d, c)?;
    let (last, options) = match args {
        [_, last] => (last, None),
        [_, options, last] => (last, Some(options)),
        _ => return None,
    };
    if options.is_some_and(|o| !plain_options(r, o)) {
        return None;
    }
    callback(r, last, 1)
}

/// Options of `readdir` that keep its names plain: an encoding, as a string or `{ encoding:
/// '…' }` (`withFileTypes` gives objects, `recursive` paths under subdirectories).
fn plain_options(r: &Reader, a: &Range<usize>) -> bool {
    let toks = &r.t[a.clone()];
    match toks {
        [(Tok::Str(Some(_)), _)] => true,
        [(Tok::Punct('{'), _), inner @ .., (Tok::Punct('}'), _)] => inner.iter().all(|(t, _)| {
            matches!(t, Tok::Str(Some(_)) | Tok::Punct(':' | ','))
                || matches!(t, Tok::Name(n) if n == "encoding")
        }),
        _ => false,
    }
}

/// Listings kept in a name, and the tokens where the name means it: a `const` (`const files
/// = fs.readdirSync('data')`) after its declaration to the end of its block, a callback's
/// (`fs.readdir('data', (err, files) => {…})`) in its body. Only a name that the program
/// there only iterates (`of files)`) or reads (`files.forEach(…)`, `files.length`) is kept:
/// anything else might change what it holds.
fn kept_lists(r: &Reader, d: &dyn Dialect) -> HashMap<String, Range<usize>> {
    let mut out = HashMap::new();
    let none = HashMap::new();
    for i in 0..r.t.len() {
        let kept = kept_const(r, d, &none, i)
            .or_else(|| chain::at(r.t, i).and_then(|c| given_list(r, d, &c)));
        if let Some((name, scope)) = kept.filter(|(n, scope)| only_read(r, n, scope)) {
            out.insert(name, scope);
        }
    }
    out
}

/// `const NAME = LISTING`: the name and the rest of its block.
fn kept_const(
    r: &Reader,
    d: &dyn Dialect,
    none: &HashMap<String, Range<usize>>,
    i: usize,
) -> Option<(String, Range<usize>)> {
    let name = r.name(i + 1).filter(|_| r.name(i) == Some("const"))?;
    if !r.punct(i + 2, '=') || r.punct(i + 3, '=') {
        return None;
    }
    let end = r.expression_end(i + 3, &operator, &PREFIXES)?;
    listing(r, d, none, &(i + 3..end)).then(|| (name.to_string(), end..block_end(r, i)))
}

/// The end of the block holding token `i`: its `}` or the end of the program.
fn block_end(r: &Reader, i: usize) -> usize {
    let mut depth = 0usize;
    for j in i..r.t.len() {
        match &r.t[j].0 {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']' | '}') if depth == 0 => return j,
            Tok::Punct(')' | ']' | '}') => depth -= 1,
            _ => {}
        }
    }
    r.t.len()
}

/// Whether every use of `name` in `scope` iterates or reads it, and nothing there could
/// reach it otherwise (`with`, `arguments`, `eval`).
fn only_read(r: &Reader, name: &str, scope: &Range<usize>) -> bool {
    scope.clone().all(|j| match r.name(j) {
        Some("with" | "arguments" | "eval") => false,
        Some(n) if n == name && !member(r, j) => {
            let iterated = j > 0 && r.name(j - 1) == Some("of") && r.punct(j + 1, ')');
            let method = r.name(j + 2).filter(|m| r.punct(j + 1, '.') && reads(m));
            // `files.forEach((f, i, all) => …)` is given the list itself.
            let given = || {
                let args = chain::arguments(r.t, j + 3).filter(|_| r.punct(j + 3, '('));
                harmless(r, args.as_ref().and_then(|(a, _)| a.first()))
            };
            let read =
                method.is_some_and(|m| !CALLBACKS.contains(&m) || given()) && !assigns(r, j + 3);
            iterated || read
        }
        _ => true,
    })
}
