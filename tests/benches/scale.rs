//! Issue 16's benchmark suite (`confab_tests::scale`): every workload of its table with its
//! goal, a ceiling measured in the same run and the ratio, on 1,000,000 messages and 10,000
//! users. Prints the table and writes it to `target/bench/scale.md`.
//!
//! ```sh
//! cargo bench -p confab-tests --bench scale                      # everything, full size
//! cargo bench -p confab-tests --bench scale -- --quick           # a small organization
//! cargo bench -p confab-tests --bench scale -- sends register    # some workloads
//! cargo bench -p confab-tests --bench scale -- --messages 100000 --seconds 5
//! ```
//!
//! Workloads: start, keepalive, sends, latency, saturation, register, presence, messages,
//! followed, mark_read, memory, crash_start, logins, fanout. The first run builds the dataset
//! (kept under `target/bench/datasets/` for the next).

use std::path::Path;
use std::time::Duration;

use confab_tests::scale::{self, Config, WORKLOADS};

fn main() {
    let binary = Path::new(env!("CARGO_BIN_EXE_confab-under-test"));
    let mut config = Config::full(binary);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut number = |what: &str| -> f64 {
            args.next().and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("{what} takes a number"))
        };
        match arg.as_str() {
            "--quick" => {
                let out_dir = config.out_dir.clone();
                config = Config { only: config.only, ..Config::smallest(binary, &out_dir) };
            }
            "--messages" => config.shape.messages = number("--messages") as usize,
            "--users" => config.shape.users = number("--users") as usize,
            "--seconds" => config.phase = Duration::from_secs_f64(number("--seconds")),
            "--connections" => config.connections = number("--connections") as usize,
            "--bench" => {} // cargo bench passes it to harness = false targets
            name if WORKLOADS.contains(&name) => config.only.push(name.to_owned()),
            other => panic!("unknown argument {other}; workloads are {}", WORKLOADS.join(", ")),
        }
    }
    let outcome = scale::run(&config);
    if !outcome.problems.is_empty() {
        std::process::exit(1);
    }
}
