//! A file the script or session wrote, changed in place by `sed -i` (or `perl -pi -e`): `sed
//! -i 's/is now/is not/' post.sh && sh post.sh` runs the changed text. Substitutions
//! `s/PATTERN/REPLACEMENT/FLAGS` whose pattern is literal text are applied as sed applies
//! them, line by line; any other expression (an address, a regular expression, a script file,
//! a flag that prints, runs or writes) makes the file's text unknown, so running it is opaque:
//! never the text it held before.

use super::walk::Walker;
use super::wrappers::basename;
use super::Arg;

/// How a program reads its expressions' patterns.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Dialect {
    /// sed's basic regular expressions.
    Basic,
    /// `sed -E`/`-r`.
    Extended,
    Perl,
}

/// One `s/…/…/` with a literal pattern: replace the `nth` match of each line (1-based), or
/// every match from it on.
#[derive(Debug, PartialEq, Eq)]
struct Substitution {
    pattern: String,
    replacement: String,
    nth: usize,
    global: bool,
}

/// What an in-place edit does to each file it names.
struct InPlace<'a> {
    /// The substitutions, in order; `None` when some expression cannot be applied.
    edits: Option<Vec<Substitution>>,
    files: Vec<&'a Arg>,
}

impl Walker {
    /// `sed -i EXPR FILE…`, `perl -pi -e EXPR FILE…` of files the session wrote: their text
    /// with the substitutions applied, or unknown. True when the command edits in place.
    pub(super) fn note_in_place(&mut self, name: &str, args: &[Arg]) -> bool {
        let edit = match name {
            "sed" | "gsed" if may_edit_in_place(&args[1..]) => sed(&args[1..]),
            "perl" if may_edit_in_place(&args[1..]) => perl(&args[1..]),
            _ => None,
        };
        let Some(edit) = edit else { return false };
        for f in edit.files {
            let key = basename(&f.text);
            // `sed -i … *.sh`, `sed -i … "$f"`: every written file the word may name.
            let keys: Vec<String> = match f.pattern {
                true => (self.written.iter())
                    .filter(|(k, _)| crate::paths::glob_matches(key, k))
                    .map(|(k, _)| k.clone())
                    .collect(),
                false => vec![key.to_owned()],
            };
            for key in keys {
                let Some(text) = self.written_text(&key) else {
                    continue;
                };
                let changed = match (f.unresolved, text, &edit.edits) {
                    (false, Some(text), Some(edits)) => Some(apply(text, edits)),
                    _ => None,
                };
                match self.written.iter_mut().find(|(k, _)| *k == key) {
                    Some(entry) => entry.1 = changed,
                    None => self.written.push((key, changed)),
                }
            }
        }
        true
    }
}

/// Whether some option may be `-i` (alone or in a cluster: `-Ei`, `-pi`) or `--in-place`:
/// the common sed and perl lines, which edit nothing, are not parsed further.
fn may_edit_in_place(words: &[Arg]) -> bool {
    words.iter().any(|w| {
        let t = w.text.as_str();
        t.starts_with("--in-place") || t.starts_with('-') && !t.starts_with("--") && t.contains('i')
    })
}

/// sed's words after its name, when it edits in place (`-i[SUFFIX]`, `--in-place[=SUFFIX]`).
fn sed(words: &[Arg]) -> Option<InPlace<'_>> {
    let mut in_place = false;
    let mut dialect = Dialect::Basic;
    let mut exprs: Vec<String> = Vec::new();
    let mut unknown = false;
    let mut operands = Vec::new();
    let mut options = true;
    let mut it = words.iter();
    while let Some(w) = it.next() {
        let t = w.text.as_str();
        if !options || !t.starts_with('-') || t == "-" {
            operands.push(w);
            continue;
        }
        match t {
            "--" => options = false,
            "--in-place" => in_place = true,
            "--regexp-extended" => dialect = Dialect::Extended,
            "--expression" => exprs.extend(it.next().map(|e| e.text.clone())),
            "--file" | "--null-data" | "--separate" | "--quiet" | "--silent" => unknown = true,
            "--line-length" => {
                it.next();
            }
            _ if t.starts_with("--in-place=") => in_place = true,
            _ if t.starts_with("--expression=") => exprs.push(t["--expression=".len()..].into()),
            _ if t.starts_with("--") => {}
            _ => {
                let cluster = &t[1..];
                for (at, ch) in cluster.char_indices() {
                    let rest = &cluster[at + ch.len_utf8()..];
                    match ch {
                        // Whatever follows `i` in the word is the backup's suffix.
                        'i' => {
                            in_place = true;
                            break;
                        }
                        'e' => {
                            match rest.is_empty() {
                                true => exprs.extend(it.next().map(|e| e.text.clone())),
                                false => exprs.push(rest.into()),
                            }
                            break;
                        }
                        'l' => {
                            if rest.is_empty() {
                                it.next();
                            }
                            break;
                        }
                        'E' | 'r' => dialect = Dialect::Extended,
                        'u' | 'b' => {}
                        // `-n`: only what the script prints is written back.
                        _ => unknown = true,
                    }
                }
            }
        }
    }
    if !in_place {
        return None;
    }
    if exprs.is_empty() && !operands.is_empty() {
        exprs.push(operands.remove(0).text.clone());
    }
    let computed = words.iter().any(|w| w.unresolved && !operands.contains(&w));
    let edits = (!unknown && !computed && !exprs.is_empty())
        .then(|| substitutions(&exprs.join("\n"), dialect))
        .flatten();
    Some(InPlace {
        edits,
        files: operands,
    })
}

/// perl's words after its name, when it edits in place and prints every line (`-pi -e`).
fn perl(words: &[Arg]) -> Option<InPlace<'_>> {
    let (mut in_place, mut prints, mut unknown) = (false, false, false);
    let mut exprs: Vec<String> = Vec::new();
    let mut operands = Vec::new();
    let mut it = words.iter();
    while let Some(w) = it.next() {
        let t = w.text.as_str();
        if !exprs.is_empty() && !t.starts_with('-') || t == "-" || t == "--" {
            operands.push(w);
            operands.extend(it.by_ref().filter(|w| w.text != "--"));
            break;
        }
        let Some(cluster) = t.strip_prefix('-') else {
            // The program is a file: what it does is not read here.
            unknown = true;
            operands.extend(it.by_ref());
            break;
        };
        for (at, ch) in cluster.char_indices() {
            let rest = &cluster[at + ch.len_utf8()..];
            match ch {
                'i' => {
                    in_place = true;
                    break;
                }
                'e' | 'E' => {
                    match rest.is_empty() {
                        true => exprs.extend(it.next().map(|e| e.text.clone())),
                        false => exprs.push(rest.into()),
                    }
                    break;
                }
                'p' => prints = true,
                'w' | 'l' | 's' | 'a' | 'W' | 'X' => {}
                _ => unknown = true,
            }
        }
    }
    if !in_place {
        return None;
    }
    let computed = words.iter().any(|w| w.unresolved && !operands.contains(&w));
    let edits = (prints && !unknown && !computed)
        .then(|| substitutions(&exprs.join("\n"), Dialect::Perl))
        .flatten();
    Some(InPlace {
        edits,
        files: operands,
    })
}

/// The substitutions of a script of `s` commands separated by `;` or new lines; `None` for
/// anything else.
fn substitutions(script: &str, dialect: Dialect) -> Option<Vec<Substitution>> {
    let mut out = Vec::new();
    let mut chars = script.chars().peekable();
    loop {
        while chars.next_if(|c| c.is_whitespace() || *c == ';').is_some() {}
        match chars.next() {
            None => break,
            Some('s') => {}
            Some(_) => return None,
        }
        let delim = chars
            .next()
            .filter(|d| !d.is_alphanumeric() && *d != '\\')?;
        if matches!(delim, '{' | '(' | '[' | '<' | '\n') {
            return None;
        }
        let pattern = literal_pattern(&part(&mut chars, delim)?, delim, dialect)?;
        let replacement = replacement(&part(&mut chars, delim)?, delim, dialect)?;
        let mut flags = String::new();
        while let Some(c) = chars.next_if(|c| c.is_alphanumeric()) {
            flags.push(c);
        }
        let global = flags.contains('g');
        let digits: String = flags.chars().filter(char::is_ascii_digit).collect();
        let other = flags.chars().any(|c| c != 'g' && !c.is_ascii_digit());
        let perl_nth = dialect == Dialect::Perl && !digits.is_empty();
        if pattern.is_empty() || other || perl_nth {
            return None;
        }
        let nth = if digits.is_empty() {
            1
        } else {
            digits.parse().ok().filter(|n| *n > 0)?
        };
        out.push(Substitution {
            pattern,
            replacement,
            nth,
            global,
        });
    }
    (!out.is_empty()).then_some(out)
}

/// The raw text up to the next `delim` not escaped by `\` (escapes kept).
fn part(chars: &mut std::iter::Peekable<std::str::Chars>, delim: char) -> Option<String> {
    let mut out = String::new();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                out.push('\\');
                out.push(chars.next()?);
            }
            c if c == delim => return Some(out),
            '\n' => return None,
            c => out.push(c),
        }
    }
    None
}

/// The text a pattern matches when it is literal: escapes of special characters and of the
/// delimiter are their characters; any special character unescaped, or any other escape,
/// makes it a regular expression (`None`).
fn literal_pattern(raw: &str, delim: char, dialect: Dialect) -> Option<String> {
    let special: &str = match dialect {
        Dialect::Basic => ".*[]^$",
        Dialect::Extended => ".*[]^$+?(){}|",
        Dialect::Perl => ".*[]^$+?(){}|@",
    };
    let mut out = String::new();
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let e = chars.next()?;
                let plain = e == delim || e == '\\' || e == '/' || special.contains(e);
                // `\+`, `\(` … are operators of GNU's basic expressions; a perl escape of a
                // letter or digit is a class or a back-reference.
                let operator = dialect == Dialect::Basic && "+?(){}|".contains(e);
                if !plain || operator || e.is_alphanumeric() {
                    return None;
                }
                out.push(e);
            }
            c if special.contains(c) => return None,
            c => out.push(c),
        }
    }
    Some(out)
}

/// A replacement as literal text with `&` standing for the match (`\0` in the text below):
/// sed's `&`, `\&`, `\\`, `\n` and the escaped delimiter; perl's escaped delimiter and `\\`
/// (a `$`/`@` is interpolation, not known here).
fn replacement(raw: &str, delim: char, dialect: Dialect) -> Option<String> {
    let mut out = String::new();
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        match (c, dialect) {
            ('\\', _) => match chars.next()? {
                'n' => out.push('\n'),
                e if e == delim || e == '\\' || e == '&' || e == '/' => out.push(e),
                _ => return None,
            },
            ('&', Dialect::Basic | Dialect::Extended) => out.push('\0'),
            ('$' | '@', Dialect::Perl) => return None,
            (c, _) => out.push(c),
        }
    }
    Some(out)
}

/// `text` with the substitutions made, line by line, in order.
fn apply(mut text: String, edits: &[Substitution]) -> String {
    for s in edits {
        let lines: Vec<String> = text.split('\n').map(|l| substitute(l, s)).collect();
        text = lines.join("\n");
    }
    text
}

fn substitute(line: &str, s: &Substitution) -> String {
    let with = s.replacement.replace('\0', &s.pattern);
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    let mut seen = 0;
    while let Some(at) = rest.find(&s.pattern) {
        seen += 1;
        out.push_str(&rest[..at]);
        let hit = seen == s.nth || s.global && seen > s.nth;
        out.push_str(if hit { &with } else { &s.pattern });
        rest = &rest[at + s.pattern.len()..];
        if !s.global && seen >= s.nth {
            break;
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<Arg> {
        line.split(' ').map(Arg::literal).collect()
    }

    fn edited(line: &str, text: &str) -> Option<String> {
        let w = words(line);
        let edit = match line.starts_with("-p") {
            true => perl(&w),
            false => sed(&w),
        }?;
        Some(apply(text.to_string(), edit.edits.as_ref()?))
    }

    #[test]
    fn literal_substitutions_apply_as_sed_applies_them() {
        let text = "bird tweet 'nginx is now up, is now'\necho is now\n";
        let cases = [
            ("-i s/is_now/is_not/ post.sh", "x", "x"),
            (
                "-i s/is/IS/ p.sh",
                text,
                "bird tweet 'nginx IS now up, is now'\necho IS now\n",
            ),
            ("-i s|is|IS|2g p.sh", "is is is", "is IS IS"),
            ("-Ei -e s/a/[&]/ -e s/b/c/ p.sh", "ab", "[a]c"),
            ("-pi -e s/now/not/g p.sh", "now now", "not not"),
            ("-i s/a\\.b/c/ p.sh", "a.b axb", "c axb"),
        ];
        for (line, before, after) in cases {
            assert_eq!(edited(line, before).as_deref(), Some(after), "{line}");
        }
    }

    #[test]
    fn anything_else_is_unknown() {
        for line in [
            "-i s/is.now/is/ p.sh",
            "-i 1s/a/b/ p.sh",
            "-i /x/d p.sh",
            "-i s/a/b/e p.sh",
            "-i s/a/b/w p.sh",
            "-i s/a/\\1/ p.sh",
            "-i -f x.sed p.sh",
            "-pi -e s/a/$x/ p.sh",
            "-ni -e s/a/b/ p.sh",
        ] {
            assert_eq!(edited(line, "a"), None, "{line}");
        }
        // Not in place: nothing to note.
        assert!(sed(&words("s/a/b/ p.sh")).is_none());
        assert!(perl(&words("-pe s/a/b/ p.sh")).is_none());
    }
}
