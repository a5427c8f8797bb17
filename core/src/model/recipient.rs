use serde::{Deserialize, Serialize};

use crate::ids::{RecipientId, StreamId, UserId};

/// What a [`RecipientId`] addresses, as in Zulip's `Recipient` table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum RecipientKind {
    /// One user's inbox: a 1:1 direct message is stored with the receiver's personal recipient.
    Personal(UserId),
    Stream(StreamId),
    /// A direct-message group of three or more users, sorted by id.
    DirectGroup(Vec<UserId>),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Recipient {
    pub id: RecipientId,
    pub kind: RecipientKind,
}

/// The lookup key of a direct-message group: its member ids, sorted, joined by commas
/// (Zulip hashes the same string).
pub fn direct_group_key(members: &[UserId]) -> String {
    let mut ids: Vec<u64> = members.iter().map(|u| u.0).collect();
    ids.sort_unstable();
    ids.dedup();
    ids.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
}
