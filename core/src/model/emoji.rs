use serde::{Deserialize, Serialize};

use crate::ids::{RealmId, UserId};

/// A custom emoji of an organization (Zulip's `RealmEmoji`). Deactivated emoji are kept, so
/// old messages and reactions keep their image, and their name is free for a new upload.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RealmEmoji {
    pub id: u64,
    pub realm_id: RealmId,
    pub name: String,
    /// The image's file name in the organization's emoji folder.
    pub file_name: String,
    pub author_id: Option<UserId>,
    pub deactivated: bool,
}
