//! Claims whose subject is named in an earlier sentence. "Is nginx installed on the web host?
//! No, it is not installed." asserts that nginx is not installed as plainly as the sentence
//! that names it, and so does "Is nginx installed? No." A claim whose subject is a pronoun
//! ("it", "they") is about the nearest thing named before it: the subject of an earlier claim,
//! or of a yes/no question about a state. A question answered "No" or "Yes" is a claim of its
//! own. A pronoun with nothing before it names nothing, and its claim is dropped.

use super::claims::{ClaimCategory, DetectedClaim, STATES};
use super::text::Text;
use once_cell::sync::Lazy;
use regex::Regex;

/// The subject a claim about a pronoun carries until it is resolved.
pub const PRONOUN: &str = "it";

/// A yes/no question about a state, a whole sentence: "Is nginx installed (on the web
/// host)?", "Are the workers running?". The subject is the shortest that fits, so an adverb
/// before the state ("Is nginx currently installed?") is not taken for part of it.
static QUESTION: Lazy<Regex> = Lazy::new(|| {
    let states: Vec<&str> = STATES.iter().map(|(s, _, _)| *s).collect();
    Regex::new(&format!(
        r#"(?i)^(?:is|are)\s+(?P<subject>(?:the |a |an |my |our |your )?[\w.@/+#-]+(?:\s[\w.@/+#-]+){{0,2}}?)\s+(?:(?:{})\s+)?(?P<state>{})\b[^?]*\?$"#,
        super::claims::ADVERBS.join("|"),
        states.join("|")
    ))
    .expect("static regex")
});

/// `found` (in text order) with pronoun subjects replaced by what they stand for and answered
/// questions added as claims.
pub fn resolve(text: &str, found: &mut Vec<DetectedClaim>) {
    let pronouns = found.iter().any(|c| &*c.subject == PRONOUN);
    if !pronouns && !text.contains('?') {
        return;
    }
    let questions: Vec<Question> = match text.contains('?') {
        true => questions(text),
        false => Vec::new(),
    };
    // "No." alone is the claim; "No, it is not installed." makes its own.
    let mut answered: Vec<DetectedClaim> = (questions.iter())
        .filter_map(|q| q.answer.as_ref().map(|a| answer_claim(q, a)))
        .filter(|a| {
            let end = sentence_end(text, a.offset);
            !found.iter().any(|c| (a.offset..end).contains(&c.offset))
        })
        .collect();
    let mut k = 0;
    while k < found.len() {
        if &*found[k].subject != PRONOUN {
            k += 1;
            continue;
        }
        let at = found[k].offset;
        let claimed = found[..k]
            .iter()
            .rev()
            .find(|c| c.offset < at && &*c.subject != PRONOUN)
            .map(|c| (c.offset, c.subject.clone()));
        let asked = (questions.iter().rev())
            .find(|q| q.end <= at)
            .map(|q| (q.offset, q.subject.clone()));
        match [claimed, asked]
            .into_iter()
            .flatten()
            .max_by_key(|(o, _)| *o)
        {
            Some((_, subject)) => {
                found[k].subject = subject;
                k += 1;
            }
            None => {
                found.remove(k);
            }
        }
    }
    if !answered.is_empty() {
        found.append(&mut answered);
        found.sort_by_key(|c| c.offset);
    }
}

struct Question {
    offset: usize,
    /// Where the question mark is, past it.
    end: usize,
    subject: Text,
    state: String,
    matched: String,
    answer: Option<(usize, bool)>,
}

fn questions(text: &str) -> Vec<Question> {
    let mut out = Vec::new();
    for (mark, _) in text.match_indices('?') {
        let start = sentence_start(text, mark);
        let sentence = text[start..=mark].trim_start();
        let base = mark + 1 - sentence.len();
        let Some(caps) = QUESTION.captures(sentence) else {
            continue;
        };
        let (Some(subject), Some(state)) = (caps.name("subject"), caps.name("state")) else {
            continue;
        };
        let cleaned = super::claims::clean_subject(subject.as_str());
        if cleaned.is_empty() {
            continue;
        }
        out.push(Question {
            offset: base + subject.start(),
            end: mark + 1,
            subject: Text::new(&cleaned),
            state: state.as_str().to_ascii_lowercase(),
            matched: sentence[subject.start()..].to_string(),
            answer: answer(text, mark + 1),
        });
    }
    out
}

/// Where the sentence holding byte `at` starts: after a line break, or after `.`, `!` or `?`
/// followed by white space (so "Node.js" stays whole).
fn sentence_start(text: &str, at: usize) -> usize {
    let b = text.as_bytes();
    (0..at)
        .rev()
        .find(|&i| {
            b[i] == b'\n'
                || matches!(b[i], b'.' | b'!' | b'?')
                    && b.get(i + 1).is_some_and(u8::is_ascii_whitespace)
        })
        .map_or(0, |i| i + 1)
}

/// Where the sentence holding byte `at` ends.
fn sentence_end(text: &str, at: usize) -> usize {
    let b = text.as_bytes();
    (at..b.len())
        .find(|&i| {
            b[i] == b'\n'
                || matches!(b[i], b'.' | b'!' | b'?')
                    && b.get(i + 1).is_none_or(u8::is_ascii_whitespace)
        })
        .map_or(b.len(), |i| i + 1)
}

/// "No", "Nope", "Yes", "Yep" opening what follows a question, alone before a punctuation
/// mark or the end: where, and whether it is no.
fn answer(text: &str, from: usize) -> Option<(usize, bool)> {
    let rest = &text[from..];
    let trimmed = rest.trim_start();
    let at = from + rest.len() - trimmed.len();
    let word: String = trimmed
        .chars()
        .take_while(|c| c.is_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase();
    // "No idea" answers nothing: the word stands alone.
    let after = trimmed[word.len()..].chars().next();
    if after.is_some_and(|c| !matches!(c, ',' | '.' | '!' | ';' | ':' | '\n' | '\u{2014}')) {
        return None;
    }
    match word.as_str() {
        "no" | "nope" => Some((at, true)),
        "yes" | "yep" => Some((at, false)),
        _ => None,
    }
}

/// "Is nginx installed? No." as the claim that nginx is not installed.
fn answer_claim(q: &Question, &(at, no): &(usize, bool)) -> DetectedClaim {
    let (plain, not) = STATES
        .iter()
        .find(|(s, _, _)| *s == q.state)
        .map_or(("asserted", "not_asserted"), |(_, p, n)| (*p, *n));
    let assertion = if no { not } else { plain };
    DetectedClaim {
        category: ClaimCategory::SystemState,
        detector_id: Text::from_static("systemState"),
        matched_text: Text::new(&q.matched),
        offset: at,
        subject: q.subject.clone(),
        assertion: Text::from_static(assertion),
        negative: assertion.starts_with("not_"),
        confidence: 0.8,
        name: None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::claims;
    use super::*;

    fn claims_in(text: &str) -> Vec<(String, String)> {
        let patterns = claims::builtin("systemState");
        let refs: Vec<&claims::Pattern> = patterns.iter().collect();
        let mut found = claims::detect(text, &refs, 20);
        resolve(text, &mut found);
        found
            .iter()
            .map(|c| (c.subject.to_string(), c.assertion.to_string()))
            .collect()
    }

    fn pair(s: &str, a: &str) -> (String, String) {
        (s.to_string(), a.to_string())
    }

    #[test]
    fn a_pronoun_is_what_was_named_before() {
        assert_eq!(
            claims_in("Is nginx installed on the web host? No, it is not installed."),
            [pair("nginx", "not_installed")]
        );
        assert_eq!(
            claims_in("nginx is installed. It is not running."),
            [pair("nginx", "installed"), pair("nginx", "not_running")]
        );
        // Nothing named before: no claim.
        assert_eq!(claims_in("It is not installed."), []);
    }

    #[test]
    fn an_answered_question_is_a_claim() {
        assert_eq!(
            claims_in("Is nginx installed on the web host? No."),
            [pair("nginx", "not_installed")]
        );
        assert_eq!(
            claims_in("Are the workers running? Yes, all of them."),
            [pair("workers", "running")]
        );
        // An open question claims nothing.
        assert_eq!(claims_in("Is nginx installed on the web host?"), []);
    }
}
