//! POST /messages   send_message

use std::ops::Bound;

use serde_json::{Value, json};

use crate::command::{Actor, Event, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::groups::channel_permission;
use crate::ids::{IdKind, MessageId, RecipientId, StreamId, SubmessageId, UserId};
use crate::model::{
    Message, MessageFlags, MessageKind, Recipient, RecipientKind, SendOrigin, Stream, Submessage, User,
    direct_group_key,
};
use crate::params::Params;
use crate::store::{Change, Direction, IdAllocator, MessageIndex, Store};
use crate::widgets;

use super::super::streams::{has_content_access, is_forbidden_char, stream_by_name, stream_in_realm};
use super::automatic_follow;
use super::rendering::{Mentions, is_me_message, render_message};

/// Zulip's `MAX_MESSAGE_LENGTH`, in code points; longer content is truncated, not refused.
pub const MAX_MESSAGE_LENGTH: usize = 10_000;
/// Zulip's `MAX_TOPIC_NAME_LENGTH`, in code points; longer topics are truncated.
pub const MAX_TOPIC_LENGTH: usize = 60;

/// Truncates to `max` code points, ending with `suffix` when anything was cut, as Zulip's
/// `truncate_content` does.
pub(crate) fn truncate(text: &str, max: usize, suffix: &str) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let keep = max.saturating_sub(suffix.chars().count());
    let mut cut: String = text.chars().take(keep).collect();
    cut.push_str(suffix);
    cut
}

/// Zulip's `truncate_topic`: a topic cut to its length limit, otherwise as sent (drafts keep
/// what the user typed).
pub fn truncate_topic(raw: &str) -> String {
    truncate(raw, MAX_TOPIC_LENGTH, "...")
}

/// Checks and normalizes message content as Zulip's `normalize_body`: trailing whitespace and
/// leading blank lines go (so `"\n/poll"` is still a poll).
pub fn check_content(raw: &str) -> ApiResult<String> {
    if raw.contains('\0') {
        return Err(ApiError::bad_request("Message must not contain null bytes"));
    }
    let content = raw.trim_end().trim_start_matches('\n');
    if content.is_empty() {
        return Err(ApiError::bad_request("Message must not be empty"));
    }
    Ok(truncate(content, MAX_MESSAGE_LENGTH, "\n[message truncated]"))
}

/// Checks and normalizes a topic: stripped, Zulip's aliases of the empty topic mapped to it,
/// truncated to 60 code points.
pub fn check_topic(raw: &str) -> ApiResult<String> {
    let topic = raw.trim();
    if let Some(position) = topic.chars().position(is_forbidden_char) {
        return Err(ApiError::bad_request(format!(
            "Invalid character in topic, at position {}!",
            position + 1
        )));
    }
    if topic == "(no topic)" || topic.eq_ignore_ascii_case(crate::wire::EMPTY_TOPIC_DISPLAY_NAME) {
        return Ok(String::new());
    }
    Ok(truncate(topic, MAX_TOPIC_LENGTH, "..."))
}

/// Whether messages from this client start read for their sender. Zulip marks a sender's own
/// message read only for interactive clients; bots and integrations leave it unread.
pub(crate) fn interactive_client(client: &str) -> bool {
    let name = client.to_lowercase();
    [
        "website",
        "zulipmobile",
        "zulipelectron",
        "zulipdesktop",
        "zulipterminal",
        "zulipandroid",
        "zulipios",
        "ios",
        "android",
        "snipe",
        "zulipflutter",
    ]
    .contains(&name.as_str())
        || name.contains("desktop app")
}

/// The channel a `to` parameter names: an id, a name, or either inside a one-element JSON list.
fn target_stream(store: &impl Store, actor: &Actor, to: &str) -> ApiResult<Stream> {
    let parsed: Option<Value> = serde_json::from_str(to).ok();
    let indicator = match parsed {
        Some(Value::Array(items)) if items.len() == 1 => items.into_iter().next(),
        Some(Value::Array(_)) => {
            return Err(ApiError::bad_request("Cannot send to multiple channels"));
        }
        Some(v @ (Value::Number(_) | Value::String(_))) => Some(v),
        _ => None,
    };
    match indicator {
        Some(Value::Number(n)) => {
            let id = n.as_u64().ok_or_else(|| ApiError::bad_request("Invalid channel ID"))?;
            stream_in_realm(store, actor, StreamId(id))?.ok_or_else(|| ApiError::stream_id_does_not_exist(id))
        }
        Some(Value::String(name)) => {
            stream_by_name(store, actor, &name)?.ok_or_else(|| ApiError::stream_does_not_exist(name.trim()))
        }
        _ => stream_by_name(store, actor, to)?.ok_or_else(|| ApiError::stream_does_not_exist(to.trim())),
    }
}

/// The users a direct message's `to` names: a JSON list of ids or emails, or emails separated
/// by commas. Every one must be an active user of the organization.
fn target_users(store: &impl Store, actor: &Actor, to: &str) -> ApiResult<Vec<User>> {
    let entries: Vec<Value> = match serde_json::from_str::<Value>(to) {
        Ok(Value::Array(items)) => items,
        Ok(v @ Value::Number(_)) => vec![v],
        _ => to.split(',').map(|e| Value::String(e.trim().to_owned())).filter(|v| v != "").collect(),
    };
    if entries.is_empty() {
        return Err(ApiError::bad_request("Message must have recipients"));
    }
    let mut users: Vec<User> = Vec::with_capacity(entries.len());
    for entry in entries {
        let user = match &entry {
            Value::Number(n) => {
                let found = match n.as_u64() {
                    Some(id) => store.user(UserId(id))?.filter(|u| u.realm_id == actor.realm.id),
                    None => None,
                };
                found.ok_or_else(|| ApiError::bad_request(format!("Invalid user ID {n}")))?
            }
            Value::String(email) => {
                let found = match crate::api::users::user_by_api_email(store, actor.realm.id, email)? {
                    Some(id) => store.user(id)?,
                    None => None,
                };
                found.ok_or_else(|| ApiError::bad_request(format!("Invalid email '{email}'")))?
            }
            _ => return Err(ApiError::bad_request("to is not a list of user ids or emails")),
        };
        if !user.is_active {
            return Err(ApiError::bad_request(format!("'{}' is no longer using Zulip.", user.email)));
        }
        if !users.iter().any(|u| u.id == user.id) {
            users.push(user);
        }
    }
    Ok(users)
}

/// Where a message goes, resolved.
pub(super) struct Addressed {
    kind: MessageKind,
    recipient: RecipientId,
    receivers: Vec<UserId>,
    /// Writes needed to address it (a new direct-message group, a channel's first message id).
    changes: Vec<Change>,
    stream: Option<Stream>,
}

impl Addressed {
    /// A direct message between users who exist, to a recipient already known.
    pub(super) fn direct(kind: MessageKind, recipient: RecipientId, receivers: Vec<UserId>) -> Addressed {
        Addressed { kind, recipient, receivers, changes: Vec::new(), stream: None }
    }

    /// Adds receivers the store does not know yet (users the same command subscribes).
    pub(super) fn add_receivers(&mut self, users: &[UserId]) {
        for user in users {
            if !self.receivers.contains(user) {
                self.receivers.push(*user);
            }
        }
    }
}

fn address_stream(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Addressed> {
    let to: String = params.required("to")?;
    let stream = target_stream(store, actor, &to)?;
    let topic_raw = match params.optional::<String>("topic")? {
        Some(t) => t,
        None => params.optional::<String>("subject")?.ok_or_else(|| ApiError::missing_argument("topic"))?,
    };
    let topic = check_topic(&topic_raw)?;
    // Reading through the channel's groups (not subscribed to a private channel) allows
    // posting only where history is shared, as Zulip's `access_stream_for_send_message`.
    let may_post = has_content_access(store, &actor.user, &stream)?
        && (stream.is_public()
            || stream.history_public_to_subscribers
            || super::super::streams::is_subscribed(store, actor.user.id, stream.id)?);
    if stream.is_archived || !may_post {
        return Err(ApiError::bad_request(format!("Not authorized to send to channel '{}'", stream.name)));
    }
    check_channel_permissions(store, actor, &stream, &topic)?;
    address_stream_topic(store, stream, topic)
}

/// The channel's own rules for posting (zulip-semantics §6.4): `can_send_message_group`,
/// `can_create_topic_group` for a topic that does not exist yet, and `topics_policy`.
fn check_channel_permissions(
    store: &impl Store,
    actor: &Actor,
    stream: &Stream,
    topic: &str,
) -> ApiResult<()> {
    if !channel_permission(store, stream, &actor.user, "can_send_message_group")? {
        return Err(ApiError::bad_request("You do not have permission to post in this channel."));
    }
    let policy = match stream.topics_policy.as_str() {
        "inherit" => actor.realm.settings.topics_policy.as_str(),
        own => own,
    };
    match policy {
        "disable_empty_topic" if topic.is_empty() => {
            return Err(ApiError::bad_request(
                "Sending messages to the general chat is not allowed in this channel.",
            ));
        }
        "empty_topic_only" if !topic.is_empty() => {
            return Err(ApiError::bad_request("Only the general chat topic is allowed in this channel."));
        }
        _ => {}
    }
    if !channel_permission(store, stream, &actor.user, "can_create_topic_group")? {
        let index = MessageIndex::Topic(stream.recipient_id, topic.to_lowercase());
        let exists = store
            .message_ids(&index, Bound::Unbounded, Bound::Unbounded, Direction::Ascending)?
            .next()
            .is_some();
        if !exists {
            return Err(ApiError::bad_request(
                "You do not have permission to create new topics in this channel.",
            ));
        }
    }
    Ok(())
}

/// Addresses a channel message to the channel's active subscribers.
pub(super) fn address_stream_topic(
    store: &impl Store,
    stream: Stream,
    topic: String,
) -> ApiResult<Addressed> {
    // Deactivated users keep their subscriptions but receive nothing.
    let deactivated = store.deactivated_users(stream.realm_id)?;
    let mut receivers = store.stream_subscribers(stream.id)?;
    receivers.retain(|user| !deactivated.contains(user));
    Ok(Addressed {
        kind: MessageKind::Stream { stream_id: stream.id, topic },
        recipient: stream.recipient_id,
        receivers,
        changes: Vec::new(),
        stream: Some(stream),
    })
}

fn address_direct(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Addressed> {
    let to: String = params.required("to")?;
    let mut participants: Vec<User> = target_users(store, actor, &to)?;
    if !participants.iter().any(|u| u.id == actor.user.id) {
        participants.push(actor.user.clone());
    }
    participants.sort_by_key(|u| u.id);
    let ids: Vec<UserId> = participants.iter().map(|u| u.id).collect();
    let mut changes = Vec::new();
    let mut new_conversation = false;
    let recipient = match participants.as_slice() {
        [me] => me.personal_recipient,
        [a, b] => {
            if a.id == actor.user.id {
                b.personal_recipient
            } else {
                a.personal_recipient
            }
        }
        _ => {
            let key = direct_group_key(&ids);
            match store.direct_group(&key)? {
                Some(id) => id,
                None => {
                    new_conversation = true;
                    let id = RecipientId(IdAllocator::new(store, IdKind::Recipient)?.take());
                    changes.push(Change::PutRecipient(Recipient {
                        id,
                        kind: RecipientKind::DirectGroup(ids.clone()),
                    }));
                    id
                }
            }
        }
    };
    // Zulip's `check_sender_can_access_recipients`.
    let access = crate::user_access::UserAccess::of(store, &actor.realm, &actor.user)?;
    if !participants.iter().all(|u| access.can_see(u)) {
        return Err(ApiError::bad_request("You do not have permission to access some of the recipients."));
    }
    super::direct_permissions::check_can_send_direct(
        store,
        actor,
        &participants,
        (!new_conversation).then_some(recipient),
    )?;
    Ok(Addressed {
        kind: MessageKind::Direct { participants: ids.clone() },
        recipient,
        receivers: ids,
        changes,
        stream: None,
    })
}

/// Every parameter [`send_message`] reads: a retry answered from the store reads none of them
/// but must not report them in `ignored_parameters_unsupported`, which the first answer did not.
const SEND_PARAMETERS: [&str; 9] =
    ["type", "to", "content", "topic", "subject", "read_by_sender", "queue_id", "local_id", "widget_content"];

/// `POST /messages`: sends a channel or direct message (spec 4.x; Zulip's send-message).
///
/// A send that names its event queue and local id (`queue_id` and `local_id`, which Zulip's
/// clients send for local echo) is remembered with the message, and a retry with the same two
/// (from the same sender) is answered with the message the first one posted: nothing is posted,
/// changed or announced again. See [`SendOrigin`] for which sends are remembered.
pub fn send_message(store: &impl Store, actor: &Actor, params: &Params, now: i64) -> ApiResult<Outcome> {
    let origin = send_origin(actor, params)?;
    if let Some(origin) = origin.as_ref().filter(|o| o.is_remembered())
        && let Some(id) = store.sent_message(origin)?
    {
        // The first send's answer may never have reached the client (a lost connection, a
        // crash before the reply): the retry gets the same answer. Its other parameters are not
        // looked at: a retry carrying other content or recipients still names the send that
        // already happened, and idempotency means answering for that one (Zulip, which forgets
        // sends, has no rule here). A message deleted since was still posted once; its id is
        // answered all the same rather than posting it again. The reply is the first one's
        // `id`; `automatic_new_visibility_policy` is absent because, as Zulip defines it, it
        // is present only when this request changed the sender's policy, and a retry changes
        // nothing.
        for name in SEND_PARAMETERS {
            params.mark_used(name);
        }
        return Ok(Outcome::default().reply("id", id.0));
    }
    send(store, actor, params, now, origin)
}

/// The send's event queue and local id, if the client named both. Zulip takes both as plain
/// strings, passed back without inspection (`"12.01"` from the web app, anything from others):
/// so does this, and a `queue_id` without `local_id` (or the reverse) sends without either.
fn send_origin(actor: &Actor, params: &Params) -> ApiResult<Option<SendOrigin>> {
    let queue_id = params.optional::<String>("queue_id")?;
    let local_id = params.optional::<String>("local_id")?;
    Ok(queue_id.zip(local_id).map(|(queue_id, local_id)| SendOrigin {
        sender: actor.user.id,
        queue_id,
        local_id,
    }))
}

/// Sends a message as [`send_message`] does once it knows the send is new; `origin` goes to
/// the message's event and, if remembered, to the store.
fn send(
    store: &impl Store,
    actor: &Actor,
    params: &Params,
    now: i64,
    origin: Option<SendOrigin>,
) -> ApiResult<Outcome> {
    let kind: String = params.required("type")?;
    let content = check_content(&params.required::<String>("content")?)?;
    let read_by_sender = params.optional::<bool>("read_by_sender")?;
    let addressed = match kind.as_str() {
        "stream" | "channel" => address_stream(store, actor, params)?,
        "private" | "direct" => address_direct(store, actor, params)?,
        _ => return Err(ApiError::bad_request("Invalid type")),
    };
    // The widget: a client's `widget_content` (checked once the message is addressed, as
    // Zulip's `check_message` does), else the one the content's command makes.
    let widget = match params.optional::<String>("widget_content")? {
        Some(raw) => Some(widgets::widget_content_submessage(&raw).map_err(ApiError::bad_request)?),
        None => widgets::widget_command(&content).map(|command| command.submessage_content()),
    };

    let sender_reads = read_by_sender.unwrap_or_else(|| interactive_client(&actor.client));
    let place = match (&addressed.stream, &addressed.kind) {
        (Some(stream), MessageKind::Stream { topic, .. }) => Some((stream.clone(), topic.clone())),
        _ => None,
    };
    let mut ids = IdAllocator::new(store, IdKind::Message)?;
    let mut composed =
        compose(store, actor, &actor.user, &actor.client, addressed, content, sender_reads, now, &mut ids)?;
    let Event::Message { receivers, origin: event_origin, .. } = &mut composed.event else {
        return Err(ApiError::internal("a composed message without its event"));
    };
    let automatic = match &place {
        Some((stream, topic)) => {
            automatic_follow::on_send(store, &actor.user, stream, topic, receivers, now)?
        }
        None => automatic_follow::Automatic::default(),
    };
    let mut changes = composed.changes;
    if let Some(content) = widget {
        // Stored with the message, so that its event and every fetch of it carry the widget.
        changes.push(Change::AddSubmessage(Submessage {
            id: SubmessageId(IdAllocator::new(store, IdKind::Submessage)?.take()),
            message_id: composed.id,
            sender_id: actor.user.id,
            msg_type: widgets::WIDGET_MSG_TYPE.to_owned(),
            content,
        }));
    }
    if let Some(origin) = origin.as_ref().filter(|o| o.is_remembered()) {
        changes.push(Change::PutSentMessage { origin: origin.clone(), message: composed.id });
    }
    *event_origin = origin;
    changes.extend(automatic.changes);
    // Clients learn of the new policies before the message, as from Zulip.
    let mut events = automatic.events;
    events.extend(composed.introductions);
    events.push(composed.event);
    events.extend(composed.followups);
    let outcome = Outcome { changes, events, ..Outcome::default() }.reply("id", composed.id.0);
    Ok(match automatic.sender_policy {
        Some(policy) => outcome.reply("automatic_new_visibility_policy", policy),
        None => outcome,
    })
}

/// A message ready to store.
pub(super) struct Composed {
    pub id: MessageId,
    pub changes: Vec<Change>,
    pub event: Event,
    /// Events that follow the message's: a channel's first message changes the channel
    /// (`first_message_id`), and outgoing-webhook bots it wakes.
    pub followups: Vec<Event>,
    /// Events that go before the message's: the people of a direct message a guest did not
    /// see yet (`user_access::direct_message_introductions`).
    pub introductions: Vec<Event>,
}

/// Renders and files a message from `sender` to an addressed conversation. `ids` hands out
/// message ids, shared by every message one command sends so that they stay distinct.
#[allow(clippy::too_many_arguments)]
pub(super) fn compose(
    store: &impl Store,
    actor: &Actor,
    sender: &User,
    client: &str,
    mut addressed: Addressed,
    content: String,
    sender_reads: bool,
    now: i64,
    ids: &mut IdAllocator,
) -> ApiResult<Composed> {
    let id = MessageId(ids.take());
    let realm = &actor.realm;
    let rendering = render_message(store, actor, sender, &content)?;
    let message = Message {
        id,
        realm_id: realm.id,
        sender_id: sender.id,
        recipient_id: addressed.recipient,
        kind: addressed.kind,
        is_me_message: is_me_message(&content),
        content,
        rendered_content: rendering.html.as_str().into(),
        timestamp: now,
        client: client.to_owned(),
        has_link: rendering.has_link,
        has_image: rendering.has_image,
        has_attachment: rendering.has_attachment,
        last_edit_timestamp: None,
        last_moved_timestamp: None,
        edit_history: Vec::new(),
    };
    let mentions = Mentions::of(store, &rendering, &message, &addressed.receivers)?;
    mentions.check_allowed(&message, addressed.receivers.len())?;
    let base = if message.is_direct() { MessageFlags::IS_PRIVATE } else { MessageFlags::empty() };
    let mut receivers: Vec<(UserId, MessageFlags)> = addressed
        .receivers
        .iter()
        .map(|&user| {
            let flags = base.with(mentions.flags_for(user));
            let flags =
                if user == sender.id && sender_reads { flags.with(MessageFlags::READ) } else { flags };
            (user, flags)
        })
        .collect();
    // Messages from a user someone muted arrive read for them, as in Zulip.
    let muters = store.muters(sender.id)?;
    for (_, flags) in receivers.iter_mut().filter(|(user, _)| muters.contains(user)) {
        *flags = flags.with(MessageFlags::READ);
    }
    let mut followups = Vec::new();
    if let Some(stream) =
        addressed.stream.take().filter(|s| s.first_message_id.is_none() || !s.is_recently_active)
    {
        // Clients learn a channel's first message, and that a quiet channel is active again
        // (Zulip's `do_send_messages`).
        let mut changed = Vec::new();
        if stream.first_message_id.is_none() {
            changed.push(("first_message_id", json!(id)));
        }
        if !stream.is_recently_active {
            changed.push(("is_recently_active", json!(true)));
        }
        let groups = crate::groups::Groups::load(store, stream.realm_id)?;
        let users = crate::api::streams::metadata_watchers(store, &groups, &stream)?;
        for (property, value) in changed {
            let body = json!({"type": "stream", "op": "update", "property": property, "value": value, "stream_id": stream.id, "name": stream.name});
            followups.push(Event::Other { users: users.clone(), body });
        }
        let first_message_id = stream.first_message_id.or(Some(id));
        addressed.changes.push(Change::PutStream(Stream {
            first_message_id,
            is_recently_active: true,
            ..stream
        }));
    }
    followups.extend(crate::api::outgoing_webhooks::triggers(
        store,
        sender,
        &message,
        mentions.mentioned_users(),
    )?);
    let (emails, scheduled) = crate::api::missed_messages::schedule(store, &message, &receivers, now)?;
    followups.extend(scheduled);
    let is_channel_message = !message.is_direct();
    let addressed_kind_participants = match &message.kind {
        MessageKind::Direct { participants } => Some(participants.clone()),
        MessageKind::Stream { .. } => None,
    };
    let mut changes = addressed.changes;
    changes.push(Change::InsertMessage { message, receivers: receivers.clone() });
    changes.extend(emails);
    let claimed =
        crate::api::uploads::claim_attachments(store, sender, id, now, &rendering.user_upload_paths, &[])?;
    changes.extend(claimed.changes);
    followups.extend(claimed.events);
    let introductions = match &addressed_kind_participants {
        Some(participants) => crate::user_access::direct_message_introductions(store, realm, participants)?,
        None => Vec::new(),
    };
    let hidden_sender = if is_channel_message {
        let receiver_ids = receivers.iter().map(|(user, _)| *user);
        crate::user_access::sender_hidden_from(store, realm, sender, receiver_ids, &actor.realm_url)?
    } else {
        None
    };
    let event = Event::Message { message: id, receivers, origin: None, hidden_sender };
    Ok(Composed { id, changes, event, followups, introductions })
}

/// Checks a message exactly as [`send_message`] would send it now, and returns the message it
/// would be (addressed, normalized, rendered) without sending it: scheduling checks a message
/// when it is scheduled, as Zulip's `check_message` does.
pub(crate) fn check_message(
    store: &impl Store,
    actor: &Actor,
    params: &Params,
    now: i64,
) -> ApiResult<Message> {
    // Never answered from a remembered send: the message must be composed to be checked.
    let outcome = send(store, actor, params, now, None)?;
    outcome
        .changes
        .into_iter()
        .find_map(|change| match change {
            Change::InsertMessage { message, .. } => Some(message),
            _ => None,
        })
        .ok_or_else(|| ApiError::internal("a checked message was not composed"))
}

/// A direct message from the organization's notification bot to `user` (reminders, scheduled
/// messages that could not be sent), as Zulip's `internal_send_private_message`. `None` if the
/// organization has no notification bot.
pub(crate) fn notify_user(
    store: &impl Store,
    actor: &Actor,
    user: &User,
    content: &str,
    now: i64,
) -> ApiResult<Option<Outcome>> {
    let Some(bot) = actor.realm.notification_bot.map(|id| store.user(id)).transpose()?.flatten() else {
        return Ok(None);
    };
    let mut participants = vec![bot.id, user.id];
    participants.sort();
    participants.dedup();
    let addressed = Addressed {
        kind: MessageKind::Direct { participants: participants.clone() },
        recipient: user.personal_recipient,
        receivers: participants,
        changes: Vec::new(),
        stream: None,
    };
    let mut ids = IdAllocator::new(store, IdKind::Message)?;
    let content = check_content(content)?;
    let composed = compose(store, actor, &bot, "Internal", addressed, content, true, now, &mut ids)?;
    Ok(Some(
        Outcome { changes: composed.changes, events: vec![composed.event], ..Outcome::default() }
            .reply("id", composed.id.0),
    ))
}

/// A notice from the organization's notification bot to a channel topic (moves, resolved
/// topics, reports). Nothing is sent if the organization has no notification bot.
pub(super) fn notify(
    store: &impl Store,
    actor: &Actor,
    stream: Stream,
    topic: String,
    content: String,
    now: i64,
    ids: &mut IdAllocator,
) -> ApiResult<Option<Composed>> {
    let Some(bot) = actor.realm.notification_bot.map(|id| store.user(id)).transpose()?.flatten() else {
        return Ok(None);
    };
    let addressed = address_stream_topic(store, stream, topic)?;
    compose(store, actor, &bot, "Internal", addressed, content, true, now, ids).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topics_are_normalized_as_zulip_does() {
        assert_eq!(check_topic("  lunch  ").ok(), Some("lunch".to_owned()));
        assert_eq!(check_topic("(no topic)").ok(), Some(String::new()));
        assert_eq!(check_topic("General Chat").ok(), Some(String::new()));
        let long = "t".repeat(70);
        assert_eq!(check_topic(&long).ok(), Some(format!("{}...", "t".repeat(57))));
        assert!(check_topic("a\u{7}b").is_err());
    }

    #[test]
    fn content_is_checked_and_truncated() {
        assert_eq!(check_content("hi \n").ok(), Some("hi".to_owned()));
        assert_eq!(check_content("\n\n  hi\n").ok(), Some("  hi".to_owned()));
        assert_eq!(check_content("  ").map_err(|e| e.msg), Err("Message must not be empty".to_owned()));
        assert!(check_content("a\0b").is_err());
        let long = "x".repeat(10_005);
        let cut = check_content(&long).unwrap_or_default();
        assert_eq!(cut.chars().count(), MAX_MESSAGE_LENGTH);
        assert!(cut.ends_with("\n[message truncated]"));
    }
}
