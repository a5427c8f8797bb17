//! Repairs: the values of the register state that Zulip's own `apply_event` reads again from
//! its database instead of working them out from the event (`zerver/lib/events.py`, for
//! `delete_message`: `max_message_id` becomes the newest message the user still has, and
//! `recent_private_conversations` is queried anew). A client cannot know from the event which
//! message is now the newest, so `apply_event` keeps the deleted one
//! (`events::state_sync::messages`), and the engine asks the server the same question with
//! `GET /messages`: the one message before the deleted one (anchored there, so that messages
//! newer than the events followed so far, which their own events will bring, do not count):
//!
//! - `max_message_id`: the narrow `[]` (every message the user has);
//! - a conversation: `dm` with its others (the user alone for their conversation with
//!   themselves), which matches that conversation exactly, as register's grouping does.
//!
//! Only deletions of the values the state shows need asking: a deleted message that was not
//! the newest leaves the newest as it was. Events followed while a question is out count too:
//! a newer message makes the repair needless, an older one the user got a copy of raises the
//! answer, and a deletion of the message the answer names makes it asked again.
//!
//! Register lists only the conversations of the user's newest 1000 direct messages; a deletion
//! that would bring an older conversation back into that window is not noticed (neither the
//! event nor the state tells of it).

use serde_json::{Map, Value, json};

use crate::events::apply_server_event;
use crate::events::server_event::ServerEvent;

use super::repair_queue::{Repair, RepairId, RepairTarget};
use super::request::{HttpRequest, Reply};
use super::types::{Anchor, ConnectionState, NarrowTerm};
use super::{Engine, Sending};

impl Engine {
    /// The next repair to ask the server, if connected. Each is handed out once until
    /// [`Engine::handle_repair`] has its answer.
    pub fn next_repair(&mut self) -> Option<(RepairId, HttpRequest)> {
        if self.connection != ConnectionState::Connected {
            return None;
        }
        loop {
            let (id, target, stale) = {
                let repair = self.repairs.ask_next()?;
                (repair.id, repair.target.clone(), repair.stale)
            };
            match self.repair_request(&target, stale) {
                Some(request) => return Some((id, request)),
                // A question the engine cannot put is dropped rather than asked forever.
                None => drop(self.repairs.take_asked(id)),
            }
        }
    }

    /// The server's answer to a repair: the state takes the value it gives. Unreachable: the
    /// repair waits to be asked again. Refused: it is dropped, as asking again would be
    /// refused again.
    pub fn handle_repair(&mut self, id: RepairId, reply: Reply) -> Sending {
        match reply {
            Reply::Success(fields) => {
                // None when a newer message made the repair needless meanwhile.
                if let Some(repair) = self.repairs.take_asked(id) {
                    self.apply_repair(repair, &fields);
                }
                Sending::Next
            }
            Reply::Refused(_) => {
                self.repairs.take_asked(id);
                Sending::Next
            }
            Reply::Unreachable(_) => {
                self.repairs.unask(id);
                Sending::Later
            }
        }
    }

    /// Notes what a server event, just followed, means for repairs: the ones it settles, what
    /// it tells the ones being asked, and the ones a deletion calls for.
    pub(super) fn watch_for_repairs(&mut self, event: &Value) {
        let deleting = event["type"] == "delete_message";
        if self.repairs.is_empty() && !deleting {
            return;
        }
        let event = ServerEvent::parse(event.clone());
        let deleted = match &event {
            ServerEvent::DeleteMessage(delete) => delete.ids(),
            _ => Vec::new(),
        };
        let state = &self.state;
        self.repairs.retain(|repair| shown_value(state, &repair.target) == Some(repair.stale));
        let arrived = self.newest_arrival(&event);
        for repair in self.repairs.iter_mut() {
            if let Some(since) = &mut repair.asked {
                // A conversation only gains new messages, which settle its repair above.
                if repair.target == RepairTarget::NewestMessage {
                    since.arrived.extend(arrived);
                }
                since.deleted.extend(&deleted);
            }
        }
        if let Some(newest) = shown_value(&self.state, &RepairTarget::NewestMessage)
            && deleted.contains(&newest)
        {
            self.repairs.queue(RepairTarget::NewestMessage, newest);
        }
        let conversations = self.state.get("recent_private_conversations").and_then(Value::as_array);
        let stale: Vec<(Vec<u64>, u64)> = conversations
            .into_iter()
            .flatten()
            .filter_map(|c| Some((user_ids(c), c["max_message_id"].as_u64()?)))
            .filter(|(_, newest)| deleted.contains(newest))
            .collect();
        for (user_ids, newest) in stale {
            self.repairs.queue(RepairTarget::Conversation { user_ids }, newest);
        }
    }

    /// The id an event raises `max_message_id` to, if any (a new message, or a copy of an
    /// older one the user reacted to or flagged), as `apply_event` decides: applied to a
    /// state holding nothing else. Only asked while a repair of it is out.
    fn newest_arrival(&self, event: &ServerEvent) -> Option<u64> {
        let asking =
            self.repairs.iter().any(|r| r.asked.is_some() && r.target == RepairTarget::NewestMessage);
        if !asking || event.is_other() {
            return None;
        }
        let mut probe = Map::new();
        probe.insert("max_message_id".into(), json!(-1));
        apply_server_event(&mut probe, event, self.user_id);
        probe.get("max_message_id").and_then(Value::as_u64)
    }

    /// `GET /messages` for the newest message of a repair's target older than the stale one.
    fn repair_request(&self, target: &RepairTarget, stale: u64) -> Option<HttpRequest> {
        let narrow = match target {
            RepairTarget::NewestMessage => Vec::new(),
            RepairTarget::Conversation { user_ids } => {
                let others = if user_ids.is_empty() { vec![self.user_id] } else { user_ids.clone() };
                vec![NarrowTerm { operator: "dm".into(), operand: json!(others), negated: false }]
            }
        };
        let query = self.messages_query(&narrow, Anchor::Id(stale), 1, 0).ok()?;
        let mut request = self.messages_request(&query);
        // Only the id is read: the server need not render anything.
        for (name, value) in &mut request.params {
            if name == "apply_markdown" {
                *value = "false".into();
            }
        }
        Some(request)
    }

    fn apply_repair(&mut self, repair: Repair, fields: &Map<String, Value>) {
        let answered = fields
            .get("messages")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|m| m["id"].as_u64())
            .filter(|id| *id < repair.stale)
            .max();
        let since = repair.asked.clone().unwrap_or_default();
        if answered.is_some_and(|id| since.deleted.contains(&id)) {
            // The server answered before a deletion the engine has followed since.
            self.repairs.requeue(repair);
            return;
        }
        let newest = answered.max(since.newest_arrived());
        match &repair.target {
            RepairTarget::NewestMessage => {
                self.state.insert("max_message_id".into(), json!(newest.map_or(-1, |id| id as i64)));
                self.changes.settings();
            }
            RepairTarget::Conversation { user_ids } => {
                set_conversation_newest(&mut self.state, user_ids, newest);
                self.changes.conversations();
            }
        }
    }
}

/// The value the state shows for a target: `max_message_id` (none when -1), or the
/// conversation's newest message (none when it is not listed).
fn shown_value(state: &Map<String, Value>, target: &RepairTarget) -> Option<u64> {
    match target {
        RepairTarget::NewestMessage => state.get("max_message_id").and_then(Value::as_u64),
        RepairTarget::Conversation { user_ids } => state
            .get("recent_private_conversations")
            .and_then(Value::as_array)?
            .iter()
            .find(|c| self::user_ids(c) == *user_ids)?["max_message_id"]
            .as_u64(),
    }
}

fn user_ids(conversation: &Value) -> Vec<u64> {
    conversation["user_ids"].as_array().into_iter().flatten().filter_map(Value::as_u64).collect()
}

/// Gives a conversation its newest message, keeping the list newest first as register does
/// (each message is in one conversation, so no two share a newest id), or drops it when it has
/// none left.
fn set_conversation_newest(state: &mut Map<String, Value>, others: &[u64], newest: Option<u64>) {
    let Some(conversations) = state.get_mut("recent_private_conversations").and_then(Value::as_array_mut)
    else {
        return;
    };
    conversations.retain(|c| user_ids(c) != others);
    if let Some(newest) = newest {
        let at = conversations
            .iter()
            .position(|c| c["max_message_id"].as_u64().unwrap_or_default() < newest)
            .unwrap_or(conversations.len());
        conversations.insert(at, json!({"user_ids": others, "max_message_id": newest}));
    }
}
