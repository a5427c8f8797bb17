//! The client's copy of the organization as core's own model: a [`MemoryStore`] filled from the
//! register state and the cached messages, so the server's narrow code (`api::narrow`: resolve,
//! facts, the predicate) decides which cached messages belong to which narrow. Nothing here
//! decides membership; it only translates wire shapes back into the model.
//!
//! Recipient ids are the client's own: the server's are not all in the state (users' personal
//! recipients are not), and the predicate only compares them with each other.

use serde_json::{Map, Value};

use crate::api::narrow::{self, RawTerm};
use crate::ids::{MessageId, RealmId, RecipientId, StreamId, UserId};
use crate::memory::MemoryStore;
use crate::model::{
    self, BotType, MessageFlags, MessageKind, Reaction, Realm, Recipient, RecipientKind, RecordKind, Role,
    Stream, Subscription, User, direct_group_key,
};
use crate::store::{Change, Store};
use crate::{Actor, ApiResult};

use super::projection_settings;
use super::types::{ChatMessage, DisplayRecipient, MessageType};

/// The organization's id in the projection (the state does not say it).
const REALM: RealmId = RealmId(1);
const STREAM_RECIPIENTS: u64 = 1 << 40;
const PERSONAL_RECIPIENTS: u64 = 2 << 40;
const GROUP_RECIPIENTS: u64 = 3 << 40;

/// The model the narrow code reads, kept in step with the engine's state and cache.
#[derive(Clone, Debug, Default)]
pub struct Projection {
    store: MemoryStore,
    viewer: u64,
    groups: u64,
}

impl Projection {
    /// Builds the model of a register state for its user.
    pub fn new(state: &Map<String, Value>, viewer: u64) -> Projection {
        let mut projection = Projection { store: MemoryStore::new(), viewer, groups: 0 };
        projection.sync_users(state);
        projection.sync_organization(state);
        projection.sync_channels(state);
        projection.sync_topic_policies(state);
        projection
    }

    /// The organization's settings and user groups (who may edit, move, delete...).
    pub fn sync_organization(&mut self, state: &Map<String, Value>) {
        self.store.apply(&Change::PutRealm(Realm {
            id: REALM,
            subdomain: String::new(),
            name: String::new(),
            description: String::new(),
            date_created: 0,
            deactivated: false,
            notification_bot: None,
            settings: projection_settings::realm_settings(state),
        }));
        for group in projection_settings::user_groups(state, REALM) {
            self.store.apply(&Change::PutUserGroup(Box::new(group)));
        }
        // A state without groups (an older server) has Zulip's system groups all the same.
        for change in crate::groups::missing_system_groups(&self.store, REALM).unwrap_or_default() {
            self.store.apply(&change);
        }
    }

    pub fn store(&self) -> &MemoryStore {
        &self.store
    }

    /// The viewer as an actor of the projected organization.
    pub fn actor(&self) -> Option<Actor> {
        let user = self.store.user(UserId(self.viewer)).ok().flatten()?;
        let realm = self.store.realm(REALM).ok().flatten()?;
        Some(Actor { user, realm, client: String::new(), realm_url: String::new() })
    }

    /// Every user of the state (active, deactivated and cross-organization bots).
    pub fn sync_users(&mut self, state: &Map<String, Value>) {
        for key in ["realm_users", "realm_non_active_users", "cross_realm_bots"] {
            for user in state.get(key).and_then(Value::as_array).into_iter().flatten() {
                self.put_user(user, key != "realm_non_active_users");
            }
        }
    }

    /// One user, after an event about them.
    pub fn sync_user(&mut self, state: &Map<String, Value>, id: u64) {
        for key in ["realm_users", "realm_non_active_users", "cross_realm_bots"] {
            let users = state.get(key).and_then(Value::as_array).into_iter().flatten();
            if let Some(user) = users.into_iter().find(|u| u["user_id"] == id) {
                self.put_user(user, key != "realm_non_active_users");
                return;
            }
        }
    }

    fn put_user(&mut self, user: &Value, active: bool) {
        let Some(id) = user["user_id"].as_u64() else { return };
        let email = user["email"].as_str().unwrap_or_default().to_owned();
        let role = user["role"].as_u64().and_then(|r| Role::from_value(r as u16)).unwrap_or(Role::Member);
        self.store.apply(&Change::PutUser(User {
            id: UserId(id),
            realm_id: REALM,
            delivery_email: user["delivery_email"].as_str().map_or_else(|| email.clone(), str::to_owned),
            email,
            email_address_visibility: model::EmailVisibility::default(),
            full_name: user["full_name"].as_str().unwrap_or_default().to_owned(),
            role,
            bot_type: user["bot_type"].as_i64().and_then(BotType::from_value),
            bot_owner_id: user["bot_owner_id"].as_u64().map(UserId),
            is_active: active && user["is_active"] != false,
            date_joined: 0,
            timezone: String::new(),
            avatar_version: 0,
            avatar: None,
            personal_recipient: RecipientId(PERSONAL_RECIPIENTS + id),
        }));
        self.store.apply(&Change::PutRecipient(Recipient {
            id: RecipientId(PERSONAL_RECIPIENTS + id),
            kind: RecipientKind::Personal(UserId(id)),
        }));
    }

    /// Every channel the state knows and the viewer's subscriptions to them.
    pub fn sync_channels(&mut self, state: &Map<String, Value>) {
        for (key, subscribed) in
            [("subscriptions", true), ("unsubscribed", false), ("never_subscribed", false)]
        {
            for channel in state.get(key).and_then(Value::as_array).into_iter().flatten() {
                self.put_channel(channel, subscribed && key == "subscriptions", key != "never_subscribed");
            }
        }
        // Channels the state lists only in `streams` (when registered for them).
        for channel in state.get("streams").and_then(Value::as_array).into_iter().flatten() {
            let known = channel["stream_id"]
                .as_u64()
                .is_some_and(|id| self.store.stream(StreamId(id)).ok().flatten().is_some());
            if !known {
                self.put_channel(channel, false, false);
            }
        }
    }

    fn put_channel(&mut self, channel: &Value, active: bool, has_row: bool) {
        let Some(id) = channel["stream_id"].as_u64() else { return };
        let recipient = RecipientId(STREAM_RECIPIENTS + id);
        self.store.apply(&Change::PutStream(Stream {
            id: StreamId(id),
            realm_id: REALM,
            name: channel["name"].as_str().unwrap_or_default().to_owned(),
            description: String::new(),
            rendered_description: String::new(),
            date_created: 0,
            creator_id: channel["creator_id"].as_u64().map(UserId),
            invite_only: channel["invite_only"] == true,
            is_web_public: channel["is_web_public"] == true,
            history_public_to_subscribers: channel["history_public_to_subscribers"] != false,
            message_retention_days: None,
            is_archived: channel["is_archived"] == true,
            recipient_id: recipient,
            first_message_id: channel["first_message_id"].as_u64().map(MessageId),
            is_recently_active: channel["is_recently_active"] != false,
            topics_policy: "inherit".into(),
            is_default: false,
            folder_id: None,
            permissions: Box::new(projection_settings::channel_permissions(channel)),
        }));
        self.store.apply(&Change::PutRecipient(Recipient {
            id: recipient,
            kind: RecipientKind::Stream(StreamId(id)),
        }));
        if has_row {
            let mut subscription = Subscription::new(UserId(self.viewer), StreamId(id), String::new());
            subscription.active = active;
            subscription.is_muted = channel["is_muted"] == true || channel["in_home_view"] == false;
            self.store.apply(&Change::PutSubscription(subscription));
        }
    }

    /// The viewer's topic preferences, from `user_topics`.
    pub fn sync_topic_policies(&mut self, state: &Map<String, Value>) {
        let viewer = UserId(self.viewer);
        let old = self.store.records(viewer, RecordKind::UserTopic).unwrap_or_default();
        for (id, _) in old {
            self.store.apply(&Change::DeleteRecord { user: viewer, kind: RecordKind::UserTopic, id });
        }
        for (id, preference) in
            state.get("user_topics").and_then(Value::as_array).into_iter().flatten().enumerate()
        {
            self.store.apply(&Change::PutRecord {
                user: viewer,
                kind: RecordKind::UserTopic,
                id: id as u64 + 1,
                value: preference.clone(),
            });
        }
    }

    /// Puts a cached message (its flags and reactions too), replacing an older copy.
    pub fn put_message(&mut self, message: &ChatMessage) {
        if let DisplayRecipient::Users(users) = &message.display_recipient {
            let participants = participants(users);
            if participants.len() > 2 {
                self.register_group(&participants);
            }
        }
        let Some((model, flags)) = self.model_message(message) else { return };
        let id = model.id;
        let viewer = UserId(self.viewer);
        if self.store.message(id).ok().flatten().is_some() {
            for reaction in self.store.reactions(id).unwrap_or_default() {
                self.store.apply(&Change::RemoveReaction(reaction));
            }
            self.store.apply(&Change::UpdateMessage(model));
            self.store.apply(&Change::SetMessageFlags { user: viewer, message: id, flags });
        } else {
            self.store.apply(&Change::InsertMessage { message: model, receivers: vec![(viewer, flags)] });
        }
        for reaction in &message.reactions {
            self.store.apply(&Change::AddReaction(Reaction {
                message_id: id,
                user_id: UserId(reaction.user_id),
                emoji_name: reaction.emoji_name.clone(),
                emoji_code: reaction.emoji_code.clone(),
                reaction_type: reaction.reaction_type.clone(),
            }));
        }
    }

    /// A wire message as the model stores it, with the viewer's flags.
    fn model_message(&self, message: &ChatMessage) -> Option<(model::Message, MessageFlags)> {
        let sender = UserId(message.sender_id);
        let (kind, recipient) = match (&message.kind, &message.display_recipient, message.stream_id) {
            (MessageType::Stream, _, Some(stream)) => (
                MessageKind::Stream { stream_id: StreamId(stream), topic: message.subject.clone() },
                RecipientId(STREAM_RECIPIENTS + stream),
            ),
            (_, DisplayRecipient::Users(users), _) => {
                let participants = participants(users);
                let recipient = self.direct_recipient(sender, &participants);
                (MessageKind::Direct { participants }, recipient)
            }
            _ => return None,
        };
        let model = model::Message {
            id: MessageId(message.id),
            realm_id: REALM,
            sender_id: sender,
            recipient_id: recipient,
            kind,
            content: String::new(),
            rendered_content: Default::default(),
            timestamp: message.timestamp,
            client: String::new(),
            is_me_message: message.is_me_message,
            has_link: false,
            has_image: false,
            has_attachment: false,
            last_edit_timestamp: message.last_edit_timestamp,
            last_moved_timestamp: message.last_moved_timestamp,
            edit_history: Vec::new(),
        };
        let flags = message
            .flags
            .iter()
            .filter_map(|name| MessageFlags::from_name(name))
            .fold(MessageFlags::empty(), MessageFlags::with);
        Some((model, flags))
    }

    /// Whether a message not in the cache (a local echo) belongs to a resolved narrow.
    pub fn echo_matches(&self, narrow: &narrow::Narrow, echo: &ChatMessage) -> bool {
        let Some((message, _)) = self.model_message(echo) else { return false };
        narrow::facts(&self.store, narrow, &message).is_ok_and(|facts| narrow.matches(&message, &facts))
    }

    pub fn remove_message(&mut self, id: u64) {
        self.store.apply(&Change::DeleteMessage(MessageId(id)));
    }

    /// The stored recipient of a direct message, as the server stores it: the receiver's
    /// personal recipient for two people (the sender's own for a message to oneself), the
    /// group's for more (none yet for a group never seen, which no narrow can name either).
    fn direct_recipient(&self, sender: UserId, participants: &[UserId]) -> RecipientId {
        match participants {
            [only] => RecipientId(PERSONAL_RECIPIENTS + only.0),
            [a, b] => RecipientId(PERSONAL_RECIPIENTS + if *a == sender { b.0 } else { a.0 }),
            _ => self
                .store
                .direct_group(&direct_group_key(participants))
                .ok()
                .flatten()
                .unwrap_or(RecipientId(GROUP_RECIPIENTS)),
        }
    }

    fn register_group(&mut self, participants: &[UserId]) {
        if self.store.direct_group(&direct_group_key(participants)).ok().flatten().is_some() {
            return;
        }
        self.groups += 1;
        self.store.apply(&Change::PutRecipient(Recipient {
            id: RecipientId(GROUP_RECIPIENTS + self.groups),
            kind: RecipientKind::DirectGroup(participants.to_vec()),
        }));
    }

    /// Resolves a narrow as the server would for the viewer.
    pub fn resolve(&self, terms: &[RawTerm]) -> ApiResult<narrow::Narrow> {
        let actor = self.actor().ok_or_else(|| crate::ApiError::bad_request("The state has no such user"))?;
        narrow::resolve(&self.store, &actor, terms)
    }

    /// Whether a cached message belongs to a resolved narrow: the server's predicate, on facts
    /// gathered from the projection.
    pub fn matches(&self, narrow: &narrow::Narrow, id: u64) -> bool {
        let Some(message) = self.store.message(MessageId(id)).ok().flatten() else { return false };
        narrow::facts(&self.store, narrow, &message).is_ok_and(|facts| narrow.matches(&message, &facts))
    }

    /// Whether the viewer is subscribed to a channel now.
    pub fn subscribed(&self, stream: u64) -> bool {
        self.store
            .subscription(UserId(self.viewer), StreamId(stream))
            .ok()
            .flatten()
            .is_some_and(|s| s.active)
    }
}

fn participants(users: &[super::types::RecipientUser]) -> Vec<UserId> {
    let mut participants: Vec<UserId> = users.iter().map(|u| UserId(u.id)).collect();
    participants.sort_unstable();
    participants.dedup();
    participants
}
