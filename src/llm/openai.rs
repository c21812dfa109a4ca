//! The OpenAI-compatible backend (issue 14): `POST {llm.endpoint}/chat/completions` for
//! deployments that want a separate small model (Ollama, vLLM, llama.cpp, OpenAI itself).
//!
//! Every failure is an `LlmError::Backend` whose message is short and single-line and never
//! carries the API key, not even when the server echoes it back: error texts end up in audit
//! records, status and logs, which the key must never reach.

use std::sync::{Arc, Once};
use std::time::Duration;

use reqwest::header::{HeaderValue, AUTHORIZATION, CONTENT_TYPE};
use reqwest::{Client, Url};
use serde_json::{json, Value};

use super::{Backend, Completion, CompletionFuture, LlmError, Reply};

/// A dead host should fail fast; the client's own timeout bounds the whole call anyway.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// The longest body read: an answer is a small JSON object, and a runaway server must not make
/// us buffer without end before the client's timeout fires.
const MAX_BODY: usize = 1 << 20;
/// The longest error message: the status line plus ~200 characters of what the server said,
/// enough to tell a wrong model from a wrong key, short enough for a status line.
const MAX_ERROR: usize = 240;
/// A run of this many characters of the key found in a server's text is masked: servers echo
/// keys whole, quoted, or as a prefix and suffix around stars (OpenAI does the latter).
const KEY_FRAGMENT: usize = 8;

pub struct OpenAiBackend {
    client: Client,
    url: Url,
    model: String,
    /// `Bearer <key>`, marked sensitive; `None` when no key is configured (local servers).
    auth: Option<HeaderValue>,
    /// Only for scrubbing error texts.
    key: Arc<str>,
}

impl OpenAiBackend {
    pub fn new(endpoint: &str, model: &str, api_key: &str) -> Result<Self, LlmError> {
        let url = completions_url(endpoint)?;
        if model.trim().is_empty() {
            return Err(config_error(
                "llm.model must name the model the endpoint serves",
            ));
        }
        let auth = bearer(api_key)?;
        install_crypto_provider();
        let client = Client::builder()
            .connect_timeout(CONNECT_TIMEOUT)
            // An API endpoint has no reason to redirect; following one would send the question
            // (and, to the same host, the key) somewhere the operator did not configure.
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("openclaw-governance/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| config_error(&format!("HTTP client: {}", innermost(&e))))?;
        Ok(Self {
            client,
            url,
            model: model.to_owned(),
            auth,
            key: Arc::from(api_key),
        })
    }
}

impl Backend for OpenAiBackend {
    fn name(&self) -> &'static str {
        "openai"
    }

    fn model(&self) -> Option<String> {
        Some(self.model.clone())
    }

    fn complete(&self, c: Completion) -> CompletionFuture {
        let model = c.model.clone().unwrap_or_else(|| self.model.clone());
        let body = request_body(&model, &c);
        let mut request = self
            .client
            .post(self.url.clone())
            .header(CONTENT_TYPE, "application/json")
            .body(body);
        if let Some(auth) = &self.auth {
            request = request.header(AUTHORIZATION, auth.clone());
        }
        let key = Arc::clone(&self.key);
        Box::pin(async move {
            let outcome = send(request).await;
            // The model asked is the one recorded (`model()`); the answer's own name is not read.
            (outcome.map(Reply::from)).map_err(|message| LlmError::Backend(scrub(&message, &key)))
        })
    }
}

/// `{endpoint}/chat/completions`, from an http(s) base such as `http://localhost:11434/v1/`.
fn completions_url(endpoint: &str) -> Result<Url, LlmError> {
    // The endpoint itself never goes into a message: it may carry a token in its path.
    let invalid = || config_error("llm.endpoint must be an http:// or https:// URL");
    let url = Url::parse(endpoint.trim()).map_err(|_| invalid())?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() {
        return Err(invalid());
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(config_error(
            "llm.endpoint must not carry credentials; put the key in llm.apiKey",
        ));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(config_error(
            "llm.endpoint must be a base URL without ?query or #fragment",
        ));
    }
    let base = url.as_str().trim_end_matches('/');
    Url::parse(&format!("{base}/chat/completions")).map_err(|_| invalid())
}

fn bearer(api_key: &str) -> Result<Option<HeaderValue>, LlmError> {
    if api_key.is_empty() {
        return Ok(None);
    }
    // Keys are printable ASCII tokens; anything else is a paste error, and restricting to ASCII
    // keeps the scrubbing below byte-exact.
    if !api_key.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(config_error(
            "llm.apiKey must be printable ASCII without spaces",
        ));
    }
    let mut value = HeaderValue::from_str(&format!("Bearer {api_key}"))
        .map_err(|_| config_error("llm.apiKey is not a valid header value"))?;
    // Keeps the key out of reqwest's and hyper's Debug output.
    value.set_sensitive(true);
    Ok(Some(value))
}

fn config_error(message: &str) -> LlmError {
    LlmError::Backend(message.to_owned())
}

/// `rustls-no-provider` leaves the choice to us and reqwest panics when building a client
/// without one. An `Err` from `install_default` means a provider is already installed, which
/// serves as well.
fn install_crypto_provider() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

fn request_body(model: &str, c: &Completion) -> Vec<u8> {
    // Temperature 0: a judgment should not change between two asks of the same question.
    json!({
        "model": model,
        "messages": [
            {"role": "system", "content": c.system},
            {"role": "user", "content": c.user},
        ],
        "max_tokens": c.max_tokens,
        "temperature": 0,
    })
    .to_string()
    .into_bytes()
}

/// The exchange; an `Err` is an unscrubbed message the caller scrubs.
async fn send(request: reqwest::RequestBuilder) -> Result<String, String> {
    let mut response = request
        .send()
        .await
        .map_err(|e| format!("llm.endpoint unreachable: {}", innermost(&e)))?;
    let status = response.status();
    let body = read_capped(&mut response).await.map_err(|e| {
        format!(
            "llm.endpoint HTTP {}: body unreadable: {}",
            status.as_u16(),
            innermost(&e)
        )
    })?;
    if !status.is_success() {
        let said = server_message(&body);
        return Err(match said.is_empty() {
            true => format!("llm.endpoint HTTP {}", status.as_u16()),
            false => format!("llm.endpoint HTTP {}: {said}", status.as_u16()),
        });
    }
    answer_text(&body)
}

async fn read_capped(response: &mut reqwest::Response) -> Result<Vec<u8>, reqwest::Error> {
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await? {
        let room = MAX_BODY - body.len();
        body.extend_from_slice(&chunk[..chunk.len().min(room)]);
        if body.len() == MAX_BODY {
            break;
        }
    }
    Ok(body)
}

/// `choices[0].message.content`, the only field an answer needs.
fn answer_text(body: &[u8]) -> Result<String, String> {
    let value: Value = serde_json::from_slice(body)
        .map_err(|_| "llm.endpoint answered with a body that is not JSON".to_owned())?;
    value
        .pointer("/choices/0/message/content")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| "llm.endpoint answer has no choices[0].message.content string".to_owned())
}

/// What the server said went wrong: OpenAI's `{"error":{"message"}}`, Ollama's `{"error":"…"}`,
/// a bare `{"message"}`, or else the body as text. Trimmed to one line; the key is scrubbed
/// later, from the whole error message.
fn server_message(body: &[u8]) -> String {
    let text = match serde_json::from_slice::<Value>(body) {
        Ok(v) => ["/error/message", "/error", "/message", "/detail"]
            .iter()
            .find_map(|p| v.pointer(p).and_then(Value::as_str).map(str::to_owned))
            .unwrap_or_else(|| v.to_string()),
        Err(_) => String::from_utf8_lossy(body).into_owned(),
    };
    // Control characters would let a server forge lines in a log.
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_owned()
}

/// The deepest cause of a transport error ("Connection refused (os error 111)"), without the
/// URL reqwest's own message carries.
fn innermost(error: &(dyn std::error::Error + 'static)) -> String {
    let mut cause = error;
    while let Some(next) = cause.source() {
        cause = next;
    }
    cause.to_string()
}

/// Masks the key and every piece of it a server may echo (see `key_matches`), then cuts the
/// message to a status line. Masking first: a cut could otherwise leave a part
/// of the key that no longer matches as a whole.
fn scrub(message: &str, key: &str) -> String {
    let masked = mask_key(message, key);
    truncate(&masked, MAX_ERROR)
}

fn mask_key(message: &str, key: &str) -> String {
    if key.is_empty() {
        return message.to_owned();
    }
    let bytes = message.as_bytes();
    let mut hidden = vec![false; bytes.len()];
    for (at, len) in key_matches(bytes, key.as_bytes()) {
        hidden[at..at + len].iter_mut().for_each(|h| *h = true);
    }
    // The key is ASCII, so a hidden run starts and ends on character boundaries.
    let mut out = String::with_capacity(message.len());
    let mut i = 0;
    while i < bytes.len() {
        let run = hidden[i..].iter().take_while(|&&h| h == hidden[i]).count();
        match hidden[i] {
            true => out.push_str("[redacted]"),
            false => out.push_str(&message[i..i + run]),
        }
        i += run;
    }
    out
}

/// Where the key shows in `text`, as (start, length): every `KEY_FRAGMENT`-long piece of a long
/// key; a key shorter than that only where it stands as a token of its own, since a placeholder
/// such as `k` or `ollama` also occurs inside ordinary words.
fn key_matches(text: &[u8], key: &[u8]) -> Vec<(usize, usize)> {
    if key.len() >= KEY_FRAGMENT {
        return key
            .windows(KEY_FRAGMENT)
            .flat_map(|piece| memchr::memmem::find_iter(text, piece))
            .map(|at| (at, KEY_FRAGMENT))
            .collect();
    }
    let word = |i: Option<&u8>| i.is_some_and(|b| b.is_ascii_alphanumeric());
    memchr::memmem::find_iter(text, key)
        .filter(|&at| {
            let before = at.checked_sub(1).and_then(|i| text.get(i));
            !word(before) && !word(text.get(at + key.len()))
        })
        .map(|at| (at, key.len()))
        .collect()
}

fn truncate(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpListener;
    use tokio::sync::oneshot;

    const KEY: &str = "sk-test-4f9a2c7e1b3d5f6a8c0e2b4d";

    /// One request as the fake server read it.
    struct Seen {
        head: String,
        body: Value,
    }

    impl Seen {
        fn header(&self, name: &str) -> Option<String> {
            self.head.lines().find_map(|line| {
                let (n, v) = line.split_once(':')?;
                n.eq_ignore_ascii_case(name).then(|| v.trim().to_owned())
            })
        }
    }

    /// A fake OpenAI-compatible server that answers one request with `status` and the body
    /// `respond` builds from the request it saw (so it can echo the Authorization header).
    async fn fake_server(
        status: u16,
        respond: impl FnOnce(&Seen) -> String + Send + 'static,
    ) -> (String, oneshot::Receiver<Seen>) {
        fake_server_with(status, String::new(), respond).await
    }

    /// `fake_server` with extra response header lines (each ending in `\r\n`).
    async fn fake_server_with(
        status: u16,
        headers: String,
        respond: impl FnOnce(&Seen) -> String + Send + 'static,
    ) -> (String, oneshot::Receiver<Seen>) {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind loopback");
        let addr = listener.local_addr().expect("local addr");
        let (tx, rx) = oneshot::channel();
        tokio::spawn(async move {
            let (mut socket, _) = listener.accept().await.expect("accept");
            let seen = read_request(&mut socket).await;
            let body = respond(&seen);
            let response = format!(
                "HTTP/1.1 {status} X\r\n{headers}content-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            socket.write_all(response.as_bytes()).await.expect("write");
            socket.shutdown().await.ok();
            let _ = tx.send(seen);
        });
        (format!("http://{addr}/v1"), rx)
    }

    async fn read_request(socket: &mut tokio::net::TcpStream) -> Seen {
        let mut buf = Vec::new();
        let mut chunk = [0u8; 4096];
        let head_end = loop {
            let n = socket.read(&mut chunk).await.expect("read");
            assert!(n > 0, "client closed before the request ended");
            buf.extend_from_slice(&chunk[..n]);
            if let Some(at) = memchr::memmem::find(&buf, b"\r\n\r\n") {
                break at + 4;
            }
        };
        let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
        let seen = Seen {
            head,
            body: Value::Null,
        };
        let length: usize = seen
            .header("content-length")
            .and_then(|v| v.parse().ok())
            .expect("content-length");
        while buf.len() < head_end + length {
            let n = socket.read(&mut chunk).await.expect("read body");
            assert!(n > 0, "client closed mid-body");
            buf.extend_from_slice(&chunk[..n]);
        }
        let body = serde_json::from_slice(&buf[head_end..head_end + length]).expect("JSON body");
        Seen { body, ..seen }
    }

    fn completion(model: Option<&str>) -> Completion {
        Completion {
            system: "judge the action".into(),
            user: "<data>rm -rf /srv/prod</data>".into(),
            max_tokens: 123,
            model: model.map(str::to_owned),
            purpose: "intent",
        }
    }

    fn answer(content: &str) -> String {
        json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]})
            .to_string()
    }

    fn backend_error(result: Result<Reply, LlmError>) -> String {
        match result {
            Err(LlmError::Backend(message)) => message,
            other => panic!("expected a backend error, got {other:?}"),
        }
    }

    #[tokio::test]
    async fn success_returns_the_content_and_sends_the_asked_request() {
        let (endpoint, seen) = fake_server(200, |_| answer(r#"{"matches": true}"#)).await;
        let backend =
            OpenAiBackend::new(&format!("{endpoint}/"), "small-judge", KEY).expect("backend");
        let reply = backend.complete(completion(None)).await.expect("answer");
        assert_eq!(reply.text, r#"{"matches": true}"#);

        let seen = seen.await.expect("request seen");
        assert!(
            seen.head
                .starts_with("POST /v1/chat/completions HTTP/1.1\r\n"),
            "{}",
            seen.head
        );
        assert_eq!(seen.header("authorization"), Some(format!("Bearer {KEY}")));
        assert_eq!(
            seen.header("content-type").as_deref(),
            Some("application/json")
        );
        let b = &seen.body;
        assert_eq!(b["model"], "small-judge");
        assert_eq!(b["max_tokens"], 123);
        assert_eq!(b["temperature"].as_f64(), Some(0.0));
        assert_eq!(b["messages"][0]["role"], "system");
        assert_eq!(b["messages"][0]["content"], "judge the action");
        assert_eq!(b["messages"][1]["role"], "user");
        assert_eq!(b["messages"][1]["content"], "<data>rm -rf /srv/prod</data>");
        assert_eq!(b["messages"].as_array().map(Vec::len), Some(2));
    }

    #[tokio::test]
    async fn a_completion_model_overrides_the_configured_one() {
        let (endpoint, seen) = fake_server(200, |_| answer("ok")).await;
        let backend = OpenAiBackend::new(&endpoint, "small-judge", "").expect("backend");
        backend
            .complete(completion(Some("bigger")))
            .await
            .expect("answer");
        assert_eq!(seen.await.expect("seen").body["model"], "bigger");
        assert_eq!(backend.model().as_deref(), Some("small-judge"));
        assert_eq!(backend.name(), "openai");
    }

    #[tokio::test]
    async fn no_authorization_header_without_a_key() {
        let (endpoint, seen) = fake_server(200, |_| answer("ok")).await;
        let backend = OpenAiBackend::new(&endpoint, "m", "").expect("backend");
        backend.complete(completion(None)).await.expect("answer");
        assert_eq!(seen.await.expect("seen").header("authorization"), None);
    }

    #[tokio::test]
    async fn a_server_error_gives_its_status_and_message() {
        let body =
            json!({"error": {"message": "model 'm' not found", "type": "invalid_request_error"}});
        let (endpoint, _seen) = fake_server(500, move |_| body.to_string()).await;
        let backend = OpenAiBackend::new(&endpoint, "m", KEY).expect("backend");
        let message = backend_error(backend.complete(completion(None)).await);
        assert!(message.contains("500"), "{message}");
        assert!(message.contains("model 'm' not found"), "{message}");
    }

    #[tokio::test]
    async fn a_long_server_message_is_cut() {
        let (endpoint, _seen) =
            fake_server(400, |_| json!({"error": "x".repeat(5000)}).to_string()).await;
        let backend = OpenAiBackend::new(&endpoint, "m", "").expect("backend");
        let message = backend_error(backend.complete(completion(None)).await);
        assert!(message.contains("400"), "{message}");
        assert!(
            message.chars().count() <= MAX_ERROR + 1,
            "{}",
            message.len()
        );
    }

    #[tokio::test]
    async fn a_body_that_is_not_json_is_an_error() {
        let (endpoint, _seen) = fake_server(200, |_| "<html>gateway</html>".to_owned()).await;
        let backend = OpenAiBackend::new(&endpoint, "m", "").expect("backend");
        let message = backend_error(backend.complete(completion(None)).await);
        assert!(message.contains("not JSON"), "{message}");
    }

    #[tokio::test]
    async fn an_answer_without_string_content_is_an_error() {
        for body in [
            json!({"choices": []}),
            json!({"choices": [{"message": {"role": "assistant", "content": null}}]}),
            json!({"choices": [{"message": {"content": {"matches": true}}}]}),
        ] {
            let (endpoint, _seen) = fake_server(200, move |_| body.to_string()).await;
            let backend = OpenAiBackend::new(&endpoint, "m", "").expect("backend");
            let message = backend_error(backend.complete(completion(None)).await);
            assert!(message.contains("choices[0].message.content"), "{message}");
        }
    }

    #[tokio::test]
    async fn a_refused_connection_is_an_error() {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        drop(listener);
        let backend = OpenAiBackend::new(&format!("http://{addr}/v1"), "m", KEY).expect("backend");
        let message = backend_error(backend.complete(completion(None)).await);
        assert!(message.contains("unreachable"), "{message}");
        assert!(!message.contains(KEY), "{message}");
    }

    #[tokio::test]
    async fn a_redirect_is_not_followed() {
        let (elsewhere, mut contacted) = fake_server(200, |_| answer("from elsewhere")).await;
        let location = format!("location: {elsewhere}/chat/completions\r\n");
        let (endpoint, _seen) = fake_server_with(307, location, |_| String::new()).await;
        let backend = OpenAiBackend::new(&endpoint, "m", KEY).expect("backend");
        let message = backend_error(backend.complete(completion(None)).await);
        assert!(message.contains("307"), "{message}");
        assert!(contacted.try_recv().is_err(), "the redirect was followed");
    }

    /// A server that puts the Authorization header it received into its error, in the shapes
    /// servers use: the header whole, the key JSON-quoted, and a prefix…suffix with stars.
    #[tokio::test]
    async fn the_key_never_appears_in_an_error_even_when_echoed() {
        type Echo = fn(&str) -> String;
        let echoes: [(u16, Echo); 4] = [
            (401, |auth| {
                json!({"error": {"message": format!("bad credentials: {auth}")}}).to_string()
            }),
            (403, |auth| format!("denied for header {auth} (plain text)")),
            (401, |auth| {
                json!({"error": {"code": 1, "detail": {"got": auth}}}).to_string()
            }),
            (401, |auth| {
                let key = auth.trim_start_matches("Bearer ");
                let (head, tail) = (&key[..12], &key[key.len() - 4..]);
                json!({"error": {"message": format!("Incorrect API key provided: {head}****{tail}")}}).to_string()
            }),
        ];
        for (status, echo) in echoes {
            let (endpoint, _seen) = fake_server(status, move |seen| {
                echo(&seen.header("authorization").unwrap_or_default())
            })
            .await;
            let backend = OpenAiBackend::new(&endpoint, "m", KEY).expect("backend");
            let message = backend_error(backend.complete(completion(None)).await);
            assert!(message.contains(&status.to_string()), "{message}");
            assert!(
                message.contains("[redacted]"),
                "the echo was not found: {message}"
            );
            for piece in KEY.as_bytes().windows(KEY_FRAGMENT) {
                let piece = std::str::from_utf8(piece).expect("ascii");
                assert!(
                    !message.contains(piece),
                    "{piece:?} of the key in {message}"
                );
            }
        }
    }

    #[test]
    fn masking_before_cutting_leaves_no_part_of_the_key() {
        // The cut falls 7 characters into the key: too short a piece to be recognised after it.
        let message = format!("{}{KEY}", "y".repeat(MAX_ERROR - 7));
        let scrubbed = scrub(&message, KEY);
        assert!(!scrubbed.contains(&KEY[..7]), "{scrubbed}");
    }

    /// Placeholder keys for local servers ("ollama", "x") are short enough to occur inside
    /// ordinary words; only the key standing as a token of its own is masked then.
    #[test]
    fn a_short_key_is_masked_only_as_a_whole_token() {
        let message = "invalid peer certificate: UnknownIssuer; got Bearer k, key=\"k\"";
        assert_eq!(
            mask_key(message, "k"),
            "invalid peer certificate: UnknownIssuer; got Bearer [redacted], key=\"[redacted]\""
        );
        assert_eq!(
            mask_key("ollama says: ollamas", "ollama"),
            "[redacted] says: ollamas"
        );
    }

    #[test]
    fn endpoints_are_validated_without_echoing_them() {
        for bad in [
            "localhost:11434/v1",
            "ftp://host/v1",
            "file:///etc/passwd",
            "not a url",
            "",
            "http://user:secret-token@host/v1",
            "http://host/v1?key=secret-token",
        ] {
            let message = match OpenAiBackend::new(bad, "m", "") {
                Err(LlmError::Backend(message)) => message,
                Err(other) => panic!("{bad}: {other:?}"),
                Ok(_) => panic!("{bad} accepted"),
            };
            assert!(message.contains("llm.endpoint"), "{bad}: {message}");
            assert!(!message.contains("secret-token"), "{bad}: {message}");
        }
    }

    /// The binding builds backends from config on the JS thread, where no tokio runtime runs.
    #[test]
    fn a_backend_is_built_outside_a_runtime() {
        assert!(tokio::runtime::Handle::try_current().is_err());
        let backend = OpenAiBackend::new("https://api.example.com/v1", "m", KEY);
        assert!(backend.is_ok(), "{:?}", backend.err());
    }

    #[test]
    fn the_completions_path_is_appended_once() {
        for (endpoint, want) in [
            (
                "http://localhost:11434/v1",
                "http://localhost:11434/v1/chat/completions",
            ),
            (
                "http://localhost:11434/v1/",
                "http://localhost:11434/v1/chat/completions",
            ),
            (
                "https://api.example.com",
                "https://api.example.com/chat/completions",
            ),
        ] {
            assert_eq!(completions_url(endpoint).expect(endpoint).as_str(), want);
        }
    }

    #[test]
    fn keys_that_cannot_be_a_header_are_refused_without_echoing_them() {
        for bad in ["sk-abc\ndef", "sk abc", "sk-é"] {
            let message = match OpenAiBackend::new("http://localhost/v1", "m", bad) {
                Err(LlmError::Backend(message)) => message,
                other => panic!("{bad:?}: {:?}", other.err()),
            };
            assert!(message.contains("llm.apiKey"), "{message}");
            assert!(!message.contains("abc"), "{message}");
        }
    }
}
