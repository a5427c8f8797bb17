//! confab-web's engine (WebAssembly, in Node) on a large organization: a release server is
//! seeded with 5,000 channel messages over the API, then `tests/js/bench_engine.mjs` caches
//! them in a `Client`, grows the register state in its snapshot to 10,000 users (copies of a
//! real user record: creating 10,000 accounts over the API costs 10,000 argon2 hashes, about
//! twenty minutes here, and measures the server, not the engine), and measures restoring the
//! snapshot, applying events and rendering a 1 KB message, and prints the figures.
//!
//! Run: `cargo bench -p confab-tests --bench web_engine` (builds the npm package first, as the
//! tests do, unless `CONFAB_WEB_PACKAGE` names a built one).

use std::sync::atomic::{AtomicUsize, Ordering};

use confab_tests::TestServer;
use serde_json::json;

const USERS: usize = 10_000;
const MESSAGES: usize = 5_000;
const SEEDING_THREADS: usize = 4;

fn main() {
    let started = std::time::Instant::now();
    let package = confab_tests::web::package();
    println!("confab-web built in {:.0} s", started.elapsed().as_secs_f64());
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let started = std::time::Instant::now();
    // A channel of its own, so each send writes one user's row, not 10,000.
    server.api().subscribe(&owner, &["bench"], &[owner.email.as_str()]);
    let topics: Vec<String> = (0..100).map(|t| format!("topic {t}")).collect();
    in_parallel(MESSAGES, |i| {
        let content = format!(
            "Message {i}: **some** words about `the plan`, a link https://example.com/{i} and :smile:.\n\n> a quote"
        );
        let params = [("type", "stream"), ("to", "bench"), ("topic", topics[i % topics.len()].as_str())];
        let mut params = params.to_vec();
        params.push(("content", &content));
        server.api().post("/messages", Some(&owner), &params).ok();
    });
    println!("seeded {MESSAGES} messages in {:.0} s", started.elapsed().as_secs_f64());

    let users = json!({"owner": {"email": owner.email, "apiKey": owner.api_key}});
    let root = confab_tests::workspace_root();
    let status = std::process::Command::new("node")
        .arg(root.join("tests/js/bench_engine.mjs"))
        .env("CONFAB_WEB_PACKAGE", package)
        .env("CONFAB_SITE", &server.base_url)
        .env("CONFAB_USERS", users.to_string())
        .env("CONFAB_BENCH_USERS", USERS.to_string())
        .status()
        .expect("node runs");
    assert!(status.success(), "the Node benchmark failed");
}

/// Runs `work(0..count)` on a few threads (the server commits each request on its own).
fn in_parallel(count: usize, work: impl Fn(usize) + Sync) {
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..SEEDING_THREADS {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= count {
                        break;
                    }
                    work(i);
                }
            });
        }
    });
}
