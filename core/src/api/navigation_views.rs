//! GET    /navigation_views              get_navigation_views
//! POST   /navigation_views              add_navigation_view
//! PATCH  /navigation_views/{fragment}   update_navigation_view
//! DELETE /navigation_views/{fragment}   remove_navigation_view
//!
//! Navigation views (spec 2.8, 4.15): the views a user pins to the sidebar or keeps in the
//! "more views" menu. Zulip's built-in views keep their own names; a user may store only
//! whether they are pinned. Custom views have a name. A fragment is a view's identity.

use serde_json::{Value, json};

use crate::command::{Actor, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::ids::UserId;
use crate::model::RecordKind;
use crate::params::{Params, refuse_nul};
use crate::store::Store;

use super::records::{deleted, new_ids, records, stored};

/// Zulip's `BUILT_IN_VIEW_FRAGMENTS`.
pub const BUILT_IN_VIEWS: &[&str] = &[
    "inbox",
    "recent",
    "feed",
    "drafts",
    "narrow/has/reaction/sender/me",
    "narrow/is/mentioned",
    "narrow/is/starred",
];

fn already_exists() -> ApiError {
    ApiError::bad_request("Navigation view already exists.")
}

/// A required string parameter, stripped and not blank.
fn not_blank(params: &Params, name: &str) -> ApiResult<String> {
    let value: String = params.required(name)?;
    non_blank(name, &value)
}

fn non_blank(name: &str, value: &str) -> ApiResult<String> {
    refuse_nul(name, value)?;
    let value = value.trim();
    if value.is_empty() {
        return Err(ApiError::bad_request(format!("{name} cannot be blank")));
    }
    Ok(value.to_owned())
}

/// The name a request gives, if any (`null` counts as none).
fn optional_name(params: &Params) -> ApiResult<Option<String>> {
    match params.raw("name") {
        None | Some("null") => Ok(None),
        Some(_) => Ok(Some(non_blank("name", &params.required::<String>("name")?)?)),
    }
}

/// The user's views, as register and `GET /navigation_views` show them.
pub fn navigation_views_json(store: &impl Store, user: UserId) -> ApiResult<Value> {
    Ok(records(store, user, RecordKind::NavigationView)?.into_iter().map(|(_, view)| view).collect())
}

fn find(store: &impl Store, user: UserId, fragment: &str) -> ApiResult<Option<(u64, Value)>> {
    Ok(records(store, user, RecordKind::NavigationView)?.into_iter().find(|(_, v)| v["fragment"] == fragment))
}

fn name_taken(store: &impl Store, user: UserId, name: &str) -> ApiResult<bool> {
    Ok(records(store, user, RecordKind::NavigationView)?.iter().any(|(_, v)| v["name"] == name))
}

/// `GET /navigation_views`.
pub fn get_navigation_views(store: &impl Store, actor: &Actor) -> ApiResult<Outcome> {
    Ok(Outcome::default().reply("navigation_views", navigation_views_json(store, actor.user.id)?))
}

/// `POST /navigation_views` (spec 4.15).
pub fn add_navigation_view(store: &impl Store, actor: &Actor, params: &Params) -> ApiResult<Outcome> {
    let fragment = not_blank(params, "fragment")?;
    let is_pinned: bool = params.required("is_pinned")?;
    let name = optional_name(params)?;
    if BUILT_IN_VIEWS.contains(&fragment.as_str()) {
        if name.is_some() {
            return Err(ApiError::bad_request("Built-in views cannot have a custom name."));
        }
    } else if name.is_none() {
        return Err(ApiError::bad_request("Custom views must have a valid name."));
    }
    let user = actor.user.id;
    if find(store, user, &fragment)?.is_some()
        || name.as_deref().map(|n| name_taken(store, user, n)).transpose()? == Some(true)
    {
        return Err(already_exists());
    }
    let view = json!({"fragment": fragment, "is_pinned": is_pinned, "name": name});
    let id = new_ids(store)?.take();
    let event = json!({"type": "navigation_view", "op": "add", "navigation_view": view});
    Ok(stored(user, RecordKind::NavigationView, id, view, event))
}

fn not_found() -> ApiError {
    ApiError::bad_request("Navigation view does not exist.").with_status(404)
}

/// `PATCH /navigation_views/{fragment}`: whether it is pinned, and a custom view's name.
pub fn update_navigation_view(
    store: &impl Store,
    actor: &Actor,
    fragment: &str,
    params: &Params,
) -> ApiResult<Outcome> {
    let fragment = non_blank("fragment", fragment)?;
    let is_pinned = params.optional::<bool>("is_pinned")?;
    let name = optional_name(params)?;
    let user = actor.user.id;
    if BUILT_IN_VIEWS.contains(&fragment.as_str()) && name.is_some() {
        return Err(ApiError::bad_request("Built-in views cannot have a custom name."));
    }
    if name.as_deref().map(|n| name_taken(store, user, n)).transpose()? == Some(true) {
        return Err(already_exists());
    }
    let (id, mut view) = find(store, user, &fragment)?.ok_or_else(not_found)?;
    let mut data = serde_json::Map::new();
    if let Some(name) = name {
        view["name"] = name.clone().into();
        data.insert("name".into(), name.into());
    }
    if let Some(pinned) = is_pinned {
        view["is_pinned"] = pinned.into();
        data.insert("is_pinned".into(), pinned.into());
    }
    let event = json!({"type": "navigation_view", "op": "update", "fragment": fragment, "data": data});
    Ok(stored(user, RecordKind::NavigationView, id, view, event))
}

/// `DELETE /navigation_views/{fragment}`.
pub fn remove_navigation_view(store: &impl Store, actor: &Actor, fragment: &str) -> ApiResult<Outcome> {
    let fragment = non_blank("fragment", fragment)?;
    let user = actor.user.id;
    let (id, _) = find(store, user, &fragment)?.ok_or_else(not_found)?;
    let event = json!({"type": "navigation_view", "op": "remove", "fragment": fragment});
    Ok(deleted(user, RecordKind::NavigationView, id, event))
}
