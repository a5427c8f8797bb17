//! Presence check-ins on an organization of 10,000 users: how many a release server answers
//! per second when each client sends the `presence_last_update_id` of its previous answer, as
//! Zulip's web app does every minute.
//!
//! A seeded organization (10,000 users, `seed::cached`) is copied and served. Everyone comes
//! online first (`ping_only`), and every client starts from the sequence a register would
//! give it. Then `CONNECTIONS` keep-alive connections check in as fast as they are answered,
//! each going round its own share of `CLIENTS` users, for `SECONDS`. With all 10,000 users
//! and a run longer than 55 seconds, the second half sees everyone's presence move again
//! (a check-in writes once a time is 55 seconds old), so answers carry thousands of changes.
//!
//! Run: `cargo bench -p confab-tests --bench presence_pings` (environment: `CLIENTS`,
//! `CONNECTIONS`, `SECONDS`; defaults 10,000, 64, 75). Prints figures, asserts nothing.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use confab_core::ids::RealmId;
use confab_core::store::Store as _;
use confab_tests::TestServer;
use confab_tests::seed::{self, Shape};
use serde_json::Value;

const USERS: usize = 10_000;

fn setting(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Every human's email and API key, read from the stopped copy.
fn credentials(data_dir: &std::path::Path) -> Vec<(String, String)> {
    let store = confab_server::store::Store::open(data_dir).expect("the copy opens");
    store
        .read(|tables| {
            let mut all = Vec::new();
            let realm = tables.realms()?.first().map_or(RealmId(1), |r| r.id);
            for user in tables.realm_users(realm)? {
                if user.is_active && !user.is_bot() {
                    let key = tables.credentials(user.id)?.map(|c| c.api_key).unwrap_or_default();
                    all.push((user.delivery_email, key));
                }
            }
            Ok(all)
        })
        .expect("the users read")
}

struct Totals {
    pings: AtomicU64,
    entries: AtomicU64,
    bytes: AtomicU64,
    failures: AtomicU64,
    latencies_us: std::sync::Mutex<Vec<u64>>,
}

fn main() {
    let clients = setting("CLIENTS", USERS);
    let connections = setting("CONNECTIONS", 64);
    let seconds = setting("SECONDS", 75) as u64;
    let shape = Shape { channels: 2, users: USERS, messages: 100, bench_channels: 1, ..Shape::LARGE };
    let seeded = seed::cached(shape);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let data_dir = dir.path().join("data");
    seed::copy_data_dir(&seeded.data_dir, &data_dir);
    let mut everyone = credentials(&data_dir);
    everyone.truncate(clients);
    let server = TestServer::spawn(
        std::path::Path::new(env!("CARGO_BIN_EXE_confab-under-test")),
        &data_dir,
        "127.0.0.1:0",
        &[],
    );
    let base = format!("{}/api/v1/users/me/presence", server.base_url);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime");
    runtime.block_on(async move {
        let http = reqwest::Client::builder().pool_max_idle_per_host(connections).build().expect("a client");
        let started = Instant::now();
        let everyone = Arc::new(everyone);
        let came_online = run_all(connections, everyone.len(), |i| {
            let (http, base, everyone) = (http.clone(), base.clone(), everyone.clone());
            async move {
                let (email, key) = &everyone[i];
                let params = [("status", "active"), ("ping_only", "true")];
                http.post(&base).basic_auth(email, Some(key)).form(&params).send().await.is_ok()
            }
        })
        .await;
        println!(
            "{came_online} of {} users came online (ping_only) in {:.1} s",
            everyone.len(),
            started.elapsed().as_secs_f64()
        );
        // Where a register now would start every client.
        let (email, key) = &everyone[0];
        let first: Value = http
            .post(&base)
            .basic_auth(email, Some(key))
            .form(&[("status", "active"), ("last_update_id", "-1")])
            .send()
            .await
            .expect("a full answer")
            .json()
            .await
            .expect("JSON");
        let start = first["presence_last_update_id"].as_i64().unwrap_or(-1);
        let full = first.to_string().len();
        println!(
            "a full answer: {} presences, {full} bytes; the sequence stands at {start}",
            first["presences"].as_object().map_or(0, |p| p.len())
        );

        let totals = Arc::new(Totals {
            pings: AtomicU64::new(0),
            entries: AtomicU64::new(0),
            bytes: AtomicU64::new(0),
            failures: AtomicU64::new(0),
            latencies_us: std::sync::Mutex::new(Vec::new()),
        });
        let deadline = Instant::now() + Duration::from_secs(seconds);
        let began = Instant::now();
        let mut tasks = Vec::new();
        for c in 0..connections {
            let (http, base, everyone, totals) = (http.clone(), base.clone(), everyone.clone(), totals.clone());
            tasks.push(tokio::spawn(async move {
                let mine: Vec<usize> = (c..everyone.len()).step_by(connections).collect();
                let mut last_ids = vec![start; mine.len()];
                let mut latencies = Vec::new();
                'run: loop {
                    for (slot, &user) in mine.iter().enumerate() {
                        if Instant::now() >= deadline {
                            break 'run;
                        }
                        let (email, key) = &everyone[user];
                        let last = last_ids[slot].to_string();
                        let sent = Instant::now();
                        let answer = http
                            .post(&base)
                            .basic_auth(email, Some(key))
                            .form(&[("status", "active"), ("last_update_id", last.as_str())])
                            .send()
                            .await;
                        let Ok(answer) = answer else {
                            totals.failures.fetch_add(1, Ordering::Relaxed);
                            continue;
                        };
                        let Ok(bytes) = answer.bytes().await else {
                            totals.failures.fetch_add(1, Ordering::Relaxed);
                            continue;
                        };
                        latencies.push(sent.elapsed().as_micros() as u64);
                        let body: Value = serde_json::from_slice(&bytes).unwrap_or_default();
                        let Some(id) = body["presence_last_update_id"].as_i64() else {
                            totals.failures.fetch_add(1, Ordering::Relaxed);
                            continue;
                        };
                        last_ids[slot] = id;
                        let entries = body["presences"].as_object().map_or(0, |p| p.len());
                        totals.pings.fetch_add(1, Ordering::Relaxed);
                        totals.entries.fetch_add(entries as u64, Ordering::Relaxed);
                        totals.bytes.fetch_add(bytes.len() as u64, Ordering::Relaxed);
                    }
                }
                totals.latencies_us.lock().expect("latencies").extend(latencies);
            }));
        }
        for task in tasks {
            task.await.expect("a load task");
        }
        let elapsed = began.elapsed().as_secs_f64();
        let pings = totals.pings.load(Ordering::Relaxed);
        let mut latencies = std::mem::take(&mut *totals.latencies_us.lock().expect("latencies"));
        latencies.sort_unstable();
        let at = |q: f64| latencies.get(((latencies.len() as f64 - 1.0) * q) as usize).copied().unwrap_or(0);
        println!(
            "{pings} check-ins with last_update_id in {elapsed:.1} s: {:.0}/s over {connections} connections and \
             {} users; {:.1} presences and {:.0} bytes per answer on average; p50 {:.1} ms, p99 {:.1} ms; \
             {} failures",
            pings as f64 / elapsed,
            everyone.len(),
            totals.entries.load(Ordering::Relaxed) as f64 / pings.max(1) as f64,
            totals.bytes.load(Ordering::Relaxed) as f64 / pings.max(1) as f64,
            at(0.5) as f64 / 1000.0,
            at(0.99) as f64 / 1000.0,
            totals.failures.load(Ordering::Relaxed),
        );
    });
    drop(server);
}

/// Runs `work(0..count)` with at most `concurrency` at a time; counts the successes.
async fn run_all<F, Fut>(concurrency: usize, count: usize, work: F) -> usize
where
    F: Fn(usize) -> Fut,
    Fut: std::future::Future<Output = bool> + Send + 'static,
{
    let mut set = tokio::task::JoinSet::new();
    let mut ok = 0;
    for i in 0..count {
        if set.len() >= concurrency
            && let Some(done) = set.join_next().await
        {
            ok += usize::from(done.unwrap_or(false));
        }
        set.spawn(work(i));
    }
    while let Some(done) = set.join_next().await {
        ok += usize::from(done.unwrap_or(false));
    }
    ok
}
