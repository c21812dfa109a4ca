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

use super::{probe, Resolved};

/// A keyed file: where it sits (a base name, or the end of a path when it holds a `/`), how a
/// line of it (lower case) gives away a secret, and the reason shown.
struct Keyed {
    name: &'static str,
    secret: fn(&str) -> bool,
    why: &'static str,
}

/// A clone made with a token in its address (`https://x-access-token:TOKEN@github.com/…`, CI
/// and agent sandboxes do this) keeps it in the remote's `url`; actions/checkout persists its
/// token as an `http.…extraheader` (`AUTHORIZATION: basic …`).
const GIT_CONFIG: Keyed = Keyed {
    name: ".git/config",
    secret: git_secret,
    why: "git config holding a token (a remote URL's credentials or an auth header)",
};

const KEYED: &[Keyed] = &[
    Keyed {
        name: ".yarnrc.yml",
        secret: |l| sets_key(l, &["npmauthtoken", "npmauthident"]),
        why: "Yarn config holding a registry token",
    },
    Keyed {
        name: "bunfig.toml",
        secret: |l| sets_key(l, &["token", "password"]),
        why: "Bun config holding a registry token",
    },
    Keyed {
        name: "gradle.properties",
        secret: |l| sets_key(l, &["password", "secret", "token", "apikey"]),
        why: "Gradle properties holding a password or token",
    },
    GIT_CONFIG,
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
    // Only a pattern that could match a keyed name lists the disk: its last parts against the
    // name's (`src/*` cannot be `.git/config`), a part starting with a dot only matched by one
    // starting with a literal dot, as the shell expands (`.y*`, not `*` or `[.]*`).
    let may_name = KEYED.iter().any(|k| {
        let tail = tail(&r.path, k.name.split('/').count());
        let dots = |t: &'static str| t.split('/').map(|p| p.starts_with('.'));
        tail.split('/').map(|p| p.starts_with('.')).eq(dots(k.name))
            && super::globs_overlap(tail, k.name).unwrap_or(true)
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
        .find_map(|k| literal_hit(&format!("{dir}/{}", k.name)))
}

/// The reason the git repository `git` finds from `dir` keeps a token in its config: what `git
/// remote -v` or `git config --list` would print. `git_dir`: `dir` is the repository itself
/// (`--git-dir`); otherwise the nearest `.git` at or above `dir` (a bounded walk up).
pub fn git_config(dir: &str, git_dir: bool) -> Option<&'static str> {
    let dir = std::path::Path::new(dir);
    let file = if git_dir {
        dir.join("config")
    } else {
        let top = dir.ancestors().take(64).find(|d| d.join(".git").exists())?;
        top.join(".git/config")
    };
    let file = file.to_str()?;
    holds(file, GIT_CONFIG.secret).then_some(GIT_CONFIG.why)
}

/// The last `parts` parts of `path` (all of it when it has fewer).
fn tail(path: &str, parts: usize) -> &str {
    (path.rmatch_indices('/').nth(parts - 1)).map_or(path, |(i, _)| &path[i + 1..])
}

fn literal_hit(path: &str) -> Option<&'static str> {
    // Every word of every command asks: only a keyed name goes on to the disk.
    let named =
        |name: &str| (path.strip_suffix(name)).is_some_and(|p| p.is_empty() || p.ends_with('/'));
    let k = KEYED.iter().find(|k| named(k.name))?;
    holds(path, k.secret).then_some(k.why)
}

/// Whether the file's first `READ_LIMIT` bytes hold a line `secret` accepts.
fn holds(path: &str, secret: fn(&str) -> bool) -> bool {
    let mut text = Vec::new();
    let read = File::open(path).and_then(|f| f.take(READ_LIMIT).read_to_end(&mut text));
    read.is_ok()
        && String::from_utf8_lossy(&text)
            .to_lowercase()
            .lines()
            .any(secret)
}

/// A remote `url` whose user part holds a password or a token (`https://user:pw@`,
/// `https://<40-character token>@`; not `ssh://git@` or `https://alice@`), or an extra header.
fn git_secret(line: &str) -> bool {
    let Some((key, value)) = line.split_once('=') else {
        return false;
    };
    let (key, value) = (key.trim(), value.trim());
    if key == "extraheader" {
        return !value.is_empty();
    }
    matches!(key, "url" | "pushurl") && url_credentials(value)
}

/// A URL whose user part holds a password or a token (`https://user:pw@`, `https://<40-character
/// token>@`), not a bare user name (`ssh://git@`, `https://alice@`).
fn url_credentials(value: &str) -> bool {
    let Some((_, rest)) = value.split_once("://") else {
        return false;
    };
    let host_start = rest.find(['/', ' ', '\t']).unwrap_or(rest.len());
    let Some((user, _)) = rest[..host_start].rsplit_once('@') else {
        return false;
    };
    user.contains(':') || user.len() >= 20
}

/// pip's config files (user, legacy user, global) as `pip config list`, `get` and `debug` print
/// them: the reason one holds an index URL with credentials. (A virtualenv's own `pip.conf` is
/// not looked for: where it is, is only known when the command runs.)
pub fn pip_config(home: Option<&str>) -> Option<&'static str> {
    let home = home.map(|h| h.trim_end_matches('/'));
    let files = [
        home.map(|h| format!("{h}/.config/pip/pip.conf")),
        home.map(|h| format!("{h}/.pip/pip.conf")),
        Some("/etc/pip.conf".to_string()),
        Some("/etc/xdg/pip/pip.conf".to_string()),
    ];
    files
        .iter()
        .flatten()
        .any(|f| holds(f, url_credentials))
        .then_some("pip config holding an index URL with credentials")
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
    fn a_git_config_holds_a_token_in_a_remote_url_or_an_auth_header() {
        let yes = [
            "\turl = https://x-access-token:ghs_abc@github.com/acme/app.git",
            "url = https://ghp_0123456789abcdefghij0123456789abcdef@github.com/acme/app",
            "\textraheader = authorization: basic eC1hY2Nlc3MtdG9rZW46Z2hz",
            "pushurl = https://ci:glpat-xyz@gitlab.com/acme/app.git",
        ];
        let no = [
            "url = git@github.com:acme/app.git",
            "url = ssh://git@github.com/acme/app.git",
            "url = https://github.com/acme/app.git",
            "url = https://alice@bitbucket.org/acme/app.git",
            "fetch = +refs/heads/*:refs/remotes/origin/*",
            "url = https://github.com/acme/a@b.git",
        ];
        for l in yes {
            assert!(git_secret(l), "{l}");
        }
        for l in no {
            assert!(!git_secret(l), "{l}");
        }
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join(".git")).unwrap();
        let config = dir.path().join(".git/config");
        std::fs::write(
            &config,
            "[remote \"origin\"]\n\turl = https://github.com/acme/app.git\n",
        )
        .unwrap();
        let top = dir.path().display().to_string();
        assert_eq!(git_config(&top, false), None);
        assert_eq!(hit(&lit(&config)), None);
        std::fs::write(&config, format!("[remote \"origin\"]\n\t{}\n", yes[0])).unwrap();
        assert!(git_config(&top, false).is_some());
        std::fs::create_dir(dir.path().join("src")).unwrap();
        assert!(
            git_config(&format!("{top}/src"), false).is_some(),
            "from a subdirectory"
        );
        assert!(git_config(&format!("{top}/.git"), true).is_some());
        assert!(hit(&lit(&config)).is_some());
        assert!(
            in_dir(&lit(dir.path())).is_some(),
            "an archive of the repository holds it"
        );
        let pat = |p: &str| Resolved {
            path: format!("{top}/{p}"),
            pattern: true,
        };
        assert!(hit(&pat(".git/c*")).is_some());
        assert!(hit(&pat(".g?t/config")).is_some());
        assert_eq!(hit(&pat("*/config")), None, "`*` does not expand to .git");
        assert_eq!(hit(&pat("src/*")), None);
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
