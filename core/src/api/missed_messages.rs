//! Emails about messages people missed (Zulip's missed-message emails): a direct message or a
//! mention of someone away from Zulip is mailed to them, batched as Zulip batches them.
//!
//! - **Who.** A receiver a new message mentions by name or writes to directly, whose
//!   `enable_offline_email_notifications` is on, and who is away: no presence activity for
//!   [`AWAY_AFTER_SECS`] (Zulip's idle threshold; a client that is open but untouched counts as
//!   away, as in Zulip). Never the sender, never a bot.
//! - **When.** The first such message opens a batch due after the user's
//!   `email_notifications_batching_period_seconds` (2 minutes by default); later ones join it.
//!   Each waits as the user's `MissedMessageEmail` record (id: the message's), so a restart
//!   loses none.
//! - **What.** When the batch is due, the messages the user has not read since are mailed, one
//!   email per conversation, as Zulip's `handle_missedmessage_emails` groups them; the records
//!   go either way.
//!
//! The host keeps the due times in memory and sends each batch as a command
//! ([`send_due_emails`]); [`Event::EmailsScheduled`] tells it of a new batch.

use std::collections::BTreeMap;

use serde_json::json;

use crate::command::{Event, Outcome};
use crate::emails::OutgoingEmail;
use crate::error::ApiResult;
use crate::ids::{MessageId, StreamId, UserId};
use crate::model::settings::user_setting;
use crate::model::{Message, MessageFlags, MessageKind, Realm, RecordKind, User};
use crate::store::{Change, Store};
use crate::subdomains::Site;

/// Seconds without presence activity after which a user is away (Zulip's
/// `OFFLINE_THRESHOLD_SECS`).
pub const AWAY_AFTER_SECS: i64 = 140;

/// Why a message is mailed, as Zulip names the trigger.
fn trigger(message: &Message, receiver: UserId, flags: MessageFlags) -> Option<&'static str> {
    if receiver == message.sender_id {
        None
    } else if message.is_direct() {
        Some("direct_message")
    } else if flags.intersects(MessageFlags::MENTIONED) {
        Some("mentioned")
    } else {
        None
    }
}

/// Whether a user is away from Zulip at `now`.
fn is_away(store: &impl Store, user: UserId, now: i64) -> ApiResult<bool> {
    Ok(store.presence(user)?.is_none_or(|p| now - p.last_active_time >= AWAY_AFTER_SECS))
}

/// The records and event that schedule the emails a new message calls for.
pub fn schedule(
    store: &impl Store,
    message: &Message,
    receivers: &[(UserId, MessageFlags)],
    now: i64,
) -> ApiResult<(Vec<Change>, Vec<Event>)> {
    let mut changes = Vec::new();
    let mut batches = Vec::new();
    for &(receiver, flags) in receivers {
        let Some(trigger) = trigger(message, receiver, flags) else { continue };
        let Some(user) = store.user(receiver)?.filter(|u| u.is_active && !u.is_bot()) else { continue };
        let settings = store.user_settings(user.id)?;
        if user_setting(&settings, "enable_offline_email_notifications") != Some(json!(true))
            || !is_away(store, user.id, now)?
        {
            continue;
        }
        let pending = store.records(user.id, RecordKind::MissedMessageEmail)?;
        let open_batch = pending.iter().filter_map(|(_, r)| r["due"].as_i64()).min();
        let due = match open_batch {
            Some(due) => due,
            None => {
                let period = user_setting(&settings, "email_notifications_batching_period_seconds")
                    .and_then(|v| v.as_i64())
                    .unwrap_or(120);
                let due = now + period;
                batches.push((user.id, due));
                due
            }
        };
        changes.push(Change::PutRecord {
            user: user.id,
            kind: RecordKind::MissedMessageEmail,
            id: message.id.0,
            value: json!({"trigger": trigger, "due": due}),
        });
    }
    let events = batches.into_iter().map(|(user, due)| Event::EmailsScheduled { user, due }).collect();
    Ok((changes, events))
}

/// Every open batch, for the host's schedule at start: `(user, due)`.
pub fn open_batches(store: &impl Store) -> ApiResult<Vec<(UserId, i64)>> {
    let mut batches = Vec::new();
    for realm in store.realms()? {
        for user in store.realm_user_ids(realm.id)? {
            let pending = store.records(user, RecordKind::MissedMessageEmail)?;
            if let Some(due) = pending.iter().filter_map(|(_, r)| r["due"].as_i64()).min() {
                batches.push((user, due));
            }
        }
    }
    Ok(batches)
}

/// A conversation, as emails group messages.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Conversation {
    Direct(Vec<UserId>),
    Topic(StreamId, String),
}

/// Mails a user's batch if it is due at `now`: one email per conversation of the messages
/// still unread; removes the batch's records.
pub fn send_due_emails(store: &impl Store, site: &Site, user: UserId, now: i64) -> ApiResult<Outcome> {
    let pending = store.records(user, RecordKind::MissedMessageEmail)?;
    let due: Vec<u64> = pending
        .iter()
        .filter(|(_, r)| r["due"].as_i64().is_some_and(|d| d <= now))
        .map(|(id, _)| *id)
        .collect();
    let mut outcome = Outcome::default();
    if due.is_empty() {
        return Ok(outcome);
    }
    for id in &due {
        outcome.changes.push(Change::DeleteRecord { user, kind: RecordKind::MissedMessageEmail, id: *id });
    }
    let Some(account) = store.user(user)?.filter(|u| u.is_active) else { return Ok(outcome) };
    let Some(realm) = store.realm(account.realm_id)? else { return Ok(outcome) };
    let realm_url = site.realm_url(&realm.subdomain);
    let mut conversations: BTreeMap<Conversation, Vec<Message>> = BTreeMap::new();
    for id in due {
        let id = MessageId(id);
        let Some(flags) = store.message_flags(user, id)? else { continue };
        if flags.intersects(MessageFlags::READ) {
            continue;
        }
        let Some(message) = store.message(id)? else { continue };
        let conversation = match &message.kind {
            MessageKind::Direct { participants } => Conversation::Direct(participants.clone()),
            MessageKind::Stream { stream_id, topic } => Conversation::Topic(*stream_id, topic.clone()),
        };
        conversations.entry(conversation).or_default().push(message);
    }
    for (conversation, mut messages) in conversations {
        messages.sort_by_key(|m| m.id);
        let email = conversation_email(store, &account, &realm, &realm_url, &conversation, &messages)?;
        outcome.events.push(Event::Email(email));
    }
    Ok(outcome)
}

/// One conversation's email (Zulip's `missed_message` template, in plain text): its messages
/// in order, each with its sender, and a link to the conversation.
fn conversation_email(
    store: &impl Store,
    account: &User,
    realm: &Realm,
    realm_url: &str,
    conversation: &Conversation,
    messages: &[Message],
) -> ApiResult<OutgoingEmail> {
    let name_of = |id: UserId| -> ApiResult<String> {
        Ok(store.user(id)?.map(|u| u.full_name).unwrap_or_else(|| "Unknown user".to_owned()))
    };
    let last = messages.last().map_or(MessageId(0), |m| m.id);
    let (subject, link) = match conversation {
        Conversation::Direct(participants) => {
            let others: Vec<String> = participants
                .iter()
                .filter(|id| **id != account.id)
                .map(|id| name_of(*id))
                .collect::<ApiResult<_>>()?;
            let subject = if others.len() > 1 {
                format!("Group DMs with {}", others.join(", "))
            } else {
                format!("DMs with {}", others.join(", "))
            };
            (subject, crate::links::direct_message_narrow(participants, last))
        }
        Conversation::Topic(stream_id, topic) => {
            let name = store.stream(*stream_id)?.map(|s| s.name).unwrap_or_default();
            let link = crate::links::topic_narrow(*stream_id, &name, topic, Some(last));
            (format!("#{name} > {topic}"), link)
        }
    };
    let mut body = String::new();
    for message in messages {
        body.push_str(&format!("{}:\n{}\n\n", name_of(message.sender_id)?, message.content));
    }
    let base = realm_url.trim_end_matches('/');
    body.push_str(&format!(
        "Reply in Zulip: {base}/{link}\n\n\
         You are receiving this because you were away from {organization} when these messages \
         arrived. Manage these emails: {base}/#settings/notifications\n",
        organization = realm.name,
    ));
    Ok(OutgoingEmail {
        to: account.delivery_email.clone(),
        subject,
        body,
        kind: crate::emails::MISSED_MESSAGES,
        link: Some(format!("{base}/{link}")),
    })
}
