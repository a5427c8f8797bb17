//! How long one message takes to reach N waiting long-polls, and what a waiting queue costs.
//!
//! For each N a fresh server runs in its own process. N event queues are registered
//! (`event_types=["message"]`, as many users as the per-user limit of
//! `confab_core::events::MAX_QUEUES_PER_USER` asks, all in `general`) and N `GET /events`
//! requests are left waiting. Another user then
//! sends one channel message; the figure is the time from sending it until the last of the N
//! polls has its answer, which includes the send's commit (fsync). Memory is the server's
//! resident set (VmRSS) after the polls wait, minus before the queues existed, divided by N:
//! queues, parked requests and their connections together. Needs twice N file descriptors
//! between the two processes (`ulimit -n`).

use std::path::Path;
use std::time::{Duration, Instant};

use super::{Bench, Row, Verdict, ms, thousands};
use crate::load::{basic_authorization, rss_bytes};
use confab_core::events::MAX_QUEUES_PER_USER;

use crate::{Creds, TestServer};

/// Goals from the real-time issue.
const GOAL_FANOUT_10K: Duration = Duration::from_millis(250);
const GOAL_BYTES_PER_QUEUE: u64 = 8 * 1024;

/// What one fan-out measurement found.
#[derive(Debug, Clone, Copy)]
pub struct FanoutFigures {
    pub last_delivery: Duration,
    pub median_delivery: Duration,
    pub send_request: Duration,
    pub bytes_per_queue: u64,
    /// Of which the queues alone, before any poll waits.
    pub registered_bytes_per_queue: u64,
    /// For comparison: an idle keep-alive HTTP connection that served one request.
    pub idle_connection_bytes: u64,
}

pub(super) fn rows(b: &mut Bench<'_>) {
    for &n in &b.config.fanout.clone() {
        let f = measure_fanout(&b.config.binary, n);
        let scaled = GOAL_FANOUT_10K.mul_f64(n as f64 / 10_000.0);
        b.rows.push(
            Row::new(
                format!("Event fan-out to {} waiting polls", thousands(n as u64)),
                "10,000 within 250 ms",
            )
            .figure(
                format!(
                    "last {:.1} ms, median {:.1} ms; the sender's answer {:.1} ms",
                    ms(f.last_delivery),
                    ms(f.median_delivery),
                    ms(f.send_request)
                ),
                Verdict::of(f.last_delivery <= scaled.max(Duration::from_millis(25))),
            ),
        );
        b.rows.push(
            Row::new(format!("Memory per waiting poll ({} polls)", thousands(n as u64)), "≤ 8 KB")
                .figure(
                    format!(
                        "{:.1} KB ({:.1} KB for the queue alone)",
                        f.bytes_per_queue as f64 / 1e3,
                        f.registered_bytes_per_queue as f64 / 1e3
                    ),
                    Verdict::of(f.bytes_per_queue <= GOAL_BYTES_PER_QUEUE),
                )
                .cost_ceiling(
                    format!("an idle keep-alive connection: {:.1} KB", f.idle_connection_bytes as f64 / 1e3),
                    f.bytes_per_queue as f64,
                    f.idle_connection_bytes as f64,
                ),
        );
    }
}

/// Fan-out to `n` waiting polls on a fresh server, and what an idle connection costs one.
pub fn measure_fanout(binary: &Path, n: usize) -> FanoutFigures {
    let figures = fanout(binary, n);
    FanoutFigures { idle_connection_bytes: idle_connection_bytes(binary, n), ..figures }
}

fn fanout(binary: &Path, n: usize) -> FanoutFigures {
    let server = TestServer::start(&binary.to_string_lossy());
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let listeners: Vec<Creds> = (0..n.div_ceil(MAX_QUEUES_PER_USER))
        .map(|i| api.create_user(&owner, &format!("listener{i}@example.com"), &format!("Listener {i}")))
        .collect();
    let mut members: Vec<&str> = listeners.iter().map(|c| c.email.as_str()).collect();
    members.push("ada@example.com");
    api.subscribe(&owner, &["general"], &members);

    // One client thread: the server gets the rest of the machine.
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let before = rss_bytes(server.pid());
    let queues: Vec<(String, String)> = (0..n)
        .map(|i| {
            let listener = &listeners[i / MAX_QUEUES_PER_USER];
            let body = api.post("/register", Some(listener), &[("event_types", r#"["message"]"#)]).ok();
            let queue_id = body["queue_id"].as_str().expect("queue_id").to_owned();
            (queue_id, basic_authorization(&listener.email, &listener.api_key))
        })
        .collect();
    let registered = rss_bytes(server.pid());

    runtime.block_on(async {
        let client = reqwest::Client::new();
        let address = server.base_url.trim_start_matches("http://").to_owned();
        let mut polls = Vec::with_capacity(n);
        for (queue_id, authorization) in queues {
            let address = address.clone();
            polls.push(tokio::spawn(
                async move { wait_for_message(&address, &authorization, &queue_id).await },
            ));
        }
        // Let every poll connect and park (a poll that is not parked yet still gets the event at
        // once, but would flatter the figure).
        tokio::time::sleep(Duration::from_secs(2 + (n / 2_500) as u64)).await;
        let waiting = rss_bytes(server.pid());

        let sent_at = Instant::now();
        send(&client, &server.base_url, &ada).await;
        let send_request = sent_at.elapsed();
        let mut deliveries = Vec::with_capacity(n);
        let mut connections = Vec::with_capacity(n);
        for poll in polls {
            let (answered_at, connection) = poll.await.expect("poll task");
            deliveries.push(answered_at.saturating_duration_since(sent_at));
            connections.push(connection);
        }
        drop(connections);
        deliveries.sort();
        FanoutFigures {
            last_delivery: *deliveries.last().expect("n > 0"),
            median_delivery: deliveries[deliveries.len() / 2],
            send_request,
            bytes_per_queue: waiting.saturating_sub(before) / n as u64,
            registered_bytes_per_queue: registered.saturating_sub(before) / n as u64,
            idle_connection_bytes: 0,
        }
    })
}

/// What an idle keep-alive connection costs a fresh server, for comparison: `n` connections
/// each serve one request and stay open.
fn idle_connection_bytes(binary: &Path, n: usize) -> u64 {
    let server = TestServer::start(&binary.to_string_lossy());
    let before = rss_bytes(server.pid());
    let connections = open_idle_connections(&server.base_url, n);
    let after = rss_bytes(server.pid());
    drop(connections);
    after.saturating_sub(before) / n as u64
}

/// Opens `n` keep-alive connections, each after one request, and keeps them open.
fn open_idle_connections(base_url: &str, n: usize) -> Vec<std::net::TcpStream> {
    use std::io::{Read, Write};
    let address = base_url.trim_start_matches("http://").to_owned();
    let request = format!("GET /api/v1/server_settings HTTP/1.1\r\nHost: {address}\r\n\r\n");
    let mut connections = Vec::with_capacity(n);
    for _ in 0..n {
        let mut stream = std::net::TcpStream::connect(&address).expect("connect");
        stream.write_all(request.as_bytes()).expect("request");
        let mut buffer = vec![0u8; 16 * 1024];
        let mut read = 0;
        // The answer is small and ends with the JSON object's closing brace.
        while read == 0 || buffer[read - 1] != b'}' {
            read += stream.read(&mut buffer[read..]).expect("answer");
        }
        connections.push(stream);
    }
    connections
}

/// Waits on one queue until its answer holds a message event; returns when that was. A bare
/// HTTP/1.1 request on its own connection, so that the client spends as little of the shared
/// CPU as it can: the answer is read, not parsed.
async fn wait_for_message(
    address: &str,
    authorization: &str,
    queue_id: &str,
) -> (Instant, tokio::net::TcpStream) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let request = format!(
        "GET /api/v1/events?queue_id={queue_id}&last_event_id=-1 HTTP/1.1\r\nHost: {address}\r\n\
         Authorization: {authorization}\r\n\r\n"
    );
    let mut stream = tokio::net::TcpStream::connect(address).await.expect("connect");
    stream.write_all(request.as_bytes()).await.expect("request");
    let mut answer = Vec::with_capacity(4096);
    let mut buffer = [0u8; 4096];
    loop {
        let read = stream.read(&mut buffer).await.expect("answer");
        assert!(read > 0, "the server closed the connection: {}", String::from_utf8_lossy(&answer));
        answer.extend_from_slice(&buffer[..read]);
        if answer.ends_with(b"}") {
            let text = String::from_utf8_lossy(&answer);
            assert!(text.contains("\"type\":\"message\""), "not a message event: {text}");
            // The connection stays open, as a client's would for its next poll: closing it
            // here would put connection teardown into the figure.
            return (Instant::now(), stream);
        }
    }
}

async fn send(client: &reqwest::Client, base_url: &str, who: &Creds) {
    let params =
        [("type", "stream"), ("to", "general"), ("topic", "fan-out"), ("content", "to everyone waiting")];
    let answer = client
        .post(format!("{base_url}/api/v1/messages"))
        .basic_auth(&who.email, Some(&who.api_key))
        .form(&params)
        .send()
        .await
        .expect("the send is answered");
    assert!(answer.status().is_success(), "the send failed: {}", answer.text().await.unwrap_or_default());
}
