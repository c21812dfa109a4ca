//! Intent conditions (seed 002 §4.7.9, NORMATIVE N8): a model is asked whether the action
//! matches a description ("destroys production data"). The policy layer knows nothing of
//! models: an evaluation reads the answers it was given, and collects the questions it could
//! not answer so the engine can ask them and evaluate again.

use crate::config::error::Issues;
use crate::config::reader::Obj;
use std::cell::RefCell;

/// Below this confidence a "matches" answer is no match (N8).
pub const DEFAULT_CONFIDENCE: f64 = 0.7;

#[derive(Debug, Clone, PartialEq)]
pub struct IntentCondition {
    pub description: String,
    /// The least confidence a "matches" answer needs.
    pub confidence: f64,
}

impl IntentCondition {
    pub fn parse(o: &Obj, issues: &mut Issues) -> Option<IntentCondition> {
        o.check_keys(&["type", "description", "confidence"], issues);
        let confidence = o.num("confidence", DEFAULT_CONFIDENCE, 0.0, 1.0, issues);
        let description = o.string("description", issues);
        match description.as_deref().map(str::trim) {
            Some("") => issues.push(
                &o.path_of("description"),
                "an intent condition needs a description of the action it asks about",
            ),
            None if o.get("description").is_none() => issues.push(
                &o.path_of("description"),
                "an intent condition needs `description`",
            ),
            _ => {}
        }
        Some(IntentCondition {
            description: description?.trim().to_string(),
            confidence,
        })
    }
}

/// What a model said about one intent, as conditions read it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Judged {
    pub matches: bool,
    pub confidence: f64,
}

impl Judged {
    /// A match the condition accepts: "matches" with at least its confidence.
    pub fn holds_for(&self, c: &IntentCondition) -> bool {
        self.matches && self.confidence >= c.confidence
    }
}

/// Answers that hold in every evaluation: none.
fn unknown(_: &IntentCondition) -> Option<Judged> {
    None
}

/// The answers one evaluation may read. A question without an answer counts as no match (the
/// regex-only verdict) and is remembered, so the engine can ask it and evaluate again.
pub struct Intents<'a> {
    known: &'a dyn Fn(&IntentCondition) -> Option<Judged>,
    unanswered: RefCell<Vec<IntentCondition>>,
}

impl<'a> Intents<'a> {
    pub fn new(known: &'a dyn Fn(&IntentCondition) -> Option<Judged>) -> Intents<'a> {
        Intents {
            known,
            unanswered: RefCell::default(),
        }
    }

    /// No answers: every intent condition is unanswered.
    pub fn none() -> Intents<'static> {
        Intents::new(&unknown)
    }

    pub fn holds(&self, c: &IntentCondition) -> bool {
        match (self.known)(c) {
            Some(j) => j.holds_for(c),
            None => {
                let mut asked = self.unanswered.borrow_mut();
                if !asked.iter().any(|a| a.description == c.description) {
                    asked.push(c.clone());
                }
                false
            }
        }
    }

    /// The questions the evaluation met without an answer, each description once.
    pub fn take_unanswered(&self) -> Vec<IntentCondition> {
        self.unanswered.take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cond(d: &str, confidence: f64) -> IntentCondition {
        IntentCondition {
            description: d.into(),
            confidence,
        }
    }

    #[test]
    fn an_answer_holds_only_with_enough_confidence() {
        let c = cond("destroys data", 0.7);
        let sure = Judged {
            matches: true,
            confidence: 0.9,
        };
        let unsure = Judged {
            matches: true,
            confidence: 0.69,
        };
        let no = Judged {
            matches: false,
            confidence: 0.99,
        };
        assert!(sure.holds_for(&c));
        assert!(!unsure.holds_for(&c));
        assert!(!no.holds_for(&c));
    }

    #[test]
    fn unanswered_questions_are_collected_once_and_count_as_no_match() {
        let i = Intents::none();
        assert!(!i.holds(&cond("a", 0.7)));
        assert!(!i.holds(&cond("a", 0.9)));
        assert!(!i.holds(&cond("b", 0.7)));
        let asked: Vec<_> = i
            .take_unanswered()
            .into_iter()
            .map(|c| c.description)
            .collect();
        assert_eq!(asked, ["a", "b"]);
        assert!(i.take_unanswered().is_empty());
    }

    #[test]
    fn given_answers_are_read_and_not_asked_again() {
        let known = |c: &IntentCondition| {
            (c.description == "a").then_some(Judged {
                matches: true,
                confidence: 0.8,
            })
        };
        let i = Intents::new(&known);
        assert!(i.holds(&cond("a", 0.7)));
        assert!(!i.holds(&cond("a", 0.9)));
        assert!(i.take_unanswered().is_empty());
    }
}
