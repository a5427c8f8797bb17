//! The single writer, with group commit.
//!
//! Every command goes to one thread. It takes all commands waiting at that moment, runs them in
//! order in one write transaction (each sees the changes of those before it), builds the
//! batch's notifications on that transaction, commits once (on redb, the batch's changes synced
//! to the write-ahead log and redb's commit unsynced, see `store::checkpoint`; on PostgreSQL,
//! a synchronous commit that also records the notifications for the other servers), and only
//! then answers each: a reply is never sent, and no event made visible, before the data it
//! reports is durable; the batch's events go to the event sink after the commit and before the
//! replies, and what the sink leaves for later (waking waiting polls) runs after the replies. A command that fails has asked for no writes, so it cannot spoil
//! its batch; a failure to apply or commit fails the whole batch, which then wrote nothing.

use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use confab_core::api::notifications::notifications;
use confab_core::events::Notification;
use confab_core::store::Change;
use confab_core::{ApiError, ApiResult, Event, Outcome};
use tokio::sync::oneshot;

use crate::metrics::Metrics;
use crate::store::{self, Store, WriteTables};

/// A command, run against the writer's tables.
pub type Job = Box<dyn FnOnce(&WriteTables<'_>) -> ApiResult<Outcome> + Send>;

struct Request {
    job: Job,
    reply: oneshot::Sender<ApiResult<Outcome>>,
}

/// What the writer thread is asked: a command, or to finish what it has and end.
enum Message {
    Run(Request),
    /// Answered by the thread as soon as it reads it: it runs and has taken every command
    /// sent before (`GET /ready`). No transaction, so no lock on a shared database.
    Ping(oneshot::Sender<()>),
    Stop,
}

/// Where the events of committed commands go, in commit order, before any reply is sent. What
/// it returns runs after the replies.
pub type EventSink = Box<dyn Fn(&Store, Committed) -> AfterReplies + Send>;

/// Work the event sink leaves until the batch's commands have their answers.
pub type AfterReplies = Box<dyn FnOnce() + Send>;

/// The most commands one transaction takes; bounds the latency a batch adds.
const MAX_BATCH: usize = 512;

/// A handle to the writer thread. Cheap to clone; the thread ends when [`Writer::stop`] is
/// called or every handle is gone.
#[derive(Clone)]
pub struct Writer {
    queue: mpsc::Sender<Message>,
    /// Disconnected once the thread has dropped its store and sink.
    finished: Arc<Mutex<mpsc::Receiver<()>>>,
}

impl Writer {
    /// Starts the thread; each batch's size and commit time go to `metrics`.
    pub fn start(store: Arc<Store>, events: EventSink, metrics: Arc<Metrics>) -> Writer {
        let (queue, requests) = mpsc::channel::<Message>();
        let (finishing, finished) = mpsc::channel::<()>();
        std::thread::Builder::new()
            .name("confab-writer".into())
            .spawn(move || {
                run(&store, &requests, &events, &metrics);
                // The store goes before the signal, so a stop that saw the signal knows the
                // thread holds no part of the database.
                drop((store, events));
                drop(finishing);
            })
            .map(|_| ())
            .unwrap_or_else(|e| tracing::error!("cannot start the writer thread: {e}"));
        Writer { queue, finished: Arc::new(Mutex::new(finished)) }
    }

    /// Runs a command and waits until its changes are durable.
    pub async fn submit(&self, job: Job) -> ApiResult<Outcome> {
        let (reply, answer) = oneshot::channel();
        self.queue
            .send(Message::Run(Request { job, reply }))
            .map_err(|_| ApiError::internal("the writer has stopped"))?;
        answer.await.map_err(|_| ApiError::internal("the writer dropped a command"))?
    }

    /// Answers once the thread has read every command sent before: the writer is alive and
    /// taking commands (`GET /ready`). Opens no transaction, so health checks every few
    /// seconds from a proxy never wait for (or hold) the writer's lock on a shared database.
    pub async fn ping(&self) -> ApiResult<()> {
        let (reply, answer) = oneshot::channel();
        self.queue.send(Message::Ping(reply)).map_err(|_| ApiError::internal("the writer has stopped"))?;
        answer.await.map_err(|_| ApiError::internal("the writer stopped before answering"))
    }

    /// Has the thread commit and answer the commands sent before this call, then end and drop
    /// its store; later commands are refused. Blocks until then, or for at most `wait`; true
    /// when the thread has ended.
    pub fn stop(&self, wait: Duration) -> bool {
        // Sending fails only when the thread has already ended.
        let _ = self.queue.send(Message::Stop);
        let finished = self.finished.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        matches!(finished.recv_timeout(wait), Err(mpsc::RecvTimeoutError::Disconnected))
    }
}

fn run(store: &Store, requests: &mpsc::Receiver<Message>, sink: &EventSink, metrics: &Metrics) {
    let mut stopping = false;
    while !stopping {
        let Some(first) = next_command(store, requests) else { return };
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match requests.try_recv() {
                Ok(Message::Run(more)) => batch.push(more),
                Ok(Message::Ping(reply)) => {
                    let _ = reply.send(());
                }
                Ok(Message::Stop) => {
                    stopping = true;
                    break;
                }
                Err(_) => break,
            }
        }
        let (replies, jobs): (Vec<_>, Vec<_>) = batch.into_iter().map(|r| (r.reply, r.job)).unzip();
        let commands = jobs.len();
        let Executed { results, commit, committed } = execute(store, jobs, Commit::Logged);
        metrics.batch(commands, commit);
        // Events are queued in commit order, before the replies: a client that sees its reply
        // can count on its own event being queued. The polls they wake are answered after the
        // replies, so a sender does not wait for its message to reach everyone.
        let after_replies = sink(store, committed);
        for (reply, result) in replies.into_iter().zip(results) {
            // The caller may have gone away (client disconnected); its data is committed anyway.
            let _ = reply.send(result);
        }
        after_replies();
    }
}

/// Waits for the next command; `None` when told to stop or every handle is gone. While redb
/// holds unsynced batches, waiting is cut short to checkpoint them once they are due, so an
/// idle server soon has nothing to replay.
fn next_command(store: &Store, requests: &mpsc::Receiver<Message>) -> Option<Request> {
    let mut retry = None;
    loop {
        let message = match retry.take().or_else(|| store.checkpoint_in()) {
            None => requests.recv().ok(),
            Some(due) => match requests.recv_timeout(due) {
                Ok(message) => Some(message),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if let Err(e) = store.checkpoint() {
                        tracing::error!("checkpoint failed: {}", e.msg);
                        // Not again at once: a failing disk would have the writer spin.
                        retry = Some(store::CHECKPOINT_INTERVAL);
                    }
                    continue;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => None,
            },
        };
        return match message? {
            Message::Run(request) => Some(request),
            Message::Ping(reply) => {
                let _ = reply.send(());
                continue;
            }
            Message::Stop => None,
        };
    }
}

/// How a batch is made durable.
#[derive(Clone, Copy)]
enum Commit {
    /// Through the write-ahead log: the server's writer.
    Logged,
    /// By a durable redb commit: single commands and bulk loads with no server running.
    Direct,
}

/// Runs one command in its own transaction, on the calling thread: for the command line, when
/// no server (and so no writer thread) is running.
pub fn run_now(store: &Store, job: Job) -> ApiResult<Outcome> {
    execute(store, vec![job], Commit::Direct)
        .results
        .pop()
        .unwrap_or_else(|| Err(ApiError::internal("no result")))
}

/// Runs commands in one transaction on the calling thread, each seeing the changes of those
/// before it, as the writer runs a batch: for bulk work on a stopped server's data directory
/// (the benchmarks' seeding). Returns each command's answer, in order.
pub fn run_batch(store: &Store, jobs: Vec<Job>) -> Vec<ApiResult<Outcome>> {
    execute(store, jobs, Commit::Direct).results
}

/// How a batch's commit went: how long it took, or that it failed; `None` when the batch
/// wrote nothing and so committed nothing.
type CommitTime = Option<Result<Duration, ()>>;

/// What a committed batch hands the event sink.
#[derive(Default)]
pub struct Committed {
    /// The batch's events, in order (the host acts on some: webhooks, emails).
    pub events: Vec<Event>,
    /// What they mean for the event queues, built on the batch's own transaction.
    pub notifications: Vec<Notification>,
    /// The number the batch's notifications were recorded under for the other servers on the
    /// database (PostgreSQL); `None` when nothing is shared.
    pub sequence: Option<u64>,
}

/// A batch run: each job's answer, in order, its commit's time, and what it committed.
struct Executed {
    results: Vec<ApiResult<Outcome>>,
    commit: CommitTime,
    committed: Committed,
}

impl Executed {
    fn failed(jobs: usize, err: ApiError) -> Executed {
        let results = (0..jobs).map(|_| Err(err.clone())).collect();
        Executed { results, commit: Some(Err(())), committed: Committed::default() }
    }
}

/// Runs a batch in one transaction.
fn execute(store: &Store, jobs: Vec<Job>, commit: Commit) -> Executed {
    let n = jobs.len();
    let txn = match store.begin_write() {
        Ok(txn) => txn,
        Err(e) => return Executed::failed(n, e),
    };
    let mut results = Vec::with_capacity(n);
    let mut wrote = false;
    let mut committed = Committed::default();
    {
        let mut tables = match WriteTables::open(&txn) {
            Ok(t) => t,
            Err(e) => return Executed::failed(n, ApiError::internal(e)),
        };
        for job in jobs {
            let mut result = job(&tables);
            if let Ok(outcome) = &mut result {
                wrote |= !outcome.changes.is_empty();
                for change in &outcome.changes {
                    if let Err(e) = tables.apply(change) {
                        tracing::error!("applying a change failed; the batch is abandoned: {e}");
                        drop(tables);
                        txn.abort();
                        return Executed::failed(n, e);
                    }
                }
                committed.events.append(&mut outcome.events);
            }
            results.push(result);
        }
        // On the transaction's own view: exactly this batch's state, whoever commits next.
        committed.notifications = notifications(&tables, &committed.events).unwrap_or_else(|e| {
            tracing::error!("the events of a batch are lost: {e}");
            Vec::new()
        });
    }
    if store.shares_events() && !committed.notifications.is_empty() {
        // Other servers learn of the batch from its row, committed with it (typing notices
        // too, which write nothing else).
        let shared = serde_json::to_vec(&committed.notifications)
            .map_err(ApiError::internal)
            .and_then(|payload| store.publish_events(&txn, &payload));
        match shared {
            Ok(sequence) => committed.sequence = sequence,
            Err(e) => {
                txn.abort();
                return Executed::failed(n, e);
            }
        }
        wrote = true;
    }
    if !wrote {
        // Nothing to make durable (typing notices, refused commands): skip the fsync.
        txn.abort();
        return Executed { results, commit: None, committed };
    }
    let started = Instant::now();
    let durable = match commit {
        Commit::Logged => {
            let changes: Vec<&Change> =
                results.iter().filter_map(|r| r.as_ref().ok()).flat_map(|o| &o.changes).collect();
            store.commit_logged(txn, &changes)
        }
        Commit::Direct => store::commit(txn),
    };
    if let Err(e) = durable {
        tracing::error!("commit failed: {}", e.msg);
        return Executed::failed(n, e);
    }
    Executed { results, commit: Some(Ok(started.elapsed())), committed }
}
