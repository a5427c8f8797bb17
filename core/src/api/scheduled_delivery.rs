//! The server sending scheduled messages and reminders at their time: core's timeout handling
//! for them, in the shape of the event registry's `poll_timeout` and `handle_timeout`. The host
//! asks [`next_delivery_at`] when to wake, [`due_deliveries`] what is due then, and runs
//! [`deliver_scheduled_message`] for each one through its writer, so that every delivery is its
//! own durable command with the usual message events, and one that fails spoils no other.
//!
//! A delivery sends the message as its sender would at that moment, through the send path, so
//! every permission is checked again (Zulip's `send_scheduled_message`). One that can no longer
//! be sent is kept as failed, with the reason: its owner gets the `update` event and a direct
//! message from Notification Bot saying why, except when the account or the organization is
//! deactivated, or for a reminder (which has no failure notice in Zulip).

use serde_json::{Value, json};

use crate::command::{Actor, Outcome};
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::ids::{MessageId, ScheduledMessageId};
use crate::model::{DeliveryState, ReminderOf, ScheduledMessage, ScheduledTarget};
use crate::params::Params;
use crate::store::{Change, Store};
use crate::subdomains::Site;

use super::messages::readable_message;
use super::messages::{notify_user, send_message};
use super::reminders::{reminder_content, reminder_removed};
use super::scheduled_messages::scheduled_message_json;

/// How late a scheduled message may still be sent (Zulip's
/// `SCHEDULED_MESSAGE_LATE_CUTOFF_MINUTES`): after a longer outage it fails instead of
/// surprising its recipients. Reminders are sent however late.
pub const LATE_CUTOFF_SECONDS: i64 = 10 * 60;

/// When the next pending delivery falls due, if any: the host sleeps until then.
pub fn next_delivery_at(store: &impl Store) -> ApiResult<Option<i64>> {
    Ok(store.pending_deliveries()?.next().transpose()?.map(|(at, _)| at))
}

/// The deliveries due at `now`, in the order to send them (time, then id, as Zulip's worker).
pub fn due_deliveries(store: &impl Store, now: i64) -> ApiResult<Vec<ScheduledMessageId>> {
    let mut due = Vec::new();
    for entry in store.pending_deliveries()? {
        let (at, id) = entry?;
        if at > now {
            break;
        }
        due.push(id);
    }
    Ok(due)
}

/// Why a delivery did not happen, and whether the owner is told.
enum Failure {
    /// Refused by a rule: the owner gets the update event and Notification Bot's notice.
    Told(String),
    /// The account or organization is gone, or it was a reminder: recorded only.
    Recorded(String),
}

/// Sends one scheduled message or reminder if it is still due at `now` (it may have been
/// edited, cancelled or sent since the host asked). `site` gives the organization its URL for
/// the rendering. Only storage faults are errors; a message that cannot be sent is recorded as
/// failed.
pub fn deliver_scheduled_message(
    store: &impl Store,
    site: &Site,
    id: ScheduledMessageId,
    now: i64,
) -> ApiResult<Outcome> {
    let Some(scheduled) = store.scheduled_message(id)? else { return Ok(Outcome::default()) };
    if !scheduled.is_pending() || scheduled.deliver_at > now {
        return Ok(Outcome::default());
    }
    let realm = store.realm(scheduled.realm_id)?;
    let sender = store.user(scheduled.sender_id)?;
    let (realm, sender) = match (realm, sender) {
        (Some(realm), _) if realm.deactivated => {
            return failed(store, None, scheduled, Failure::Recorded(ApiError::realm_deactivated().msg), now);
        }
        (Some(realm), Some(sender)) if sender.is_active => (realm, sender),
        _ => return failed(store, None, scheduled, Failure::Recorded(ApiError::user_deactivated().msg), now),
    };
    let realm_url = site.realm_url(&realm.subdomain);
    let actor = Actor { user: sender, realm, client: scheduled.client.clone(), realm_url };
    let attempt = if let Some(of) = &scheduled.reminder {
        send_reminder(store, &actor, of, &scheduled.content, now)?
    } else if now > scheduled.deliver_at.saturating_add(LATE_CUTOFF_SECONDS) {
        Err(Failure::Told("Message could not be sent at the scheduled time.".to_owned()))
    } else {
        send_as_sender(store, &actor, &scheduled, now)?
    };
    match attempt {
        Ok(mut outcome) => {
            let message_id = sent_id(&outcome)?;
            outcome.reply.clear();
            let removed = if scheduled.is_reminder() {
                reminder_removed(actor.user.id, scheduled.id)
            } else {
                removed_event(&actor, scheduled.id)
            };
            outcome.events.push(removed);
            outcome.changes.push(Change::PutScheduledMessage(ScheduledMessage {
                state: DeliveryState::Delivered { message_id },
                ..scheduled
            }));
            Ok(outcome)
        }
        Err(failure) => failed(store, Some(&actor), scheduled, failure, now),
    }
}

/// A refusal is a failure of the delivery; a storage fault is an error of the command (nothing
/// is written, and the host tries again later).
fn refused(err: ApiError) -> ApiResult<String> {
    if err.code == ErrorCode::InternalError { Err(err) } else { Ok(err.msg) }
}

/// Sends a scheduled message through the send path, as its sender at `now`.
fn send_as_sender(
    store: &impl Store,
    actor: &Actor,
    scheduled: &ScheduledMessage,
    now: i64,
) -> ApiResult<Result<Outcome, Failure>> {
    let mut pairs = vec![
        ("content".to_owned(), scheduled.content.clone()),
        ("read_by_sender".to_owned(), scheduled.read_by_sender.to_string()),
    ];
    match &scheduled.target {
        ScheduledTarget::Stream { stream_id, topic } => {
            pairs.push(("type".to_owned(), "stream".to_owned()));
            pairs.push(("to".to_owned(), stream_id.to_string()));
            pairs.push(("topic".to_owned(), topic.clone()));
        }
        ScheduledTarget::Direct { to } => {
            pairs.push(("type".to_owned(), "direct".to_owned()));
            pairs.push(("to".to_owned(), json!(to).to_string()));
        }
    }
    match send_message(store, actor, &Params::from_pairs(pairs), now) {
        Ok(outcome) => Ok(Ok(outcome)),
        Err(err) => Ok(Err(Failure::Told(refused(err)?))),
    }
}

/// Sends a reminder from Notification Bot: about the message as it is now if the owner can
/// still read it, else as it was when the reminder was made (Zulip's `send_reminder`).
fn send_reminder(
    store: &impl Store,
    actor: &Actor,
    of: &ReminderOf,
    stored_content: &str,
    now: i64,
) -> ApiResult<Result<Outcome, Failure>> {
    let current = readable_message(store, actor, of.message_id)
        .and_then(|message| reminder_content(store, actor, &message, of.note.as_deref()));
    let content = match current {
        Ok(content) => content,
        Err(err) => {
            refused(err)?;
            stored_content.to_owned()
        }
    };
    match notify_user(store, actor, &actor.user, &content, now) {
        Ok(Some(outcome)) => Ok(Ok(outcome)),
        Ok(None) => Ok(Err(Failure::Recorded("Reminder could not be sent.".to_owned()))),
        Err(err) => Ok(Err(Failure::Recorded(refused(err)?))),
    }
}

/// The id of the message a delivery sent (the send path's reply).
fn sent_id(outcome: &Outcome) -> ApiResult<MessageId> {
    outcome
        .reply
        .get("id")
        .and_then(Value::as_u64)
        .map(MessageId)
        .ok_or_else(|| ApiError::internal("a delivery sent no message"))
}

fn removed_event(actor: &Actor, id: ScheduledMessageId) -> crate::command::Event {
    crate::command::Event::Other {
        users: vec![actor.user.id],
        body: json!({"type": "scheduled_messages", "op": "remove", "scheduled_message_id": id}),
    }
}

/// Records a failed delivery; a refused scheduled message is announced to its owner with the
/// update event and Notification Bot's notice (Zulip's
/// `send_failed_scheduled_message_notification`).
fn failed(
    store: &impl Store,
    actor: Option<&Actor>,
    scheduled: ScheduledMessage,
    failure: Failure,
    now: i64,
) -> ApiResult<Outcome> {
    let (message, tell) = match failure {
        Failure::Told(message) => (message, !scheduled.is_reminder()),
        Failure::Recorded(message) => (message, false),
    };
    let scheduled =
        ScheduledMessage { state: DeliveryState::Failed { message: message.clone() }, ..scheduled };
    let mut outcome = Outcome::default();
    if let (true, Some(actor)) = (tell, actor) {
        outcome.events.push(crate::command::Event::Other {
            users: vec![actor.user.id],
            body: json!({
                "type": "scheduled_messages",
                "op": "update",
                "scheduled_message": scheduled_message_json(&scheduled),
            }),
        });
        let notice = format!(
            "The message you scheduled for <time:{}> was not sent because of the following error:\n\n\
             > {message}\n\n[View scheduled messages](#scheduled)\n\n",
            crate::time::iso8601(scheduled.deliver_at)
        );
        match notify_user(store, actor, &actor.user, &notice, now) {
            Ok(Some(sent)) => {
                outcome.changes.extend(sent.changes);
                outcome.events.extend(sent.events);
            }
            Ok(None) => {}
            Err(err) => {
                refused(err)?;
            }
        }
    }
    outcome.changes.insert(0, Change::PutScheduledMessage(scheduled));
    Ok(outcome)
}
