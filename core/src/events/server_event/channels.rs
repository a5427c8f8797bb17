//! Channels and the user's subscriptions to them: `subscription`, `stream`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

#[cfg(feature = "typescript")]
use ts_rs::TS;

use super::Rest;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum SubscriptionEvent {
    Add(SubscriptionAdd),
    Remove(SubscriptionRemove),
    Update(SubscriptionUpdate),
    /// Other users joined channels.
    PeerAdd(PeerChange),
    /// Other users left channels.
    PeerRemove(PeerChange),
}

/// The user joined channels. The subscriptions go into the state as they are, so they stay
/// JSON objects (register's subscription shape).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct SubscriptionAdd {
    pub subscriptions: Vec<Value>,
    #[serde(flatten)]
    pub rest: Rest,
}

/// The user left channels.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct SubscriptionRemove {
    pub subscriptions: Vec<SubscriptionRef>,
    #[serde(flatten)]
    pub rest: Rest,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct SubscriptionRef {
    pub stream_id: u64,
    #[serde(flatten)]
    pub rest: Rest,
}

/// One property of the user's subscription changed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct SubscriptionUpdate {
    pub stream_id: u64,
    pub property: String,
    pub value: Value,
    #[serde(flatten)]
    pub rest: Rest,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct PeerChange {
    pub stream_ids: Vec<u64>,
    pub user_ids: Vec<u64>,
    #[serde(flatten)]
    pub rest: Rest,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum StreamEvent {
    Create(StreamCreate),
    Delete(StreamDelete),
    Update(StreamUpdate),
}

/// Channels the user can now see. Channels go into the state as they are.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct StreamCreate {
    pub streams: Vec<Value>,
    /// The user's old subscriptions to channels they left and can see again (Confab's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub unsubscribed: Option<Vec<Value>>,
    #[serde(flatten)]
    pub rest: Rest,
}

/// Channels the user can no longer see.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct StreamDelete {
    pub stream_ids: Vec<u64>,
    #[serde(flatten)]
    pub rest: Rest,
}

/// One property of a channel changed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct StreamUpdate {
    pub stream_id: u64,
    pub property: String,
    pub value: Value,
    /// With a new description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub rendered_description: Option<String>,
    #[serde(flatten)]
    pub rest: Rest,
}
