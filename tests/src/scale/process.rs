//! The server as a process: how fast it starts on a large database after a clean stop and
//! after SIGKILL, what it keeps resident, whether it keeps connections alive, and what
//! unauthenticated clients can make it hold.

use std::time::{Duration, Instant};

use super::{Bench, Row, Verdict, file_size, megabytes, ms, thousands};
use crate::TestServer;
use crate::load::{self, Connection, NextRequest, RequestBytes};

/// Starts the server on the dataset's copy; the time until it listens.
fn timed_start(b: &mut Bench<'_>) -> Duration {
    let at = Instant::now();
    let server = TestServer::spawn(&b.config.binary, &b.data_dir, "127.0.0.1:0", &[]);
    let took = at.elapsed();
    b.server = Some(server);
    took
}

/// redb opening the same file (closed cleanly), in this process: the ceiling for a start.
fn redb_open(b: &Bench<'_>) -> Duration {
    let at = Instant::now();
    let db = redb::Database::open(b.data_dir.join(confab_server::store::DB_FILE));
    let took = at.elapsed();
    drop(db);
    took
}

/// Start after a clean stop: the seeder's close, then the server's own SIGTERM.
pub(super) fn start(b: &mut Bench<'_>) {
    if let Some(mut server) = b.server.take() {
        server.terminate();
    }
    let open = redb_open(b);
    b.clean_open = Some(open);
    let first = timed_start(b);
    let status = b.server.as_mut().map(TestServer::terminate);
    let again = timed_start(b);
    let rss = b.server_rss();
    b.rows.push(
        Row::new(
            format!("Start with {} messages after a clean stop", thousands(b.config.shape.messages as u64)),
            "< 200 ms",
        )
        .figure(
            format!(
                "{:.0} ms after SIGTERM ({}), {:.0} ms after the seeder's close; {} resident",
                ms(again),
                status.map_or("not running".to_owned(), |s| s.to_string()),
                ms(first),
                megabytes(rss as f64)
            ),
            Verdict::of(ms(again) < 200.0),
        )
        .cost_ceiling(format!("redb opens the file in {:.1} ms", ms(open)), ms(again), ms(open)),
    );
}

/// Start after SIGKILL, after the other workloads have written.
pub(super) fn crash_start(b: &mut Bench<'_>) {
    b.server();
    if let Some(mut server) = b.server.take() {
        server.kill();
    }
    let took = timed_start(b);
    // The ceiling: redb opening the dataset's file as the seeder closed it (cleanly), as the
    // start workload measured it; else opening the file as the server leaves it.
    let open = match b.clean_open {
        Some(open) => open,
        None => {
            if let Some(mut server) = b.server.take() {
                server.terminate();
            }
            redb_open(b)
        }
    };
    b.rows.push(
        Row::new(
            format!("Start with {} messages after SIGKILL", thousands(b.config.shape.messages as u64)),
            "< 2 s",
        )
        .figure(format!("{:.0} ms", ms(took)), Verdict::of(took < Duration::from_secs(2)))
        .cost_ceiling(format!("redb opens it clean in {:.1} ms", ms(open)), ms(took), ms(open)),
    );
}

/// Resident memory of the server that has served every workload before this one.
pub(super) fn memory(b: &mut Bench<'_>) {
    let rss = b.server_rss() as f64;
    let database = file_size(&b.data_dir.join(confab_server::store::DB_FILE)) as f64;
    b.rows.push(
        Row::new(
            format!(
                "Resident memory with {} messages, after the workloads above",
                thousands(b.config.shape.messages as u64)
            ),
            "< 300 MB",
        )
        .figure(megabytes(rss), Verdict::of(rss < 300e6))
        .cost_ceiling(format!("database file {:.2} GB", database / 1e9), rss, database),
    );
}

/// Whether a second request on one connection is served there, endpoint by endpoint.
pub(super) fn keep_alive(b: &mut Bench<'_>) {
    let address = b.address();
    let bench = b.bench_authorization();
    let plain = b.authorization_of("plain_sender_email");
    let channel = b.seeded.summary["send_cost_channel"].as_str().unwrap_or("send cost").to_owned();
    let requests: Vec<(&str, RequestBytes)> = vec![
        ("GET /server_settings", load::build(&address, "GET", "/api/v1/server_settings", None, &[])),
        (
            "POST /messages",
            load::build(
                &address,
                "POST",
                "/api/v1/messages",
                Some(&plain),
                &[("type", "stream"), ("to", &channel), ("topic", "keep-alive"), ("content", "Still there?")],
            ),
        ),
        (
            "GET /messages",
            load::build(
                &address,
                "GET",
                "/api/v1/messages",
                Some(&bench),
                &[("anchor", "newest"), ("num_before", "5"), ("num_after", "0")],
            ),
        ),
        (
            "POST /users/me/presence",
            load::build(&address, "POST", "/api/v1/users/me/presence", Some(&bench), &[("status", "active")]),
        ),
        (
            "POST /register",
            load::build(
                &address,
                "POST",
                "/api/v1/register",
                Some(&bench),
                &[("event_types", r#"["message"]"#)],
            ),
        ),
        ("GET / (web client)", load::build(&address, "GET", "/", None, &[])),
    ];
    let mut closed = Vec::new();
    for (name, request) in &requests {
        match b.runtime.block_on(second_request_served(&address, request)) {
            Ok(true) => {}
            Ok(false) => closed.push((*name).to_owned()),
            Err(e) => {
                b.problems.push(format!("keepalive: {name}: {e}"));
                closed.push(format!("{name} (failed)"));
            }
        }
    }
    b.bare.reply_with(64);
    let bare_kept = b
        .runtime
        .block_on(second_request_served(&b.bare.address.to_string(), &requests[0].1))
        .unwrap_or(false);
    let kept = requests.len() - closed.len();
    let figure = if closed.is_empty() {
        format!("all {kept} endpoints served a second request on the same connection")
    } else {
        format!("{kept} of {} kept; closed after: {}", requests.len(), closed.join(", "))
    };
    let mut row =
        Row::new("HTTP keep-alive", "keep-alive everywhere").figure(figure, Verdict::of(closed.is_empty()));
    row.ceiling = format!("bare HTTP: {}", if bare_kept { "kept" } else { "closed" });
    row.ratio = format!("{kept}/{}", requests.len());
    b.rows.push(row);
}

/// Sends `request` twice on one connection: whether the second was answered there.
async fn second_request_served(address: &str, request: &[u8]) -> std::io::Result<bool> {
    let mut connection = Connection::open(address).await?;
    let first = connection.exchange(request).await?;
    if first.closes {
        return Ok(false);
    }
    Ok(connection.exchange(request).await.is_ok())
}

/// Waves of concurrent wrong logins against a fresh server, then one burst: the resident
/// memory they leave above idle.
pub(super) fn logins(b: &mut Bench<'_>) {
    let server = TestServer::start(&b.config.binary.to_string_lossy());
    let address = server.base_url.trim_start_matches("http://").to_owned();
    let email = server.owner().email;
    let request = load::build(
        &address,
        "POST",
        "/api/v1/fetch_api_key",
        None,
        &[("username", &email), ("password", "not-the-password")],
    );
    let next: NextRequest = std::sync::Arc::new(move |_, _| request.clone());
    let (waves, size, burst) = b.config.logins;
    let idle = load::rss_bytes(server.pid()) as f64;
    let mut peak = idle;
    let mut statuses = std::collections::BTreeMap::<u16, u64>::new();
    let mut after_waves = idle;
    let long = Duration::from_secs(600);
    for round in 0..=waves {
        let connections = if round == waves { burst } else { size };
        let report =
            b.runtime.block_on(load::closed_loop_counted(&address, connections, long, 1, next.clone()));
        if report.failures > 0 {
            b.problems.push(format!(
                "logins: {} without answer; first: {}",
                report.failures,
                report.first_problem.as_deref().unwrap_or("none")
            ));
        }
        for (status, n) in report.statuses {
            *statuses.entry(status).or_default() += n;
        }
        let rss = load::rss_bytes(server.pid()) as f64;
        peak = peak.max(rss);
        if round + 1 == waves {
            after_waves = rss;
        }
    }
    let settled = load::rss_bytes(server.pid()) as f64;
    let answered: Vec<String> = statuses.iter().map(|(s, n)| format!("{n}× {s}")).collect();
    b.rows.push(
        Row::new(
            format!("RSS under wrong logins: {waves} waves of {size}, then {burst}"),
            "≤ 100 MB above idle",
        )
        .figure(
            format!(
                "+{} after the waves, +{} after the burst (idle {}; answers {})",
                megabytes(after_waves - idle),
                megabytes(settled - idle),
                megabytes(idle),
                answered.join(", ")
            ),
            Verdict::of(peak - idle <= 100e6),
        ),
    );
}
