//! Regexes from config: compiled once at load with the `regex` crate's engine, whose matching is
//! linear in the input (no backtracking, so no ReDoS). Patterns it cannot express (look-around,
//! back-references) are config errors carrying the crate's message and the key's path.
//!
//! Policy patterns go through a [`PatternCache`]: a pattern written in many policies is compiled
//! once, and all of a config's compiled patterns together must fit [`POLICY_REGEX_BUDGET`].
//! Without that total, a thousand policies that each count a Unicode class (`[\w-]{16,}` is
//! ~0.9 MB compiled) took seconds and gigabytes to load.

use crate::config::error::Issues;
use regex::{Regex, RegexBuilder};
use regex_automata::meta;
use regex_automata::util::syntax;
use regex_automata::MatchKind;
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// Longest pattern accepted (NORMATIVE N12).
pub const MAX_PATTERN_LEN: usize = 500;
/// Compiled-program size cap, so a pathological pattern cannot eat memory at load.
const SIZE_LIMIT: usize = 2 << 20;
/// Heap all distinct compiled policy patterns of one config may take together.
pub const POLICY_REGEX_BUDGET: usize = 128 << 20;

/// A regex for the rest of the config (audit redaction, output validation): compiled on its own.
pub fn compile(
    pattern: &str,
    path: &str,
    case_insensitive: bool,
    issues: &mut Issues,
) -> Option<Regex> {
    if !short_enough(pattern, path, issues) {
        return None;
    }
    match RegexBuilder::new(pattern)
        .case_insensitive(case_insensitive)
        .size_limit(SIZE_LIMIT)
        .build()
    {
        Ok(re) => Some(re),
        Err(e) => {
            issues.push(path, format!("invalid regex: {e}"));
            None
        }
    }
}

fn short_enough(pattern: &str, path: &str, issues: &mut Issues) -> bool {
    let ok = pattern.chars().count() <= MAX_PATTERN_LEN;
    if !ok {
        issues.push(
            path,
            format!("pattern is longer than {MAX_PATTERN_LEN} characters"),
        );
    }
    ok
}

/// A compiled policy pattern. Clones share the program and its match caches.
#[derive(Clone)]
pub struct Pattern {
    source: Arc<str>,
    re: Arc<meta::Regex>,
}

impl Pattern {
    /// Whether the pattern matches anywhere in `text` (the `regex` crate's `is_match`).
    pub fn is_match(&self, text: &str) -> bool {
        self.re.is_match(text)
    }

    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// Whether two patterns are one compiled program (identical patterns are compiled once).
    pub fn shares_program(&self, other: &Pattern) -> bool {
        Arc::ptr_eq(&self.re, &other.re)
    }
}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Pattern({:?})", self.source)
    }
}

/// Compiles a config's policy patterns: identical ones once, all of them within a total budget.
pub struct PatternCache {
    compiled: HashMap<(Arc<str>, bool), Result<Pattern, String>>,
    used: usize,
    budget: usize,
    exceeded: bool,
}

impl Default for PatternCache {
    fn default() -> Self {
        PatternCache::with_budget(POLICY_REGEX_BUDGET)
    }
}

impl PatternCache {
    pub fn with_budget(budget: usize) -> PatternCache {
        PatternCache {
            compiled: HashMap::new(),
            used: 0,
            budget,
            exceeded: false,
        }
    }

    /// Bytes the distinct compiled patterns take so far.
    pub fn used(&self) -> usize {
        self.used
    }

    pub fn compile(
        &mut self,
        pattern: &str,
        path: &str,
        case_insensitive: bool,
        issues: &mut Issues,
    ) -> Option<Pattern> {
        if !short_enough(pattern, path, issues) {
            return None;
        }
        let key: (Arc<str>, bool) = (pattern.into(), case_insensitive);
        if let Some(done) = self.compiled.get(&key) {
            return report(done.clone(), path, issues);
        }
        if self.exceeded {
            // Over budget: only check the syntax, so every other mistake still shows in one pass.
            if let Err(e) = syntax::parse_with(pattern, &syntax_config(case_insensitive)) {
                issues.push(path, format!("invalid regex: {e}"));
            }
            return None;
        }
        let built = build(&key.0, case_insensitive);
        if let Ok(p) = &built {
            let size = p.re.memory_usage();
            if self.used + size > self.budget {
                self.exceeded = true;
                issues.push(path, self.over_budget(size));
                return None;
            }
            self.used += size;
        }
        self.compiled.insert(key, built.clone());
        report(built, path, issues)
    }

    fn over_budget(&self, size: usize) -> String {
        format!(
            "the policies' compiled regexes exceed their total budget of {} MiB here \
             ({:.1} MiB before this pattern, which needs {} KiB): write one shared pattern \
             rather than variants of it, or avoid counted repetitions of Unicode classes \
             (`[\\w-]{{16,}}` alone compiles to ~0.9 MB because `\\w` covers every script; \
             `[A-Za-z0-9_-]{{16,}}` if ASCII is meant)",
            self.budget >> 20,
            self.used as f64 / f64::from(1 << 20),
            size.div_ceil(1024),
        )
    }
}

fn report(r: Result<Pattern, String>, path: &str, issues: &mut Issues) -> Option<Pattern> {
    r.map_err(|e| issues.push(path, e)).ok()
}

fn syntax_config(case_insensitive: bool) -> syntax::Config {
    syntax::Config::new()
        .case_insensitive(case_insensitive)
        .utf8(true)
}

/// The `regex` crate's `Regex` for one string pattern, built the same way, so that its memory
/// use can be read and the match semantics stay exactly the crate's.
fn build(pattern: &Arc<str>, case_insensitive: bool) -> Result<Pattern, String> {
    let config = meta::Config::new()
        .match_kind(MatchKind::LeftmostFirst)
        .utf8_empty(true)
        .nfa_size_limit(Some(SIZE_LIMIT));
    let re = meta::Builder::new()
        .configure(config)
        .syntax(syntax_config(case_insensitive))
        .build(pattern)
        .map_err(|e| match (e.size_limit(), e.syntax_error()) {
            (Some(limit), _) => {
                format!("invalid regex: Compiled regex exceeds size limit of {limit} bytes.")
            }
            (_, Some(syntax)) => format!("invalid regex: {syntax}"),
            _ => format!("invalid regex: {e}"),
        })?;
    Ok(Pattern {
        source: pattern.clone(),
        re: Arc::new(re),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths_of(issues: Issues) -> Vec<String> {
        match issues.into_result(()) {
            Ok(()) => vec![],
            Err(e) => e.issues.into_iter().map(|i| i.path).collect(),
        }
    }

    #[test]
    fn identical_patterns_compile_once() {
        let (mut cache, mut issues) = (PatternCache::default(), Issues::default());
        let a = cache
            .compile(r"\bsecret\w*", "a", true, &mut issues)
            .unwrap();
        let used = cache.used();
        let b = cache
            .compile(r"\bsecret\w*", "b", true, &mut issues)
            .unwrap();
        let c = cache
            .compile(r"\bsecret\w*", "c", false, &mut issues)
            .unwrap();
        assert!(a.shares_program(&b) && !a.shares_program(&c));
        assert!(used > 0 && cache.used() > used);
        // An invalid pattern repeated is reported at each place it is written.
        cache.compile("(a)\\1", "d", false, &mut issues);
        cache.compile("(a)\\1", "e", false, &mut issues);
        assert_eq!(paths_of(issues), ["d", "e"]);
    }

    #[test]
    fn the_budget_counts_distinct_patterns_and_then_only_checks_syntax() {
        let mut issues = Issues::default();
        let one = PatternCache::default()
            .compile(r"x\w{3}", "x", false, &mut issues)
            .map(|p| p.re.memory_usage())
            .unwrap();
        let mut cache = PatternCache::with_budget(one + one / 2);
        assert!(cache.compile(r"x\w{3}", "a", false, &mut issues).is_some());
        assert!(cache.compile(r"x\w{3}", "b", false, &mut issues).is_some());
        assert!(cache.compile(r"y\w{3}", "c", false, &mut issues).is_none());
        assert!(cache.compile("(?=z)", "d", false, &mut issues).is_none());
        assert!(cache.compile("fine", "e", false, &mut issues).is_none());
        let issues = issues.into_result(()).unwrap_err().issues;
        let got: Vec<(&str, bool)> = issues
            .iter()
            .map(|i| (i.path.as_str(), i.message.contains("total budget")))
            .collect();
        assert_eq!(got, [("c", true), ("d", false)], "{issues:?}");
    }

    #[test]
    fn case_insensitive_patterns_fold_unicode() {
        let mut issues = Issues::default();
        let mut cache = PatternCache::default();
        let rm = cache
            .compile(r"rm\s+-rf\b", "p", true, &mut issues)
            .unwrap();
        // Upper case, mixed case, a no-break space (Unicode \s), the Kelvin sign and long s fold.
        for text in ["RM -RF /", "sudo Rm  -rF x", "rm\u{a0}-RF", "RM\t-Rf"] {
            assert!(rm.is_match(text), "{text:?}");
        }
        let kill = cache
            .compile(r"\bkill\s+-9\b", "q", true, &mut issues)
            .unwrap();
        assert!(kill.is_match("\u{212a}ILL -9 1"));
        let secret = cache.compile("secret", "s", true, &mut issues).unwrap();
        assert!(secret.is_match("my \u{17f}ECRET"));
        assert!(!rm.is_match("rm -r f") && !secret.is_match("secrt"));
        assert!(issues.is_empty());
    }

    #[test]
    fn matches_exactly_as_the_regex_crate() {
        let patterns = [
            r"\b",
            r"^$",
            r"a*",
            r"\bé\w+\b",
            r"(?m)^rm$",
            r"^https?://(\w+\.)*corp\b",
            r"[\w.+-]+@[\w-]+\.[\w.]{2,}",
            r"\d{3}-\d{2}",
            r"curl[^|]*\|\s*(ba)?sh",
        ];
        let texts = [
            "",
            " ",
            "é",
            "x éa y",
            "rm\nrm",
            "https://a.b.corp/x",
            "a.b@c-d.org",
            "٣٤٥-٦٧",
            "curl x | bash",
            "naïve ünïcödé — 😀",
        ];
        let mut cache = PatternCache::default();
        for p in patterns {
            for ci in [false, true] {
                let mut issues = Issues::default();
                let ours = cache.compile(p, "p", ci, &mut issues).unwrap();
                let theirs = compile(p, "p", ci, &mut issues).unwrap();
                for t in texts {
                    assert_eq!(ours.is_match(t), theirs.is_match(t), "{p:?} ci={ci} {t:?}");
                }
            }
        }
    }
}
