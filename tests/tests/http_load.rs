//! The HTTP layer under hostile and heavy load: connections kept alive, bodies that stall,
//! requests that would hold a queue nobody knows of, floods of writes, and bursts of wrong
//! logins.

use std::io::{Read as _, Write as _};
use std::net::TcpStream;
use std::sync::Barrier;
use std::time::Duration;

use confab_tests::{Creds, TestServer};

const BINARY: &str = env!("CARGO_BIN_EXE_confab-under-test");

/// A raw connection to the server, reading whole responses (all of ours have a length).
struct Connection {
    stream: TcpStream,
    unread: Vec<u8>,
}

/// A response's lower-cased head and its body.
struct Answer {
    head: String,
    body: String,
}

impl Connection {
    fn open(server: &TestServer) -> Connection {
        let stream = TcpStream::connect(host(server)).expect("connect");
        stream.set_read_timeout(Some(Duration::from_secs(60))).expect("timeout");
        Connection { stream, unread: Vec::new() }
    }

    fn send(&mut self, bytes: &str) {
        self.stream.write_all(bytes.as_bytes()).expect("send");
    }

    /// Reads more; false at the end of the stream.
    fn fill(&mut self) -> bool {
        let mut chunk = [0_u8; 8192];
        match self.stream.read(&mut chunk) {
            Ok(0) | Err(_) => false,
            Ok(n) => {
                self.unread.extend_from_slice(&chunk[..n]);
                true
            }
        }
    }

    fn answer(&mut self) -> Answer {
        loop {
            if let Some(end) = self.unread.windows(4).position(|w| w == b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&self.unread[..end + 4]).to_lowercase();
                let length: usize = head
                    .lines()
                    .find_map(|line| line.strip_prefix("content-length:"))
                    .map_or(0, |v| v.trim().parse().expect("a length"));
                if self.unread.len() >= end + 4 + length {
                    let rest = self.unread.split_off(end + 4 + length);
                    let body = String::from_utf8_lossy(&self.unread[end + 4..]).into_owned();
                    self.unread = rest;
                    return Answer { head, body };
                }
            }
            assert!(self.fill(), "the connection closed before a whole answer");
        }
    }

    fn is_closed_by_server(&mut self) -> bool {
        !self.fill() && self.unread.is_empty()
    }
}

fn host(server: &TestServer) -> &str {
    server.base_url.trim_start_matches("http://")
}

fn settings_request(server: &TestServer) -> String {
    format!("GET /api/v1/server_settings HTTP/1.1\r\nHost: {}\r\n\r\n", host(server))
}

fn authorization(who: &Creds) -> String {
    use base64::Engine as _;
    let token = base64::engine::general_purpose::STANDARD.encode(format!("{}:{}", who.email, who.api_key));
    format!("Authorization: Basic {token}\r\n")
}

#[test]
fn a_second_request_is_served_on_the_same_connection() {
    let server = TestServer::start(BINARY);
    let mut connection = Connection::open(&server);
    for _ in 0..2 {
        connection.send(&settings_request(&server));
        let answer = connection.answer();
        assert!(answer.head.starts_with("http/1.1 200 "), "{}", answer.head);
        assert!(!answer.head.contains("connection: close"), "{}", answer.head);
        assert!(answer.body.contains("\"result\":\"success\""));
    }

    // Pipelined: both requests at once, both answered in order, and the connection stays open
    // for a third.
    let owner = server.owner();
    let own_user =
        format!("GET /api/v1/users/me HTTP/1.1\r\nHost: {}\r\n{}\r\n", host(&server), authorization(&owner));
    connection.send(&[settings_request(&server), own_user].concat());
    let first = connection.answer();
    assert!(first.body.contains("realm_name"), "{}", first.body);
    let second = connection.answer();
    assert!(second.body.contains(&owner.email), "{}", second.body);
    for answer in [&first, &second] {
        assert!(!answer.head.contains("connection: close"), "{}", answer.head);
    }
    connection.send(&settings_request(&server));
    assert!(connection.answer().head.starts_with("http/1.1 200 "));
}

#[test]
fn a_client_that_stops_sending_its_body_is_answered_408_and_closed() {
    let server = TestServer::start_with(BINARY, &["--body-timeout-secs", "1"]);
    let mut connection = Connection::open(&server);
    connection.send(&format!(
        "POST /api/v1/messages HTTP/1.1\r\nHost: {}\r\n{}Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\ntype=stream&to=",
        host(&server),
        authorization(&server.owner())
    ));
    let answer = connection.answer();
    assert!(answer.head.starts_with("http/1.1 408 "), "{}", answer.head);
    assert!(answer.head.contains("connection: close"), "{}", answer.head);
    let body: serde_json::Value = serde_json::from_str(&answer.body).expect("JSON");
    assert_eq!(body["result"], "error");
    assert_eq!(body["code"], "BAD_REQUEST");
    assert!(connection.is_closed_by_server());
}

#[test]
fn get_events_without_a_queue_id_is_refused_rather_than_held() {
    let server = TestServer::start(BINARY);
    let body = server.api().get("/events", Some(&server.owner()), &[]).error(400, "BAD_REQUEST");
    assert_eq!(body["msg"], "Missing 'queue_id' argument");
    // Zulip's internal registration, which does not wait, still makes a queue.
    let made = server.api().get("/events", Some(&server.owner()), &[("dont_block", "true")]).ok();
    assert!(made["queue_id"].is_string(), "{made}");
}

/// A reply with its `Retry-After` header.
struct Refusable {
    status: u16,
    retry_after: Option<String>,
    body: serde_json::Value,
}

fn send_message(
    http: &reqwest::blocking::Client,
    server: &TestServer,
    who: &Creds,
    content: &str,
) -> Refusable {
    let response = http
        .post(format!("{}/api/v1/messages", server.base_url))
        .basic_auth(&who.email, Some(&who.api_key))
        .form(&[("type", "stream"), ("to", "general"), ("topic", "flood"), ("content", content)])
        .send()
        .expect("the server answers");
    let status = response.status().as_u16();
    let retry_after = response.headers().get("retry-after").and_then(|v| v.to_str().ok()).map(str::to_owned);
    Refusable { status, retry_after, body: response.json().expect("JSON") }
}

#[test]
fn past_its_share_of_the_write_queue_a_flooding_user_is_refused_and_others_are_served() {
    // Two places in the queue, one per user: the flood can never take the other user's.
    let server = TestServer::start_with(BINARY, &["--write-queue", "2"]);
    let owner = server.owner();
    let calm = server.api().create_user(&owner, "calm@example.com", "Calm");
    server.api().subscribe(&owner, &["general"], &["calm@example.com"]);
    let flooders = 48;
    let start = Barrier::new(flooders + 1);
    let (flood, calm_replies) = std::thread::scope(|scope| {
        let flood: Vec<_> = (0..flooders)
            .map(|i| {
                let (server, owner, start) = (&server, &owner, &start);
                scope.spawn(move || {
                    let http = reqwest::blocking::Client::new();
                    start.wait();
                    (0..4)
                        .map(|j| send_message(&http, server, owner, &format!("flood {i}.{j}")))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let calm_replies = {
            let http = reqwest::blocking::Client::new();
            start.wait();
            (0..20).map(|i| send_message(&http, &server, &calm, &format!("calm {i}"))).collect::<Vec<_>>()
        };
        let flood: Vec<Refusable> = flood.into_iter().flat_map(|h| h.join().expect("no panic")).collect();
        (flood, calm_replies)
    });

    for reply in &calm_replies {
        assert_eq!(reply.status, 200, "{}", reply.body);
    }
    let refused: Vec<_> = flood.iter().filter(|r| r.status != 200).collect();
    assert!(!refused.is_empty(), "192 concurrent sends through one place never queued");
    for reply in refused {
        assert_eq!(reply.status, 429, "{}", reply.body);
        assert_eq!(reply.body["code"], "RATE_LIMIT_HIT", "{}", reply.body);
        assert_eq!(reply.body["msg"], "API usage exceeded rate limit");
        assert!(reply.body["retry-after"].as_f64().is_some_and(|s| s > 0.0), "{}", reply.body);
        let header = reply.retry_after.as_deref().expect("a Retry-After header");
        assert!(header.parse::<u64>().is_ok_and(|s| s > 0), "Retry-After: {header}");
    }
}

/// The server's resident memory, in bytes.
fn resident_bytes(server: &TestServer) -> u64 {
    let status =
        std::fs::read_to_string(format!("/proc/{}/status", server.pid())).expect("/proc is readable");
    let kib: u64 = status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS");
    kib * 1024
}

#[test]
fn two_hundred_concurrent_wrong_logins_leave_resident_memory_within_100_mb() {
    let server = TestServer::start(BINARY);
    let owner = server.owner();
    let before = resident_bytes(&server);
    let logins = 200;
    let start = Barrier::new(logins);
    let statuses: Vec<u16> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..logins)
            .map(|i| {
                let (server, start, owner) = (&server, &start, &owner);
                scope.spawn(move || {
                    // Mostly names without an account, and five wrong passwords for one that has
                    // (a sixth would meet Zulip's limit on failed logins).
                    let username =
                        if i % 40 == 0 { owner.email.clone() } else { format!("nobody{i}@example.com") };
                    let api = server.api();
                    start.wait();
                    let reply =
                        api.post("/fetch_api_key", None, &[("username", &username), ("password", "wrong")]);
                    assert_eq!(reply.body["result"], "error", "{}", reply.body);
                    reply.status
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("no panic")).collect()
    });
    assert!(statuses.iter().all(|&s| s == 401), "{statuses:?}");
    let after = resident_bytes(&server);
    assert!(
        after < before + 100 * 1024 * 1024,
        "resident memory went from {} MB to {} MB",
        before / (1024 * 1024),
        after / (1024 * 1024)
    );
}
