//! Names the readers take at their word keep that meaning: `path.join('a', f)` is read as the
//! path it joins and `shutil.rmtree(p)` as a deletion only while `path` and `shutil` are the
//! modules the imports bound (`Dialect::trusted`: imported modules that reach outside or whose
//! values the reader computes, and JS's `process`). A program that binds such a name again
//! (`def join(…)`, a parameter named `path`), replaces one of its members (`os.path.join =
//! …`) or hands a module to other code that may (`Object.assign(path, …)`) is unread: what
//! its calls do is known only when it runs. (A builtin bound again, `def open(p): …`, is read
//! in its body like any function.)

use super::chain;
use super::reader::{Dialect, Reader};
use std::collections::BTreeSet;

/// Marks the program unread when a name the reader trusts may mean something else.
pub fn check(r: &mut Reader, d: &dyn Dialect) {
    if let Some(why) = changed(r, d) {
        r.out.unread(why);
    }
}

fn changed(r: &Reader, d: &dyn Dialect) -> Option<String> {
    let mut names = BTreeSet::new();
    for j in 0..r.t.len() {
        let Some(n) = r.name(j).filter(|_| !r.used[j]) else {
            continue;
        };
        if !d.trusted(r, n) {
            continue;
        }
        // `chain::at` is `None` for a member (`x.path`), which is not the name.
        let Some(c) = chain::at(r.t, j) else {
            continue;
        };
        names.insert(n);
        if c.links.iter().any(|l| l.args.is_some()) {
            continue;
        }
        let dotted = || {
            c.links
                .iter()
                .map(|l| l.name.as_str())
                .collect::<Vec<_>>()
                .join(".")
        };
        if c.links.len() > 1 && d.assigned(r, &c.span) {
            return Some(format!("`{}` replaced", dotted()));
        }
        if d.handed_on(r, &c) {
            return Some(format!("`{}` handed on as a value", dotted()));
        }
    }
    let again = names.into_iter().find(|n| d.bound_again(r, n))?;
    Some(format!("`{again}` given another value"))
}
