use super::*;

/// The tokens of `code` without their spans (also for `literal`'s tests).
pub(in crate::code) fn toks(code: &str, lang: Lang) -> Vec<Tok> {
    tokens(code, lang)
        .unwrap()
        .into_iter()
        .map(|(t, _)| t)
        .collect()
}

#[test]
fn python_strings_prefixes_and_comments() {
    let t = toks(
        "open(r'a\\b', f\"{x}\") # open('.env')\nb'\\x41'",
        Lang::Python,
    );
    assert_eq!(
        t,
        vec![
            Tok::Name("open".into()),
            Tok::Punct('('),
            Tok::Str(Some("a\\b".into())),
            Tok::Punct(','),
            Tok::Template(vec![String::new(), String::new()]),
            Tok::Punct(';'),
            Tok::Name("x".into()),
            Tok::Punct(';'),
            Tok::Punct(')'),
            Tok::Str(Some("A".into())),
        ]
    );
    assert_eq!(
        toks("'''a\n'b'''", Lang::Python),
        vec![Tok::Str(Some("a\n'b".into()))]
    );
}

#[test]
fn js_templates_and_comments() {
    let t = toks("fs.rmSync(`/x`, `${h}/y`) /* a */ // b", Lang::Js);
    assert_eq!(t[4], Tok::Str(Some("/x".into())));
    assert_eq!(t[6], Tok::Template(vec![String::new(), "/y".into()]));
    assert_eq!(t[8], Tok::Name("h".into()));
    assert_eq!(t.len(), 11);
    // A regular expression holding a quote is no string.
    let t = toks("x = /'/; f('a')", Lang::Js);
    assert_eq!(t[2], Tok::Str(None));
    assert_eq!(t[5], Tok::Punct('('));
    assert_eq!(
        toks("'\\u{2f}\\u002f'", Lang::Js),
        vec![Tok::Str(Some("//".into()))]
    );
}

fn name(n: &str) -> Tok {
    Tok::Name(n.into())
}

fn names(code: &str, lang: Lang) -> Vec<String> {
    toks(code, lang)
        .into_iter()
        .filter_map(|t| match t {
            Tok::Name(n) => Some(n),
            _ => None,
        })
        .collect()
}

#[test]
fn python_line_continuations_are_spaces() {
    assert_eq!(
        toks("import \\\n    subprocess", Lang::Python),
        vec![name("import"), name("subprocess")]
    );
    assert_eq!(
        toks("from os import \\\r\n system", Lang::Python),
        vec![name("from"), name("os"), name("import"), name("system")]
    );
    // In a string, a backslash before CRLF or CR continues it.
    assert_eq!(
        toks("'a\\\r\nb'; x", Lang::Python),
        vec![Tok::Str(Some("ab".into())), Tok::Punct(';'), name("x")]
    );
    assert_eq!(
        toks("'a\\\rb'", Lang::Python),
        vec![Tok::Str(Some("ab".into()))]
    );
}

#[test]
fn python_names_are_compared_in_nfkc() {
    assert_eq!(
        names(
            "ｓｕｂｐｒｏｃｅｓｓ.run(x, ｍｏｄｅ='w'); ﬁle",
            Lang::Python
        ),
        ["subprocess", "run", "x", "mode", "file"]
    );
    // A byte-order mark is no part of the first name.
    assert_eq!(names("\u{feff}import os", Lang::Python), ["import", "os"]);
}

#[test]
fn python_raw_strings_keep_escaped_quotes() {
    let t = toks("r'\\''; os.system('x'); _ = '#'", Lang::Python);
    assert_eq!(t[0], Tok::Str(Some("\\'".into())));
    assert_eq!(t[4], name("system"));
    assert_eq!(toks("rb'\\'' + x", Lang::Python)[2], name("x"));
}

#[test]
fn python_escapes_as_python_decodes_them() {
    let s = |code: &str| toks(code, Lang::Python).remove(0);
    assert_eq!(
        s("'~\\N{SOLIDUS}x\\N{low line}'"),
        Tok::Str(Some("~/x_".into()))
    );
    // A name the lexer does not know: the value is unknown, never the escape's text.
    assert_eq!(s("'\\N{FULLWIDTH SOLIDUS}'"), Tok::Str(None));
    // Bytes know no `\N`, `\u`; an unknown escape keeps its backslash.
    assert_eq!(s("b'\\N{SOLIDUS}'"), Tok::Str(Some("\\N{SOLIDUS}".into())));
    assert_eq!(s("b'\\u002f'"), Tok::Str(Some("\\u002f".into())));
    assert_eq!(s("'\\q\\x41\\u0042'"), Tok::Str(Some("\\qAB".into())));
    // A line break (CR too) ends no single-quoted string.
    assert_eq!(
        toks("'a\rb'", Lang::Python)[0],
        Tok::Str(None),
        "a CR ends the line"
    );
}

#[test]
fn python_comments_end_at_a_carriage_return() {
    assert_eq!(
        names("# note\ros.system('x')", Lang::Python),
        ["os", "system"]
    );
}

#[test]
fn python_f_string_conversions_and_specs_leave_the_value_unknown() {
    let t = toks("f\"{p:/<{w}}x\"", Lang::Python);
    assert_eq!(t[0], Tok::Template(vec![String::new(), "x".into()]));
    assert!(t.contains(&Tok::Str(None)), "{t:?}");
    assert!(t.contains(&name("w")), "{t:?}");
    let t = toks("f'{x!r}' + f'{a[1:2]}{{}}'", Lang::Python);
    assert!(t.contains(&Tok::Punct('!')), "{t:?}");
    assert!(t.contains(&Tok::Template(vec![String::new(), "{}".into()])));
}

#[test]
fn python_encodings_other_than_utf8_are_not_read() {
    for code in [
        "# coding: utf-7\n+AGk-",
        "#!/usr/bin/python3\n# -*- coding: unicode_escape -*-\n\\x69mport os",
        "# vim: set fileencoding=rot13 :\n",
    ] {
        assert!(tokens(code, Lang::Python).is_err(), "{code}");
    }
    for code in [
        "# -*- coding: utf-8 -*-\nimport os",
        "# coding=latin-1\n",
        "# coding: UTF_8\n",
        "x = 1\ny = 2\n# coding: utf-7\n",
    ] {
        assert!(tokens(code, Lang::Python).is_ok(), "{code}");
    }
}

#[test]
fn js_unicode_escapes_in_names_are_their_letters() {
    assert_eq!(
        names("\\u0072equire('x'); \\u{65}val(y); a\\u0062c", Lang::Js),
        ["require", "eval", "y", "abc"]
    );
}

#[test]
fn js_hashbang_lines_are_comments() {
    assert_eq!(
        names(
            "#!/usr/bin/env -S node --title=don't\nrequire('x')",
            Lang::Js
        ),
        ["require"]
    );
    // A line ends at CR, U+2028 and U+2029 too.
    assert_eq!(names("// a\rb /* c */ // d\u{2028}e", Lang::Js), ["b", "e"]);
    // A quote opens no string past its line.
    assert_eq!(
        names("<!-- it's\nrequire('x')", Lang::Js),
        ["it", "require"]
    );
}

#[test]
fn js_slashes_divide_or_open_regular_expressions_as_node_reads_them() {
    let ok = |code: &str| names(code, Lang::Js);
    // Division: after a postfix `++`, a name, a property named like a keyword.
    assert_eq!(ok("n++ / 1; f('a'); n / 1"), ["n", "f", "n"]);
    assert_eq!(ok("x.return / 2; f('a') / 1"), ["x", "return", "f"]);
    // Regular expressions: after `else`, an `if (…)` header, a prefix `++`, `return`.
    assert_eq!(
        ok("if (q) {} else /'/.test(''); f() // '"),
        ["if", "q", "else", "test", "f"]
    );
    assert_eq!(
        ok("if (v) /'/.test(''); f() // '"),
        ["if", "v", "test", "f"]
    );
    assert_eq!(ok("a\n++/'/.lastIndex; f() // '"), ["a", "lastIndex", "f"]);
    assert_eq!(ok("g(x) / 2; f('/')"), ["g", "x", "f"]);
    // After `}` or `await` both can be meant: read when both readings agree.
    assert_eq!(ok("x = {} / 2; f()"), ["x", "f"]);
    assert!(tokens("if (a) {} /'/.test(''); f() // '", Lang::Js).is_err());
    assert!(tokens("let await = 1; await / 2; f('x'); y / 1", Lang::Js).is_err());
}

#[test]
fn js_placeholders_know_strings_regexes_and_comments() {
    let t = toks("`${ /}`/.source }`; f(); // `", Lang::Js);
    assert!(t.contains(&name("f")), "{t:?}");
    let t = toks("`${ '}' /* } */ }x`; g()", Lang::Js);
    assert_eq!(t[0], Tok::Template(vec![String::new(), "x".into()]));
    assert!(t.contains(&name("g")), "{t:?}");
    // A tagged template, then a division after it.
    let t = toks("tag`${a}` / 2; f('/x/')", Lang::Js);
    assert!(t.contains(&Tok::Str(Some("/x/".into()))), "{t:?}");
}
