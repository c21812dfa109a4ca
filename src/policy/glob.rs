//! Shell-style globs (`*`, `?`) for agent ids, tool names and session keys.
//! Matched without regex: the common shapes (exact, prefix*, *suffix, *) are one comparison.

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Glob {
    Any,
    Exact(String),
    Prefix(String),
    Suffix(String),
    /// Anything else: matched by the general backtracking-free algorithm below.
    General(Vec<char>),
}

impl Glob {
    pub fn new(pattern: &str) -> Glob {
        let stars = pattern.matches('*').count();
        let has_q = pattern.contains('?');
        if pattern == "*" {
            Glob::Any
        } else if stars == 0 && !has_q {
            Glob::Exact(pattern.to_string())
        } else if stars == 1 && !has_q && pattern.ends_with('*') {
            Glob::Prefix(pattern[..pattern.len() - 1].to_string())
        } else if stars == 1 && !has_q && pattern.starts_with('*') {
            Glob::Suffix(pattern[1..].to_string())
        } else {
            Glob::General(pattern.chars().collect())
        }
    }

    pub fn is_exact(&self) -> Option<&str> {
        match self {
            Glob::Exact(s) => Some(s),
            _ => None,
        }
    }

    pub fn matches(&self, text: &str) -> bool {
        match self {
            Glob::Any => true,
            Glob::Exact(s) => text == s,
            Glob::Prefix(p) => text.starts_with(p.as_str()),
            Glob::Suffix(s) => text.ends_with(s.as_str()),
            Glob::General(p) => general_match(p, text),
        }
    }
}

/// Linear-time wildcard match (the classic two-pointer algorithm with one backtrack point).
fn general_match(pattern: &[char], text: &str) -> bool {
    let text: Vec<char> = text.chars().collect();
    let (mut p, mut t) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        if p < pattern.len() && (pattern[p] == '?' || pattern[p] == text[t]) {
            p += 1;
            t += 1;
        } else if p < pattern.len() && pattern[p] == '*' {
            star = Some((p, t));
            p += 1;
        } else if let Some((sp, st)) = star {
            p = sp + 1;
            t = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    pattern[p..].iter().all(|c| *c == '*')
}

#[cfg(test)]
mod tests {
    use super::Glob;

    #[test]
    fn shapes() {
        assert!(Glob::new("*").matches("anything"));
        assert!(Glob::new("exec").matches("exec"));
        assert!(!Glob::new("exec").matches("exec2"));
        assert!(Glob::new("memory_*").matches("memory_get"));
        assert!(Glob::new("*_get").matches("memory_get"));
        assert!(Glob::new("agent:*:subagent:*").matches("agent:main:subagent:forge"));
        assert!(!Glob::new("agent:*:subagent:*").matches("agent:main:main"));
        assert!(Glob::new("f?rge").matches("forge"));
        assert!(Glob::new("a*b*c").matches("aXXbYYc"));
        assert!(!Glob::new("a*b*c").matches("aXXbYY"));
    }
}
