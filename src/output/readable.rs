//! The text as its reader sees it, for finding claims. An agent can keep a claim from matching
//! without changing what people read: a line break or two spaces between words, invisible
//! characters inside a word, look-alike letters from another script, full-width forms, curly
//! apostrophes, and markup the host removes before delivery (`[[audio_as_voice]]` tags,
//! `\uE200…\uE201` citation marks, a literal `\n` it turns into a line break). Claims are looked
//! for in the text with all of that undone.

use std::borrow::Cow;
use unicode_normalization::UnicodeNormalization;

/// `text` as read: markup the host removes taken out, compatibility forms folded (NFKC),
/// invisible characters dropped, look-alikes mapped to the Latin letter they imitate, and every
/// run of white space one space.
pub fn readable(text: &str) -> Cow<'_, str> {
    if text.is_ascii() && !ascii_work(text) {
        return Cow::Borrowed(text);
    }
    let unmarked = without_host_markup(text);
    let mut out = String::with_capacity(unmarked.len());
    let mut space = false;
    for c in unmarked.nfkc() {
        if invisible(c) {
            continue;
        }
        if c.is_whitespace() {
            space = true;
            continue;
        }
        if space && !out.is_empty() {
            out.push(' ');
        }
        space = false;
        out.push(look_alike(c));
    }
    Cow::Owned(out)
}

/// Whether an ASCII text has anything to undo: white space other than single spaces, a literal
/// `\n`, or a directive tag.
fn ascii_work(text: &str) -> bool {
    let b = text.as_bytes();
    b.windows(2)
        .any(|w| w == b"  " || w == b"\\n" || w == b"[[")
        || b.iter()
            .any(|&c| matches!(c, b'\n' | b'\r' | b'\t' | 0x0b | 0x0c))
}

/// What the host strips before it sends (OpenClaw 2026.9.6): `[[tag]]` directives, citation
/// spans between U+E200 and U+E201, and a literal backslash-n, which becomes a line break.
fn without_host_markup(text: &str) -> Cow<'_, str> {
    if !text.contains("[[") && !text.contains('\u{e200}') && !text.contains("\\n") {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let skip = match c {
            // A tag between two words leaves them apart.
            '[' => directive_len(rest).inspect(|_| out.push(' ')),
            '\u{e200}' => rest.find('\u{e201}').map(|end| end + '\u{e201}'.len_utf8()),
            '\\' if rest[1..].starts_with('n') => {
                out.push('\n');
                Some(2)
            }
            _ => None,
        };
        let n = skip.unwrap_or_else(|| {
            out.push(c);
            c.len_utf8()
        });
        rest = &rest[n..];
    }
    Cow::Owned(out)
}

/// `[[audio_as_voice]]`, `[[reply_to_current]]`: a tag of word characters, at most 64.
fn directive_len(s: &str) -> Option<usize> {
    let inner = s.strip_prefix("[[")?;
    let end = inner.find("]]")?;
    let tag = &inner[..end];
    let word = !tag.is_empty()
        && tag.len() <= 64
        && tag
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | ':'));
    word.then_some(end + 4)
}

/// Characters that show nothing: zero-width spaces and joiners, the word joiner, a byte-order
/// mark, a soft hyphen, the Mongolian vowel separator.
fn invisible(c: char) -> bool {
    matches!(
        c,
        '\u{200b}'..='\u{200d}' | '\u{2060}' | '\u{feff}' | '\u{00ad}' | '\u{180e}'
    )
}

/// Cyrillic and Greek letters drawn like Latin ones, and curly quotes, as the character a
/// reader takes them for.
fn look_alike(c: char) -> char {
    match c {
        'а' | 'α' => 'a',
        'е' | 'ε' => 'e',
        'о' | 'ο' => 'o',
        'р' | 'ρ' => 'p',
        'с' => 'c',
        'у' => 'y',
        'х' | 'χ' => 'x',
        'і' | 'ι' => 'i',
        'ј' => 'j',
        'ѕ' => 's',
        'ԁ' => 'd',
        'ν' => 'v',
        'κ' => 'k',
        'А' | 'Α' => 'A',
        'В' | 'Β' => 'B',
        'Е' | 'Ε' => 'E',
        'К' | 'Κ' => 'K',
        'М' | 'Μ' => 'M',
        'Н' | 'Η' => 'H',
        'О' | 'Ο' => 'O',
        'Р' | 'Ρ' => 'P',
        'С' => 'C',
        'Т' | 'Τ' => 'T',
        'Х' | 'Χ' => 'X',
        'І' | 'Ι' => 'I',
        'Ј' => 'J',
        'Ѕ' => 'S',
        'Ζ' => 'Z',
        'Ν' => 'N',
        'Υ' => 'Y',
        '\u{2018}' | '\u{2019}' | '\u{201b}' | '\u{2032}' => '\'',
        '\u{201c}' | '\u{201d}' | '\u{201f}' | '\u{2033}' => '"',
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::readable;

    #[test]
    fn what_a_reader_sees() {
        let cases = [
            ("nginx is not installed", "nginx is not installed"),
            ("nginx is\nnot  installed", "nginx is not installed"),
            ("nginx\u{a0}is not installed", "nginx is not installed"),
            (
                "ngi\u{200b}nx is n\u{ad}ot installed",
                "nginx is not installed",
            ),
            ("nginx is n\u{43e}t installed", "nginx is not installed"),
            ("ｎｇｉｎｘ isn\u{2019}t installed", "nginx isn't installed"),
            (
                "nginx is not[[audio_as_voice]] installed",
                "nginx is not installed",
            ),
            (
                "nginx is not[[audio_as_voice]]installed",
                "nginx is not installed",
            ),
            (
                "nginx is no\u{e200}cite\u{e201}t installed",
                "nginx is not installed",
            ),
            ("nginx is not\\ninstalled", "nginx is not installed"),
            // An ordinary bracket and backslash stay.
            ("a [[not a tag]] b \\x", "a [[not a tag]] b \\x"),
        ];
        for (text, want) in cases {
            assert_eq!(readable(text), want, "{text:?}");
        }
    }

    #[test]
    fn plain_ascii_is_not_copied() {
        assert!(matches!(
            readable("nginx is running on web-01"),
            std::borrow::Cow::Borrowed(_)
        ));
    }
}
