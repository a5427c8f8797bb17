//! The host half of missed-message emails (`confab_core::api::missed_messages`): core decides
//! who gets mail and keeps each waiting message as a record; this task knows when each user's
//! batch is due (read from the records at start, then told of each new batch by the writer),
//! sleeps until the first, and sends it as a command of its own, whose emails the mailer sends
//! once it is durable.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use confab_core::Event;
use confab_core::api::missed_messages::{open_batches, send_due_emails};
use confab_core::ids::UserId;
use confab_core::subdomains::Site;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

use crate::store::Store;
use crate::writer::Writer;

/// The pause after a failure before trying the same batch again.
const RETRY_AFTER: Duration = Duration::from_secs(30);

/// Tells the task of new batches. Cheap to clone; usable from the writer's thread.
#[derive(Clone, Debug)]
pub struct MissedEmails {
    batches: UnboundedSender<(i64, UserId)>,
}

impl MissedEmails {
    pub fn channel() -> (MissedEmails, UnboundedReceiver<(i64, UserId)>) {
        let (batches, opened) = unbounded_channel();
        (MissedEmails { batches }, opened)
    }

    /// Notes the batches committed events opened.
    pub fn note(&self, events: &[Event]) {
        for event in events {
            if let Event::EmailsScheduled { user, due } = event {
                // The task is gone only when the server stops.
                let _ = self.batches.send((*due, *user));
            }
        }
    }
}

/// Sends each batch when it is due, for ever.
pub async fn run(
    mut opened: UnboundedReceiver<(i64, UserId)>,
    store: Arc<Store>,
    writer: Writer,
    site: Arc<Site>,
) {
    let reader = store.clone();
    let mut schedule: BTreeSet<(i64, UserId)> =
        match tokio::task::spawn_blocking(move || reader.read(open_batches)).await {
            Ok(Ok(batches)) => batches.into_iter().map(|(user, due)| (due, user)).collect(),
            Ok(Err(e)) => {
                tracing::error!("cannot read the waiting missed-message emails: {e}");
                BTreeSet::new()
            }
            Err(e) => {
                tracing::error!("reading the waiting missed-message emails failed: {e}");
                BTreeSet::new()
            }
        };
    loop {
        let now = crate::http::now();
        if let Some(&(due, user)) = schedule.first()
            && due <= now
        {
            schedule.pop_first();
            let site = site.clone();
            let sent = writer.submit(Box::new(move |tables| send_due_emails(tables, &site, user, now))).await;
            if let Err(e) = sent {
                tracing::error!("missed-message emails for user {user} failed: {e}; trying again later");
                schedule.insert((now + RETRY_AFTER.as_secs() as i64, user));
            }
            continue;
        }
        let wait = schedule.first().map_or(Duration::from_secs(3600), |&(due, _)| until(due));
        tokio::select! {
            () = tokio::time::sleep(wait) => {}
            batch = opened.recv() => match batch {
                Some(batch) => { schedule.insert(batch); }
                None => return,
            },
        }
    }
}

/// How long until UNIX second `at` begins on the wall clock (zero if it has).
fn until(at: i64) -> Duration {
    match UNIX_EPOCH.checked_add(Duration::from_secs(u64::try_from(at).unwrap_or(0))) {
        Some(target) => target.duration_since(SystemTime::now()).unwrap_or(Duration::ZERO),
        None => Duration::from_secs(3600),
    }
}
