//! What the readers of compiled languages (C/C++, Rust, Go) share: names bound once to a
//! known value (`const char *dir = "/x";`, `let home = env::var("HOME")?;`, `dir := "/x"`),
//! format strings filled with known values (`sprintf`, `format!`, `fmt.Sprintf`), the values
//! a path or string keeps through the methods after it (`.unwrap()`, `.c_str()`,
//! `.join("x")`), and the argv of a process a program starts.
//!
//! A variable's value is trusted only when the whole program binds its name once: a second
//! definition, a parameter of the same name, a pattern that binds it, an assignment through a
//! subscript or pointer, or (in C) a use that could change or alias it, makes it unknown, so a
//! harmless value cannot stand in for the one the program really uses.

use super::chain::{self, Link};
use super::lex::Tok;
use super::reader::{Dialect, Reader, Step};
use super::Val;
use std::collections::HashMap;
use std::ops::Range;

/// How one occurrence of a name binds it.
pub enum Occurrence {
    /// Reads it.
    Use,
    /// Defines it as the value of these tokens.
    Def(Range<usize>),
    /// Defines it as a printf format (tokens) filled with arguments (C's `sprintf(buf, …)`).
    Printf(Range<usize>, Vec<Range<usize>>),
    /// Declares it without a value (`char buf[64];`, `var p string`, `let p;`).
    Bare,
    /// Binds or changes it in a way whose value is not followed.
    Poison,
}

/// Fills `r.vars` and `r.defs` with the names the program defines exactly once (at most one
/// bare declaration besides), nothing else binding them (`classify` says how each occurrence
/// of a name that is no member binds it). Definitions are valued in program order, so one may
/// use an earlier one.
pub fn bind_values(
    r: &mut Reader,
    d: &dyn Dialect,
    classify: &dyn Fn(&Reader, usize) -> Occurrence,
) {
    #[derive(Default)]
    struct Seen {
        defs: Vec<Occurrence>,
        bare: u32,
        poison: bool,
    }
    let mut seen: HashMap<String, Seen> = HashMap::new();
    for i in 0..r.t.len() {
        let Some(n) = r.name(i) else { continue };
        if i > 0 && r.punct(i - 1, '.') {
            continue;
        }
        let occ = classify(r, i);
        let entry = || Seen::default();
        match occ {
            Occurrence::Use => {}
            Occurrence::Bare => seen.entry(n.to_string()).or_insert_with(entry).bare += 1,
            Occurrence::Poison => seen.entry(n.to_string()).or_insert_with(entry).poison = true,
            def => seen
                .entry(n.to_string())
                .or_insert_with(entry)
                .defs
                .push(def),
        }
    }
    let mut sole: Vec<(String, Occurrence)> = seen
        .into_iter()
        .filter(|(_, s)| !s.poison && s.bare <= 1 && s.defs.len() == 1)
        .filter_map(|(n, mut s)| Some((n, s.defs.pop()?)))
        .collect();
    sole.sort_by_key(|(_, o)| match o {
        Occurrence::Def(r) | Occurrence::Printf(r, _) => r.start,
        _ => 0,
    });
    for (name, def) in sole {
        let value = match &def {
            Occurrence::Def(range) => {
                r.defs.insert(name.clone(), range.clone());
                r.value(d, range)
            }
            Occurrence::Printf(format, args) => {
                let vals: Vec<Option<Val>> = args.iter().map(|a| r.value(d, a)).collect();
                match r.value(d, format) {
                    Some(Val::Lit(f)) => printf(&f, &vals),
                    _ => None,
                }
            }
            _ => None,
        };
        if let Some(v) = value {
            r.vars.insert(name, v);
        }
    }
}

/// The tokens of an initializer starting at `from`: up to the `;` or `,` that ends it, or the
/// bracket that closes around it.
pub fn initializer(r: &Reader, from: usize) -> Range<usize> {
    let mut depth = 0usize;
    let mut j = from;
    while let Some((tok, _)) = r.t.get(j) {
        match tok {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']' | '}') if depth == 0 => break,
            Tok::Punct(')' | ']' | '}') => depth -= 1,
            Tok::Punct(';' | ',') if depth == 0 => break,
            _ => {}
        }
        j += 1;
    }
    from..j
}

/// Whether the token at `i` assigns what precedes it: `Some(true)` for `=` (not `==` nor
/// `=>`), `Some(false)` for an operator that changes it in place (`+=`, `<<=`, `++`).
pub fn assigned_at(r: &Reader, i: usize) -> Option<bool> {
    let p = |k: usize, c: char| r.punct(k, c);
    if p(i, '=') && !p(i + 1, '=') && !p(i + 1, '>') {
        return Some(true);
    }
    let arithmetic = ['+', '-', '*', '/', '%', '|', '&', '^'];
    // `&&` and `||` are logic, `++` and `--` change in place.
    let stepped = ['+', '-'].iter().any(|&c| p(i, c) && p(i + 1, c));
    let compound = stepped
        || arithmetic.iter().any(|&c| p(i, c) && p(i + 1, '='))
        || ['<', '>']
            .iter()
            .any(|&c| p(i, c) && p(i + 1, c) && p(i + 2, '='));
    compound.then_some(false)
}

/// Pieces joined in order; the first may be home, the rest must be text.
pub fn concat(parts: impl IntoIterator<Item = Val>) -> Option<Val> {
    let mut acc = Val::Lit(String::new());
    for p in parts {
        acc = match acc {
            Val::Lit(a) if a.is_empty() => p,
            a => a.plus(p)?,
        };
    }
    Some(acc)
}

/// A printf format (C's `sprintf`, Go's `fmt.Sprintf`: `%s`, `%v`, `%q`, `%%`, flags and
/// widths) filled with its arguments' values: `None` when a placeholder's value is unknown.
pub fn printf(fmt: &str, args: &[Option<Val>]) -> Option<Val> {
    let mut parts = Vec::new();
    let mut text = String::new();
    let mut next = 0;
    let mut chars = fmt.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            text.push(c);
            continue;
        }
        let verb = loop {
            match chars.next()? {
                '*' => next += 1,
                v if v.is_ascii_alphabetic() && !matches!(v, 'h' | 'l' | 'L' | 'z' | 'j' | 't') => {
                    break v
                }
                '%' => break '%',
                _ => {}
            }
        };
        if verb == '%' {
            text.push('%');
            continue;
        }
        let value = args.get(next).cloned().flatten()?;
        next += 1;
        if !matches!(verb, 's' | 'v' | 'q') {
            return None;
        }
        parts.push(Val::Lit(std::mem::take(&mut text)));
        parts.push(value);
    }
    parts.push(Val::Lit(text));
    concat(parts)
}

/// Rust's `format!` family: `{}`, `{0}`, `{name}` (a named argument or a variable of the
/// scope), `{:?}` and the like, `{{`/`}}`.
pub fn rust_format(
    fmt: &str,
    args: &[Option<Val>],
    named: &dyn Fn(&str) -> Option<Val>,
) -> Option<Val> {
    let mut parts = Vec::new();
    let mut text = String::new();
    let mut next = 0;
    let mut rest = fmt;
    while let Some(c) = rest.chars().next() {
        rest = &rest[c.len_utf8()..];
        match c {
            '{' if rest.starts_with('{') => {
                text.push('{');
                rest = &rest[1..];
            }
            '}' if rest.starts_with('}') => {
                text.push('}');
                rest = &rest[1..];
            }
            '{' => {
                let close = rest.find('}')?;
                let spec = &rest[..close];
                rest = &rest[close + 1..];
                let key = spec.split(':').next().unwrap_or("").trim();
                let value = if key.is_empty() {
                    next += 1;
                    args.get(next - 1).cloned().flatten()
                } else if let Ok(n) = key.parse::<usize>() {
                    args.get(n).cloned().flatten()
                } else {
                    named(key)
                }?;
                parts.push(Val::Lit(std::mem::take(&mut text)));
                parts.push(value);
            }
            other => text.push(other),
        }
    }
    parts.push(Val::Lit(text));
    concat(parts)
}

/// Methods that leave a path or string as it is: conversions, borrows, unwrapping.
const KEEPS: [&str; 30] = [
    "unwrap",
    "expect",
    "unwrap_or_default",
    "to_string",
    "to_owned",
    "clone",
    "into",
    "as_str",
    "as_ref",
    "as_path",
    "as_os_str",
    "to_str",
    "to_string_lossy",
    "display",
    "c_str",
    "data",
    "string",
    "into_os_string",
    "into_string",
    "to_path_buf",
    "into_boxed_path",
    "borrow",
    "as_ptr",
    "as_bytes",
    "into_bytes",
    "to_vec",
    "canonicalize",
    "as_c_str",
    "into_raw",
    "await",
];

/// A known value carried through the links after it (`.unwrap()`, `.join("docs")`).
pub fn through(r: &Reader, d: &dyn Dialect, mut v: Val, links: &[Link]) -> Option<Val> {
    for l in links {
        v = match l.name.as_str() {
            n if KEEPS.contains(&n) => v,
            "join" | "push" => {
                let parts: Vec<Val> = r.values(d, l).into_iter().collect::<Option<_>>()?;
                parts.into_iter().try_fold(v, Val::join)?
            }
            _ => return None,
        };
    }
    Some(v)
}

/// The value of a chain headed by a variable of known value (`home.join("docs")`,
/// `cmd.c_str()`).
pub fn var_through(r: &Reader, d: &dyn Dialect, links: &[Link]) -> Option<Val> {
    let head = links.first().filter(|l| l.args.is_none())?;
    let v = r.vars.get(&head.name)?.clone();
    through(r, d, v, &links[1..])
}

/// The items of a list literal (`[a, b]`, `&["a"]`, `vec!["a"]`, `{"a", NULL}`, Go's
/// `[]string{"a"}`), or of a list bound once to a name.
pub fn list_items(r: &Reader, range: &Range<usize>) -> Option<Vec<Range<usize>>> {
    let mut i = range.start;
    if let (Some(n), true) = (r.name(i), i + 1 == range.end) {
        let def = r.defs.get(n)?;
        return list_items(r, &def.clone());
    }
    while i < range.end && !matches!(r.t.get(i).map(|x| &x.0), Some(Tok::Punct('[' | '{'))) {
        i += 1;
    }
    // Go's `[]string{…}`: the type's brackets, then the items' braces.
    if r.punct(i, '[') && r.punct(i + 1, ']') {
        i += 2;
        while i < range.end && !r.punct(i, '{') {
            i += 1;
        }
    }
    let (items, after) = chain::arguments(r.t, i)?;
    (after <= range.end).then_some(items)
}

/// The values of `items` as shell words, up to a C list's terminating `NULL`.
pub fn words(r: &Reader, d: &dyn Dialect, items: &[Range<usize>]) -> Option<Vec<String>> {
    let mut out = Vec::new();
    for item in items {
        if null(r, item) {
            break;
        }
        out.push(r.value(d, item)?.word());
    }
    Some(out)
}

/// `NULL`, `nullptr`, `0`, `(char *)NULL`: the end of a C argument list.
pub fn null(r: &Reader, item: &Range<usize>) -> bool {
    match item
        .end
        .checked_sub(1)
        .and_then(|k| r.t.get(k))
        .map(|x| &x.0)
    {
        Some(Tok::Name(n)) => matches!(n.as_str(), "NULL" | "nullptr" | "nil"),
        Some(Tok::Num(n)) => n == "0",
        _ => false,
    }
}

/// Programs that run what their stdin brings when given no script: a shell or interpreter
/// started with no program of its own is fed one at run time (`exec.Command("sh")` with
/// `cmd.Stdin = conn`).
const FED: [&str; 14] = [
    "sh", "bash", "zsh", "dash", "ksh", "ash", "python", "python3", "perl", "ruby", "node", "php",
    "lua", "busybox",
];

/// Writes the command a process start runs, when its words are known and it is no
/// interpreter left to read its program from stdin.
pub fn run(r: &mut Reader, what: &str, words: Option<Vec<String>>) -> Step {
    if let Some(w) = &words {
        let program = w.first().map(|p| p.trim_matches('\''));
        let program = program.map(crate::paths::basename).unwrap_or("");
        let operands = w[1..]
            .iter()
            .any(|a| !a.trim_matches('\'').starts_with('-'));
        let shell_string = w[1..]
            .iter()
            .any(|a| a.trim_matches('\'').starts_with("-c"));
        if FED.contains(&program) && !operands && !shell_string {
            return Step::Unread(format!(
                "`{what}` starts `{program}`, which runs what it is fed when it runs"
            ));
        }
    }
    r.emit_words(what, words)
}

/// What a file is opened for, by the flags named in `range` (`O_WRONLY|O_CREAT`,
/// `os.O_APPEND`): a write (appending or not) or a read.
pub fn open_verb(r: &Reader, range: Option<&Range<usize>>) -> &'static [&'static str] {
    let names: Vec<&str> = range
        .map(|a| (a.clone()).filter_map(|k| r.name(k)).collect())
        .unwrap_or_default();
    let any = |fs: &[&str]| names.iter().any(|n| fs.contains(n));
    if any(&["O_APPEND"]) {
        &["tee", "-a"]
    } else if any(&["O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_CREATE"]) {
        &["tee"]
    } else {
        &["cat"]
    }
}

/// A file mode given as an octal number (`0755`, `0o700`), or every permission when computed.
pub fn mode(r: &Reader, range: Option<&Range<usize>>) -> String {
    let num = range.and_then(|a| {
        (a.clone()).find_map(|k| match r.t.get(k).map(|x| &x.0) {
            Some(Tok::Num(n)) => Some(n.clone()),
            _ => None,
        })
    });
    match num {
        Some(n) => {
            let digits = n.trim_start_matches("0o").trim_start_matches('0');
            match digits.chars().all(|c| c.is_digit(8)) && !digits.is_empty() {
                true => format!("0{digits}"),
                false => "a+rwx".into(),
            }
        }
        None => "a+rwx".into(),
    }
}

/// An `fopen`-style mode string: a write (`w`, `+`), an append (`a`), else a read; a mode
/// computed at run time may write.
pub fn fopen_verb(mode: Option<Val>) -> &'static [&'static str] {
    let m = match mode {
        Some(Val::Lit(m)) => m,
        None | Some(_) => "w".into(),
    };
    if m.contains('w') || m.contains('+') {
        &["tee"]
    } else if m.contains('a') {
        &["tee", "-a"]
    } else {
        &["cat"]
    }
}

/// The enclosing call of the argument at `i`: the callee's name and the argument's index,
/// when `i` is a whole argument of a call (or a condition's operand: callee `if`).
pub fn enclosing_call<'a>(r: &'a Reader, i: usize) -> Option<(&'a str, usize)> {
    let mut depth = 0usize;
    let mut index = 0;
    let mut k = i;
    // Far enough for any argument list a program spells out; past it, no call is assumed.
    let floor = i.saturating_sub(512);
    while k > floor {
        k -= 1;
        match &r.t[k].0 {
            Tok::Punct(')' | ']' | '}') => depth += 1,
            Tok::Punct('(') if depth == 0 => return Some((r.name(k.checked_sub(1)?)?, index)),
            Tok::Punct('(' | '[' | '{') if depth == 0 => return None,
            Tok::Punct('(' | '[' | '{') => depth -= 1,
            Tok::Punct(',') if depth == 0 => index += 1,
            Tok::Punct(';') if depth == 0 => return None,
            _ => {}
        }
    }
    None
}
