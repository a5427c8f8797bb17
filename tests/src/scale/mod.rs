//! Issue 16's benchmark suite: every workload of its table, each printed with its goal and a
//! ceiling measured in the same run, on a seeded organization (1,000,000 messages, 10,000
//! users) served by the release server in its own process.
//!
//! `cargo bench -p confab-tests --bench scale` runs all of it; `-- --quick` runs it on a small
//! organization, and row names pick workloads (`-- sends register`). The load comes from
//! [`crate::load`] in this process, on one thread: server, generator and the in-process bare
//! HTTP ceiling share the machine's cores, so ratios to the ceilings are the figures to read.
//! Nothing here asserts a time; a run only fails when requests do.

mod abandoned;
mod fanout;
mod process;
mod reads;
mod sends;
mod table;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::TestServer;
use crate::load::{self, BareHttp, NextRequest, Report};
use crate::seed::{self, Seeded, Shape, Traffic};

pub use fanout::{FanoutFigures, measure_fanout};
pub use table::{Machine, Row, Verdict};

/// What to run, and how hard.
#[derive(Clone, Debug)]
pub struct Config {
    /// The server binary (`confab-under-test`).
    pub binary: PathBuf,
    pub shape: Shape,
    /// Workloads to run (see [`WORKLOADS`]); all when empty.
    pub only: Vec<String>,
    /// How long each load phase lasts.
    pub phase: Duration,
    /// Connections for the throughput workloads (sends, saturation).
    pub connections: usize,
    /// The offered rate of the latency workload, per second.
    pub offered_rate: f64,
    /// Registers one after another; and concurrent connections with registers each.
    pub registers: (usize, usize, usize),
    /// Waves of concurrent wrong logins, their size, and the burst after them.
    pub logins: (usize, usize, usize),
    /// Waiting polls per fan-out measurement.
    pub fanout: Vec<usize>,
    /// Abandoned queues, and the messages each collects (at the per-queue bound, the next one
    /// discards them).
    pub abandoned: (usize, usize),
    /// Sequential requests per per-call figure (send cost, message fetches).
    pub calls: usize,
    /// Where the table goes (`scale.md`) and where servers' data directories are made.
    pub out_dir: PathBuf,
}

/// The workloads, by the names `only` takes.
pub const WORKLOADS: [&str; 15] = [
    "start",
    "keepalive",
    "sends",
    "latency",
    "saturation",
    "register",
    "presence",
    "messages",
    "followed",
    "mark_read",
    "memory",
    "crash_start",
    "logins",
    "fanout",
    "abandoned",
];

impl Config {
    /// Issue 16's sizes: the 1M-message organization, 256 connections, 10-second phases.
    pub fn full(binary: &Path) -> Config {
        Config {
            binary: binary.to_owned(),
            shape: Shape::SCALE,
            only: Vec::new(),
            phase: Duration::from_secs(10),
            connections: 256,
            offered_rate: 1_000.0,
            registers: (20, 8, 20),
            logins: (6, 20, 200),
            fanout: vec![10_000],
            abandoned: (abandoned::DEFAULT_QUEUES, confab_core::events::MAX_EVENTS_PER_QUEUE),
            calls: 200,
            out_dir: crate::target_dir().join("bench"),
        }
    }

    /// The smallest run that still does every workload: for checking that the suite works.
    pub fn smallest(binary: &Path, out_dir: &Path) -> Config {
        Config {
            binary: binary.to_owned(),
            shape: Shape {
                channels: 12,
                users: 60,
                messages: 400,
                bench_channels: 6,
                channels_per_user: (2, 4),
                general_share: 0.01,
            },
            only: Vec::new(),
            phase: Duration::from_millis(300),
            connections: 8,
            offered_rate: 50.0,
            registers: (2, 2, 2),
            logins: (2, 3, 6),
            fanout: vec![20],
            abandoned: (3, 20),
            calls: 5,
            out_dir: out_dir.to_owned(),
        }
    }

    fn runs(&self, workload: &str) -> bool {
        self.only.is_empty() || self.only.iter().any(|w| w == workload)
    }
}

/// What a run produced.
#[derive(Debug)]
pub struct Outcome {
    pub rows: Vec<Row>,
    pub notes: Vec<String>,
    /// Requests that failed where they should have succeeded, by workload.
    pub problems: Vec<String>,
    pub markdown: String,
}

/// Runs the suite, printing as it goes; writes the table to `OUT/scale.md`.
pub fn run(config: &Config) -> Outcome {
    let started = Instant::now();
    let mut machine = Machine::now();
    println!(
        "scale: {} on {} cores ({}), load average {}",
        machine.date, machine.cores, machine.model, machine.load_before
    );
    let mut bench = Bench::prepare(config);
    for workload in WORKLOADS {
        if config.runs(workload) {
            let at = Instant::now();
            bench.workload(workload);
            println!("scale: {workload} took {:.0} s", at.elapsed().as_secs_f64());
        }
    }
    machine.load_after = table::load_average();
    let closed: Vec<String> = bench
        .closes
        .iter()
        .filter(|(_, n)| **n > 0)
        .map(|(w, n)| format!("{w} {} of {}", thousands(*n), thousands(bench.answers[w])))
        .collect();
    if !closed.is_empty() {
        bench.notes.push(format!(
            "Connections the server closed after answering (the generator opened new ones): {}.",
            closed.join("; ")
        ));
    }
    bench.notes.push(format!(
        "The whole run took {:.0} s. The load generator runs in the benchmark's process on one thread, the bare \
         HTTP ceiling on two more; all share the machine's {} cores with the server.",
        started.elapsed().as_secs_f64(),
        machine.cores
    ));
    let markdown = table::markdown(&bench.rows, &machine, &bench.setup, &bench.notes);
    println!("\n{}", table::text(&bench.rows));
    for note in &bench.notes {
        println!("- {note}");
    }
    for problem in &bench.problems {
        println!("PROBLEM: {problem}");
    }
    let _ = std::fs::create_dir_all(&config.out_dir);
    let path = config.out_dir.join("scale.md");
    match std::fs::write(&path, &markdown) {
        Ok(()) => println!("\nscale: the table is in {}", path.display()),
        Err(e) => println!("scale: cannot write {}: {e}", path.display()),
    }
    Outcome { rows: bench.rows, notes: bench.notes, problems: bench.problems, markdown }
}

/// The run's state: the dataset, the server on a copy of it, the generator and the ceilings.
struct Bench<'c> {
    config: &'c Config,
    runtime: tokio::runtime::Runtime,
    bare: BareHttp,
    seeded: Seeded,
    traffic: Traffic,
    /// The data directory the server runs on (a copy of the seeded one).
    data_dir: PathBuf,
    server: Option<TestServer>,
    rows: Vec<Row>,
    notes: Vec<String>,
    problems: Vec<String>,
    /// The dataset and how it was made, for the table's heading.
    setup: String,
    /// Durable sends per second at `connections`, once measured: the saturation workload
    /// offers twice as many.
    send_rate: Option<f64>,
    /// How long redb took to open the dataset's copy as the seeder closed it.
    clean_open: Option<Duration>,
    /// Connections the server closed after an answer, and answers, by workload.
    closes: BTreeMap<String, u64>,
    answers: BTreeMap<String, u64>,
}

impl<'c> Bench<'c> {
    fn prepare(config: &'c Config) -> Bench<'c> {
        let datasets = config.out_dir.join("datasets");
        let reused = seed::is_cached(&datasets, config.shape);
        let seeded = seed::cached_in(&datasets, config.shape);
        let size = file_size(&seeded.data_dir.join(confab_server::store::DB_FILE));
        let built = seeded.summary["total_seconds"].as_f64().unwrap_or(0.0);
        let setup = format!(
            "Dataset: {} messages, {} users, {} channels ({} receiver rows, {:.2} GB on disk; built in {built:.0} s{}).",
            thousands(config.shape.messages as u64),
            thousands(config.shape.users as u64),
            thousands(config.shape.channels as u64),
            thousands(seeded.summary["receiver_rows"].as_u64().unwrap_or(0)),
            size as f64 / 1e9,
            if reused { ", reused from the cache" } else { "" },
        );
        println!("scale: {setup}");
        let traffic = Traffic::new(&seeded.data_dir, config.shape).expect("the seeded credentials");
        let data_dir = config.out_dir.join("work").join("data");
        let _ = std::fs::remove_dir_all(&data_dir);
        let at = Instant::now();
        seed::copy_data_dir(&seeded.data_dir, &data_dir);
        println!("scale: copied the dataset in {:.1} s", at.elapsed().as_secs_f64());
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("the generator's runtime");
        Bench {
            config,
            runtime,
            bare: BareHttp::start(),
            seeded,
            traffic,
            data_dir,
            server: None,
            rows: Vec::new(),
            notes: Vec::new(),
            problems: Vec::new(),
            setup,
            send_rate: None,
            clean_open: None,
            closes: BTreeMap::new(),
            answers: BTreeMap::new(),
        }
    }

    fn workload(&mut self, name: &str) {
        match name {
            "start" => process::start(self),
            "keepalive" => process::keep_alive(self),
            "sends" => sends::durable_sends(self),
            "latency" => sends::latency(self),
            "saturation" => sends::saturation(self),
            "register" => reads::register(self),
            "presence" => reads::presence(self),
            "messages" => reads::messages(self),
            "followed" => sends::followed_topics(self),
            "mark_read" => reads::mark_read(self),
            "memory" => process::memory(self),
            "crash_start" => process::crash_start(self),
            "logins" => process::logins(self),
            "fanout" => fanout::rows(self),
            "abandoned" => abandoned::abandoned_queues(self),
            _ => {}
        }
    }

    /// The server on the dataset's copy, started if it is not running.
    fn server(&mut self) -> &TestServer {
        if self.server.is_none() {
            let server = TestServer::spawn(&self.config.binary, &self.data_dir, "127.0.0.1:0", &[]);
            self.server = Some(server);
        }
        self.server.as_ref().expect("started above")
    }

    fn address(&mut self) -> String {
        self.server().base_url.trim_start_matches("http://").to_owned()
    }

    fn server_rss(&mut self) -> u64 {
        let pid = self.server().pid();
        load::rss_bytes(pid)
    }

    /// The benchmark user's `Authorization` header.
    fn bench_authorization(&self) -> String {
        load::basic_authorization(&self.seeded.email, &self.seeded.api_key)
    }

    /// The `Authorization` header of a user named in the dataset's summary (`field`).
    fn authorization_of(&self, field: &str) -> String {
        let email = self.seeded.summary[field].as_str().unwrap_or_default();
        let user = self.traffic.users().iter().find(|u| u.email == email);
        user.map(|u| load::basic_authorization(&u.email, &u.api_key)).unwrap_or_default()
    }

    fn closed(&self, address: &str, connections: usize, per_connection: u64, next: NextRequest) -> Report {
        let phase = self.config.phase;
        self.runtime.block_on(load::closed_loop_counted(address, connections, phase, per_connection, next))
    }

    /// A closed loop of clients that wait out `Retry-After`, as Zulip's do.
    fn closed_waiting_out(&self, address: &str, connections: usize, next: NextRequest) -> Report {
        let phase = self.config.phase;
        self.runtime.block_on(load::closed_loop_waiting_out(address, connections, phase, next))
    }

    fn open(&self, address: &str, rate: f64, connections: usize, next: NextRequest) -> Report {
        self.runtime.block_on(load::open_loop(address, rate, self.config.phase, connections, next))
    }

    /// Notes requests that should have succeeded and did not.
    fn expect_success(&mut self, workload: &str, report: &Report) {
        self.expect_answers(workload, report, 0);
    }

    /// As [`Self::expect_success`], where refusals with `Retry-After` are the server's
    /// backpressure working (writes past what it commits), not a problem.
    fn expect_success_or_backpressure(&mut self, workload: &str, report: &Report) {
        self.expect_answers(workload, report, report.with_retry_after);
    }

    fn expect_answers(&mut self, workload: &str, report: &Report, allowed_refusals: u64) {
        let refused = report.answered() - report.accepted.len() as u64;
        if report.failures > 0 || refused > allowed_refusals || report.accepted.is_empty() {
            self.problems.push(format!(
                "{workload}: {} accepted, {refused} refused, {} without answer; first: {}",
                report.accepted.len(),
                report.failures,
                report.first_problem.as_deref().unwrap_or("none")
            ));
        }
        self.note_closes(workload, report);
    }

    /// Counts the connections the server closed, for one note per workload at the end.
    fn note_closes(&mut self, workload: &str, report: &Report) {
        *self.closes.entry(workload.to_owned()).or_default() += report.server_closes;
        *self.answers.entry(workload.to_owned()).or_default() += report.answered();
    }
}

fn file_size(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

/// `1234567` as `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// A latency for the table: `1.23 ms`, `45 ms` or `2.3 s`.
fn shown(d: Option<Duration>) -> String {
    match d {
        None => "none".to_owned(),
        Some(d) if d >= Duration::from_secs(1) => format!("{:.2} s", d.as_secs_f64()),
        Some(d) if d >= Duration::from_millis(10) => format!("{:.0} ms", ms(d)),
        Some(d) => format!("{:.2} ms", ms(d)),
    }
}

fn megabytes(bytes: f64) -> String {
    format!("{:.1} MB", bytes / 1e6)
}
