//! The client engine: everything a Zulip client has to work out, without I/O.
//!
//! An [`Engine`] is one session against a Confab (or Zulip) server. It keeps the register
//! state (kept current by [`crate::events::apply_event`], as the server's consistency tests
//! require), a message cache whose narrows are decided by the server's own narrow code (see
//! [`projection`]), the outbox of messages being sent, the operations on messages shown before
//! the server answers (see [`optimistic`]), typing notices and what changed for the
//! user interface. It decides which request to make next and what each answer means; the host
//! (`confab-web` in browsers and Node, or a test) makes the requests, keeps the time and
//! supplies randomness, as quinn's endpoint leaves I/O to its driver.
//!
//! # Driving it
//!
//! ```text
//! loop {
//!     match engine.next_step() {
//!         Step::Register => { let r = send(engine.register_request()); engine.handle_register(r, now, random) }
//!         Step::Poll     => { let r = send_with_deadline(engine.poll_request(), poll_deadline_ms());
//!                             engine.handle_poll(r, now, random) }
//!         Step::Wait(ms) => sleep(ms) then engine.retry_now(),
//!         Step::Stop     => break,
//!     }
//!     report(engine.take_changes());
//!     while let Some((local_id, request)) = engine.next_send() {          // when connected
//!         match engine.handle_send(&local_id, send(request)) { Sending::Next => continue, Sending::Later => break }
//!     }
//!     while let Some((id, request)) = engine.next_operation() {           // reads, stars, edits...
//!         if engine.handle_operation_reply(id, send(request)) == OperationAnswer::Later { break }
//!     }
//!     while let Some((id, request)) = engine.next_repair() {              // values only the server knows
//!         if engine.handle_repair(id, send(request)) == Sending::Later { break }
//!     }
//! }
//! every minute, and when the user comes back: engine.handle_presence(send(engine.presence_request(active, input)), now)
//! ```

mod cache;
mod candidates;
mod change_log;
mod completion;
pub mod connection;
mod directory;
mod emoji_choices;
#[cfg(test)]
mod fixture;
mod follow;
mod matching;
mod message_actions;
mod messages;
mod narrow_hash;
mod narrow_terms;
mod optimistic;
mod outbox;
mod pending_ops;
mod presence;
mod preview_context;
pub mod projection;
mod projection_settings;
mod queries;
mod repair_queue;
mod repairs;
pub mod request;
mod search_description;
mod search_suggestions;
mod search_syntax;
mod snapshot;
pub mod types;
mod unread_details;

use serde_json::{Map, Value, json};

use crate::events::apply_event;
use crate::markdown::{self, OrganizationSnapshot, Rendering};

pub use cache::{MessageCache, Window};
pub use connection::{Backoff, poll_deadline_ms};
pub use narrow_terms::{CanonicalNarrow, canonical};
pub use optimistic::OperationAnswer;
pub use repair_queue::RepairId;
pub use request::{HttpRequest, Method, Outcome, Reply};
pub use snapshot::{SNAPSHOT_FORMAT, SnapshotError};
pub use types::*;

use change_log::ChangeLog;
use outbox::Outbox;
use pending_ops::PendingOps;
use projection::Projection;
use repair_queue::RepairQueue;

/// What the host does next for the session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Register an event queue (at start, and after the server forgot ours).
    Register,
    /// Long-poll the queue.
    Poll,
    /// Wait this long, then call [`Engine::retry_now`].
    Wait(u64),
    /// The session is closed.
    Stop,
}

/// How sending the outbox goes on after an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sending {
    /// Send the next one.
    Next,
    /// The server is unreachable: try again once connected.
    Later,
}

/// Options a host may set.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct EngineOptions {
    /// The longest wait between reconnection attempts.
    pub max_retry_ms: u64,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions { max_retry_ms: connection::DEFAULT_MAX_RETRY_MS }
    }
}

/// The register parameters a modern client sends: HTML content, avatars always given, slim
/// and simplified presence, and every client capability Confab knows.
pub fn register_params() -> Vec<(&'static str, String)> {
    let capabilities = json!({
        "notification_settings_null": true,
        "bulk_message_deletion": true,
        "user_avatar_url_field_optional": false,
        "stream_typing_notifications": true,
        "user_settings_object": true,
        "linkifier_url_template": true,
        "user_list_incomplete": false,
        "include_deactivated_groups": true,
        "archived_channels": true,
        "empty_topic_name": true,
        "simplified_presence_events": true,
    });
    vec![
        ("apply_markdown", "true".into()),
        ("client_gravatar", "false".into()),
        ("slim_presence", "true".into()),
        ("include_subscribers", "false".into()),
        ("client_capabilities", capabilities.to_string()),
    ]
}

/// A session's live queue.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Queue {
    id: String,
    last_event_id: i64,
}

/// One client session (see the module documentation).
#[derive(Debug)]
pub struct Engine {
    credentials: SessionCredentials,
    options: EngineOptions,
    user_id: u64,
    /// Register's state, kept current by events; empty until the first register.
    state: Map<String, Value>,
    queue: Option<Queue>,
    /// The queue the last state came from, kept after the queue is lost: the outbox's key for
    /// messages written before the next register.
    last_queue_id: String,
    projection: Projection,
    cache: MessageCache,
    outbox: Outbox,
    /// Reads, stars, reactions, edits and deletions shown but not yet answered.
    operations: PendingOps,
    /// Values of the state a deletion made stale, to ask the server (see [`repairs`]).
    repairs: RepairQueue,
    typing: Vec<(TypingNotice, i64)>,
    /// The host's clock when it last told the time (seconds), against which presence ages.
    clock: Option<i64>,
    /// Topics seen per channel: lower-cased name → (name as last seen, newest id).
    topics: std::collections::BTreeMap<u64, std::collections::BTreeMap<String, (String, u64)>>,
    backoff: Backoff,
    connection: ConnectionState,
    waiting: Option<u64>,
    closed: bool,
    /// Whether a state was ever loaded, so that the next register is a resync.
    had_state: bool,
    organization: Option<OrganizationSnapshot>,
    /// Users and channels by id and name, for the typeaheads, the search syntax and URLs
    /// (cleared when the users, or the channels, change).
    user_index: std::cell::OnceCell<directory::UserIndex>,
    channel_index: std::cell::OnceCell<directory::ChannelIndex>,
    /// The organization's groups and users as core's permission rules read them (cleared when
    /// users or groups change).
    groups: std::cell::OnceCell<Option<crate::groups::Groups>>,
    changes: ChangeLog,
}

impl Engine {
    pub fn new(credentials: SessionCredentials, options: EngineOptions) -> Engine {
        Engine {
            backoff: Backoff::new(options.max_retry_ms),
            credentials,
            options,
            user_id: 0,
            state: Map::new(),
            queue: None,
            last_queue_id: String::new(),
            projection: Projection::default(),
            cache: MessageCache::default(),
            outbox: Outbox::default(),
            operations: PendingOps::default(),
            repairs: RepairQueue::default(),
            typing: Vec::new(),
            clock: None,
            topics: Default::default(),
            connection: ConnectionState::Connecting,
            waiting: None,
            closed: false,
            had_state: false,
            organization: None,
            user_index: std::cell::OnceCell::new(),
            channel_index: std::cell::OnceCell::new(),
            groups: std::cell::OnceCell::new(),
            changes: ChangeLog::default(),
        }
    }

    /// `POST /fetch_api_key`: exchanges a username (email) and password for an API key.
    pub fn login_request(username: &str, password: &str) -> HttpRequest {
        let mut request = HttpRequest::new(Method::Post, "/api/v1/fetch_api_key")
            .param("username", username)
            .param("password", password);
        request.authenticated = false;
        request
    }

    /// The credentials a login answered with.
    pub fn login_reply(site: &str, reply: Reply) -> Result<SessionCredentials, ServerError> {
        match reply {
            Reply::Success(fields) => Ok(SessionCredentials {
                site: site.trim_end_matches('/').to_owned(),
                email: fields.get("email").and_then(Value::as_str).unwrap_or_default().to_owned(),
                api_key: fields.get("api_key").and_then(Value::as_str).unwrap_or_default().to_owned(),
            }),
            Reply::Refused(error) => Err(error),
            Reply::Unreachable(why) => Err(unreachable(why)),
        }
    }

    pub fn credentials(&self) -> &SessionCredentials {
        &self.credentials
    }

    pub fn user_id(&self) -> u64 {
        self.user_id
    }

    /// The register state as events keep it (what a fresh register would answer).
    pub fn state(&self) -> &Map<String, Value> {
        &self.state
    }

    pub fn connection(&self) -> ConnectionState {
        self.connection
    }

    pub fn next_step(&self) -> Step {
        if self.closed {
            Step::Stop
        } else if let Some(ms) = self.waiting {
            Step::Wait(ms)
        } else if self.queue.is_none() {
            Step::Register
        } else {
            Step::Poll
        }
    }

    /// The wait is over.
    pub fn retry_now(&mut self) {
        self.waiting = None;
    }

    pub fn register_request(&self) -> HttpRequest {
        let mut request = HttpRequest::new(Method::Post, "/api/v1/register");
        for (name, value) in register_params() {
            request = request.param(name, value);
        }
        request
    }

    /// A register answer: the new state (after a lost queue, a resync: every cached narrow is
    /// forgotten, since events were missed).
    pub fn handle_register(&mut self, reply: Reply, random: f64) {
        match reply {
            Reply::Success(mut state) => {
                let queue_id = state.get("queue_id").and_then(Value::as_str).unwrap_or_default().to_owned();
                let last_event_id = state.get("last_event_id").and_then(Value::as_i64).unwrap_or(-1);
                self.user_id = state.get("user_id").and_then(Value::as_u64).unwrap_or(self.user_id);
                for key in ["queue_id", "last_event_id", "result", "msg"] {
                    state.remove(key);
                }
                self.state = state;
                self.projection = Projection::new(&self.state, self.user_id);
                self.organization = None;
                self.user_index.take();
                self.channel_index.take();
                self.groups.take();
                self.typing.clear();
                // A fresh state has nothing stale (answers still out are ignored).
                self.repairs.clear();
                if self.had_state {
                    self.cache.clear();
                    self.topics.clear();
                    self.outbox.forget_sent();
                    self.changes.resync();
                    self.changes.outbox();
                }
                self.had_state = true;
                self.last_queue_id = queue_id.clone();
                self.queue = Some(Queue { id: queue_id, last_event_id });
                // The fresh state does not show operations the server has not applied yet.
                self.reapply_operations(None);
                self.connected();
            }
            Reply::Refused(error) if error.status == 401 => self.close_with(error),
            Reply::Refused(_) | Reply::Unreachable(_) => self.failed(random),
        }
    }

    pub fn poll_request(&self) -> HttpRequest {
        let queue = self.queue.as_ref();
        let request = HttpRequest::new(Method::Get, "/api/v1/events")
            .param("queue_id", queue.map(|q| q.id.clone()).unwrap_or_default())
            .param("last_event_id", queue.map_or(-1, |q| q.last_event_id).to_string());
        // Not connected yet (a restored queue, or after a failure): the server answers at once
        // instead of holding the poll, so the session knows it is back and sends what waits,
        // as Zulip's web app polls with `dont_block` when it resumes.
        if self.connection == ConnectionState::Connected {
            request
        } else {
            request.param("dont_block", "true")
        }
    }

    /// A long-poll's answer: events to follow, a lost queue (register again, which reports one
    /// resync), or a failure (wait, with backoff).
    pub fn handle_poll(&mut self, reply: Reply, now_ms: i64, random: f64) {
        match reply {
            Reply::Success(fields) => {
                self.connected();
                self.note_time(now_ms);
                let events = fields.get("events").and_then(Value::as_array).cloned().unwrap_or_default();
                for event in &events {
                    if let (Some(id), Some(queue)) =
                        (event.get("id").and_then(Value::as_i64), self.queue.as_mut())
                    {
                        queue.last_event_id = queue.last_event_id.max(id);
                    }
                    self.note_server_event(event);
                    self.follow(event, now_ms);
                    self.watch_for_repairs(event);
                }
            }
            Reply::Refused(error) if error.code == "BAD_EVENT_QUEUE_ID" => {
                self.queue = None;
            }
            Reply::Refused(error) if error.status == 401 => self.close_with(error),
            Reply::Refused(_) | Reply::Unreachable(_) => self.failed(random),
        }
    }

    /// Ends the session; the host sends the returned request (deleting the queue) if any.
    pub fn close(&mut self) -> Option<HttpRequest> {
        self.closed = true;
        self.set_connection(ConnectionState::Closed);
        let queue = self.queue.take()?;
        Some(HttpRequest::new(Method::Delete, "/api/v1/events").param("queue_id", queue.id))
    }

    fn close_with(&mut self, _error: ServerError) {
        self.closed = true;
        self.queue = None;
        self.set_connection(ConnectionState::Closed);
    }

    fn connected(&mut self) {
        self.backoff.reset();
        self.set_connection(ConnectionState::Connected);
    }

    fn failed(&mut self, random: f64) {
        self.waiting = Some(self.backoff.next_delay_ms(random));
        self.set_connection(ConnectionState::Offline);
    }

    fn set_connection(&mut self, state: ConnectionState) {
        if self.connection != state {
            self.connection = state;
            self.changes.connection(state);
        }
    }

    /// What changed since the last call, if anything.
    pub fn take_changes(&mut self) -> Option<Changes> {
        self.changes.take()
    }

    /// Queues a message: its local echo shows at once in the narrows it belongs to. Returns
    /// the local id.
    pub fn send(&mut self, destination: Destination, content: String, now_ms: i64) -> String {
        let html = self.render_preview(&content).html;
        let local_id = self.outbox.push(&self.last_queue_id, destination, content, html, now_ms / 1000);
        self.changes.outbox();
        local_id
    }

    /// The next message to send, if connected.
    pub fn next_send(&mut self) -> Option<(String, HttpRequest)> {
        if self.connection != ConnectionState::Connected {
            return None;
        }
        self.outbox.next_request(&self.last_queue_id)
    }

    /// What the server said to a send.
    pub fn handle_send(&mut self, local_id: &str, reply: Reply) -> Sending {
        match reply {
            Reply::Success(fields) => {
                let id = fields.get("id").and_then(Value::as_u64).unwrap_or_default();
                // The event may have come first: then the echo is already gone.
                if !self.cache.messages.contains_key(&id) {
                    self.outbox.sent(local_id, id);
                } else {
                    self.outbox.remove(local_id);
                }
                self.changes.outbox();
                Sending::Next
            }
            Reply::Refused(error) => {
                self.outbox.refused(local_id, error.msg);
                self.changes.outbox();
                Sending::Next
            }
            Reply::Unreachable(_) => Sending::Later,
        }
    }

    /// Messages waiting to be sent, and refused ones.
    pub fn outbox(&self) -> &[OutboxEntry] {
        self.outbox.entries()
    }

    /// Forgets a refused (or unsent) message.
    pub fn discard(&mut self, local_id: &str) -> bool {
        let removed = self.outbox.remove(local_id);
        if removed {
            self.changes.outbox();
        }
        removed
    }

    /// Renders Markdown as the server would for this organization: the HTML and its facts.
    pub fn render_preview(&mut self, content: &str) -> Rendering {
        self.organization();
        let Some(organization) = self.organization.as_ref() else { return Rendering::default() };
        markdown::render(content, &preview_context::PreviewContext { organization, engine: self })
    }

    /// What the renderer knows of the organization, built from the state when first needed
    /// after a change to users, groups, channels, emoji or linkifiers.
    fn organization(&mut self) -> &OrganizationSnapshot {
        if self.organization.is_none() {
            self.organization = Some(queries::organization_snapshot(&self.state, &self.credentials.site));
        }
        self.organization.get_or_insert_with(OrganizationSnapshot::default)
    }

    /// Drops typing notices whose time ran out.
    pub fn handle_timeout(&mut self, now_ms: i64) {
        self.note_time(now_ms);
        let before = self.typing.len();
        self.typing.retain(|(_, expires)| *expires > now_ms);
        if self.typing.len() != before {
            self.changes.typing();
        }
    }

    /// When [`Engine::handle_timeout`] has something to do next.
    pub fn poll_timeout(&self) -> Option<i64> {
        self.typing.iter().map(|(_, expires)| *expires).min()
    }

    fn apply_to_state(&mut self, event: &Value) {
        apply_event(&mut self.state, event, self.user_id);
    }
}

fn unreachable(why: String) -> ServerError {
    ServerError { code: "NETWORK_ERROR".into(), msg: why, status: 0 }
}
