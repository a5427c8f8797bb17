//! POST  /channel_folders/create                 create_channel_folder
//! GET   /channel_folders                        get_channel_folders
//! PATCH /channel_folders                        reorder_channel_folders
//! PATCH /channel_folders/{channel_folder_id}    update_channel_folder
//!
//! Channel folders group an organization's channels for display. Administrators arrange them;
//! everyone sees them. A channel names its folder (`folder_id`); a folder with channels in it
//! cannot be archived.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use crate::command::{Actor, Event, Outcome, active_user_ids, require_admin};
use crate::error::{ApiError, ApiResult};
use crate::ids::{IdKind, RealmId};
use crate::markdown::render_description;
use crate::model::ChannelFolder;
use crate::params::{Json, Params, refuse_nul};
use crate::store::{Change, IdAllocator, Store};

use super::streams::is_forbidden_char;

/// Zulip's `ChannelFolder.MAX_NAME_LENGTH`.
pub const MAX_FOLDER_NAME_LENGTH: usize = 60;
/// Zulip's `ChannelFolder.MAX_DESCRIPTION_LENGTH`.
pub const MAX_FOLDER_DESCRIPTION_LENGTH: usize = 1024;

/// A folder as clients see it (register `channel_folders`, events, `GET /channel_folders`).
pub fn folder_json(folder: &ChannelFolder) -> Value {
    json!({
        "id": folder.id,
        "name": folder.name,
        "description": folder.description,
        "rendered_description": folder.rendered_description,
        "order": folder.order,
        "date_created": folder.date_created,
        "creator_id": folder.creator_id,
        "is_archived": folder.is_archived,
    })
}

/// The organization's folders in display order, archived ones only when asked for.
pub fn folders_json(store: &impl Store, realm: RealmId, include_archived: bool) -> ApiResult<Value> {
    let folders = store.channel_folders(realm)?;
    Ok(folders.iter().filter(|f| include_archived || !f.is_archived).map(folder_json).collect())
}

/// The folder a request names, in the actor's organization.
pub fn folder_in_realm(store: &impl Store, realm: RealmId, id: u64) -> ApiResult<ChannelFolder> {
    store
        .channel_folders(realm)?
        .into_iter()
        .find(|f| f.id == id)
        .ok_or_else(|| ApiError::bad_request("Invalid channel folder ID"))
}

fn check_length(field: &str, value: &str, limit: usize) -> ApiResult<()> {
    if value.chars().count() > limit {
        return Err(ApiError::bad_request(format!("{field} is too long (limit: {limit} characters)")));
    }
    Ok(())
}

/// A description no longer than Zulip's limit, without NUL (names have printable characters
/// only, checked by [`check_name`]).
fn check_description(description: &str) -> ApiResult<()> {
    refuse_nul("description", description)?;
    check_length("description", description, MAX_FOLDER_DESCRIPTION_LENGTH)
}

/// Zulip's `check_channel_folder_name`: non-blank, printable, unique among the organization's
/// folders (case-insensitively), compared with every folder but `except`.
fn check_name(folders: &[ChannelFolder], name: &str, except: Option<u64>) -> ApiResult<()> {
    check_length("name", name, MAX_FOLDER_NAME_LENGTH)?;
    if name.trim().is_empty() {
        return Err(ApiError::bad_request("Channel folder name can't be empty."));
    }
    if let Some(position) = name.chars().position(is_forbidden_char) {
        return Err(ApiError::bad_request(format!(
            "Invalid character in channel folder name, at position {}.",
            position + 1
        )));
    }
    let lower = name.to_lowercase();
    if folders.iter().any(|f| Some(f.id) != except && f.name.to_lowercase() == lower) {
        return Err(ApiError::bad_request(format!("Channel folder '{name}' already exists")));
    }
    Ok(())
}

fn to_everyone(store: &impl Store, actor: &Actor, body: Value) -> ApiResult<Event> {
    Ok(Event::Other { users: active_user_ids(store, actor.realm.id)?, body })
}

/// `POST /channel_folders/create`: answers `channel_folder_id`.
pub fn create_channel_folder(
    store: &impl Store,
    actor: &Actor,
    params: &Params,
    now: i64,
) -> ApiResult<Outcome> {
    require_admin(actor)?;
    let name: String = params.required("name")?;
    let description: String = params.required("description")?;
    check_description(&description)?;
    let folders = store.channel_folders(actor.realm.id)?;
    check_name(&folders, &name, None)?;
    let id = IdAllocator::new(store, IdKind::ChannelFolder)?.take();
    let folder = ChannelFolder {
        id,
        realm_id: actor.realm.id,
        rendered_description: render_description(&description),
        name,
        description,
        // Zulip places a new folder last by giving it its own id as its order.
        order: id,
        date_created: now,
        creator_id: Some(actor.user.id),
        is_archived: false,
    };
    let event = to_everyone(
        store,
        actor,
        json!({"type": "channel_folder", "op": "add", "channel_folder": folder_json(&folder)}),
    )?;
    Ok(Outcome { changes: vec![Change::PutChannelFolder(folder)], events: vec![event], ..Outcome::default() }
        .reply("channel_folder_id", id))
}

/// `GET /channel_folders`.
pub fn get_channel_folders(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Outcome> {
    let include_archived = params.or("include_archived", false)?;
    Ok(Outcome::default().reply("channel_folders", folders_json(store, actor.realm.id, include_archived)?))
}

/// `PATCH /channel_folders`: `order` lists every folder's id, first shown first.
pub fn reorder_channel_folders(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Outcome> {
    require_admin(actor)?;
    let Json(order) = params.required::<Json<Vec<u64>>>("order")?;
    let folders = store.channel_folders(actor.realm.id)?;
    let given: BTreeSet<u64> = order.iter().copied().collect();
    let existing: BTreeSet<u64> = folders.iter().map(|f| f.id).collect();
    if given != existing || order.len() != existing.len() {
        return Err(ApiError::bad_request("Invalid order mapping."));
    }
    let changes = order
        .iter()
        .enumerate()
        .filter_map(|(position, id)| folders.iter().find(|f| f.id == *id).map(|f| (position, f)))
        .map(|(position, folder)| {
            Change::PutChannelFolder(ChannelFolder { order: position as u64, ..folder.clone() })
        })
        .collect();
    let event =
        to_everyone(store, actor, json!({"type": "channel_folder", "op": "reorder", "order": order}))?;
    Ok(Outcome { changes, events: vec![event], ..Outcome::default() })
}

/// `PATCH /channel_folders/{channel_folder_id}`: name, description, archived.
pub fn update_channel_folder(
    store: &impl Store,
    actor: &Actor,
    id: u64,
    params: &Params,
) -> ApiResult<Outcome> {
    require_admin(actor)?;
    let name = params.optional::<String>("name")?;
    let description = params.optional::<String>("description")?;
    let is_archived = params.optional::<bool>("is_archived")?;
    let folders = store.channel_folders(actor.realm.id)?;
    let old = folder_in_realm(store, actor.realm.id, id)?;
    let mut folder = old.clone();
    let mut data = serde_json::Map::new();
    if let Some(name) = name.filter(|n| *n != old.name) {
        check_name(&folders, &name, Some(id))?;
        data.insert("name".into(), name.clone().into());
        folder.name = name;
    }
    if let Some(description) = description {
        check_description(&description)?;
        if description != old.description {
            folder.rendered_description = render_description(&description);
            data.insert("description".into(), description.clone().into());
            data.insert("rendered_description".into(), folder.rendered_description.clone().into());
            folder.description = description;
        }
    }
    if let Some(archived) = is_archived.filter(|a| *a != old.is_archived) {
        if archived
            && store.realm_streams(actor.realm.id)?.iter().any(|s| s.folder_id == Some(id) && !s.is_archived)
        {
            return Err(ApiError::bad_request(
                "You need to remove all the channels from this folder to archive it.",
            ));
        }
        data.insert("is_archived".into(), archived.into());
        folder.is_archived = archived;
    }
    if data.is_empty() {
        // Zulip answers success when nothing changes, and sends nothing.
        return Ok(Outcome::default());
    }
    let event = to_everyone(
        store,
        actor,
        json!({"type": "channel_folder", "op": "update", "channel_folder_id": id, "data": data}),
    )?;
    Ok(Outcome { changes: vec![Change::PutChannelFolder(folder)], events: vec![event], ..Outcome::default() })
}
