//! The event driver: the host half of the event system. Core's `events::Registry` decides
//! everything (which queues get an event, heartbeats, expiry); this module holds it behind a
//! lock, wakes parked long-polls, runs its timer, and saves it across a graceful restart.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use confab_core::events::{Notification, Registry};
use tokio::sync::Notify;

/// The registry and the wake-ups of parked polls.
#[derive(Clone)]
pub struct EventHub {
    inner: Arc<Inner>,
}

struct Inner {
    registry: Mutex<Registry>,
    /// One wake-up per queue with a parked poll.
    wakers: Mutex<HashMap<String, Arc<Notify>>>,
    /// Where the registry is saved on shutdown, as Zulip dumps its queues.
    save_path: PathBuf,
    /// Wakes the timer when the next deadline may have moved earlier.
    timer: Notify,
}

impl EventHub {
    /// Restores the queues saved by the last graceful shutdown, if any. A file that does not
    /// read is logged and ignored: clients then get BAD_EVENT_QUEUE_ID and re-register.
    pub fn load(save_path: PathBuf) -> EventHub {
        let registry = match std::fs::read(&save_path) {
            Ok(bytes) => match serde_json::from_slice::<Registry>(&bytes) {
                Ok(registry) => {
                    tracing::info!("restored event queues from {}", save_path.display());
                    registry
                }
                Err(e) => {
                    tracing::warn!("ignoring unreadable event queues in {}: {e}", save_path.display());
                    Registry::default()
                }
            },
            Err(_) => Registry::default(),
        };
        // The file describes one moment; after a crash it would be stale.
        let _ = std::fs::remove_file(&save_path);
        EventHub {
            inner: Arc::new(Inner {
                registry: Mutex::new(registry),
                wakers: Mutex::new(HashMap::new()),
                save_path,
                timer: Notify::new(),
            }),
        }
    }

    /// Runs `f` with the registry locked. Never hold the lock across an await.
    pub fn with<T>(&self, f: impl FnOnce(&mut Registry) -> T) -> T {
        let mut registry = self.inner.registry.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        f(&mut registry)
    }

    /// The wake-up of a queue's parked poll.
    pub fn waker(&self, queue_id: &str) -> Arc<Notify> {
        let mut wakers = self.inner.wakers.lock().unwrap_or_else(|p| p.into_inner());
        wakers.entry(queue_id.to_owned()).or_insert_with(|| Arc::new(Notify::new())).clone()
    }

    fn wake(&self, queue_ids: &[String]) {
        let wakers = self.inner.wakers.lock().unwrap_or_else(|p| p.into_inner());
        for id in queue_ids {
            if let Some(waker) = wakers.get(id) {
                waker.notify_one();
            }
        }
    }

    /// Delivers notifications (after their data is durable) and wakes the polls they concern.
    pub fn deliver(&self, notifications: &[Notification]) {
        if notifications.is_empty() {
            return;
        }
        let now = crate::http::now();
        let woken: Vec<String> = self.with(|r| notifications.iter().flat_map(|n| r.push(n, now)).collect());
        self.wake(&woken);
    }

    /// Tells the timer that deadlines may have changed (a poll parked).
    pub fn reschedule(&self) {
        self.inner.timer.notify_one();
    }

    /// Runs heartbeats and expiry for ever: sleeps until the registry's next deadline.
    pub async fn run_timer(self) {
        loop {
            let now = crate::http::now();
            let woken = self.with(|r| r.handle_timeout(now));
            self.wake(&woken);
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

    /// Saves the queues for the next start (graceful shutdown only).
    pub fn save(&self) {
        let bytes = self.with(|r| serde_json::to_vec(r));
        match bytes {
            Ok(bytes) => match std::fs::write(&self.inner.save_path, bytes) {
                Ok(()) => tracing::info!("saved event queues to {}", self.inner.save_path.display()),
                Err(e) => tracing::warn!("could not save event queues: {e}"),
            },
            Err(e) => tracing::warn!("could not encode event queues: {e}"),
        }
    }
}
