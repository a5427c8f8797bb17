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
use crate::groups::{Groups, channel_setting, setting_change};
use crate::ids::{StreamId, UserId};
use crate::markdown::render_description;
use crate::model::{ChannelPermissions, Role, Stream};
use crate::params::{Json, Params};
use crate::store::{Change, Store};
use crate::wire;

use super::channel_notices;
use super::channels::{TOPICS_POLICIES, check_description};
use super::messages::{CHANNEL_EVENTS_TOPIC, ChannelNotice, NoticeIds, post_channel_notice};
use super::streams::{check_stream_name, has_content_access, stream_by_name, stream_in_realm};

fn invalid_channel() -> ApiError {
    ApiError::bad_request("Invalid channel ID")
}

/// A channel whose metadata the actor may see: public ones (not for guests), subscribed ones,
/// and every channel for administrators.
fn visible(store: &impl Store, actor: &Actor, id: StreamId) -> ApiResult<Stream> {
    let stream = stream_in_realm(store, actor, id)?.ok_or_else(invalid_channel)?;
    if actor.user.is_admin() || has_content_access(store, &actor.user, &stream)? {
        Ok(stream)
    } else {
        Err(invalid_channel())
    }
}

/// `GET /streams/{stream_id}`.
pub fn get_stream_by_id(store: &impl Store, actor: &Actor, id: StreamId) -> ApiResult<Outcome> {
    let stream = visible(store, actor, id)?;
    let groups = Groups::load(store, actor.realm.id)?;
    Ok(Outcome::default().reply("stream", wire::stream(&groups, &stream)))
}

/// `GET /streams/{stream_id}/members`.
pub fn get_subscribers(store: &impl Store, actor: &Actor, id: StreamId) -> ApiResult<Outcome> {
    let stream = visible(store, actor, id)?;
    let mut subscribers = store.stream_subscribers(stream.id)?;
    subscribers.sort_unstable();
    Ok(Outcome::default().reply("subscribers", json!(subscribers)))
}

/// The channel, if the actor may administer it.
fn administered(store: &impl Store, actor: &Actor, id: StreamId) -> ApiResult<(Stream, Groups)> {
    let stream = visible(store, actor, id)?;
    let groups = Groups::load(store, actor.realm.id)?;
    let administrators = channel_setting(&groups, &stream, "can_administer_channel_group")?;
    if actor.user.is_admin() || groups.has_permission(&actor.user, &administrators, false) {
        Ok((stream, groups))
    } else {
        Err(ApiError::bad_request("You do not have permission to administer this channel."))
    }
}

/// Who sees changes to a channel: everyone who can see it.
fn watchers(store: &impl Store, groups: &Groups, stream: &Stream) -> ApiResult<Vec<UserId>> {
    if stream.is_public() {
        return Ok(groups.all_users().filter(|u| u.is_active && !u.is_guest()).map(|u| u.id).collect());
    }
    let mut users = store.stream_subscribers(stream.id)?;
    users.extend(groups.all_users().filter(|u| u.is_active && u.is_admin()).map(|u| u.id));
    users.sort_unstable();
    users.dedup();
    Ok(users)
}

fn update_event(stream: &Stream, property: &str, value: Value, extra: Map<String, Value>) -> Value {
    let mut body = json!({"type": "stream", "op": "update", "stream_id": stream.id, "name": stream.name, "property": property, "value": value});
    if let Value::Object(fields) = &mut body {
        fields.extend(extra);
    }
    body
}

/// `PATCH /streams/{stream_id}`: every given property is checked before any changes.
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
        changed.push((setting.into(), Groups::setting_json(&new), Map::new()));
        if let Some(slot) = stream.permissions.slot(setting) {
            *slot = Some(new);
        }
    }
    if changed.is_empty() && make_default.is_none() {
        return Err(ApiError::bad_request("No new data supplied"));
    }
    let users = watchers(store, &groups, &stream)?;
    let mut events: Vec<Event> = changed
        .into_iter()
        .map(|(property, value, extra)| Event::Other {
            users: users.clone(),
            body: update_event(&old, &property, value, extra),
        })
        .collect();
    if default_changed {
        events.push(super::default_channels::default_streams_event(store, actor.realm.id, &[&stream])?);
    }
    let mut outcome =
        Outcome { changes: vec![Change::PutStream(stream.clone())], events, ..Outcome::default() };
    post_change_notices(store, actor, &old, &stream, now, &mut outcome)?;
    Ok(outcome)
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
    let users = watchers(store, &groups, &archived)?;
    // Clients that show archived channels get an update; the others drop the channel (the
    // event system picks one per client by `archived_channels`).
    let mut events = vec![
        Event::Other {
            users: users.clone(),
            body: update_event(&archived, "is_archived", true.into(), Map::new()),
        },
        Event::Other {
            users,
            body: json!({"type": "stream", "op": "delete", "streams": [wire::stream(&groups, &archived)], "stream_ids": [archived.id], "archived": true}),
        },
    ];
    // An archived channel is no default channel any more, as Zulip's
    // `do_remove_default_stream` tells.
    if was_default {
        events.push(super::default_channels::default_streams_event(store, archived.realm_id, &[&archived])?);
    }
    Ok(Outcome { changes: vec![Change::PutStream(archived)], events, ..Outcome::default() })
}
