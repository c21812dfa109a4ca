//! The text as it shows once the host has rendered it, for finding claims. OpenClaw 2026.9.6
//! renders an agent's Markdown before delivery (Telegram: `markdownToTelegramHtml`,
//! text-chunk-limit-LqLRfc4Y.mjs:498, called from send-CUTPGaok.mjs:3612 for replies and
//! through `renderTelegramHtmlText` for the message tool; the Control UI renders the transcript's
//! Markdown too), so `**not**`, `n*o*t`, `` `not` ``, `||not||`, `[not](url)`, `&#110;ot` and
//! `n<i></i>ot` all show as "not". What the host strips before it renders is stripped here, and
//! only that: a claim inside something else stays where a recipient reads it.

use super::unicode_tables::ENTITIES;
use std::borrow::Cow;

/// `text` as displayed: the host's own markup taken out, character references decoded, the
/// HTML tags Telegram renders and the Markdown delimiters the renderer consumes removed.
pub fn rendered(text: &str) -> Cow<'_, str> {
    let mut out = without_host_markup(text);
    for pass in [
        decoded as fn(&str) -> Option<String>,
        untagged,
        unlinked,
        unmarked,
    ] {
        if let Some(changed) = pass(&out) {
            out = Cow::Owned(changed);
        }
    }
    out
}

/// The bytes of everything `rendered` may change in an ASCII text: without one, it changes
/// nothing.
pub const MARKUP: [u8; 10] = [b'*', b'_', b'`', b'~', b'|', b'[', b'&', b'<', b'#', b'\\'];

fn may_render(b: &[u8]) -> bool {
    b.iter().any(|c| MARKUP.contains(c))
}

/// What the host strips before anything renders (OpenClaw 2026.9.6), exactly:
/// - the reply directives `[[audio_as_voice]]`, `[[reply_to_current]]` and
///   `[[reply_to: <id>]]`, white space allowed inside the brackets, any case
///   (directive-tags-D9uZSb5h.mjs:8-9); no other `[[…]]`;
/// - the citation marks `\u{E200}cite\u{E201}` and `\u{E200}cite\u{E202}…\u{E201}`
///   (payloads-Ce1fWBq6.mjs:9-14), not a lone `\u{E200}` nor one around other text;
/// - a literal `\r\n`, `\n` or `\r`, which becomes a line break
///   (`normalizeEscapedLineBreaksForVisibleText`, openclaw-tools-thu-J91q.mjs:7274).
fn without_host_markup(text: &str) -> Cow<'_, str> {
    if !text.contains("[[") && !text.contains('\u{e200}') && !text.contains('\\') {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let skip = match c {
            // A tag between two words leaves them apart.
            '[' => directive_len(rest).inspect(|_| out.push(' ')),
            '\u{e200}' => citation_len(rest),
            '\\' => escaped_break_len(rest).inspect(|_| out.push('\n')),
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

/// `[[audio_as_voice]]`, `[[reply_to_current]]`, `[[ reply_to : 123 ]]`: its length.
fn directive_len(s: &str) -> Option<usize> {
    let inner = s.strip_prefix("[[")?;
    let end = inner.find("]]")?;
    let tag = inner[..end].trim().to_ascii_lowercase();
    let reply_to = |t: &str| {
        let id = t.strip_prefix("reply_to")?.trim_start().strip_prefix(':')?;
        // `[^\]\n]+` in the host's pattern.
        (!id.trim().is_empty() && !id.contains(['\n', ']'])).then_some(())
    };
    let known = tag == "audio_as_voice" || tag == "reply_to_current" || reply_to(&tag).is_some();
    known.then_some(end + 4)
}

/// `\u{E200}cite\u{E201}` or `\u{E200}cite\u{E202}…\u{E201}`: its length.
fn citation_len(s: &str) -> Option<usize> {
    let rest = s.strip_prefix("\u{e200}cite")?;
    let body = match rest.strip_prefix('\u{e202}') {
        Some(refs) => '\u{e202}'.len_utf8() + refs.find('\u{e201}')?,
        None => 0,
    };
    rest[body..]
        .starts_with('\u{e201}')
        .then(|| "\u{e200}cite".len() + body + '\u{e201}'.len_utf8())
}

/// `\r\n`, `\n`, `\r` written as backslash sequences: their length.
fn escaped_break_len(s: &str) -> Option<usize> {
    if s.starts_with("\\r\\n") {
        Some(4)
    } else if s.starts_with("\\n") || s.starts_with("\\r") {
        Some(2)
    } else {
        None
    }
}

/// Character references decoded, as markdown-it does (`decodeHTMLStrict`: the `;` is
/// required): `&#110;`, `&#x6e;`, and the named ones that can spell a word (`&nbsp;`, `&shy;`,
/// `&omicron;`…; see `unicode_tables`). `None` when there is none.
fn decoded(text: &str) -> Option<String> {
    if !text.contains('&') {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let mut changed = false;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        match reference(rest) {
            Some((len, decoded)) => {
                out.push_str(&decoded);
                rest = &rest[len..];
                changed = true;
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    changed.then_some(out)
}

/// The reference `s` opens with: its length and its text.
fn reference(s: &str) -> Option<(usize, Cow<'static, str>)> {
    let end = s[1..].find(';')? + 1;
    let body = &s[1..end];
    if body.is_empty() || body.len() > 32 {
        return None;
    }
    let text = match body.strip_prefix('#') {
        Some(num) => {
            let code = match num.strip_prefix(['x', 'X']) {
                Some(hex) if (1..=6).contains(&hex.len()) => u32::from_str_radix(hex, 16).ok()?,
                None if (1..=7).contains(&num.len()) && num.bytes().all(|b| b.is_ascii_digit()) => {
                    num.parse().ok()?
                }
                _ => return None,
            };
            // Invalid code points read as the replacement character, as in markdown-it.
            let c = char::from_u32(code)
                .filter(|&c| c != '\0')
                .unwrap_or('\u{fffd}');
            Cow::Owned(c.to_string())
        }
        None => {
            let i = ENTITIES.binary_search_by(|(n, _)| n.cmp(&body)).ok()?;
            Cow::Borrowed(ENTITIES[i].1)
        }
    };
    Some((end + 1, text))
}

/// The tags Telegram renders rather than shows (`TELEGRAM_SIMPLE_HTML_TAGS` and
/// `TELEGRAM_ATTR_HTML_TAG_PATTERNS`, text-chunk-limit-LqLRfc4Y.mjs:516-537); the host escapes
/// any other tag, which then shows as written.
const RENDERED_TAGS: [&str; 17] = [
    "a",
    "b",
    "blockquote",
    "code",
    "del",
    "em",
    "i",
    "ins",
    "pre",
    "s",
    "span",
    "strike",
    "strong",
    "tg-emoji",
    "tg-spoiler",
    "tg-time",
    "u",
];

/// The tags a recipient does not see taken out, whatever their attributes and case (the host
/// lower-cases the name, text-chunk-limit-LqLRfc4Y.mjs:573). `None` when there is none.
fn untagged(text: &str) -> Option<String> {
    if !text.contains('<') {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let mut changed = false;
    while let Some(at) = rest.find('<') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        match tag_len(rest) {
            Some(len) => {
                rest = &rest[len..];
                changed = true;
            }
            None => {
                out.push('<');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    changed.then_some(out)
}

/// `<b>`, `</tg-spoiler>`, `<a href="…">`: the length of a rendered tag `s` opens with
/// (`HTML_MODE_TAG_PATTERN`, `<(\/?)([a-zA-Z][a-zA-Z0-9-]*)([^<>]*)>`).
fn tag_len(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let name_at = if b.get(1) == Some(&b'/') { 2 } else { 1 };
    let name_len = b[name_at..]
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'-')
        .count();
    if name_len == 0 || !b[name_at].is_ascii_alphabetic() {
        return None;
    }
    let name = s[name_at..name_at + name_len].to_ascii_lowercase();
    if !RENDERED_TAGS.contains(&name.as_str()) {
        return None;
    }
    let close = s[name_at + name_len..].find(['<', '>'])? + name_at + name_len;
    (b[close] == b'>').then_some(close + 1)
}

/// Markdown's delimiters taken out as the renderer consumes them (markdown-it with
/// strikethrough and spoilers, ir-CdrgmCrl.mjs:1033): `*` and `**` anywhere (`n*o*t` is
/// emphasis inside a word), `_` and `__` except inside a word (`snake_case` stays), `~~`,
/// `||`, backticks, a backslash escaping punctuation and heading marks at a line's start.
/// `None` when there is none.
fn unmarked(text: &str) -> Option<String> {
    if !may_render(text.as_bytes()) {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let mut prev: Option<char> = None;
    let mut line_start = true;
    while let Some(c) = rest.chars().next() {
        let (skip, keep): (usize, &str) = match c {
            '*' | '`' => (1, ""),
            '~' if rest.starts_with("~~") => (2, ""),
            '|' if rest.starts_with("||") => (2, ""),
            '_' => underscores(rest, prev),
            '\\' if rest[1..].starts_with(|n: char| n.is_ascii_punctuation()) => (1, ""),
            '#' if line_start => headings(rest),
            _ => (0, ""),
        };
        if skip > 0 {
            out.push_str(keep);
            rest = &rest[skip..];
            continue;
        }
        out.push(c);
        line_start = c == '\n' || (line_start && c.is_whitespace());
        prev = Some(c);
        rest = &rest[c.len_utf8()..];
    }
    (out != text).then_some(out)
}

/// A run of `_` between two letters or digits is part of a word; any other is a delimiter.
fn underscores(rest: &str, prev: Option<char>) -> (usize, &'static str) {
    let run = rest.bytes().take_while(|&b| b == b'_').count();
    let next = rest[run..].chars().next();
    let word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    match word(prev) && word(next) {
        true => (0, ""),
        false => (run, ""),
    }
}

/// `#` to `######` and a space open a heading: the marks are not shown.
fn headings(rest: &str) -> (usize, &'static str) {
    let run = rest.bytes().take_while(|&b| b == b'#').count();
    match run <= 6 && rest[run..].starts_with([' ', '\t']) {
        true => (run, ""),
        false => (0, ""),
    }
}

/// Links read as their label: `[label](url)` and `![alt](url)` show `label` and `alt`.
/// `None` when there is none.
fn unlinked(text: &str) -> Option<String> {
    if !text.contains("](") {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let mut changed = false;
    while let Some(at) = rest.find('[') {
        let image = rest[..at].ends_with('!');
        out.push_str(&rest[..at - usize::from(image)]);
        rest = &rest[at..];
        match link(rest) {
            Some((label, len)) => {
                out.push_str(label);
                rest = &rest[len..];
                changed = true;
            }
            None => {
                if image {
                    out.push('!');
                }
                out.push('[');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    changed.then_some(out)
}

/// `[label](url)` at the start of `s`: the label and the link's length. The url has no space
/// or line break (a title after it is not taken).
fn link(s: &str) -> Option<(&str, usize)> {
    let body = s.strip_prefix('[')?;
    let close = body.find([']', '\n', '['])?;
    let url = body[close..].strip_prefix("](")?;
    let end = url.find([')', '\n', ' '])?;
    (url.as_bytes()[end] == b')').then(|| (&body[..close], 1 + close + 2 + end + 1))
}
