//! Operations on existing messages waiting for the server: each was applied locally when the
//! user asked for it (as the event the server will send), and remembers how to undo that if
//! the server refuses. They are sent one at a time, in the order they were made, so that
//! "star, unstar" reaches the server as the user meant it; an unanswered one is sent again.
//!
//! Reads are batched: messages marked read before the queue is next sent join the one
//! `POST /messages/flags` request still waiting.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::request::{HttpRequest, Method};
use super::types::{ChatMessage, Operation, QueuedOperation};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PendingOps {
    entries: Vec<PendingOperation>,
    /// Numbers operations, uniquely within the engine's life and its snapshots.
    counter: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PendingOperation {
    pub id: u64,
    pub operation: Operation,
    /// The event the server will send once it applies the operation, followed locally at once
    /// and again over messages fetched (or a state registered) while the operation waits, since
    /// the server's copies do not show it yet. `None` when nothing can be shown before the
    /// server answers (an emoji the engine does not know).
    pub effect: Option<Value>,
    pub undo: Undo,
    /// Whether the request went out: a read batch stops growing then.
    pub sent: bool,
}

/// How to take an operation's local effect back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Undo {
    /// The effect changed nothing (the message was already starred, say).
    Nothing,
    /// An event that puts back what the effect changed: the opposite flag or reaction change.
    /// A read's carries Zulip's `message_details`, which file messages back as unread.
    Event(Value),
    Edit(Box<EditUndo>),
    Delete(Box<DeleteUndo>),
}

/// What an edit replaced.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EditUndo {
    pub message_id: u64,
    /// The content before and the HTML the edit showed, if it changed the content.
    pub content: Option<ContentBefore>,
    /// The topic move, if it moved messages.
    pub topic: Option<TopicBefore>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ContentBefore {
    pub html: String,
    pub is_me_message: bool,
    pub last_edit_timestamp: Option<i64>,
    /// What the edit showed: undone only while the message still shows it.
    pub shown: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TopicBefore {
    pub stream_id: u64,
    pub old_topic: String,
    pub new_topic: String,
    pub propagate_mode: String,
    /// Each moved message with its `last_moved_timestamp` before the move.
    pub moved: Vec<(u64, Option<i64>)>,
}

/// What a deletion took away: the message, the narrows that showed it, and its unread entry.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DeleteUndo {
    pub message_id: u64,
    pub message: Option<ChatMessage>,
    pub narrows: Vec<String>,
    /// Zulip's `message_details` entry, if it was unread.
    pub unread: Option<Value>,
}

impl PendingOps {
    /// Queues an operation already applied locally; returns its id.
    pub fn push(&mut self, operation: Operation, effect: Option<Value>, undo: Undo) -> u64 {
        self.counter += 1;
        self.entries.push(PendingOperation { id: self.counter, operation, effect, undo, sent: false });
        self.counter
    }

    /// Adds read marks to the batch not yet sent, or starts one. `effect` and `undo` are the
    /// flag events for these ids alone; they are merged into the batch's. Returns the batch's id.
    pub fn mark_read(&mut self, ids: &[u64], effect: Value, undo: Value) -> u64 {
        let batch =
            self.entries.iter_mut().find(|e| !e.sent && matches!(e.operation, Operation::MarkRead { .. }));
        let Some(batch) = batch else {
            return self.push(
                Operation::MarkRead { message_ids: ids.to_vec() },
                Some(effect),
                Undo::Event(undo),
            );
        };
        if let Operation::MarkRead { message_ids } = &mut batch.operation {
            message_ids.extend(ids.iter().filter(|id| !message_ids.contains(id)).collect::<Vec<_>>());
        }
        if let Some(batch_effect) = &mut batch.effect {
            merge_ids(batch_effect, "messages", &effect);
        }
        match &mut batch.undo {
            Undo::Event(batch_undo) => {
                merge_ids(batch_undo, "messages", &undo);
                if let (Some(Value::Object(into)), Some(Value::Object(from))) =
                    (batch_undo.get_mut("message_details"), undo.get("message_details"))
                {
                    into.extend(from.clone());
                }
            }
            other => *other = Undo::Event(undo),
        }
        batch.id
    }

    /// The operation to send now, with its request: the oldest one, until it is answered.
    pub fn next_request(&mut self) -> Option<(u64, HttpRequest)> {
        let entry = self.entries.first_mut()?;
        entry.sent = true;
        Some((entry.id, request(&entry.operation)))
    }

    /// Takes an answered operation out of the queue.
    pub fn take(&mut self, id: u64) -> Option<PendingOperation> {
        let at = self.entries.iter().position(|e| e.id == id)?;
        Some(self.entries.remove(at))
    }

    pub fn entries(&self) -> impl Iterator<Item = &PendingOperation> {
        self.entries.iter()
    }

    pub fn queued(&self) -> Vec<QueuedOperation> {
        self.entries
            .iter()
            .map(|e| QueuedOperation { id: e.id, operation: e.operation.clone(), sent: e.sent })
            .collect()
    }

    /// The server deleted these messages: nothing of theirs is ever to be put back (a refused
    /// read must not make a deleted message unread again, nor a refused deletion bring it back).
    pub fn forget_messages(&mut self, ids: &[u64]) {
        for entry in &mut self.entries {
            match &mut entry.undo {
                Undo::Event(event) => {
                    if let Some(Value::Array(messages)) = event.get_mut("messages") {
                        messages.retain(|m| !m.as_u64().is_some_and(|m| ids.contains(&m)));
                    }
                    if let Some(Value::Object(details)) = event.get_mut("message_details") {
                        details.retain(|key, _| !key.parse::<u64>().is_ok_and(|m| ids.contains(&m)));
                    }
                    if event.get("message_id").and_then(Value::as_u64).is_some_and(|m| ids.contains(&m)) {
                        entry.undo = Undo::Nothing;
                    }
                }
                Undo::Delete(delete) if ids.contains(&delete.message_id) => entry.undo = Undo::Nothing,
                Undo::Edit(edit) if ids.contains(&edit.message_id) => entry.undo = Undo::Nothing,
                _ => {}
            }
        }
    }
}

/// The message ids an event names (`message_id`, `message_ids`, `messages`).
pub fn event_message_ids(event: &Value) -> BTreeSet<u64> {
    let lists =
        ["message_ids", "messages"].into_iter().flat_map(|key| event[key].as_array().into_iter().flatten());
    lists.filter_map(Value::as_u64).chain(event["message_id"].as_u64()).collect()
}

fn merge_ids(into: &mut Value, key: &str, from: &Value) {
    let fresh: Vec<Value> = from[key].as_array().cloned().unwrap_or_default();
    if let Some(Value::Array(list)) = into.get_mut(key) {
        for id in fresh {
            if !list.contains(&id) {
                list.push(id);
            }
        }
    }
}

/// The Zulip request that carries an operation.
fn request(operation: &Operation) -> HttpRequest {
    let flags = |op: &str, flag: &str, ids: &[u64]| {
        HttpRequest::new(Method::Post, "/api/v1/messages/flags")
            .json_param("messages", &serde_json::json!(ids))
            .param("op", op)
            .param("flag", flag)
    };
    let reaction = |method: Method, id: u64, name: &str, code: &str, kind: &str| {
        let request =
            HttpRequest::new(method, format!("/api/v1/messages/{id}/reactions")).param("emoji_name", name);
        // Without a code the server looks the name up (an emoji the engine did not know).
        if code.is_empty() { request } else { request.param("emoji_code", code).param("reaction_type", kind) }
    };
    match operation {
        Operation::MarkRead { message_ids } => flags("add", "read", message_ids),
        Operation::SetStarred { message_id, starred } => {
            flags(if *starred { "add" } else { "remove" }, "starred", &[*message_id])
        }
        Operation::AddReaction { message_id, emoji_name, emoji_code, reaction_type } => {
            reaction(Method::Post, *message_id, emoji_name, emoji_code, reaction_type)
        }
        Operation::RemoveReaction { message_id, emoji_name, emoji_code, reaction_type } => {
            reaction(Method::Delete, *message_id, emoji_name, emoji_code, reaction_type)
        }
        Operation::Edit { message_id, content, topic, propagate_mode } => {
            let mut request = HttpRequest::new(Method::Patch, format!("/api/v1/messages/{message_id}"));
            if let Some(content) = content {
                request = request.param("content", content.clone());
            }
            if let Some(topic) = topic {
                request = request.param("topic", topic.clone());
            }
            if let Some(mode) = propagate_mode {
                request = request.param("propagate_mode", mode.as_str());
            }
            request
        }
        Operation::Delete { message_id } => {
            HttpRequest::new(Method::Delete, format!("/api/v1/messages/{message_id}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn read_event(op: &str, ids: &[u64]) -> Value {
        json!({"type": "update_message_flags", "op": op, "flag": "read", "messages": ids, "message_details": {}})
    }

    #[test]
    fn reads_join_the_batch_until_it_is_sent() {
        let mut ops = PendingOps::default();
        let first = ops.mark_read(&[1, 2], read_event("add", &[1, 2]), read_event("remove", &[1, 2]));
        let star = ops.push(Operation::SetStarred { message_id: 9, starred: true }, None, Undo::Nothing);
        assert_eq!(ops.mark_read(&[3], read_event("add", &[3]), read_event("remove", &[3])), first);
        let (id, request) = ops.next_request().expect("a request");
        assert_eq!(id, first);
        assert_eq!(request.path, "/api/v1/messages/flags");
        assert!(request.params.contains(&("messages".into(), "[1,2,3]".into())));
        // Sent: the next read starts a new batch, after the star.
        let second = ops.mark_read(&[4], read_event("add", &[4]), read_event("remove", &[4]));
        assert!(second > star);
        assert!(
            ops.take(first)
                .is_some_and(|e| matches!(e.undo, Undo::Event(u) if u["messages"] == json!([1, 2, 3])))
        );
        assert_eq!(ops.next_request().map(|(id, _)| id), Some(star));
    }

    #[test]
    fn a_deleted_message_is_never_put_back() {
        let mut ops = PendingOps::default();
        let mut undo = read_event("remove", &[1, 2]);
        undo["message_details"] =
            json!({"1": {"type": "private", "user_ids": [5]}, "2": {"type": "private", "user_ids": [5]}});
        ops.mark_read(&[1, 2], read_event("add", &[1, 2]), undo);
        ops.forget_messages(&[2]);
        let entry = ops.entries().next().expect("the batch");
        let Undo::Event(undo) = &entry.undo else { panic!("an undo event") };
        assert_eq!(undo["messages"], json!([1]));
        assert!(undo["message_details"].get("2").is_none());
    }
}
