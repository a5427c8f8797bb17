//! PATCH /users/{user_id}   update_user
//! PATCH /users/{email}     update_user_by_email
//!
//! Administrators change another account's name and role (zulip-semantics §6.1): only owners
//! touch owners, and an organization always keeps an owner. A role change moves the user
//! between system groups by itself (their members follow roles). An administrator the
//! server's operator granted `can_change_user_emails` also changes its email address
//! (feature level 313).

use serde_json::json;

use crate::command::{Actor, Event, Outcome, require_admin};
use crate::error::{ApiError, ApiResult};
use crate::ids::UserId;
use crate::model::{Role, User};
use crate::params::Params;
use crate::store::{Change, Store};

use super::custom_profile_fields::values::set_profile_data_as_admin;
use super::role_change::role_change_events;
use super::special_permissions::{CAN_CHANGE_USER_EMAILS, holds};
use super::user_groups::role_group_events;
use super::users::{UserRef, active_owners, find_user, validate_email, validate_full_name};
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

/// `PATCH /users/{user_id}` and `PATCH /users/{email}` (the user found as `GET /users/{email}`
/// finds them): `full_name`, `role`, `profile_data` (custom profile field values, see
/// `custom_profile_fields::values`) and `new_email`.
pub fn update_user(
    store: &impl Store,
    actor: &Actor,
    target: UserRef<'_>,
    params: &Params,
) -> ApiResult<Outcome> {
    require_admin(actor)?;
    let user: User = find_user(store, actor, target)?.ok_or_else(ApiError::no_such_user)?;
    // Zulip refuses `new_email` before anything else without the operator's grant.
    let new_email = params.optional::<String>("new_email")?;
    if new_email.is_some() && !holds(store, actor.user.id, CAN_CHANGE_USER_EMAILS)? {
        return Err(ApiError::bad_request("User not authorized to change user emails"));
    }
    let full_name = params.optional::<String>("full_name")?.map(|n| validate_full_name(&n)).transpose()?;
    let role = match params.optional::<i64>("role")? {
        Some(value) => {
            let role = u16::try_from(value).ok().and_then(Role::from_value);
            Some(role.ok_or_else(|| ApiError::bad_request("Invalid role"))?)
        }
        None => None,
    };
    let profile_data = params.has("profile_data");
    if full_name.is_none() && role.is_none() && !profile_data && new_email.is_none() {
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
    let email_events = match new_email.filter(|e| *e != user.delivery_email) {
        Some(email) => change_delivery_email(store, actor, &mut updated, email)?,
        None => Vec::new(),
    };
    let mut outcome = Outcome { changes: vec![Change::PutUser(updated)], events, ..Outcome::default() };
    if profile_data {
        set_profile_data_as_admin(store, actor, &user, params, &mut outcome)?;
    }
    // Zulip changes the email last, after the profile data.
    outcome.events.extend(email_events);
    Ok(outcome)
}

/// Gives `user` a new real email address, checked as Zulip's `update_user_backend` checks it,
/// with Zulip's `do_change_user_delivery_email` events: the new address to those who may see
/// it, and, when everyone may, the new API email to everyone. (Zulip also sends a new avatar
/// URL when the avatar is a Gravatar, which follows the address; Confab's default avatars do
/// not, so nothing else changes.)
fn change_delivery_email(
    store: &impl Store,
    actor: &Actor,
    user: &mut User,
    email: String,
) -> ApiResult<Vec<Event>> {
    validate_email(&email).map_err(|_| ApiError::bad_request("Invalid new email address."))?;
    // Zulip's `validate_email_not_already_in_realm`, not verbose: the user's own address in
    // other letter case counts as taken too.
    let taken = match store.user_by_delivery_email(actor.realm.id, &email)? {
        Some(id) => store.user(id)?,
        None => None,
    };
    let reserved =
        actor.realm.notification_bot.is_some_and(|bot| taken.as_ref().is_some_and(|t| t.id == bot));
    if let Some(existing) = taken {
        let why = if reserved {
            "Reserved for system bots."
        } else if existing.is_active {
            "Already has an account."
        } else {
            "Account has been deactivated."
        };
        return Err(ApiError::bad_request(format!("New email value error: {why}")));
    }
    user.delivery_email = email.clone();
    let public = user.email_address_visibility == crate::model::EmailVisibility::Everyone;
    if public {
        user.email = email.clone();
    }
    let active = store.realm_users(actor.realm.id)?.into_iter().filter(|u| u.is_active);
    let viewers: Vec<UserId> = active.filter(|u| u.can_see_delivery_email(user)).map(|u| u.id).collect();
    let mut events = vec![Event::Other {
        users: viewers,
        body: json!({"type": "realm_user", "op": "update", "person": {"user_id": user.id, "delivery_email": email}}),
    }];
    if public {
        events.push(realm_user_update(store, actor, json!({"user_id": user.id, "new_email": email}))?);
    }
    Ok(events)
}
