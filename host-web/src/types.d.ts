// Generated from confab-core's types by host-web/tests/typescript_declarations.rs; do not edit.

/** Any JSON value. */
export type JsonValue = number | string | boolean | Array<JsonValue> | { [key in string]?: JsonValue } | null;

/** Register's state, as Zulip's `POST /register` answers it and events keep it. */
export type RegisterState = { [key in string]?: JsonValue };

/** An event from `GET /events`. */
export type ServerEvent = { type: string, id?: number } & { [key in string]?: JsonValue };

/** Options of a `Client`. */
export type ClientOptions = {
  /** The longest wait between reconnection attempts, in milliseconds (default 30,000). */
  maxRetryMs?: number,
};

export type ChatMessage = { id: number, sender_id: number, sender_full_name: string, sender_email: string, avatar_url: string | null, timestamp: number, 
/**
 * HTML.
 */
content: string, 
/**
 * `stream` or `private`, as Zulip names them.
 */
type: MessageType, stream_id?: number, 
/**
 * The topic (empty for direct messages).
 */
subject: string, display_recipient: DisplayRecipient, reactions: Array<ChatReaction>, flags: Array<string>, is_me_message: boolean, last_edit_timestamp?: number, last_moved_timestamp?: number, topic_links: Array<TopicLink>, client: string, 
/**
 * Set on a local echo: the id the engine sent the message with.
 */
local_id?: string, 
/**
 * Set on a local echo the server refused: its message.
 */
send_error?: string, };

export type MessageType = "stream" | "private";

export type DisplayRecipient = string | Array<RecipientUser>;

export type RecipientUser = { id: number, email: string, full_name: string, };

export type ChatReaction = { emoji_name: string, emoji_code: string, reaction_type: string, user_id: number, };

export type TopicLink = { text: string, url: string, };

export type NarrowTerm = { operator: string, operand: string | number | number[], negated?: boolean, };

export type Anchor = number | NamedAnchor;

export type NamedAnchor = "newest" | "oldest" | "first_unread";

export type MessagesPage = { messages: Array<ChatMessage>, found_anchor: boolean, found_oldest: boolean, found_newest: boolean, from_cache: boolean, };

export type ChannelSummary = { stream_id: number, name: string, description: string, color: string, invite_only: boolean, is_web_public: boolean, is_muted: boolean, pin_to_top: boolean, 
/**
 * Unread messages in topics that are not muted (for a muted channel: in topics unmuted or
 * followed), as Zulip's left sidebar counts them.
 */
unread_count: number, 
/**
 * Unread messages that mention the user, whatever the muting.
 */
mention_count: number, };

export type TopicVisibilityPolicy = "inherit" | "muted" | "unmuted" | "followed";

export type TopicSummary = { name: string, 
/**
 * The newest message id known in the topic.
 */
max_id: number, unread_count: number, 
/**
 * The topic name starts with Zulip's `✔ ` resolved prefix.
 */
resolved: boolean, visibility_policy: TopicVisibilityPolicy, 
/**
 * Hidden by the user's muting (the topic's own, or its channel's).
 */
muted: boolean, followed: boolean, };

export type Conversation = { user_ids: Array<number>, max_message_id: number, unread_count: number, };

export type UserSummary = { user_id: number, full_name: string, email: string, is_active: boolean, is_bot: boolean, 
/**
 * Zulip's role number: 100 owner, 200 administrator, 300 moderator, 400 member, 600 guest.
 */
role: number, avatar_url: string | null, presence: PresenceStatus, 
/**
 * When the user was last active (UNIX seconds), if known.
 */
last_active: number | null, status_text: string, status_emoji: string, };

export type PresenceStatus = "active" | "idle" | "offline";

export type TypingNotice = { sender_id: number, stream_id?: number, topic?: string, 
/**
 * A direct message's participants (empty in a channel).
 */
user_ids: Array<number>, };

export type Destination = { "type": "channel", stream_id: number, topic: string, } | { "type": "direct", user_ids: Array<number>, };

export type Changes = { 
/**
 * Channels whose summary (name, muting, unread counts...) may differ.
 */
channels: Array<number>, 
/**
 * Topics whose summary may differ.
 */
topics: Array<TopicRef>, 
/**
 * Cached narrows (by `narrowKey`) whose messages may differ.
 */
narrows: Array<string>, 
/**
 * Users whose summary may differ.
 */
users: Array<number>, 
/**
 * Messages whose content, flags or reactions may differ.
 */
messages: Array<number>, conversations: boolean, settings: boolean, typing: boolean, 
/**
 * The outbox (pending local echoes) changed.
 */
outbox: boolean, 
/**
 * The queue of operations (reads, stars, reactions, edits, deletions) changed.
 */
operations: boolean, 
/**
 * Operations the server refused since the last report: their local effect is undone, and
 * each carries the server's message for the user.
 */
refused_operations: Array<RefusedOperation>, 
/**
 * The state was fetched anew after the event queue was lost: redraw everything.
 */
resync: boolean, 
/**
 * The connection's state, when it changed.
 */
connection?: ConnectionState, };

export type TopicRef = { stream_id: number, topic: string, };

export type ConnectionState = "connecting" | "connected" | "offline" | "closed";

export type ServerError = { code: string, msg: string, status: number, };

export type SessionCredentials = { site: string, email: string, apiKey: string, };

export type OutboxEntry = { local_id: string, 
/**
 * The event queue the message was first sent for: with `local_id`, the key the server
 * remembers, so a retry never posts twice.
 */
queue_id: string, destination: Destination, 
/**
 * Markdown.
 */
content: string, 
/**
 * The content as the server's renderer shows it, for the local echo.
 */
html: string, timestamp: number, 
/**
 * The id the server gave it, once it answered.
 */
message_id?: number, 
/**
 * Why the server refused it (it will not be retried).
 */
error?: string, };

export type Operation = { "op": "mark_read", message_ids: Array<number>, } | { "op": "set_starred", message_id: number, starred: boolean, } | { "op": "add_reaction", message_id: number, emoji_name: string, emoji_code: string, reaction_type: string, } | { "op": "remove_reaction", message_id: number, emoji_name: string, emoji_code: string, reaction_type: string, } | { "op": "edit", message_id: number, content?: string, topic?: string, propagate_mode?: PropagateMode, } | { "op": "delete", message_id: number, };

export type PropagateMode = "change_one" | "change_later" | "change_all";

export type MessageEdit = { content?: string, topic?: string, 
/**
 * Which messages a new topic applies to (the server's default: the edited one only).
 */
propagateMode?: PropagateMode, };

export type QueuedOperation = { id: number, operation: Operation, 
/**
 * Whether its request went out (an unanswered one is sent again once connected).
 */
sent: boolean, };

export type RefusedOperation = { id: number, operation: Operation, error: ServerError, };

export type Rendering = { 
/**
 * The message's `rendered_content`.
 */
html: string, 
/**
 * Direct `@**user**` mentions (not silent, not inside quotes).
 */
mentioned_user_ids: Array<number>, 
/**
 * Groups mentioned with `@*group*` (not silent, not inside quotes).
 */
mentioned_group_ids: Array<number>, 
/**
 * Members of the mentioned groups.
 */
mentioned_group_member_ids: Array<number>, 
/**
 * `@**all**`, `@**everyone**`, `@**channel**` or `@**stream**`, not silent.
 */
stream_wildcard: boolean, 
/**
 * `@**topic**`, not silent.
 */
topic_wildcard: boolean, 
/**
 * Any link, including channel, topic and message links.
 */
has_link: boolean, 
/**
 * Any inline image or video preview.
 */
has_image: boolean, 
/**
 * A link to one of the organization's `/user_uploads/`.
 */
has_attachment: boolean, 
/**
 * Content starting with `/me `.
 */
is_me_message: boolean, 
/**
 * The `/user_uploads/...` paths linked, each once, in document order.
 */
user_upload_paths: Array<string>, };

export type OrganizationSnapshot = { users: Array<MentionUser>, groups: Array<MentionGroup>, 
/**
 * The channels the sender may link to.
 */
streams: Array<MentionStream>, custom_emoji: Array<CustomEmoji>, linkifiers: Array<Linkifier>, realm_url: string, default_code_block_language: string | null, };

export type MentionUser = { id: number, 
/**
 * The name a mention shows (and `@**Name|id**` must match exactly).
 */
full_name: string, email: string, 
/**
 * Deactivated users' mentions render silent and notify no one.
 */
is_active: boolean, };

export type MentionGroup = { id: number, 
/**
 * The name shown (for system groups, their display name: `Administrators`).
 */
name: string, 
/**
 * Active members, including those of subgroups.
 */
members: Array<number>, 
/**
 * Deactivated groups' mentions render silent and notify no one.
 */
is_deactivated: boolean, };

export type MentionStream = { id: number, 
/**
 * The channel's name, as its `#narrow` slug spells it.
 */
name: string, };

export type CustomEmoji = { id: number, name: string, 
/**
 * Where the image is served from, as it goes into `src`.
 */
source_url: string, };

export type Linkifier = { id: number, 
/**
 * A regular expression with named groups.
 */
pattern: string, 
/**
 * An RFC 6570 template whose variables are the pattern's named groups.
 */
url_template: string, };
