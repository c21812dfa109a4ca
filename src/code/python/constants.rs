//! Names the whole program binds once to a value known without running it (`OUT = 'dist'`,
//! `tmp = tempfile.mkdtemp()`): every use of one, anywhere, means that value. Once is enough
//! in Python where nothing reaches names through the interpreter (`bindings::dynamic`): a
//! use before the binding runs fails, and any other binding (`def f(OUT)`, `for OUT in`,
//! `global OUT`) counts as a second one.

use super::super::chain;
use super::super::reader::{Dialect, Reader};
use super::super::Val;
use super::bindings;

/// Fills `r.vars` with the program's constants, in the order they are bound (`B = A + '/x'`
/// after `A = 'data'`).
pub fn bind(r: &mut Reader, d: &dyn Dialect) {
    if bindings::dynamic(r) {
        return;
    }
    for i in 0..r.t.len() {
        if let Some(name) = scratch(r, d, i) {
            r.vars.insert(name, Val::Temp("/tmp/tmp".into()));
            continue;
        }
        let Some((name, value)) = bindings::assignment(r, i) else {
            continue;
        };
        let known = r.value(d, &value).filter(|v| !v.is_entry());
        if let Some(v) = known.filter(|_| bindings::bindings_of(r, name) == 1) {
            let name = name.to_string();
            r.vars.insert(name, v);
        }
    }
}

/// `with tempfile.TemporaryDirectory() as NAME` at `i` (the `with`), `NAME` bound only there:
/// a directory of the program's own under the temporary one (not with `dir=`).
fn scratch(r: &Reader, d: &dyn Dialect, i: usize) -> Option<String> {
    let c = chain::at(r.t, i + 1).filter(|_| r.name(i) == Some("with"))?;
    let [.., call] = c.links.as_slice() else {
        return None;
    };
    let args = call.args.as_deref()?;
    let named = d
        .qualified(r, &c.links[0].name)
        .or_else(|| r.binds.get(&c.links[0].name).cloned());
    let whole = (c.links[1..].iter()).fold(named?, |q, l| format!("{q}.{}", l.name));
    let own = whole == "tempfile.TemporaryDirectory" && chain::keyword(r.t, args, "dir").is_none();
    let name = r
        .name(c.span.end + 1)
        .filter(|_| r.name(c.span.end) == Some("as"))?;
    (own && chain::positional(r.t, args).is_empty() && bindings::bindings_of(r, name) == 1)
        .then(|| name.to_string())
}
