//! Notices from the organization's Notification Bot, for other modules: into a channel's topic
//! (channel changes) or to one user (subscriptions by others). Each comes back as the writes and
//! the message event to add to the caller's outcome; nothing when the organization has no
//! Notification Bot.

use crate::command::{Actor, Event, Outcome};
use crate::error::ApiResult;
use crate::ids::{IdKind, MessageId, UserId};
use crate::model::{MessageFlags, MessageKind, Stream, User};
use crate::store::{Change, IdAllocator, Store};

use super::send::{Addressed, Composed, address_stream_topic, compose};

/// Hands out message ids to every notice of one command.
pub struct NoticeIds(IdAllocator);

impl NoticeIds {
    pub fn new(store: &impl Store) -> ApiResult<Self> {
        Ok(NoticeIds(IdAllocator::new(store, IdKind::Message)?))
    }
}

/// Zulip's topic for notices about a channel itself.
pub const CHANNEL_EVENTS_TOPIC: &str = "channel events";

/// Where a channel notice goes and what it says.
pub struct ChannelNotice<'a> {
    /// The channel as it is after the command.
    pub stream: &'a Stream,
    pub topic: &'a str,
    pub content: String,
    /// Users the same command subscribes, who the store does not list yet.
    pub joining: &'a [UserId],
    /// Whether the acting user has read it: Zulip marks the notices of a user's own channel
    /// creation read for them.
    pub read_by_actor: bool,
}

/// Posts a notice in a channel, to its subscribers.
pub fn post_channel_notice(
    store: &impl Store,
    actor: &Actor,
    notice: ChannelNotice<'_>,
    now: i64,
    ids: &mut NoticeIds,
    outcome: &mut Outcome,
) -> ApiResult<()> {
    let Some(bot) = notification_bot(store, actor)? else { return Ok(()) };
    let mut addressed = address_stream_topic(store, notice.stream.clone(), notice.topic.to_owned())?;
    addressed.add_receivers(notice.joining);
    let mut composed =
        compose(store, actor, &bot, "Internal", addressed, notice.content, true, now, &mut ids.0)?;
    if notice.read_by_actor {
        mark_read(&mut composed, actor.user.id);
    }
    record(outcome, composed);
    Ok(())
}

/// Sends `content` to `user` as a direct message from the Notification Bot; the message's id
/// (none when the organization has no Notification Bot).
pub fn send_direct_notice(
    store: &impl Store,
    actor: &Actor,
    user: &User,
    content: String,
    now: i64,
    ids: &mut NoticeIds,
    outcome: &mut Outcome,
) -> ApiResult<Option<MessageId>> {
    let Some(bot) = notification_bot(store, actor)? else { return Ok(None) };
    let mut participants = vec![bot.id, user.id];
    participants.sort_unstable();
    let addressed = Addressed::direct(
        MessageKind::Direct { participants: participants.clone() },
        user.personal_recipient,
        participants,
    );
    let notice = compose(store, actor, &bot, "Internal", addressed, content, true, now, &mut ids.0)?;
    let id = notice.id;
    record(outcome, notice);
    Ok(Some(id))
}

fn notification_bot(store: &impl Store, actor: &Actor) -> ApiResult<Option<User>> {
    Ok(actor.realm.notification_bot.map(|id| store.user(id)).transpose()?.flatten())
}

/// Adds a composed notice's writes and events to the command's outcome.
fn record(outcome: &mut Outcome, composed: Composed) {
    outcome.changes.extend(composed.changes);
    outcome.events.push(composed.event);
    outcome.events.extend(composed.followups);
}

/// Gives `user` the message already read, in its stored flags and in its event.
fn mark_read(composed: &mut Composed, user: UserId) {
    let read = |receivers: &mut Vec<(UserId, MessageFlags)>| {
        for (_, flags) in receivers.iter_mut().filter(|(r, _)| *r == user) {
            *flags = flags.with(MessageFlags::READ);
        }
    };
    for change in &mut composed.changes {
        if let Change::InsertMessage { receivers, .. } = change {
            read(receivers);
        }
    }
    if let Event::Message { receivers, .. } = &mut composed.event {
        read(receivers);
    }
}
