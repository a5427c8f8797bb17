// Generated from confab-core's types by host-web/tests/typescript_declarations.rs; do not edit.

/** Any JSON value. */
export type JsonValue = number | string | boolean | Array<JsonValue> | { [key in string]?: JsonValue } | null;

/** Register's state, as Zulip's `POST /register` answers it and events keep it. */
export type RegisterState = { [key in string]?: JsonValue };

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
subject: string, display_recipient: DisplayRecipient, reactions: Array<ChatReaction>, 
/**
 * The message's widget and the changes to it, in id order (see `widgetState`).
 */
submessages: Array<ChatSubmessage>, flags: Array<string>, is_me_message: boolean, last_edit_timestamp?: number, last_moved_timestamp?: number, topic_links: Array<TopicLink>, client: string, 
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

export type ChatSubmessage = { id: number, message_id: number, sender_id: number, msg_type: string, content: string, };

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
messages: Array<number>, conversations: boolean, 
/**
 * The user's or the organization's settings, or the user's drafts and saved snippets.
 */
settings: boolean, typing: boolean, 
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

export type SearchSuggestion = { 
/**
 * The search text (what `searchText` would show for the narrow).
 */
search: string, 
/**
 * Plain text, such as `Messages in #general, sent by Iago`.
 */
description: string, 
/**
 * The narrow to show when the suggestion is picked (`parseSearch(search)`).
 */
narrow: Array<NarrowTerm>, 
/**
 * False when the suggestion only completes the text, an operator still waiting for its
 * operand (`sender:`): put `search` in the search box and keep it open; `narrow` then holds
 * the terms before it.
 */
complete: boolean, };

export type EmojiChoice = { 
/**
 * The name to type between colons and to react with.
 */
name: string, 
/**
 * The codepoints (`1f44d`, `-`-joined) of a Unicode emoji; a custom emoji's id.
 */
code: string, reaction_type: EmojiType, 
/**
 * A custom emoji's image, as the organization serves it.
 */
url?: string, };

export type EmojiType = "unicode_emoji" | "realm_emoji" | "zulip_extra_emoji";

export type GroupSummary = { id: number, name: string, description: string, 
/**
 * Direct members that are users (not subgroups).
 */
member_count: number, };

export type MessageActions = { 
/**
 * Edit the content.
 */
edit: boolean, delete: boolean, 
/**
 * Move the message (and its topic) to another topic, or rename the topic.
 */
moveTopic: boolean, 
/**
 * Mark the topic resolved or unresolved.
 */
resolve: boolean, };

export type WidgetState = { "widget_type": "poll" } & PollState | { "widget_type": "todo" } & TodoState | { "widget_type": "zform", extra_data: JsonValue, };

export type PollState = { 
/**
 * Empty until the poll's author sets one.
 */
question: string, 
/**
 * In the order they were added.
 */
options: Array<PollOption>, 
/**
 * Whether the poll is the viewer's (only they may change the question).
 */
is_my_poll: boolean, 
/**
 * The `idx` the viewer's next new option takes (`{"type": "new_option", "idx": ...,
 * "option": ...}`).
 */
next_option_idx: number, };

export type PollOption = { 
/**
 * What a vote names (`{"type": "vote", "key": ..., "vote": 1}`).
 */
key: string, option: string, 
/**
 * Who voted for it, in the order they voted.
 */
voters: Array<number>, 
/**
 * Whether the viewer is among the voters (their next vote on it is -1, taking it back).
 */
current_user_vote: boolean, };

export type TodoState = { 
/**
 * Empty when none was given (Zulip's web app then shows "Task list").
 */
task_list_title: string, 
/**
 * In the order they were added.
 */
tasks: Array<TodoItem>, 
/**
 * Whether the list is the viewer's (only they may change the title).
 */
is_my_task_list: boolean, 
/**
 * The `key` the viewer's next new task takes (`{"type": "new_task", "key": ..., "task":
 * ..., "desc": ..., "completed": false}`).
 */
next_task_key: number, };

export type TodoItem = { 
/**
 * What a strike names (`{"type": "strike", "key": ...}`).
 */
key: string, idx: number, task: string, desc: string, completed: boolean, };

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
streams: Array<MentionStream>, custom_emoji: Array<CustomEmoji>, linkifiers: Array<Linkifier>, realm_url: string, default_code_block_language: string | null, 
/**
 * Uploaded images by path id (`2/ab/…/photo.png`), as the server renders their previews.
 * An upload not listed here is previewed by its extension (the snapshot cannot tell it
 * is no image).
 */
uploaded_images: { [key in string]: UploadedImage }, 
/**
 * The newest message the client knows of in each topic it knows: `#**channel>topic**`
 * links end in `/with/<id>` as the server's will. A topic not listed gets no `/with/`.
 */
topics: Array<TopicLatest>, };

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

export type UploadedImage = { 
/**
 * Its size as shown (after EXIF rotation): `data-original-dimensions`.
 */
original_width_px: number, original_height_px: number, 
/**
 * The type it was uploaded as: `data-original-content-type`.
 */
original_content_type: string, 
/**
 * The thumbnail the preview shows (`/user_uploads/thumbnail/<path_id>/840x560.webp`);
 * `None` while none is made yet, which shows Zulip's loading placeholder.
 */
thumbnail_url: string | null, 
/**
 * Whether that thumbnail is animated: `data-animated`.
 */
animated: boolean, 
/**
 * For a type browsers do not show (TIFF), the format name of the full-size version made
 * for it (`4032x3024.webp`, under the thumbnail's URL): `data-transcoded-image`.
 */
transcoded_image?: string, };

export type TopicLatest = { stream_id: number, topic: string, message_id: number, };

export type ServerEvent = { "type": "message" } & MessageEvent | { "type": "update_message" } & UpdateMessageEvent | { "type": "delete_message" } & DeleteMessageEvent | { "type": "update_message_flags" } & UpdateMessageFlagsEvent | { "type": "reaction" } & ReactionEvent | { "type": "submessage" } & SubmessageEvent | { "type": "typing" } & TypingEvent | { "type": "subscription" } & SubscriptionEvent | { "type": "stream" } & StreamEvent | { "type": "realm" } & RealmEvent | { "type": "realm_user" } & RealmUserEvent | { "type": "realm_bot" } & RealmBotEvent | { "type": "presence" } & PresenceEvent | { "type": "user_status" } & UserStatusEvent | { "type": "realm_linkifiers" } & RealmLinkifiersEvent | { "type": "realm_playgrounds" } & RealmPlaygroundsEvent | { "type": "user_group" } & UserGroupEvent | { "type": "default_streams" } & DefaultStreamsEvent | { "type": "default_stream_groups" } & DefaultStreamGroupsEvent | { "type": "channel_folder" } & ChannelFolderEvent | { "type": "drafts" } & DraftsEvent | { "type": "saved_snippets" } & SavedSnippetsEvent | { "type": "navigation_view" } & NavigationViewEvent | { "type": "muted_users" } & MutedUsersEvent | { "type": "muted_topics" } & MutedTopicsEvent | { "type": "user_topic" } & UserTopicEvent | { "type": "realm_user_settings_defaults" } & SettingsEvent | { "type": "update_display_settings" } & LegacySetting | { "type": "update_global_notifications" } & LegacyNotificationSetting | { "type": "alert_words" } & AlertWordsEvent | { "type": "realm_emoji" } & RealmEmojiEvent | { "type": "custom_profile_fields" } & CustomProfileFieldsEvent | { "type": "scheduled_messages" } & ScheduledMessagesEvent | { "type": "reminders" } & RemindersEvent | { "type": "user_settings" } & SettingsEvent | { type: string, id?: number } & { [key in string]?: JsonValue };

export type MessageEvent = { message: EventMessage, flags: Array<string>, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type EventMessage = { id: number, 
/**
 * `stream` or `private`.
 */
type: string, stream_id?: number, 
/**
 * The topic (Zulip's wire name).
 */
subject: string, display_recipient: Recipients, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type Recipients = string | Array<RecipientRef>;

export type RecipientRef = { id: number, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type UpdateMessageEvent = { message_id: number, 
/**
 * Every message changed (sorted), the edited one included.
 */
message_ids: Array<number>, 
/**
 * The user's flags on the edited message.
 */
flags: Array<string>, 
/**
 * The new topic, when it changed.
 */
subject?: string, 
/**
 * The new channel, when it changed.
 */
new_stream_id?: number, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type DeleteMessageEvent = { message_id?: number, message_ids?: Array<number>, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type UpdateMessageFlagsEvent = { op: FlagOp, flag: string, messages: Array<number>, 
/**
 * With `remove` `read`: each message's conversation, keyed by message id.
 */
message_details?: { [key in string]: MessageDetail }, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type FlagOp = "add" | "remove";

export type MessageDetail = { 
/**
 * `stream` or `private`.
 */
type: string, stream_id?: number, topic?: string, 
/**
 * A direct message's other participants.
 */
user_ids?: Array<number>, 
/**
 * Whether it counts as a mention (sent only when it does).
 */
mentioned?: boolean, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type ReactionEvent = { op: ReactionOp, message_id: number, user_id: number, emoji_name: string, emoji_code: string, reaction_type: string, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type ReactionOp = "add" | "remove";

export type SubmessageEvent = { message_id: number, submessage_id: number, sender_id: number, msg_type: string, 
/**
 * JSON text, as its sender sent it.
 */
content: string, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type TypingEvent = { op: TypingOp, sender: TypingUser, 
/**
 * `stream` or `direct` (`private` before feature level 215).
 */
message_type: string, recipients?: Array<TypingUser>, stream_id?: number, topic?: string, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type TypingOp = "start" | "stop";

export type TypingUser = { user_id: number, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type SubscriptionEvent = { "op": "add" } & SubscriptionAdd | { "op": "remove" } & SubscriptionRemove | { "op": "update" } & SubscriptionUpdate | { "op": "peer_add" } & PeerChange | { "op": "peer_remove" } & PeerChange;

export type SubscriptionAdd = { subscriptions: Array<JsonValue>, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type SubscriptionRemove = { subscriptions: Array<SubscriptionRef>, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type SubscriptionRef = { stream_id: number, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type SubscriptionUpdate = { stream_id: number, property: string, value: JsonValue, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type PeerChange = { stream_ids: Array<number>, user_ids: Array<number>, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type StreamEvent = { "op": "create" } & StreamCreate | { "op": "delete" } & StreamDelete | { "op": "update" } & StreamUpdate;

export type StreamCreate = { streams: Array<JsonValue>, 
/**
 * The user's old subscriptions to channels they left and can see again (Confab's).
 */
unsubscribed?: Array<JsonValue>, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type StreamDelete = { stream_ids: Array<number>, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type StreamUpdate = { stream_id: number, property: string, value: JsonValue, 
/**
 * With a new description.
 */
rendered_description?: string, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type RealmEvent = { "op": "update" } & PropertyChange | { "op": "update_dict" } & RealmUpdateDict;

export type PropertyChange = { property: string, value: JsonValue, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type RealmUpdateDict = { data: { [key in string]: JsonValue }, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type RealmUserEvent = { "op": "add" } & RealmUserAdd | { "op": "update" } & RealmUserUpdate | { "op": "remove" } & RealmUserRemove;

export type RealmUserAdd = { person: JsonValue, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type RealmUserUpdate = { person: PersonUpdate, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type RealmUserRemove = { person: PersonUpdate, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type PersonUpdate = { user_id: number, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type RealmBotEvent = { op: BotOp, bot: JsonValue, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type BotOp = "add" | "update" | "remove" | "delete";

export type PresenceEvent = { presences?: { [key in string]: JsonValue }, presence?: { [key in string]: JsonValue }, user_id?: number, email?: string, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type UserStatusEvent = { user_id: number, status_text?: string, emoji_name?: string, emoji_code?: string, reaction_type?: string, away?: boolean, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type RealmLinkifiersEvent = { linkifiers: JsonValue, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type RealmPlaygroundsEvent = { realm_playgrounds: JsonValue, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type UserGroupEvent = { "op": "add", group: JsonValue, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null }) | { "op": "remove", group_id: number, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null }) | { "op": "update", group_id: number, data: { [key in string]: JsonValue }, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null }) | { "op": "add_members", group_id: number, user_ids: Array<number>, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null }) | { "op": "remove_members", group_id: number, user_ids: Array<number>, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null }) | { "op": "add_subgroups", group_id: number, direct_subgroup_ids: Array<number>, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null }) | { "op": "remove_subgroups", group_id: number, direct_subgroup_ids: Array<number>, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type DefaultStreamsEvent = { default_streams: JsonValue, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type DefaultStreamGroupsEvent = { default_stream_groups: JsonValue, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type ChannelFolderEvent = { "op": "add", channel_folder: JsonValue, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null }) | { "op": "update", channel_folder_id: number, data: { [key in string]: JsonValue }, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null }) | { "op": "reorder", order: Array<number>, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type DraftsEvent = { "op": "add", drafts: Array<JsonValue>, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null }) | { "op": "update", draft: JsonValue, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null }) | { "op": "remove", draft_id: number, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type SavedSnippetsEvent = { "op": "add", saved_snippet: JsonValue, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null }) | { "op": "update", saved_snippet: JsonValue, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null }) | { "op": "remove", saved_snippet_id: number, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type NavigationViewEvent = { "op": "add", navigation_view: JsonValue, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null }) | { "op": "update", fragment: string, data: { [key in string]: JsonValue }, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null }) | { "op": "remove", fragment: string, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type MutedUsersEvent = { muted_users: JsonValue, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type MutedTopicsEvent = { muted_topics: JsonValue, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type UserTopicEvent = { stream_id: number, topic_name: string, visibility_policy: number, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type SettingsEvent = { "op": "update" } & PropertyChange;

export type LegacySetting = { setting_name: string, setting: JsonValue, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type LegacyNotificationSetting = { notification_name: string, setting: JsonValue, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type AlertWordsEvent = { alert_words: JsonValue, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type RealmEmojiEvent = { "op": "update", realm_emoji: JsonValue, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type CustomProfileFieldsEvent = { fields: Array<JsonValue>, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type ScheduledMessagesEvent = { "op": "add", scheduled_messages: Array<JsonValue>, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null }) | { "op": "update", scheduled_message: JsonValue, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null }) | { "op": "remove", scheduled_message_id: number, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });

export type RemindersEvent = { "op": "add", reminders: Array<JsonValue>, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null }) | { "op": "remove", reminder_id: number, } & ({ [key in string]: number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null });
