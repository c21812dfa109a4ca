//! How far a hedge reaches. "I think", "might", "you could" make an opinion of the clause they
//! stand in, not of the whole sentence: in "nginx is not installed on the web host, so you
//! might want to install it" the first clause is asserted as plainly as without the second.
//! A hedge qualifies a claim in its own clause; a conditional ("if …,") also the clause it
//! leads into; a clause that is nothing but a hedge ("…, I think.", "Maybe, …") the clauses
//! on either side.

use super::claims::LEADING;

/// Words that open a new clause of their own.
const CONJUNCTIONS: [&str; 8] = [
    "so", "but", "because", "since", "although", "though", "whereas", "while",
];

/// Words that open a new clause after "and" or "or" ("…, and you could…").
const SUBJECTS: [&str; 7] = ["i", "you", "we", "they", "he", "she", "it"];

/// Words that, with the hedge itself, may fill a clause that only hedges.
const HEDGE_FILLERS: [&str; 3] = ["just", "at", "least"];

/// Whether the hedge at `hedge` (byte range in `sentence`) qualifies the claim at `claim`.
pub fn qualifies(sentence: &str, hedge: (usize, usize), claim: (usize, usize)) -> bool {
    let (a, b) = match (hedge.1 <= claim.0, claim.1 <= hedge.0) {
        (true, _) => (hedge.1, claim.0),
        (_, true) => (claim.1, hedge.0),
        // The hedge is inside the claim's words.
        _ => return true,
    };
    let Some(between) = sentence.get(a..b).map(boundaries) else {
        return true;
    };
    if between == 0 {
        return true;
    }
    let phrase = &sentence[hedge.0..hedge.1];
    let conditional = ["if", "unless"]
        .iter()
        .any(|w| phrase.eq_ignore_ascii_case(w));
    between == 1 && (conditional && hedge.1 <= claim.0 || alone(sentence, hedge))
}

/// How many clause boundaries `s` holds: a comma, semicolon, colon, dash or bracket, or a
/// word that opens a clause.
fn boundaries(s: &str) -> usize {
    let marks = s
        .chars()
        .filter(|c| matches!(c, ',' | ';' | ':' | '(' | ')' | '\u{2013}' | '\u{2014}'))
        .count()
        + s.matches(" - ").count();
    let words: Vec<&str> = s
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .collect();
    let is = |w: &str, set: &[&str]| set.iter().any(|s| w.eq_ignore_ascii_case(s));
    let opening = (0..words.len())
        .filter(|&i| {
            is(words[i], &CONJUNCTIONS)
                || is(words[i], &["and", "or"])
                    && words.get(i + 1).is_some_and(|n| is(n, &SUBJECTS))
        })
        .count();
    marks + opening
}

/// Whether the hedge fills its clause: nothing else there but fillers ("Maybe,", ", I think.").
fn alone(sentence: &str, hedge: (usize, usize)) -> bool {
    let before = &sentence[..hedge.0];
    let after = &sentence[hedge.1..];
    let start = before
        .char_indices()
        .rfind(|(_, c)| matches!(c, ',' | ';' | ':' | '(' | '\u{2013}' | '\u{2014}'))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let end = after
        .find([',', ';', ':', ')', '\u{2013}', '\u{2014}'])
        .unwrap_or(after.len());
    let rest = format!("{} {}", &before[start..], &after[..end]);
    rest.split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .all(|w| {
            let lower = w.to_ascii_lowercase();
            LEADING.contains(&lower.as_str()) || HEDGE_FILLERS.contains(&lower.as_str())
        })
}

#[cfg(test)]
mod tests {
    use super::qualifies;

    /// The claim is the first "nginx is not installed"; the hedge is `word`'s first occurrence.
    fn hedged(sentence: &str, word: &str) -> bool {
        let c = sentence.find("nginx is not installed").expect("claim");
        let h = sentence.find(word).expect("hedge");
        qualifies(sentence, (h, h + word.len()), (c, c + 22))
    }

    #[test]
    fn a_hedge_reaches_its_own_clause() {
        assert!(hedged("I think nginx is not installed", "I think"));
        assert!(hedged("nginx is not installed, I think", "I think"));
        assert!(hedged("Maybe, nginx is not installed", "Maybe"));
        assert!(hedged(
            "If nginx is not installed, you could install it",
            "If"
        ));
        assert!(hedged("nginx is not installed maybe", "maybe"));
        assert!(!hedged(
            "nginx is not installed on the web host, so you might want to install it",
            "might"
        ));
        assert!(!hedged(
            "nginx is not installed; you could install it with apt",
            "could"
        ));
        assert!(!hedged(
            "Heads up, nginx is not installed on the web host, maybe reinstall?",
            "maybe"
        ));
        assert!(!hedged(
            "nginx is not installed so you might want to install it",
            "might"
        ));
        assert!(!hedged(
            "nginx is not installed and you should install it",
            "should"
        ));
        // A conditional reaches into the clause it leads to, not back.
        assert!(hedged("If the build is old, nginx is not installed", "If"));
        assert!(!hedged("nginx is not installed, if you ask me twice", "if"));
    }
}
