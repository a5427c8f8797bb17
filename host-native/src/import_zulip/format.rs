//! The rows of a Zulip export, as `zerver/lib/export.py` writes them: Django's `model_to_dict`,
//! so a foreign key is named after its field without `_id` (`sender`, `recipient`), and dates
//! are UNIX timestamps as floats. Only the fields the import uses are read; unknown ones are
//! ignored, so a newer Zulip's extra columns do not matter.

use serde::Deserialize;
use serde_json::{Map, Value};

/// `migration_status.json`: the Zulip version that wrote the export (Zulip's own import
/// refuses any other version; see `validate::check_version`).
#[derive(Debug, Deserialize)]
pub struct MigrationStatus {
    pub zulip_version: String,
}

/// `realm.json`: the organization and everything but messages and attachments.
#[derive(Debug, Deserialize)]
pub struct RealmFile {
    pub zerver_realm: Vec<RealmRow>,
    pub zerver_userprofile: Vec<UserRow>,
    /// Accounts made for people who never signed up (mirrors), imported deactivated.
    #[serde(default)]
    pub zerver_userprofile_mirrordummy: Vec<UserRow>,
    /// Zulip's system bots, which live in another organization there.
    #[serde(default)]
    pub zerver_userprofile_crossrealm: Vec<CrossRealmBot>,
    pub zerver_stream: Vec<StreamRow>,
    pub zerver_recipient: Vec<RecipientRow>,
    pub zerver_subscription: Vec<SubscriptionRow>,
    /// Direct-message groups (the table kept its old name when the model was renamed).
    #[serde(default, alias = "zerver_directmessagegroup")]
    pub zerver_huddle: Vec<IdRow>,
    #[serde(default)]
    pub zerver_realmemoji: Vec<EmojiRow>,
    #[serde(default)]
    pub zerver_usergroup: Vec<IdRow>,
    #[serde(default)]
    pub zerver_namedusergroup: Vec<NamedGroupRow>,
    #[serde(default)]
    pub zerver_usergroupmembership: Vec<GroupMembershipRow>,
    #[serde(default)]
    pub zerver_groupgroupmembership: Vec<GroupNestingRow>,
    #[serde(default)]
    pub zerver_reaction: Vec<ReactionRow>,
    #[serde(default)]
    pub zerver_client: Vec<ClientRow>,
    #[serde(default)]
    pub zerver_defaultstream: Vec<DefaultStreamRow>,
    #[serde(default)]
    pub zerver_realmfilter: Vec<LinkifierRow>,
    #[serde(default)]
    pub zerver_alertword: Vec<AlertWordRow>,
    #[serde(default)]
    pub zerver_muteduser: Vec<MutedUserRow>,
    #[serde(default)]
    pub zerver_usertopic: Vec<UserTopicRow>,
    #[serde(default)]
    pub zerver_customprofilefield: Vec<ProfileFieldRow>,
    #[serde(default)]
    pub zerver_customprofilefieldvalue: Vec<ProfileValueRow>,
    #[serde(default)]
    pub zerver_channelfolder: Vec<ChannelFolderRow>,
    #[serde(default)]
    pub zerver_userstatus: Vec<UserStatusRow>,
    /// Outgoing-webhook and embedded bots' services.
    #[serde(default)]
    pub zerver_service: Vec<ServiceRow>,
}

#[derive(Debug, Deserialize)]
pub struct IdRow {
    pub id: u64,
}

#[derive(Debug, Deserialize)]
pub struct RealmRow {
    pub string_id: String,
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub date_created: f64,
    /// The settings: plain properties, announcement channels, group settings.
    #[serde(flatten)]
    pub rest: Map<String, Value>,
}

#[derive(Debug, Deserialize)]
pub struct UserRow {
    pub id: u64,
    pub email: String,
    pub delivery_email: String,
    pub full_name: String,
    #[serde(default = "member")]
    pub role: u16,
    #[serde(default)]
    pub is_bot: bool,
    #[serde(default)]
    pub bot_type: Option<i64>,
    #[serde(default)]
    pub bot_owner: Option<u64>,
    #[serde(default = "yes")]
    pub is_active: bool,
    pub date_joined: f64,
    #[serde(default)]
    pub timezone: String,
    #[serde(default)]
    pub email_address_visibility: Option<i64>,
    /// Django's password hash. `manage.py export` leaves it out; an export made otherwise
    /// may carry it.
    #[serde(default)]
    pub password: Option<String>,
    /// Personal settings among the rest.
    #[serde(flatten)]
    pub rest: Map<String, Value>,
}

fn member() -> u16 {
    400
}

fn yes() -> bool {
    true
}

#[derive(Debug, Deserialize)]
pub struct CrossRealmBot {
    pub id: u64,
    pub recipient_id: u64,
}

#[derive(Debug, Deserialize)]
pub struct StreamRow {
    pub id: u64,
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub date_created: f64,
    #[serde(default)]
    pub creator: Option<u64>,
    #[serde(default)]
    pub invite_only: bool,
    #[serde(default)]
    pub is_web_public: bool,
    #[serde(default = "yes")]
    pub history_public_to_subscribers: bool,
    /// Archived.
    #[serde(default)]
    pub deactivated: bool,
    #[serde(default)]
    pub message_retention_days: Option<i64>,
    #[serde(default)]
    pub rendered_description: Option<String>,
    /// The channel folder it is in.
    #[serde(default)]
    pub folder: Option<u64>,
    /// Group settings (`can_send_message_group`...) among the rest.
    #[serde(flatten)]
    pub rest: Map<String, Value>,
}

/// Zulip's `Recipient.type`.
pub const PERSONAL: u8 = 1;
pub const STREAM: u8 = 2;
pub const DIRECT_MESSAGE_GROUP: u8 = 3;

#[derive(Debug, Deserialize)]
pub struct RecipientRow {
    pub id: u64,
    #[serde(rename = "type")]
    pub kind: u8,
    pub type_id: u64,
}

#[derive(Debug, Deserialize)]
pub struct SubscriptionRow {
    pub user_profile: u64,
    pub recipient: u64,
    #[serde(default = "yes")]
    pub active: bool,
    #[serde(default)]
    pub color: String,
    #[serde(default)]
    pub is_muted: bool,
    #[serde(default)]
    pub pin_to_top: bool,
    #[serde(default)]
    pub desktop_notifications: Option<bool>,
    #[serde(default)]
    pub audible_notifications: Option<bool>,
    #[serde(default)]
    pub push_notifications: Option<bool>,
    #[serde(default)]
    pub email_notifications: Option<bool>,
    #[serde(default)]
    pub wildcard_mentions_notify: Option<bool>,
}

#[derive(Debug, Deserialize)]
pub struct EmojiRow {
    pub id: u64,
    pub name: String,
    #[serde(default)]
    pub file_name: Option<String>,
    #[serde(default)]
    pub author: Option<u64>,
    #[serde(default)]
    pub deactivated: bool,
}

/// A named group. Django writes the parent's key as `usergroup_ptr` and, in some versions,
/// `id` beside it.
#[derive(Debug, Deserialize)]
pub struct NamedGroupRow {
    #[serde(default)]
    pub id: Option<u64>,
    #[serde(default)]
    pub usergroup_ptr: Option<u64>,
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub is_system_group: bool,
    #[serde(default)]
    pub creator: Option<u64>,
    #[serde(default)]
    pub date_created: Option<f64>,
    #[serde(default)]
    pub deactivated: bool,
    #[serde(default)]
    pub can_add_members_group: Option<u64>,
    #[serde(default)]
    pub can_join_group: Option<u64>,
    #[serde(default)]
    pub can_leave_group: Option<u64>,
    #[serde(default)]
    pub can_manage_group: Option<u64>,
    #[serde(default)]
    pub can_mention_group: Option<u64>,
    #[serde(default)]
    pub can_remove_members_group: Option<u64>,
}

impl NamedGroupRow {
    pub fn group_id(&self) -> Option<u64> {
        self.usergroup_ptr.or(self.id)
    }
}

#[derive(Debug, Deserialize)]
pub struct GroupMembershipRow {
    pub user_group: u64,
    pub user_profile: u64,
}

#[derive(Debug, Deserialize)]
pub struct GroupNestingRow {
    pub supergroup: u64,
    pub subgroup: u64,
}

#[derive(Debug, Deserialize)]
pub struct ReactionRow {
    pub message: u64,
    pub user_profile: u64,
    pub emoji_name: String,
    pub emoji_code: String,
    pub reaction_type: String,
}

#[derive(Debug, Deserialize)]
pub struct ClientRow {
    pub id: u64,
    pub name: String,
}

#[derive(Debug, Deserialize)]
pub struct DefaultStreamRow {
    pub stream: u64,
}

#[derive(Debug, Deserialize)]
pub struct LinkifierRow {
    pub pattern: String,
    pub url_template: String,
    #[serde(default)]
    pub order: u64,
}

#[derive(Debug, Deserialize)]
pub struct AlertWordRow {
    pub user_profile: u64,
    pub word: String,
}

#[derive(Debug, Deserialize)]
pub struct MutedUserRow {
    pub user_profile: u64,
    pub muted_user: u64,
    pub date_muted: f64,
}

/// A user's visibility policy for a topic (muted, unmuted, followed).
#[derive(Debug, Deserialize)]
pub struct UserTopicRow {
    pub user_profile: u64,
    pub stream: u64,
    pub topic_name: String,
    pub last_updated: f64,
    pub visibility_policy: i64,
}

/// A custom profile field. `field_data` is JSON text (a select's options, an external
/// account's kind).
#[derive(Debug, Deserialize)]
pub struct ProfileFieldRow {
    pub id: u64,
    pub name: String,
    #[serde(default)]
    pub hint: String,
    #[serde(default)]
    pub order: i64,
    pub field_type: i64,
    #[serde(default)]
    pub field_data: Option<String>,
    #[serde(default)]
    pub display_in_profile_summary: bool,
    #[serde(default)]
    pub required: bool,
    #[serde(default = "yes")]
    pub editable_by_user: bool,
}

/// A user's value for a custom profile field; a user field's value is JSON text of user ids.
#[derive(Debug, Deserialize)]
pub struct ProfileValueRow {
    pub user_profile: u64,
    pub field: u64,
    pub value: String,
    #[serde(default)]
    pub rendered_value: Option<String>,
}

#[derive(Debug, Deserialize)]
pub struct ChannelFolderRow {
    pub id: u64,
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub rendered_description: String,
    #[serde(default)]
    pub order: u64,
    #[serde(default)]
    pub creator: Option<u64>,
    pub date_created: f64,
    #[serde(default)]
    pub is_archived: bool,
}

#[derive(Debug, Deserialize)]
pub struct UserStatusRow {
    pub user_profile: u64,
    #[serde(default)]
    pub status_text: String,
    #[serde(default)]
    pub emoji_name: String,
    #[serde(default)]
    pub emoji_code: String,
    #[serde(default)]
    pub reaction_type: String,
}

#[derive(Debug, Deserialize)]
pub struct ServiceRow {
    pub user_profile: u64,
    #[serde(default)]
    pub base_url: String,
    #[serde(default = "one")]
    pub interface: u8,
}

fn one() -> u8 {
    1
}

/// `messages-000001.json` and the files after it: up to 1,000 messages each, with every
/// user's flags for them.
#[derive(Debug, Deserialize)]
pub struct MessageFile {
    pub zerver_message: Vec<MessageRow>,
    #[serde(default)]
    pub zerver_usermessage: Vec<UserMessageRow>,
}

#[derive(Debug, Deserialize)]
pub struct MessageRow {
    pub id: u64,
    pub sender: u64,
    pub recipient: u64,
    /// The topic (Zulip's column kept its old name).
    #[serde(default)]
    pub subject: String,
    pub content: String,
    #[serde(default)]
    pub rendered_content: Option<String>,
    pub date_sent: f64,
    #[serde(default)]
    pub last_edit_time: Option<f64>,
    /// JSON text of a list of edits, or null.
    #[serde(default)]
    pub edit_history: Option<String>,
    #[serde(default)]
    pub sending_client: Option<u64>,
    #[serde(default)]
    pub has_attachment: bool,
    #[serde(default)]
    pub has_image: bool,
    #[serde(default)]
    pub has_link: bool,
}

/// One user's flags on one message: `flags_mask` in a realm export (Zulip's bit layout), the
/// names in `flags` in a single user's export.
#[derive(Debug, Deserialize)]
pub struct UserMessageRow {
    pub user_profile: u64,
    pub message: u64,
    #[serde(default)]
    pub flags_mask: Option<u64>,
    #[serde(default)]
    pub flags: Option<Vec<String>>,
}

/// One entry of a message's `edit_history`.
#[derive(Debug, Deserialize)]
pub struct EditRow {
    #[serde(default)]
    pub user_id: Option<u64>,
    pub timestamp: f64,
    #[serde(default)]
    pub prev_content: Option<String>,
    #[serde(default)]
    pub prev_rendered_content: Option<String>,
    #[serde(default)]
    pub prev_stream: Option<u64>,
    #[serde(default)]
    pub stream: Option<u64>,
    #[serde(default)]
    pub prev_topic: Option<String>,
    #[serde(default)]
    pub topic: Option<String>,
}

/// `attachment.json`.
#[derive(Debug, Deserialize)]
pub struct AttachmentFile {
    pub zerver_attachment: Vec<AttachmentRow>,
}

#[derive(Debug, Deserialize)]
pub struct AttachmentRow {
    pub file_name: String,
    pub path_id: String,
    pub owner: u64,
    pub create_time: f64,
    #[serde(default)]
    pub size: u64,
    #[serde(default)]
    pub content_type: Option<String>,
    #[serde(default)]
    pub messages: Vec<u64>,
}

/// An entry of `uploads/records.json`: `s3_path` is the attachment's `path_id`, `path` the
/// file under `uploads/`.
#[derive(Debug, Deserialize)]
pub struct UploadRecord {
    pub path: String,
    pub s3_path: String,
}

/// An entry of `avatars/records.json`: one of a user's avatar files (`….original` as
/// uploaded, `….png` resized, `…-medium.png`).
#[derive(Debug, Deserialize)]
pub struct AvatarRecord {
    pub path: String,
    pub user_profile_id: u64,
}

/// An entry of `emoji/records.json`: an emoji's image (`….original` as uploaded, or resized).
#[derive(Debug, Deserialize)]
pub struct EmojiRecord {
    pub path: String,
    pub file_name: String,
}
