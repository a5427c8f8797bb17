//! GET    /streams/{stream_id}           get_stream_by_id
//! GET    /streams/{stream_id}/members   get_subscribers
//! PATCH  /streams/{stream_id}           update_stream
//! DELETE /streams/{stream_id}           archive_stream
//!
//! One channel: reading it and its subscribers, and administering it under Zulip's rule that
//! organization administrators and the channel's `can_administer_channel_group` may.

use serde_json::{Map, Value, json};

use crate::command::{Actor, Event, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::groups::{Groups, channel_setting, realm_permission, setting_change};
use crate::ids::{StreamId, UserId};
use crate::markdown::render_description;
use crate::model::{ChannelPermissions, Role, Stream, User};
use crate::params::{Json, Params};
use crate::store::{Change, Store};
use crate::wire;

use super::channel_notices;
use super::channels::{TOPICS_POLICIES, check_description};
use super::messages::{CHANNEL_EVENTS_TOPIC, ChannelNotice, NoticeIds, post_channel_notice};
use super::streams::{
    active_subscribers, channel_json, check_stream_name, has_content_access_in, has_metadata_access,
    metadata_watchers, stream_by_name, stream_in_realm,
};

fn invalid_channel() -> ApiError {
    ApiError::bad_request("Invalid channel ID")
}

/// A channel whose metadata the actor may see (`streams::has_metadata_access`): public ones
/// (not for guests), subscribed ones, and private ones for administrators and the members of
/// the channel's groups granting metadata access.
fn visible(store: &impl Store, actor: &Actor, id: StreamId) -> ApiResult<Stream> {
    let stream = stream_in_realm(store, actor, id)?.ok_or_else(invalid_channel)?;
    if has_metadata_access(store, &actor.user, &stream)? { Ok(stream) } else { Err(invalid_channel()) }
}

/// `GET /streams/{stream_id}`.
pub fn get_stream_by_id(store: &impl Store, actor: &Actor, id: StreamId) -> ApiResult<Outcome> {
    let stream = visible(store, actor, id)?;
    let groups = Groups::load(store, actor.realm.id)?;
    Ok(Outcome::default().reply("stream", channel_json(store, &groups, &stream)?))
}

/// `GET /streams/{stream_id}/members`: the subscribers who are active users.
pub fn get_subscribers(store: &impl Store, actor: &Actor, id: StreamId) -> ApiResult<Outcome> {
    let stream = visible(store, actor, id)?;
    Ok(Outcome::default().reply("subscribers", json!(active_subscribers(store, &stream)?)))
}

/// Whether the user administers the channel: organization administrators administer every
/// channel they can see, others through its `can_administer_channel_group` (never guests).
pub(crate) fn administers(groups: &Groups, user: &User, stream: &Stream) -> ApiResult<bool> {
    let administrators = channel_setting(groups, stream, "can_administer_channel_group")?;
    Ok(user.is_admin() || groups.has_permission(user, &administrators, false))
}

/// The channel, if the actor may administer it.
fn administered(store: &impl Store, actor: &Actor, id: StreamId) -> ApiResult<(Stream, Groups)> {
    let stream = visible(store, actor, id)?;
    let groups = Groups::load(store, actor.realm.id)?;
    if administers(&groups, &actor.user, &stream)? {
        Ok((stream, groups))
    } else {
        Err(ApiError::bad_request("You do not have permission to administer this channel."))
    }
}

fn update_event(stream: &Stream, property: &str, value: Value, extra: Map<String, Value>) -> Value {
    let mut body = json!({"type": "stream", "op": "update", "stream_id": stream.id, "name": stream.name, "property": property, "value": value});
    if let Value::Object(fields) = &mut body {
        fields.extend(extra);
    }
    body
}

/// `PATCH /streams/{stream_id}`: every given property is checked before any changes.
/// `is_archived=false` brings an archived channel back (Zulip's `do_unarchive_stream`).
pub fn update_stream(
    store: &impl Store,
    actor: &Actor,
    id: StreamId,
    params: &Params,
    now: i64,
) -> ApiResult<Outcome> {
    let (old, groups) = administered(store, actor, id)?;
    let mut stream = old.clone();
    let mut changed: Vec<(String, Value, Map<String, Value>)> = Vec::new();
    // Granting access needs access: changing who may read the channel takes content access,
    // which administering alone does not give (Zulip's "requiring content access" settings).
    let content_access = |groups: &Groups| -> ApiResult<()> {
        if has_content_access_in(store, groups, &actor.user, &old)? {
            Ok(())
        } else {
            Err(ApiError::bad_request("Channel content access is required."))
        }
    };
    // `true` is for `DELETE /streams/{stream_id}`; Zulip's view does nothing with it.
    let unarchive = params.optional::<bool>("is_archived")?.map(|archived| !archived);
    if unarchive == Some(true) {
        if !stream.is_archived {
            return Err(ApiError::bad_request("Channel is not currently deactivated"));
        }
        // Zulip counts every subscription here, deactivated users' too.
        if stream.invite_only && store.stream_subscribers(stream.id)?.is_empty() {
            return Err(ApiError::bad_request("Channel is private and have no subscribers"));
        }
        stream.is_archived = false;
    }
    if let Some(name) = params.optional::<String>("new_name")? {
        let name = check_stream_name(&name)?;
        if name == stream.name {
            return Err(ApiError::bad_request("Channel already has that name."));
        }
        // Changing only the case of the name is a rename of the channel itself.
        if stream_by_name(store, actor, &name)?.is_some_and(|s| s.id != stream.id) {
            return Err(ApiError::bad_request(format!("Channel '{name}' already exists")));
        }
        stream.name = name.clone();
        changed.push(("name".into(), name.into(), Map::new()));
    }
    if let Some(description) = params.optional::<String>("description")? {
        let description = check_description(&description)?;
        stream.rendered_description = render_description(&description);
        stream.description = description.clone();
        let extra =
            Map::from_iter([("rendered_description".to_owned(), stream.rendered_description.clone().into())]);
        changed.push(("description".into(), description.into(), extra));
    }
    let make_default = params.optional::<bool>("is_default_stream")?;
    if let Some(private) = params.optional::<bool>("is_private")? {
        if private && make_default.unwrap_or(stream.is_default) {
            return Err(ApiError::bad_request("A default channel cannot be private."));
        }
        content_access(&groups)?;
        let creators =
            if private { "can_create_private_channel_group" } else { "can_create_public_channel_group" };
        if !realm_permission(&groups, &actor.realm, &actor.user, creators)? {
            return Err(ApiError::insufficient_permission());
        }
        stream.invite_only = private;
        if !private {
            stream.history_public_to_subscribers = true;
        }
        changed.push(("invite_only".into(), private.into(), Map::new()));
    }
    if let Some(shared) = params.optional::<bool>("history_public_to_subscribers")? {
        // Public channels always share their history.
        stream.history_public_to_subscribers = shared || !stream.invite_only;
        changed.push((
            "history_public_to_subscribers".into(),
            stream.history_public_to_subscribers.into(),
            Map::new(),
        ));
    }
    if let Some(web_public) = params.optional::<bool>("is_web_public")? {
        if web_public {
            super::channels::check_may_make_web_public(&groups, actor)?;
        }
        if web_public != stream.is_web_public {
            stream.is_web_public = web_public;
            changed.push(("is_web_public".into(), web_public.into(), Map::new()));
        }
    }
    // Zulip's consistency rules: web-public channels are public and share their history.
    if stream.is_web_public && (stream.invite_only || !stream.history_public_to_subscribers) {
        return Err(ApiError::bad_request("Invalid parameters"));
    }
    if let Some(policy) = params.optional::<String>("topics_policy")? {
        if !TOPICS_POLICIES.contains(&policy.as_str()) {
            return Err(ApiError::bad_request("Invalid topics_policy"));
        }
        if !realm_permission(&groups, &actor.realm, &actor.user, "can_set_topics_policy_group")? {
            return Err(ApiError::insufficient_permission());
        }
        stream.topics_policy = policy.clone();
        changed.push(("topics_policy".into(), policy.into(), Map::new()));
    }
    if let Some(retention) = params.optional::<String>("message_retention_days")? {
        if actor.user.role != Role::Owner {
            return Err(ApiError::owner_required());
        }
        stream.message_retention_days = super::channels::retention_days(&retention)?;
        changed.push(("message_retention_days".into(), json!(stream.message_retention_days), Map::new()));
    }
    if let Some(Json(folder)) = params.optional::<Json<Option<u64>>>("folder_id")? {
        if let Some(id) = folder {
            super::channel_folders::folder_in_realm(store, actor.realm.id, id)?;
        }
        if folder != stream.folder_id {
            stream.folder_id = folder;
            changed.push(("folder_id".into(), json!(folder), Map::new()));
        }
    }
    let mut default_changed = false;
    if let Some(default) = make_default {
        if !actor.user.is_admin() {
            return Err(ApiError::administrator_required());
        }
        if default && stream.invite_only {
            return Err(ApiError::bad_request("A default channel cannot be private."));
        }
        default_changed = default != stream.is_default;
        stream.is_default = default;
    }
    for (setting, _) in ChannelPermissions::default().fields() {
        let Some(Json(change)) = params.optional::<Json<Value>>(setting)? else { continue };
        let current = channel_setting(&groups, &stream, setting)?;
        let new = setting_change(&groups, setting, &current, &change)?;
        let new = groups.parse_setting(setting, new)?;
        super::channels::check_channel_setting(&groups, setting, &new)?;
        // As Zulip's `validate_group_setting_value_change`: the same value changes nothing.
        if new == current {
            continue;
        }
        super::channels::check_may_set_channel_setting(&groups, actor, setting)?;
        if super::streams::CONTENT_ACCESS_SETTINGS.contains(&setting) {
            content_access(&groups)?;
        }
        changed.push((setting.into(), Groups::setting_json(&new), Map::new()));
        if let Some(slot) = stream.permissions.slot(setting) {
            *slot = Some(new);
        }
    }
    if changed.is_empty() && make_default.is_none() && unarchive.is_none() {
        return Err(ApiError::bad_request("No new data supplied"));
    }
    // The legacy `stream_post_policy` follows `can_send_message_group`, announced when it
    // changes (with `is_announcement_only`), as Zulip does for its older clients.
    let (old_policy, new_policy) =
        (wire::stream_post_policy(&groups, &old), wire::stream_post_policy(&groups, &stream));
    if old_policy != new_policy {
        changed.push(("stream_post_policy".into(), new_policy.into(), Map::new()));
        let announcement_only = new_policy == wire::STREAM_POST_POLICY_ADMINS;
        changed.push(("is_announcement_only".into(), announcement_only.into(), Map::new()));
    }
    let users = metadata_watchers(store, &groups, &stream)?;
    let mut events = Vec::new();
    // Those who see the channel only now (its privacy or its groups granting metadata access
    // changed) get it whole; those who no longer see it, its `delete`.
    let (mut told, mut gaining) = (users.clone(), Vec::new());
    if unarchive == Some(true) {
        events.extend(unarchive_events(store, &groups, &old, &stream, &users)?);
    } else {
        let before = metadata_watchers(store, &groups, &old)?;
        gaining = users.iter().copied().filter(|u| !before.contains(u)).collect();
        told.retain(|u| before.contains(u));
        let losing: Vec<UserId> = before.into_iter().filter(|u| !users.contains(u)).collect();
        if !losing.is_empty() {
            let shown = channel_json(store, &groups, &old)?;
            events.push(Event::Other {
                users: losing,
                body: json!({"type": "stream", "op": "delete", "streams": [shown], "stream_ids": [old.id]}),
            });
        }
    }
    events.extend(changed.into_iter().map(|(property, value, extra)| Event::Other {
        users: told.clone(),
        body: update_event(&old, &property, value, extra),
    }));
    if !gaining.is_empty() {
        let subscribers = active_subscribers(store, &stream)?;
        events.extend(appearing_events(store, &groups, &stream, &gaining, &subscribers, stream.is_archived)?);
    }
    if default_changed {
        events.push(super::default_channels::default_streams_event(store, actor.realm.id, &[&stream])?);
    }
    let mut outcome =
        Outcome { changes: vec![Change::PutStream(stream.clone())], events, ..Outcome::default() };
    if unarchive == Some(true) {
        let notice = ChannelNotice {
            stream: &stream,
            topic: CHANNEL_EVENTS_TOPIC,
            content: channel_notices::unarchived(&stream),
            joining: &[],
            read_by_actor: false,
        };
        post_channel_notice(store, actor, notice, now, &mut NoticeIds::new(store)?, &mut outcome)?;
    }
    post_change_notices(store, actor, &old, &stream, now, &mut outcome)?;
    Ok(outcome)
}

/// What an unarchived channel's watchers are told, as Zulip tells them: clients that keep
/// archived channels (`archived_channels`) get `update` `is_archived: false`; the others, which
/// dropped the channel, get it back (`appearing_events`), marked with `events::ARCHIVED_MARK`
/// so the first kind skips it, and subscribers their subscription.
fn unarchive_events(
    store: &impl Store,
    groups: &Groups,
    archived: &Stream,
    stream: &Stream,
    users: &[UserId],
) -> ApiResult<Vec<Event>> {
    let subscribers = active_subscribers(store, stream)?;
    let mut events = vec![Event::Other {
        users: users.to_vec(),
        body: update_event(archived, "is_archived", false.into(), Map::new()),
    }];
    events.extend(appearing_events(store, groups, stream, users, &subscribers, true)?);
    for &user in subscribers.iter().filter(|u| users.contains(u)) {
        let Some(sub) = store.subscription(user, stream.id)? else { continue };
        let mut add = super::subscriptions::add_event(store, groups, user, stream, &sub, &subscribers)?;
        if let Event::Other { body, .. } = &mut add {
            body[crate::events::ARCHIVED_MARK] = true.into();
        }
        events.push(add);
    }
    Ok(events)
}

/// What users who now see a channel they did not see are told: a `create` (with the
/// subscription each had once, as a role change brings it), then, for those not subscribed,
/// its subscribers as `peer_add` (Zulip's `do_change_stream_group_based_setting`). `marked`
/// events go only to clients without `archived_channels` (see `unarchive_events`).
fn appearing_events(
    store: &impl Store,
    groups: &Groups,
    stream: &Stream,
    users: &[UserId],
    subscribers: &[UserId],
    marked: bool,
) -> ApiResult<Vec<Event>> {
    let shown = wire::stream(groups, stream, subscribers.len());
    let mark = |mut body: Value| {
        if marked {
            body[crate::events::ARCHIVED_MARK] = true.into();
        }
        body
    };
    let mut events = Vec::new();
    let mut plain = Vec::new();
    for &user in users {
        let Some(sub) = store.subscription(user, stream.id)?.filter(|s| !s.active) else {
            plain.push(user);
            continue;
        };
        let Some(viewer) = groups.user(user) else { continue };
        let left = wire::subscription(groups, stream, &sub, subscribers.len(), None);
        let inherited = wire::inherited_notification_values(&super::settings::settings_of(store, viewer)?);
        events.push(Event::Other {
            users: vec![user],
            body: mark(json!({"type": "stream", "op": "create", "streams": [shown], "unsubscribed": [left],
                crate::events::INHERITED_NOTIFICATIONS_MARK: inherited})),
        });
    }
    if !plain.is_empty() {
        events.push(Event::Other {
            users: plain,
            body: mark(json!({"type": "stream", "op": "create", "streams": [shown]})),
        });
    }
    let others: Vec<UserId> = users.iter().copied().filter(|u| !subscribers.contains(u)).collect();
    if !subscribers.is_empty() && !others.is_empty() {
        events.push(Event::Other {
            users: others,
            body: mark(json!({"type": "subscription", "op": "peer_add", "stream_ids": [stream.id],
                "user_ids": subscribers})),
        });
    }
    Ok(events)
}

/// The Notification Bot's notices of a channel's changes, in the channel's "channel events"
/// topic, in Zulip's order.
fn post_change_notices(
    store: &impl Store,
    actor: &Actor,
    old: &Stream,
    new: &Stream,
    now: i64,
    outcome: &mut Outcome,
) -> ApiResult<()> {
    let user = &actor.user;
    let mut notices = Vec::new();
    if channel_notices::policy_name(old) != channel_notices::policy_name(new) {
        notices.push(channel_notices::permission_changed(user, old, new));
    }
    if old.message_retention_days != new.message_retention_days {
        notices.push(channel_notices::retention_changed(
            user,
            old.message_retention_days,
            new.message_retention_days,
        ));
    }
    if old.description != new.description {
        notices.push(channel_notices::description_changed(user, &old.description, &new.description));
    }
    if old.name != new.name {
        notices.push(channel_notices::renamed(user, &old.name, &new.name));
    }
    let mut ids = NoticeIds::new(store)?;
    for content in notices {
        let notice = ChannelNotice {
            stream: new,
            topic: CHANNEL_EVENTS_TOPIC,
            content,
            joining: &[],
            read_by_actor: false,
        };
        post_channel_notice(store, actor, notice, now, &mut ids, outcome)?;
    }
    Ok(())
}

/// `DELETE /streams/{stream_id}`: archives the channel. Its messages and subscriptions stay;
/// nobody can post to it.
pub fn archive_stream(store: &impl Store, actor: &Actor, id: StreamId) -> ApiResult<Outcome> {
    let (stream, groups) = administered(store, actor, id)?;
    if stream.is_archived {
        return Err(ApiError::bad_request("Channel is already deactivated"));
    }
    let was_default = stream.is_default;
    let archived = Stream { is_archived: true, is_default: false, ..stream };
    let users = metadata_watchers(store, &groups, &archived)?;
    let shown = channel_json(store, &groups, &archived)?;
    // Clients that show archived channels get an update; the others drop the channel (the
    // event system picks one per client by `archived_channels`).
    let mut events = vec![
        Event::Other {
            users: users.clone(),
            body: update_event(&archived, "is_archived", true.into(), Map::new()),
        },
        Event::Other {
            users,
            body: json!({"type": "stream", "op": "delete", "streams": [shown], "stream_ids": [archived.id], crate::events::ARCHIVED_MARK: true}),
        },
    ];
    // An archived channel is no default channel any more, as Zulip's
    // `do_remove_default_stream` tells.
    if was_default {
        events.push(super::default_channels::default_streams_event(store, archived.realm_id, &[&archived])?);
    }
    let mut changes = vec![Change::PutStream(archived)];
    // Nor is it in a default channel group (Zulip's `do_deactivate_stream`).
    if let Some((realm, left)) =
        super::default_channel_groups::without_archived_channel(store, &actor.realm, id)?
    {
        changes.push(Change::PutRealm(realm));
        events.extend(left);
    }
    Ok(Outcome { changes, events, ..Outcome::default() })
}
