//! PLACEHOLDER until the answer parser lands (h-answer): the same signatures, strict shape only.

#[derive(Debug, Clone, PartialEq)]
pub struct IntentAnswer {
    pub matches: bool,
    pub confidence: f64,
    pub reasoning: String,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Rejected {
    #[error("not one JSON object of the asked shape")]
    Shape,
    #[error("a copy of text inside the judged content")]
    Parroted,
}

pub fn intent(answer: &str, judged: &[&str]) -> Result<IntentAnswer, Rejected> {
    let t = answer.trim();
    if judged.iter().any(|j| j.contains(t)) {
        return Err(Rejected::Parroted);
    }
    let v: serde_json::Value = serde_json::from_str(t).map_err(|_| Rejected::Shape)?;
    let o = v.as_object().ok_or(Rejected::Shape)?;
    Ok(IntentAnswer {
        matches: o.get("matches").and_then(|v| v.as_bool()).ok_or(Rejected::Shape)?,
        confidence: o.get("confidence").and_then(|v| v.as_f64()).ok_or(Rejected::Shape)?,
        reasoning: o.get("reasoning").and_then(|v| v.as_str()).ok_or(Rejected::Shape)?.into(),
    })
}
