//! The storage lifecycle on a large history: how fast a server starts after a clean stop and
//! after a kill, what it keeps resident for each page-cache size and how fast it reads and
//! sends then, and what redb's quick repair costs per commit and saves per crash.
//!
//! The history is seeded once (`confab_tests::seed`, 1,000 users in 500 channels) and kept
//! under `target/seeded/`; servers run on a copy, which is removed at the end. Figures:
//!
//! - commits/s of a raw redb group-commit loop (64 rows of 300 bytes per durable commit), with
//!   and without quick repair, on a new file and on a copy of the history;
//! - the open after a crash (a child process that commits and aborts), with and without quick
//!   repair for the commits before the crash;
//! - for each cache size: the start (until the server says it listens) on a closed file, the
//!   resident memory after it, reads/s (`GET /messages`, 100 messages of a random channel, 4
//!   clients), sends/s (4 clients, to the same channels) and the resident memory after them; then a SIGTERM and a
//!   start, then a SIGKILL and a start.
//!
//! Run: `cargo bench -p confab-tests --bench store_lifecycle -- [MESSAGES] [CACHE_MIB ...]`
//! (defaults: 100,000 messages; caches of 16, 64, 256 and 1024 MiB).

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use confab_tests::seed::{self, Shape};
use confab_tests::{Creds, TestServer};
use redb::{Database, ReadableDatabase, TableDefinition};

const BENCH: TableDefinition<u64, &[u8]> = TableDefinition::new("store_lifecycle_bench");
const ROWS_PER_COMMIT: u64 = 64;
const COMMIT_LOOP: Duration = Duration::from_secs(5);
const LOAD: Duration = Duration::from_secs(10);
const CLIENTS: usize = 4;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    if args.first().map(String::as_str) == Some("crash-child") {
        return crash_child(Path::new(&args[1]), args[2] == "quick");
    }
    let numbers: Vec<usize> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let messages = numbers.first().copied().unwrap_or(100_000);
    let caches: Vec<usize> = if numbers.len() > 1 { numbers[1..].to_vec() } else { vec![16, 64, 256, 1024] };

    let shape = Shape { channels: 500, users: 1_000, messages, bench_channels: 20, ..Shape::LARGE };
    let started = Instant::now();
    let seeded = seed::cached(shape);
    let file = seeded.data_dir.join(confab_server::store::DB_FILE);
    println!(
        "history: {messages} messages, {:.2} GB file (ready in {:.0} s)",
        gb(std::fs::metadata(&file).map_or(0, |m| m.len())),
        started.elapsed().as_secs_f64()
    );
    let work = confab_tests::target_dir().join("store-lifecycle-work");
    let _ = std::fs::remove_dir_all(&work);
    let copy = work.join("data");
    seed::copy_data_dir(&seeded.data_dir, &copy);
    let copied = copy.join(confab_server::store::DB_FILE);

    println!("\nraw redb group-commit loop ({ROWS_PER_COMMIT} rows of 300 bytes per commit):");
    let fresh = work.join("fresh.redb");
    for (name, path) in [("new file", &fresh), ("the history", &copied)] {
        for quick in [false, true] {
            let rate = commit_loop(path, quick);
            println!(
                "  {name:>11}, quick repair {:>3}: {rate:>6.0} commits/s",
                if quick { "on" } else { "off" }
            );
        }
    }

    println!("\nopen after a crash (the file of the history):");
    for quick in [false, true] {
        let (open, repaired) = open_after_crash(&copied, quick);
        println!(
            "  quick repair {:>3}: open in {:>7.1} ms ({})",
            if quick { "on" } else { "off" },
            ms(open),
            if repaired { "repaired" } else { "no repair" }
        );
    }

    println!("\nthe server, per cache size:");
    let binary = Path::new(env!("CARGO_BIN_EXE_confab-under-test"));
    let who = Creds { email: seeded.email.clone(), api_key: seeded.api_key.clone() };
    for mib in caches {
        server_run(binary, &copy, &who, mib);
    }
    let _ = std::fs::remove_dir_all(&work);
}

fn server_run(binary: &Path, data_dir: &Path, who: &Creds, cache_mib: usize) {
    let cache = format!("{cache_mib}MiB");
    let extra = ["--cache-size", cache.as_str()];
    let clock = Instant::now();
    let mut server = TestServer::spawn(binary, data_dir, "127.0.0.1:0", &extra);
    let start = clock.elapsed();
    let rss_started = rss_bytes(server.pid());
    let channels = channel_ids(&server, who);
    let reads = load(&server, |api, i| {
        let narrow = format!(r#"[["channel", {}]]"#, channels[i % channels.len()]);
        api.get(
            "/messages",
            Some(who),
            &[("anchor", "newest"), ("num_before", "100"), ("num_after", "0"), ("narrow", narrow.as_str())],
        )
        .ok();
    });
    let rss_read = rss_bytes(server.pid());
    let sends = load(&server, |api, i| {
        let content = format!("lifecycle bench {i}");
        let to = channels[i % channels.len()].to_string();
        api.post(
            "/messages",
            Some(who),
            &[("type", "stream"), ("to", to.as_str()), ("topic", "bench"), ("content", content.as_str())],
        )
        .ok();
    });
    let rss_sent = rss_bytes(server.pid());
    let peak = peak_rss_bytes(server.pid());
    let (_, _) = server.terminate_with_log();
    let clock = Instant::now();
    let mut server = TestServer::spawn(binary, data_dir, "127.0.0.1:0", &extra);
    let after_stop = clock.elapsed();
    let rss_after_stop = rss_bytes(server.pid());
    server.kill();
    let clock = Instant::now();
    let mut server = TestServer::spawn(binary, data_dir, "127.0.0.1:0", &extra);
    let after_kill = clock.elapsed();
    let rss_after_kill = rss_bytes(server.pid());
    let _ = server.terminate_with_log();
    println!(
        "  cache {cache:>7}: start {:>6.0} ms ({:>4.0} MB); {reads:>6.0} reads/s ({:>4.0} MB); {sends:>6.0} sends/s \
         ({:>4.0} MB, peak {:>4.0} MB); start after SIGTERM {:>6.0} ms ({:>4.0} MB), after SIGKILL {:>6.0} ms ({:>4.0} MB)",
        ms(start),
        mb(rss_started),
        mb(rss_read),
        mb(rss_sent),
        mb(peak),
        ms(after_stop),
        mb(rss_after_stop),
        ms(after_kill),
        mb(rss_after_kill),
    );
}

/// Runs `request` from [`CLIENTS`] threads for [`LOAD`]; requests per second.
fn load(server: &TestServer, request: impl Fn(&confab_tests::Api, usize) + Sync) -> f64 {
    let done = AtomicBool::new(false);
    let count = AtomicU64::new(0);
    let clock = Instant::now();
    std::thread::scope(|scope| {
        for client in 0..CLIENTS {
            let (done, count, request) = (&done, &count, &request);
            let api = server.api();
            scope.spawn(move || {
                let mut i = client * 1_000_003;
                while !done.load(Ordering::Relaxed) {
                    request(&api, i);
                    i += 1;
                    count.fetch_add(1, Ordering::Relaxed);
                }
            });
        }
        std::thread::sleep(LOAD);
        done.store(true, Ordering::Relaxed);
    });
    count.load(Ordering::Relaxed) as f64 / clock.elapsed().as_secs_f64()
}

/// The ids of the channels `who` is subscribed to.
fn channel_ids(server: &TestServer, who: &Creds) -> Vec<u64> {
    let body = server.api().get("/users/me/subscriptions", Some(who), &[]).ok();
    body["subscriptions"]
        .as_array()
        .expect("subscriptions")
        .iter()
        .filter_map(|s| s["stream_id"].as_u64())
        .collect()
}

/// Commits for [`COMMIT_LOOP`], each transaction writing [`ROWS_PER_COMMIT`] new rows durably
/// as a group commit of sends would; commits per second.
fn commit_loop(path: &Path, quick: bool) -> f64 {
    let db = Database::builder().create(path).expect("the file opens");
    let payload = vec![7u8; 300];
    let mut key = next_key(&db);
    let clock = Instant::now();
    let mut commits = 0u64;
    while clock.elapsed() < COMMIT_LOOP {
        let mut txn = db.begin_write().expect("a write transaction");
        txn.set_quick_repair(quick);
        {
            let mut table = txn.open_table(BENCH).expect("the table");
            for _ in 0..ROWS_PER_COMMIT {
                table.insert(key, payload.as_slice()).expect("insert");
                key += 1;
            }
        }
        txn.commit().expect("commit");
        commits += 1;
    }
    commits as f64 / clock.elapsed().as_secs_f64()
}

fn next_key(db: &Database) -> u64 {
    use redb::ReadableTable;
    let txn = db.begin_read().expect("a read transaction");
    match txn.open_table(BENCH) {
        Ok(table) => table.last().expect("read").map_or(0, |(k, _)| k.value() + 1),
        Err(_) => 0,
    }
}

/// Runs a child that commits to `path` (with quick repair or not) and aborts without closing
/// it; then opens the file and times the open. Returns the time and whether it repaired.
fn open_after_crash(path: &Path, quick: bool) -> (Duration, bool) {
    let status = std::process::Command::new(std::env::current_exe().expect("this program"))
        .args(["crash-child", path.to_str().expect("a UTF-8 path"), if quick { "quick" } else { "plain" }])
        .status()
        .expect("the child runs");
    assert!(!status.success(), "the child aborts");
    let repaired = std::rc::Rc::new(std::cell::Cell::new(false));
    let seen = repaired.clone();
    let clock = Instant::now();
    let db = Database::builder()
        .set_repair_callback(move |_| seen.set(true))
        .create(path)
        .expect("the file opens after the crash");
    let open = clock.elapsed();
    db.close().expect("a clean close");
    (open, repaired.get())
}

/// The crashing child: a few commits, then an abort, which closes nothing (as SIGKILL).
fn crash_child(path: &Path, quick: bool) {
    let db = Database::builder().create(path).expect("the file opens");
    let mut key = next_key(&db);
    for _ in 0..10 {
        let mut txn = db.begin_write().expect("a write transaction");
        txn.set_quick_repair(quick);
        {
            let mut table = txn.open_table(BENCH).expect("the table");
            for _ in 0..ROWS_PER_COMMIT {
                table.insert(key, [1u8; 300].as_slice()).expect("insert");
                key += 1;
            }
        }
        txn.commit().expect("commit");
    }
    std::process::abort();
}

fn rss_bytes(pid: u32) -> u64 {
    status_kb(pid, "VmRSS:") * 1024
}

fn peak_rss_bytes(pid: u32) -> u64 {
    status_kb(pid, "VmHWM:") * 1024
}

fn status_kb(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .unwrap_or(0)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn mb(bytes: u64) -> f64 {
    bytes as f64 / 1e6
}

fn gb(bytes: u64) -> f64 {
    bytes as f64 / 1e9
}
