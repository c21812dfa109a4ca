//! Whether two globs can match a common path: emptiness of the product of their NFAs. A state
//! is a pair of token positions; a pair of one-character tokens steps when their sets meet, a
//! star loops in place while the other side steps. Visited pairs are remembered, so the walk is
//! at most (|a|+1)·(|b|+1) states — bounded by `MAX_STATES`, past which the caller must assume
//! the worst.

use super::glob::Token;

/// Product states we are willing to visit (two per pair of positions): 64 Ki pairs is a
/// 256×256-token pair of globs, far past any real path, and well under a millisecond of work.
pub(crate) const MAX_STATES: usize = 1 << 17;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Overlap {
    Yes,
    No,
    /// Too large to decide within `MAX_STATES`.
    TooLarge,
}

pub(crate) fn overlap(a: &[Token], b: &[Token]) -> Overlap {
    // A state is (position in a, position in b, whether the next character starts a segment).
    let width = b.len() + 1;
    let Some(size) = (a.len() + 1)
        .checked_mul(width)
        .and_then(|n| n.checked_mul(2))
    else {
        return Overlap::TooLarge;
    };
    if size > MAX_STATES {
        return Overlap::TooLarge;
    }
    let index = |i: usize, j: usize, start: bool| (i * width + j) * 2 + usize::from(start);
    let mut seen = vec![false; size];
    let mut stack = vec![(0usize, 0usize, true)];
    seen[index(0, 0, true)] = true;
    while let Some((i, j, start)) = stack.pop() {
        let (ea, eb) = (skip_repeats(a, i), skip_repeats(b, j));
        if ea == a.len() && eb == b.len() {
            return Overlap::Yes;
        }
        for (p, s) in a.iter().enumerate().take(ea + 1).skip(i) {
            for (q, t) in b.iter().enumerate().take(eb + 1).skip(j) {
                for (np, nq, ns) in joint_steps(s, p, t, q, start) {
                    if !seen[index(np, nq, ns)] {
                        seen[index(np, nq, ns)] = true;
                        stack.push((np, nq, ns));
                    }
                }
            }
        }
    }
    Overlap::No
}

/// The last position reachable from `i` by letting repeating tokens match nothing.
fn skip_repeats(tokens: &[Token], mut i: usize) -> usize {
    while i < tokens.len() && tokens[i].repeat {
        i += 1;
    }
    i
}

/// The states reached when both tokens consume one common character, split by the three
/// kinds of character that matter: `/` (next starts a segment), a `.` (refused by a shell
/// wildcard at a segment start) and anything else. Two repeating tokens that both loop stay
/// where they are; that matters only when it ends a segment start (`*` has taken `x`, so a
/// `.` may follow), since being at a segment start only ever forbids.
fn joint_steps(
    s: &Token,
    p: usize,
    t: &Token,
    q: usize,
    start: bool,
) -> impl Iterator<Item = (usize, usize, bool)> {
    let (np, nq) = (p + usize::from(!s.repeat), q + usize::from(!t.repeat));
    let moves = (np, nq) != (p, q);
    let slash = moves && s.takes('/', start) && t.takes('/', start);
    let dot = (moves || start) && s.takes('.', start) && t.takes('.', start);
    let other = (moves || start) && s.set.meets_other(&t.set);
    let after_slash = slash.then_some((np, nq, true));
    let after_char = (dot || other).then_some((np, nq, false));
    after_slash.into_iter().chain(after_char)
}

#[cfg(test)]
mod tests {
    use super::super::glob::{parse, Syntax};
    use super::*;

    fn ov(a: &str, b: &str) -> bool {
        let s = Syntax {
            fold: false,
            hide_dots: false,
        };
        overlap(&parse(a, s), &parse(b, s)) == Overlap::Yes
    }

    #[test]
    fn shell_patterns_skip_hidden_names() {
        let shell = Syntax {
            fold: false,
            hide_dots: true,
        };
        let entry = Syntax {
            fold: false,
            hide_dots: false,
        };
        let ov = |a: &str, b: &str| overlap(&parse(a, shell), &parse(b, entry)) == Overlap::Yes;
        assert!(!ov("/srv/app/*", "/**/.env"));
        assert!(!ov("/srv/app/src/*.rs", "/**/.env.*"));
        assert!(ov("/srv/app/.*", "/**/.env"));
        assert!(ov("/srv/*/.env", "/**/.env"));
        assert!(!ov("/srv/**", "/**/.env"));
        assert!(ov("/srv/*.pem", "/**/*.pem"));
        // Both stars take `x`, then the entry's literal `.` follows a non-leading position.
        assert!(ov("/*e", "/**.e"));
    }

    #[test]
    fn patterns_that_share_a_path() {
        assert!(ov("/srv/app/.e*", "/**/.env"));
        assert!(ov("/srv/app/.en?", "/**/.env"));
        assert!(ov("/srv/*/.env", "/**/.env"));
        assert!(ov("/proc/*/environ", "/proc/self/environ"));
        assert!(ov("a*b", "*ab*"));
    }

    #[test]
    fn patterns_that_do_not() {
        assert!(!ov("/srv/app/src/*.rs", "/**/.env"));
        assert!(ov("/srv/app/src/*.rs", "/**/.env.*"));
        assert!(!ov("/srv/app/README*", "/**/.env*"));
        assert!(!ov("/a/*", "/a/b/c"));
        assert!(!ov("[!a]", "a"));
    }

    fn strings(max: usize) -> Vec<String> {
        let mut all = vec![String::new()];
        let mut layer = vec![String::new()];
        for _ in 0..max {
            layer = layer
                .iter()
                .flat_map(|s| ['a', '.', '/'].map(|c| format!("{s}{c}")))
                .collect();
            all.extend(layer.iter().cloned());
        }
        all
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

        // The leading-dot rule against the bitmask matcher on every string up to the longest
        // shortest witness (one one-character token of either glob per step).
        #[test]
        fn shell_overlap_agrees_with_brute_force(p in "[a./*?]{0,3}", q in "[a./*?]{0,3}") {
            use super::super::glob::matches;
            let shell = Syntax { fold: false, hide_dots: true };
            let entry = Syntax { fold: false, hide_dots: false };
            let (tp, tq) = (parse(&p, shell), parse(&q, entry));
            let brute = strings(6)
                .iter()
                .any(|s| matches(&tp, s, shell) && matches(&tq, s, entry));
            proptest::prop_assert_eq!(overlap(&tp, &tq) == Overlap::Yes, brute, "{} vs {}", p, q);
        }
    }
}
