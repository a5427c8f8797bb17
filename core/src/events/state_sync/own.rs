//! The user's own top-level fields that follow from their role and activity (register's
//! `realm_user` block), worked out from the state as register works them out from the store.

use serde_json::{Map, Value, json};

use crate::model::Role;

/// The user's role changed: their flags and what the role lets them do.
pub(super) fn apply_own_role(state: &mut Map<String, Value>, role: u64, user_id: u64) {
    let Some(role) = u16::try_from(role).ok().and_then(Role::from_value) else { return };
    let guest = role == Role::Guest;
    let web_public = may_create_web_public(state, role, user_id);
    let mut set = |key: &str, value: Value| {
        if let Some(field) = state.get_mut(key) {
            *field = value;
        }
    };
    set("role", json!(role.value()));
    set("is_admin", json!(role.is_admin()));
    set("is_owner", json!(role == Role::Owner));
    set("is_moderator", json!(role <= Role::Moderator));
    set("is_guest", json!(guest));
    if let Some(web_public) = web_public {
        set("can_create_web_public_streams", json!(web_public));
    }
    refresh_group_permissions(state, role, user_id);
}

/// The own fields that follow the organization's group settings (register's, from
/// `realm_permission`): creating public and private channels, subscribing others and sending
/// email invitations. Guests hold none of them.
fn refresh_group_permissions(state: &mut Map<String, Value>, role: Role, user_id: u64) {
    // A state without the organization's settings or groups cannot tell; then the default
    // (`role:members`, which guests are not in) decides, as it does for most organizations.
    let holds_setting = |state: &Map<String, Value>, name: &str| -> Option<bool> {
        let known = state.get(name).zip(state.get("realm_user_groups").and_then(Value::as_array));
        Some(
            role != Role::Guest
                && known.is_none_or(|(setting, groups)| holds(groups, setting, role, user_id)),
        )
    };
    let public = holds_setting(state, "realm_can_create_public_channel_group");
    let private = holds_setting(state, "realm_can_create_private_channel_group");
    let invite = holds_setting(state, "realm_can_invite_users_group");
    let mut set = |key: &str, value: Option<bool>| {
        if let (Some(value), Some(field)) = (value, state.get_mut(key)) {
            *field = json!(value);
        }
    };
    set("can_create_public_streams", public);
    set("can_create_private_streams", private);
    set("can_create_streams", public.zip(private).map(|(a, b)| a || b));
    set("can_invite_others_to_realm", invite);
}

/// After a change to the organization's settings or groups: what the user may now do by the
/// organization's group settings (web-public channels among them).
pub(super) fn refresh_web_public(state: &mut Map<String, Value>, user_id: u64) {
    let role = state
        .get("role")
        .and_then(Value::as_u64)
        .and_then(|r| u16::try_from(r).ok())
        .and_then(Role::from_value);
    if let (Some(role), true) = (role, state.contains_key("can_create_web_public_streams"))
        && let Some(web_public) = may_create_web_public(state, role, user_id)
    {
        state.insert("can_create_web_public_streams".into(), json!(web_public));
    }
    if let Some(role) = role {
        refresh_group_permissions(state, role, user_id);
    }
}

/// Whether the organization's settings let the user create web-public channels
/// (`enable_spectator_access` and `can_create_web_public_channel_group`, which guests never
/// hold); `None` when the state lacks what decides it.
pub(super) fn may_create_web_public(state: &Map<String, Value>, role: Role, user_id: u64) -> Option<bool> {
    if !state.get("realm_enable_spectator_access")?.as_bool()? {
        return Some(false);
    }
    let setting = state.get("realm_can_create_web_public_channel_group")?;
    let groups = state.get("realm_user_groups")?.as_array()?;
    Some(role != Role::Guest && holds(groups, setting, role, user_id))
}

/// Whether a user holds a group-setting value (a group id, or direct members and subgroups),
/// through subgroups at any depth. System groups hold users by role, as `crate::groups` has it.
fn holds(groups: &[Value], setting: &Value, role: Role, user_id: u64) -> bool {
    let mut todo: Vec<u64> = Vec::new();
    match setting {
        Value::Object(anonymous) => {
            let members = anonymous.get("direct_members").and_then(Value::as_array);
            if members.is_some_and(|m| m.iter().any(|u| u.as_u64() == Some(user_id))) {
                return true;
            }
            let subgroups = anonymous.get("direct_subgroups").and_then(Value::as_array);
            todo.extend(subgroups.into_iter().flatten().filter_map(Value::as_u64));
        }
        other => todo.extend(other.as_u64()),
    }
    let mut seen = Vec::new();
    while let Some(id) = todo.pop() {
        if seen.contains(&id) {
            continue;
        }
        seen.push(id);
        let Some(group) = groups.iter().find(|g| g["id"].as_u64() == Some(id)) else { continue };
        let by_role = group["is_system_group"] == true
            && group["name"].as_str().is_some_and(|name| system_group_holds(name, role));
        let member =
            group["members"].as_array().is_some_and(|m| m.iter().any(|u| u.as_u64() == Some(user_id)));
        if by_role || (group["is_system_group"] != true && member) {
            return true;
        }
        todo.extend(group["direct_subgroup_ids"].as_array().into_iter().flatten().filter_map(Value::as_u64));
    }
    false
}

/// Whether a system group (by name) holds a user of `role`, with its subgroups.
fn system_group_holds(name: &str, role: Role) -> bool {
    match name {
        "role:owners" => role == Role::Owner,
        "role:administrators" => role.is_admin(),
        "role:moderators" => role <= Role::Moderator,
        "role:fullmembers" | "role:members" => role <= Role::Member,
        "role:everyone" | "role:internet" => true,
        _ => false,
    }
}
