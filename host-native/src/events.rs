//! The event driver: the host half of the event system. Core's `events::Registry` decides
//! everything (which queues get an event, heartbeats, expiry); this module holds it behind a
//! lock with the long-polls waiting on it, answers them, runs its timer, and saves it across a
//! graceful restart.
//!
//! A waiting poll is answered by whoever finishes it (the writer after its replies, the timer with
//! a heartbeat, a newer poll, a deletion, shutdown): that thread takes the queue's events under
//! the one lock it already holds and sends them down the poll's channel. Waking thousands of
//! polls therefore costs one lock, not two per poll fighting over it.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use confab_core::events::{
    Notification, PendingEvents, Poll, PollTicket, QueueOptions, QueueOwner, Registration, Registry,
};
use confab_core::ids::UserId;
use confab_core::{ApiError, ApiResult};
use serde::Serialize;
use serde_json::{Value, json};
use tokio::sync::{Notify, oneshot};

use crate::node::NodeId;
use crate::store::Store;
use crate::writer::Committed;

/// How long the batches shared on the database are kept. Every running server reads them
/// within a second; this is for one that stops gracefully and starts again with its queues,
/// which are discarded if the batches it missed are gone (and would have expired anyway, past
/// Zulip's 10 idle minutes).
const KEEP_SHARED_EVENTS: Duration = Duration::from_secs(15 * 60);
/// How often a server prunes them (every server does; the deletes agree).
const PRUNE_EVERY: Duration = Duration::from_secs(5 * 60);

/// Forgets the shared batches older than [`KEEP_SHARED_EVENTS`]; a failure waits for the next
/// round.
fn prune_shared_events(store: &Store) {
    match store.prune_events(KEEP_SHARED_EVENTS) {
        Ok(0) => {}
        Ok(pruned) => tracing::debug!("pruned {pruned} shared event batches"),
        Err(e) => tracing::warn!("pruning the shared events: {}", e.msg),
    }
}

/// The event queues and the polls waiting on them. Cheap to clone.
#[derive(Clone)]
pub struct EventHub {
    inner: Arc<Inner>,
}

struct Inner {
    state: Mutex<State>,
    /// Where the registry is saved on shutdown, as Zulip dumps its queues.
    save_path: PathBuf,
    /// Wakes the timer when the next deadline may have moved earlier.
    timer: Notify,
    /// Set at shutdown: waiting polls answer at once, and no new poll waits.
    closing: AtomicBool,
    /// The last batch shared on the database that this server's queues have (PostgreSQL).
    /// Held while batches are queued, so they are queued in order and once.
    shared_cursor: Mutex<u64>,
    /// Whether the store shares batches with other servers ([`EventHub::share_events`]).
    shares: AtomicBool,
    /// This server's name among several, which starts each of its queue ids.
    node: Option<NodeId>,
    /// Told of every batch shared on the database ([`EventHub::on_shared_batches`]).
    shared_hook: std::sync::OnceLock<SharedHook>,
}

/// What a server does with the batches other servers share, besides queueing them.
type SharedHook = Box<dyn Fn(&[Notification]) + Send + Sync>;

struct State {
    registry: Registry,
    /// The waiting poll of each queue that has one.
    waiting: HashMap<String, Waiting>,
}

/// A parked poll: how to answer it.
struct Waiting {
    ticket: PollTicket,
    user: UserId,
    answer: oneshot::Sender<ApiResult<Answer>>,
}

/// Ends a waiting poll whose client went away: the connection drops the poll's future, and
/// the queue then counts as idle from that moment, as Zulip's Tornado counts a queue's timeout
/// from its client's disconnect. Without this, a vanished client's queue would stay parked
/// until the next heartbeat, and live that much longer than its timeout.
struct LeftPoll<'a> {
    hub: &'a EventHub,
    queue_id: &'a str,
    ticket: PollTicket,
}

impl Drop for LeftPoll<'_> {
    fn drop(&mut self) {
        let now = crate::http::now();
        self.hub.with(|state| {
            // Answered polls were taken out of `waiting` already; only an abandoned one is left.
            if state.waiting.get(self.queue_id).is_some_and(|waiting| waiting.ticket == self.ticket) {
                state.waiting.remove(self.queue_id);
                state.registry.unpark(self.queue_id, self.ticket, now);
            }
        });
        self.hub.inner.timer.notify_one();
    }
}

/// The events a fetch answers with.
pub enum Answer {
    /// Taken by the fetch itself.
    Ready(Vec<Value>),
    /// Taken by whoever finished the waiting poll, to be made whole by the poll.
    Finished(PendingEvents),
}

impl Serialize for Answer {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Answer::Ready(events) => events.serialize(serializer),
            Answer::Finished(events) => events.serialize(serializer),
        }
    }
}

/// Queues that received events and whose waiting polls, if any, are still to be answered.
#[derive(Debug, Default)]
#[must_use = "waiting polls are answered only by EventHub::wake"]
pub struct Woken {
    queue_ids: Vec<String>,
}

/// How a fetch from a queue asks for its events.
pub struct Fetch {
    pub queue_id: String,
    pub user: UserId,
    pub last_event_id: Option<i64>,
    pub dont_block: bool,
}

impl State {
    /// Answers the poll waiting on `queue_id`, if any, with what the queue holds now (an
    /// error if the queue is gone). A poll whose client left is simply dropped.
    fn finish(&mut self, queue_id: &str, now: i64) {
        let Some(waiting) = self.waiting.remove(queue_id) else { return };
        self.registry.unpark(queue_id, waiting.ticket, now);
        let answer = self.registry.pending(queue_id, waiting.user, now).map(Answer::Finished);
        let _ = waiting.answer.send(answer);
    }
}

impl EventHub {
    /// Restores the queues saved by the last graceful shutdown, if any, and tells them the
    /// server restarted. A file that does not read is logged and ignored: clients then get
    /// BAD_EVENT_QUEUE_ID and register again, as after a crash. New queues' ids start with
    /// `node`, when the server has a name among several.
    pub fn load(save_path: PathBuf, now: i64, queue_timeout_secs: i64, node: Option<NodeId>) -> EventHub {
        let mut registry = match std::fs::read(&save_path) {
            Ok(bytes) => match serde_json::from_slice::<Registry>(&bytes) {
                Ok(registry) => {
                    tracing::info!("restored {} event queues from {}", registry.len(), save_path.display());
                    registry
                }
                Err(e) => {
                    tracing::warn!("ignoring unreadable event queues in {}: {e}", save_path.display());
                    Registry::new()
                }
            },
            Err(_) => Registry::new(),
        };
        registry.set_queue_timeout(queue_timeout_secs);
        // The file describes one moment; after a later crash it would be stale.
        let _ = std::fs::remove_file(&save_path);
        registry.broadcast(&restart_event(now), now);
        EventHub {
            inner: Arc::new(Inner {
                state: Mutex::new(State { registry, waiting: HashMap::new() }),
                save_path,
                timer: Notify::new(),
                closing: AtomicBool::new(false),
                shared_cursor: Mutex::new(0),
                shares: AtomicBool::new(false),
                node,
                shared_hook: std::sync::OnceLock::new(),
            }),
        }
    }

    /// Runs `f` with everything locked. Never hold the lock across an await.
    fn with<T>(&self, f: impl FnOnce(&mut State) -> T) -> T {
        let mut state = self.inner.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        f(&mut state)
    }

    /// Queues a committed batch's notifications (called by the writer after each commit, in
    /// commit order, before it replies). A batch other servers share (PostgreSQL) goes in the
    /// database's order: the batches of other servers committed before it are queued first,
    /// and each batch once, whether the writer or the listener ([`EventHub::listen`]) gets
    /// there first. Returns the queues that received events; [`EventHub::wake`] answers their
    /// waiting polls.
    pub fn queue_committed(&self, store: &Store, committed: &Committed) -> Woken {
        let Some(sequence) = committed.sequence else {
            return self.queue(&committed.notifications);
        };
        let mut cursor = self.cursor();
        if *cursor >= sequence {
            return Woken::default();
        }
        let mut woken = self.catch_up(store, &mut cursor, sequence - 1);
        woken.queue_ids.extend(self.queue(&committed.notifications).queue_ids);
        *cursor = sequence;
        woken
    }

    /// Where this server stands in the batches shared on the database.
    fn cursor(&self) -> std::sync::MutexGuard<'_, u64> {
        self.inner.shared_cursor.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Queues the shared batches after the cursor, up to `through`, in order.
    fn catch_up(&self, store: &Store, cursor: &mut u64, through: u64) -> Woken {
        let mut woken = Woken::default();
        while *cursor < through {
            let rows = match store.events_after(*cursor, 256) {
                Ok(rows) => rows,
                Err(e) => {
                    // Read again at the next announcement or the listener's next round.
                    tracing::error!("reading other servers' events: {}", e.msg);
                    return woken;
                }
            };
            if rows.is_empty() {
                return woken;
            }
            for (sequence, payload) in rows.into_iter().take_while(|(sequence, _)| *sequence <= through) {
                if sequence != *cursor + 1 {
                    // Pruned while this server was away: its queues cannot be complete.
                    self.discard_queues(&format!(
                        "the shared events {}..{} are gone",
                        *cursor + 1,
                        sequence - 1
                    ));
                }
                match serde_json::from_slice::<Vec<Notification>>(&payload) {
                    Ok(notifications) => {
                        if let Some(hook) = self.inner.shared_hook.get() {
                            hook(&notifications);
                        }
                        woken.queue_ids.extend(self.queue(&notifications).queue_ids);
                    }
                    Err(e) => tracing::error!("the events of batch {sequence} do not read: {e}"),
                }
                *cursor = sequence;
            }
        }
        woken
    }

    /// Delivers other servers' batches as they are announced, until the hub closes: runs on a
    /// thread of its own, with a connection of its own. A missed announcement costs at most a
    /// second (the wait's limit), a lost connection a reconnection.
    pub fn listen(&self, store: &Store) {
        let mut listener = None;
        let mut pruned_at = Instant::now();
        while !self.inner.closing.load(Ordering::Relaxed) {
            if pruned_at.elapsed() >= PRUNE_EVERY {
                prune_shared_events(store);
                pruned_at = Instant::now();
            }
            if listener.is_none() {
                match store.listener() {
                    Ok(Some(connected)) => listener = Some(connected),
                    Ok(None) => return,
                    Err(e) => {
                        tracing::warn!("cannot listen for other servers' events: {}", e.msg);
                        std::thread::sleep(Duration::from_secs(1));
                        continue;
                    }
                }
            }
            if let Some(connected) = &mut listener
                && let Err(e) = connected.wait(Duration::from_secs(1))
            {
                tracing::warn!("listening for other servers' events: {e}");
                listener = None;
            }
            let woken = {
                let mut cursor = self.cursor();
                self.catch_up(store, &mut cursor, u64::MAX)
            };
            self.wake(woken);
        }
    }

    /// Takes part in the batches shared on the database. The queues restored from a graceful
    /// stop continue from where they stopped (the cursor saved with them): the batches other
    /// servers committed meanwhile are queued now. New queues start from the last batch.
    pub fn share_events(&self, store: &Store) -> ApiResult<()> {
        self.inner.shares.store(true, Ordering::Relaxed);
        let saved = self.cursor_path();
        let restored = std::fs::read_to_string(&saved).ok().and_then(|text| text.trim().parse::<u64>().ok());
        let _ = std::fs::remove_file(&saved);
        prune_shared_events(store);
        let last = store.last_event()?;
        let mut cursor = self.cursor();
        match restored {
            Some(at) if at > last => {
                // A database restored from a backup, or a new one: not the batches the queues saw.
                self.discard_queues(&format!(
                    "the saved queues saw shared event {at}, the database ends at {last}"
                ));
                *cursor = last;
            }
            Some(at) if self.with(|state| state.registry.len()) > 0 => {
                *cursor = at;
                let woken = self.catch_up(store, &mut cursor, u64::MAX);
                drop(cursor);
                self.wake(woken);
            }
            _ => *cursor = last,
        }
        Ok(())
    }

    /// Has `hook` see the notifications of every batch shared on the database (PostgreSQL), as
    /// they are queued: how a server hears that another one took work its own tasks share
    /// (a scheduled message, an export). Set once; later calls are ignored.
    pub fn on_shared_batches(&self, hook: impl Fn(&[Notification]) + Send + Sync + 'static) {
        let _ = self.inner.shared_hook.set(Box::new(hook));
    }

    /// Discards every queue: their clients get BAD_EVENT_QUEUE_ID and register again, as after
    /// a crash. For when this server can no longer give them every event.
    fn discard_queues(&self, why: &str) {
        let now = crate::http::now();
        let discarded = self.with(|state| {
            let ids = state.registry.discard_all();
            for id in &ids {
                state.finish(id, now);
            }
            ids.len()
        });
        if discarded > 0 {
            tracing::warn!("discarded {discarded} event queues: {why}");
        }
    }

    /// Where the shared cursor is saved beside the queues.
    fn cursor_path(&self) -> PathBuf {
        self.inner.save_path.with_extension("cursor")
    }

    /// Queues notifications; returns the queues that received events.
    pub fn queue(&self, notifications: &[Notification]) -> Woken {
        let now = crate::http::now();
        self.with(|state| {
            let queue_ids = notifications.iter().flat_map(|n| state.registry.push(n, now)).collect();
            Woken { queue_ids }
        })
    }

    /// Answers the polls waiting on queues that received events. The writer calls this after
    /// its replies, so a command's own answer does not wait behind thousands of polls; a poll
    /// that asks meanwhile finds the events queued.
    pub fn wake(&self, woken: Woken) {
        if woken.queue_ids.is_empty() {
            return;
        }
        let now = crate::http::now();
        self.with(|state| {
            for queue_id in &woken.queue_ids {
                if state.registry.has_events(queue_id) {
                    state.finish(queue_id, now);
                }
            }
        });
    }

    /// GET /events: answers at once when events are queued (or `dont_block`), else waits until
    /// an event, a heartbeat, a newer poll on the queue, a deletion or shutdown answers it.
    pub async fn fetch(&self, fetch: Fetch) -> ApiResult<Answer> {
        let Fetch { queue_id, user, last_event_id, dont_block } = fetch;
        let (answer, answered) = oneshot::channel();
        let closing = self.inner.closing.load(Ordering::SeqCst);
        let now = crate::http::now();
        let poll = self.with(|state| {
            let poll =
                state.registry.get_events(&queue_id, user, last_event_id, dont_block || closing, now)?;
            if let Poll::Wait { ticket, superseded } = poll {
                if superseded {
                    // A new poll finishes the old one, as in Zulip; the registry already
                    // counts this one as the queue's waiting poll.
                    if let Some(older) = state.waiting.remove(&queue_id) {
                        let _ = older.answer.send(Ok(Answer::Ready(Vec::new())));
                    }
                }
                state.waiting.insert(queue_id.clone(), Waiting { ticket, user, answer });
            }
            Ok::<_, ApiError>(poll)
        })?;
        match poll {
            Poll::Ready(events) => Ok(Answer::Ready(events)),
            Poll::Wait { ticket, .. } => {
                self.inner.timer.notify_one();
                let _left = LeftPoll { hub: self, queue_id: &queue_id, ticket };
                // A dropped sender means the hub went away; answer empty, the client polls again.
                answered.await.unwrap_or_else(|_| Ok(Answer::Ready(Vec::new())))
            }
        }
    }

    /// How many queues exist and how many polls wait on them, for `/metrics`.
    pub fn counts(&self) -> (usize, usize) {
        self.with(|state| (state.registry.len(), state.waiting.len()))
    }

    /// Registers a queue under a fresh random id (after this node's name, if it has one).
    pub fn register(&self, owner: QueueOwner, options: QueueOptions) -> ApiResult<Registration> {
        let random = crate::secrets::queue_id().map_err(ApiError::internal)?;
        let queue_id = match &self.inner.node {
            Some(node) => node.queue_id(&random),
            None => random,
        };
        let now = crate::http::now();
        let registration = self.with(|state| state.registry.register(queue_id, owner, options, now))?;
        self.inner.timer.notify_one();
        Ok(registration)
    }

    /// DELETE /events; a poll waiting on the queue is answered with BAD_EVENT_QUEUE_ID.
    pub fn delete(&self, queue_id: &str, user: UserId) -> ApiResult<()> {
        let now = crate::http::now();
        self.with(|state| {
            state.registry.delete(queue_id, user)?;
            state.finish(queue_id, now);
            Ok(())
        })
    }

    /// Runs heartbeats and expiry for ever: sleeps until the registry's next deadline, or until
    /// a poll parks or a queue is made (which may bring the deadline closer).
    pub async fn run_timer(self) {
        loop {
            let now = crate::http::now();
            let next = self.with(|state| {
                for queue_id in state.registry.handle_timeout(now) {
                    state.finish(&queue_id, now);
                }
                // Expired queues had no waiting poll, so `waiting` holds nothing of theirs.
                state.registry.poll_timeout()
            });
            let wait = match next {
                Some(at) => Duration::from_secs(u64::try_from(at - now).unwrap_or(0).max(1)),
                None => Duration::from_secs(60),
            };
            tokio::select! {
                () = tokio::time::sleep(wait) => {}
                () = self.inner.timer.notified() => {}
            }
        }
    }

    /// At shutdown: every waiting poll answers now, so connections drain.
    pub fn close(&self) {
        self.inner.closing.store(true, Ordering::SeqCst);
        let now = crate::http::now();
        self.with(|state| {
            let queue_ids: Vec<String> = state.waiting.keys().cloned().collect();
            for queue_id in queue_ids {
                state.finish(&queue_id, now);
            }
        });
    }

    /// Saves the queues for the next start (graceful shutdown only), privately: queues hold
    /// messages.
    pub fn save(&self) {
        if self.inner.shares.load(Ordering::Relaxed) {
            let at = self.cursor().to_string();
            if let Err(e) = crate::bootstrap::write_private_file(&self.cursor_path(), at.as_bytes()) {
                // Without it, the queues are not restored (they would miss events).
                tracing::warn!("could not save the event queues' place in the shared events: {e}");
                return;
            }
        }
        let bytes = self.with(|state| serde_json::to_vec(&state.registry));
        let written = bytes.map_err(|e| e.to_string()).and_then(|bytes| {
            crate::bootstrap::write_private_file(&self.inner.save_path, &bytes).map_err(|e| e.to_string())
        });
        match written {
            Ok(()) => tracing::info!("saved event queues to {}", self.inner.save_path.display()),
            Err(e) => tracing::warn!("could not save event queues: {e}"),
        }
    }
}

/// Zulip's `restart` event, sent to every restored queue at start.
fn restart_event(now: i64) -> Value {
    use confab_core::version::{FEATURE_LEVEL, MERGE_BASE, ZULIP_VERSION};
    json!({
        "type": "restart",
        "zulip_version": ZULIP_VERSION,
        "zulip_merge_base": MERGE_BASE,
        "zulip_feature_level": FEATURE_LEVEL,
        "server_generation": now,
        "immediate": false,
    })
}
