//! Configuration files that are a credential store only when they hold one. A project's Yarn
//! Berry `.yarnrc.yml` is configuration: agents write it (`nodeLinker`, `yarnPath`), yarn reads it
//! on every install and projects commit it, so protecting the name would deny ordinary work. Yet
//! `yarn npm login` and hand edits put `npmAuthToken`/`npmAuthIdent` into it (top level or per
//! scope under `npmScopes`/`npmRegistries`). Bun's `bunfig.toml` (`[install.scopes]` tokens) and a
//! project's `gradle.properties` (signing and repository passwords, next to `org.gradle.jvmargs`)
//! are the same kind. Such a file is judged by what it holds on disk now; the same files in the
//! home (`~/.yarnrc.yml`, `~/.gradle/gradle.properties`) are protected by their place
//! (`defaults`), whatever they hold.

use std::fs::File;
use std::io::Read;

use super::{basename, probe, Resolved};

/// Name, the words a key holding a secret contains (lower case), and the reason shown.
const KEYED: &[(&str, &[&str], &str)] = &[
    (
        ".yarnrc.yml",
        &["npmauthtoken", "npmauthident"],
        "Yarn config holding a registry token",
    ),
    (
        "bunfig.toml",
        &["token", "password"],
        "Bun config holding a registry token",
    ),
    (
        "gradle.properties",
        &["password", "secret", "token", "apikey"],
        "Gradle properties holding a password or token",
    ),
];

/// How much of a file is read: configuration files are small, and a key past this is not
/// looked for (a bounded read per call, like `probe`'s bounded listing).
const READ_LIMIT: u64 = 256 * 1024;

/// The reason `r` (a literal path, or a pattern as the shell would expand it now) names such a
/// file holding a credential. Only names in `KEYED` touch the disk.
pub fn hit(r: &Resolved) -> Option<&'static str> {
    if !r.pattern {
        return literal_hit(&r.path);
    }
    // The shell expands a pattern to a dotfile only when the pattern starts with a literal dot
    // (`.y*`, not `*` or `[.]*`), and only one that could match a keyed name lists the disk.
    let last = basename(&r.path);
    let may_name = KEYED.iter().any(|(name, _, _)| {
        last.starts_with('.') == name.starts_with('.')
            && super::globs_overlap(last, name).unwrap_or(true)
    });
    if !may_name {
        return None;
    }
    probe::expand(&r.path)?.iter().find_map(|p| literal_hit(p))
}

/// The reason a recursive reader of the literal directory `dir` (`grep -r`, `tar`, `cp -r`)
/// would read a keyed file holding a credential directly in it, where a project keeps one.
pub fn in_dir(dir: &Resolved) -> Option<&'static str> {
    if dir.pattern {
        return None;
    }
    let dir = dir.path.trim_end_matches('/');
    KEYED
        .iter()
        .find_map(|(name, _, _)| literal_hit(&format!("{dir}/{name}")))
}

fn literal_hit(path: &str) -> Option<&'static str> {
    let (_, keys, why) = KEYED.iter().find(|(name, _, _)| basename(path) == *name)?;
    let mut text = Vec::new();
    File::open(path)
        .and_then(|f| f.take(READ_LIMIT).read_to_end(&mut text))
        .ok()?;
    let text = String::from_utf8_lossy(&text).to_lowercase();
    text.lines().any(|l| sets_key(l, keys)).then_some(*why)
}

/// Whether `line` gives a value to a key ending in one of `words` (`npmAuthToken: x`,
/// `signing.password=x`, TOML's inline `{ url = "…", token = "x" }`), not a key that merely
/// starts with one (`tokenizer=…`, `passwordless=true`) or a value left empty.
fn sets_key(line: &str, words: &[&str]) -> bool {
    words.iter().any(|w| {
        line.match_indices(w).any(|(i, _)| {
            let rest = line[i + w.len()..].trim_start_matches(['"', '\'', ' ', '\t']);
            let Some(value) = rest.strip_prefix(['=', ':']) else {
                return false;
            };
            !value
                .trim_matches(|c: char| c.is_whitespace() || "\"',{}".contains(c))
                .is_empty()
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(p: &std::path::Path) -> Resolved {
        Resolved {
            path: p.display().to_string(),
            pattern: false,
        }
    }

    #[test]
    fn a_yarnrc_is_a_credential_only_while_it_holds_a_token() {
        let dir = tempfile::tempdir().unwrap();
        let rc = dir.path().join(".yarnrc.yml");
        std::fs::write(&rc, "nodeLinker: node-modules\n").unwrap();
        assert_eq!(hit(&lit(&rc)), None);
        let scoped = "npmScopes:\n  acme:\n    npmAuthToken: npm_abc\n";
        std::fs::write(&rc, format!("nodeLinker: node-modules\n{scoped}")).unwrap();
        assert!(hit(&lit(&rc)).is_some());
        // Only the keyed name is read: the same text elsewhere is no concern of this module.
        let other = dir.path().join("notes.yml");
        std::fs::write(&other, scoped).unwrap();
        assert_eq!(hit(&lit(&other)), None);
        assert_eq!(hit(&lit(&dir.path().join("missing/.yarnrc.yml"))), None);
    }

    #[test]
    fn a_key_counts_when_it_is_given_a_value() {
        let yes = [
            "    npmauthtoken: npm_abc",
            "npmauthident: \"u:p\"",
            "signing.password=hunter2",
            "ossrhpassword = x",
            "registry = { url = \"https://r\", token = \"$npm_token\" }",
        ];
        let no = [
            "tokenizer=bpe",
            "passwordless=true",
            "maxtokens: 100",
            "npmauthtoken:",
            "# put the token here",
            "org.gradle.jvmargs=-xmx2g",
        ];
        let words = ["npmauthtoken", "npmauthident", "password", "token"];
        for l in yes {
            assert!(sets_key(l, &words), "{l}");
        }
        for l in no {
            assert!(!sets_key(l, &words), "{l}");
        }
    }

    #[test]
    fn a_directory_is_judged_by_the_keyed_file_it_holds() {
        let dir = tempfile::tempdir().unwrap();
        let here = lit(dir.path());
        assert_eq!(in_dir(&here), None);
        std::fs::write(dir.path().join(".yarnrc.yml"), "npmAuthToken: t\n").unwrap();
        assert!(in_dir(&here).is_some());
        let slash = Resolved {
            path: format!("{}/", here.path),
            pattern: false,
        };
        assert!(in_dir(&slash).is_some());
    }

    #[test]
    fn a_pattern_is_judged_by_what_the_shell_would_expand_it_to() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(".yarnrc.yml"), "npmAuthIdent: u:p\n").unwrap();
        let pat = |p: &str| Resolved {
            path: format!("{}/{p}", dir.path().display()),
            pattern: true,
        };
        assert!(hit(&pat(".y*")).is_some());
        assert!(hit(&pat(".yarnrc.y?l")).is_some());
        // As in bash, a leading dot is matched only by a literal dot: `*` and `[.]…` name
        // nothing here (cat would fail on the unexpanded word), and `*.json` cannot name it.
        assert_eq!(hit(&pat("*")), None);
        assert_eq!(hit(&pat("[.]yarnrc.yml")), None);
        assert_eq!(hit(&pat("*.json")), None);
    }
}
