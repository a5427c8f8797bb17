use serde::{Deserialize, Serialize};

use crate::ids::{MessageId, RealmId, UserId};

/// An uploaded file (Zulip's `Attachment`). The bytes live in the host's file store under
/// `path_id`; this is what the server knows of them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Attachment {
    pub id: u64,
    pub realm_id: RealmId,
    pub owner_id: UserId,
    /// `<realm id>/<2 characters>/<24 characters>/<file name>`: the URL is `/user_uploads/<path_id>`.
    pub path_id: String,
    pub file_name: String,
    pub size: u64,
    pub content_type: String,
    pub create_time: i64,
    /// The messages that link it, which decide who else may download it.
    pub message_ids: Vec<MessageId>,
}
