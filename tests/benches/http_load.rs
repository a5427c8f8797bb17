//! The HTTP layer under load, from a keep-alive load generator of its own (raw sockets, so the
//! client costs little next to the server).
//!
//! - `cheap`: requests per second for `GET /server_settings` over 32 keep-alive connections,
//!   and over connections closed after every request (what a client does when every answer
//!   says `connection: close`, as every answer but a long-poll's did before keep-alive).
//! - `sends`: durable sends from 16 users over 2,048 connections, well past the writer's rate:
//!   how many are accepted and refused (429) per second, and the accepted sends' latency, with
//!   the default write queue and with one so large it never refuses (the server before the
//!   bound).
//!
//! Run: `cargo bench -p confab-tests --bench http_load` (or `... -- cheap` / `... -- sends`).
//! Each figure runs a fresh release server in its own process, for 10 seconds.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use base64::Engine as _;
use confab_tests::{Creds, TestServer};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpStream;

const BINARY: &str = env!("CARGO_BIN_EXE_confab-under-test");
const RUN: Duration = Duration::from_secs(10);

fn main() {
    let which: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let wants = |name: &str| which.is_empty() || which.iter().any(|w| w == name);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime");
    if wants("cheap") {
        let server = TestServer::start(BINARY);
        let host = host(&server);
        let request = format!("GET /api/v1/server_settings HTTP/1.1\r\nHost: {host}\r\n\r\n");
        let kept = runtime.block_on(load(&host, vec![request.clone(); 32], false));
        let closing =
            format!("GET /api/v1/server_settings HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
        let reconnecting = runtime.block_on(load(&host, vec![closing; 32], true));
        println!("GET /server_settings, 32 connections, {} s each:", RUN.as_secs());
        println!("  keep-alive:             {}", kept.summary());
        println!("  a connection a request: {}", reconnecting.summary());
    }
    if wants("sends") {
        for (label, queue) in [("default write queue", None), ("unbounded (before)", Some("100000000"))] {
            let extra: Vec<&str> = queue.map(|q| vec!["--write-queue", q]).unwrap_or_default();
            let server = TestServer::start_with(BINARY, &extra);
            let host = host(&server);
            let users = users(&server, 16);
            let requests: Vec<String> =
                (0..256).map(|i| send_request(&host, &users[i % users.len()])).collect();
            let figures = runtime.block_on(load(&host, requests, false));
            println!("POST /messages, 16 users, 2,048 connections, {} s, {label}:", RUN.as_secs());
            println!("  {}", figures.summary());
        }
    }
}

fn host(server: &TestServer) -> String {
    server.base_url.trim_start_matches("http://").to_owned()
}

fn users(server: &TestServer, count: usize) -> Vec<Creds> {
    let owner = server.owner();
    let api = server.api();
    let users: Vec<Creds> = (0..count)
        .map(|i| api.create_user(&owner, &format!("load{i}@example.com"), &format!("Load {i}")))
        .collect();
    let emails: Vec<String> = users.iter().map(|u| u.email.clone()).collect();
    api.subscribe(&owner, &["general"], &emails.iter().map(String::as_str).collect::<Vec<_>>());
    users
}

fn send_request(host: &str, who: &Creds) -> String {
    let token = base64::engine::general_purpose::STANDARD.encode(format!("{}:{}", who.email, who.api_key));
    let body = "type=stream&to=general&topic=load&content=a+message+under+load";
    format!(
        "POST /api/v1/messages HTTP/1.1\r\nHost: {host}\r\nAuthorization: Basic {token}\r\n\
         Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

#[derive(Default)]
struct Figures {
    /// Latencies of 200 answers.
    accepted: Vec<Duration>,
    refused: usize,
    other: usize,
}

impl Figures {
    fn summary(mut self) -> String {
        self.accepted.sort();
        let at = |q: f64| {
            let i = ((self.accepted.len() as f64 * q) as usize).min(self.accepted.len().saturating_sub(1));
            self.accepted.get(i).map_or(0.0, |d| d.as_secs_f64() * 1000.0)
        };
        let secs = RUN.as_secs_f64();
        format!(
            "{:>8.0} accepted/s (p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms), {:.0} refused/s, {} other",
            self.accepted.len() as f64 / secs,
            at(0.5),
            at(0.99),
            at(1.0),
            self.refused as f64 / secs,
            self.other
        )
    }
}

/// Each request string is one connection's request, sent again as soon as it is answered.
async fn load(host: &str, requests: Vec<String>, reconnect: bool) -> Figures {
    let stop = Arc::new(AtomicBool::new(false));
    let tasks: Vec<_> = requests
        .into_iter()
        .map(|request| tokio::spawn(connection(host.to_owned(), request, reconnect, stop.clone())))
        .collect();
    tokio::time::sleep(RUN).await;
    stop.store(true, Ordering::Relaxed);
    let mut total = Figures::default();
    for task in tasks {
        let figures = task.await.expect("no panic");
        total.accepted.extend(figures.accepted);
        total.refused += figures.refused;
        total.other += figures.other;
    }
    total
}

async fn connection(host: String, request: String, reconnect: bool, stop: Arc<AtomicBool>) -> Figures {
    let mut figures = Figures::default();
    let mut stream: Option<TcpStream> = None;
    let mut buffer = Vec::with_capacity(16 * 1024);
    while !stop.load(Ordering::Relaxed) {
        let started = Instant::now();
        let open = match stream.take() {
            Some(open) => open,
            None => match TcpStream::connect(&host).await {
                Ok(open) => open,
                Err(_) => {
                    figures.other += 1;
                    continue;
                }
            },
        };
        let mut open = open;
        buffer.clear();
        let Some(status) = exchange(&mut open, request.as_bytes(), &mut buffer).await else {
            figures.other += 1;
            continue;
        };
        match status {
            200 => figures.accepted.push(started.elapsed()),
            429 | 503 => figures.refused += 1,
            _ => figures.other += 1,
        }
        if !reconnect {
            stream = Some(open);
        }
    }
    figures
}

/// Sends one request and reads its whole answer; the status, or `None` if the connection failed.
async fn exchange(stream: &mut TcpStream, request: &[u8], buffer: &mut Vec<u8>) -> Option<u16> {
    stream.write_all(request).await.ok()?;
    loop {
        if let Some(end) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buffer[..end]).to_ascii_lowercase();
            let length: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(0);
            if buffer.len() >= end + 4 + length {
                return head.get(9..12)?.parse().ok();
            }
        }
        let mut chunk = [0u8; 8192];
        match stream.read(&mut chunk).await {
            Ok(0) | Err(_) => return None,
            Ok(n) => buffer.extend_from_slice(&chunk[..n]),
        }
    }
}
