//! Reads, stars, reactions, edits and deletions, shown before the server answers.
//!
//! Each operation is applied locally as the very event the server sends when it applies it
//! (followed like any event, so the state's unread counts, the cached messages, the narrows and
//! the topics all move together), then queued (see [`super::pending_ops`]). When the server's
//! own event arrives it finds the work done: following an event is idempotent. When the server
//! refuses, the operation's undo puts back exactly what it changed, where nothing newer has
//! changed it since, and the refusal is reported with the server's message.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use crate::api::emoji::{REALM_EMOJI, UNICODE_EMOJI, ZULIP_EMOJI, ZULIP_EXTRA_EMOJI};
use crate::markdown::unicode_emoji_code;

use super::Engine;
use super::pending_ops::{ContentBefore, DeleteUndo, EditUndo, TopicBefore, Undo, event_message_ids};
use super::request::{HttpRequest, Reply};
use super::types::{
    ChatMessage, ConnectionState, MessageEdit, MessageType, Operation, PropagateMode, QueuedOperation,
    RefusedOperation, ServerError,
};
use super::unread_details::{unread_detail, unread_details, unread_ids};

/// What became of an operation the host sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OperationAnswer {
    /// The server applied it (its event confirms what is shown); send the next one.
    Accepted,
    /// The server refused it: its effect is undone. Send the next one.
    Refused(ServerError),
    /// No answer: it stays queued and is sent again once connected.
    Later,
}

const READ: &str = "read";
const STARRED: &str = "starred";

fn has_flag(message: &ChatMessage, flag: &str) -> bool {
    message.flags.iter().any(|f| f == flag)
}

fn flags_event(op: &str, flag: &str, ids: &[u64]) -> Value {
    json!({"type": "update_message_flags", "op": op, "operation": op, "flag": flag, "messages": ids, "all": false})
}

fn opposite(op: &str) -> &'static str {
    if op == "add" { "remove" } else { "add" }
}

/// An emoji reaction's identity, as Zulip keys it (with the name it shows).
struct Emoji {
    name: String,
    code: String,
    kind: String,
}

impl Engine {
    /// Marks messages read (as the user views them). Reads queued before the queue is next
    /// sent go out as one request. Messages already read are left out; returns `None` when
    /// none is left, else the id of the batch they joined.
    pub fn mark_read(&mut self, message_ids: &[u64]) -> Option<u64> {
        let listed = unread_ids(&self.state);
        let mut ids: Vec<u64> = Vec::new();
        for id in message_ids {
            let unread_here = self.cache.messages.get(id).is_some_and(|m| !has_flag(m, READ));
            if (listed.contains(id) || unread_here) && !ids.contains(id) {
                ids.push(*id);
            }
        }
        if ids.is_empty() {
            return None;
        }
        let effect = flags_event("add", READ, &ids);
        let mut undo = flags_event("remove", READ, &ids);
        undo["message_details"] = Value::Object(unread_details(&self.state, &ids, self.user_id));
        self.follow(&effect, 0);
        let id = self.operations.mark_read(&ids, effect, undo);
        self.changes.operations();
        Some(id)
    }

    /// Stars or unstars a message. Returns the operation's id.
    pub fn set_starred(&mut self, message_id: u64, starred: bool) -> u64 {
        let was = match self.cache.messages.get(&message_id) {
            Some(message) => has_flag(message, STARRED),
            None => self
                .state
                .get("starred_messages")
                .and_then(Value::as_array)
                .is_some_and(|ids| ids.iter().any(|id| id.as_u64() == Some(message_id))),
        };
        let op = if starred { "add" } else { "remove" };
        let undo = if was == starred {
            Undo::Nothing
        } else {
            Undo::Event(flags_event(opposite(op), STARRED, &[message_id]))
        };
        let effect = flags_event(op, STARRED, &[message_id]);
        self.queue_operation(Operation::SetStarred { message_id, starred }, Some(effect), undo)
    }

    /// Reacts with an emoji, by name: the organization's custom emoji first, then Zulip's, then
    /// Unicode, as the server looks names up. An unknown name is sent as it is, shown only once
    /// the server's event comes (or refused with its message). Returns the operation's id.
    pub fn add_reaction(&mut self, message_id: u64, emoji_name: &str) -> u64 {
        let emoji = self.emoji_by_name(emoji_name);
        self.react(true, message_id, emoji_name, emoji)
    }

    /// Takes back the user's reaction with an emoji, by name. Returns the operation's id.
    pub fn remove_reaction(&mut self, message_id: u64, emoji_name: &str) -> u64 {
        // The reaction as the message shows it knows its code best; else the name is looked up.
        let shown = self.cache.messages.get(&message_id).and_then(|m| {
            m.reactions.iter().find(|r| r.user_id == self.user_id && r.emoji_name == emoji_name).map(|r| {
                Emoji {
                    name: r.emoji_name.clone(),
                    code: r.emoji_code.clone(),
                    kind: r.reaction_type.clone(),
                }
            })
        });
        let emoji = shown.or_else(|| self.emoji_by_name(emoji_name));
        self.react(false, message_id, emoji_name, emoji)
    }

    /// Queues adding or removing a reaction; shown at once when the emoji is known, and undone
    /// only if it changed what the message showed.
    fn react(&mut self, adding: bool, message_id: u64, emoji_name: &str, emoji: Option<Emoji>) -> u64 {
        let emoji_code = emoji.as_ref().map(|e| e.code.clone()).unwrap_or_default();
        let reaction_type = emoji.as_ref().map(|e| e.kind.clone()).unwrap_or_default();
        let emoji_name = emoji_name.to_owned();
        let operation = if adding {
            Operation::AddReaction { message_id, emoji_name, emoji_code, reaction_type }
        } else {
            Operation::RemoveReaction { message_id, emoji_name, emoji_code, reaction_type }
        };
        let Some(emoji) = emoji else { return self.queue_operation(operation, None, Undo::Nothing) };
        let (op, inverse) = if adding { ("add", "remove") } else { ("remove", "add") };
        let changes_what_shows = self.reacted(message_id, &emoji) != adding;
        let effect = self.reaction_event(op, message_id, &emoji);
        let undo = if changes_what_shows {
            Undo::Event(self.reaction_event(inverse, message_id, &emoji))
        } else {
            Undo::Nothing
        };
        self.queue_operation(operation, Some(effect), undo)
    }

    /// Edits a message's content (Markdown, shown rendered as the server renders it), its
    /// topic (moving the messages `propagate_mode` names among those cached or unread), or
    /// both. A message not cached is edited on the server only. Returns the operation's id.
    pub fn edit_message(&mut self, message_id: u64, edit: MessageEdit, now_ms: i64) -> u64 {
        let MessageEdit { content, topic, propagate_mode } = edit;
        let operation =
            Operation::Edit { message_id, content: content.clone(), topic: topic.clone(), propagate_mode };
        let Some(message) = self.cache.messages.get(&message_id).cloned() else {
            return self.queue_operation(operation, None, Undo::Nothing);
        };
        let mut effect = json!({
            "type": "update_message",
            "user_id": self.user_id,
            "message_id": message_id,
            "message_ids": [message_id],
            "edit_timestamp": now_ms / 1000,
            "flags": message.flags,
        });
        let mut undo = EditUndo { message_id, content: None, topic: None };
        if let Some(content) = &content {
            let rendering = self.render_preview(content);
            effect["content"] = json!(content);
            effect["rendered_content"] = json!(rendering.html);
            effect["is_me_message"] = json!(rendering.is_me_message);
            undo.content = Some(ContentBefore {
                html: message.content.clone(),
                is_me_message: message.is_me_message,
                last_edit_timestamp: message.last_edit_timestamp,
                shown: rendering.html,
            });
        }
        let new_topic = topic.filter(|t| message.kind == MessageType::Stream && *t != message.subject);
        if let (Some(new_topic), Some(stream_id)) = (new_topic, message.stream_id) {
            let mode = propagate_mode.unwrap_or(PropagateMode::ChangeOne);
            let moved = self.messages_to_move(stream_id, &message.subject, message_id, mode);
            effect["message_ids"] = json!(moved.iter().map(|(id, _)| *id).collect::<Vec<_>>());
            effect["stream_id"] = json!(stream_id);
            effect["orig_subject"] = json!(message.subject);
            effect["subject"] = json!(new_topic);
            effect["propagate_mode"] = json!(mode.as_str());
            undo.topic = Some(TopicBefore {
                stream_id,
                old_topic: message.subject.clone(),
                new_topic,
                propagate_mode: mode.as_str().to_owned(),
                moved,
            });
        }
        if undo.content.is_none() && undo.topic.is_none() {
            return self.queue_operation(operation, None, Undo::Nothing);
        }
        self.queue_operation(operation, Some(effect), Undo::Edit(Box::new(undo)))
    }

    /// Deletes a message: it leaves every narrow at once. Returns the operation's id.
    pub fn delete_message(&mut self, message_id: u64) -> u64 {
        let message = self.cache.messages.get(&message_id).cloned();
        let mut effect = json!({"type": "delete_message", "message_ids": [message_id]});
        match message.as_ref().map(|m| (m.kind, m.stream_id, &m.subject)) {
            Some((MessageType::Stream, Some(stream_id), topic)) => {
                effect["message_type"] = json!("stream");
                effect["stream_id"] = json!(stream_id);
                effect["topic"] = json!(topic);
            }
            _ => effect["message_type"] = json!("private"),
        }
        let undo = DeleteUndo {
            message_id,
            narrows: self.cache.windows_holding(message_id),
            unread: unread_detail(&self.state, message_id, self.user_id),
            message,
        };
        self.queue_operation(Operation::Delete { message_id }, Some(effect), Undo::Delete(Box::new(undo)))
    }

    /// The next operation to send, if connected. Operations go one at a time, in order: this
    /// answers the same one until [`Engine::handle_operation_reply`] has its answer.
    pub fn next_operation(&mut self) -> Option<(u64, HttpRequest)> {
        if self.connection != ConnectionState::Connected {
            return None;
        }
        self.operations.next_request()
    }

    /// What the server said to an operation. A refusal undoes its effect (operations still
    /// queued on the same messages are shown again over what it restored) and is reported in
    /// `Changes.refused_operations`.
    pub fn handle_operation_reply(&mut self, id: u64, reply: Reply) -> OperationAnswer {
        match reply {
            Reply::Success(_) => {
                if self.operations.take(id).is_some() {
                    self.changes.operations();
                }
                OperationAnswer::Accepted
            }
            Reply::Refused(error) => {
                if let Some(entry) = self.operations.take(id) {
                    let touched = entry.effect.as_ref().map(event_message_ids).unwrap_or_default();
                    self.undo(entry.undo);
                    self.reapply_operations(Some(&touched));
                    self.changes.refused(RefusedOperation {
                        id,
                        operation: entry.operation,
                        error: error.clone(),
                    });
                }
                OperationAnswer::Refused(error)
            }
            Reply::Unreachable(_) => OperationAnswer::Later,
        }
    }

    /// Operations waiting for the server (or for the connection).
    pub fn pending_operations(&self) -> Vec<QueuedOperation> {
        self.operations.queued()
    }

    /// Shows queued operations again over copies from the server that do not show them yet:
    /// messages just fetched (`ids`), or everything after a register (`None`).
    pub(super) fn reapply_operations(&mut self, ids: Option<&BTreeSet<u64>>) -> BTreeSet<u64> {
        let effects: Vec<Value> = self
            .operations
            .entries()
            .filter_map(|entry| entry.effect.clone())
            .filter(|effect| ids.is_none_or(|ids| !event_message_ids(effect).is_disjoint(ids)))
            .collect();
        let mut touched = BTreeSet::new();
        for effect in effects {
            touched.extend(event_message_ids(&effect));
            self.follow(&effect, 0);
        }
        touched
    }

    /// Messages whose deletion waits for the server's answer.
    pub(super) fn messages_being_deleted(&self) -> BTreeSet<u64> {
        let deletions = self.operations.entries().filter_map(|entry| match entry.operation {
            Operation::Delete { message_id } => Some(message_id),
            _ => None,
        });
        deletions.collect()
    }

    /// Notes what a server event means for queued operations, before it is followed: a
    /// deleted message is never put back by an undo.
    pub(super) fn note_server_event(&mut self, event: &Value) {
        if event["type"] == "delete_message" {
            let ids: Vec<u64> = event_message_ids(event).into_iter().collect();
            self.operations.forget_messages(&ids);
        }
    }

    fn queue_operation(&mut self, operation: Operation, effect: Option<Value>, undo: Undo) -> u64 {
        if let Some(effect) = &effect {
            self.follow(effect, 0);
        }
        let id = self.operations.push(operation, effect, undo);
        self.changes.operations();
        id
    }

    fn undo(&mut self, undo: Undo) {
        match undo {
            Undo::Nothing => {}
            Undo::Event(mut event) => {
                // A message listed as unread again by now (marked unread elsewhere) is not
                // filed twice.
                if let Some(Value::Object(details)) = event.get_mut("message_details") {
                    let listed = unread_ids(&self.state);
                    details.retain(|key, _| !key.parse::<u64>().is_ok_and(|id| listed.contains(&id)));
                }
                self.follow(&event, 0);
            }
            Undo::Edit(edit) => self.undo_edit(*edit),
            Undo::Delete(delete) => self.undo_delete(*delete),
        }
    }

    /// Puts back an edit's content and topic, on the messages that still show what the edit
    /// made of them (a newer edit's event stands).
    fn undo_edit(&mut self, edit: EditUndo) {
        let id = edit.message_id;
        if let Some(before) = edit.content
            && self.cache.messages.get(&id).is_some_and(|m| m.content == before.shown)
        {
            let event = json!({
                "type": "update_message",
                "user_id": self.user_id,
                "message_id": id,
                "message_ids": [id],
                "rendered_content": before.html,
                "is_me_message": before.is_me_message,
                "edit_timestamp": before.last_edit_timestamp,
                "flags": self.flags_for_event(id),
            });
            self.follow(&event, 0);
        }
        let Some(topic) = edit.topic else { return };
        let back: Vec<(u64, Option<i64>)> = topic
            .moved
            .into_iter()
            .filter(|(moved, _)| {
                self.cache
                    .messages
                    .get(moved)
                    .is_none_or(|m| m.stream_id == Some(topic.stream_id) && m.subject == topic.new_topic)
            })
            .collect();
        let ids: Vec<u64> = back.iter().map(|(moved, _)| *moved).collect();
        // The event's own message is one going back (its flags decide its mention).
        let Some(target) = ids.iter().copied().find(|m| *m == id).or_else(|| ids.first().copied()) else {
            return;
        };
        let event = json!({
            "type": "update_message",
            "user_id": self.user_id,
            "message_id": target,
            "message_ids": ids,
            "stream_id": topic.stream_id,
            "orig_subject": topic.new_topic,
            "subject": topic.old_topic,
            "propagate_mode": topic.propagate_mode,
            "flags": self.flags_for_event(target),
        });
        self.follow(&event, 0);
        for (moved, timestamp) in back {
            if let Some(message) = self.cache.messages.get_mut(&moved) {
                message.last_moved_timestamp = timestamp;
                self.projection.put_message(message);
            }
        }
    }

    /// Puts a deleted message back into the narrows that showed it, and back among the
    /// unread if it was.
    fn undo_delete(&mut self, delete: DeleteUndo) {
        let id = delete.message_id;
        if let Some(message) = delete.message
            && !self.cache.messages.contains_key(&id)
        {
            if let (MessageType::Stream, Some(stream)) = (message.kind, message.stream_id) {
                self.note_topic(stream, &message.subject, id);
                self.changes.topic(stream, &message.subject);
            } else {
                self.changes.conversations();
            }
            let restored = self.cache.restore(message, &delete.narrows);
            if let Some(message) = self.cache.messages.get(&id) {
                self.projection.put_message(message);
            }
            self.changes.narrows(restored);
            self.changes.message(id);
        }
        if let Some(detail) = delete.unread
            && !unread_ids(&self.state).contains(&id)
        {
            if let (Some(stream), Some(topic)) = (detail["stream_id"].as_u64(), detail["topic"].as_str()) {
                self.changes.topic(stream, topic);
            } else {
                self.changes.conversations();
            }
            let mut event = flags_event("remove", READ, &[id]);
            event["message_details"] = json!({ id.to_string(): detail });
            self.apply_to_state(&event);
        }
    }

    /// The flags an edit event carries for a message (they decide whether it stays a mention
    /// among the unread): the cached copy's, else what the unread lists say.
    fn flags_for_event(&self, id: u64) -> Vec<String> {
        if let Some(message) = self.cache.messages.get(&id) {
            return message.flags.clone();
        }
        let mentioned = unread_detail(&self.state, id, self.user_id).is_some_and(|d| d["mentioned"] == true);
        if mentioned { vec!["mentioned".to_owned()] } else { Vec::new() }
    }

    /// The messages a topic edit moves, as far as the engine knows them (cached, or listed as
    /// unread), each with its `last_moved_timestamp` before.
    fn messages_to_move(
        &self,
        stream_id: u64,
        topic: &str,
        target: u64,
        mode: PropagateMode,
    ) -> Vec<(u64, Option<i64>)> {
        let lower = topic.to_lowercase();
        let wanted = |id: u64| match mode {
            PropagateMode::ChangeOne => id == target,
            PropagateMode::ChangeLater => id >= target,
            PropagateMode::ChangeAll => true,
        };
        let mut moved: Vec<(u64, Option<i64>)> = self
            .cache
            .messages
            .values()
            .filter(|m| m.stream_id == Some(stream_id) && m.subject.to_lowercase() == lower && wanted(m.id))
            .map(|m| (m.id, m.last_moved_timestamp))
            .collect();
        let unread_in_topic = self
            .state
            .get("unread_msgs")
            .and_then(|u| u["streams"].as_array())
            .into_iter()
            .flatten()
            .filter(|e| {
                e["stream_id"] == stream_id && e["topic"].as_str().is_some_and(|t| t.to_lowercase() == lower)
            })
            .flat_map(|e| e["unread_message_ids"].as_array().into_iter().flatten())
            .filter_map(Value::as_u64);
        for id in unread_in_topic {
            if wanted(id) && !moved.iter().any(|(m, _)| *m == id) {
                moved.push((id, None));
            }
        }
        moved.sort_unstable();
        moved
    }

    /// Whether the user has reacted to a message with an emoji (Zulip keys reactions by user,
    /// code and type).
    fn reacted(&self, message_id: u64, emoji: &Emoji) -> bool {
        self.cache.messages.get(&message_id).is_some_and(|m| {
            m.reactions.iter().any(|r| {
                r.user_id == self.user_id && r.emoji_code == emoji.code && r.reaction_type == emoji.kind
            })
        })
    }

    fn reaction_event(&self, op: &str, message_id: u64, emoji: &Emoji) -> Value {
        json!({
            "type": "reaction",
            "op": op,
            "message_id": message_id,
            "user_id": self.user_id,
            "emoji_name": emoji.name,
            "emoji_code": emoji.code,
            "reaction_type": emoji.kind,
        })
    }

    /// An emoji's code and type by name, as the server's `emoji_by_name` finds it.
    fn emoji_by_name(&mut self, name: &str) -> Option<Emoji> {
        let custom = self.organization().custom_emoji.iter().find(|e| e.name == name).map(|e| e.id);
        let (code, kind) = if let Some(id) = custom {
            (id.to_string(), REALM_EMOJI)
        } else if name == ZULIP_EMOJI {
            (ZULIP_EMOJI.to_owned(), ZULIP_EXTRA_EMOJI)
        } else {
            (unicode_emoji_code(name)?.to_owned(), UNICODE_EMOJI)
        };
        Some(Emoji { name: name.to_owned(), code, kind: kind.to_owned() })
    }
}
