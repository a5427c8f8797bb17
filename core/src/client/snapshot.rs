//! Saving a session and loading it again: the state, the message cache, the outbox, the
//! operations not yet answered, the repairs not yet asked and the queue, so that a page
//! reloaded offline shows what it showed, and sends (and asks) what it had to.
//!
//! A snapshot is UTF-8 JSON with a `format` number. A snapshot of an older format is migrated
//! here, step by step; one of an unknown or newer format is refused, never guessed at. A
//! snapshot holds the API key: store it as the credential it is.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::cache::MessageCache;
use super::outbox::Outbox;
use super::pending_ops::PendingOps;
use super::projection::Projection;
use super::repair_queue::RepairQueue;
use super::types::SessionCredentials;
use super::{Engine, EngineOptions, Queue};

/// The snapshot format this engine writes.
pub const SNAPSHOT_FORMAT: u32 = 1;

/// Why a snapshot was not loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SnapshotError {
    /// Not a snapshot at all (or a damaged one).
    Unreadable(String),
    /// Written by a newer engine.
    TooNew(u32),
}

impl std::fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SnapshotError::Unreadable(why) => write!(f, "not a confab-web snapshot: {why}"),
            SnapshotError::TooNew(format) => write!(
                f,
                "this snapshot has format {format}, newer than this confab-web reads ({SNAPSHOT_FORMAT}); \
                 update confab-web or start a new session"
            ),
        }
    }
}

#[derive(Serialize, Deserialize)]
struct Saved {
    format: u32,
    credentials: SessionCredentials,
    options: EngineOptions,
    user_id: u64,
    state: Map<String, Value>,
    queue: Option<Queue>,
    last_queue_id: String,
    cache: MessageCache,
    outbox: Outbox,
    /// Operations not yet answered (the cache shows them): absent from older snapshots.
    #[serde(default)]
    operations: PendingOps,
    /// Stale values still to ask the server (see `repair_queue`): absent from older snapshots.
    #[serde(default)]
    repairs: RepairQueue,
    topics: BTreeMap<u64, BTreeMap<String, (String, u64)>>,
    had_state: bool,
}

impl Engine {
    pub fn snapshot(&self) -> Vec<u8> {
        let saved = SavedRef {
            format: SNAPSHOT_FORMAT,
            credentials: &self.credentials,
            options: &self.options,
            user_id: self.user_id,
            state: &self.state,
            queue: &self.queue,
            last_queue_id: &self.last_queue_id,
            cache: &self.cache,
            outbox: &self.outbox,
            operations: &self.operations,
            repairs: &self.repairs,
            topics: &self.topics,
            had_state: self.had_state,
        };
        serde_json::to_vec(&saved).unwrap_or_default()
    }

    /// Loads a snapshot. The session resumes its saved queue; if the server has forgotten
    /// it, the first poll says so and the engine registers again.
    pub fn restore(bytes: &[u8]) -> Result<Engine, SnapshotError> {
        let value: Value =
            serde_json::from_slice(bytes).map_err(|e| SnapshotError::Unreadable(e.to_string()))?;
        let format = value
            .get("format")
            .and_then(Value::as_u64)
            .ok_or_else(|| SnapshotError::Unreadable("it has no format number".into()))?;
        let format = u32::try_from(format).map_err(|_| SnapshotError::TooNew(u32::MAX))?;
        if format > SNAPSHOT_FORMAT {
            return Err(SnapshotError::TooNew(format));
        }
        if format < 1 {
            return Err(SnapshotError::Unreadable(format!("format {format} was never written")));
        }
        // Older formats would be migrated here, one step at a time, before reading.
        let saved: Saved =
            serde_json::from_value(value).map_err(|e| SnapshotError::Unreadable(e.to_string()))?;
        let mut engine = Engine::new(saved.credentials, saved.options);
        engine.user_id = saved.user_id;
        engine.projection = Projection::new(&saved.state, saved.user_id);
        for message in saved.cache.messages.values() {
            engine.projection.put_message(message);
        }
        engine.state = saved.state;
        engine.queue = saved.queue;
        engine.last_queue_id = saved.last_queue_id;
        engine.cache = saved.cache;
        engine.outbox = saved.outbox;
        engine.operations = saved.operations;
        engine.repairs = saved.repairs;
        engine.topics = saved.topics;
        engine.had_state = saved.had_state;
        Ok(engine)
    }
}

/// [`Saved`] by reference, so a snapshot copies nothing before writing.
#[derive(Serialize)]
struct SavedRef<'a> {
    format: u32,
    credentials: &'a SessionCredentials,
    options: &'a EngineOptions,
    user_id: u64,
    state: &'a Map<String, Value>,
    queue: &'a Option<Queue>,
    last_queue_id: &'a str,
    cache: &'a MessageCache,
    outbox: &'a Outbox,
    operations: &'a PendingOps,
    repairs: &'a RepairQueue,
    topics: &'a BTreeMap<u64, BTreeMap<String, (String, u64)>>,
    had_state: bool,
}
