//! `env -S STRING` (GNU coreutils, "env invocation"): env splits STRING into arguments
//! itself, with rules of its own: blanks separate, `'…'` is literal, `"…"` keeps blanks,
//! backslash escapes (`\_` a blank, `\c` ends the string), a `#` starting a word comments out
//! the rest, and `${NAME}` is replaced by NAME from env's environment (`$NAME` without braces
//! is an error, taken here as text).

/// One word of the split string; `unresolved` when a variable in it is only known when it
/// runs (its place holds `*`).
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Word {
    pub text: String,
    pub unresolved: bool,
}

/// The words of `text`; `lookup` gives a variable's value, `None` when only known at run time.
pub(super) fn split(text: &str, lookup: impl Fn(&str) -> Option<String>) -> Vec<Word> {
    let mut out = Vec::new();
    let mut cur: Option<Word> = None;
    let mut quote: Option<char> = None;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (None, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c') => out.extend(cur.take()),
            (None, '#') if cur.is_none() => break,
            (None, '\'' | '"') => {
                quote = Some(c);
                cur.get_or_insert_with(empty);
            }
            (Some(q), _) if c == q => quote = None,
            (Some('\''), '\\') if matches!(chars.peek(), Some('\\' | '\'')) => {
                let next = chars.next().unwrap_or('\\');
                push(&mut cur, next);
            }
            (Some('\''), _) => push(&mut cur, c),
            (_, '\\') => match chars.next() {
                Some('c') => break,
                Some('_') if quote.is_none() => out.extend(cur.take()),
                Some(e) => push(&mut cur, escaped(e)),
                None => push(&mut cur, '\\'),
            },
            (_, '$') if chars.peek() == Some(&'{') => {
                chars.next();
                let name: String = chars.by_ref().take_while(|&ch| ch != '}').collect();
                let w = cur.get_or_insert_with(empty);
                match lookup(&name) {
                    Some(v) => w.text.push_str(&v),
                    None => {
                        w.text.push('*');
                        w.unresolved = true;
                    }
                }
            }
            _ => push(&mut cur, c),
        }
    }
    out.extend(cur);
    out
}

fn empty() -> Word {
    Word {
        text: String::new(),
        unresolved: false,
    }
}

fn push(cur: &mut Option<Word>, c: char) {
    cur.get_or_insert_with(empty).text.push(c);
}

fn escaped(e: char) -> char {
    match e {
        '_' => ' ',
        't' => '\t',
        'n' => '\n',
        'r' => '\r',
        'f' => '\x0c',
        'v' => '\x0b',
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(text: &str) -> Vec<String> {
        let home = |n: &str| (n == "HOME").then(|| "/home/agent".to_owned());
        split(text, home).into_iter().map(|w| w.text).collect()
    }

    #[test]
    fn splits_as_env_does() {
        assert_eq!(
            texts("rm -rf ${HOME}/docs"),
            ["rm", "-rf", "/home/agent/docs"]
        );
        assert_eq!(
            texts("a 'b c' \"d ${HOME}\""),
            ["a", "b c", "d /home/agent"]
        );
        assert_eq!(texts("a\\_b # c d"), ["a", "b"]);
        assert_eq!(texts("x \\c y"), ["x"]);
        assert_eq!(texts("python3 -u"), ["python3", "-u"]);
        let w = split("${NOPE}/x", |_| None);
        assert!(w[0].unresolved);
    }
}
