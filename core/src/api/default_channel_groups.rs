//! POST   /default_stream_groups/create             create_default_stream_group
//! PATCH  /default_stream_groups/{group_id}         update_default_stream_group_info
//! PATCH  /default_stream_groups/{group_id}/streams update_default_stream_group_streams
//! DELETE /default_stream_groups/{group_id}         remove_default_stream_group
//!
//! Default channel groups (Zulip's `DefaultStreamGroup`): named sets of channels that people
//! signing up may choose to join together. Administrators manage them; members (not guests)
//! learn them from register's `realm_default_stream_groups` and the `default_stream_groups`
//! event, which always carries every group. Groups are sorted by name and their channels, given
//! as ids since feature level 330, by channel name. A group holds no default channel (those are
//! joined anyway), and loses a channel when it is archived. The groups live on the organization
//! record, as its playgrounds do: an organization has a handful.

use serde_json::{Value, json};

use crate::command::{Actor, Event, Outcome, require_admin};
use crate::error::{ApiError, ApiResult};
use crate::ids::StreamId;
use crate::model::{DefaultChannelGroup, Realm, Stream};
use crate::params::{Json, Params};
use crate::store::{Change, Store};

use super::default_channels::audience;
use super::streams::{has_content_access, stream_by_name};

/// Zulip's `DefaultStreamGroup.MAX_NAME_LENGTH`.
const MAX_NAME_LENGTH: usize = 60;
/// The length of Zulip's `description` column, which it does not check before writing (an
/// error of its database); here it is refused in words.
const MAX_DESCRIPTION_LENGTH: usize = 1024;

/// The groups as register and events carry them: sorted by name, each with its channels' ids
/// sorted by channel name.
pub fn default_stream_groups_json(store: &impl Store, realm: &Realm) -> ApiResult<Value> {
    let mut groups: Vec<&DefaultChannelGroup> = realm.settings.default_channel_groups.iter().collect();
    groups.sort_by(|a, b| a.name.cmp(&b.name));
    let mut shown = Vec::with_capacity(groups.len());
    for group in groups {
        let mut channels: Vec<Stream> = Vec::with_capacity(group.stream_ids.len());
        for id in &group.stream_ids {
            channels.extend(store.stream(*id)?);
        }
        channels.sort_by(|a, b| (a.name.to_lowercase(), &a.name).cmp(&(b.name.to_lowercase(), &b.name)));
        let ids: Vec<StreamId> = channels.iter().map(|s| s.id).collect();
        shown.push(
            json!({"name": group.name, "id": group.id, "description": group.description, "streams": ids}),
        );
    }
    Ok(Value::Array(shown))
}

/// The `default_stream_groups` event for the organization as it is in `realm`.
pub fn default_stream_groups_event(store: &impl Store, realm: &Realm) -> ApiResult<Event> {
    Ok(Event::Other {
        users: audience(store, realm.id)?,
        body: json!({
            "type": "default_stream_groups",
            "default_stream_groups": default_stream_groups_json(store, realm)?,
        }),
    })
}

/// The organization with its groups changed: stored, and everyone told.
fn stored(store: &impl Store, realm: Realm) -> ApiResult<Outcome> {
    let event = default_stream_groups_event(store, &realm)?;
    Ok(Outcome { changes: vec![Change::PutRealm(realm)], events: vec![event], ..Outcome::default() })
}

/// After `archived` is archived: the organization without it in any group, with one event per
/// group it left (Zulip's `do_deactivate_stream` removes it group by group), or `None` when no
/// group held it.
pub fn without_archived_channel(
    store: &impl Store,
    realm: &Realm,
    archived: StreamId,
) -> ApiResult<Option<(Realm, Vec<Event>)>> {
    let mut realm = realm.clone();
    let mut events = Vec::new();
    for index in 0..realm.settings.default_channel_groups.len() {
        let channels = &mut realm.settings.default_channel_groups[index].stream_ids;
        if channels.contains(&archived) {
            channels.retain(|id| *id != archived);
            events.push(default_stream_groups_event(store, &realm)?);
        }
    }
    Ok((!events.is_empty()).then_some((realm, events)))
}

/// Zulip's `access_stream_by_name`: an active channel whose content the actor may read; any
/// other name is invalid in the same words.
fn accessible_channels(store: &impl Store, actor: &Actor, names: &[String]) -> ApiResult<Vec<Stream>> {
    let mut channels = Vec::with_capacity(names.len());
    for name in names {
        let invalid = || ApiError::bad_request(format!("Invalid channel name '{name}'"));
        let stream = stream_by_name(store, actor, name)?.ok_or_else(invalid)?;
        if stream.is_archived || !has_content_access(store, &actor.user, &stream)? {
            return Err(invalid());
        }
        channels.push(stream);
    }
    Ok(channels)
}

/// Zulip's `access_default_stream_group_by_id`: the group's index in the organization's list.
fn group_index(realm: &Realm, id: u64) -> ApiResult<usize> {
    realm
        .settings
        .default_channel_groups
        .iter()
        .position(|g| g.id == id)
        .ok_or_else(|| ApiError::bad_request(format!("Default channel group with id '{id}' does not exist.")))
}

/// Zulip's `check_default_stream_group_name`, which it applies to new groups.
fn check_name(name: &str) -> ApiResult<()> {
    if name.trim().is_empty() {
        return Err(ApiError::bad_request(format!("Invalid default channel group name '{name}'")));
    }
    check_stored_name(name)
}

/// What the name column holds: Zulip renames without `check_default_stream_group_name`, and
/// then its database refuses too long a name or a NULL character, as an error of its own.
fn check_stored_name(name: &str) -> ApiResult<()> {
    if name.chars().count() > MAX_NAME_LENGTH {
        return Err(ApiError::bad_request(format!(
            "Default channel group name too long (limit: {MAX_NAME_LENGTH} characters)"
        )));
    }
    if name.contains('\0') {
        return Err(ApiError::bad_request(format!(
            "Default channel group name '{name}' contains NULL (0x00) characters."
        )));
    }
    Ok(())
}

fn check_description(description: &str) -> ApiResult<()> {
    if description.chars().count() > MAX_DESCRIPTION_LENGTH {
        return Err(ApiError::bad_request(format!(
            "Default channel group description too long (limit: {MAX_DESCRIPTION_LENGTH} characters)"
        )));
    }
    Ok(())
}

fn name_taken(realm: &Realm, name: &str) -> bool {
    realm.settings.default_channel_groups.iter().any(|g| g.name == name)
}

/// Default channels are joined by everyone; Zulip keeps them out of groups.
fn refuse_default_channel(stream: &Stream, group_name: &str) -> ApiResult<()> {
    if stream.is_default {
        return Err(ApiError::bad_request(format!(
            "'{}' is a default channel and cannot be added to '{group_name}'",
            stream.name
        )));
    }
    Ok(())
}

/// `POST /default_stream_groups/create`: administrators only.
pub fn create_default_stream_group(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Outcome> {
    require_admin(actor)?;
    let name: String = params.required("group_name")?;
    let description: String = params.required("description")?;
    let names = params.required::<Json<Vec<String>>>("stream_names")?.into_inner();
    let channels = accessible_channels(store, actor, &names)?;
    for stream in &channels {
        refuse_default_channel(stream, &name)?;
    }
    check_name(&name)?;
    check_description(&description)?;
    let mut realm = actor.realm.clone();
    if name_taken(&realm, &name) {
        return Err(ApiError::bad_request(format!("Default channel group '{name}' already exists")));
    }
    let mut stream_ids: Vec<StreamId> = Vec::with_capacity(channels.len());
    for stream in &channels {
        if !stream_ids.contains(&stream.id) {
            stream_ids.push(stream.id);
        }
    }
    let id = realm.settings.next_default_channel_group_id.max(1);
    realm.settings.next_default_channel_group_id = id + 1;
    realm.settings.default_channel_groups.push(DefaultChannelGroup { id, name, description, stream_ids });
    stored(store, realm)
}

/// `PATCH /default_stream_groups/{group_id}`: a new name, a new description, or both (each
/// told in an event of its own, as Zulip changes them one after the other).
pub fn update_default_stream_group_info(
    store: &impl Store,
    actor: &Actor,
    group_id: u64,
    params: &Params,
) -> ApiResult<Outcome> {
    require_admin(actor)?;
    let new_name: Option<String> = params.optional("new_group_name")?;
    let new_description: Option<String> = params.optional("new_description")?;
    // Zulip tests the values' truth: an empty one counts as not given.
    if new_name.as_deref().is_none_or(str::is_empty) && new_description.as_deref().is_none_or(str::is_empty) {
        return Err(ApiError::bad_request("You must pass \"new_description\" or \"new_group_name\"."));
    }
    let mut realm = actor.realm.clone();
    let index = group_index(&realm, group_id)?;
    let mut outcome = Outcome::default();
    if let Some(name) = new_name {
        if realm.settings.default_channel_groups[index].name == name {
            return Err(ApiError::bad_request(format!(
                "This default channel group is already named '{name}'"
            )));
        }
        if name_taken(&realm, &name) {
            return Err(ApiError::bad_request(format!("Default channel group '{name}' already exists")));
        }
        check_stored_name(&name)?;
        realm.settings.default_channel_groups[index].name = name;
        outcome.events.push(default_stream_groups_event(store, &realm)?);
    }
    if let Some(description) = new_description {
        check_description(&description)?;
        realm.settings.default_channel_groups[index].description = description;
        outcome.events.push(default_stream_groups_event(store, &realm)?);
    }
    outcome.changes.push(Change::PutRealm(realm));
    Ok(outcome)
}

/// `PATCH /default_stream_groups/{group_id}/streams`: `op` `add` or `remove` the named
/// channels.
pub fn update_default_stream_group_streams(
    store: &impl Store,
    actor: &Actor,
    group_id: u64,
    params: &Params,
) -> ApiResult<Outcome> {
    require_admin(actor)?;
    let op: String = params.required("op")?;
    let names = params.required::<Json<Vec<String>>>("stream_names")?.into_inner();
    let mut realm = actor.realm.clone();
    let index = group_index(&realm, group_id)?;
    let channels = accessible_channels(store, actor, &names)?;
    let group = &mut realm.settings.default_channel_groups[index];
    match op.as_str() {
        "add" => {
            for stream in &channels {
                refuse_default_channel(stream, &group.name)?;
                if group.stream_ids.contains(&stream.id) {
                    return Err(ApiError::bad_request(format!(
                        "Channel '{}' is already present in default channel group '{}'",
                        stream.name, group.name
                    )));
                }
                group.stream_ids.push(stream.id);
            }
        }
        "remove" => {
            for stream in &channels {
                if !group.stream_ids.contains(&stream.id) {
                    return Err(ApiError::bad_request(format!(
                        "Channel '{}' is not present in default channel group '{}'",
                        stream.name, group.name
                    )));
                }
            }
            group.stream_ids.retain(|id| channels.iter().all(|s| s.id != *id));
        }
        _ => {
            return Err(ApiError::bad_request(
                "Invalid value for \"op\". Specify one of \"add\" or \"remove\".",
            ));
        }
    }
    stored(store, realm)
}

/// `DELETE /default_stream_groups/{group_id}`.
pub fn remove_default_stream_group(store: &impl Store, actor: &Actor, group_id: u64) -> ApiResult<Outcome> {
    require_admin(actor)?;
    let mut realm = actor.realm.clone();
    let index = group_index(&realm, group_id)?;
    realm.settings.default_channel_groups.remove(index);
    stored(store, realm)
}

/// The groups a guest is told of: none, as Zulip keeps them from guests.
pub fn shown_to(store: &impl Store, realm: &Realm, is_guest: bool) -> ApiResult<Value> {
    if is_guest { Ok(json!([])) } else { default_stream_groups_json(store, realm) }
}
