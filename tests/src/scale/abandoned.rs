//! What abandoned event queues hold. A client that registers and never polls again leaves its
//! queue collecting events until it expires (ten minutes idle) or holds
//! `confab_core::events::MAX_EVENTS_PER_QUEUE` events, when it is discarded (its client, if it
//! ever comes back, gets `BAD_EVENT_QUEUE_ID` and registers again).
//!
//! On a fresh server, one user registers as many queues as a user may have and never polls;
//! another sends messages to `general` until each queue holds the most it may. The figure is
//! the server's resident set then, minus before the queues existed, per queue and per event;
//! then one more message, which the queues cannot take, and the resident set after it.

use std::sync::Arc;

use confab_core::events::{MAX_EVENTS_PER_QUEUE, MAX_QUEUES_PER_USER};

use super::{Bench, Row, Verdict, thousands};
use crate::TestServer;
use crate::load::{self, NextRequest, RequestBytes, rss_bytes};

/// Connections the messages are sent on.
const SENDERS: usize = 8;

pub(super) fn abandoned_queues(b: &mut Bench<'_>) {
    let (queues, events) = b.config.abandoned;
    let server = TestServer::start(&b.config.binary.to_string_lossy());
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let idle = api.create_user(&owner, "idle@example.com", "Idle");
    api.subscribe(&owner, &["general"], &["ada@example.com", "idle@example.com"]);

    let before = rss_bytes(server.pid());
    let queue_ids: Vec<String> = (0..queues)
        .map(|_| {
            let body = api.post("/register", Some(&idle), &[("event_types", r#"["message"]"#)]).ok();
            body["queue_id"].as_str().expect("queue_id").to_owned()
        })
        .collect();

    let address = server.base_url.trim_start_matches("http://").to_owned();
    let authorization = load::basic_authorization(&ada.email, &ada.api_key);
    let sent = send_messages(&address, &authorization, events);
    if sent.accepted.len() < events {
        b.problems.push(format!(
            "abandoned: {} of {events} messages sent; first problem: {}",
            sent.accepted.len(),
            sent.first_problem.as_deref().unwrap_or("none")
        ));
        return;
    }
    let full = rss_bytes(server.pid());
    let held = full.saturating_sub(before);
    let per_queue = held / queues.max(1) as u64;
    let per_event = per_queue / events.max(1) as u64;

    // One event past the bound discards every queue; their memory goes back to the allocator.
    let (verdict, after_discard) = if events >= MAX_EVENTS_PER_QUEUE {
        send_messages(&address, &authorization, 1);
        let gone =
            api.get("/events", Some(&idle), &[("queue_id", queue_ids[0].as_str()), ("last_event_id", "-1")]);
        let discarded = gone.status == 400 && gone.body["code"] == "BAD_EVENT_QUEUE_ID";
        if !discarded {
            b.problems.push(format!("abandoned: a full queue was not discarded: {}", gone.body));
        }
        let after = rss_bytes(server.pid()).saturating_sub(before);
        (
            Verdict::of(discarded),
            format!("; the next message discarded them: +{:.1} MB after", after as f64 / 1e6),
        )
    } else {
        (Verdict::Unknown, " (below the bound, so not judged)".to_owned())
    };
    b.rows.push(
        Row::new(
            format!("Abandoned queues: {queues} never polled, {} messages each", thousands(events as u64)),
            format!("bounded (at most {} events a queue)", thousands(MAX_EVENTS_PER_QUEUE as u64)),
        )
        .figure(
            format!(
                "+{:.1} MB ({:.1} KB a queue, {per_event} B an event){after_discard}",
                held as f64 / 1e6,
                per_queue as f64 / 1e3
            ),
            verdict,
        ),
    );
}

/// The per-user queue limit by default: the most one client's user can leave behind.
pub(super) const DEFAULT_QUEUES: usize = MAX_QUEUES_PER_USER;

/// Sends `n` distinct messages to `general`: [`SENDERS`] keep-alive connections each send an
/// equal share, then one sends what is left.
fn send_messages(address: &str, authorization: &str, n: usize) -> load::Report {
    let requests: Arc<Vec<RequestBytes>> = Arc::new(
        (0..n)
            .map(|i| {
                let content = format!("abandoned queue filler {i}");
                let params =
                    [("type", "stream"), ("to", "general"), ("topic", "filler"), ("content", &content)];
                load::build(address, "POST", "/api/v1/messages", Some(authorization), &params)
            })
            .collect(),
    );
    let share = n / SENDERS;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let run = |connections: usize, count: usize, first: usize| {
        let requests = requests.clone();
        let next: NextRequest = Arc::new(move |k, i| requests[first + k * count + i as usize].clone());
        let long = std::time::Duration::from_secs(600);
        runtime.block_on(load::closed_loop_counted(address, connections, long, count as u64, next))
    };
    let mut report = if share > 0 { run(SENDERS, share, 0) } else { load::Report::default() };
    let rest = n - share * SENDERS;
    if rest > 0 {
        let last = run(1, rest, share * SENDERS);
        report.accepted.extend(last.accepted);
        report.first_problem = report.first_problem.or(last.first_problem);
    }
    report
}
