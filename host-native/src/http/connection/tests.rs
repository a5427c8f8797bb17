//! The connection loop against raw sockets: keep-alive across both kinds of request,
//! pipelining, closing rules, clients that leave, shutdown and slow heads.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::Uri;
use axum::routing::{get, post};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, oneshot};

use super::head::MAX_HEAD_BYTES;
use crate::http::serve::{Timeouts, serve};

/// Long enough never to fire in a test that does not mean it to.
const PATIENT: Duration = Duration::from_secs(30);

/// Counters the test routes keep, as semaphores so a test can wait for them.
#[derive(Clone)]
struct Signals {
    /// A poll handler has started waiting.
    started: Arc<Semaphore>,
    /// Lets one waiting poll answer.
    release: Arc<Semaphore>,
    /// A poll handler was dropped before it answered.
    abandoned: Arc<Semaphore>,
}

impl Signals {
    fn new() -> Self {
        let none = || Arc::new(Semaphore::new(0));
        Self { started: none(), release: none(), abandoned: none() }
    }
}

/// Counts an abandoned poll when dropped while still armed.
struct Unanswered(Option<Arc<Semaphore>>);

impl Drop for Unanswered {
    fn drop(&mut self) {
        if let Some(abandoned) = self.0.take() {
            abandoned.add_permits(1);
        }
    }
}

async fn poll(State(signals): State<Signals>, uri: Uri) -> String {
    let mut unanswered = Unanswered(Some(signals.abandoned.clone()));
    signals.started.add_permits(1);
    if let Ok(permit) = signals.release.acquire().await {
        permit.forget();
    }
    unanswered.0 = None;
    format!("answered {}", uri.query().unwrap_or_default())
}

struct Server {
    address: std::net::SocketAddr,
    signals: Signals,
    shutdown: Option<oneshot::Sender<()>>,
    served: tokio::task::JoinHandle<()>,
}

impl Server {
    async fn start(header_timeout: Duration) -> Self {
        Self::start_with(Timeouts { header: header_timeout, body: PATIENT }).await
    }

    async fn start_with(timeouts: Timeouts) -> Self {
        let signals = Signals::new();
        let app = Router::new()
            .route("/api/v1/events", get(poll))
            .route("/echo", post(|body: Bytes| async move { body }))
            .route("/ignore", post(|| async { "ignored" }))
            .route("/hello", get(|| async { "hello" }))
            .route("/nothing", get(|| async { axum::http::StatusCode::NO_CONTENT }))
            .with_state(signals.clone());
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let address = listener.local_addr().expect("address");
        let (shutdown, stop) = oneshot::channel::<()>();
        let served = tokio::spawn(serve(listener, app, timeouts, async {
            let _ = stop.await;
        }));
        Self { address, signals, shutdown: Some(shutdown), served }
    }

    async fn client(&self) -> Client {
        Client { stream: TcpStream::connect(self.address).await.expect("connect"), unread: Vec::new() }
    }

    async fn poll_started(&self) {
        let started = tokio::time::timeout(PATIENT, self.signals.started.acquire()).await;
        started.expect("a poll started").expect("open").forget();
    }

    fn release_polls(&self, count: usize) {
        self.signals.release.add_permits(count);
    }
}

struct Client {
    stream: TcpStream,
    unread: Vec<u8>,
}

struct Answer {
    head: String,
    body: String,
}

impl Client {
    async fn send(&mut self, bytes: &str) {
        self.stream.write_all(bytes.as_bytes()).await.expect("send");
    }

    /// Reads more from the server; false at end of stream.
    async fn fill(&mut self) -> bool {
        let mut chunk = [0_u8; 4096];
        let read = tokio::time::timeout(PATIENT, self.stream.read(&mut chunk)).await.expect("server answers");
        match read {
            Ok(0) | Err(_) => false,
            Ok(n) => {
                self.unread.extend_from_slice(&chunk[..n]);
                true
            }
        }
    }

    async fn answer(&mut self) -> Answer {
        loop {
            let mut headers = [httparse::EMPTY_HEADER; 32];
            let mut response = httparse::Response::new(&mut headers);
            if let Ok(httparse::Status::Complete(head_len)) = response.parse(&self.unread) {
                let length: usize = response
                    .headers
                    .iter()
                    .find(|h| h.name.eq_ignore_ascii_case("content-length"))
                    .map_or(0, |h| {
                        std::str::from_utf8(h.value).ok().and_then(|v| v.parse().ok()).expect("a length")
                    });
                if self.unread.len() >= head_len + length {
                    let rest = self.unread.split_off(head_len + length);
                    let whole = std::mem::replace(&mut self.unread, rest);
                    let head = String::from_utf8_lossy(&whole[..head_len]).to_lowercase();
                    let body = String::from_utf8_lossy(&whole[head_len..]).into_owned();
                    return Answer { head, body };
                }
            }
            assert!(self.fill().await, "connection closed before a whole answer");
        }
    }

    async fn is_closed_by_server(&mut self) -> bool {
        !self.fill().await && self.unread.is_empty()
    }
}

fn poll_request(query: &str) -> String {
    format!("GET /api/v1/events?{query} HTTP/1.1\r\nHost: test\r\n\r\n")
}

fn echo_request(body: &str) -> String {
    format!("POST /echo HTTP/1.1\r\nHost: test\r\nContent-Length: {}\r\n\r\n{body}", body.len())
}

#[tokio::test]
async fn long_polls_and_other_requests_share_one_keep_alive_connection() {
    let server = Server::start(PATIENT).await;
    let mut client = server.client().await;

    client.send(&poll_request("n=1")).await;
    server.poll_started().await;
    server.release_polls(1);
    let first = client.answer().await;
    assert!(first.head.starts_with("http/1.1 200 ok\r\n"), "{}", first.head);
    assert!(first.head.contains("content-type: text/plain"), "{}", first.head);
    assert!(first.head.contains("date: "), "{}", first.head);
    assert!(!first.head.contains("connection: close"), "{}", first.head);
    assert_eq!(first.body, "answered n=1");

    client.send(&echo_request("hello")).await;
    assert_eq!(client.answer().await.body, "hello");

    client.send(&poll_request("n=2")).await;
    server.poll_started().await;
    server.release_polls(1);
    assert_eq!(client.answer().await.body, "answered n=2");
}

#[tokio::test]
async fn pipelined_requests_are_answered_in_order() {
    let server = Server::start(PATIENT).await;
    let mut client = server.client().await;
    let pipeline = [echo_request("a"), poll_request("n=1"), echo_request("b"), poll_request("n=2")].concat();
    client.send(&pipeline).await;

    assert_eq!(client.answer().await.body, "a");
    server.poll_started().await;
    server.release_polls(1);
    assert_eq!(client.answer().await.body, "answered n=1");
    assert_eq!(client.answer().await.body, "b");
    server.poll_started().await;
    server.release_polls(1);
    assert_eq!(client.answer().await.body, "answered n=2");
}

#[tokio::test]
async fn a_body_the_handler_left_unread_closes_the_connection() {
    let server = Server::start(PATIENT).await;
    let mut client = server.client().await;
    client.send("POST /ignore HTTP/1.1\r\nHost: test\r\nContent-Length: 5\r\n\r\nhello").await;
    let answer = client.answer().await;
    assert_eq!(answer.body, "ignored");
    assert!(answer.head.contains("connection: close"), "{}", answer.head);
    assert!(client.is_closed_by_server().await);
}

#[tokio::test]
async fn connection_close_is_honoured_on_both_paths() {
    let server = Server::start(PATIENT).await;
    let mut polling = server.client().await;
    polling.send("GET /api/v1/events HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n").await;
    server.poll_started().await;
    server.release_polls(1);
    assert!(polling.answer().await.head.contains("connection: close"));
    assert!(polling.is_closed_by_server().await);

    let mut echoing = server.client().await;
    echoing
        .send("POST /echo HTTP/1.1\r\nHost: test\r\nConnection: close\r\nContent-Length: 1\r\n\r\nx")
        .await;
    assert_eq!(echoing.answer().await.body, "x");
    assert!(echoing.is_closed_by_server().await);
}

#[tokio::test]
async fn a_client_that_leaves_drops_its_waiting_poll() {
    let server = Server::start(PATIENT).await;
    let mut client = server.client().await;
    client.send(&poll_request("n=1")).await;
    server.poll_started().await;
    drop(client);
    let abandoned = tokio::time::timeout(PATIENT, server.signals.abandoned.acquire()).await;
    assert!(abandoned.expect("the poll is dropped").is_ok());
}

#[tokio::test]
async fn shutdown_closes_idle_connections_and_lets_waiting_polls_answer() {
    let mut server = Server::start(PATIENT).await;
    let mut idle = server.client().await;
    idle.send(&echo_request("x")).await;
    assert_eq!(idle.answer().await.body, "x");
    let mut polling = server.client().await;
    polling.send(&poll_request("n=1")).await;
    server.poll_started().await;

    let _ = server.shutdown.take().expect("running").send(());
    assert!(idle.is_closed_by_server().await);
    server.release_polls(1);
    let last = polling.answer().await;
    assert_eq!(last.body, "answered n=1");
    assert!(last.head.contains("connection: close"), "{}", last.head);
    assert!(polling.is_closed_by_server().await);
    tokio::time::timeout(PATIENT, server.served).await.expect("serve returns").expect("no panic");
}

#[tokio::test]
async fn a_head_that_never_finishes_is_cut_off() {
    let server = Server::start(Duration::from_millis(100)).await;
    let mut client = server.client().await;
    client.send("GET /api/v1/ev").await;
    assert!(client.is_closed_by_server().await);
}

#[tokio::test]
async fn an_oversized_head_is_refused() {
    let server = Server::start(PATIENT).await;
    let mut client = server.client().await;
    let huge = format!("GET /api/v1/events HTTP/1.1\r\nX-Filler: {}\r\n\r\n", "a".repeat(MAX_HEAD_BYTES));
    client.send(&huge).await;
    assert!(client.answer().await.head.starts_with("http/1.1 431 "));
    assert!(client.is_closed_by_server().await);
}

#[tokio::test]
async fn answers_from_hyper_keep_the_connection_alive() {
    let server = Server::start(PATIENT).await;
    let mut client = server.client().await;
    for body in ["one", "two"] {
        client.send(&echo_request(body)).await;
        let answer = client.answer().await;
        assert_eq!(answer.body, body);
        assert!(!answer.head.contains("connection: close"), "{}", answer.head);
    }
    client.send(&[echo_request("a"), echo_request("b"), echo_request("c")].concat()).await;
    for body in ["a", "b", "c"] {
        let answer = client.answer().await;
        assert_eq!(answer.body, body);
        assert!(!answer.head.contains("connection: close"), "{}", answer.head);
    }
}

#[tokio::test]
async fn answers_without_a_body_keep_the_connection_alive_too() {
    let server = Server::start(PATIENT).await;
    let mut client = server.client().await;
    client.send("HEAD /hello HTTP/1.1\r\nHost: test\r\n\r\n").await;
    // A HEAD answer announces a length it does not send: read the head alone.
    while !client.unread.windows(4).any(|w| w == b"\r\n\r\n") {
        assert!(client.fill().await);
    }
    let head = String::from_utf8_lossy(&client.unread).to_lowercase();
    assert!(head.starts_with("http/1.1 200 ") && !head.contains("connection: close"), "{head}");
    client.unread.clear();
    client.send("GET /nothing HTTP/1.1\r\nHost: test\r\n\r\n").await;
    let nothing = client.answer().await;
    assert!(nothing.head.starts_with("http/1.1 204 ") && !nothing.head.contains("connection: close"));
    client.send(&echo_request("still here")).await;
    assert_eq!(client.answer().await.body, "still here");
}

#[tokio::test]
async fn a_body_that_stalls_is_answered_408_and_the_connection_closed() {
    let server = Server::start_with(Timeouts { header: PATIENT, body: Duration::from_millis(100) }).await;
    let mut client = server.client().await;
    client.send("POST /echo HTTP/1.1\r\nHost: test\r\nContent-Length: 10\r\n\r\nabc").await;
    let answer = client.answer().await;
    assert!(answer.head.starts_with("http/1.1 408 "), "{}", answer.head);
    assert!(answer.head.contains("connection: close"), "{}", answer.head);
    assert!(answer.body.contains("\"code\":\"BAD_REQUEST\""), "{}", answer.body);
    assert!(client.is_closed_by_server().await);
}

#[tokio::test]
async fn a_body_that_keeps_coming_is_not_cut_off() {
    let server = Server::start_with(Timeouts { header: PATIENT, body: Duration::from_millis(1500) }).await;
    let mut client = server.client().await;
    client.send("POST /echo HTTP/1.1\r\nHost: test\r\nContent-Length: 6\r\n\r\n").await;
    // Each piece comes well within the timeout, the whole body well after it.
    for piece in ["a", "b", "c", "d", "e", "f"] {
        tokio::time::sleep(Duration::from_millis(400)).await;
        client.send(piece).await;
    }
    assert_eq!(client.answer().await.body, "abcdef");
}
