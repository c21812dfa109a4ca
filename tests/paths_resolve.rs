//! Path resolution as the shell and the host's file tools see a path argument.

use openclaw_governance::paths::{resolve, resolve_literal, PathContext, Resolved};
use proptest::prelude::*;

const CTX: PathContext = PathContext {
    cwd: Some("/srv/app"),
    home: Some("/home/u"),
};

fn lit(path: &str) -> Resolved {
    Resolved {
        path: path.to_string(),
        pattern: false,
    }
}

fn pat(path: &str) -> Resolved {
    Resolved {
        path: path.to_string(),
        pattern: true,
    }
}

#[test]
fn host_file_tool_forms_reach_the_real_file() {
    let r = |raw| resolve_literal(raw, &CTX);
    assert_eq!(r("@.env"), lit("/srv/app/.env"));
    assert_eq!(r("@@.env"), lit("/srv/app/@.env"));
    assert_eq!(r("file:///srv/app/%2Eenv"), lit("/srv/app/.env"));
    assert_eq!(r("file://localhost/srv/app/.env"), lit("/srv/app/.env"));
    assert_eq!(r("@file:///srv/app/.env?download#x"), lit("/srv/app/.env"));
    assert_eq!(r("file:///srv/x/%2e%2e/app/.env"), lit("/srv/app/.env"));
    assert_eq!(r("~/.ssh/id_rsa"), lit("/home/u/.ssh/id_rsa"));
    assert_eq!(r("@~/.aws/credentials"), lit("/home/u/.aws/credentials"));
    assert_eq!(r(".env</arg_value>>"), lit("/srv/app/.env"));
    assert_eq!(r("./src/../.env/"), lit("/srv/app/.env"));
    assert_eq!(r("/srv//app/./.env"), lit("/srv/app/.env"));
}

#[test]
fn host_file_tool_paths_are_never_patterns() {
    assert_eq!(resolve_literal(".e*", &CTX), lit("/srv/app/.e*"));
    assert_eq!(resolve_literal("[a].txt", &CTX), lit("/srv/app/[a].txt"));
}

#[test]
fn host_keeps_what_node_cannot_parse_as_a_relative_name() {
    // fileURLToPath throws on an encoded slash; the host then resolves the text itself.
    assert_eq!(
        resolve_literal("file:///etc/%2fshadow", &CTX),
        lit("/srv/app/file:/etc/%2fshadow")
    );
    // The host expands `~` and `~/` only; `~user` is a name.
    assert_eq!(resolve_literal("~root/x", &CTX), lit("/srv/app/~root/x"));
}

#[test]
fn shell_words_keep_patterns_and_drop_escapes_of_literals() {
    let r = |raw| resolve(raw, &CTX);
    assert_eq!(r(".e*"), pat("/srv/app/.e*"));
    assert_eq!(r(".en?"), pat("/srv/app/.en?"));
    assert_eq!(r(".[e]nv"), pat("/srv/app/.[e]nv"));
    assert_eq!(r("../*/.env"), pat("/srv/*/.env"));
    assert_eq!(r("~/.ssh/id_*"), pat("/home/u/.ssh/id_*"));
    // Quoted metacharacters arrive escaped: one file, named with a star.
    assert_eq!(r(".e\\*"), lit("/srv/app/.e*"));
    assert_eq!(r("a[b"), lit("/srv/app/a[b"));
    assert_eq!(r("\\~/x"), lit("/srv/app/~/x"));
    assert_eq!(r("~+/.env"), lit("/srv/app/.env"));
    assert_eq!(r("~root/.ssh/id_rsa"), lit("/root/.ssh/id_rsa"));
    // The shell has no `@` or `file://` forms.
    assert_eq!(r("@.env"), lit("/srv/app/@.env"));
}

#[test]
fn directories_with_metacharacters_stay_literal_inside_patterns() {
    let ctx = PathContext {
        cwd: Some("/srv/a*b"),
        home: None,
    };
    assert_eq!(resolve("x", &ctx), lit("/srv/a*b/x"));
    assert_eq!(resolve("*.rs", &ctx), pat("/srv/a\\*b/*.rs"));
}

#[test]
fn without_context_paths_stay_relative_but_normalised() {
    let none = PathContext::default();
    assert_eq!(resolve("./a//b/../.env/", &none), lit("a/.env"));
    assert_eq!(resolve("~/.env", &none), lit("~/.env"));
    assert_eq!(resolve("../../x", &none), lit("../../x"));
}

#[test]
fn dot_dot_stops_at_root() {
    assert_eq!(
        resolve("../../../../../../etc/shadow", &CTX),
        lit("/etc/shadow")
    );
    assert_eq!(resolve("/../..", &CTX), lit("/"));
}

#[test]
fn proc_links_to_roots_and_cwds_are_followed() {
    let r = |raw| resolve_literal(raw, &CTX);
    assert_eq!(r("/proc/self/root/etc/shadow"), lit("/etc/shadow"));
    assert_eq!(r("/proc/1/task/1/root/etc/shadow"), lit("/etc/shadow"));
    assert_eq!(r("/proc/self/cwd/.env"), lit("/srv/app/.env"));
    assert_eq!(r("/proc/self/root/proc/self/root/x"), lit("/x"));
    assert_eq!(r("/proc/7/cwd/.env"), lit("/proc/7/cwd/.env"));
    assert_eq!(r("/proc/self/environ"), lit("/proc/self/environ"));
    assert_eq!(resolve("/proc/*/root/etc/sh*", &CTX), pat("/etc/sh*"));
}

#[test]
fn unicode_is_composed() {
    // `e` + combining acute is `é` once composed, as the host's NFC variant opens it.
    assert_eq!(
        resolve_literal("cafe\u{301}", &CTX),
        lit("/srv/app/caf\u{e9}")
    );
    assert_eq!(resolve("cafe\u{301}", &CTX), lit("/srv/app/caf\u{e9}"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn never_panics(raw in any::<String>()) {
        let none = PathContext::default();
        let _ = resolve(&raw, &CTX);
        let _ = resolve_literal(&raw, &CTX);
        let _ = resolve(&raw, &none);
        let _ = resolve_literal(&raw, &none);
    }

    #[test]
    fn idempotent(raw in "[a-z./~@*?\\[\\]\\\\%2Ef:-]{0,24}") {
        let once = resolve(&raw, &CTX);
        prop_assert!(once.path.starts_with('/'));
        // A pattern is re-read as a shell word; a literal name as the file tool's literal.
        let twice = if once.pattern {
            resolve(&once.path, &CTX)
        } else {
            resolve_literal(&once.path, &CTX)
        };
        prop_assert_eq!(&twice, &once);
        let host = resolve_literal(&raw, &CTX);
        prop_assert_eq!(&resolve_literal(&host.path, &CTX), &host);
    }

    #[test]
    fn dot_dot_never_escapes_root(segments in proptest::collection::vec("(\\.\\.|\\.|[a-c]{1,2}|)", 0..12)) {
        let raw = segments.join("/");
        for r in [resolve(&raw, &CTX), resolve_literal(&raw, &CTX)] {
            prop_assert!(r.path.starts_with('/'));
            prop_assert!(r.path.split('/').all(|s| s != ".." && s != "."));
            prop_assert!(r.path == "/" || !r.path.ends_with('/'));
            prop_assert!(!r.path.contains("//"));
        }
    }
}
