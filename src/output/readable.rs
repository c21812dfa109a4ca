//! The text as its reader sees it, for finding claims. An agent can keep a claim from matching
//! without changing what people read: a line break or two spaces between words, invisible
//! characters inside a word, look-alike letters from another script, full-width forms, curly
//! apostrophes, and markup the host removes before delivery (`[[audio_as_voice]]` tags,
//! `\uE200…\uE201` citation marks, a literal `\n` it turns into a line break). Claims are looked
//! for in the text with all of that undone, after the host's rendering (`rendered`).

use super::rendered::{rendered, MARKUP};
use super::unicode_tables::CONFUSABLES;
use std::borrow::Cow;
use unicode_normalization::UnicodeNormalization;

/// `text` as read: rendered as the host renders it (`rendered`), compatibility forms folded
/// (NFKC), a right-to-left override shown in the order it displays, invisible characters
/// dropped, look-alikes mapped to the Latin letter they imitate, and every run of white space
/// (and of characters drawn blank) one space.
pub fn readable(text: &str) -> Cow<'_, str> {
    if text.is_ascii() && !ascii_work(text) {
        return Cow::Borrowed(text);
    }
    let shown = rendered(text);
    let ordered = display_order(&shown);
    let unmarked = without_broken_citations(&ordered);
    let mut out = String::with_capacity(unmarked.len());
    let mut space = false;
    let mut chars = unmarked.nfkc().peekable();
    while let Some(c) = chars.next() {
        if blank(c) {
            space = true;
            continue;
        }
        if invisible(c) {
            continue;
        }
        if bracket(c) {
            // "is[not]installed" reads as three words, "[[not]]" as one.
            let between = out.chars().next_back().is_some_and(char::is_alphanumeric)
                && chars.peek().is_some_and(|n| n.is_alphanumeric());
            space |= between;
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

/// What is left of a citation mark the host did not strip (it strips only whole ones, see
/// `rendered`): `\u{E200}cite` shows as a box or nothing and the word "cite", which a reader
/// passes over as the mark it is. The private-use characters themselves are `invisible`.
fn without_broken_citations(text: &str) -> Cow<'_, str> {
    match text.contains("\u{e200}cite") {
        true => Cow::Owned(text.replace("\u{e200}cite", "\u{e200}")),
        false => Cow::Borrowed(text),
    }
}

/// Square and curly brackets around a word are decoration to its reader: "[[not]]" is shown
/// as written (the host strips only its own directives) and read as "not".
fn bracket(c: char) -> bool {
    matches!(c, '[' | ']' | '{' | '}')
}

/// Whether an ASCII text has anything to undo: white space other than single spaces,
/// brackets, or markup the host strips or renders (`rendered::MARKUP`). One pass, a table
/// lookup a byte.
fn ascii_work(text: &str) -> bool {
    let b = text.as_bytes();
    let mut prev_space = false;
    for &c in b {
        let space = c == b' ';
        if WORK[usize::from(c)] || space && prev_space {
            return true;
        }
        prev_space = space;
    }
    false
}

/// The bytes that send an ASCII text the slow way.
static WORK: [bool; 256] = {
    let mut t = [false; 256];
    let bytes = b"\n\r\t\x0b\x0c]{}";
    let mut i = 0;
    while i < bytes.len() {
        t[bytes[i] as usize] = true;
        i += 1;
    }
    let mut j = 0;
    while j < MARKUP.len() {
        t[MARKUP[j] as usize] = true;
        j += 1;
    }
    t
};

/// Right-to-left override (U+202E) up to its pop (U+202C) or the paragraph's end: the
/// characters inside display in reverse order, so `\u{202E}ton\u{202C}` shows "not"
/// (Unicode Bidirectional Algorithm, UAX #9, rule X4 and L2). Nested embeddings inside are
/// taken as part of the run.
fn display_order(text: &str) -> Cow<'_, str> {
    if !text.contains('\u{202e}') {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('\u{202e}') {
        out.push_str(&rest[..at]);
        let run = &rest[at + '\u{202e}'.len_utf8()..];
        let (mut depth, mut end) = (0usize, run.len());
        for (i, c) in run.char_indices() {
            match c {
                '\u{202a}' | '\u{202b}' | '\u{202d}' | '\u{202e}' => depth += 1,
                '\u{202c}' if depth == 0 => {
                    end = i;
                    break;
                }
                '\u{202c}' => depth -= 1,
                '\n' | '\r' | '\u{2029}' => {
                    end = i;
                    break;
                }
                _ => {}
            }
        }
        out.extend(run[..end].chars().rev());
        rest = &run[end..];
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// Characters drawn as nothing: Unicode's default-ignorable code points
/// (DerivedCoreProperties.txt: soft hyphen, zero-width spaces and joiners, the word joiner,
/// bidirectional controls, variation selectors, a byte-order mark, tag characters…) but for
/// those `blank` takes, and private-use characters, which have no glyph of their own (the
/// model's citation marks U+E200…U+E202 among them).
fn invisible(c: char) -> bool {
    matches!(
        c,
        '\u{e000}'..='\u{f8ff}'
            | '\u{f0000}'..='\u{ffffd}'
            | '\u{100000}'..='\u{10fffd}'
            |
        '\u{00ad}'
            | '\u{034f}'
            | '\u{061c}'
            | '\u{17b4}'..='\u{17b5}'
            | '\u{180b}'..='\u{180f}'
            | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{206f}'
            | '\u{fe00}'..='\u{fe0f}'
            | '\u{feff}'
            | '\u{1bca0}'..='\u{1bca3}'
            | '\u{1d173}'..='\u{1d17a}'
            | '\u{e0000}'..='\u{e0fff}'
    )
}

/// White space, and characters fonts draw as a blank of some width though Unicode does not
/// call them space: the Hangul fillers (U+115F, U+1160, U+3164 and its half-width form
/// U+FFA0, default-ignorable but shown blank) and the blank braille pattern (U+2800).
fn blank(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c,
            '\u{115f}' | '\u{1160}' | '\u{3164}' | '\u{ffa0}' | '\u{2800}'
        )
}

/// A letter drawn like a Latin one, and curly quotes, as the character a reader takes them
/// for: Unicode's confusables with a one-letter prototype (`unicode_tables`), and three Greek
/// letters UTS #39 leaves out that read as Latin in running text.
fn look_alike(c: char) -> char {
    if c.is_ascii() {
        return c;
    }
    if let Ok(i) = CONFUSABLES.binary_search_by(|(k, _)| k.cmp(&c)) {
        return CONFUSABLES[i].1;
    }
    match c {
        'ε' => 'e',
        'χ' => 'x',
        'κ' => 'k',
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
            // Brackets the host shows are read around their words; a backslash stays.
            ("a [[not a tag]] b \\x", "a not a tag b \\x"),
            ("nginx is **not** installed", "nginx is not installed"),
            (
                "nginx is &#110;ot <b>installed</b>",
                "nginx is not installed",
            ),
            ("nginx is n\u{585}t \u{261}one", "nginx is not gone"),
            (
                "nginx\u{2800}is not\u{3164}installed",
                "nginx is not installed",
            ),
            (
                "nginx is \u{202e}ton\u{202c} installed",
                "nginx is not installed",
            ),
            (
                "nginx is \u{e200}cite not\u{e201} installed",
                "nginx is not installed",
            ),
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
