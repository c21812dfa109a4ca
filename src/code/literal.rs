//! The literals of C/C++, Rust and Go, whose quoting differs from Python's and JavaScript's:
//! `'x'` is a character (in Rust, `'a` with no closing quote is a lifetime), Rust has raw and
//! byte strings (`r#"…"#`, `b"…"`), C++ raw strings (`R"d(…)d"`) and C's encoding prefixes
//! (`L"…"`, `u8"…"`), Go raw strings (`` `…` ``). A character names no file: it is lexed as a
//! number, so it never reads as a path.

use super::lex::{escape, Lang, Tok};

/// The literal starting at byte `i`, and the index after it: `Some((None, end))` for what
/// is no token (a lifetime's quote), `None` when no literal starts here.
pub fn at(code: &str, i: usize, lang: Lang) -> Option<(Option<Tok>, usize)> {
    let b = code.as_bytes();
    // A prefix starts a word: `xr"…"` is a name, then a string.
    let word = |k: usize| b[k].is_ascii_alphanumeric() || b[k] == b'_';
    if word(i) && i > 0 && word(i - 1) {
        return None;
    }
    let (q, raw) = prefix(b, i, lang)?;
    match b.get(q)? {
        b'"' if raw => raw_string(code, q, lang),
        b'"' => Some(quoted(code, q, lang)),
        b'\'' => character(code, q, lang),
        b'`' if lang == Lang::Go && q == i => Some(go_raw(code, q)),
        _ => None,
    }
}

/// The index of the opening quote after a prefix at `i`, and whether the string is raw
/// (Rust's `r`, C++'s `R`, each with the hashes or delimiter after it).
fn prefix(b: &[u8], i: usize, lang: Lang) -> Option<(usize, bool)> {
    let word_end = (i..b.len())
        .find(|&j| !b[j].is_ascii_alphanumeric() && b[j] != b'_')
        .unwrap_or(b.len());
    let word = std::str::from_utf8(&b[i..word_end]).ok()?;
    let raw = match (lang, word) {
        (_, "") => false,
        (Lang::Rust, "b" | "c") => false,
        (Lang::Rust, "r" | "br" | "cr") => true,
        (Lang::C, "L" | "u" | "U" | "u8") => false,
        (Lang::C, "R" | "LR" | "uR" | "UR" | "u8R") => true,
        _ => return None,
    };
    // Rust's raw strings open with as many hashes as close them.
    let hashes = match (lang, raw) {
        (Lang::Rust, true) => b[word_end..].iter().take_while(|&&c| c == b'#').count(),
        _ => 0,
    };
    Some((word_end + hashes, raw))
}

/// `"…"` from the quote at `q`: its value (escapes decoded), unknown when unterminated. A C or
/// Go string ends at its line.
fn quoted(code: &str, q: usize, lang: Lang) -> (Option<Tok>, usize) {
    let b = code.as_bytes();
    let mut value = String::new();
    let mut j = q + 1;
    while j < b.len() {
        match b[j] {
            b'\\' => {
                let (decoded, len) = escape(&code[j..]);
                value.push_str(&decoded);
                j += len;
                continue;
            }
            b'"' => return (Some(Tok::Str(Some(value))), j + 1),
            b'\n' if lang != Lang::Rust => return (Some(Tok::Str(None)), j),
            _ => {}
        }
        let len = code[j..].chars().next().map_or(1, char::len_utf8);
        value.push_str(&code[j..j + len]);
        j += len;
    }
    (Some(Tok::Str(None)), b.len())
}

/// Rust's `r#"…"#` (as many hashes to close as opened), C++'s `R"delim(…)delim"`: the text as
/// written.
fn raw_string(code: &str, q: usize, lang: Lang) -> Option<(Option<Tok>, usize)> {
    let (open, close) = match lang {
        Lang::Rust => {
            let hashes = code[..q].bytes().rev().take_while(|&c| c == b'#').count();
            (q + 1, format!("\"{}", "#".repeat(hashes)))
        }
        _ => {
            let paren = code[q + 1..].find('(')?;
            let delim = &code[q + 1..q + 1 + paren];
            (q + 2 + paren, format!("){delim}\""))
        }
    };
    match code[open..].find(&close) {
        Some(len) => {
            let value = code[open..open + len].to_string();
            Some((Some(Tok::Str(Some(value))), open + len + close.len()))
        }
        None => Some((Some(Tok::Str(None)), code.len())),
    }
}

/// `'x'`, `'\n'`, `'\u{2f}'`: a character, lexed as a number. In Rust a quote not closed
/// after one character (or escape) opens a lifetime or a label (`'a`, `'outer:`): no token.
fn character(code: &str, q: usize, lang: Lang) -> Option<(Option<Tok>, usize)> {
    let b = code.as_bytes();
    let mut j = q + 1;
    if b.get(j) == Some(&b'\\') {
        j += escape(&code[j..]).1;
    } else {
        j += code.get(j..)?.chars().next().map_or(1, char::len_utf8);
    }
    if b.get(j) == Some(&b'\'') {
        let text = code[q..=j].to_string();
        return Some((Some(Tok::Num(text)), j + 1));
    }
    if lang == Lang::Rust {
        return Some((None, q + 1));
    }
    // A C multi-character constant (`'ab'`): to the closing quote on the line.
    let end = (q + 1..b.len())
        .find(|&k| b[k] == b'\'' || b[k] == b'\n')
        .map_or(b.len(), |k| k + usize::from(b[k] == b'\''));
    Some((Some(Tok::Num(code[q..end].to_string())), end))
}

/// Go's `` `…` ``: no escapes, any line.
fn go_raw(code: &str, q: usize) -> (Option<Tok>, usize) {
    match code[q + 1..].find('`') {
        Some(len) => (
            Some(Tok::Str(Some(code[q + 1..q + 1 + len].to_string()))),
            q + 2 + len,
        ),
        None => (Some(Tok::Str(None)), code.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::super::lex::tests::toks;
    use super::*;

    fn name(n: &str) -> Tok {
        Tok::Name(n.into())
    }

    fn s(v: &str) -> Tok {
        Tok::Str(Some(v.into()))
    }

    #[test]
    fn rust_strings_characters_and_lifetimes() {
        let t = toks(
            "fn f<'a>(x: &'a str) { let c = '\"'; r#\"a\"b\"#; b\"x\\n\"; std::fs::x() }",
            Lang::Rust,
        );
        assert!(t.contains(&s("a\"b")), "{t:?}");
        assert!(t.contains(&s("x\n")));
        assert!(t.contains(&Tok::Num("'\"'".into())));
        // `std::fs::x` is the chain `std.fs.x`.
        let at = t.iter().position(|x| *x == name("std")).unwrap();
        assert_eq!(t[at + 1], Tok::Punct('.'));
        assert_eq!(t[at + 2], name("fs"));
    }

    #[test]
    fn c_strings_characters_directives_and_roots() {
        let t = toks(
            "#define CMD \"rm\" \\\n  \"x\"\nint main(){ char q = '\"'; ::system(L\"a\\101\"); }",
            Lang::C,
        );
        // The directive, continued over its line end, ends in `;`.
        let semi = t.iter().position(|x| *x == Tok::Punct(';')).unwrap();
        assert_eq!(t[semi - 1], s("x"));
        assert!(t.contains(&Tok::Num("'\"'".into())));
        assert!(t.contains(&s("aA")));
        // `::system` starts at `system`.
        let at = t.iter().position(|x| *x == name("system")).unwrap();
        assert_eq!(t[at - 1], Tok::Punct(';'));
        let t = toks("R\"x(a\"b)x\" u8R\"(c)\"", Lang::C);
        assert_eq!(t, vec![s("a\"b"), s("c")]);
    }

    #[test]
    fn go_raw_strings_runes_and_inserted_semicolons() {
        let t = toks("x := `a\\b`\ny := 'z'\nf(\n  1,\n)", Lang::Go);
        assert_eq!(
            t,
            vec![
                name("x"),
                Tok::Punct(':'),
                Tok::Punct('='),
                s("a\\b"),
                Tok::Punct(';'),
                name("y"),
                Tok::Punct(':'),
                Tok::Punct('='),
                Tok::Num("'z'".into()),
                Tok::Punct(';'),
                name("f"),
                Tok::Punct('('),
                Tok::Num("1".into()),
                Tok::Punct(','),
                Tok::Punct(')'),
            ]
        );
    }
}
