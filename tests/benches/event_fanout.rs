//! How long one message takes to reach N waiting long-polls, and what a waiting queue costs
//! (`confab_tests::scale::measure_fanout` describes the measurement; the scale suite runs it
//! too).
//!
//! Run: `cargo bench -p confab-tests --bench event_fanout` (or `... -- 1000 5000`). Needs
//! twice N file descriptors between the two processes (`ulimit -n`).

use std::path::Path;
use std::time::Duration;

use confab_tests::scale::measure_fanout;

/// Goals from the real-time issue.
const GOAL_FANOUT_10K: Duration = Duration::from_millis(250);
const GOAL_BYTES_PER_QUEUE: u64 = 8 * 1024;

fn main() {
    let counts: Vec<usize> = {
        let given: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
        if given.is_empty() { vec![1_000, 10_000] } else { given }
    };
    println!("event fan-out: one message to N waiting long-polls (release build, separate server process)");
    for n in counts {
        let figures = measure_fanout(Path::new(env!("CARGO_BIN_EXE_confab-under-test")), n);
        println!(
            "N = {n:>6}: last poll answered {:>7.1} ms after the send (median {:.1} ms; send request {:.1} ms); \
             {:>5} bytes per waiting queue ({} for the queue alone; an idle HTTP connection costs {})",
            ms(figures.last_delivery),
            ms(figures.median_delivery),
            ms(figures.send_request),
            figures.bytes_per_queue,
            figures.registered_bytes_per_queue,
            figures.idle_connection_bytes,
        );
        if n == 10_000 {
            let fan = if figures.last_delivery <= GOAL_FANOUT_10K { "met" } else { "MISSED" };
            let whole = if figures.bytes_per_queue <= GOAL_BYTES_PER_QUEUE { "met" } else { "MISSED" };
            let queue =
                if figures.registered_bytes_per_queue <= GOAL_BYTES_PER_QUEUE { "met" } else { "MISSED" };
            println!(
                "  goals: 10,000 within 250 ms: {fan}; at most 8 KB per waiting queue: {queue} for the queue, \
                 {whole} with its waiting request and HTTP connection"
            );
        }
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
