//! bash's `fc` in a background shell: `fc -s [OLD=NEW] [PREFIX]` (and zsh's `r`, the same as
//! `fc -e -`) re-runs a line of the session's history, edited. What runs is known only when
//! the line it picks is the last one the engine saw run in that shell (`ShellState::last`):
//! then it is that line with each OLD replaced by NEW (bash manual, "Bash History Builtins").
//! A bare `fc -s` in a shell that has run nothing the engine saw runs nothing (the history is
//! empty: "fc: no command found"). Anything else `fc` does besides listing (`-l`) opens an
//! editor or picks another line: a line only known when it runs.

/// The line that `line` makes the shell run, when it is a history re-run: `Some(Ok(text))`
/// when that is known, `Some(Err(()))` when not, `None` for any other line.
pub fn rerun(line: &str, last: &str) -> Option<Result<String, ()>> {
    let words: Vec<&str> = line.split_whitespace().collect();
    // `FCEDIT=… fc`, `ls; fc -s`: an `fc` after an assignment or another command re-runs a
    // line the rest of this one does not replace, so the whole line is only known when it
    // runs. `grep fc notes` only names it.
    let later = words.iter().enumerate().skip(1).find(|(k, w)| {
        let before = words[k - 1];
        (**w == "fc" || w.ends_with(";fc"))
            && (before.contains('=') || before.ends_with([';', '&', '|', '\'']))
    });
    if later.is_some() {
        return Some(Err(()));
    }
    let rest = match words.as_slice() {
        ["fc", "-l" | "-ln" | "-nl" | "-lr" | "-rl", ..] => return None,
        ["fc", "-s" | "-e" | "-es", rest @ ..] => {
            // `fc -e -` is `fc -s`; `fc -e EDITOR` edits.
            match words[1] {
                "-e" if rest.first() != Some(&"-") => return Some(Err(())),
                "-e" => &rest[1..],
                _ => rest,
            }
        }
        ["fc", ..] => return Some(Err(())),
        // zsh's `r`; only in its edit forms, since `r` is also littler's R front end.
        ["r", rest @ ..] if rest.iter().all(|w| w.contains('=')) => rest,
        _ => return None,
    };
    let (edits, prefix): (Vec<&str>, Vec<&str>) = rest.iter().partition(|w| w.contains('='));
    if prefix.len() > 1 {
        return Some(Err(()));
    }
    if last.is_empty() {
        return match edits.is_empty() && prefix.is_empty() {
            true => Some(Ok(String::new())),
            false => Some(Err(())),
        };
    }
    if prefix.first().is_some_and(|p| !last.starts_with(p)) {
        return Some(Err(()));
    }
    let mut text = last.to_owned();
    for edit in edits {
        let (old, new) = edit.split_once('=').unwrap_or((edit, ""));
        if !old.is_empty() {
            text = text.replace(old, new);
        }
    }
    Some(Ok(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_reruns() {
        assert_eq!(rerun("fc -s", "ls"), Some(Ok("ls".into())));
        assert_eq!(
            rerun("fc -s ls=cat", "ls .env"),
            Some(Ok("cat .env".into()))
        );
        assert_eq!(rerun("r ls=cat", "ls .env"), Some(Ok("cat .env".into())));
        assert_eq!(rerun("fc -e - ls=cat ls", "ls x"), Some(Ok("cat x".into())));
        assert_eq!(rerun("fc -s", ""), Some(Ok(String::new())));
        assert_eq!(rerun("fc -s ls=cat", ""), Some(Err(())));
        assert_eq!(rerun("fc -s rm", "ls"), Some(Err(())));
        assert_eq!(rerun("fc", "ls"), Some(Err(())));
        assert_eq!(rerun("fc -l", "ls"), None);
        assert_eq!(rerun("FCEDIT='sed -i s/a/b/' fc", "ls"), Some(Err(())));
        assert_eq!(rerun("rm -rf d; fc -s", "ls"), Some(Err(())));
        assert_eq!(rerun("grep fc notes", "ls"), None);
        assert_eq!(rerun("ls", "ls"), None);
    }
}
