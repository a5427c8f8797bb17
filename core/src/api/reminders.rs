//! GET    /reminders                 get_reminders
//! POST   /reminders                 create_message_reminder
//! DELETE /reminders/{reminder_id}   delete_reminder
//!
//! A reminder is a direct message Notification Bot sends a user at the time they chose, quoting
//! and linking a message they can read. It is a scheduled message to themselves (same table, same
//! ids, same delivery), listed apart from the messages they scheduled.

use serde_json::{Value, json};

use crate::command::{Actor, Event, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::ids::{IdKind, MessageId, ScheduledMessageId, UserId};
use crate::links;
use crate::model::{DeliveryState, Message, MessageKind, ReminderOf, ScheduledMessage, ScheduledTarget};
use crate::params::Params;
use crate::store::{Change, IdAllocator, Store};

use super::messages::{MAX_MESSAGE_LENGTH, check_message, readable_message, truncate};
use super::scheduled_messages::not_in_future;

/// Zulip's `MAX_REMINDER_NOTE_LENGTH` setting, in code points (register's
/// `max_reminder_note_length`).
pub const MAX_REMINDER_NOTE_LENGTH: usize = 1000;

/// A reminder as clients see it (Zulip's `ScheduledMessage.to_reminder_dict`).
pub fn reminder_json(reminder: &ScheduledMessage) -> Value {
    let to = match &reminder.target {
        ScheduledTarget::Direct { to } => json!(to),
        ScheduledTarget::Stream { stream_id, .. } => json!([stream_id]),
    };
    json!({
        "reminder_id": reminder.id,
        "type": "private",
        "to": to,
        "content": reminder.content,
        "rendered_content": reminder.rendered_content,
        "scheduled_delivery_timestamp": reminder.deliver_at,
        "failed": reminder.is_failed(),
        "reminder_target_message_id": reminder.reminder.as_ref().map(|r| r.message_id),
    })
}

/// The user's undelivered reminders, soonest first.
pub fn reminders_json(store: &impl Store, user: UserId) -> ApiResult<Value> {
    let mut list: Vec<ScheduledMessage> =
        store.user_scheduled_messages(user)?.into_iter().filter(ScheduledMessage::is_reminder).collect();
    list.sort_by_key(|s| (s.deliver_at, s.id));
    Ok(list.iter().map(reminder_json).collect())
}

/// `GET /reminders`.
pub fn get_reminders(store: &impl Store, actor: &Actor) -> ApiResult<Outcome> {
    Ok(Outcome::default().reply("reminders", reminders_json(store, actor.user.id)?))
}

/// Zulip's `normalize_note_text`: trailing whitespace and leading newlines go; then at most
/// [`MAX_REMINDER_NOTE_LENGTH`] code points.
fn normalized_note(note: &str) -> ApiResult<String> {
    let note = note.trim_end().trim_start_matches('\n');
    if note.chars().count() > MAX_REMINDER_NOTE_LENGTH {
        return Err(ApiError::bad_request(format!(
            "Maximum reminder note length: {MAX_REMINDER_NOTE_LENGTH} characters"
        )));
    }
    Ok(note.to_owned())
}

/// A code fence longer than any in `text` (Zulip's `get_unused_fence`).
fn unused_fence(text: &str) -> String {
    let longest = text
        .lines()
        .filter_map(|line| {
            let indent = line.len() - line.trim_start_matches(' ').len();
            let run = line.trim_start_matches(' ').chars().take_while(|c| *c == '`').count();
            (indent <= 3 && run >= 3).then_some(run + 1)
        })
        .max()
        .unwrap_or(3);
    "`".repeat(longest.max(3))
}

/// What Notification Bot says in a reminder about `message` (Zulip's
/// `get_reminder_formatted_content`): which conversation, an optional note, and who said what
/// there, quoted and linked. The fence is chosen against the quoted text too, so that a message
/// holding a code block stays inside its quote.
pub(crate) fn reminder_content(
    store: &impl Store,
    actor: &Actor,
    message: &Message,
    note: Option<&str>,
) -> ApiResult<String> {
    let note = note.map(normalized_note).transpose()?.filter(|n| !n.is_empty());
    let sender = store.user(message.sender_id)?.ok_or_else(ApiError::invalid_message)?;
    let (mut content, fragment) = match &message.kind {
        MessageKind::Stream { stream_id, topic } => {
            let stream = store.stream(*stream_id)?.ok_or_else(ApiError::invalid_message)?;
            let link = links::message_link(stream.id, &stream.name, topic, message.id);
            let said = match &note {
                Some(note) => format!("You requested a reminder for {link}. Note:\n > {note}"),
                None => format!("You requested a reminder for {link}."),
            };
            (said, links::topic_narrow(stream.id, &stream.name, topic, Some(message.id)))
        }
        MessageKind::Direct { participants } => {
            let said = match &note {
                Some(note) => {
                    format!("You requested a reminder for the following direct message. Note:\n > {note}")
                }
                None => "You requested a reminder for the following direct message.".to_owned(),
            };
            (said, links::direct_message_narrow(participants, message.id))
        }
    };
    content.push_str("\n\n");
    let url = format!("{}/{fragment}", actor.realm_url);
    let mention = links::silent_mention(&sender.full_name, sender.id);
    if message.content.starts_with("/poll") {
        content.push_str(&format!("{mention} [sent]({url}) a poll."));
    } else if message.content.starts_with("/todo") {
        content.push_str(&format!("{mention} [sent]({url}) a todo list."));
    } else {
        content.push_str(&format!("{mention} [said]({url}):\n"));
        let fence = unused_fence(&format!("{content}\n{}", message.content));
        let frame = format!("{fence}quote\n\n{fence}");
        let room = MAX_MESSAGE_LENGTH.saturating_sub(content.chars().count() + frame.chars().count());
        let quoted = truncate(&message.content, room, "\n[message truncated]");
        content.push_str(&format!("{fence}quote\n{quoted}\n{fence}"));
    }
    Ok(content)
}

/// `POST /reminders`: `message_id`, `scheduled_delivery_timestamp`, optional `note`.
pub fn create_message_reminder(
    store: &impl Store,
    actor: &Actor,
    params: &Params,
    now: i64,
) -> ApiResult<Outcome> {
    let message_id: i64 = params.required("message_id")?;
    let deliver_at: i64 = params.required("scheduled_delivery_timestamp")?;
    let note = params.optional::<String>("note")?;
    if deliver_at <= now {
        return Err(not_in_future());
    }
    let message_id = MessageId(u64::try_from(message_id).map_err(|_| ApiError::invalid_message())?);
    let message = readable_message(store, actor, message_id)?;
    let content = reminder_content(store, actor, &message, note.as_deref())?;
    // Checked as a message to oneself, as Zulip checks it.
    let pairs = [
        ("type".to_owned(), "direct".to_owned()),
        ("to".to_owned(), json!([actor.user.id]).to_string()),
        ("content".to_owned(), content),
    ];
    let checked = check_message(store, actor, &Params::from_pairs(pairs), now)?;
    let id = ScheduledMessageId(IdAllocator::new(store, IdKind::ScheduledMessage)?.take());
    let reminder = ScheduledMessage {
        id,
        realm_id: actor.realm.id,
        sender_id: actor.user.id,
        target: ScheduledTarget::Direct { to: vec![actor.user.id] },
        content: checked.content,
        rendered_content: checked.rendered_content.html(),
        client: actor.client.clone(),
        deliver_at,
        read_by_sender: false,
        reminder: Some(ReminderOf { message_id, note }),
        state: DeliveryState::Pending,
    };
    let event = Event::Other {
        users: vec![actor.user.id],
        body: json!({"type": "reminders", "op": "add", "reminders": [reminder_json(&reminder)]}),
    };
    Ok(Outcome {
        changes: vec![Change::PutScheduledMessage(reminder)],
        events: vec![event],
        ..Outcome::default()
    }
    .reply("reminder_id", id.0))
}

/// Zulip's `notify_remove_reminder`.
pub(crate) fn reminder_removed(user: UserId, id: ScheduledMessageId) -> Event {
    Event::Other { users: vec![user], body: json!({"type": "reminders", "op": "remove", "reminder_id": id}) }
}

/// `DELETE /reminders/{reminder_id}`.
pub fn delete_reminder(store: &impl Store, actor: &Actor, id: ScheduledMessageId) -> ApiResult<Outcome> {
    let reminder = store
        .scheduled_message(id)?
        .filter(|s| s.sender_id == actor.user.id && s.realm_id == actor.realm.id && s.is_reminder())
        .ok_or_else(|| ApiError::bad_request("Reminder does not exist").with_status(404))?;
    Ok(Outcome {
        changes: vec![Change::DeleteScheduledMessage(reminder.id)],
        events: vec![reminder_removed(actor.user.id, reminder.id)],
        ..Outcome::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fences_outgrow_the_longest_in_the_text() {
        assert_eq!(unused_fence("plain"), "```");
        assert_eq!(unused_fence("a\n```py\nx\n```"), "````");
        assert_eq!(unused_fence("   `````"), "``````");
        assert_eq!(unused_fence("    ````"), "```", "four spaces of indent is code, not a fence");
    }

    #[test]
    fn notes_are_trimmed_and_limited() {
        assert_eq!(normalized_note("\n\n  hi  \n").ok(), Some("  hi".to_owned()));
        let long = "n".repeat(MAX_REMINDER_NOTE_LENGTH + 1);
        assert_eq!(
            normalized_note(&long).map_err(|e| e.msg),
            Err("Maximum reminder note length: 1000 characters".to_owned())
        );
    }
}
