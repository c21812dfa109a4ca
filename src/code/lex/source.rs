//! What comes before a program's first token: a byte-order mark (which Python and Node skip),
//! a JavaScript hashbang line (`#!/usr/bin/env node`, a comment to Node however many quotes it
//! holds), and Python's source encoding declaration (PEP 263: `# coding: utf-7` in the first
//! two lines makes Python decode the file another way, `+AGk-` or `\x69mport` turning into
//! code the text does not show). The lexer reads UTF-8; a program declared in an encoding
//! that reads ASCII otherwise is not read.

use super::Lang;

/// The index of the program's first token, or why it cannot be read.
pub(super) fn start(code: &str, lang: Lang) -> Result<usize, String> {
    let bom = if code.starts_with('\u{feff}') { 3 } else { 0 };
    let text = &code[bom..];
    match lang {
        Lang::Python => match declared_encoding(text) {
            Some(name) if !reads_as_utf8(&name) => Err(format!(
                "a program in the source encoding {name}, which the reader does not decode"
            )),
            _ => Ok(bom),
        },
        Lang::Js if text.starts_with("#!") => {
            let line = text.find(['\n', '\r', '\u{2028}', '\u{2029}']);
            Ok(bom + line.unwrap_or(text.len()))
        }
        _ => Ok(bom),
    }
}

/// The encoding a comment in the first two lines declares (`# -*- coding: latin-1 -*-`, `#
/// vim: set fileencoding=utf-8 :`), as Python finds it: `coding` and `:` or `=`, then the name.
fn declared_encoding(text: &str) -> Option<String> {
    // Python reads `\r` as a line break too.
    for line in text.split(['\n', '\r']).take(2) {
        let line = line.trim_start_matches([' ', '\t', '\x0c']);
        if !line.starts_with('#') {
            continue;
        }
        for (at, _) in line.match_indices("coding") {
            let rest = &line[at + "coding".len()..];
            let Some(rest) = rest.strip_prefix([':', '=']) else {
                continue;
            };
            let name: String = rest
                .trim_start_matches([' ', '\t'])
                .chars()
                .take_while(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'))
                .collect();
            if !name.is_empty() {
                return Some(name);
            }
        }
    }
    None
}

/// Whether an encoding reads the program's text as UTF-8 does, as far as its tokens go:
/// UTF-8, ASCII and Latin-1 (which differ from UTF-8 only above ASCII, in strings, comments
/// and names), by the names Python accepts for them.
fn reads_as_utf8(name: &str) -> bool {
    let n = name.to_ascii_lowercase().replace('_', "-");
    const SAME: [&str; 11] = [
        "utf-8",
        "utf8",
        "ascii",
        "us-ascii",
        "latin-1",
        "latin1",
        "iso-8859-1",
        "iso8859-1",
        "iso-latin-1",
        "l1",
        "u8",
    ];
    SAME.contains(&n.as_str())
        || ["utf-8-", "latin-1-", "iso-8859-1-", "iso-latin-1-"]
            .iter()
            .any(|p| n.starts_with(p))
}
