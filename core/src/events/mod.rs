//! Event queues: the state machine behind `POST /register`, `GET /events` and `DELETE /events`
//! (spec 4.1, 4.2, 6; zulip-semantics §4; Zulip's `zerver/tornado/event_queue.py`).
//!
//! Everything that decides lives here: which queues get an event, in which shape (event types,
//! narrow, capabilities), which ids events get, what a fetch acknowledges and returns, when a
//! heartbeat is due and when a queue expires. The host does the waiting: it parks long-polls and
//! wakes them when [`Registry::push`] or [`Registry::handle_timeout`] names their queue. Time is
//! an argument (`now`, UNIX seconds); the registry reads no clock and starts no timer.
//!
//! # Driving it
//!
//! ```text
//! register:     registry.register(random_id, owner, options, now)?       (then compute the state)
//! after commit: for id in registry.push(&notification, now) { wake(id) }
//! GET /events:  loop {
//!                   match registry.get_events(queue_id, user, last_event_id, dont_block, now)? {
//!                       Poll::Ready(events) => break reply(events),
//!                       Poll::Wait { ticket, superseded } => {
//!                           if superseded { wake(queue_id) }        // the older poll answers
//!                           wait for wake(queue_id) or the client to go;
//!                           let current = registry.unpark(queue_id, ticket, now);
//!                           dont_block = !current;                  // finished: answer now
//!                       }
//!                   }
//!               }
//! timer:        sleep until registry.poll_timeout(); for id in registry.handle_timeout(now) { wake(id) }
//! shutdown:     save serde_json::to_vec(&registry); at start, load it and broadcast `restart`.
//! ```
//!
//! `poll_timeout` changes whenever a queue is touched, so the timer task re-reads it after every
//! call that mutates the registry (or simply wakes at least every [`HEARTBEAT_MIN_FREQ_SECS`]).
//!
//! # Differences from Zulip, on purpose
//!
//! - Heartbeats come exactly [`HEARTBEAT_MIN_FREQ_SECS`] after a poll parks; Zulip adds 0–10 s
//!   of randomness, which a pure core does not draw.
//! - Expiry is exact (at [`DEFAULT_EVENT_QUEUE_TIMEOUT_SECS`]), where Zulip's collector runs
//!   every minute; the end of a waiting poll counts as activity.
//! - A queue is limited to [`MAX_EVENTS_PER_QUEUE`] events; a queue that would exceed it is
//!   discarded, so its client gets `BAD_EVENT_QUEUE_ID` and registers again.
//! - A user has at most [`MAX_QUEUES_PER_USER`] queues; registering one more discards the one
//!   idle longest.
//! - `update_message_flags` events are not coalesced ("virtual events").
//! - Queues with a narrow receive only the messages their user received (spec 4.2); Zulip also
//!   offers narrowed queues public-channel messages.

mod legacy_settings;
mod narrow;
mod notification;
mod options;
mod pending;
mod persist;
mod queue;
mod registry;
pub mod server_event;
mod state_sync;
mod transform;

pub use legacy_settings::{DISPLAY_SETTINGS_LEGACY, NOTIFICATION_SETTINGS_LEGACY};
pub use notification::{MessageVariants, Notification};
pub use options::{ClientCapabilities, QueueOptions, parse_client_capabilities, parse_event_narrow};
pub use pending::PendingEvents;
pub use registry::{Poll, PollTicket, QueueOwner, Registration, Registry};
pub use server_event::ServerEvent;
pub use state_sync::{apply_event, apply_server_event};
pub use transform::{ARCHIVED_MARK, DEACTIVATED_GROUP_MARK, INHERITED_NOTIFICATIONS_MARK};

/// Zulip's `DEFAULT_EVENT_QUEUE_TIMEOUT_SECS`: a queue idle this long, with no poll waiting, is
/// discarded.
pub const DEFAULT_EVENT_QUEUE_TIMEOUT_SECS: i64 = 600;

/// Zulip's `HEARTBEAT_MIN_FREQ_SECS`: a poll waiting this long gets a `heartbeat` event.
pub const HEARTBEAT_MIN_FREQ_SECS: i64 = 45;

/// Zulip's `EVENT_QUEUE_LONGPOLL_TIMEOUT_SECONDS`, sent by register: clients use it as their HTTP
/// timeout, so it must exceed the heartbeat interval.
pub const EVENT_QUEUE_LONGPOLL_TIMEOUT_SECONDS: i64 = 90;

/// The most events a queue holds. Zulip has no such cap (it relies on expiry); this one bounds
/// memory when a client keeps its queue alive but stops acknowledging.
pub const MAX_EVENTS_PER_QUEUE: usize = 10_000;

/// The most event queues one user may have. Zulip sets no limit: its queues go only when idle
/// for [`DEFAULT_EVENT_QUEUE_TIMEOUT_SECS`]. A person's browser tabs, phones and bots need a
/// few dozen at most; a client registering in a loop could otherwise hold any number for ten
/// minutes (a 1 MB narrow made one queue hold 2.4 MB). When a user registers one more, the
/// queue idle longest is discarded, and its client, if it ever polls, gets
/// `BAD_EVENT_QUEUE_ID` and registers again, as after expiry.
pub const MAX_QUEUES_PER_USER: usize = 100;

/// What the empty topic reads as for clients without `empty_topic_name` (Zulip's
/// `Message.EMPTY_TOPIC_FALLBACK_NAME`).
pub const EMPTY_TOPIC_FALLBACK_NAME: &str = "general chat";

const _: () = assert!(EVENT_QUEUE_LONGPOLL_TIMEOUT_SECONDS > HEARTBEAT_MIN_FREQ_SECS);
