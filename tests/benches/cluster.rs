//! Issue 19: send throughput and event fan-out on redb (one server), on PostgreSQL (one
//! server), and on PostgreSQL with two servers sharing the database. Prints figures; asserts
//! nothing about time.
//!
//! Run: `cargo bench -p confab-tests --bench cluster` (`-- --quick` for a short check).
//!
//! Every server is a real `confab serve` process on loopback, with loopback exempt from rate
//! limits. PostgreSQL is a scratch cluster from the machine's binaries, started with its
//! durable defaults (fsync, full page writes, synchronous commit), in the temporary directory
//! that holds redb's file too: both engines sync to the same disk.
//!
//! - Send throughput: K senders (each its own user, each on its own keep-alive connection per
//!   server) send M messages each, one after another, to one channel; messages per second
//!   over the whole run, and each send's latency. With two servers, sender k sends its j-th
//!   message to server (k + j) mod 2: half of the senders are on each server at any time, and
//!   every sender alternates, as behind a round-robin proxy.
//! - Fan-out: N event queues (`event_types=["message"]`, users of at most
//!   `MAX_QUEUES_PER_USER` queues each, all in one channel), registered and polled on server
//!   i mod 2 with two servers, wait in `GET /events`; another user sends one message (round r
//!   through server r mod 2) and the figure is the time from the send's start to the median
//!   and to the last poll answer carrying it. Several rounds; each figure is the median of
//!   the rounds'. A poll waits again only once every poll has its answer of the round, so
//!   that the figure is the fan-out alone (as `event_fanout`'s), not the fan-out and the next
//!   polls' requests competing for the CPU.
//!
//! The client is one thread (one current-thread Tokio runtime) on the same two cores as the
//! servers and PostgreSQL.

use std::collections::{BTreeMap, HashSet};
use std::process::Command;
use std::time::{Duration, Instant};

use confab_core::events::MAX_QUEUES_PER_USER;
use confab_server::scratch_postgres::ScratchCluster;
use confab_tests::load::{self, Connection, RequestBytes, basic_authorization};
use confab_tests::{Api, Creds, TestServer};
use tokio::sync::{mpsc, watch};

const BINARY: &str = env!("CARGO_BIN_EXE_confab-under-test");

/// How long the fan-out waits for every poll of one round before calling it a failure.
const ROUND_TIMEOUT: Duration = Duration::from_secs(60);

struct Plan {
    /// K: concurrent senders per throughput run.
    senders: Vec<usize>,
    /// M for K senders.
    per_sender: fn(usize) -> usize,
    /// N: waiting polls per fan-out measurement.
    polls: Vec<usize>,
    rounds: usize,
}

impl Plan {
    fn full() -> Plan {
        Plan {
            senders: vec![1, 16],
            per_sender: |k| (1_600 / k).clamp(100, 500),
            polls: vec![100, 1_000],
            rounds: 7,
        }
    }

    fn quick() -> Plan {
        Plan { senders: vec![1, 4], per_sender: |_| 40, polls: vec![100], rounds: 3 }
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Setup {
    Redb,
    Postgres { nodes: usize },
}

impl Setup {
    fn name(self) -> String {
        match self {
            Setup::Redb => "redb, 1 server".to_owned(),
            Setup::Postgres { nodes: 1 } => "PostgreSQL, 1 server".to_owned(),
            Setup::Postgres { nodes } => format!("PostgreSQL, {nodes} servers"),
        }
    }
}

/// The servers of one configuration and the organization's owner.
struct Deployment {
    nodes: Vec<TestServer>,
    owner: Creds,
}

impl Deployment {
    fn start(setup: Setup, cluster: Option<&ScratchCluster>) -> Deployment {
        let nodes = match setup {
            Setup::Redb => vec![TestServer::start_with(BINARY, &[])],
            Setup::Postgres { nodes } => {
                let cluster = cluster.expect("a PostgreSQL cluster");
                let url = cluster.new_database().expect("a new database");
                (0..nodes).map(|_| TestServer::start_with(BINARY, &["--database", &url])).collect()
            }
        };
        let owner = nodes[0].owner();
        for (i, node) in nodes.iter().enumerate().skip(1) {
            assert!(node.owner.is_none(), "server {i} created a second organization");
        }
        Deployment { nodes, owner }
    }

    fn addresses(&self) -> Vec<String> {
        self.nodes.iter().map(|n| n.base_url.trim_start_matches("http://").to_owned()).collect()
    }

    /// New users, made through the first server, subscribed to `channel`.
    fn users(&self, prefix: &str, count: usize, channel: &str) -> Vec<Creds> {
        let api = self.nodes[0].api();
        let users: Vec<Creds> = (0..count)
            .map(|i| {
                api.create_user(&self.owner, &format!("{prefix}{i}@example.com"), &format!("{prefix} {i}"))
            })
            .collect();
        let emails: Vec<&str> = users.iter().map(|u| u.email.as_str()).collect();
        for chunk in emails.chunks(100) {
            api.subscribe(&self.owner, &[channel], chunk);
        }
        users
    }

    /// Warnings and errors the servers logged so far (their standard error is at `warn`), but
    /// the expected one that no mail server is configured.
    fn logged_problems(&self) -> Vec<String> {
        let mut found = Vec::new();
        for (i, node) in self.nodes.iter().enumerate() {
            let log = node.log_so_far();
            let lines: Vec<&str> = log
                .lines()
                .filter(|l| l.contains("ERROR") || l.contains("WARN") || l.contains("panicked"))
                .filter(|l| !l.contains("email is off"))
                .collect();
            if !lines.is_empty() {
                found.push(format!(
                    "server {i} logged {} warning/error lines; first: {}",
                    lines.len(),
                    lines[0].chars().take(400).collect::<String>()
                ));
            }
        }
        found
    }
}

/// What one throughput run saw.
#[derive(Default)]
struct SendRun {
    elapsed: Duration,
    latencies: Vec<Duration>,
    statuses: BTreeMap<u16, u64>,
    failures: u64,
    problems: Vec<String>,
    ids: Vec<u64>,
}

impl SendRun {
    fn merge(&mut self, other: SendRun) {
        self.latencies.extend(other.latencies);
        for (status, n) in other.statuses {
            *self.statuses.entry(status).or_default() += n;
        }
        self.failures += other.failures;
        for problem in other.problems {
            if self.problems.len() < 5 {
                self.problems.push(problem);
            }
        }
        self.ids.extend(other.ids);
    }

    fn per_second(&self) -> f64 {
        self.latencies.len() as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

struct ThroughputRow {
    setup: String,
    senders: usize,
    sent: usize,
    run: SendRun,
}

struct FanoutRow {
    setup: String,
    polls: usize,
    /// One `POST /register`, sequentially, on average.
    register: Duration,
    rounds_done: usize,
    send_answered: Duration,
    median: Duration,
    last: Duration,
    /// With two servers: the last poll on the server that took the send, and on the other.
    last_local_remote: Option<(Duration, Duration)>,
}

/// Sends one request on the connection to `address`, opening it if needed. Never resent: a send
/// that fails is counted, not retried.
async fn exchange(
    slot: &mut Option<Connection>,
    address: &str,
    request: &[u8],
) -> Result<load::Answer, String> {
    if slot.is_none() {
        *slot = Some(Connection::open(address).await.map_err(|e| format!("connect to {address}: {e}"))?);
    }
    let connection = slot.as_mut().ok_or("no connection")?;
    match connection.exchange(request).await {
        Ok(answer) => {
            if answer.closes {
                *slot = None;
            }
            Ok(answer)
        }
        Err(e) => {
            *slot = None;
            Err(format!("{address}: {e}"))
        }
    }
}

fn send_request(
    address: &str,
    authorization: &str,
    channel: &str,
    topic: &str,
    content: &str,
) -> RequestBytes {
    load::build(
        address,
        "POST",
        "/api/v1/messages",
        Some(authorization),
        &[("type", "stream"), ("to", channel), ("topic", topic), ("content", content)],
    )
}

/// K senders, `per_sender` messages each, to `channel`; sender k's j-th message goes to server
/// (k + j) mod servers.
async fn send_run(
    addresses: &[String],
    senders: &[Creds],
    per_sender: usize,
    channel: &str,
    tag: &str,
) -> SendRun {
    let work: Vec<Vec<(usize, RequestBytes)>> = senders
        .iter()
        .enumerate()
        .map(|(k, who)| {
            let authorization = basic_authorization(&who.email, &who.api_key);
            (0..per_sender)
                .map(|j| {
                    let node = (k + j) % addresses.len();
                    let content = format!("{tag}: message {j} of sender {k}, through server {node}");
                    (
                        node,
                        send_request(
                            &addresses[node],
                            &authorization,
                            channel,
                            &format!("{tag} {k}"),
                            &content,
                        ),
                    )
                })
                .collect()
        })
        .collect();
    let started = Instant::now();
    let tasks: Vec<_> = work
        .into_iter()
        .map(|requests| {
            let addresses = addresses.to_vec();
            tokio::spawn(async move {
                let mut slots: Vec<Option<Connection>> = addresses.iter().map(|_| None).collect();
                let mut run = SendRun::default();
                for (node, request) in requests {
                    let at = Instant::now();
                    match exchange(&mut slots[node], &addresses[node], &request).await {
                        Ok(answer) => {
                            let latency = at.elapsed();
                            *run.statuses.entry(answer.status).or_default() += 1;
                            if (200..300).contains(&answer.status) {
                                run.latencies.push(latency);
                                let body: serde_json::Value =
                                    serde_json::from_slice(&answer.body).unwrap_or_default();
                                match body["id"].as_u64() {
                                    Some(id) => run.ids.push(id),
                                    None => run.problems.push(format!(
                                        "server {node}: a 200 without a message id: {}",
                                        String::from_utf8_lossy(&answer.body)
                                    )),
                                }
                            } else if run.problems.len() < 5 {
                                run.problems.push(format!(
                                    "server {node}: {} {}",
                                    answer.status,
                                    String::from_utf8_lossy(&answer.body[..answer.body.len().min(300)])
                                ));
                            }
                        }
                        Err(e) => {
                            run.failures += 1;
                            if run.problems.len() < 5 {
                                run.problems.push(format!("server {node}: no answer: {e}"));
                            }
                        }
                    }
                }
                run
            })
        })
        .collect();
    let mut total = SendRun::default();
    for task in tasks {
        match task.await {
            Ok(run) => total.merge(run),
            Err(e) => total.problems.push(format!("a sender's task failed: {e}")),
        }
    }
    total.elapsed = started.elapsed();
    let unique: HashSet<u64> = total.ids.iter().copied().collect();
    if unique.len() != total.ids.len() {
        total.problems.push(format!("{} message ids answered twice", total.ids.len() - unique.len()));
    }
    total
}

/// One poll's answer carrying round `round`'s message.
struct Delivery {
    round: usize,
    node: usize,
    at: Instant,
    problem: Option<String>,
}

/// A registered event queue: the server that holds it, and how to poll it.
struct Queue {
    node: usize,
    address: String,
    authorization: String,
    queue_id: String,
}

/// The content of round `round`'s message: a word Markdown leaves alone, found in the
/// rendered HTML of the event.
fn marker(polls: usize, round: usize) -> String {
    format!("fanoutmark{polls}x{round}x")
}

/// Waits on one queue for `rounds` rounds: each round, once `go` allows it, polls until an
/// answer holds a message event, and reports when that answer came (before parsing it).
async fn poll_rounds(
    queue: Queue,
    polls: usize,
    rounds: usize,
    mut go: watch::Receiver<usize>,
    deliveries: mpsc::UnboundedSender<Delivery>,
) {
    let Queue { node, address, authorization, queue_id } = queue;
    let mut slot = None;
    let mut last_event_id: i64 = -1;
    for round in 0..rounds {
        if go.wait_for(|&allowed| allowed >= round).await.is_err() {
            return;
        }
        loop {
            let request = load::build(
                &address,
                "GET",
                "/api/v1/events",
                Some(&authorization),
                &[("queue_id", &queue_id), ("last_event_id", &last_event_id.to_string())],
            );
            let failed =
                |problem: String| Delivery { round, node, at: Instant::now(), problem: Some(problem) };
            let answer = match exchange(&mut slot, &address, &request).await {
                Ok(answer) => answer,
                Err(e) => {
                    let _ = deliveries.send(failed(format!("server {node}: poll without answer: {e}")));
                    return;
                }
            };
            let at = Instant::now();
            let body: serde_json::Value = serde_json::from_slice(&answer.body).unwrap_or_default();
            if answer.status != 200 || body["result"] != "success" {
                let text = String::from_utf8_lossy(&answer.body[..answer.body.len().min(300)]).into_owned();
                let _ = deliveries
                    .send(failed(format!("server {node}: poll answered {}: {text}", answer.status)));
                return;
            }
            let events = body["events"].as_array().cloned().unwrap_or_default();
            for event in &events {
                last_event_id = last_event_id.max(event["id"].as_i64().unwrap_or(last_event_id));
            }
            let messages: Vec<&str> = events
                .iter()
                .filter(|e| e["type"] == "message")
                .filter_map(|e| e["message"]["content"].as_str())
                .collect();
            if messages.is_empty() {
                continue; // a heartbeat
            }
            let problem = (!messages.iter().any(|m| m.contains(&marker(polls, round)))).then(|| {
                format!("server {node}: round {round}'s poll answered other messages: {messages:?}")
            });
            let _ = deliveries.send(Delivery { round, node, at, problem });
            break;
        }
    }
}

fn median(values: &mut [Duration]) -> Duration {
    values.sort();
    values.get(values.len() / 2).copied().unwrap_or_default()
}

fn fanout(
    runtime: &tokio::runtime::Runtime,
    deployment: &Deployment,
    setup: Setup,
    polls: usize,
    rounds: usize,
    problems: &mut Vec<String>,
) -> FanoutRow {
    let channel = format!("fan-out {polls}");
    let sender = deployment.users(&format!("fanout{polls}sender"), 1, &channel).remove(0);
    let listeners =
        deployment.users(&format!("fanout{polls}listener"), polls.div_ceil(MAX_QUEUES_PER_USER), &channel);
    let addresses = deployment.addresses();
    let nodes = addresses.len();
    let apis: Vec<Api> = deployment.nodes.iter().map(TestServer::api).collect();
    let registered_at = Instant::now();
    let queues: Vec<Queue> = (0..polls)
        .map(|i| {
            let node = i % nodes;
            let listener = &listeners[i / MAX_QUEUES_PER_USER];
            let body =
                apis[node].post("/register", Some(listener), &[("event_types", r#"["message"]"#)]).ok();
            let queue_id = body["queue_id"].as_str().expect("queue_id").to_owned();
            let authorization = basic_authorization(&listener.email, &listener.api_key);
            Queue { node, address: addresses[node].clone(), authorization, queue_id }
        })
        .collect();
    let register = registered_at.elapsed() / polls as u32;
    let sender_authorization = basic_authorization(&sender.email, &sender.api_key);

    runtime.block_on(async {
        let (tx, mut rx) = mpsc::unbounded_channel();
        let (go, allowed) = watch::channel(0);
        let tasks: Vec<_> = queues
            .into_iter()
            .map(|queue| tokio::spawn(poll_rounds(queue, polls, rounds, allowed.clone(), tx.clone())))
            .collect();
        drop(tx);
        let mut send_slots: Vec<Option<Connection>> = addresses.iter().map(|_| None).collect();
        let (mut answered, mut medians, mut lasts, mut locals, mut remotes) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
        'rounds: for round in 0..rounds {
            // Let every poll (re)connect and park: one that is not parked yet gets the event at
            // once, and would flatter the figure.
            go.send_replace(round);
            let settle = if round == 0 { 2_000 + polls as u64 * 2 } else { 1_000 + polls as u64 };
            tokio::time::sleep(Duration::from_millis(settle)).await;
            let node = round % nodes;
            let request = send_request(
                &addresses[node],
                &sender_authorization,
                &channel,
                "fan-out",
                &marker(polls, round),
            );
            let sent_at = Instant::now();
            match exchange(&mut send_slots[node], &addresses[node], &request).await {
                Ok(answer) if answer.status == 200 => answered.push(sent_at.elapsed()),
                Ok(answer) => {
                    problems.push(format!(
                        "{}, N = {polls}: the send through server {node} answered {}: {}",
                        setup.name(),
                        answer.status,
                        String::from_utf8_lossy(&answer.body)
                    ));
                    break 'rounds;
                }
                Err(e) => {
                    problems.push(format!("{}, N = {polls}: the send failed: {e}", setup.name()));
                    break 'rounds;
                }
            }
            let mut all = Vec::with_capacity(polls);
            let (mut local, mut remote) = (Duration::ZERO, Duration::ZERO);
            let deadline = tokio::time::Instant::now() + ROUND_TIMEOUT;
            while all.len() < polls {
                match tokio::time::timeout_at(deadline, rx.recv()).await {
                    Ok(Some(delivery)) => {
                        if let Some(problem) = delivery.problem {
                            problems.push(format!("{}, N = {polls}: {problem}", setup.name()));
                            break 'rounds;
                        }
                        debug_assert_eq!(delivery.round, round);
                        let took = delivery.at.saturating_duration_since(sent_at);
                        if delivery.node == node {
                            local = local.max(took);
                        } else {
                            remote = remote.max(took);
                        }
                        all.push(took);
                    }
                    Ok(None) | Err(_) => {
                        problems.push(format!(
                            "{}, N = {polls}, round {round}: only {} of {polls} polls answered within {} s",
                            setup.name(),
                            all.len(),
                            ROUND_TIMEOUT.as_secs()
                        ));
                        break 'rounds;
                    }
                }
            }
            medians.push(median(&mut all));
            lasts.push(all.last().copied().unwrap_or_default());
            locals.push(local);
            remotes.push(remote);
        }
        for task in tasks {
            task.abort();
        }
        FanoutRow {
            setup: setup.name(),
            polls,
            register,
            rounds_done: lasts.len(),
            send_answered: median(&mut answered),
            median: median(&mut medians),
            last: median(&mut lasts),
            last_local_remote: (nodes > 1).then(|| (median(&mut locals), median(&mut remotes))),
        }
    })
}

/// PostgreSQL's version and durability settings, as the server reports them.
fn postgres_settings(cluster: &ScratchCluster) -> String {
    let url = cluster.new_database().unwrap_or_default();
    let query = "SELECT current_setting('server_version') || ', fsync=' || current_setting('fsync') \
                 || ', synchronous_commit=' || current_setting('synchronous_commit') \
                 || ', full_page_writes=' || current_setting('full_page_writes') \
                 || ', wal_sync_method=' || current_setting('wal_sync_method')";
    match Command::new("psql").args([url.as_str(), "-Atc", query]).output() {
        Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout).trim().to_owned(),
        Ok(out) => format!("unknown ({})", String::from_utf8_lossy(&out.stderr).trim()),
        Err(e) => format!("unknown (psql: {e})"),
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn main() {
    if confab_tests::on_postgres() {
        eprintln!("unset CONFAB_TEST_STORE: this benchmark picks each server's store itself");
        std::process::exit(2);
    }
    let quick = std::env::args().any(|a| a == "--quick");
    let plan = if quick { Plan::quick() } else { Plan::full() };
    let started = Instant::now();
    let cluster =
        ScratchCluster::start_durable().expect("a scratch PostgreSQL server (apt-get install postgresql)");
    let settings = postgres_settings(&cluster);
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");

    let mut throughput = Vec::new();
    let mut fanouts = Vec::new();
    let mut problems = Vec::new();
    for setup in [Setup::Redb, Setup::Postgres { nodes: 1 }, Setup::Postgres { nodes: 2 }] {
        eprintln!("{} ...", setup.name());
        let deployment = Deployment::start(setup, Some(&cluster));
        let addresses = deployment.addresses();
        let most = plan.senders.iter().copied().max().unwrap_or(1);
        let senders = deployment.users("sender", most, "load");
        // Warm-up, not counted: every server's first sends.
        let warm =
            runtime.block_on(send_run(&addresses, &senders[..1], 10 * addresses.len(), "load", "warm-up"));
        problems.extend(warm.problems.iter().map(|p| format!("{}, warm-up: {p}", setup.name())));
        for &k in &plan.senders {
            let m = (plan.per_sender)(k);
            let run = runtime.block_on(send_run(&addresses, &senders[..k], m, "load", &format!("K{k}")));
            eprintln!("  K = {k}: {:.0} msgs/s", run.per_second());
            problems.extend(run.problems.iter().map(|p| format!("{}, K = {k}: {p}", setup.name())));
            if run.failures > 0 {
                problems.push(format!("{}, K = {k}: {} sends without answer", setup.name(), run.failures));
            }
            throughput.push(ThroughputRow { setup: setup.name(), senders: k, sent: k * m, run });
        }
        for &n in &plan.polls {
            let row = fanout(&runtime, &deployment, setup, n, plan.rounds, &mut problems);
            eprintln!("  N = {n}: last poll {:.1} ms; register {:.1} ms", ms(row.last), ms(row.register));
            fanouts.push(row);
        }
        problems.extend(deployment.logged_problems().into_iter().map(|p| format!("{}: {p}", setup.name())));
    }
    drop(cluster);

    println!();
    println!(
        "Confab on redb vs PostgreSQL, 1 and 2 servers on one database (release build, {} s)",
        started.elapsed().as_secs()
    );
    println!("PostgreSQL {settings}; its cluster and redb's file on the same disk");
    println!();
    println!("Send throughput: K senders (one user each), M messages each, one channel, keep-alive");
    println!(
        "{:<24} {:>3} {:>6} {:>9} {:>8} {:>8}  other answers",
        "configuration", "K", "sends", "msgs/s", "p50 ms", "p99 ms"
    );
    for row in &throughput {
        let other: Vec<String> = row
            .run
            .statuses
            .iter()
            .filter(|(s, _)| !(200..300).contains(*s))
            .map(|(s, n)| format!("{n}× {s}"))
            .chain((row.run.failures > 0).then(|| format!("{} unanswered", row.run.failures)))
            .collect();
        println!(
            "{:<24} {:>3} {:>6} {:>9.0} {:>8.1} {:>8.1}  {}",
            row.setup,
            row.senders,
            row.sent,
            row.run.per_second(),
            ms(load::quantile(&row.run.latencies, 0.5).unwrap_or_default()),
            ms(load::quantile(&row.run.latencies, 0.99).unwrap_or_default()),
            if other.is_empty() { "none".to_owned() } else { other.join(", ") }
        );
    }
    println!();
    println!(
        "Fan-out: N polls waiting, one message; ms from the send's start (median of {} rounds; 2 servers: \
         polls half on each, sends alternate); register: ms per POST /register, one at a time",
        plan.rounds
    );
    println!(
        "{:<24} {:>5} {:>9} {:>10} {:>8} {:>8}  last on the sending / the other server",
        "configuration", "N", "register", "send ans.", "median", "last"
    );
    for row in &fanouts {
        let split = row
            .last_local_remote
            .map(|(local, remote)| format!("{:.1} / {:.1}", ms(local), ms(remote)))
            .unwrap_or_default();
        let incomplete = if row.rounds_done < plan.rounds {
            format!(" (only {} rounds completed)", row.rounds_done)
        } else {
            String::new()
        };
        println!(
            "{:<24} {:>5} {:>9.1} {:>10.1} {:>8.1} {:>8.1}  {split}{incomplete}",
            row.setup,
            row.polls,
            ms(row.register),
            ms(row.send_answered),
            ms(row.median),
            ms(row.last)
        );
    }
    println!();
    if problems.is_empty() {
        println!("No errors: every send and poll answered 200, and no server logged a warning.");
    } else {
        println!("Problems:");
        for problem in &problems {
            println!("  {problem}");
        }
    }
}
