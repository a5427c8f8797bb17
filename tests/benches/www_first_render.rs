//! The browser client's speed on a large organization (issue 15): 1,000 channels, 10,000
//! users and 100,000 messages (`confab_tests::seed`, cached under the target directory), served
//! by the release server on localhost from a copy of the seeded directory; prints figures,
//! asserts nothing. `tests/js/www_first_render.mjs` measures, in Debian's Chromium driven by
//! Playwright:
//!
//! - register, as the client's engine asks it (`confab_core::client::register_params`), for
//!   the benchmark user: time (median) and response size;
//! - navigation to the first rendered message list, cold (a fresh browser profile, logging in
//!   through the login page) and warm (a new navigation with the service worker's shell and
//!   the IndexedDB snapshot), medians, and where the time goes;
//! - the app shell's transfer size with gzip: as the browser received it, and each asset
//!   fetched with `Accept-Encoding: gzip`.
//!
//! Run: `cargo bench -p confab-tests --bench www_first_render`. The first run seeds the
//! organization (about five minutes, 2 GB); `CONFAB_BENCH_RUNS` sets the runs per median
//! (default 5). Needs Chromium at /usr/bin/chromium (or `CONFAB_CHROMIUM`); `npm ci` in tests/js
//! is run here.

use std::time::Instant;

use confab_tests::TestServer;
use confab_tests::seed::{self, BENCH_PASSWORD, Shape};

fn main() {
    let runs: usize = std::env::var("CONFAB_BENCH_RUNS").ok().and_then(|r| r.parse().ok()).unwrap_or(5);
    let started = Instant::now();
    let seeded = seed::cached(Shape::LARGE);
    let summary = &seeded.summary;
    println!(
        "organization ready in {:.0} s (seeded in {} s): {} channels, {} users, {} messages; \
         {} subscriptions, {} message rows; {} in {} channels with {} unread",
        started.elapsed().as_secs_f64(),
        summary["total_seconds"],
        summary["shape"]["channels"],
        summary["shape"]["users"],
        summary["shape"]["messages"],
        summary["subscriptions"],
        summary["receiver_rows"],
        seeded.email,
        summary["bench_channels"],
        summary["bench_unread"],
    );

    // A copy, so the cached directory stays as seeded (the client marks messages read).
    let dir = tempfile::tempdir().expect("a temporary directory");
    let data_dir = dir.path().join("data");
    let started = Instant::now();
    seed::copy_data_dir(&seeded.data_dir, &data_dir);
    println!("copied the data directory in {:.1} s", started.elapsed().as_secs_f64());
    let started = Instant::now();
    let server = TestServer::spawn(
        std::path::Path::new(env!("CARGO_BIN_EXE_confab-under-test")),
        &data_dir,
        "127.0.0.1:0",
        &["--external-host", "127.0.0.1"],
    );
    println!("server started in {:.1} s at {}", started.elapsed().as_secs_f64(), server.base_url);

    confab_tests::web::install_js_packages();
    let register_params = serde_json::to_string(&confab_core::client::register_params()).expect("JSON");
    let status = std::process::Command::new("node")
        .arg(confab_tests::workspace_root().join("tests/js/www_first_render.mjs"))
        .env("CONFAB_SITE", &server.base_url)
        .env("CONFAB_EMAIL", &seeded.email)
        .env("CONFAB_PASSWORD", BENCH_PASSWORD)
        .env("CONFAB_API_KEY", &seeded.api_key)
        .env("CONFAB_REGISTER_PARAMS", register_params)
        .env("CONFAB_BENCH_RUNS", runs.to_string())
        .status()
        .expect("node runs");
    assert!(status.success(), "the browser benchmark failed");
}
