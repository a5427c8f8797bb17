//! Closed and open loops over keep-alive connections.
//!
//! Closed loop: each connection sends its next request as soon as the previous one is
//! answered (or, for clients that behave like Zulip's, once the wait a refusal's `Retry-After`
//! asks for is over); the figure is throughput. Open loop: requests are due at a fixed rate whatever
//! the server does, and each latency runs from when the request was due, not from when a
//! connection was free to send it, so a server that falls behind is charged for the queue it
//! causes (no coordinated omission).
//!
//! A connection the server closes (`Connection: close`, or EOF) is counted and replaced, and
//! the request it failed is sent once more on the new one.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::connection::{Answer, Connection};
use super::request::RequestBytes;

/// What a run saw.
#[derive(Debug, Default, Clone)]
pub struct Report {
    pub elapsed: Duration,
    /// Latencies of 2xx answers.
    pub accepted: Vec<Duration>,
    /// Latencies of other answers.
    pub refused: Vec<Duration>,
    pub statuses: BTreeMap<u16, u64>,
    /// Refusals that carried `Retry-After`.
    pub with_retry_after: u64,
    /// Answers after which the server closed the connection.
    pub server_closes: u64,
    /// Requests that got no answer (connection errors after one retry).
    pub failures: u64,
    /// The first answer's body, for callers that need its shape.
    pub sample: Option<Vec<u8>>,
    /// The first failure, or the first non-2xx answer.
    pub first_problem: Option<String>,
}

impl Report {
    pub fn answered(&self) -> u64 {
        self.statuses.values().sum()
    }

    /// 2xx answers per second.
    pub fn accepted_per_second(&self) -> f64 {
        self.accepted.len() as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// The `q` quantile (0..=1) of accepted requests' latencies.
    pub fn quantile(&self, q: f64) -> Option<Duration> {
        super::quantile(&self.accepted, q)
    }

    fn merge(&mut self, other: Report) {
        self.accepted.extend(other.accepted);
        self.refused.extend(other.refused);
        for (status, n) in other.statuses {
            *self.statuses.entry(status).or_default() += n;
        }
        self.with_retry_after += other.with_retry_after;
        self.server_closes += other.server_closes;
        self.failures += other.failures;
        if self.sample.is_none() {
            self.sample = other.sample;
        }
        if self.first_problem.is_none() {
            self.first_problem = other.first_problem;
        }
    }

    fn record(&mut self, answer: &Answer, latency: Duration) {
        *self.statuses.entry(answer.status).or_default() += 1;
        if (200..300).contains(&answer.status) {
            self.accepted.push(latency);
        } else {
            self.refused.push(latency);
            self.with_retry_after += u64::from(answer.retry_after.is_some());
            if self.first_problem.is_none() {
                let body = String::from_utf8_lossy(&answer.body[..answer.body.len().min(300)]).into_owned();
                self.first_problem = Some(format!("{}: {body}", answer.status));
            }
        }
        if answer.closes {
            self.server_closes += 1;
        }
        if self.sample.is_none() {
            self.sample = Some(answer.body.clone());
        }
    }
}

/// Which request a connection sends next: given the connection's index and its own count of
/// requests sent so far.
pub type NextRequest = Arc<dyn Fn(usize, u64) -> RequestBytes + Send + Sync>;

/// How long a request may go unanswered before it counts as a failure.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(60);

/// A connection slot: reconnects when the server closes, and sends a failed request once more.
struct Slot {
    address: String,
    connection: Option<Connection>,
}

impl Slot {
    async fn exchange(&mut self, request: &[u8], report: &mut Report) -> Option<Answer> {
        for attempt in 0..2 {
            if self.connection.is_none() {
                match Connection::open(&self.address).await {
                    Ok(c) => self.connection = Some(c),
                    Err(e) => {
                        note_failure(report, &format!("connect: {e}"));
                        return None;
                    }
                }
            }
            let connection = self.connection.as_mut()?;
            let answer = match tokio::time::timeout(ANSWER_TIMEOUT, connection.exchange(request)).await {
                Ok(answer) => answer,
                Err(_) => {
                    // A server that holds a request this long is hung, as far as a client knows.
                    self.connection = None;
                    note_failure(report, &format!("no answer within {} s", ANSWER_TIMEOUT.as_secs()));
                    return None;
                }
            };
            match answer {
                Ok(answer) => {
                    if answer.closes {
                        self.connection = None;
                    }
                    return Some(answer);
                }
                Err(e) => {
                    // Closed between answers (an idle timeout, a restart): one more try.
                    self.connection = None;
                    if attempt == 1 {
                        note_failure(report, &format!("exchange: {e}"));
                    } else {
                        report.server_closes += 1;
                    }
                }
            }
        }
        None
    }
}

fn note_failure(report: &mut Report, why: &str) {
    report.failures += 1;
    if report.first_problem.is_none() {
        report.first_problem = Some(why.to_owned());
    }
}

/// `connections` connections each sending request after request for `duration`.
pub async fn closed_loop(address: &str, connections: usize, duration: Duration, next: NextRequest) -> Report {
    closed_loop_counted(address, connections, duration, u64::MAX, next).await
}

/// As [`closed_loop`], stopping each connection after `per_connection` requests or at
/// `duration`, whichever comes first.
pub async fn closed_loop_counted(
    address: &str,
    connections: usize,
    duration: Duration,
    per_connection: u64,
    next: NextRequest,
) -> Report {
    closed_loop_with(address, connections, duration, per_connection, next, RetryAfter::Ignore).await
}

/// As [`closed_loop`], with clients that wait out a refusal's `Retry-After` before sending
/// again, as Zulip's do.
pub async fn closed_loop_waiting_out(
    address: &str,
    connections: usize,
    duration: Duration,
    next: NextRequest,
) -> Report {
    closed_loop_with(address, connections, duration, u64::MAX, next, RetryAfter::WaitOut).await
}

/// What a closed-loop client does with a refusal's `Retry-After`.
#[derive(Clone, Copy, PartialEq)]
enum RetryAfter {
    /// Sends again at once: a hostile or careless client.
    Ignore,
    WaitOut,
}

async fn closed_loop_with(
    address: &str,
    connections: usize,
    duration: Duration,
    per_connection: u64,
    next: NextRequest,
    retry_after: RetryAfter,
) -> Report {
    let started = Instant::now();
    let deadline = started + duration;
    let tasks: Vec<_> = (0..connections)
        .map(|index| {
            let next = next.clone();
            let address = address.to_owned();
            tokio::spawn(async move {
                let mut slot = Slot { address, connection: None };
                let mut report = Report::default();
                let mut sent = 0;
                while sent < per_connection && Instant::now() < deadline {
                    let request = next(index, sent);
                    sent += 1;
                    let at = Instant::now();
                    if let Some(answer) = slot.exchange(&request, &mut report).await {
                        report.record(&answer, at.elapsed());
                        if let Some(wait) = answer.retry_after.filter(|_| retry_after == RetryAfter::WaitOut)
                        {
                            let left = deadline.saturating_duration_since(Instant::now());
                            tokio::time::sleep(wait.min(left)).await;
                        }
                    }
                }
                report
            })
        })
        .collect();
    gather(tasks, started).await
}

/// Requests due at `rate` per second for `duration`, sent on up to `connections` connections;
/// a request that finds every connection busy waits, and its wait counts in its latency.
pub async fn open_loop(
    address: &str,
    rate: f64,
    duration: Duration,
    connections: usize,
    next: NextRequest,
) -> Report {
    let started = Instant::now() + Duration::from_millis(20);
    let total = (rate * duration.as_secs_f64()) as u64;
    let interval = Duration::from_secs_f64(1.0 / rate);
    // Requests are handed out in order through one counter: connection k takes the next due
    // request when it is free, and waits until it is due.
    let counter = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let tasks: Vec<_> = (0..connections)
        .map(|index| {
            let (next, counter, address) = (next.clone(), counter.clone(), address.to_owned());
            tokio::spawn(async move {
                let mut slot = Slot { address, connection: None };
                let mut report = Report::default();
                let mut sent = 0;
                loop {
                    let i = counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if i >= total {
                        break;
                    }
                    let due = started + interval.mul_f64(i as f64);
                    tokio::time::sleep_until(due.into()).await;
                    let request = next(index, sent);
                    sent += 1;
                    if let Some(answer) = slot.exchange(&request, &mut report).await {
                        report.record(&answer, due.elapsed());
                    }
                }
                report
            })
        })
        .collect();
    gather(tasks, started).await
}

async fn gather(tasks: Vec<tokio::task::JoinHandle<Report>>, started: Instant) -> Report {
    let mut report = Report::default();
    for task in tasks {
        match task.await {
            Ok(r) => report.merge(r),
            Err(e) => note_failure(&mut report, &format!("a connection's task failed: {e}")),
        }
    }
    report.elapsed = started.elapsed();
    report
}
