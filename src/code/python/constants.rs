//! Names the whole program binds once to a value known without running it (`OUT = 'dist'`,
//! `tmp = tempfile.mkdtemp()`): every use of one, anywhere, means that value. Once is enough
//! in Python where nothing reaches names through the interpreter (`bindings::dynamic`): a
//! use before the binding runs fails, and any other binding (`def f(OUT)`, `for OUT in`,
//! `global OUT`) counts as a second one.

use super::super::reader::{Dialect, Reader};
use super::bindings;

/// Fills `r.vars` with the program's constants, in the order they are bound (`B = A + '/x'`
/// after `A = 'data'`).
pub fn bind(r: &mut Reader, d: &dyn Dialect) {
    if bindings::dynamic(r) {
        return;
    }
    for i in 0..r.t.len() {
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
