//! The delivery driver: the host half of scheduled messages and reminders. Core decides what is
//! due and what sending it means (`confab_core::api::scheduled_delivery`); this task sleeps
//! until the next delivery time, or until a scheduled message is created or changed (which may
//! bring that time closer), then submits each due delivery to the writer as its own command, so
//! that each is durable and emits the usual message events.
//!
//! Scheduled messages are stored, so a restart loses none: the task's first round, at startup,
//! delivers those that came due while the server was down.
//!
//! Servers sharing one PostgreSQL database each run this task over the same scheduled messages,
//! and more than one may find a message due at once. Each delivery is a writer command, and
//! every writer batch takes the cluster's writer lock and re-reads the scheduled message, doing
//! nothing unless it is still pending: it is sent exactly once, by whichever server comes first.
//! A server is woken only by the scheduled messages created or changed through it, and learns of
//! the others when it next reads the due list; so there its sleep is capped at
//! [`SHARED_MAX_SLEEP`], and if the server that took a message is down at its time, another
//! sends it at most that late.
//!
//! The same task runs the weekly sweep that marks quiet channels (core's
//! `api::channel_activity`) at the time core names, as Zulip's cron does: a sweep missed while
//! the server was down waits for the next week, as a cron job missed is.

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use confab_core::api::channel_activity::{next_sweep_at, sweep_quiet_channels};
use confab_core::api::scheduled_delivery::{deliver_scheduled_message, due_deliveries, next_delivery_at};
use confab_core::subdomains::Site;
use tokio::sync::Notify;

use crate::store::Store;
use crate::writer::Writer;

/// The longest sleep: a wall clock set back or forward is noticed within this.
const MAX_SLEEP: Duration = Duration::from_secs(3600);
/// The longest sleep on a database other servers share: a scheduled message created through
/// another server wakes only that one, so this is how late it can be sent when that server is
/// down at its time (this server finds it on its next read of the due list).
const SHARED_MAX_SLEEP: Duration = Duration::from_secs(30);
/// The pause after a storage fault, before trying the same deliveries again.
const RETRY_AFTER: Duration = Duration::from_secs(5);

/// Wakes the delivery task. Cheap to clone.
#[derive(Clone, Default)]
pub struct Deliveries {
    wake: Arc<Notify>,
}

impl Deliveries {
    /// A scheduled message or reminder was created or changed: the next delivery may be sooner.
    pub fn wake(&self) {
        // Stored as a permit when the task is busy, so no change goes unnoticed.
        self.wake.notify_one();
    }

    /// Delivers for ever.
    pub async fn run(self, store: Arc<Store>, writer: Writer, site: Arc<Site>) {
        let longest = if store.shares_events() { SHARED_MAX_SLEEP } else { MAX_SLEEP };
        let mut next_sweep = next_sweep_at(crate::http::now());
        loop {
            let now = crate::http::now();
            if now >= next_sweep {
                match writer.submit(Box::new(move |tables| sweep_quiet_channels(tables, now))).await {
                    Ok(_) => next_sweep = next_sweep_at(now),
                    Err(e) => {
                        tracing::error!("marking quiet channels failed: {e}");
                        tokio::time::sleep(RETRY_AFTER).await;
                        continue;
                    }
                }
            }
            let reader = store.clone();
            let planned = tokio::task::spawn_blocking(move || {
                reader.read(|tables| Ok((due_deliveries(tables, now)?, next_delivery_at(tables)?)))
            })
            .await;
            let (due, next) = match planned {
                Ok(Ok(planned)) => planned,
                Ok(Err(e)) => {
                    tracing::error!("cannot read the scheduled messages: {e}");
                    tokio::time::sleep(RETRY_AFTER).await;
                    continue;
                }
                Err(e) => {
                    tracing::error!("the scheduled messages read failed: {e}");
                    tokio::time::sleep(RETRY_AFTER).await;
                    continue;
                }
            };
            if !due.is_empty() {
                if !self.deliver(&writer, &site, due, now).await {
                    tokio::time::sleep(RETRY_AFTER).await;
                }
                // More may have come due meanwhile.
                continue;
            }
            let wait = next.map_or(longest, |at| until(at).min(longest)).min(until(next_sweep));
            tokio::select! {
                () = tokio::time::sleep(wait) => {}
                () = self.wake.notified() => {}
            }
        }
    }

    /// Submits each delivery in turn; false if any failed on a storage fault (it is still
    /// pending, and is tried again).
    async fn deliver(
        &self,
        writer: &Writer,
        site: &Arc<Site>,
        due: Vec<confab_core::ids::ScheduledMessageId>,
        now: i64,
    ) -> bool {
        let mut all_written = true;
        for id in due {
            let site = site.clone();
            let delivered = writer
                .submit(Box::new(move |tables| deliver_scheduled_message(tables, &site, id, now)))
                .await;
            if let Err(e) = delivered {
                tracing::error!("delivering scheduled message {id} failed: {e}");
                all_written = false;
            }
        }
        all_written
    }
}

/// How long until UNIX second `at` begins on the wall clock (zero if it has; the longest sleep
/// for a time the clock cannot even name).
fn until(at: i64) -> Duration {
    match UNIX_EPOCH.checked_add(Duration::from_secs(u64::try_from(at).unwrap_or(0))) {
        Some(target) => target.duration_since(SystemTime::now()).unwrap_or(Duration::ZERO),
        None => MAX_SLEEP,
    }
}
