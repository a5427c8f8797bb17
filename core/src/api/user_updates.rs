//! PATCH /users/{user_id}   update_user
//!
//! Administrators change another account's name and role (zulip-semantics §6.1): only owners
//! touch owners, and an organization always keeps an owner. A role change moves the user
//! between system groups by itself (their members follow roles).

use serde_json::json;

use crate::command::{Actor, Event, Outcome, require_admin};
use crate::error::{ApiError, ApiResult};
use crate::ids::UserId;
use crate::model::{Role, User};
use crate::params::Params;
use crate::store::{Change, Store};

use super::custom_profile_fields::values::set_profile_data_as_admin;
use super::role_change::role_change_events;
use super::user_groups::role_group_events;
use super::users::{active_owners, validate_full_name};
use crate::groups::Groups;

fn realm_user_update(store: &impl Store, actor: &Actor, person: serde_json::Value) -> ApiResult<Event> {
    let users = crate::command::active_user_ids(store, actor.realm.id)?;
    Ok(Event::Other { users, body: json!({"type": "realm_user", "op": "update", "person": person}) })
}

/// Gives `user` a new role (a no-op for the role it has): only owners make or unmake owners,
/// and the only owner stays one. Returns the events; `user` is updated in place.
fn change_role(store: &impl Store, actor: &Actor, user: &mut User, role: Role) -> ApiResult<Vec<Event>> {
    let mut events = Vec::new();
    if role == user.role {
        return Ok(events);
    }
    if (role == Role::Owner || user.role == Role::Owner) && actor.user.role != Role::Owner {
        return Err(ApiError::owner_required());
    }
    if user.role == Role::Owner && active_owners(store, actor)? <= 1 {
        return Err(ApiError::bad_request(
            "The owner permission cannot be removed from the only organization owner.",
        ));
    }
    let before = user.clone();
    user.role = role;
    events.push(realm_user_update(store, actor, json!({"user_id": user.id, "role": role.value()}))?);
    if user.is_active {
        let groups = Groups::load(store, actor.realm.id)?;
        events.extend(role_group_events(&groups, user.id, Some(before.role), Some(role)));
        events.extend(role_change_events(store, actor, &before, user)?);
    }
    Ok(events)
}

/// The `role` parameter of `PATCH /bots/{bot_id}`: as for any account, administrators only.
pub fn update_user_role(
    store: &impl Store,
    actor: &Actor,
    user: &User,
    params: &Params,
) -> ApiResult<Outcome> {
    require_admin(actor)?;
    let value: i64 = params.required("role")?;
    let role = u16::try_from(value)
        .ok()
        .and_then(Role::from_value)
        .ok_or_else(|| ApiError::bad_request("Invalid role"))?;
    let mut updated = user.clone();
    let events = change_role(store, actor, &mut updated, role)?;
    Ok(Outcome { changes: vec![Change::PutUser(updated)], events, ..Outcome::default() })
}

/// `PATCH /users/{user_id}`: `full_name`, `role` and `profile_data` (custom profile field
/// values, see `custom_profile_fields::values`).
pub fn update_user(store: &impl Store, actor: &Actor, target: UserId, params: &Params) -> ApiResult<Outcome> {
    require_admin(actor)?;
    let user: User =
        store.user(target)?.filter(|u| u.realm_id == actor.realm.id).ok_or_else(ApiError::no_such_user)?;
    let full_name = params.optional::<String>("full_name")?.map(|n| validate_full_name(&n)).transpose()?;
    let role = match params.optional::<i64>("role")? {
        Some(value) => {
            let role = u16::try_from(value).ok().and_then(Role::from_value);
            Some(role.ok_or_else(|| ApiError::bad_request("Invalid role"))?)
        }
        None => None,
    };
    let profile_data = params.has("profile_data");
    if full_name.is_none() && role.is_none() && !profile_data {
        return Err(ApiError::bad_request("No new data supplied"));
    }
    let mut updated = user.clone();
    let mut events = Vec::new();
    if let Some(role) = role {
        events.extend(change_role(store, actor, &mut updated, role)?);
    }
    if let Some(name) = full_name.filter(|n| *n != user.full_name) {
        updated.full_name = name.clone();
        events.push(realm_user_update(store, actor, json!({"user_id": user.id, "full_name": name}))?);
    }
    let mut outcome = Outcome { changes: vec![Change::PutUser(updated)], events, ..Outcome::default() };
    if profile_data {
        set_profile_data_as_admin(store, actor, &user, params, &mut outcome)?;
    }
    Ok(outcome)
}
