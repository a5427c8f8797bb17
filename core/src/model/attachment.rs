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
    /// What was learnt of it as an image, when its header read as one within the limits
    /// (Zulip keeps this in its own `ImageAttachment` table). Files recorded before Confab
    /// thumbnailed have none, and are not previewed when a message is rendered again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<ImageAttachment>,
}

/// An uploaded image (Zulip's `ImageAttachment`): its size as shown, after any EXIF rotation,
/// its frames, and the thumbnails made of it (all of them at upload time).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImageAttachment {
    pub original_width_px: u32,
    pub original_height_px: u32,
    /// More than one for an animation.
    pub frames: u32,
    pub thumbnails: Vec<StoredThumbnail>,
}

/// A thumbnail made of an image (Zulip's `StoredThumbnailFormat`): its format (the box it
/// fits in) and what it came to. The bytes are in the host's file store under
/// `thumbnails::thumbnail_path_id`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredThumbnail {
    pub extension: String,
    pub content_type: String,
    pub max_width: u32,
    pub max_height: u32,
    pub animated: bool,
    pub width: u32,
    pub height: u32,
    pub byte_size: u64,
}
