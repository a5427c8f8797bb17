//! Following events: each goes through `apply_event` into the register state, and then into
//! the engine's own keeping (the message cache and its narrows, topics, typing notices, the
//! outbox, the renderer's picture of the organization), noting what changed for the front end.

use serde_json::Value;

use crate::api::messages::{TopicChange, classify_topic_change};
use crate::model::MessageFlags;

use super::Engine;
use super::narrow_terms::Aspects;
use super::types::{
    ChatMessage, ChatReaction, ChatSubmessage, DisplayRecipient, MessageType, TopicLink, TypingNotice,
};

impl Engine {
    /// Follows one event from the server.
    pub(super) fn follow(&mut self, event: &Value, now_ms: i64) {
        let kind = event.get("type").and_then(Value::as_str).unwrap_or_default();
        self.apply_to_state(event);
        match kind {
            "message" => self.follow_message(event),
            "update_message" => self.follow_update_message(event),
            "delete_message" => self.follow_delete(event),
            "update_message_flags" => self.follow_flags(event),
            "reaction" => self.follow_reaction(event),
            "submessage" => self.follow_submessage(event),
            "typing" => self.follow_typing(event, now_ms),
            "subscription" | "stream" => {
                self.channel_index.take();
                self.follow_channels();
            }
            "user_topic" | "muted_topics" => {
                self.projection.sync_topic_policies(&self.state);
                let changed = self.cache.on_changed(
                    None,
                    Aspects { muting: true, ..Aspects::default() },
                    &self.projection,
                );
                self.changes.narrows(changed);
                if let (Some(stream), Some(topic)) =
                    (event["stream_id"].as_u64(), event["topic_name"].as_str())
                {
                    self.changes.topic(stream, topic);
                } else {
                    self.changes.channels(self.topics.keys().copied().collect::<Vec<_>>());
                }
            }
            "realm_user" | "realm_bot" => {
                self.user_index.take();
                self.groups.take();
                match event["person"]["user_id"].as_u64() {
                    Some(id) => {
                        self.projection.sync_user(&self.state, id);
                        self.changes.user(id);
                    }
                    None => self.projection.sync_users(&self.state),
                }
                self.organization = None;
            }
            "presence" | "user_status" => {
                for id in event["user_id"].as_u64().into_iter().chain(
                    event["presences"]
                        .as_object()
                        .into_iter()
                        .flat_map(|p| p.keys().filter_map(|k| k.parse().ok())),
                ) {
                    self.changes.user(id);
                }
            }
            "user_group" | "realm_emoji" | "realm_linkifiers" | "realm" => {
                if kind != "realm_emoji" && kind != "realm_linkifiers" {
                    self.projection.sync_organization(&self.state);
                    self.groups.take();
                }
                self.organization = None;
                self.changes.settings();
            }
            "user_settings"
            | "update_display_settings"
            | "update_global_notifications"
            | "alert_words"
            | "muted_users"
            | "drafts"
            | "saved_snippets" => self.changes.settings(),
            _ => {}
        }
    }

    fn follow_message(&mut self, event: &Value) {
        let mut fields = event["message"].clone();
        fields["flags"] = event.get("flags").cloned().unwrap_or_else(|| Value::Array(Vec::new()));
        let Ok(message) = serde_json::from_value::<ChatMessage>(fields) else { return };
        let id = message.id;
        match (message.kind, message.stream_id) {
            (MessageType::Stream, Some(stream)) => {
                self.note_topic(stream, &message.subject, id);
                self.changes.topic(stream, &message.subject);
            }
            _ => self.changes.conversations(),
        }
        self.projection.put_message(&message);
        self.cache.put(message);
        let changed = self.cache.on_new_message(id, &self.projection);
        self.changes.narrows(changed);
        self.changes.message(id);
        if self.outbox.arrived(id, event.get("local_message_id").and_then(Value::as_str)) {
            self.changes.outbox();
        }
    }

    /// An edit or a move: cached copies take the new content and place, and narrows follow.
    fn follow_update_message(&mut self, event: &Value) {
        let mut ids: Vec<u64> =
            event["message_ids"].as_array().into_iter().flatten().filter_map(Value::as_u64).collect();
        if ids.is_empty() {
            ids.extend(event["message_id"].as_u64());
        }
        let target = event["message_id"].as_u64();
        let edit_timestamp = event["edit_timestamp"].as_i64();
        let new_stream = event["new_stream_id"].as_u64();
        let new_topic = event["subject"].as_str();
        let new_channel_name = new_stream.and_then(|id| self.channel_name(id));
        let topic_links: Option<Vec<TopicLink>> = serde_json::from_value(event["topic_links"].clone()).ok();
        let mut aspects = Aspects::default();
        let mut moved_from = Vec::new();
        for id in &ids {
            let Some(message) = self.cache.messages.get_mut(id) else { continue };
            if Some(*id) == target {
                if let Some(html) = event["rendered_content"].as_str() {
                    message.content = html.to_owned();
                    message.is_me_message = event["is_me_message"] == true;
                    message.last_edit_timestamp = edit_timestamp;
                    aspects.content = true;
                }
                if let Some(flags) = event["flags"].as_array() {
                    let historical = message.flags.iter().any(|f| f == "historical");
                    message.flags = flags.iter().filter_map(Value::as_str).map(str::to_owned).collect();
                    // A subscriber without a copy of the message hears of edits flagged only
                    // `read` (Zulip's `subscriber_info`); it still has no copy, so the message
                    // stays `historical`, as a fetch shows it.
                    if historical && !message.flags.iter().any(|f| f == "historical") {
                        message.flags.push("historical".to_owned());
                    }
                    aspects.flags = true;
                }
            }
            let old_topic = message.subject.clone();
            if let Some(stream) = message.stream_id {
                moved_from.push((stream, old_topic.clone()));
            }
            let renamed =
                new_topic.is_some_and(|t| classify_topic_change(&old_topic, t) == TopicChange::Rename);
            if let Some(topic) = new_topic {
                message.subject = topic.to_owned();
                aspects.place = true;
            }
            if let (Some(stream), Some(name)) = (new_stream, &new_channel_name) {
                message.stream_id = Some(stream);
                message.display_recipient = DisplayRecipient::Channel(name.clone());
                aspects.place = true;
            }
            if new_stream.is_some() || renamed {
                message.last_moved_timestamp = edit_timestamp;
            }
            if let Some(links) = &topic_links {
                message.topic_links = links.clone();
            }
        }
        for id in &ids {
            if let Some(message) = self.cache.messages.get(id) {
                self.projection.put_message(message);
                if let (Some(stream), MessageType::Stream) = (message.stream_id, message.kind) {
                    let (stream, topic) = (stream, message.subject.clone());
                    self.note_topic(stream, &topic, *id);
                    self.changes.topic(stream, &topic);
                }
                self.changes.message(*id);
            }
        }
        if new_stream.is_some() || new_topic.is_some() {
            aspects.place = true;
            aspects.muting = true;
            // Topics the messages left may be empty now; their newest ids are refreshed on fetch.
            let old_stream = event["stream_id"].as_u64();
            if let (Some(stream), Some(topic)) = (old_stream, event["orig_subject"].as_str()) {
                self.changes.topic(stream, topic);
                if event["propagate_mode"] == "change_all" {
                    self.forget_topic(
                        stream,
                        topic,
                        new_stream.unwrap_or(stream),
                        new_topic.unwrap_or(topic),
                        &ids,
                    );
                }
            }
            for (stream, topic) in moved_from {
                self.changes.topic(stream, &topic);
            }
            if let (Some(stream), Some(topic)) =
                (new_stream.or(old_stream), new_topic.or(event["orig_subject"].as_str()))
            {
                if let Some(max) = ids.iter().max() {
                    self.note_topic(stream, topic, *max);
                }
                self.changes.topic(stream, topic);
            }
        }
        if event.get("rendered_content").is_some() {
            aspects.content = true;
        }
        if event.get("flags").is_some() {
            aspects.flags = true;
        }
        let changed = self.cache.on_changed(Some(&ids), aspects, &self.projection);
        self.changes.narrows(changed);
        self.changes.conversations();
    }

    fn follow_delete(&mut self, event: &Value) {
        let mut ids: Vec<u64> =
            event["message_ids"].as_array().into_iter().flatten().filter_map(Value::as_u64).collect();
        ids.extend(event["message_id"].as_u64());
        for id in &ids {
            self.projection.remove_message(*id);
            self.changes.message(*id);
        }
        let changed = self.cache.on_deleted(&ids);
        self.changes.narrows(changed);
        if let (Some(stream), Some(topic)) = (event["stream_id"].as_u64(), event["topic"].as_str()) {
            self.changes.topic(stream, topic);
        } else {
            self.changes.conversations();
        }
    }

    fn follow_flags(&mut self, event: &Value) {
        let Some(flag) = event["flag"].as_str() else { return };
        let add = event["op"] == "add";
        let ids: Vec<u64> = if event["all"] == true {
            self.cache.messages.keys().copied().collect()
        } else {
            event["messages"].as_array().into_iter().flatten().filter_map(Value::as_u64).collect()
        };
        for id in &ids {
            if let Some(message) = self.cache.messages.get_mut(id) {
                // A flag already as the event says stays where it is: the server's event for a
                // change shown early must leave the message exactly as it was shown.
                if !add {
                    message.flags.retain(|f| f != flag);
                } else if !message.flags.iter().any(|f| f == flag) {
                    // Where the server lists it: flags go in Zulip's bit order.
                    let at = message
                        .flags
                        .iter()
                        .position(|f| flag_rank(f) > flag_rank(flag))
                        .unwrap_or(message.flags.len());
                    message.flags.insert(at, flag.to_owned());
                }
                self.projection.put_message(message);
            }
            self.changes.message(*id);
        }
        let changed = self.cache.on_changed(
            Some(&ids),
            Aspects { flags: true, ..Aspects::default() },
            &self.projection,
        );
        self.changes.narrows(changed);
        // The server changes flags only of messages the user has, giving a copy when needed.
        let changed = self.cache.on_received(&ids, &self.projection);
        self.changes.narrows(changed);
        if flag == "read" {
            self.changes.channels(self.topics.keys().copied().collect::<Vec<_>>());
            self.changes.conversations();
            for id in &ids {
                if let Some(message) = self.cache.messages.get(id)
                    && let Some(stream) = message.stream_id
                {
                    self.changes.topic(stream, &message.subject);
                }
            }
        }
    }

    fn follow_reaction(&mut self, event: &Value) {
        let Some(id) = event["message_id"].as_u64() else { return };
        if let Some(message) = self.cache.messages.get_mut(&id) {
            let reaction = ChatReaction {
                emoji_name: event["emoji_name"].as_str().unwrap_or_default().to_owned(),
                emoji_code: event["emoji_code"].as_str().unwrap_or_default().to_owned(),
                reaction_type: event["reaction_type"].as_str().unwrap_or_default().to_owned(),
                user_id: event["user_id"].as_u64().unwrap_or_default(),
            };
            // Zulip keys a reaction by user, code and type.
            let same = |r: &ChatReaction| {
                r.user_id == reaction.user_id
                    && r.emoji_code == reaction.emoji_code
                    && r.reaction_type == reaction.reaction_type
            };
            if event["op"] == "add" {
                if !message.reactions.iter().any(same) {
                    message.reactions.push(reaction);
                }
            } else {
                message.reactions.retain(|r| !same(r));
            }
            self.projection.put_message(message);
        }
        self.changes.message(id);
        let changed = self.cache.on_changed(
            Some(&[id]),
            Aspects { reactions: true, ..Aspects::default() },
            &self.projection,
        );
        self.changes.narrows(changed);
        // Reacting gives the user a copy of a message they never received.
        if event["op"] == "add" && event["user_id"].as_u64() == Some(self.user_id) {
            let changed = self.cache.on_received(&[id], &self.projection);
            self.changes.narrows(changed);
        }
    }

    /// A widget changed: the cached message gains the submessage (once, in id order, as Zulip's
    /// web app keeps `message.submessages`), so the widget's state folds it in.
    fn follow_submessage(&mut self, event: &Value) {
        let (Some(id), Some(submessage_id)) = (event["message_id"].as_u64(), event["submessage_id"].as_u64())
        else {
            return;
        };
        let Some(message) = self.cache.messages.get_mut(&id) else { return };
        if message.submessages.iter().any(|s| s.id == submessage_id) {
            return;
        }
        message.submessages.push(ChatSubmessage {
            id: submessage_id,
            message_id: id,
            sender_id: event["sender_id"].as_u64().unwrap_or_default(),
            msg_type: event["msg_type"].as_str().unwrap_or_default().to_owned(),
            content: event["content"].as_str().unwrap_or_default().to_owned(),
        });
        message.submessages.sort_by_key(|s| s.id);
        self.changes.message(id);
    }

    fn follow_typing(&mut self, event: &Value, now_ms: i64) {
        let Some(sender_id) = event["sender"]["user_id"].as_u64() else { return };
        let notice = TypingNotice {
            sender_id,
            stream_id: event["stream_id"].as_u64(),
            topic: event["topic"].as_str().map(str::to_owned),
            user_ids: event["recipients"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|r| r["user_id"].as_u64())
                .collect(),
        };
        self.typing.retain(|(n, _)| n != &notice);
        if event["op"] == "start" {
            let expiry = self
                .state
                .get("server_typing_started_expiry_period_milliseconds")
                .and_then(Value::as_i64)
                .unwrap_or(45_000);
            self.typing.push((notice, now_ms + expiry));
        }
        self.changes.typing();
    }

    /// Subscriptions or channels changed: the model follows, windows of narrows whose changes
    /// no longer all arrive (a channel the user left) are forgotten, and narrows that depend on
    /// muting are fetched again.
    fn follow_channels(&mut self) {
        self.projection.sync_channels(&self.state);
        self.organization = None;
        let not_live: Vec<String> = self
            .cache
            .windows
            .iter()
            .filter(|(_, w)| !self.narrow_is_live(&w.terms))
            .map(|(k, _)| k.clone())
            .collect();
        self.cache.forget_windows(&not_live);
        self.changes.narrows(not_live);
        let changed =
            self.cache.on_changed(None, Aspects { muting: true, ..Aspects::default() }, &self.projection);
        self.changes.narrows(changed);
        let all: Vec<u64> = self.projection_channel_ids();
        self.changes.channels(all);
    }

    fn projection_channel_ids(&self) -> Vec<u64> {
        ["subscriptions", "unsubscribed", "never_subscribed"]
            .iter()
            .flat_map(|key| self.state.get(*key).and_then(Value::as_array).into_iter().flatten())
            .filter_map(|c| c["stream_id"].as_u64())
            .collect()
    }

    /// A channel's name, from any list of the state.
    pub(super) fn channel_name(&self, id: u64) -> Option<String> {
        ["subscriptions", "unsubscribed", "never_subscribed", "streams"]
            .iter()
            .flat_map(|key| self.state.get(*key).and_then(Value::as_array).into_iter().flatten())
            .find(|c| c["stream_id"] == id)
            .and_then(|c| c["name"].as_str().map(str::to_owned))
    }

    pub(super) fn note_topic(&mut self, stream: u64, topic: &str, id: u64) {
        let entry = self
            .topics
            .entry(stream)
            .or_default()
            .entry(topic.to_lowercase())
            .or_insert((topic.to_owned(), 0));
        if id >= entry.1 {
            *entry = (topic.to_owned(), id);
        }
    }

    /// A whole topic moved away: it is no longer listed where it was.
    fn forget_topic(&mut self, stream: u64, topic: &str, to_stream: u64, to_topic: &str, _ids: &[u64]) {
        if stream == to_stream && topic.to_lowercase() == to_topic.to_lowercase() {
            return;
        }
        if let Some(topics) = self.topics.get_mut(&stream) {
            topics.remove(&topic.to_lowercase());
        }
    }
}

/// A flag's place in a message's `flags`, as the server lists them: Zulip's bit order, the
/// legacy `wildcard_mentioned` (and any flag this version does not know) last.
fn flag_rank(name: &str) -> u32 {
    MessageFlags::from_name(name).map_or(u32::MAX, |flag| flag.0)
}
