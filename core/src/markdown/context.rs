//! What the renderer asks of the organization, and the facts a rendering reports.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::math::MathRenderer;

/// What the renderer needs to know about the organization; the server implements it over
/// storage, the browser over its cache. All lookups are by the text the user typed.
pub trait MarkdownContext {
    /// A user by id, active or not (a deactivated user's mention renders silent).
    fn user_by_id(&self, id: u64) -> Option<MentionUser>;
    /// Users, active or not, whose full name equals `name` case-insensitively (Zulip matches
    /// full names; several may share one, and then a mention without `|id` renders as text; a
    /// deactivated user's mention renders silent).
    fn users_by_full_name(&self, name: &str) -> Vec<MentionUser>;
    /// A user group by name, case-insensitively, with its members (recursive, active).
    fn group_by_name(&self, name: &str) -> Option<MentionGroup>;
    /// A channel the sender may link to, by exact (case-sensitive) name, as Zulip's `#**` links
    /// require.
    fn stream_by_name(&self, name: &str) -> Option<MentionStream>;
    /// An active custom emoji of the organization by name.
    fn custom_emoji(&self, name: &str) -> Option<CustomEmoji>;
    /// The organization's linkifiers, in order.
    fn linkifiers(&self) -> &[Linkifier];
    /// The organization's URL without a trailing slash, e.g. `http://127.0.0.1:9991`: links to
    /// its own `#narrow` views and uploads are made relative.
    fn realm_url(&self) -> &str;
    /// The newest message of a topic (matched case-insensitively) of a channel `stream_by_name`
    /// gave, among those the sender may read (Zulip's `topic_info`, feature levels 347 and 400):
    /// `#**channel>topic**` links to `…/topic/<topic>/with/<id>`, so that the link follows the
    /// topic when it is moved or renamed. `None` (no such message, or a renderer that cannot
    /// tell) leaves the `/with/` part out.
    fn latest_message_in_topic(&self, _stream_id: u64, _topic: &str) -> Option<u64> {
        None
    }
    /// The organization's `default_code_block_language`, used for code blocks that name none.
    fn default_code_block_language(&self) -> Option<&str> {
        None
    }
    /// What is known of the upload at `/user_uploads/<path_id>` as an image (Zulip's
    /// `user_upload_previews`). A renderer that cannot tell answers `Unknown`, and the link is
    /// previewed by its extension, showing the original file.
    fn uploaded_image(&self, _path_id: &str) -> UploadLookup {
        UploadLookup::Unknown
    }
    /// KaTeX for `$$…$$` and ```` ```math ````: by default the one the host installed for the
    /// process (see `math.rs`); `None` renders all math as `tex-error`.
    fn math_renderer(&self) -> Option<&dyn MathRenderer> {
        super::math::installed_math_renderer()
    }
}

/// What a renderer knows of a link to an upload.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UploadLookup {
    /// It cannot tell (a browser that was not told): previewed by the link's extension.
    Unknown,
    /// No image it read (not one, unreadable, over the limits, or no such upload): a plain
    /// link, whatever its extension.
    NotAnImage,
    /// An image: previewed from its thumbnail.
    Image(UploadedImage),
}

/// An uploaded image as its preview shows it (Zulip's `MarkdownImageMetadata`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct UploadedImage {
    /// Its size as shown (after EXIF rotation): `data-original-dimensions`.
    pub original_width_px: u32,
    pub original_height_px: u32,
    /// The type it was uploaded as: `data-original-content-type`.
    pub original_content_type: String,
    /// The thumbnail the preview shows (`/user_uploads/thumbnail/<path_id>/840x560.webp`);
    /// `None` while none is made yet, which shows Zulip's loading placeholder.
    pub thumbnail_url: Option<String>,
    /// Whether that thumbnail is animated: `data-animated`.
    pub animated: bool,
    /// For a type browsers do not show (TIFF), the format name of the full-size version made
    /// for it (`4032x3024.webp`, under the thumbnail's URL): `data-transcoded-image`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub transcoded_image: Option<String>,
}

/// A user as a mention shows them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct MentionUser {
    pub id: u64,
    /// The name a mention shows (and `@**Name|id**` must match exactly).
    pub full_name: String,
    pub email: String,
    /// Deactivated users' mentions render silent and notify no one.
    pub is_active: bool,
}

/// A user group as a mention shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct MentionGroup {
    pub id: u64,
    /// The name shown (for system groups, their display name: `Administrators`).
    pub name: String,
    /// Active members, including those of subgroups.
    pub members: Vec<u64>,
    /// Deactivated groups' mentions render silent and notify no one.
    pub is_deactivated: bool,
}

/// A channel a `#**channel**` link can name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct MentionStream {
    pub id: u64,
    /// The channel's name, as its `#narrow` slug spells it.
    pub name: String,
}

/// An active custom emoji of the organization.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct CustomEmoji {
    pub id: u64,
    pub name: String,
    /// Where the image is served from, as it goes into `src`.
    pub source_url: String,
}

/// A linkifier: a regular expression with named groups and an RFC 6570 URL template.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct Linkifier {
    pub id: u64,
    /// A regular expression with named groups.
    pub pattern: String,
    /// An RFC 6570 template whose variables are the pattern's named groups.
    pub url_template: String,
}

/// One entry of a message's `topic_links`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct TopicLink {
    /// The text of the topic that is linked.
    pub text: String,
    /// Where it links to.
    pub url: String,
}

/// A rendered message and the facts about it that drive flags, narrows and attachments.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct Rendering {
    /// The message's `rendered_content`.
    pub html: String,
    /// Direct `@**user**` mentions (not silent, not inside quotes).
    pub mentioned_user_ids: BTreeSet<u64>,
    /// Groups mentioned with `@*group*` (not silent, not inside quotes).
    pub mentioned_group_ids: BTreeSet<u64>,
    /// Members of the mentioned groups.
    pub mentioned_group_member_ids: BTreeSet<u64>,
    /// `@**all**`, `@**everyone**`, `@**channel**` or `@**stream**`, not silent.
    pub stream_wildcard: bool,
    /// `@**topic**`, not silent.
    pub topic_wildcard: bool,
    /// Any link, including channel, topic and message links.
    pub has_link: bool,
    /// Any inline image or video preview.
    pub has_image: bool,
    /// A link to one of the organization's `/user_uploads/`.
    pub has_attachment: bool,
    /// Content starting with `/me `.
    pub is_me_message: bool,
    /// The `/user_uploads/...` paths linked, each once, in document order.
    pub user_upload_paths: Vec<String>,
    /// The source after fenced blocks were taken out: what alert words are matched against.
    #[serde(skip)]
    pub(crate) alert_text: String,
}
