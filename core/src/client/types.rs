//! What the client engine hands a front end, and what it takes from one: the shapes of
//! `confab-web`'s JavaScript API. They serialize with serde; with the `typescript` feature they
//! also derive their TypeScript declarations (ts-rs), so the `.d.ts` of the npm package comes
//! from these very definitions.

use serde::{Deserialize, Serialize};
use serde_json::Value;

#[cfg(feature = "typescript")]
use ts_rs::TS;

/// A message as Zulip's `GET /messages` and message events show it (`apply_markdown`: the
/// content is HTML), or a local echo of one being sent (`id` 0, `local_id` set).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct ChatMessage {
    pub id: u64,
    pub sender_id: u64,
    #[serde(default)]
    pub sender_full_name: String,
    #[serde(default)]
    pub sender_email: String,
    #[serde(default)]
    pub avatar_url: Option<String>,
    #[serde(default)]
    pub timestamp: i64,
    /// HTML.
    #[serde(default)]
    pub content: String,
    /// `stream` or `private`, as Zulip names them.
    #[serde(rename = "type")]
    pub kind: MessageType,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub stream_id: Option<u64>,
    /// The topic (empty for direct messages).
    #[serde(default)]
    pub subject: String,
    pub display_recipient: DisplayRecipient,
    #[serde(default)]
    pub reactions: Vec<ChatReaction>,
    /// The message's widget and the changes to it, in id order (see `widgetState`).
    #[serde(default)]
    pub submessages: Vec<ChatSubmessage>,
    #[serde(default)]
    pub flags: Vec<String>,
    #[serde(default)]
    pub is_me_message: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub last_edit_timestamp: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub last_moved_timestamp: Option<i64>,
    #[serde(default)]
    pub topic_links: Vec<TopicLink>,
    #[serde(default)]
    pub client: String,
    /// Set on a local echo: the id the engine sent the message with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub local_id: Option<String>,
    /// Set on a local echo the server refused: its message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub send_error: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(rename_all = "lowercase")]
pub enum MessageType {
    Stream,
    Private,
}

/// A channel message's channel name, or a direct message's participants (sender included).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(untagged)]
pub enum DisplayRecipient {
    Channel(String),
    Users(Vec<RecipientUser>),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct RecipientUser {
    pub id: u64,
    #[serde(default)]
    pub email: String,
    #[serde(default)]
    pub full_name: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct ChatReaction {
    pub emoji_name: String,
    pub emoji_code: String,
    pub reaction_type: String,
    pub user_id: u64,
}

/// A submessage as messages carry it: a widget (`msg_type` `widget`, from the message's sender)
/// or one change to it, its `content` JSON text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct ChatSubmessage {
    pub id: u64,
    pub message_id: u64,
    pub sender_id: u64,
    pub msg_type: String,
    pub content: String,
}

impl ChatSubmessage {
    /// As core's model keeps it, for the widget rules.
    pub fn to_model(&self) -> crate::model::Submessage {
        crate::model::Submessage {
            id: crate::ids::SubmessageId(self.id),
            message_id: crate::ids::MessageId(self.message_id),
            sender_id: crate::ids::UserId(self.sender_id),
            msg_type: self.msg_type.clone(),
            content: self.content.clone(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct TopicLink {
    pub text: String,
    pub url: String,
}

/// One term of a narrow, in Zulip's modern form. The operand is a string, a number (ids), or
/// a list of user ids (`dm`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct NarrowTerm {
    pub operator: String,
    #[cfg_attr(feature = "typescript", ts(type = "string | number | number[]"))]
    pub operand: Value,
    #[serde(default)]
    #[cfg_attr(feature = "typescript", ts(optional, as = "Option<bool>"))]
    pub negated: bool,
}

/// Where `messages()` starts: a message id, or one of Zulip's named anchors.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(untagged)]
pub enum Anchor {
    Id(u64),
    Named(NamedAnchor),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(rename_all = "snake_case")]
pub enum NamedAnchor {
    Newest,
    Oldest,
    FirstUnread,
}

/// The answer to `messages()`: Zulip's `GET /messages` fields, and whether the local cache
/// answered without asking the server. Local echoes that belong to the narrow come last.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct MessagesPage {
    pub messages: Vec<ChatMessage>,
    pub found_anchor: bool,
    pub found_oldest: bool,
    pub found_newest: bool,
    pub from_cache: bool,
}

/// A subscribed channel, with what a channel list shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct ChannelSummary {
    pub stream_id: u64,
    pub name: String,
    pub description: String,
    pub color: String,
    pub invite_only: bool,
    pub is_web_public: bool,
    pub is_muted: bool,
    pub pin_to_top: bool,
    /// Unread messages in topics that are not muted (for a muted channel: in topics unmuted or
    /// followed), as Zulip's left sidebar counts them.
    pub unread_count: u32,
    /// Unread messages that mention the user, whatever the muting.
    pub mention_count: u32,
}

/// How the user set a topic's visibility (Zulip's `visibility_policy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(rename_all = "snake_case")]
pub enum TopicVisibilityPolicy {
    Inherit,
    Muted,
    Unmuted,
    Followed,
}

/// A topic of a channel: from the topics the engine has seen or fetched, with unread counts
/// from the register state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct TopicSummary {
    pub name: String,
    /// The newest message id known in the topic.
    pub max_id: u64,
    pub unread_count: u32,
    /// The topic name starts with Zulip's `✔ ` resolved prefix.
    pub resolved: bool,
    pub visibility_policy: TopicVisibilityPolicy,
    /// Hidden by the user's muting (the topic's own, or its channel's).
    pub muted: bool,
    pub followed: bool,
}

/// A direct-message conversation: the other participants (the user alone for messages to
/// oneself).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct Conversation {
    pub user_ids: Vec<u64>,
    pub max_message_id: u64,
    pub unread_count: u32,
}

/// Someone in the organization, with presence and status.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct UserSummary {
    pub user_id: u64,
    pub full_name: String,
    pub email: String,
    pub is_active: bool,
    pub is_bot: bool,
    /// Zulip's role number: 100 owner, 200 administrator, 300 moderator, 400 member, 600 guest.
    pub role: u32,
    #[serde(default)]
    pub avatar_url: Option<String>,
    pub presence: PresenceStatus,
    /// When the user was last active (UNIX seconds), if known.
    #[serde(default)]
    pub last_active: Option<i64>,
    pub status_text: String,
    pub status_emoji: String,
}

/// Zulip's presence buckets: active within the offline threshold, idle, or offline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(rename_all = "snake_case")]
pub enum PresenceStatus {
    Active,
    Idle,
    Offline,
}

/// Someone typing, in a topic or a direct-message conversation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct TypingNotice {
    pub sender_id: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub stream_id: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub topic: Option<String>,
    /// A direct message's participants (empty in a channel).
    #[serde(default)]
    pub user_ids: Vec<u64>,
}

/// Where a message goes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Destination {
    /// A channel topic: the channel by id.
    Channel { stream_id: u64, topic: String },
    /// A direct message to these users (the sender is added by the server).
    Direct { user_ids: Vec<u64> },
}

/// What a change touched, so a user interface redraws only that. Every list is sorted and
/// without repeats.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct Changes {
    /// Channels whose summary (name, muting, unread counts...) may differ.
    pub channels: Vec<u64>,
    /// Topics whose summary may differ.
    pub topics: Vec<TopicRef>,
    /// Cached narrows (by `narrowKey`) whose messages may differ.
    pub narrows: Vec<String>,
    /// Users whose summary may differ.
    pub users: Vec<u64>,
    /// Messages whose content, flags or reactions may differ.
    pub messages: Vec<u64>,
    pub conversations: bool,
    /// The user's or the organization's settings, or the user's drafts and saved snippets.
    pub settings: bool,
    pub typing: bool,
    /// The outbox (pending local echoes) changed.
    pub outbox: bool,
    /// The queue of operations (reads, stars, reactions, edits, deletions) changed.
    pub operations: bool,
    /// Operations the server refused since the last report: their local effect is undone, and
    /// each carries the server's message for the user.
    pub refused_operations: Vec<RefusedOperation>,
    /// The state was fetched anew after the event queue was lost: redraw everything.
    pub resync: bool,
    /// The connection's state, when it changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub connection: Option<ConnectionState>,
}

/// A channel and topic.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct TopicRef {
    pub stream_id: u64,
    pub topic: String,
}

/// Whether the engine is talking to its server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(rename_all = "snake_case")]
pub enum ConnectionState {
    Connecting,
    Connected,
    /// The last request failed: waiting before trying again.
    Offline,
    Closed,
}

/// What a refused request said: Zulip's error shape, with the HTTP status.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct ServerError {
    pub code: String,
    pub msg: String,
    pub status: u16,
}

/// A session's credentials: the organization's URL, the account's email and its API key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct SessionCredentials {
    pub site: String,
    pub email: String,
    pub api_key: String,
}

/// A message waiting to be sent, or refused.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct OutboxEntry {
    pub local_id: String,
    /// The event queue the message was first sent for: with `local_id`, the key the server
    /// remembers, so a retry never posts twice.
    pub queue_id: String,
    pub destination: Destination,
    /// Markdown.
    pub content: String,
    /// The content as the server's renderer shows it, for the local echo.
    pub html: String,
    pub timestamp: i64,
    /// The id the server gave it, once it answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub message_id: Option<u64>,
    /// Why the server refused it (it will not be retried).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub error: Option<String>,
}

/// Something the user does to existing messages. Its effect shows at once; the server's
/// event confirms it, or its refusal undoes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Operation {
    /// Messages seen: reads marked before the queue is next sent go as one request.
    MarkRead {
        message_ids: Vec<u64>,
    },
    SetStarred {
        message_id: u64,
        starred: bool,
    },
    /// An emoji code and type left empty: the engine did not know the name, the server looks it up.
    AddReaction {
        message_id: u64,
        emoji_name: String,
        emoji_code: String,
        reaction_type: String,
    },
    RemoveReaction {
        message_id: u64,
        emoji_name: String,
        emoji_code: String,
        reaction_type: String,
    },
    /// New content (Markdown), a new topic, or both.
    Edit {
        message_id: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "typescript", ts(optional))]
        content: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "typescript", ts(optional))]
        topic: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "typescript", ts(optional))]
        propagate_mode: Option<PropagateMode>,
    },
    Delete {
        message_id: u64,
    },
}

/// An edit as a front end asks for it: new content (Markdown), a new topic, or both.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct MessageEdit {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub content: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub topic: Option<String>,
    /// Which messages a new topic applies to (the server's default: the edited one only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub propagate_mode: Option<PropagateMode>,
}

/// Which messages a topic edit moves (Zulip's `propagate_mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(rename_all = "snake_case")]
pub enum PropagateMode {
    /// The edited message only.
    ChangeOne,
    /// The edited message and those after it in its topic.
    ChangeLater,
    /// The whole topic.
    ChangeAll,
}

impl PropagateMode {
    pub fn as_str(self) -> &'static str {
        match self {
            PropagateMode::ChangeOne => "change_one",
            PropagateMode::ChangeLater => "change_later",
            PropagateMode::ChangeAll => "change_all",
        }
    }
}

/// An operation waiting for the server's answer (or for the connection).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct QueuedOperation {
    pub id: u64,
    pub operation: Operation,
    /// Whether its request went out (an unanswered one is sent again once connected).
    pub sent: bool,
}

/// An operation the server refused; its local effect has been undone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct RefusedOperation {
    pub id: u64,
    pub operation: Operation,
    pub error: ServerError,
}

/// A line under the search bar: the search text it stands for, what it finds in words, and its
/// narrow.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct SearchSuggestion {
    /// The search text (what `searchText` would show for the narrow).
    pub search: String,
    /// Plain text, such as `Messages in #general, sent by Iago`.
    pub description: String,
    /// The narrow to show when the suggestion is picked (`parseSearch(search)`).
    pub narrow: Vec<NarrowTerm>,
    /// False when the suggestion only completes the text, an operator still waiting for its
    /// operand (`sender:`): put `search` in the search box and keep it open; `narrow` then holds
    /// the terms before it.
    pub complete: bool,
}

/// An emoji a typeahead or picker offers: Unicode, the organization's own, or Zulip's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct EmojiChoice {
    /// The name to type between colons and to react with.
    pub name: String,
    /// The codepoints (`1f44d`, `-`-joined) of a Unicode emoji; a custom emoji's id.
    pub code: String,
    pub reaction_type: EmojiType,
    /// A custom emoji's image, as the organization serves it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub url: Option<String>,
}

/// Zulip's emoji namespaces (a reaction's `reaction_type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(rename_all = "snake_case")]
pub enum EmojiType {
    UnicodeEmoji,
    RealmEmoji,
    ZulipExtraEmoji,
}

/// A user group someone can mention (`@*group*`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct GroupSummary {
    pub id: u64,
    pub name: String,
    pub description: String,
    /// Direct members that are users (not subgroups).
    pub member_count: u32,
}

/// What the user may do to a message now, as Zulip's web app decides which actions to offer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct MessageActions {
    /// Edit the content.
    pub edit: bool,
    pub delete: bool,
    /// Move the message (and its topic) to another topic, or rename the topic.
    pub move_topic: bool,
    /// Mark the topic resolved or unresolved.
    pub resolve: bool,
}
