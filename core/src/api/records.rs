//! What every kind of personal record shares (see `model::RecordKind`): reading a user's
//! records, new ids, and the events that keep the user's other clients in step.

use serde_json::Value;

use crate::command::{Event, Outcome};
use crate::error::ApiResult;
use crate::ids::{IdKind, UserId};
use crate::model::RecordKind;
use crate::store::{Change, IdAllocator, Store};

/// The user's records of a kind, by id.
pub fn records(store: &impl Store, user: UserId, kind: RecordKind) -> ApiResult<Vec<(u64, Value)>> {
    store.records(user, kind)
}

/// The user's record of a kind with this id.
pub fn record(store: &impl Store, user: UserId, kind: RecordKind, id: u64) -> ApiResult<Option<Value>> {
    Ok(store.records(user, kind)?.into_iter().find(|(found, _)| *found == id).map(|(_, value)| value))
}

/// Ids for new records of any kind, distinct within one command.
pub fn new_ids(store: &impl Store) -> ApiResult<IdAllocator> {
    IdAllocator::new(store, IdKind::Record)
}

/// An event for the user's own clients only.
pub fn to_own_clients(user: UserId, body: Value) -> Event {
    Event::Other { users: vec![user], body }
}

/// Stores a record and tells the user's clients with `event`.
pub fn stored(user: UserId, kind: RecordKind, id: u64, value: Value, event: Value) -> Outcome {
    Outcome {
        changes: vec![Change::PutRecord { user, kind, id, value }],
        events: vec![to_own_clients(user, event)],
        ..Outcome::default()
    }
}

/// Deletes a record and tells the user's clients with `event`.
pub fn deleted(user: UserId, kind: RecordKind, id: u64, event: Value) -> Outcome {
    Outcome {
        changes: vec![Change::DeleteRecord { user, kind, id }],
        events: vec![to_own_clients(user, event)],
        ..Outcome::default()
    }
}
