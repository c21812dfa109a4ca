//! Properties of the whole model that need its insides: the fast path agrees with the parser,
//! and no input makes the walk panic or work without bound.

use proptest::prelude::*;

use super::walk::Walker;
use super::{OpaqueKind, Script, MAX_DEPTH};

fn walk(script: &str, fast: bool) -> (Script, u64) {
    let env = vec![("V".to_owned(), "a b*".to_owned())];
    let mut w = Walker::new(&env, &[]);
    w.fast = fast;
    w.script(script, 0, &[]);
    let spent = w.spent();
    (w.finish(), spent)
}

/// Work allowed per input byte: each byte is parsed at most once per depth level, words and
/// commands cost one unit each, brace expansion at most `MAX_BRACE_WORDS` per word.
fn bound(len: usize) -> u64 {
    (len as u64 + 16) * u64::from(MAX_DEPTH + 2) * 4 * super::expand::MAX_BRACE_WORDS as u64
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn shell_fast_path_equals_parser(
        words in prop::collection::vec(
            prop_oneof![
                "[A-Za-z0-9_./:,+@%=-]{1,8}",
                Just("|".to_owned()), Just("||".to_owned()), Just("&&".to_owned()),
                Just(";".to_owned()), Just("&".to_owned()), Just("\n".to_owned()),
                Just(">".to_owned()), Just(">>".to_owned()), Just("<".to_owned()),
                Just("2>".to_owned()), Just("if".to_owned()), Just("X=1".to_owned()),
                r"'[^']{0,6}'",
                r#""([a-z $\\'*#~]|\$V|\$\{V\}|\$U|\\")*""#,
                r"[a-z]{0,2}(\$V|\$\{V\}|\$U|\$1)[a-z.]{0,2}",
                r"\\[ -~é]",
                r"~|~/[a-z]{0,3}|a~b|#x|a#b",
                r"[a-z]{0,2}[*?\[\]^é][a-z]{0,2}",
            ],
            0..12,
        ),
        glue in prop::collection::vec(prop_oneof![Just(" "), Just(""), Just("\t")], 12),
    ) {
        let mut script = String::new();
        for (w, g) in words.iter().zip(&glue) {
            script.push_str(w);
            script.push_str(g);
        }
        if super::fast::parse(&script).is_some() {
            let (fast, _) = walk(&script, true);
            let (full, _) = walk(&script, false);
            let unparsed = full.opaque.iter().any(|o| o.kind == OpaqueKind::Unparseable);
            prop_assert!(!unparsed, "{:?} full path: {:?}", script, full.opaque);
            prop_assert_eq!(fast, full, "{:?}", script);
        }
    }

    #[test]
    fn shell_arbitrary_text_never_panics_and_work_is_bounded(script in "\\PC{0,300}") {
        let (_, spent) = walk(&script, true);
        prop_assert!(spent <= bound(script.len()), "{spent} for {} bytes", script.len());
    }

    #[test]
    fn shell_metacharacter_soup_never_panics_and_work_is_bounded(
        script in "[a-z0-9 $'\"\\\\`(){}\\[\\]|&;<>\n*?~=#!.,-]{0,300}"
    ) {
        let (s, spent) = walk(&script, true);
        prop_assert!(spent <= bound(script.len()), "{spent} for {} bytes", script.len());
        prop_assert!(s.commands.iter().all(|c| c.depth <= MAX_DEPTH));
    }
}

/// Cases the equality property once found: a redirect target glued to a quote, and an
/// assignment-looking argument of an ordinary command (bash splits it; brush calls it an
/// assignment).
#[test]
fn shell_fast_path_regressions() {
    for script in [
        "\\é | '' A a > if'' ",
        "'' a A $V if if X=1$V ",
        "echo a>b'c'",
    ] {
        assert_eq!(walk(script, true).0, walk(script, false).0, "{script:?}");
    }
}

/// A redirect target with a part only known at run time is judged by everything it could be,
/// as a word of argv is: `cat < /proc/$PPID/environ` reads some process's environment.
#[test]
fn an_unknown_part_of_a_redirect_target_is_a_pattern() {
    let s = super::analyze(&super::ShellInput {
        script: "cat < /proc/$PPID/environ; echo x > \"$D/a*b\"",
        env: &[],
        depth: 0,
        ..Default::default()
    });
    let targets: Vec<(&str, bool, bool)> = (s.commands.iter())
        .flat_map(|c| &c.redirects)
        .map(|r| {
            (
                r.target.text.as_str(),
                r.target.pattern,
                r.target.unresolved,
            )
        })
        .collect();
    assert_eq!(
        targets,
        [("/proc/*/environ", true, true), ("*/a\\*b", true, true)]
    );
}
