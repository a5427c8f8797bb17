//! The TypeScript declarations of the npm package (`src/types.d.ts`, included in the
//! wasm-bindgen output) are generated from confab-core's own types, so the package's types and
//! its values come from one definition. This test fails when they are out of date; run it with
//! `UPDATE_TYPES=1` to write them.

#![cfg(not(target_arch = "wasm32"))]

use confab_core::client::types::*;
use confab_core::events::server_event::*;
use confab_core::markdown::{
    CustomEmoji, Linkifier, MentionGroup, MentionStream, MentionUser, OrganizationSnapshot, Rendering,
    TopicLatest, UploadedImage,
};
use confab_core::widgets::{PollOption, PollState, TodoItem, TodoState, WidgetState};
use ts_rs::{Config, TS};

/// Declarations no Rust type stands for: open JSON objects, and the options object.
const HANDWRITTEN: &str = r#"/** Any JSON value. */
export type JsonValue = number | string | boolean | Array<JsonValue> | { [key in string]?: JsonValue } | null;

/** Register's state, as Zulip's `POST /register` answers it and events keep it. */
export type RegisterState = { [key in string]?: JsonValue };

/** Options of a `Client`. */
export type ClientOptions = {
  /** The longest wait between reconnection attempts, in milliseconds (default 30,000). */
  maxRetryMs?: number,
};
"#;

fn declarations() -> String {
    let cfg = Config::new().with_large_int("number");
    let mut out = String::from(
        "// Generated from confab-core's types by host-web/tests/typescript_declarations.rs; do not edit.\n\n",
    );
    out.push_str(HANDWRITTEN);
    macro_rules! declare {
        ($($ty:ty),* $(,)?) => {
            $(
                out.push('\n');
                out.push_str("export ");
                out.push_str(&<$ty as TS>::decl(&cfg));
                out.push('\n');
            )*
        };
    }
    declare!(
        ChatMessage,
        MessageType,
        DisplayRecipient,
        RecipientUser,
        ChatReaction,
        ChatSubmessage,
        TopicLink,
        NarrowTerm,
        Anchor,
        NamedAnchor,
        MessagesPage,
        ChannelSummary,
        TopicVisibilityPolicy,
        TopicSummary,
        Conversation,
        UserSummary,
        PresenceStatus,
        TypingNotice,
        Destination,
        Changes,
        TopicRef,
        ConnectionState,
        ServerError,
        SessionCredentials,
        OutboxEntry,
        Operation,
        PropagateMode,
        MessageEdit,
        QueuedOperation,
        RefusedOperation,
        SearchSuggestion,
        EmojiChoice,
        EmojiType,
        GroupSummary,
        MessageActions,
        WidgetState,
        PollState,
        PollOption,
        TodoState,
        TodoItem,
        Rendering,
        OrganizationSnapshot,
        MentionUser,
        MentionGroup,
        MentionStream,
        CustomEmoji,
        Linkifier,
        UploadedImage,
        TopicLatest,
        ServerEvent,
        MessageEvent,
        EventMessage,
        Recipients,
        RecipientRef,
        UpdateMessageEvent,
        DeleteMessageEvent,
        UpdateMessageFlagsEvent,
        FlagOp,
        MessageDetail,
        ReactionEvent,
        ReactionOp,
        SubmessageEvent,
        TypingEvent,
        TypingOp,
        TypingUser,
        SubscriptionEvent,
        SubscriptionAdd,
        SubscriptionRemove,
        SubscriptionRef,
        SubscriptionUpdate,
        PeerChange,
        StreamEvent,
        StreamCreate,
        StreamDelete,
        StreamUpdate,
        RealmEvent,
        PropertyChange,
        RealmUpdateDict,
        RealmUserEvent,
        RealmUserAdd,
        RealmUserUpdate,
        RealmUserRemove,
        PersonUpdate,
        RealmBotEvent,
        BotOp,
        PresenceEvent,
        UserStatusEvent,
        RealmLinkifiersEvent,
        RealmPlaygroundsEvent,
        UserGroupEvent,
        DefaultStreamsEvent,
        DefaultStreamGroupsEvent,
        ChannelFolderEvent,
        DraftsEvent,
        SavedSnippetsEvent,
        NavigationViewEvent,
        MutedUsersEvent,
        MutedTopicsEvent,
        UserTopicEvent,
        SettingsEvent,
        LegacySetting,
        LegacyNotificationSetting,
        AlertWordsEvent,
        RealmEmojiEvent,
        CustomProfileFieldsEvent,
        ScheduledMessagesEvent,
        RemindersEvent,
    );
    out
}

#[test]
fn the_package_declarations_match_the_rust_types() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/types.d.ts");
    let generated = declarations();
    if std::env::var_os("UPDATE_TYPES").is_some() {
        std::fs::write(&path, &generated).expect("write src/types.d.ts");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "host-web/src/types.d.ts is out of date: run `UPDATE_TYPES=1 cargo test -p confab-web --test typescript_declarations`"
    );
}
