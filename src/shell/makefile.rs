//! A makefile read as the shell lines make runs: its recipes, and the commands of its
//! `$(shell …)` calls, which run while make reads the file. make's variables are replaced by
//! what the makefile plainly sets them to, and otherwise by a word, so that `$(CC) -o $@ $^`
//! is a compiler run on a file, not a program only known when it runs.

/// A makefile's recipe lines, and the commands its `$(shell …)` calls run when it is read.
/// make's own variables become what they stand for where the makefile sets them plainly, else
/// a word, so a recipe is judged as the line the shell will get.
pub fn makefile_commands(text: &str) -> String {
    let vars = make_vars(text);
    let mut out = Vec::new();
    for line in text.lines() {
        if let Some(recipe) = line.strip_prefix('\t') {
            let recipe = recipe.trim_start_matches(['@', '-', '+', ' ']);
            out.push(expand_make(recipe, &vars).replace("$$", "$"));
        }
        let mut rest = line;
        while let Some(at) = rest.find("$(shell ") {
            let inner = &rest[at + "$(shell ".len()..];
            let end = closing_paren(inner);
            out.push(expand_make(&inner[..end], &vars));
            rest = &inner[end..];
        }
    }
    out.join("\n")
}

/// The byte offset of the `)` that closes a `$(` whose text `s` follows.
pub fn closing_paren(s: &str) -> usize {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => return i,
            ')' => depth -= 1,
            _ => {}
        }
    }
    s.len()
}

/// `NAME = value` (and `:=`, `?=`, `::=`) assignments of a makefile, outside recipes.
fn make_vars(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('\t')) {
        let Some((name, value)) = line.split_once('=') else {
            continue;
        };
        let name = name.trim_end_matches([':', '?', '+', ' ']).trim();
        let plain = !name.is_empty()
            && (name.chars()).all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !name.contains(' ');
        if plain {
            out.push((name.to_string(), value.trim().to_string()));
        }
    }
    out
}

/// `$(NAME)`/`${NAME}` replaced: a value the makefile sets, the environment's `HOME`, make's
/// built-in `RM`/`MAKE`, the automatic variables as a file name; others as their name (a
/// word, never a path outside).
fn expand_make(line: &str, vars: &[(String, String)]) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let (name, used) = match after.chars().next() {
            Some(open @ ('(' | '{')) => {
                let close = if open == '(' { ')' } else { '}' };
                match after[1..].find(close) {
                    Some(end) => (after[1..=end].to_string(), end + 2),
                    None => (String::new(), 0),
                }
            }
            Some('$') => {
                out.push_str("$$");
                rest = &after[1..];
                continue;
            }
            Some(c @ ('@' | '<' | '^' | '*' | '?' | '+')) => (c.to_string(), 1),
            _ => (String::new(), 0),
        };
        rest = &after[used..];
        let value = match name.as_str() {
            "" => "$".to_string(),
            "HOME" => "$HOME".to_string(),
            "RM" => "rm -f".to_string(),
            "MAKE" => "make".to_string(),
            "@" | "<" | "^" | "*" | "?" | "+" => "target".to_string(),
            n => match vars.iter().rev().find(|(k, _)| k == n) {
                // One level: a value naming other variables keeps them as words.
                Some((_, v)) => expand_make_shallow(v),
                None if n.contains(' ') => "value".to_string(),
                None => n.to_ascii_lowercase(),
            },
        };
        out.push_str(&value);
    }
    out.push_str(rest);
    out
}

/// A variable's value with its own references as words.
fn expand_make_shallow(v: &str) -> String {
    if !v.contains('$') {
        return v.to_string();
    }
    expand_make(v, &[])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn makefile_variables_are_what_they_stand_for() {
        let mk = "OUT := build\nall:\n\t@$(RM) -r $(OUT) $@\n\trm -rf $(HOME)/x $$TMP\n";
        assert_eq!(
            makefile_commands(mk),
            "rm -f -r build target\nrm -rf $HOME/x $TMP"
        );
    }
}
