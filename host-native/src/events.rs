//! The event driver: the host half of the event system. Core's `events::Registry` decides
//! everything (which queues get an event, heartbeats, expiry); this module holds it behind a
//! lock, parks and wakes long-polls, runs its timer, and saves it across a graceful restart.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use confab_core::Event;
use confab_core::api::notifications::notifications;
use confab_core::events::{Notification, Poll, Registry};
use confab_core::ids::UserId;
use confab_core::{ApiError, ApiResult};
use serde_json::{Value, json};
use tokio::sync::Notify;

use crate::store::Store;

/// The registry and the wake-ups of parked polls. Cheap to clone.
#[derive(Clone)]
pub struct EventHub {
    inner: Arc<Inner>,
}

struct Inner {
    registry: Mutex<Registry>,
    /// One wake-up per queue that has had a poll parked.
    wakers: Mutex<HashMap<String, Arc<Notify>>>,
    /// Where the registry is saved on shutdown, as Zulip dumps its queues.
    save_path: PathBuf,
    /// Wakes the timer when the next deadline may have moved earlier.
    timer: Notify,
    /// Set at shutdown: parked polls answer at once, and no new poll parks.
    closing: AtomicBool,
}

/// How a fetch from a queue asks for its events.
pub struct Fetch {
    pub queue_id: String,
    pub user: UserId,
    pub last_event_id: Option<i64>,
    pub dont_block: bool,
}

impl EventHub {
    /// Restores the queues saved by the last graceful shutdown, if any, and tells them the
    /// server restarted. A file that does not read is logged and ignored: clients then get
    /// BAD_EVENT_QUEUE_ID and register again, as after a crash.
    pub fn load(save_path: PathBuf, now: i64) -> EventHub {
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
        // The file describes one moment; after a later crash it would be stale.
        let _ = std::fs::remove_file(&save_path);
        registry.broadcast(&restart_event(now), now);
        EventHub {
            inner: Arc::new(Inner {
                registry: Mutex::new(registry),
                wakers: Mutex::new(HashMap::new()),
                save_path,
                timer: Notify::new(),
                closing: AtomicBool::new(false),
            }),
        }
    }

    /// Runs `f` with the registry locked. Never hold the lock across an await.
    pub fn with<T>(&self, f: impl FnOnce(&mut Registry) -> T) -> T {
        let mut registry = self.inner.registry.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        f(&mut registry)
    }

    fn waker(&self, queue_id: &str) -> Arc<Notify> {
        let mut wakers = self.inner.wakers.lock().unwrap_or_else(|p| p.into_inner());
        wakers.entry(queue_id.to_owned()).or_insert_with(|| Arc::new(Notify::new())).clone()
    }

    fn wake(&self, queue_ids: &[String]) {
        let wakers = self.inner.wakers.lock().unwrap_or_else(|p| p.into_inner());
        for id in queue_ids {
            if let Some(waker) = wakers.get(id) {
                waker.notify_waiters();
            }
        }
    }

    /// Delivers committed events (called by the writer after each commit, in commit order) and
    /// wakes the polls they concern. Notifications are built on a snapshot that includes the
    /// commit.
    pub fn deliver_events(&self, store: &Store, events: &[Event]) {
        if events.is_empty() {
            return;
        }
        match store.read(|tables| notifications(tables, events)) {
            Ok(notifications) => self.deliver(&notifications),
            Err(e) => tracing::error!("events of a committed change were lost: {e}"),
        }
    }

    /// Delivers notifications and wakes the polls they concern.
    pub fn deliver(&self, notifications: &[Notification]) {
        let now = crate::http::now();
        let woken: Vec<String> = self.with(|r| notifications.iter().flat_map(|n| r.push(n, now)).collect());
        self.wake(&woken);
    }

    /// GET /events: answers at once when events are queued (or `dont_block`), else waits until
    /// an event, a heartbeat, a newer poll on the queue, or shutdown finishes this poll.
    pub async fn fetch(&self, fetch: Fetch) -> ApiResult<Vec<Value>> {
        let Fetch { queue_id, user, mut last_event_id, mut dont_block } = fetch;
        let waker = self.waker(&queue_id);
        loop {
            // Registered before asking, so a wake-up between the answer and the wait is kept.
            let notified = waker.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            let closing = self.inner.closing.load(Ordering::SeqCst);
            let now = crate::http::now();
            let poll =
                self.with(|r| r.get_events(&queue_id, user, last_event_id, dont_block || closing, now))?;
            match poll {
                Poll::Ready(events) => return Ok(events),
                Poll::Wait { ticket, superseded } => {
                    if superseded {
                        waker.notify_waiters();
                        // That wake-up was for the older poll; this one waits afresh.
                        notified.set(waker.notified());
                        notified.as_mut().enable();
                    }
                    self.inner.timer.notify_one();
                    notified.await;
                    let now = crate::http::now();
                    let current = self.with(|r| r.unpark(&queue_id, ticket, now));
                    // Finished by someone else: answer with what is queued now.
                    dont_block = !current;
                    // Acknowledged already; do not acknowledge twice.
                    last_event_id = None;
                }
            }
        }
    }

    /// Registers a queue under a fresh random id.
    pub fn register(
        &self,
        owner: confab_core::events::QueueOwner,
        options: confab_core::events::QueueOptions,
    ) -> ApiResult<confab_core::events::Registration> {
        let queue_id = crate::secrets::queue_id().map_err(ApiError::internal)?;
        let now = crate::http::now();
        let registration = self.with(|r| r.register(queue_id, owner, options, now))?;
        self.inner.timer.notify_one();
        Ok(registration)
    }

    /// DELETE /events; a poll waiting on the queue answers at once.
    pub fn delete(&self, queue_id: &str, user: UserId) -> ApiResult<()> {
        self.with(|r| r.delete(queue_id, user))?;
        self.wake(&[queue_id.to_owned()]);
        let mut wakers = self.inner.wakers.lock().unwrap_or_else(|p| p.into_inner());
        wakers.remove(queue_id);
        Ok(())
    }

    /// Runs heartbeats and expiry for ever: sleeps until the registry's next deadline, or until
    /// a poll parks or a queue is made (which may bring the deadline closer).
    pub async fn run_timer(self) {
        loop {
            let now = crate::http::now();
            let woken = self.with(|r| r.handle_timeout(now));
            self.wake(&woken);
            self.forget_gone_queues();
            let next = self.with(|r| r.poll_timeout());
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

    /// Drops the wake-ups of queues that expired, so they do not accumulate.
    fn forget_gone_queues(&self) {
        let mut wakers = self.inner.wakers.lock().unwrap_or_else(|p| p.into_inner());
        if wakers.len() > self.with(|r| r.len()) {
            wakers.retain(|id, _| self.with(|r| r.contains(id)));
        }
    }

    /// At shutdown: every waiting poll answers now, so connections drain.
    pub fn close(&self) {
        self.inner.closing.store(true, Ordering::SeqCst);
        let wakers = self.inner.wakers.lock().unwrap_or_else(|p| p.into_inner());
        for waker in wakers.values() {
            waker.notify_waiters();
        }
    }

    /// Saves the queues for the next start (graceful shutdown only), privately: queues hold
    /// messages.
    pub fn save(&self) {
        let bytes = self.with(|r| serde_json::to_vec(r));
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
