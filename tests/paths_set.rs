//! Protected path sets: literal hits, pattern overlap, recursive sources, the default set.

use openclaw_governance::paths::{
    credential_files, glob_matches, globs_overlap, resolve, resolve_literal, PathContext, PathSet,
    PathSetError,
};
use proptest::prelude::*;
use regex::Regex;

const HOME: &str = "/home/u";
const CTX: PathContext = PathContext {
    cwd: Some("/srv/app"),
    home: Some(HOME),
};

fn dotenv() -> PathSet {
    PathSet::new(
        &[(".env", "dotenv"), (".env.*", "dotenv")],
        &[".env.example"],
        Some(HOME),
    )
    .expect("static set")
}

fn shell_hit(set: &PathSet, word: &str) -> bool {
    set.hit(&resolve(word, &CTX)).is_some()
}

#[test]
fn patterns_that_could_name_a_dotenv_file_hit() {
    let set = dotenv();
    for word in [
        "/srv/app/.e*",
        "/srv/app/.en?",
        "/srv/app/.[e]nv",
        "/srv/app/.env*",
        "/srv/*/.env",
        ".e*",
        "*/../.e*",
        "/srv/app/.[!x]nv",
        "/srv/app/.ENV",
        "/srv/app/.*",
        "/srv/app/.[a-z]*",
    ] {
        assert!(shell_hit(&set, word), "{word} should hit");
    }
}

#[test]
fn wildcards_take_a_leading_dot_only_under_dotglob() {
    let set = dotenv();
    for word in ["/srv/app/*", "/srv/**", "/srv/app/?env", "/srv/app/[.]env"] {
        let r = resolve(word, &CTX);
        assert!(set.hit(&r).is_none(), "{word}: bash skips dotfiles");
        assert!(set.hit_dotglob(&r).is_some(), "{word} under dotglob");
    }
    // Under dotglob, `*.rs` can name `.env.rs`, which `.env.*` protects.
    let rs = resolve("/srv/app/src/*.rs", &CTX);
    assert!(set.hit(&rs).is_none());
    assert!(set.hit_dotglob(&rs).is_some());
}

#[test]
fn patterns_that_cannot_name_one_do_not() {
    let set = dotenv();
    for word in [
        "/srv/app/.env.example",
        "/srv/app/src/*.rs",
        "/srv/app/README*",
        "/srv/app/.e\\*",
        "/srv/app/[!.]*",
        "/srv/app/.en?/x",
    ] {
        assert!(!shell_hit(&set, word), "{word} should not hit");
    }
}

#[test]
fn exceptions_win_for_literal_paths_only() {
    let set = dotenv();
    assert!(set.hit(&resolve_literal(".env.example", &CTX)).is_none());
    assert!(set.hit(&resolve_literal(".ENV.Example", &CTX)).is_none());
    assert!(set.hit(&resolve_literal(".env.local", &CTX)).is_some());
    // A pattern naming the exception also names `.env.exports`.
    assert!(shell_hit(&set, ".env.ex*"));
}

#[test]
fn basenames_fold_case_locations_do_not() {
    let set = PathSet::new(&[("id_rsa*", "key"), ("/srv/state/**", "state")], &[], None)
        .expect("static set");
    assert!(set.hit(&resolve_literal("/x/ID_RSA", &CTX)).is_some());
    assert!(set.hit(&resolve_literal("/srv/state/a/b", &CTX)).is_some());
    assert!(set.hit(&resolve_literal("/srv/State/a", &CTX)).is_none());
}

#[test]
fn location_entries_against_home_and_proc() {
    let set = credential_files(Some(HOME));
    let hit = |word: &str| set.hit(&resolve(word, &CTX));
    assert_eq!(hit("~/.ssh/id_*"), Some("SSH directory"));
    assert_eq!(hit("~/.ssh/*"), Some("SSH directory"));
    assert_eq!(hit("~/.ssh/id_rsa"), Some("SSH private key"));
    assert_eq!(hit("/proc/self/environ"), Some("process environment"));
    assert_eq!(hit("/proc/1/environ"), Some("process environment"));
    assert_eq!(hit("/proc/*/environ"), Some("process environment"));
    assert_eq!(
        hit("/proc/self/task/7/environ"),
        Some("process environment")
    );
    assert_eq!(hit("~/.aws/cred*"), Some("AWS credentials"));
    assert_eq!(
        hit("~/.docker/config.json"),
        Some("Docker registry credentials")
    );
    assert_eq!(hit("~/.kube/config"), Some("Kubernetes config"));
    // The name entry is found first and says more.
    assert_eq!(hit("~/.ssh/deploy_key"), Some("deploy key"));
    assert_eq!(hit("~/.ssh/work_key"), Some("SSH directory"));
    assert_eq!(hit("/proc/self/cmdline"), None);
    assert_eq!(hit("~/.ssh/known_hosts"), None);
    assert_eq!(hit("~/.ssh/id_ed25519.pub"), None);
    assert_eq!(hit("~/.ssh/config"), None);
    // Without a home, `~/` entries stand for any home.
    let anywhere = credential_files(None);
    assert!(anywhere
        .hit(&resolve_literal("/home/v/.aws/config", &CTX))
        .is_some());
}

#[test]
fn default_set_protects_credentials_not_templates() {
    let set = credential_files(Some(HOME));
    for path in [
        ".env",
        ".env.local",
        ".envrc",
        "prod.env",
        "config/credentials.json",
        "certs/server.key",
        "tls.PEM",
        ".npmrc",
        ".git-credentials",
        "terraform.tfstate",
        "/etc/shadow",
        "/home/u/.config/gh/hosts.yml",
        "/var/run/secrets/kubernetes.io/serviceaccount/token",
    ] {
        assert!(set.hit(&resolve_literal(path, &CTX)).is_some(), "{path}");
    }
    for path in [
        ".env.example",
        ".env.sample",
        ".env.template",
        "README.md",
        "src/main.rs",
        "package.json",
        "/etc/passwd",
        "/etc/hosts",
        "id_rsa.pub",
        "Cargo.toml",
    ] {
        assert!(set.hit(&resolve_literal(path, &CTX)).is_none(), "{path}");
    }
}

#[test]
fn relative_location_globs_are_refused() {
    let err = PathSet::new(&[("a/b", "x")], &[], None).err();
    assert_eq!(err, Some(PathSetError::Relative("a/b".into())));
    assert_eq!(
        PathSet::new(&[("", "x")], &[], None).err(),
        Some(PathSetError::Empty)
    );
}

#[test]
fn huge_patterns_fail_closed() {
    let set = dotenv();
    let long = format!("/srv/{}*", "?".repeat(70_000));
    assert!(shell_hit(&set, &long));
}

#[test]
fn recursive_sources_that_hold_protected_files() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().to_str().expect("utf-8 temp path").to_string();
    std::fs::create_dir_all(format!("{root}/clean/src")).expect("mkdir");
    std::fs::write(format!("{root}/clean/src/main.rs"), "").expect("write");
    std::fs::write(format!("{root}/clean/.env.example"), "").expect("write");
    std::fs::create_dir_all(format!("{root}/app/config")).expect("mkdir");
    std::fs::write(format!("{root}/app/config/credentials.json"), "").expect("write");
    std::fs::create_dir_all(format!("{root}/top")).expect("mkdir");
    std::fs::write(format!("{root}/top/.env"), "").expect("write");
    let set = credential_files(Some(HOME));
    let ctx = PathContext {
        cwd: Some(&root),
        home: Some(HOME),
    };
    let contains = |word: &str| set.contains_protected(&resolve(word, &ctx));
    assert_eq!(contains("clean"), None);
    assert_eq!(contains("app"), Some("credentials file"));
    assert_eq!(contains("top"), Some("dotenv file"));
    // `t*` could itself name `t.env`, before any listing.
    assert_eq!(contains("t*"), Some("environment file"));
    assert_eq!(contains("."), Some("dotenv file"));
    // Lexically: a home directory holds ~/.ssh, / holds /etc/shadow, whatever is on disk.
    assert_eq!(contains(HOME), Some("SSH directory"));
    assert_eq!(contains("/"), Some("SSH directory"));
    // /etc holds several (shadow, boto.cfg…): which one is named is the set's order.
    assert!(contains("/etc").is_some());
    assert_eq!(contains("/proc/self"), Some("process environment"));
    assert_eq!(contains("/usr/share/doc"), None);
}

/// An independent reading of the glob syntax: a regex, for brute-force comparison.
fn glob_regex(glob: &str) -> Regex {
    let mut re = String::from("^");
    let chars: Vec<char> = glob.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '*' if chars.get(i + 1) == Some(&'*') => {
                while chars.get(i + 1) == Some(&'*') {
                    i += 1;
                }
                re.push_str(".*");
            }
            '*' => re.push_str("[^/]*"),
            '?' => re.push_str("[^/]"),
            c => re.push_str(&regex::escape(&c.to_string())),
        }
        i += 1;
    }
    re.push('$');
    Regex::new(&re).expect("generated regex")
}

/// Every string over the alphabet up to `max` characters.
fn strings(max: usize) -> Vec<String> {
    let mut all = vec![String::new()];
    let mut layer = vec![String::new()];
    for _ in 0..max {
        layer = layer
            .iter()
            .flat_map(|s| ['a', 'b', '.', '/'].map(|c| format!("{s}{c}")))
            .collect();
        all.extend(layer.iter().cloned());
    }
    all
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    // A shortest common string consumes a one-character token of either glob at each step, so
    // for globs of at most 3 characters 6 characters of witness suffice.
    #[test]
    fn overlap_agrees_with_brute_force(p in "[ab./*?]{0,3}", q in "[ab./*?]{0,3}") {
        let (rp, rq) = (glob_regex(&p), glob_regex(&q));
        let brute = strings(6).iter().any(|s| rp.is_match(s) && rq.is_match(s));
        prop_assert_eq!(globs_overlap(&p, &q), Some(brute), "{} vs {}", p, q);
    }

    #[test]
    fn matching_agrees_with_the_regex_reading(g in "[ab./*?]{0,5}", s in "[ab./]{0,6}") {
        prop_assert_eq!(glob_matches(&g, &s), glob_regex(&g).is_match(&s));
    }

    // A pattern's last segment against a basename entry, through the whole `hit` (literal
    // start/end filters included), against every name up to 6 characters. Our leading-dot
    // rule: a name's leading `.` must be taken by a literal `.`, which leading stars matching
    // nothing may precede (bash demands the pattern's first character be `.`; we over-
    // approximate `*.env` as naming `.env`, the fail-closed side).
    #[test]
    fn pattern_hit_agrees_with_brute_force(tail in "[ab.*?]{1,3}", name in "[ab.*?]{1,3}") {
        let set = PathSet::new(&[(&name, "N")], &[], None).expect("basename glob");
        let r = resolve(&format!("/d/{tail}"), &CTX);
        prop_assume!(r.pattern && !tail.contains("**") && !name.contains("**"));
        let (rt, rn) = (glob_regex(&tail), glob_regex(&name));
        let brute = strings(6).iter().filter(|s| !s.is_empty() && !s.contains('/')).any(|s| {
            // Stars before the leading `.` can only match nothing.
            let bare = tail.trim_start_matches('*');
            let shell = if s.starts_with('.') {
                bare.starts_with('.') && glob_regex(bare).is_match(s)
            } else {
                rt.is_match(s)
            };
            shell && rn.is_match(s)
        });
        prop_assert_eq!(set.hit(&r).is_some(), brute, "{} vs {}", tail, name);
    }

    #[test]
    fn literal_hit_is_matching_the_entry(
        entry in "/[ab*?]{1,3}(/[ab.*?]{1,3}){0,2}",
        name in "[ab.*?]{1,4}",
        path in "(/[ab.]{1,3}){1,4}",
    ) {
        let located = PathSet::new(&[(&entry, "L")], &[], None).expect("absolute glob");
        let by_name = PathSet::new(&[(&name, "N")], &[], None).expect("basename glob");
        let r = resolve_literal(&path, &CTX);
        prop_assert_eq!(located.hit(&r).is_some(), glob_matches(&entry, &r.path));
        let base = r.path.rsplit('/').next().unwrap_or("");
        prop_assert_eq!(by_name.hit(&r).is_some(), glob_matches(&name, base));
    }
}

proptest! {
    // Cheap cases, and a filing mistake needs a particular pair of entry and path to show.
    #![proptest_config(ProptestConfig::with_cases(4000))]

    // Location entries are filed by their leading directories and basename entries without
    // wildcards by name; whatever the filing, the label is that of an entry naming the file
    // exactly, else the first matching entry's in config order, as a scan gives.
    #[test]
    fn the_first_matching_entry_names_a_literal_path(
        entries in prop::collection::vec("(/[ab*]{1,2}){1,3}|[ab.*]{1,3}", 1..7),
        path in "(/[ab.]{1,2}){1,4}",
    ) {
        let labels: Vec<String> = (0..entries.len()).map(|i| i.to_string()).collect();
        let pairs: Vec<(&str, &str)> =
            entries.iter().zip(&labels).map(|(g, l)| (g.as_str(), l.as_str())).collect();
        let set = PathSet::new(&pairs, &[], None).expect("absolute or basename globs");
        let r = resolve_literal(&path, &CTX);
        let base = r.path.rsplit('/').next().unwrap_or("");
        let exact = entries.iter().position(|g| g.as_str() == base);
        let first = |located: bool| {
            entries.iter().position(|g| {
                (g.starts_with('/') == located)
                    && glob_matches(g, if located { &r.path } else { base })
            })
        };
        // Basename entries are judged before locations, each kind in config order.
        let expected = exact.or_else(|| first(false)).or_else(|| first(true));
        let expected = expected.map(|i| labels[i].as_str());
        prop_assert_eq!(set.hit(&r), expected, "{:?} on {}", entries, r.path);
    }
}

#[test]
fn ordinary_source_patterns_do_not_hit_the_default_set() {
    let set = credential_files(Some(HOME));
    for word in [
        "src/*.ts",
        "src/**/*.test.ts",
        "*.md",
        "lib/*.rs",
        "test_*.py",
    ] {
        assert_eq!(set.hit(&resolve(word, &CTX)), None, "{word}");
    }
    // `*.json` could be credentials.json: lexically a hit, the disk decides (below).
    assert_eq!(set.hit(&resolve("*.json", &CTX)), Some("credentials file"));
}

#[test]
fn patterns_on_disk_are_judged_by_what_exists() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().to_str().expect("utf-8 temp path").to_string();
    for (sub, files) in [
        (
            "plain",
            &["package.json", "tsconfig.json", ".env.example"][..],
        ),
        ("secret", &["package.json", "credentials.json", ".env"][..]),
    ] {
        std::fs::create_dir_all(format!("{root}/{sub}")).expect("mkdir");
        for f in files {
            std::fs::write(format!("{root}/{sub}/{f}"), "").expect("write");
        }
    }
    let set = credential_files(Some(HOME));
    let ctx = PathContext {
        cwd: Some(&root),
        home: Some(HOME),
    };
    let on_disk = |word: &str| set.hit_on_disk(&resolve(word, &ctx));
    assert_eq!(on_disk("plain/*.json"), None);
    assert_eq!(on_disk("plain/.e*"), None, "only the template exists");
    assert_eq!(on_disk("secret/*.json"), Some("credentials file"));
    assert_eq!(on_disk("secret/.e*"), Some("dotenv file"));
    assert_eq!(on_disk("*/.en?"), Some("dotenv file"));
    assert_eq!(on_disk("*/*"), Some("credentials file"));
    assert_eq!(on_disk("nowhere/*.json"), None);
    // Out of bounds for listing: the lexical answer.
    assert_eq!(on_disk("plain/**/*.json"), Some("credentials file"));
}
