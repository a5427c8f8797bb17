//! The typed questions a front end asks: channels, topics, conversations, users, settings and
//! typing, answered from the register state (unread counts from `unread_msgs`, muting by the
//! same rule the server counts with) and what the engine has seen.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::api::messages::RESOLVED_TOPIC_PREFIX;
use crate::api::narrow::TopicVisibility;
use crate::markdown::{
    CustomEmoji, Linkifier, MentionGroup, MentionStream, MentionUser, OrganizationSnapshot,
};

use super::request::{HttpRequest, Method, Reply};
use super::types::{
    ChannelSummary, ChatMessage, Conversation, DisplayRecipient, MessageType, OutboxEntry, PresenceStatus,
    RecipientUser, ServerError, TopicSummary, TopicVisibilityPolicy, TypingNotice, UserSummary,
};
use super::{Destination, Engine, unreachable};

fn list<'a>(state: &'a Map<String, Value>, key: &str) -> &'a [Value] {
    state.get(key).and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default()
}

fn text(value: &Value, key: &str) -> String {
    value.get(key).and_then(Value::as_str).unwrap_or_default().to_owned()
}

fn ids(value: &Value) -> impl Iterator<Item = u64> + '_ {
    value.as_array().into_iter().flatten().filter_map(Value::as_u64)
}

impl Engine {
    /// The channels the user is subscribed to, pinned first, then by name.
    pub fn channels(&self) -> Vec<ChannelSummary> {
        let mentions = self.unread_mentions();
        let mut channels: Vec<ChannelSummary> = list(&self.state, "subscriptions")
            .iter()
            .filter_map(|sub| self.channel_summary_with(sub, &mentions))
            .collect();
        channels.sort_by(|a, b| {
            (!a.pin_to_top, a.name.to_lowercase()).cmp(&(!b.pin_to_top, b.name.to_lowercase()))
        });
        channels
    }

    fn unread_mentions(&self) -> Vec<u64> {
        self.state.get("unread_msgs").map(|u| ids(&u["mentions"]).collect()).unwrap_or_default()
    }

    /// A channel record of the state (a subscription, or a channel the user is not in) as a
    /// summary with unread counts.
    pub(super) fn channel_summary(&self, record: &Value) -> Option<ChannelSummary> {
        self.channel_summary_with(record, &self.unread_mentions())
    }

    fn channel_summary_with(&self, sub: &Value, mentions: &[u64]) -> Option<ChannelSummary> {
        let stream_id = sub["stream_id"].as_u64()?;
        let is_muted = sub["is_muted"] == true;
        let (mut unread_count, mut mention_count) = (0, 0);
        for entry in self.unread_topics(stream_id) {
            let unread: Vec<u64> = ids(&entry["unread_message_ids"]).collect();
            if !self.topic_visibility(stream_id, &text(entry, "topic")).mutes(is_muted) {
                unread_count += unread.len() as u32;
            }
            mention_count += unread.iter().filter(|id| mentions.contains(id)).count() as u32;
        }
        Some(ChannelSummary {
            stream_id,
            name: text(sub, "name"),
            description: text(sub, "description"),
            color: text(sub, "color"),
            invite_only: sub["invite_only"] == true,
            is_web_public: sub["is_web_public"] == true,
            is_muted,
            pin_to_top: sub["pin_to_top"] == true,
            unread_count,
            mention_count,
        })
    }

    fn unread_topics(&self, stream_id: u64) -> impl Iterator<Item = &Value> {
        self.state
            .get("unread_msgs")
            .map(|u| u["streams"].as_array().map(Vec::as_slice).unwrap_or_default())
            .unwrap_or_default()
            .iter()
            .filter(move |entry| entry["stream_id"] == stream_id)
    }

    fn topic_policy(&self, stream_id: u64, topic: &str) -> i64 {
        let topic = topic.to_lowercase();
        list(&self.state, "user_topics")
            .iter()
            .find(|t| t["stream_id"] == stream_id && text(t, "topic_name").to_lowercase() == topic)
            .and_then(|t| t["visibility_policy"].as_i64())
            .unwrap_or_default()
    }

    fn topic_visibility(&self, stream_id: u64, topic: &str) -> TopicVisibility {
        TopicVisibility::from_policy(self.topic_policy(stream_id, topic))
    }

    fn channel_muted(&self, stream_id: u64) -> bool {
        list(&self.state, "subscriptions")
            .iter()
            .any(|s| s["stream_id"] == stream_id && s["is_muted"] == true)
    }

    /// A channel's topics the engine knows (seen in messages, unread, or fetched with
    /// [`Engine::topics_request`]), newest first.
    pub fn topics(&self, stream_id: u64) -> Vec<TopicSummary> {
        let mut known: BTreeMap<String, (String, u64)> =
            self.topics.get(&stream_id).cloned().unwrap_or_default();
        let mut unread: BTreeMap<String, u32> = BTreeMap::new();
        for entry in self.unread_topics(stream_id) {
            let name = text(entry, "topic");
            let newest = ids(&entry["unread_message_ids"]).max().unwrap_or_default();
            let count = ids(&entry["unread_message_ids"]).count() as u32;
            *unread.entry(name.to_lowercase()).or_default() += count;
            let slot = known.entry(name.to_lowercase()).or_insert((name.clone(), newest));
            slot.1 = slot.1.max(newest);
        }
        let channel_muted = self.channel_muted(stream_id);
        let mut topics: Vec<TopicSummary> = known
            .into_iter()
            .map(|(lower, (name, max_id))| {
                let policy = self.topic_policy(stream_id, &name);
                let visibility = TopicVisibility::from_policy(policy);
                TopicSummary {
                    resolved: name.starts_with(RESOLVED_TOPIC_PREFIX),
                    visibility_policy: match policy {
                        1 => TopicVisibilityPolicy::Muted,
                        2 => TopicVisibilityPolicy::Unmuted,
                        3 => TopicVisibilityPolicy::Followed,
                        _ => TopicVisibilityPolicy::Inherit,
                    },
                    muted: visibility.mutes(channel_muted),
                    followed: visibility == TopicVisibility::Followed,
                    unread_count: unread.get(&lower).copied().unwrap_or_default(),
                    name,
                    max_id,
                }
            })
            .collect();
        topics.sort_by_key(|t| std::cmp::Reverse(t.max_id));
        topics
    }

    /// `GET /users/me/{stream_id}/topics`: a channel's topics from the server.
    pub fn topics_request(&self, stream_id: u64) -> HttpRequest {
        HttpRequest::new(Method::Get, format!("/api/v1/users/me/{stream_id}/topics"))
    }

    /// Keeps the fetched topics; returns the channel's topics.
    pub fn handle_topics(&mut self, stream_id: u64, reply: Reply) -> Result<Vec<TopicSummary>, ServerError> {
        let fields = match reply {
            Reply::Success(fields) => fields,
            Reply::Refused(error) => return Err(error),
            Reply::Unreachable(why) => return Err(unreachable(why)),
        };
        let fetched: Vec<(String, u64)> = fields
            .get("topics")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|t| Some((t["name"].as_str()?.to_owned(), t["max_id"].as_u64()?)))
            .collect();
        // The server's list is complete: topics it no longer has are gone.
        let topics = self.topics.entry(stream_id).or_default();
        topics.clear();
        for (name, max_id) in fetched {
            topics.insert(name.to_lowercase(), (name, max_id));
        }
        self.changes.channel(stream_id);
        Ok(self.topics(stream_id))
    }

    /// Direct-message conversations, most recent first, with unread counts.
    pub fn conversations(&self) -> Vec<Conversation> {
        let unread = self.state.get("unread_msgs");
        let count_for = |others: &[u64]| -> u32 {
            let Some(unread) = unread else { return 0 };
            match others {
                [] => 0,
                [other] => unread["pms"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter(|p| p["other_user_id"] == *other || p["sender_id"] == *other)
                    .map(|p| ids(&p["unread_message_ids"]).count() as u32)
                    .sum(),
                _ => {
                    let mut all = others.to_vec();
                    all.push(self.user_id);
                    all.sort_unstable();
                    let key = all.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
                    unread["huddles"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter(|h| h["user_ids_string"] == key.as_str())
                        .map(|h| ids(&h["unread_message_ids"]).count() as u32)
                        .sum()
                }
            }
        };
        list(&self.state, "recent_private_conversations")
            .iter()
            .map(|c| {
                let user_ids: Vec<u64> = ids(&c["user_ids"]).collect();
                Conversation {
                    unread_count: count_for(&user_ids),
                    max_message_id: c["max_message_id"].as_u64().unwrap_or_default(),
                    user_ids,
                }
            })
            .collect()
    }

    /// Everyone in the organization (active users and bots), by name, with presence and
    /// status.
    pub fn users(&self) -> Vec<UserSummary> {
        let mut users: Vec<UserSummary> =
            list(&self.state, "realm_users").iter().filter_map(|user| self.user_summary(user)).collect();
        users.sort_by_key(|u| u.full_name.to_lowercase());
        users
    }

    /// A user record of the state as a summary, with presence and status.
    pub(super) fn user_summary(&self, user: &Value) -> Option<UserSummary> {
        let user_id = user["user_id"].as_u64()?;
        let last_active = self.presence(user_id).and_then(|p| p["active_timestamp"].as_i64());
        let status = self.state.get("user_status").and_then(|s| s.get(user_id.to_string()));
        Some(UserSummary {
            user_id,
            full_name: text(user, "full_name"),
            email: text(user, "email"),
            is_active: user["is_active"] != false,
            is_bot: user["is_bot"] == true,
            role: user["role"].as_u64().unwrap_or(400) as u32,
            avatar_url: user["avatar_url"].as_str().map(str::to_owned),
            presence: self.presence_status(user_id),
            last_active,
            status_text: status.map(|s| text(s, "status_text")).unwrap_or_default(),
            status_emoji: status.map(|s| text(s, "emoji_name")).unwrap_or_default(),
        })
    }

    fn presence(&self, user_id: u64) -> Option<&Value> {
        self.state.get("presences").and_then(|p| p.get(user_id.to_string()))
    }

    /// Zulip's presence buckets: active or idle within the offline threshold, else offline, as
    /// of the host's clock (see `presence`).
    pub(super) fn presence_status(&self, user_id: u64) -> PresenceStatus {
        let now = self.presence_now();
        let offline_after = self
            .state
            .get("server_presence_offline_threshold_seconds")
            .and_then(Value::as_i64)
            .unwrap_or(140);
        let presence = self.presence(user_id);
        let last_active = presence.and_then(|p| p["active_timestamp"].as_i64());
        let last_connected = presence.and_then(|p| p["idle_timestamp"].as_i64()).or(last_active);
        match (last_active, last_connected) {
            (Some(active), _) if now - active <= offline_after => PresenceStatus::Active,
            (_, Some(connected)) if now - connected <= offline_after => PresenceStatus::Idle,
            _ => PresenceStatus::Offline,
        }
    }

    /// The user's own settings (Zulip's `user_settings`).
    pub fn own_settings(&self) -> Map<String, Value> {
        self.state.get("user_settings").and_then(Value::as_object).cloned().unwrap_or_default()
    }

    /// What the widget of a cached message shows the user (a poll's tally, a to-do list's
    /// tasks), folded from its submessages as Zulip's web app folds them; `None` for a message
    /// the cache does not hold or that is no widget.
    pub fn widget(&self, message_id: u64) -> Option<crate::widgets::WidgetState> {
        let message = self.cache.messages.get(&message_id)?;
        let submessages: Vec<_> = message.submessages.iter().map(|s| s.to_model()).collect();
        crate::widgets::widget_state(
            crate::ids::UserId(message.sender_id),
            &submessages,
            crate::ids::UserId(self.user_id),
        )
    }

    /// Who is typing now.
    pub fn typing(&self) -> Vec<TypingNotice> {
        self.typing.iter().map(|(notice, _)| notice.clone()).collect()
    }

    /// A local echo of an outbox entry, as the message will look.
    pub(super) fn echo(&self, entry: &OutboxEntry) -> Option<ChatMessage> {
        let me = list(&self.state, "realm_users").iter().find(|u| u["user_id"] == self.user_id);
        let name = |id: u64| {
            list(&self.state, "realm_users").iter().find(|u| u["user_id"] == id).map(|u| RecipientUser {
                id,
                email: text(u, "email"),
                full_name: text(u, "full_name"),
            })
        };
        let (kind, stream_id, subject, display_recipient) = match &entry.destination {
            Destination::Channel { stream_id, topic } => (
                MessageType::Stream,
                Some(*stream_id),
                topic.clone(),
                DisplayRecipient::Channel(self.channel_name(*stream_id).unwrap_or_default()),
            ),
            Destination::Direct { user_ids } => {
                let mut everyone: Vec<u64> = user_ids.clone();
                everyone.push(self.user_id);
                everyone.sort_unstable();
                everyone.dedup();
                (
                    MessageType::Private,
                    None,
                    String::new(),
                    DisplayRecipient::Users(everyone.into_iter().filter_map(name).collect()),
                )
            }
        };
        Some(ChatMessage {
            id: 0,
            sender_id: self.user_id,
            sender_full_name: me.map(|u| text(u, "full_name")).unwrap_or_default(),
            sender_email: me.map(|u| text(u, "email")).unwrap_or_default(),
            avatar_url: me.and_then(|u| u["avatar_url"].as_str().map(str::to_owned)),
            timestamp: entry.timestamp,
            content: entry.html.clone(),
            kind,
            stream_id,
            subject,
            display_recipient,
            reactions: Vec::new(),
            submessages: Vec::new(),
            flags: vec!["read".into()],
            is_me_message: entry.content.starts_with("/me "),
            last_edit_timestamp: None,
            last_moved_timestamp: None,
            topic_links: Vec::new(),
            client: String::new(),
            local_id: Some(entry.local_id.clone()),
            send_error: entry.error.clone(),
        })
    }
}

/// What the Markdown renderer needs of the organization, from a register state.
pub(super) fn organization_snapshot(state: &Map<String, Value>, site: &str) -> OrganizationSnapshot {
    let users = list(state, "realm_users")
        .iter()
        .chain(list(state, "realm_non_active_users"))
        .chain(list(state, "cross_realm_bots"))
        .filter_map(|u| {
            Some(MentionUser {
                id: u["user_id"].as_u64()?,
                full_name: text(u, "full_name"),
                email: text(u, "email"),
                is_active: u["is_active"] != false,
            })
        })
        .collect();
    let groups = list(state, "realm_user_groups")
        .iter()
        .filter_map(|g| {
            Some(MentionGroup {
                id: g["id"].as_u64()?,
                name: text(g, "name"),
                members: ids(&g["members"]).collect(),
                is_deactivated: g["deactivated"] == true,
            })
        })
        .collect();
    let streams = ["subscriptions", "unsubscribed", "never_subscribed"]
        .iter()
        .flat_map(|key| list(state, key))
        .filter_map(|s| Some(MentionStream { id: s["stream_id"].as_u64()?, name: text(s, "name") }))
        .collect();
    let custom_emoji: Vec<CustomEmoji> =
        OrganizationSnapshot::custom_emoji_from_register(state.get("realm_emoji").unwrap_or(&Value::Null));
    let linkifiers = list(state, "realm_linkifiers")
        .iter()
        .filter_map(|l| {
            Some(Linkifier {
                id: l["id"].as_u64()?,
                pattern: text(l, "pattern"),
                url_template: text(l, "url_template"),
            })
        })
        .collect();
    let realm_url = state
        .get("realm_url")
        .and_then(Value::as_str)
        .map_or_else(|| site.trim_end_matches('/').to_owned(), str::to_owned);
    let default_code_block_language = state
        .get("user_settings")
        .and_then(|s| s["default_code_block_language"].as_str())
        .filter(|l| !l.is_empty())
        .or_else(|| {
            state.get("realm_default_code_block_language").and_then(Value::as_str).filter(|l| !l.is_empty())
        })
        .map(str::to_owned);
    OrganizationSnapshot {
        users,
        groups,
        streams,
        custom_emoji,
        linkifiers,
        realm_url,
        default_code_block_language,
        ..OrganizationSnapshot::default()
    }
}
