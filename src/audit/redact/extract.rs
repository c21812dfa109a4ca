//! Where the name and the secret are inside a match of the two commonest rules, `name=value`
//! and `--flag value`. The scan's automaton has already checked the whole shape and found where
//! it ends, so reading it again needs no regex: running one with capture groups cost more than
//! the scan itself.

use std::ops::Range;

/// Where a name and its secret are.
pub type Parts = (Range<usize>, Range<usize>);

/// (name, secret) in `NAME=value`, `"name": "value"`, `name: value`, `'name' => 'value'`,
/// `name=("user", "pw")`, `Authorization: Bearer X`; `m` is a match of that rule.
pub fn assignment(text: &str, m: Range<usize>) -> Parts {
    let b = text.as_bytes();
    let mut i = ident(b, m.start, m.end);
    if b.get(i) == Some(&b' ') && b.get(i + 1).is_some_and(|c| is_ident(*c)) {
        i = ident(b, i + 1, m.end); // `API key: …`: a word before the name
    }
    let name = m.start..i;
    if b.get(i) == Some(&b'\\') && matches!(b.get(i + 1), Some(b'"' | b'\'' | b'`')) {
        i += 2;
    } else if matches!(b.get(i), Some(b'"' | b'\'' | b'`')) {
        i += 1;
    } else {
        i = skip_stars(b, i, m.end);
    }
    i = skip_space(b, i, m.end);
    let rest = &b[i..m.end];
    i += if rest.starts_with(b"=>") || rest.starts_with(b":=") {
        2
    } else if rest.first().is_some_and(|c| *c == b':' || *c == b'=') {
        1
    } else {
        3 // %3A, %3D
    };
    i = skip_space(b, skip_stars(b, i, m.end), m.end);
    (name, value(b, i, m.end))
}

/// (name, secret) in `--name value`, `-name 'value'`; `m` is a match of that rule.
pub fn flag(text: &str, m: Range<usize>) -> Parts {
    let b = text.as_bytes();
    let mut i = m.start;
    if b.get(i).is_some_and(|c| c.is_ascii_whitespace()) {
        i += 1;
    }
    let start = i;
    while i < m.end && i < start + 2 && b[i] == b'-' {
        i += 1;
    }
    let name_start = i;
    while i < m.end && (b[i].is_ascii_alphanumeric() || b"_-".contains(&b[i])) {
        i += 1;
    }
    let name = name_start..i;
    let v = skip_space(b, i, m.end);
    let secret = match b.get(v) {
        Some(b'"' | b'\'') => v + 1..m.end - 1,
        _ => v..m.end,
    };
    (name, secret)
}

/// The secret part of a value that starts at `v` and ends at `end`, in the forms the value
/// pattern allows, tried in the same order.
fn value(b: &[u8], v: usize, end: usize) -> Range<usize> {
    match b.get(v) {
        Some(b'"' | b'\'') => v + 1..end - 1,
        Some(b'\\') if b.get(v + 1) == Some(&b'"') => v + 2..end - 2,
        Some(b'(') => {
            // ("user", "pw"): the last quoted item.
            let close = b[..end - 1]
                .iter()
                .rposition(|c| *c == b'"' || *c == b'\'')
                .unwrap_or(v);
            let open = b[..close]
                .iter()
                .rposition(|c| *c == b'"' || *c == b'\'')
                .unwrap_or(close);
            open + 1..close
        }
        _ => after_scheme(b, v, end).unwrap_or(v)..end,
    }
}

/// Where the credential starts after an auth scheme (`Bearer X`), if the value has one.
fn after_scheme(b: &[u8], v: usize, end: usize) -> Option<usize> {
    const SCHEMES: [&[u8]; 6] = [
        b"bearer",
        b"basic",
        b"token",
        b"digest",
        b"negotiate",
        b"ntlm",
    ];
    let word = SCHEMES
        .iter()
        .find(|s| b.len() >= v + s.len() && b[v..v + s.len()].eq_ignore_ascii_case(s))?;
    let blank = v + word.len();
    let after = skip_blanks(b, blank, end);
    (after > blank && after < end).then_some(after)
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"_.-".contains(&c)
}

fn ident(b: &[u8], mut i: usize, end: usize) -> usize {
    while i < end && is_ident(b[i]) {
        i += 1;
    }
    i
}

/// Markdown emphasis around a label: at most two `*`.
fn skip_stars(b: &[u8], mut i: usize, end: usize) -> usize {
    let start = i;
    while i < end && i < start + 2 && b[i] == b'*' {
        i += 1;
    }
    i
}

fn skip_space(b: &[u8], mut i: usize, end: usize) -> usize {
    while i < end && b[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

fn skip_blanks(b: &[u8], mut i: usize, end: usize) -> usize {
    while i < end && (b[i] == b' ' || b[i] == b'\t') {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(f: fn(&str, Range<usize>) -> Parts, t: &str) -> (&str, &str) {
        let (n, s) = f(t, 0..t.len());
        (&t[n], &t[s])
    }

    #[test]
    fn assignments() {
        for (text, name, secret) in [
            ("FOO_TOKEN=abc", "FOO_TOKEN", "abc"),
            (r#"password": "p w""#, "password", "p w"),
            (r#"api_key\": \"k1\""#, "api_key", "k1"),
            ("password' => 'pw'", "password", "pw"),
            ("token := 't'", "token", "t"),
            ("token%3Dabc", "token", "abc"),
            ("auth=('admin', 'pw')", "auth", "pw"),
            ("Authorization: Bearer abc", "Authorization", "abc"),
            ("auth: tokenish", "auth", "tokenish"),
            (r"token=\xyz", "token", r"\xyz"),
            ("API key: k1", "API key", "k1"),
            ("Password:** `pw`", "Password", "`pw`"),
            ("Password**: pw", "Password", "pw"),
        ] {
            assert_eq!(parts(assignment, text), (name, secret), "{text}");
        }
    }

    #[test]
    fn flags() {
        for (text, name, secret) in [
            (" --password pw1", "password", "pw1"),
            ("-storepass 'p w'", "storepass", "p w"),
            (" --api-key \"k\"", "api-key", "k"),
        ] {
            assert_eq!(parts(flag, text), (name, secret), "{text}");
        }
    }
}
