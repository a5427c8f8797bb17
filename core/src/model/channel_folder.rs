use serde::{Deserialize, Serialize};

use crate::ids::{RealmId, UserId};

/// A channel folder: a named group of channels an organization's administrators arrange.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChannelFolder {
    pub id: u64,
    pub realm_id: RealmId,
    pub name: String,
    pub description: String,
    pub rendered_description: String,
    /// Position in the organization's list of folders.
    pub order: u64,
    pub date_created: i64,
    pub creator_id: Option<UserId>,
    pub is_archived: bool,
}
