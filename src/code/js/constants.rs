//! Top-level `const` names bound to a value known without running (`const OUT = 'dist'`): where nothing
//! else in the program binds the name (a block's own `const OUT`, a parameter, `with`), every
//! use of it means that value.

use super::super::lex::Tok;
use super::super::reader::{Dialect, Reader};
use super::bindings;
use super::listing::{operator, PREFIXES};

/// How many constants are judged: each is a pass over the whole program (3 000 of them in a
/// 15 000-token file took 0.6 s; 64 take ~12 ms).
const MAX_CONSTS: usize = 64;

/// Fills `r.vars` with the program's constants, in the order they are declared.
pub fn bind(r: &mut Reader, d: &dyn Dialect) {
    let (mut depth, mut judged) = (0usize, 0usize);
    for i in 0..r.t.len() {
        match &r.t[i].0 {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']' | '}') => depth = depth.saturating_sub(1),
            _ => {}
        }
        // A function's or a block's own `const` is not the name elsewhere, where it may be a
        // global object's property (`this.OUT = …` in a sloppy function).
        let top = depth == 0;
        let declares = top && r.name(i) == Some("const") && !r.used[i] && !bindings::member(r, i);
        let Some(name) = r.name(i + 1).filter(|_| declares) else {
            continue;
        };
        if !r.punct(i + 2, '=') || r.punct(i + 3, '=') {
            continue;
        }
        let Some(end) = r.expression_end(i + 3, &operator, &PREFIXES) else {
            continue;
        };
        let Some(v) = r.value(d, &(i + 3..end)).filter(|v| !v.is_entry()) else {
            continue;
        };
        // Bound elsewhere too? Judged with this declaration set aside, over the whole
        // program: for the first `MAX_CONSTS` only (the rest stay values computed at run time).
        judged += 1;
        if judged > MAX_CONSTS {
            break;
        }
        if !bindings::bound_outside_but(r, name, &(i..end)) {
            let name = name.to_string();
            r.vars.insert(name, v);
        }
    }
}
