//! The HTTP surface: `fn app(state) -> Router`, so tests and the binary serve the same thing.

mod admission;
mod auth;
mod connection;
mod events;
mod large_answers;
mod observe;
mod path;
pub mod rate_limits;
mod request;
mod respond;
mod routes;
pub mod serve;
mod tus;

use std::sync::Arc;

use axum::Router;
use confab_core::subdomains::Site;

use confab_core::outgoing_policy::OutgoingPolicy;

use crate::deliveries::Deliveries;
use crate::events::EventHub;
use crate::metrics::Metrics;
use crate::outgoing::{Deliverer, OutgoingWebhooks};
use crate::secrets::PasswordChecks;
use crate::store::Store;
use crate::thumbnails::Thumbnailer;
use crate::uploads::FileStore;
use crate::writer::Writer;

pub use admission::DEFAULT_WRITE_QUEUE;
use admission::WriteAdmission;
pub use large_answers::LargeAnswers;
pub use observe::MetricsAccess;
pub use rate_limits::RateLimitConfig;
use rate_limits::RateLimits;
pub use request::{MAX_BODY_BYTES, MAX_UPLOAD_BODY_BYTES};

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    pub store: Arc<Store>,
    pub writer: Writer,
    /// Where clients reach the server: the external host, whose subdomains are organizations.
    pub site: Arc<Site>,
    /// Requests, logins and failed authentications counted per user and per address.
    pub rate_limits: Arc<RateLimits>,
    /// Places in the writer's queue for commands from requests.
    pub writes: Arc<WriteAdmission>,
    /// Password checks, a few at a time in memory kept for them.
    pub passwords: Arc<PasswordChecks>,
    /// The threads register's answers are built on (`large_answers.rs`).
    pub large_answers: LargeAnswers,
    /// The event queues.
    pub events: EventHub,
    /// Uploaded files' bytes.
    pub files: Arc<FileStore>,
    /// Makes uploaded images' thumbnails, a few at a time.
    pub thumbnailer: Arc<Thumbnailer>,
    /// Wakes the task that sends scheduled messages when one is created or changed.
    pub deliveries: Deliveries,
    /// Wakes the task that makes organization exports when one is asked for.
    pub exports: crate::exports::Exports,
    /// What `/metrics` reports.
    pub metrics: Arc<Metrics>,
    /// Who may read `/metrics`.
    pub metrics_access: Arc<MetricsAccess>,
}

impl AppState {
    /// Starts the writer and the outgoing-webhook deliverer; needs a tokio runtime.
    pub fn new(
        store: Arc<Store>,
        site: Site,
        events: EventHub,
        policy: OutgoingPolicy,
        files: FileStore,
        large_answers: LargeAnswers,
        mailer: crate::mail::Mailer,
    ) -> AppState {
        let sink = events.clone();
        let metrics = Arc::new(Metrics::default());
        let (webhooks, deliveries) = OutgoingWebhooks::channel();
        let (missed_emails, opened_batches) = crate::missed_emails::MissedEmails::channel();
        let writer = Writer::start(
            store.clone(),
            Box::new(move |store, committed| {
                let woken = sink.queue_committed(store, &committed);
                let events = &committed.events;
                webhooks.dispatch(events);
                mailer.deliver(events);
                missed_emails.note(events);
                let sink = sink.clone();
                Box::new(move || sink.wake(woken))
            }),
            metrics.clone(),
        );
        let site = Arc::new(site);
        let deliverer = Deliverer {
            store: store.clone(),
            writer: writer.clone(),
            site: site.clone(),
            policy: Arc::new(policy),
            metrics: metrics.clone(),
        };
        tokio::spawn(deliverer.run(deliveries));
        tokio::spawn(crate::missed_emails::run(opened_batches, store.clone(), writer.clone(), site.clone()));
        let (deliveries, exports) = (Deliveries::default(), crate::exports::Exports::default());
        events.on_shared_batches({
            let (deliveries, exports) = (deliveries.clone(), exports.clone());
            move |notifications| wake_for_shared_work(notifications, &deliveries, &exports)
        });
        AppState {
            store,
            writer,
            events,
            site,
            deliveries,
            exports,
            rate_limits: RateLimits::new(RateLimitConfig::default()),
            passwords: PasswordChecks::one_per_core(),
            large_answers,
            writes: WriteAdmission::new(DEFAULT_WRITE_QUEUE),
            files: Arc::new(files),
            thumbnailer: Arc::new(Thumbnailer::new()),
            metrics,
            metrics_access: Arc::new(MetricsAccess::default()),
        }
    }
}

/// Wakes this server's delivery and export tasks for work another server took (on a shared
/// database): a scheduled message or reminder created or changed there, or an export asked
/// for there. The task then reads what is due and, for an export, claims it; so when the
/// server that took the work is down, this one does it.
fn wake_for_shared_work(
    notifications: &[confab_core::events::Notification],
    deliveries: &Deliveries,
    exports: &crate::exports::Exports,
) {
    use confab_core::events::Notification;
    for notification in notifications {
        let body = match notification {
            Notification::Other { body, .. } | Notification::PerUser { body, .. } => body,
            _ => continue,
        };
        match body["type"].as_str() {
            Some("scheduled_messages" | "reminders") => deliveries.wake(),
            Some("realm_export") => exports.wake(),
            _ => {}
        }
    }
}

impl AppState {
    /// Admits at most `capacity` commands from requests to the writer's queue at once.
    pub fn with_write_queue(self, capacity: usize) -> AppState {
        AppState { writes: WriteAdmission::new(capacity), ..self }
    }

    /// Lets the peers `access` names read `/metrics` (loopback alone by default).
    pub fn with_metrics_access(self, access: MetricsAccess) -> AppState {
        AppState { metrics_access: Arc::new(access), ..self }
    }

    /// Counts requests against these limits instead of Zulip's defaults.
    pub fn with_rate_limits(self, config: RateLimitConfig) -> AppState {
        AppState { rate_limits: RateLimits::new(config), ..self }
    }
}

/// The whole application.
pub fn app(state: AppState) -> Router {
    // One stack of layers, so each request's future is boxed once for both: counted outside
    // (so that a 429 is counted too), then limited. The operator's endpoints (`/health`,
    // `/ready`, `/metrics`) are neither API calls nor form posts, so no limit counts them.
    let front = tower::ServiceBuilder::new()
        .layer(observe::CountLayer::new(state.metrics.clone()))
        .layer(rate_limits::RateLimitLayer::new(state.rate_limits.clone()));
    observe::note_routes(routes::router().merge(observe::router())).layer(front).with_state(state)
}

/// The current time in UNIX seconds: the one place the host reads the clock for core.
pub fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64)
}
