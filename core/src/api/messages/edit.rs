//! PATCH /messages/{message_id}   update_message
//!
//! Content edits, topic edits (with resolving) and moves between channels, propagated as
//! `change_one`, `change_later` or `change_all`, with Zulip's checks in Zulip's order
//! (zulip-semantics §5.1–5.2) and its notices to the old and new threads. A whole topic's
//! move takes users' topic preferences along (`preferences_on_move`).

use std::collections::BTreeMap;
use std::ops::Bound;

use serde_json::{Value, json};

use crate::command::{Actor, Event, Outcome};
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::ids::{IdKind, MessageId, StreamId, UserId};
use crate::links::{silent_mention, topic_mention, topic_narrow};
use crate::markdown::Rendering;
use crate::model::{EditRecord, Message, MessageFlags, MessageKind, Stream};
use crate::params::Params;
use crate::permissions;
use crate::store::{Change, Direction, IdAllocator, MessageIndex, Store};
use crate::wire;

use super::super::streams::{has_content_access, stream_in_realm};
use super::access::{readable_message, visible_flags};
use super::preferences_on_move::{TopicMove, carry_preferences, moved_whole_topic};
use super::rendering::{CONTENT_FLAGS, Mentions, is_me_message, render_message};
use super::send::{Composed, check_topic, notify};

/// The prefix that marks a topic resolved.
pub const RESOLVED_TOPIC_PREFIX: &str = "✔ ";
/// Zulip allows this much past an edit or move time limit, for slow networks.
const LIMIT_GRACE_SECONDS: i64 = 20;

/// How far a topic or channel change reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PropagateMode {
    ChangeOne,
    ChangeLater,
    ChangeAll,
}

impl PropagateMode {
    fn parse(raw: &str) -> ApiResult<Self> {
        match raw {
            "change_one" => Ok(PropagateMode::ChangeOne),
            "change_later" => Ok(PropagateMode::ChangeLater),
            "change_all" => Ok(PropagateMode::ChangeAll),
            _ => Err(ApiError::bad_request("Invalid propagate_mode")),
        }
    }

    fn name(self) -> &'static str {
        match self {
            PropagateMode::ChangeOne => "change_one",
            PropagateMode::ChangeLater => "change_later",
            PropagateMode::ChangeAll => "change_all",
        }
    }
}

/// What kind of topic change a request makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TopicChange {
    None,
    Rename,
    Resolve,
    Unresolve,
}

/// Zulip's resolve detection: resolving adds exactly the prefix; unresolving strips every
/// leading `✔` and space (Python's `lstrip("✔ ")`).
pub fn classify_topic_change(old: &str, new: &str) -> TopicChange {
    if old == new {
        return TopicChange::None;
    }
    if new.starts_with(RESOLVED_TOPIC_PREFIX)
        && !old.starts_with(RESOLVED_TOPIC_PREFIX)
        && &new[RESOLVED_TOPIC_PREFIX.len()..] == old
    {
        return TopicChange::Resolve;
    }
    if old.starts_with(RESOLVED_TOPIC_PREFIX)
        && !new.starts_with(RESOLVED_TOPIC_PREFIX)
        && old.trim_start_matches(['✔', ' ']) == new
    {
        return TopicChange::Unresolve;
    }
    TopicChange::Rename
}

fn within_limit(limit: Option<i64>, sent: i64, now: i64) -> bool {
    limit.is_none_or(|limit| now - sent <= limit + LIMIT_GRACE_SECONDS)
}

/// The parsed request.
struct Request {
    content: Option<String>,
    topic: Option<String>,
    stream: Option<Stream>,
    propagate_mode: PropagateMode,
    notify_old: bool,
    notify_new: bool,
    /// The SHA-256 (hex) of the content the client last saw: an edit made from an older
    /// version is refused rather than overwriting a newer one.
    prev_content_sha256: Option<String>,
}

fn parse_request(
    store: &impl Store,
    actor: &Actor,
    message: &Message,
    params: &Params,
) -> ApiResult<Request> {
    let content = params.optional::<String>("content")?;
    // As `normalize_body` refuses it for a new message.
    if content.as_deref().is_some_and(|c| c.contains('\0')) {
        return Err(ApiError::bad_request("Message must not contain null bytes"));
    }
    let topic_raw = match params.optional::<String>("topic")? {
        Some(t) => Some(t),
        None => params.optional::<String>("subject")?,
    };
    let stream_id = params.optional::<u64>("stream_id")?.map(StreamId);
    let propagate_mode = PropagateMode::parse(&params.or("propagate_mode", "change_one".to_owned())?)?;
    let notify_old = params.or("send_notification_to_old_thread", false)?;
    let notify_new = params.or("send_notification_to_new_thread", true)?;
    let prev_content_sha256 = params.optional::<String>("prev_content_sha256")?;

    if message.is_direct() {
        if topic_raw.is_some() {
            return Err(ApiError::bad_request("Direct messages cannot have topics."));
        }
        if stream_id.is_some() {
            return Err(ApiError::bad_request("Direct messages cannot be moved to channels."));
        }
    }
    let topic = match topic_raw {
        Some(raw) => {
            let trimmed = raw.trim();
            if trimmed == "✔"
                || trimmed == format!("{RESOLVED_TOPIC_PREFIX}{}", crate::wire::EMPTY_TOPIC_DISPLAY_NAME)
            {
                return Err(ApiError::bad_request("General chat cannot be marked as resolved"));
            }
            Some(check_topic(&raw)?).filter(|t| t != message.topic())
        }
        None => None,
    };
    let stream = match stream_id.filter(|id| Some(*id) != message.stream_id()) {
        Some(id) => Some(
            stream_in_realm(store, actor, id)?.ok_or_else(|| ApiError::bad_request("Invalid channel ID"))?,
        ),
        None => None,
    };
    if content.is_none() && topic.is_none() && stream.is_none() {
        return Err(ApiError::bad_request("Nothing to change"));
    }
    if propagate_mode != PropagateMode::ChangeOne && topic.is_none() && stream.is_none() {
        return Err(ApiError::bad_request("Invalid propagate_mode without topic edit"));
    }
    if content.is_some() && stream.is_some() {
        return Err(ApiError::bad_request("Cannot change message content while changing channel"));
    }
    // A widget's content made it what it is (Zulip's `is_widget_message`: any submessage).
    if content.is_some() && !store.submessages(message.id)?.is_empty() {
        return Err(ApiError::bad_request("Widgets cannot be edited."));
    }
    Ok(Request { content, topic, stream, propagate_mode, notify_old, notify_new, prev_content_sha256 })
}

/// The messages a topic or channel change moves: the target alone, or with those after it, or
/// the whole topic (case-insensitively). Moves between channels take only what the actor can
/// see; renaming a topic takes its whole history.
fn messages_to_move(
    store: &impl Store,
    actor: &Actor,
    message: &Message,
    mode: PropagateMode,
    between_channels: bool,
) -> ApiResult<Vec<Message>> {
    if mode == PropagateMode::ChangeOne {
        return Ok(vec![message.clone()]);
    }
    let index = MessageIndex::Topic(message.recipient_id, message.topic().to_lowercase());
    let from = match mode {
        PropagateMode::ChangeLater => Bound::Included(message.id),
        _ => Bound::Unbounded,
    };
    let mut moved = Vec::new();
    for id in store.message_ids(&index, from, Bound::Unbounded, Direction::Ascending)? {
        let Some(candidate) = store.message(id?)? else { continue };
        if between_channels && visible_flags(store, &actor.user, &candidate)?.is_none() {
            continue;
        }
        moved.push(candidate);
    }
    Ok(moved)
}

/// Who may edit a message's content (Zulip's `validate_user_can_edit_message`): only the
/// sender, while the organization allows editing, within its time limit.
pub fn check_can_edit_content(actor: &Actor, message: &Message, now: i64) -> ApiResult<()> {
    let settings = &actor.realm.settings;
    if !settings.allow_message_editing {
        return Err(ApiError::bad_request("Your organization has turned off message editing"));
    }
    if message.sender_id != actor.user.id {
        return Err(ApiError::bad_request("You don't have permission to edit this message"));
    }
    if !within_limit(settings.message_content_edit_limit_seconds, message.timestamp, now) {
        return Err(ApiError::bad_request("The time limit for editing this message has passed"));
    }
    Ok(())
}

/// Zulip's race check (`validate_message_edit_payload`): the client names the content it
/// edited by its SHA-256, and if the message has changed since, the edit is refused. Zulip
/// checks it on any edit, moves included, so that the parameter means one thing.
fn check_previous_content(message: &Message, expected_sha256: &str) -> ApiResult<()> {
    if content_sha256(&message.content) == expected_sha256 {
        return Ok(());
    }
    Err(ApiError::new(
        ErrorCode::ExpectationMismatch,
        "'prev_content_sha256' value does not match the expected value.",
    ))
}

/// The lowercase hex SHA-256 of a message's Markdown, as Zulip's `sha256_hash` spells it.
pub fn content_sha256(content: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(content.as_bytes()).iter().map(|byte| format!("{byte:02x}")).collect()
}

/// `PATCH /messages/{message_id}`.
pub fn update_message(
    store: &impl Store,
    actor: &Actor,
    id: MessageId,
    params: &Params,
    now: i64,
) -> ApiResult<Outcome> {
    let message = readable_message(store, actor, id)?;
    let old_stream = match message.stream_id() {
        Some(stream_id) => Some(store.stream(stream_id)?.ok_or_else(ApiError::invalid_message)?),
        None => None,
    };
    if old_stream.as_ref().is_some_and(|s| s.is_archived) {
        return Err(ApiError::invalid_message());
    }
    let request = parse_request(store, actor, &message, params)?;
    let settings = &actor.realm.settings;

    if request.content.is_some() {
        check_can_edit_content(actor, &message, now)?;
    }
    if let Some(expected) = &request.prev_content_sha256 {
        check_previous_content(&message, expected)?;
    }
    let topic_change = match &request.topic {
        Some(new) => classify_topic_change(message.topic(), new),
        None => TopicChange::None,
    };
    let moderator = permissions::is_moderator(&actor.user);
    let allowed = permissions::Permissions::load(store, actor)?;
    let source = old_stream.as_ref();
    match topic_change {
        TopicChange::Resolve | TopicChange::Unresolve => {
            if !allowed.can_resolve_topics(source)? {
                return Err(ApiError::bad_request("You don't have permission to resolve topics"));
            }
        }
        TopicChange::Rename => {
            if !allowed.can_move_between_topics(source)? {
                return Err(ApiError::bad_request("You don't have permission to edit this message"));
            }
            if !moderator
                && !within_limit(settings.move_messages_within_stream_limit_seconds, message.timestamp, now)
            {
                return Err(ApiError::bad_request(
                    "The time limit for editing this message's topic has passed.",
                ));
            }
        }
        TopicChange::None => {}
    }
    if let Some(target) = &request.stream {
        if !allowed.can_move_between_channels(source)? {
            return Err(ApiError::bad_request("You don't have permission to move this message"));
        }
        if target.is_archived || !has_content_access(store, &actor.user, target)? {
            return Err(ApiError::bad_request(format!(
                "Not authorized to send to channel '{}'",
                target.name
            )));
        }
        if !moderator
            && !within_limit(settings.move_messages_between_streams_limit_seconds, message.timestamp, now)
        {
            return Err(ApiError::bad_request(
                "The time limit for editing this message's channel has passed",
            ));
        }
    }

    let moving = request.topic.is_some() || request.stream.is_some();
    let mut affected = if moving {
        messages_to_move(store, actor, &message, request.propagate_mode, request.stream.is_some())?
    } else {
        vec![message.clone()]
    };
    let pure_resolve =
        matches!(topic_change, TopicChange::Resolve | TopicChange::Unresolve) && request.stream.is_none();
    if moving && !moderator && !pure_resolve && request.propagate_mode == PropagateMode::ChangeAll {
        let limit = if request.stream.is_some() {
            settings.move_messages_between_streams_limit_seconds
        } else {
            settings.move_messages_within_stream_limit_seconds
        };
        let allowed: Vec<&Message> =
            affected.iter().filter(|m| within_limit(limit, m.timestamp, now)).collect();
        if allowed.len() < affected.len() {
            return Err(ApiError::new(
                ErrorCode::MoveMessagesTimeLimitExceeded,
                format!(
                    "You only have permission to move the {}/{} most recent messages in this topic.",
                    allowed.len(),
                    affected.len()
                ),
            )
            .with("first_message_id_allowed_to_move", allowed.first().map(|m| m.id.0))
            .with("total_messages_in_topic", affected.len())
            .with("total_messages_allowed_to_move", allowed.len()));
        }
    }

    let mut outcome = Outcome::default();
    let new_stream = request.stream.clone().or_else(|| old_stream.clone());
    let new_topic = request.topic.clone().unwrap_or_else(|| message.topic().to_owned());
    let rendered = match &request.content {
        Some(content) => Some(render_message(store, actor, &actor.user, content)?),
        None => None,
    };
    let mut detached_uploads = Vec::new();
    if let Some(rendered) = &rendered {
        // Uploads the new content links are claimed; those only the old content linked are not.
        let previous = render_message(store, actor, &actor.user, &message.content)?.user_upload_paths;
        let claimed = crate::api::uploads::claim_attachments(
            store,
            &actor.user,
            message.id,
            message.timestamp,
            &rendered.user_upload_paths,
            &previous,
        )?;
        outcome.changes.extend(claimed.changes);
        outcome.events.extend(claimed.events);
        detached_uploads = claimed.detached;
    }
    let counts_as_move = request.stream.is_some() || topic_change == TopicChange::Rename;
    for moved in &mut affected {
        let mut record = EditRecord { user_id: actor.user.id, timestamp: now, ..EditRecord::default() };
        if let (Some(content), Some(rendered), true) = (&request.content, &rendered, moved.id == message.id) {
            record.prev_content = Some(std::mem::replace(&mut moved.content, content.clone()));
            record.prev_rendered_content =
                Some(std::mem::replace(&mut moved.rendered_content, rendered.html.as_str().into()).html());
            moved.has_link = rendered.has_link;
            moved.has_image = rendered.has_image;
            moved.has_attachment = rendered.has_attachment;
            moved.is_me_message = is_me_message(content);
            moved.last_edit_timestamp = Some(now);
        }
        if let MessageKind::Stream { stream_id, topic } = &mut moved.kind {
            if request.topic.is_some() {
                record.prev_topic = Some(std::mem::replace(topic, new_topic.clone()));
                record.topic = Some(new_topic.clone());
            }
            if let Some(target) = &request.stream {
                record.prev_stream = Some(*stream_id);
                record.stream = Some(target.id);
                *stream_id = target.id;
                moved.recipient_id = target.recipient_id;
            }
        }
        if counts_as_move {
            moved.last_moved_timestamp = Some(now);
        }
        moved.edit_history.push(record);
        outcome.changes.push(Change::UpdateMessage(moved.clone()));
    }

    let mut losing: Vec<UserId> = Vec::new();
    if let Some(target) = &request.stream {
        losing = move_access(store, target, &affected, &mut outcome)?;
    }
    if let (Some(from), Some(to), true) = (&old_stream, &new_stream, moving)
        && moved_whole_topic(
            store,
            actor,
            &message,
            &affected,
            request.propagate_mode == PropagateMode::ChangeAll,
        )?
    {
        let place = TopicMove { from, from_topic: message.topic(), to, to_topic: &new_topic };
        carry_preferences(store, actor, &place, now, &mut outcome)?;
    }
    let edited = affected.iter().find(|m| m.id == message.id).unwrap_or(&message);
    let content_flags = match &rendered {
        Some(rendering) => recomputed_content_flags(store, edited, rendering, &mut outcome)?,
        None => BTreeMap::new(),
    };
    outcome.events.extend(update_events(
        store,
        actor,
        &message,
        &affected,
        &request,
        &rendered,
        &content_flags,
        &losing,
        now,
    )?);
    if !losing.is_empty()
        && let Some(old) = &old_stream
    {
        outcome.events.push(Event::Other {
            users: losing,
            body: json!({
                "type": "delete_message",
                "message_type": "stream",
                "message_ids": affected.iter().map(|m| m.id).collect::<Vec<_>>(),
                "stream_id": old.id,
                "topic": message.topic(),
            }),
        });
    }

    if let (Some(old), Some(new)) = (&old_stream, &new_stream) {
        let notices =
            Notices { actor, old, new, old_topic: message.topic(), new_topic: &new_topic, moved: &affected };
        let mut ids = IdAllocator::new(store, IdKind::Message)?;
        let mut composed: Vec<Composed> = Vec::new();
        match topic_change {
            TopicChange::Resolve | TopicChange::Unresolve if request.stream.is_none() => {
                let verb = if topic_change == TopicChange::Resolve { "resolved" } else { "unresolved" };
                let text = format!(
                    "{} has marked this topic as {verb}.",
                    silent_mention(&actor.user.full_name, actor.user.id)
                );
                let notice = notify(store, actor, new.clone(), new_topic.clone(), text, now, &mut ids)?;
                if let Some(mut notice) = notice {
                    // The store still files the topic's preferences under its old name: this
                    // command carries them to the new one.
                    mark_resolve_notice_read(store, &mut notice, new.id, message.topic())?;
                    composed.push(notice);
                }
            }
            _ => {
                if request.notify_old {
                    composed.extend(notify(
                        store,
                        actor,
                        old.clone(),
                        message.topic().to_owned(),
                        notices.old_thread(request.propagate_mode),
                        now,
                        &mut ids,
                    )?);
                }
                if request.notify_new && counts_as_move {
                    composed.extend(notify(
                        store,
                        actor,
                        new.clone(),
                        new_topic.clone(),
                        notices.new_thread(request.propagate_mode),
                        now,
                        &mut ids,
                    )?);
                }
            }
        }
        for notice in composed {
            outcome.changes.extend(notice.changes);
            outcome.events.push(notice.event);
            outcome.events.extend(notice.followups);
        }
    }
    if let Some(target) = &request.stream {
        // A notice sent to the channel made it active already.
        let noticed = outcome
            .changes
            .iter()
            .any(|c| matches!(c, Change::PutStream(s) if s.id == target.id && s.is_recently_active));
        if !noticed
            && let Some((change, event)) =
                crate::api::channel_activity::after_move_into(store, target, &affected, now)?
        {
            outcome.changes.push(change);
            outcome.events.push(event);
        }
    }
    Ok(outcome.reply("detached_uploads", detached_uploads))
}

/// Keeps flags rows in step with a move between channels: subscribers of a channel with
/// protected history gain rows (read); users who cannot see the new channel lose theirs.
/// Returns those who lost access, who get a `delete_message` event.
fn move_access(
    store: &impl Store,
    target: &Stream,
    moved: &[Message],
    outcome: &mut Outcome,
) -> ApiResult<Vec<UserId>> {
    let subscribers = store.stream_subscribers(target.id)?;
    let mut losing: Vec<UserId> = Vec::new();
    for message in moved {
        let holders = store.message_users(message.id)?;
        for user_id in &holders {
            if subscribers.contains(user_id) {
                continue;
            }
            let Some(user) = store.user(*user_id)? else { continue };
            if !has_content_access(store, &user, target)? {
                outcome.changes.push(Change::DeleteMessageFlags { user: *user_id, message: message.id });
                if !losing.contains(user_id) {
                    losing.push(*user_id);
                }
            }
        }
        if !target.history_public_to_subscribers {
            for subscriber in &subscribers {
                if !holders.contains(subscriber) {
                    outcome.changes.push(Change::SetMessageFlags {
                        user: *subscriber,
                        message: message.id,
                        flags: MessageFlags::READ,
                    });
                }
            }
        }
    }
    Ok(losing)
}

/// Re-decides the content flags (mentions, wildcards, alert words) of everyone who has the
/// edited message, as Zulip does on a content edit; returns each holder's flags after.
fn recomputed_content_flags(
    store: &impl Store,
    edited: &Message,
    rendering: &Rendering,
    outcome: &mut Outcome,
) -> ApiResult<BTreeMap<UserId, MessageFlags>> {
    let holders = store.message_users(edited.id)?;
    let mentions = Mentions::of(store, rendering, edited, &holders)?;
    mentions.check_allowed(edited, holders.len())?;
    let mut after = BTreeMap::new();
    for user in holders {
        let Some(before) = store.message_flags(user, edited.id)? else { continue };
        let flags = before.without(CONTENT_FLAGS).with(mentions.flags_for(user));
        if flags != before {
            outcome.changes.push(Change::SetMessageFlags { user, message: edited.id, flags });
        }
        after.insert(user, flags);
    }
    Ok(after)
}

/// The `update_message` event, to everyone who has the message after the change, each with
/// their own flags. Those a move takes the messages away from get only `delete_message`, as in
/// Zulip.
#[allow(clippy::too_many_arguments)]
fn update_events(
    store: &impl Store,
    actor: &Actor,
    target: &Message,
    moved: &[Message],
    request: &Request,
    rendered: &Option<Rendering>,
    content_flags: &BTreeMap<UserId, MessageFlags>,
    losing: &[UserId],
    now: i64,
) -> ApiResult<Vec<Event>> {
    let mut body = json!({
        "type": "update_message",
        "user_id": actor.user.id,
        "edit_timestamp": now,
        "message_id": target.id,
        "message_ids": moved.iter().map(|m| m.id).collect::<Vec<_>>(),
        "rendering_only": false,
    });
    if let (Some(content), Some(rendered)) = (&request.content, rendered) {
        body["orig_content"] = target.content.clone().into();
        body["orig_rendered_content"] = target.rendered_content.html().into();
        body["content"] = content.clone().into();
        body["rendered_content"] = rendered.html.clone().into();
        body["is_me_message"] = is_me_message(content).into();
    }
    if let Some(stream_id) = target.stream_id() {
        body["stream_id"] = json!(stream_id);
    }
    if request.topic.is_some() || request.stream.is_some() {
        body["propagate_mode"] = request.propagate_mode.name().into();
        body["orig_subject"] = target.topic().into();
        let topic = request.topic.as_deref().unwrap_or(target.topic());
        body["topic_links"] = wire::topic_links(store, &actor.realm, topic)?;
    }
    if let Some(topic) = &request.topic {
        body["subject"] = topic.clone().into();
    }
    if let Some(stream) = &request.stream {
        body["new_stream_id"] = json!(stream.id);
    }
    let mut users: Vec<UserId> = Vec::new();
    for m in moved {
        for user in store.message_users(m.id)? {
            if !users.contains(&user) {
                users.push(user);
            }
        }
    }
    // The channel's subscribers without a copy hear of it too, flagged read (Zulip's
    // `do_update_message` and its `subscriber_info`): one who read the channel's history may
    // show the message.
    if let Some(stream_id) = target.stream_id() {
        for user in active_subscribers(store, stream_id)? {
            if !users.contains(&user) {
                users.push(user);
            }
        }
    }
    if let Some(stream) = &request.stream {
        for user in store.stream_subscribers(stream.id)? {
            if !users.contains(&user) && !stream.invite_only {
                users.push(user);
            }
        }
    }
    let mut events = Vec::new();
    for user in users.into_iter().filter(|u| !losing.contains(u)) {
        let flags = match content_flags.get(&user) {
            Some(flags) => *flags,
            None => store.message_flags(user, target.id)?.unwrap_or(MessageFlags::READ),
        };
        let mut personal = body.clone();
        personal["flags"] = json!(flags.names());
        events.push(Event::Other { users: vec![user], body: personal });
    }
    Ok(events)
}

/// The notices Zulip's Notification Bot posts when messages move.
struct Notices<'a> {
    actor: &'a Actor,
    old: &'a Stream,
    new: &'a Stream,
    old_topic: &'a str,
    new_topic: &'a str,
    moved: &'a [Message],
}

impl Notices<'_> {
    fn by(&self) -> String {
        silent_mention(&self.actor.user.full_name, self.actor.user.id)
    }

    fn old_thread(&self, mode: PropagateMode) -> String {
        let to = topic_mention(&self.new.name, self.new_topic);
        match (mode, self.moved.len()) {
            (PropagateMode::ChangeAll, _) => format!("This topic was moved to {to} by {}.", self.by()),
            (_, 1) => format!("A message was moved from this topic to {to} by {}.", self.by()),
            (_, n) => format!("{n} messages were moved from this topic to {to} by {}.", self.by()),
        }
    }

    fn new_thread(&self, mode: PropagateMode) -> String {
        let from = topic_mention(&self.old.name, self.old_topic);
        match (mode, self.moved.first()) {
            (PropagateMode::ChangeAll, _) => {
                format!("This topic was moved here from {from} by {}.", self.by())
            }
            (_, Some(first)) if self.moved.len() == 1 => {
                let link = topic_narrow(self.new.id, &self.new.name, self.new_topic, Some(first.id));
                format!("[A message]({link}) was moved here from {from} by {}.", self.by())
            }
            (_, _) => format!("{} messages were moved here from {from} by {}.", self.moved.len(), self.by()),
        }
    }
}

/// A channel's subscribers whose accounts are active: those Zulip tells of edits and
/// deletions of the channel's messages.
pub(super) fn active_subscribers(store: &impl Store, stream_id: StreamId) -> ApiResult<Vec<UserId>> {
    let mut active = Vec::new();
    for user in store.stream_subscribers(stream_id)? {
        if store.user(user)?.is_some_and(|u| u.is_active) {
            active.push(user);
        }
    }
    Ok(active)
}

/// A resolved-topic notice arrives read for each receiver whose
/// `resolved_topic_notice_auto_read_policy` says so (feature level 385): `always`, or
/// `except_followed` unless they follow the topic (`topic`, as the store has it before the
/// rename); `never` leaves it unread.
fn mark_resolve_notice_read(
    store: &impl Store,
    notice: &mut Composed,
    stream: StreamId,
    topic: &str,
) -> ApiResult<()> {
    let mut reads = Vec::new();
    if let Event::Message { receivers, .. } = &notice.event {
        for (user, _) in receivers {
            let settings = store.user_settings(*user)?;
            let policy =
                crate::model::settings::user_setting(&settings, "resolved_topic_notice_auto_read_policy");
            let read = match policy.as_ref().and_then(Value::as_str) {
                Some("always") => true,
                Some("never") => false,
                _ => {
                    let followed = crate::api::user_topics::Preferences::new(*user)
                        .policy(store, stream, topic)?
                        == crate::api::user_topics::FOLLOWED;
                    !followed
                }
            };
            if read {
                reads.push(*user);
            }
        }
    }
    let mark = |receivers: &mut Vec<(UserId, MessageFlags)>| {
        for (user, flags) in receivers.iter_mut() {
            if reads.contains(user) {
                *flags = flags.with(MessageFlags::READ);
            }
        }
    };
    if let Event::Message { receivers, .. } = &mut notice.event {
        mark(receivers);
    }
    for change in &mut notice.changes {
        if let Change::InsertMessage { receivers, .. } = change {
            mark(receivers);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolving_is_told_apart_from_renaming() {
        let cases = [
            ("lunch", "✔ lunch", TopicChange::Resolve),
            ("✔ lunch", "lunch", TopicChange::Unresolve),
            ("✔ ✔ lunch", "lunch", TopicChange::Unresolve),
            ("lunch", "✔ dinner", TopicChange::Rename),
            ("lunch", "dinner", TopicChange::Rename),
            ("lunch", "lunch", TopicChange::None),
        ];
        for (old, new, expected) in cases {
            assert_eq!(classify_topic_change(old, new), expected, "{old} -> {new}");
        }
    }

    #[test]
    fn limits_allow_twenty_seconds_of_grace() {
        assert!(within_limit(Some(600), 0, 620));
        assert!(!within_limit(Some(600), 0, 621));
        assert!(within_limit(None, 0, i64::MAX));
    }

    #[test]
    fn content_is_hashed_as_zulip_hashes_it() {
        // FIPS 180-2's test vector, and a non-ASCII text hashed as its UTF-8 bytes.
        assert_eq!(content_sha256("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assert_eq!(content_sha256("é"), "4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c");
    }
}
