//! Output validations whose detail JS may still read. `validateOutputUtf8` hands JS the verdict
//! and a sequence number; the result stays here until JS reads its detail or drops it (a
//! `FinalizationRegistry` in `index.js` says so). A number crosses for a few nanoseconds, where
//! a native object with a finalizer and a getter for its verdict cost most of a microsecond.

use crate::output::{OutputResult, OutputVerdict};
use serde_json::json;
use std::collections::HashMap;
use std::sync::Mutex;

/// One output validation, or why it could not run.
pub(super) struct OutputReport {
    result: Result<OutputResult, Failure>,
    /// About how much native memory it holds (for V8's garbage-collection heuristics).
    pub bytes: i64,
}

/// A validation that could not run: why, and what `failMode` makes of it.
pub(super) struct Failure {
    pub error: String,
    pub verdict: OutputVerdict,
}

impl OutputReport {
    pub fn new(result: Result<OutputResult, Failure>) -> OutputReport {
        let bytes = result.as_ref().map_or(0, |r| r.native_bytes()) as i64;
        OutputReport { result, bytes }
    }

    pub fn verdict(&self) -> OutputVerdict {
        match &self.result {
            Ok(r) => r.verdict,
            Err(f) => f.verdict,
        }
    }

    /// The whole result as JSON; a failed validation has its `error` and the verdict `failMode`
    /// gives it.
    pub fn detail_json(&self) -> String {
        let failed = |error: &str| {
            json!({ "verdict": self.verdict().as_str(), "error": error, "claims": [], "violations": [] })
                .to_string()
        };
        match &self.result {
            Ok(r) => serde_json::to_string(r).unwrap_or_else(|e| failed(&e.to_string())),
            Err(f) => failed(&f.error),
        }
    }
}

/// The reports JS holds, by sequence number.
#[derive(Default)]
pub(super) struct Reports(Mutex<(u64, HashMap<u64, OutputReport>)>);

impl Reports {
    /// Keeps `report`; its sequence number and verdict as one number for JS:
    /// `sequence × 4 + verdict` (pass 0, flag 1, block 2).
    pub fn hold(&self, report: OutputReport) -> f64 {
        let code = match report.verdict() {
            OutputVerdict::Pass => 0,
            OutputVerdict::Flag => 1,
            OutputVerdict::Block => 2,
        };
        let mut held = self.lock();
        let seq = held.0;
        held.0 += 1;
        held.1.insert(seq, report);
        (seq * 4 + code) as f64
    }

    /// The report with sequence number `seq`, no longer held.
    pub fn take(&self, seq: f64) -> Option<OutputReport> {
        self.lock().1.remove(&(seq as u64))
    }

    pub fn len(&self) -> usize {
        self.lock().1.len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, (u64, HashMap<u64, OutputReport>)> {
        // Nothing here can be left half-done by a panic: a poisoned lock is still consistent.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::{Failure, OutputReport, Reports};
    use crate::output::OutputVerdict;

    fn failed(verdict: OutputVerdict) -> OutputReport {
        OutputReport::new(Err(Failure {
            error: "x".into(),
            verdict,
        }))
    }

    #[test]
    fn a_held_report_is_found_once_by_its_number() {
        let reports = Reports::default();
        let a = reports.hold(failed(OutputVerdict::Block));
        let b = reports.hold(failed(OutputVerdict::Pass));
        assert_eq!((a % 4.0, b % 4.0), (2.0, 0.0));
        let seq = |code: f64| (code / 4.0).floor();
        assert_ne!(seq(a), seq(b));
        let taken = reports.take(seq(a)).map(|r| r.verdict());
        assert_eq!(taken, Some(OutputVerdict::Block));
        assert!(reports.take(seq(a)).is_none());
        assert!(reports.take(seq(b)).is_some());
    }
}
