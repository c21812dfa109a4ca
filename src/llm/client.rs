//! The client every model question goes through: at most `maxConcurrent` calls in flight, one
//! timeout over the wait for a place and the answer, and counts for status. Which backend
//! answers is the config's choice; the host's model arrives from the binding after start.

use super::{Backend, Completion, LlmError};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// The host's model, handed over by the binding once the plugin API is known. Outlives config
/// reloads, which rebuild the client.
#[derive(Default)]
pub struct HostSlot(Mutex<Option<Arc<dyn Backend>>>);

impl HostSlot {
    pub fn set(&self, backend: Arc<dyn Backend>) {
        if let Ok(mut slot) = self.0.lock() {
            *slot = Some(backend);
        }
    }

    fn get(&self) -> Option<Arc<dyn Backend>> {
        self.0.lock().ok().and_then(|s| s.clone())
    }
}

/// Where answers come from.
pub enum Source {
    /// The host's own model (`api.runtime.llm.complete`), once the binding has set it.
    Host(Arc<HostSlot>),
    /// A backend of the config's own (the OpenAI-compatible endpoint).
    Own(Arc<dyn Backend>),
}

impl Source {
    pub fn name(&self) -> &'static str {
        match self {
            Source::Host(_) => "host",
            Source::Own(b) => b.name(),
        }
    }

    fn backend(&self) -> Result<Arc<dyn Backend>, LlmError> {
        match self {
            Source::Own(b) => Ok(b.clone()),
            Source::Host(slot) => slot.get().ok_or_else(|| {
                LlmError::Backend(
                    "the host's model is not available to the plugin (no api.runtime.llm)".into(),
                )
            }),
        }
    }
}

/// One call as records and status report it.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    pub backend: &'static str,
    pub model: Option<String>,
    pub latency_ms: f64,
    pub result: Result<String, LlmError>,
}

/// How many latencies status keeps for its median.
const LATENCIES: usize = 256;

#[derive(Default)]
struct Stats {
    calls: AtomicU64,
    cache_hits: AtomicU64,
    failures: AtomicU64,
    latencies: Mutex<VecDeque<f64>>,
}

/// What status shows of the client.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClientStatus {
    pub backend: &'static str,
    pub model: Option<String>,
    pub calls: u64,
    pub cache_hits: u64,
    pub failures: u64,
    pub p50_latency_ms: Option<f64>,
    pub max_concurrent: usize,
}

pub struct Client {
    source: Source,
    timeout: Duration,
    max_concurrent: usize,
    permits: Arc<Semaphore>,
    stats: Stats,
}

impl Client {
    pub fn new(source: Source, timeout_ms: u64, max_concurrent: usize) -> Client {
        let max_concurrent = max_concurrent.max(1);
        Client {
            source,
            timeout: Duration::from_millis(timeout_ms),
            max_concurrent,
            permits: Arc::new(Semaphore::new(max_concurrent)),
            stats: Stats::default(),
        }
    }

    /// One completion: a place among `maxConcurrent` and the answer, both within the timeout.
    /// Never fails the caller: a failure is the call's result.
    pub async fn complete(&self, c: Completion) -> Call {
        self.complete_within(c, self.timeout.as_millis() as u64)
            .await
    }

    /// As [`Self::complete`], with a timeout of the caller's (the external gate has its own).
    pub async fn complete_within(&self, c: Completion, timeout_ms: u64) -> Call {
        let timeout = Duration::from_millis(timeout_ms);
        let started = Instant::now();
        let (backend, model) = match self.source.backend() {
            Ok(b) => {
                let model = c.model.clone().or_else(|| b.model());
                (Some(b), model)
            }
            Err(e) => return self.finish(started, None, Err(e)),
        };
        let permits = self.permits.clone();
        let asked = async move {
            let _place = permits
                .acquire_owned()
                .await
                .map_err(|_| LlmError::Backend("the client is closed".into()))?;
            match backend {
                Some(b) => b.complete(c).await,
                None => Err(LlmError::Backend("no backend".into())),
            }
        };
        let (result, model) = match tokio::time::timeout(timeout, asked).await {
            // The model the answer names, else the one asked for.
            Ok(Ok(reply)) => (Ok(reply.text), reply.model.or(model)),
            Ok(Err(e)) => (Err(e), model),
            Err(_) => (Err(LlmError::Timeout(timeout_ms)), model),
        };
        self.finish(started, model, result)
    }

    fn finish(
        &self,
        started: Instant,
        model: Option<String>,
        result: Result<String, LlmError>,
    ) -> Call {
        let latency_ms = started.elapsed().as_secs_f64() * 1000.0;
        self.stats.calls.fetch_add(1, Ordering::Relaxed);
        if result.is_err() {
            self.stats.failures.fetch_add(1, Ordering::Relaxed);
        }
        if let Ok(mut l) = self.stats.latencies.lock() {
            if l.len() == LATENCIES {
                l.pop_front();
            }
            l.push_back(latency_ms);
        }
        Call {
            backend: self.source.name(),
            model,
            latency_ms,
            result,
        }
    }

    /// An answer the engine's cache gave: counted, no call made.
    pub fn count_cache_hit(&self) {
        self.stats.cache_hits.fetch_add(1, Ordering::Relaxed);
    }

    /// An accepted-looking answer the parser refused counts as a failure too.
    pub fn count_rejected(&self) {
        self.stats.failures.fetch_add(1, Ordering::Relaxed);
    }

    pub fn status(&self) -> ClientStatus {
        let model = match &self.source {
            Source::Own(b) => b.model(),
            Source::Host(slot) => slot.get().and_then(|b| b.model()),
        };
        ClientStatus {
            backend: self.source.name(),
            model,
            calls: self.stats.calls.load(Ordering::Relaxed),
            cache_hits: self.stats.cache_hits.load(Ordering::Relaxed),
            failures: self.stats.failures.load(Ordering::Relaxed),
            p50_latency_ms: self.stats.latencies.lock().ok().and_then(|l| median(&l)),
            max_concurrent: self.max_concurrent,
        }
    }
}

fn median(xs: &VecDeque<f64>) -> Option<f64> {
    let mut v: Vec<f64> = xs.iter().copied().collect();
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::{CompletionFuture, Reply};
    use std::sync::atomic::AtomicUsize;

    /// Answers after `delay_ms`, counting how many calls are in flight at once.
    struct Slow {
        delay_ms: u64,
        in_flight: Arc<AtomicUsize>,
        most: Arc<AtomicUsize>,
    }

    impl Backend for Slow {
        fn name(&self) -> &'static str {
            "fake"
        }
        fn model(&self) -> Option<String> {
            Some("slow-1".into())
        }
        fn complete(&self, c: Completion) -> CompletionFuture {
            let (delay, now, most) = (self.delay_ms, self.in_flight.clone(), self.most.clone());
            Box::pin(async move {
                let n = now.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(n, Ordering::SeqCst);
                tokio::time::sleep(Duration::from_millis(delay)).await;
                now.fetch_sub(1, Ordering::SeqCst);
                Ok(format!("answer to {}", c.user).into())
            })
        }
    }

    fn slow(delay_ms: u64) -> (Arc<Slow>, Arc<AtomicUsize>) {
        let most = Arc::new(AtomicUsize::new(0));
        let b = Slow {
            delay_ms,
            in_flight: Arc::default(),
            most: most.clone(),
        };
        (Arc::new(b), most)
    }

    fn completion(user: &str) -> Completion {
        Completion {
            system: "s".into(),
            user: user.into(),
            max_tokens: 10,
            model: None,
            purpose: "test",
        }
    }

    #[tokio::test]
    async fn at_most_max_concurrent_calls_are_in_flight() {
        let (b, most) = slow(30);
        let client = Arc::new(Client::new(Source::Own(b), 5_000, 2));
        let mut set = tokio::task::JoinSet::new();
        for i in 0..6 {
            let c = client.clone();
            set.spawn(async move { c.complete(completion(&i.to_string())).await });
        }
        let mut answers = Vec::new();
        while let Some(r) = set.join_next().await {
            answers.push(r.expect("task").result.expect("answer"));
        }
        assert_eq!(answers.len(), 6);
        assert_eq!(most.load(Ordering::SeqCst), 2);
        assert_eq!(client.status().calls, 6);
    }

    #[tokio::test]
    async fn a_slow_answer_is_a_timeout_and_counted_as_a_failure() {
        let (b, _) = slow(500);
        let client = Client::new(Source::Own(b), 50, 1);
        let call = client.complete(completion("x")).await;
        assert_eq!(call.result, Err(LlmError::Timeout(50)));
        assert!(call.latency_ms < 400.0, "{}", call.latency_ms);
        let s = client.status();
        assert_eq!((s.calls, s.failures), (1, 1));
    }

    #[tokio::test]
    async fn waiting_for_a_place_counts_toward_the_timeout() {
        let (b, _) = slow(300);
        let client = Arc::new(Client::new(Source::Own(b), 100, 1));
        let first = {
            let c = client.clone();
            tokio::spawn(async move { c.complete(completion("a")).await })
        };
        tokio::time::sleep(Duration::from_millis(10)).await;
        let second = client.complete(completion("b")).await;
        assert_eq!(second.result, Err(LlmError::Timeout(100)));
        let _ = first.await;
    }

    #[tokio::test]
    async fn the_host_model_answers_once_the_binding_has_set_it() {
        let slot = Arc::new(HostSlot::default());
        let client = Client::new(Source::Host(slot.clone()), 1_000, 1);
        let before = client.complete(completion("x")).await;
        assert!(
            matches!(before.result, Err(LlmError::Backend(ref m)) if m.contains("not available"))
        );
        let (b, _) = slow(1);
        slot.set(b);
        let after = client.complete(completion("x")).await;
        assert_eq!(after.result, Ok("answer to x".into()));
        assert_eq!(
            (after.backend, after.model.as_deref()),
            ("host", Some("slow-1"))
        );
    }

    /// Names the model in its answer only (as the host's `llm.complete` does).
    struct Naming;

    impl Backend for Naming {
        fn name(&self) -> &'static str {
            "host"
        }
        fn model(&self) -> Option<String> {
            None
        }
        fn complete(&self, _: Completion) -> CompletionFuture {
            Box::pin(async {
                Ok(Reply {
                    text: "{}".into(),
                    model: Some("chosen-by-host".into()),
                })
            })
        }
    }

    #[tokio::test]
    async fn a_model_named_in_the_answer_is_the_one_recorded() {
        let client = Client::new(Source::Own(Arc::new(Naming)), 1_000, 1);
        let call = client.complete(completion("x")).await;
        assert_eq!(call.model.as_deref(), Some("chosen-by-host"));
        // Asked for another, the answer's own name still wins: it says who answered.
        let mut asked = completion("y");
        asked.model = Some("asked-for".into());
        let call = client.complete(asked).await;
        assert_eq!(call.model.as_deref(), Some("chosen-by-host"));
        // A backend that names none: the one asked for.
        let (b, _) = slow(1);
        let client = Client::new(Source::Own(b), 1_000, 1);
        let mut asked = completion("z");
        asked.model = Some("asked-for".into());
        assert_eq!(
            client.complete(asked).await.model.as_deref(),
            Some("asked-for")
        );
    }
}
