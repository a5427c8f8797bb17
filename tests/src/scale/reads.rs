//! Reading: register and what its queues keep, presence pings, a page of messages, and
//! marking a large unread history read.

use std::sync::Arc;
use std::time::Instant;

use super::{Bench, Row, Verdict, megabytes, ms, thousands};
use crate::load::{self, NextRequest, RequestBytes};

fn repeat(request: RequestBytes) -> NextRequest {
    Arc::new(move |_, _| request.clone())
}

/// A per-call figure and a p99 at `concurrent` connections for one request, each next to the
/// bare server moving the same bytes under the same loops. Returns (figure's p50, p99 at
/// concurrency, bare p50, bare p99, answer bytes, requests answered).
fn per_call_and_concurrent(
    b: &mut Bench<'_>,
    workload: &str,
    request: RequestBytes,
    sequential: u64,
    concurrent: usize,
    per_connection: u64,
) -> Option<[f64; 6]> {
    let address = b.address();
    let single = b.closed(&address, 1, sequential, repeat(request.clone()));
    b.expect_success(workload, &single);
    let parallel = b.closed(&address, concurrent, per_connection, repeat(request.clone()));
    b.expect_success(workload, &parallel);
    let bytes = single.sample.as_ref().map_or(64, Vec::len);
    b.bare.reply_with(bytes);
    let bare = b.bare.address.to_string();
    let bare_single = b.closed(&bare, 1, sequential, repeat(request.clone()));
    let bare_parallel = b.closed(&bare, concurrent, per_connection, repeat(request));
    Some([
        ms(single.quantile(0.5)?),
        ms(parallel.quantile(0.99)?),
        ms(bare_single.quantile(0.5)?),
        ms(bare_parallel.quantile(0.99)?),
        bytes as f64,
        (single.accepted.len() + parallel.accepted.len()) as f64,
    ])
}

/// Register as the web app asks it, for the benchmark user; then what the queues it left
/// cost the server.
pub(super) fn register(b: &mut Bench<'_>) {
    let address = b.address();
    let params = [
        ("apply_markdown", "true"),
        ("client_gravatar", "true"),
        ("slim_presence", "true"),
        ("include_subscribers", "false"),
        (
            "client_capabilities",
            r#"{"notification_settings_null":true,"bulk_message_deletion":true,"user_avatar_url_field_optional":true,"stream_typing_notifications":true,"user_settings_object":true,"linkifier_url_template":true,"user_list_incomplete":false,"include_deactivated_groups":true,"archived_channels":true,"empty_topic_name":true}"#,
        ),
    ];
    let request = load::build(&address, "POST", "/api/v1/register", Some(&b.bench_authorization()), &params);
    let (sequential, concurrent, each) = b.config.registers;
    let before = b.server_rss();
    let Some([p50, p99, bare_p50, bare_p99, bytes, queues]) =
        per_call_and_concurrent(b, "register", request, sequential as u64, concurrent, each as u64)
    else {
        b.rows.push(
            Row::new("Register, 10,000 users", "< 50 ms p50; < 150 ms p99 at 8")
                .figure("failed", Verdict::Unknown),
        );
        return;
    };
    let after = b.server_rss();
    let users = thousands(b.config.shape.users as u64);
    b.rows.push(
        Row::new(format!("Register, {users} users, one at a time ({})", megabytes(bytes)), "p50 < 50 ms")
            .figure(format!("p50 {p50:.1} ms"), Verdict::of(p50 < 50.0))
            .cost_ceiling(format!("bare HTTP, same bytes: p50 {bare_p50:.1} ms"), p50, bare_p50),
    );
    b.rows.push(
        Row::new(format!("Register, {users} users, {concurrent} concurrent"), "p99 < 150 ms")
            .figure(format!("p99 {p99:.0} ms"), Verdict::of(p99 < 150.0))
            .cost_ceiling(format!("bare HTTP, same bytes: p99 {bare_p99:.1} ms"), p99, bare_p99),
    );
    let per_queue = after.saturating_sub(before) as f64 / queues.max(1.0);
    b.rows.push(
        Row::new(format!("Memory per idle registered queue ({queues:.0} registers)"), "≤ 8 KB per queue")
            .figure(
                format!(
                    "{:.1} KB per queue (RSS {} → {})",
                    per_queue / 1e3,
                    megabytes(before as f64),
                    megabytes(after as f64)
                ),
                Verdict::of(per_queue <= 8_192.0),
            ),
    );
}

/// Presence pings from many users in turn, with `last_update_id` once the server announces
/// `presence_last_update_id`.
pub(super) fn presence(b: &mut Bench<'_>) {
    let address = b.address();
    let users: Vec<String> =
        b.traffic.users().iter().map(|u| load::basic_authorization(&u.email, &u.api_key)).collect();
    let ping = |authorization: &str, last_update_id: Option<&str>| {
        let mut params = vec![("status", "active"), ("slim_presence", "true"), ("new_user_input", "true")];
        if let Some(id) = last_update_id {
            params.push(("last_update_id", id));
        }
        load::build(&address, "POST", "/api/v1/users/me/presence", Some(authorization), &params)
    };
    // A first ping tells whether the server keeps presence ids.
    let first = b.closed(&address, 1, 1, repeat(ping(&users[0], None)));
    let announced = first.sample.as_ref().and_then(|body| {
        let value: serde_json::Value = serde_json::from_slice(body).ok()?;
        value["presence_last_update_id"].as_i64()
    });
    let id_text = announced.map(|id| id.to_string());
    let requests: Vec<RequestBytes> = users.iter().map(|u| ping(u, id_text.as_deref())).collect();
    let requests = Arc::new(requests);
    let connections = 16.min(b.config.connections);
    let next: NextRequest = {
        let requests = requests.clone();
        Arc::new(move |k, n| requests[(n as usize * 16 + k) % requests.len()].clone())
    };
    let report = b.closed(&address, connections, u64::MAX, next.clone());
    b.expect_success("presence", &report);
    let bytes = report.sample.as_ref().map_or(64, Vec::len);
    b.bare.reply_with(bytes);
    let bare = b.closed(&b.bare.address.to_string(), connections, u64::MAX, next);
    let rate = report.accepted_per_second();
    let how =
        if announced.is_some() { "with last_update_id" } else { "no presence_last_update_id announced" };
    b.rows.push(
        Row::new(
            format!(
                "Presence pings, {} users, {connections} connections ({how})",
                thousands(users.len() as u64)
            ),
            "≥ 500 pings/s",
        )
        .figure(
            format!("{} pings/s, {} per answer", thousands(rate as u64), size(bytes)),
            Verdict::of(rate >= 500.0),
        )
        .rate_ceiling(
            format!("bare HTTP, same bytes: {} /s", thousands(bare.accepted_per_second() as u64)),
            rate,
            bare.accepted_per_second(),
        ),
    );
}

/// A page of 100 messages in the benchmark user's home view, newest first, as the web app
/// asks it.
pub(super) fn messages(b: &mut Bench<'_>) {
    let address = b.address();
    let params = [
        ("anchor", "newest"),
        ("num_before", "100"),
        ("num_after", "0"),
        ("apply_markdown", "true"),
        ("client_gravatar", "true"),
        ("narrow", "[]"),
    ];
    let request = load::build(&address, "GET", "/api/v1/messages", Some(&b.bench_authorization()), &params);
    let calls = b.config.calls as u64;
    let Some([p50, p99, bare_p50, bare_p99, bytes, _]) =
        per_call_and_concurrent(b, "messages", request, calls, 8, calls)
    else {
        b.rows.push(
            Row::new("GET /messages, 100 messages", "< 0.5 ms per call").figure("failed", Verdict::Unknown),
        );
        return;
    };
    b.rows.push(
        Row::new(
            format!("GET /messages, 100 messages ({}), one at a time", size(bytes as usize)),
            "< 0.5 ms per call",
        )
        .figure(format!("p50 {p50:.2} ms"), Verdict::of(p50 < 0.5))
        .cost_ceiling(format!("bare HTTP, same bytes: {bare_p50:.2} ms"), p50, bare_p50),
    );
    b.rows.push(
        Row::new("GET /messages, 100 messages, 8 concurrent", "p99 < 5 ms")
            .figure(format!("p99 {p99:.1} ms"), Verdict::of(p99 < 5.0))
            .cost_ceiling(format!("bare HTTP, same bytes: p99 {bare_p99:.2} ms"), p99, bare_p99),
    );
}

/// The reader (in the benchmark user's channels, with nothing read) marks everything read.
pub(super) fn mark_read(b: &mut Bench<'_>) {
    let address = b.address();
    let unread = b.seeded.summary["reader_unread"].as_u64().unwrap_or(0);
    let request = load::build(
        &address,
        "POST",
        "/api/v1/mark_all_as_read",
        Some(&b.authorization_of("reader_email")),
        &[],
    );
    let at = Instant::now();
    let report = b.closed(&address, 1, 1, repeat(request));
    let took = at.elapsed();
    b.expect_success("mark_read", &report);
    let ceiling = load::redb_bulk_update(&b.config.out_dir.join("work"), unread.max(1));
    b.rows.push(
        Row::new(format!("Mark {} messages read (mark_all_as_read)", thousands(unread)), "< 300 ms for 100k")
            .figure(
                format!("{:.0} ms", ms(took)),
                Verdict::of(ms(took) < 300.0 * (unread as f64 / 100_000.0).max(0.01)),
            )
            .cost_ceiling(
                format!("redb: {:.0} ms to rewrite as many flag rows", ms(ceiling)),
                ms(took),
                ms(ceiling),
            ),
    );
}

fn size(bytes: usize) -> String {
    if bytes >= 1_000_000 {
        format!("{:.1} MB", bytes as f64 / 1e6)
    } else {
        format!("{:.1} KB", bytes as f64 / 1e3)
    }
}
