//! The events of `GET /events` as types: a serde enum tagged by `type`, one variant per event
//! type that [`super::apply_server_event`] reads, with `op` sub-enums where Zulip has them.
//! With the `typescript` feature they derive the npm package's `ServerEvent` declaration, so the
//! front end's types and the applier's come from one definition.
//!
//! Typed fields are those the applier reads; every other field stays, as sent, in a flattened
//! `rest`, so serializing an event gives back exactly the JSON it came from (the consistency
//! tests check this for every event the server emits). An event of a type or `op` this version
//! does not know, or of a shape it cannot read, becomes [`ServerEvent::Other`]: a newer server
//! never breaks the client, its events just change nothing the client keeps.

mod channels;
mod messages;
mod organization;
mod personal;
mod users;

pub use channels::{
    PeerChange, StreamCreate, StreamDelete, StreamEvent, StreamUpdate, SubscriptionAdd, SubscriptionEvent,
    SubscriptionRef, SubscriptionRemove, SubscriptionUpdate,
};
pub use messages::{
    DeleteMessageEvent, EventMessage, FlagOp, MessageDetail, MessageEvent, ReactionEvent, ReactionOp,
    RecipientRef, Recipients, SubmessageEvent, UpdateMessageEvent, UpdateMessageFlagsEvent,
};
pub use organization::{
    ChannelFolderEvent, CustomProfileFieldsEvent, DefaultStreamGroupsEvent, DefaultStreamsEvent,
    PropertyChange, RealmEmojiEvent, RealmEvent, RealmLinkifiersEvent, RealmPlaygroundsEvent,
    RealmUpdateDict, SettingsEvent, UserGroupEvent,
};
pub use personal::{
    AlertWordsEvent, DraftsEvent, LegacyNotificationSetting, LegacySetting, MutedTopicsEvent,
    MutedUsersEvent, NavigationViewEvent, RemindersEvent, SavedSnippetsEvent, ScheduledMessagesEvent,
    UserTopicEvent,
};
pub use users::{
    BotOp, PersonUpdate, PresenceEvent, RealmBotEvent, RealmUserAdd, RealmUserEvent, RealmUserRemove,
    RealmUserUpdate, TypingEvent, TypingOp, TypingUser, UserStatusEvent,
};

use serde::{Deserialize, Serialize};
use serde_json::Value;

#[cfg(feature = "typescript")]
use ts_rs::TS;

/// An event from `GET /events`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerEvent {
    Message(MessageEvent),
    UpdateMessage(UpdateMessageEvent),
    DeleteMessage(DeleteMessageEvent),
    UpdateMessageFlags(UpdateMessageFlagsEvent),
    Reaction(ReactionEvent),
    Submessage(SubmessageEvent),
    Typing(TypingEvent),
    Subscription(SubscriptionEvent),
    Stream(StreamEvent),
    Realm(RealmEvent),
    RealmUser(RealmUserEvent),
    RealmBot(RealmBotEvent),
    Presence(PresenceEvent),
    UserStatus(UserStatusEvent),
    RealmLinkifiers(RealmLinkifiersEvent),
    RealmPlaygrounds(RealmPlaygroundsEvent),
    UserGroup(UserGroupEvent),
    DefaultStreams(DefaultStreamsEvent),
    DefaultStreamGroups(DefaultStreamGroupsEvent),
    ChannelFolder(ChannelFolderEvent),
    Drafts(DraftsEvent),
    SavedSnippets(SavedSnippetsEvent),
    NavigationView(NavigationViewEvent),
    MutedUsers(MutedUsersEvent),
    MutedTopics(MutedTopicsEvent),
    UserTopic(UserTopicEvent),
    RealmUserSettingsDefaults(SettingsEvent),
    UpdateDisplaySettings(LegacySetting),
    UpdateGlobalNotifications(LegacyNotificationSetting),
    AlertWords(AlertWordsEvent),
    RealmEmoji(RealmEmojiEvent),
    CustomProfileFields(CustomProfileFieldsEvent),
    ScheduledMessages(ScheduledMessagesEvent),
    Reminders(RemindersEvent),
    UserSettings(SettingsEvent),
    /// Any other event (heartbeats, attachments, types and `op`s newer than this version), as
    /// it came: serde tries it when no variant above reads the event.
    #[serde(untagged)]
    #[cfg_attr(
        feature = "typescript",
        ts(type = "{ type: string, id?: number } & { [key in string]?: JsonValue }")
    )]
    Other(Value),
}

impl ServerEvent {
    /// Reads an event; never fails, as an event no variant reads is [`ServerEvent::Other`].
    pub fn parse(event: Value) -> ServerEvent {
        ServerEvent::deserialize(&event).unwrap_or(ServerEvent::Other(event))
    }

    /// Whether no typed variant read the event.
    pub fn is_other(&self) -> bool {
        matches!(self, ServerEvent::Other(_))
    }
}

/// The fields of an event the applier does not read, as the server sent them (the event `id`
/// among them).
pub type Rest = serde_json::Map<String, Value>;
