//! Sending: durable throughput at many connections, latency at a fixed offered rate, what
//! happens past saturation, and what a sender's topic preferences cost.

use std::sync::Arc;

use super::{Bench, Row, Verdict, ms, shown, thousands};
use crate::load::{self, NextRequest, RequestBytes};

/// Users 0 to 3 have roles in other workloads (benchmark user, reader, follower, plain sender).
const FIRST_SENDER: usize = 4;

/// Distinct messages prepared per connection, sent in turn.
const MESSAGES_PER_CONNECTION: usize = 32;

/// For connection k, messages from its own user in the seeded organization's style.
fn send_requests(
    b: &mut Bench<'_>,
    connections: usize,
    address: &str,
) -> (Arc<Vec<Vec<RequestBytes>>>, usize) {
    let users = b.traffic.users().len();
    let mut content_bytes = 0;
    let mut all = Vec::with_capacity(connections);
    for k in 0..connections {
        let sender = (FIRST_SENDER + k) % users.max(1);
        let user = b.traffic.users()[sender].clone();
        let authorization = load::basic_authorization(&user.email, &user.api_key);
        let requests: Vec<RequestBytes> = (0..MESSAGES_PER_CONNECTION)
            .map(|_| {
                let params = b.traffic.message_from(sender);
                content_bytes += params.iter().find(|(k, _)| *k == "content").map_or(0, |(_, v)| v.len());
                let pairs: Vec<(&str, &str)> = params.iter().map(|(k, v)| (*k, v.as_str())).collect();
                load::build(address, "POST", "/api/v1/messages", Some(&authorization), &pairs)
            })
            .collect();
        all.push(requests);
    }
    let average = content_bytes / (connections * MESSAGES_PER_CONNECTION).max(1);
    (Arc::new(all), average)
}

/// How many sends the server refused with `Retry-After`, for a figure; empty when none.
fn refusals(report: &crate::load::Report) -> String {
    match report.with_retry_after {
        0 => String::new(),
        n => format!("; {} refused with Retry-After", thousands(n)),
    }
}

/// Each connection's prepared requests in turn.
fn cycle(requests: Arc<Vec<Vec<RequestBytes>>>) -> NextRequest {
    Arc::new(move |k, n| {
        let own = &requests[k % requests.len()];
        own[n as usize % own.len()].clone()
    })
}

pub(super) fn durable_sends(b: &mut Bench<'_>) {
    let connections = b.config.connections;
    let address = b.address();
    let (requests, content_bytes) = send_requests(b, connections, &address);
    // Zulip's clients wait out a refusal's Retry-After; clients that do not are the
    // saturation workload's.
    let report = b.closed_waiting_out(&address, connections, cycle(requests.clone()));
    b.expect_success_or_backpressure("sends", &report);
    let rate = report.accepted_per_second();
    b.send_rate = Some(rate);

    // A stored message carries its Markdown, its HTML and its metadata: about three times
    // the content.
    let record = 3 * content_bytes.max(100);
    let scratch = b.config.out_dir.join("work");
    let redb = load::redb_group_commit(&scratch, connections, record, b.config.phase);
    b.bare.reply_with(report.sample.as_ref().map_or(64, Vec::len));
    let bare = b.closed(&b.bare.address.to_string(), connections, u64::MAX, cycle(requests));
    let share = rate / redb.rows_per_second.max(1e-9);
    b.rows.push(
        Row::new(
            format!("Durable sends, {connections} connections, varied content"),
            "≥ 10,000 msgs/s; ≥ 25 % of raw redb group commit",
        )
        .figure(
            format!(
                "{} msgs/s (p50 {}, p99 {}){}",
                thousands(rate as u64),
                shown(report.quantile(0.5)),
                shown(report.quantile(0.99)),
                refusals(&report)
            ),
            Verdict::of(rate >= 10_000.0 && share >= 0.25),
        )
        .rate_ceiling(
            format!("redb: {} rows/s in commits of {connections}", thousands(redb.rows_per_second as u64)),
            rate,
            redb.rows_per_second,
        ),
    );
    b.notes.push(format!(
        "Ceilings for sends: the raw redb loop made {:.0} commits/s (p50 {:.2} ms, p99 {:.2} ms) of {connections} \
         rows of {record} bytes; the bare HTTP server answered {} requests/s on {connections} connections ({:.1} % \
         of it reached by durable sends). Messages averaged {content_bytes} bytes of Markdown.",
        redb.commits_per_second,
        ms(redb.commit_p50),
        ms(redb.commit_p99),
        thousands(bare.accepted_per_second() as u64),
        100.0 * rate / bare.accepted_per_second().max(1e-9),
    ));
}

pub(super) fn latency(b: &mut Bench<'_>) {
    let (connections, rate) = (b.config.connections, b.config.offered_rate);
    let address = b.address();
    let (requests, _) = send_requests(b, connections, &address);
    let report = b.open(&address, rate, connections, cycle(requests.clone()));
    b.expect_success_or_backpressure("latency", &report);
    b.bare.reply_with(report.sample.as_ref().map_or(64, Vec::len));
    let bare = b.open(&b.bare.address.to_string(), rate, connections, cycle(requests));
    let p99 = report.quantile(0.99).unwrap_or_default();
    let bare_p99 = bare.quantile(0.99).unwrap_or_default();
    b.rows.push(
        Row::new(format!("Send p99 at {} msgs/s offered (open loop)", thousands(rate as u64)), "≤ 15 ms")
            .figure(
                format!(
                    "p99 {} (p50 {}){}",
                    shown(Some(p99)),
                    shown(report.quantile(0.5)),
                    refusals(&report)
                ),
                Verdict::of(ms(p99) <= 15.0 && !report.accepted.is_empty()),
            )
            .cost_ceiling(format!("bare HTTP p99 {}", shown(Some(bare_p99))), ms(p99), ms(bare_p99)),
    );
}

pub(super) fn saturation(b: &mut Bench<'_>) {
    let connections = 2 * b.config.connections;
    let rate = 2.0 * b.send_rate.unwrap_or(10_000.0).max(b.config.offered_rate);
    let address = b.address();
    let (requests, _) = send_requests(b, connections, &address);
    let report = b.open(&address, rate, connections, cycle(requests.clone()));
    if report.failures > 0 {
        b.problems.push(format!(
            "saturation: {} requests without answer; first: {}",
            report.failures,
            report.first_problem.as_deref().unwrap_or("none")
        ));
    }
    let refused: u64 = report.statuses.iter().filter(|(s, _)| !(200..300).contains(*s)).map(|(_, n)| n).sum();
    let statuses: Vec<String> = report
        .statuses
        .iter()
        .filter(|(s, _)| !(200..300).contains(*s))
        .map(|(s, n)| format!("{}× {s}", thousands(*n)))
        .collect();
    let p99 = report.quantile(0.99);
    b.bare.reply_with(report.sample.as_ref().map_or(64, Vec::len));
    let bare = b.open(&b.bare.address.to_string(), rate, connections, cycle(requests));
    let bare_p99 = bare.quantile(0.99).unwrap_or_default();
    let bounded =
        refused > 0 && report.with_retry_after == refused && p99.is_some_and(|p| p.as_secs_f64() < 1.0);
    b.rows.push(
        Row::new(
            format!(
                "Past saturation: {} msgs/s offered on {connections} connections",
                thousands(rate as u64)
            ),
            "429/503 with Retry-After; accepted p99 < 1 s",
        )
        .figure(
            format!(
                "{} accepted/s, p99 {}; refused: {} ({} with Retry-After)",
                thousands(report.accepted_per_second() as u64),
                shown(p99),
                if statuses.is_empty() { "none".to_owned() } else { statuses.join(", ") },
                report.with_retry_after
            ),
            Verdict::of(bounded),
        )
        .cost_ceiling(
            format!("bare HTTP p99 {}", shown(Some(bare_p99))),
            ms(p99.unwrap_or_default()),
            ms(bare_p99),
        ),
    );
}

/// The same sends, one after another, from a sender with thousands of followed topics and
/// from one with none, in a channel of two.
pub(super) fn followed_topics(b: &mut Bench<'_>) {
    let address = b.address();
    let channel = b.seeded.summary["send_cost_channel"].as_str().unwrap_or("send cost").to_owned();
    let followed = b.seeded.summary["followed_topics"].as_u64().unwrap_or(0);
    let calls = b.config.calls as u64;
    let p50 = |field: &str, b: &mut Bench<'_>| {
        let authorization = b.authorization_of(field);
        let requests: Vec<RequestBytes> = (0..calls)
            .map(|n| {
                let content =
                    format!("Send cost check {n}: is this any slower for someone who follows a lot?");
                let params = [
                    ("type", "stream"),
                    ("to", channel.as_str()),
                    ("topic", "send cost check"),
                    ("content", &content),
                ];
                load::build(&address, "POST", "/api/v1/messages", Some(&authorization), &params)
            })
            .collect();
        let requests = Arc::new(vec![requests]);
        let report = b.closed(&address, 1, calls, cycle(requests));
        b.expect_success("followed", &report);
        report.quantile(0.5).unwrap_or_default()
    };
    let plain = p50("plain_sender_email", b);
    let follower = p50("follower_email", b);
    let ratio = ms(follower) / ms(plain).max(1e-9);
    b.rows.push(
        Row::new(
            format!("Send cost, {} followed topics vs none", thousands(followed)),
            "independent of topic preferences (≤ 1.2×)",
        )
        .figure(
            format!("p50 {} vs {} ({ratio:.2}×)", shown(Some(follower)), shown(Some(plain))),
            Verdict::of(ratio <= 1.2),
        )
        .cost_ceiling(format!("no preferences: {}", shown(Some(plain))), ms(follower), ms(plain)),
    );
}
