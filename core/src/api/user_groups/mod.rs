//! POST  /user_groups/create                       create_user_group
//! GET   /user_groups                              get_user_groups
//! PATCH /user_groups/{id}                         update_user_group
//! POST  /user_groups/{id}/deactivate              deactivate_user_group
//! POST  /user_groups/{id}/members                 update_user_group_members
//! POST  /user_groups/{id}/subgroups               update_user_group_subgroups
//! GET   /user_groups/{id}/members                 get_user_group_members
//! GET   /user_groups/{id}/members/{user_id}       get_is_user_group_member
//! GET   /user_groups/{id}/subgroups               get_user_group_subgroups
//!
//! User groups (spec 2.9, 4.12) with Zulip's permissions: who may create, manage, join, leave
//! and change the members of a group is itself a group setting, resolved by `crate::groups`.

mod anonymous_settings;
mod create;
mod membership;
mod read;
mod update;

pub use anonymous_settings::reactivation_events;
pub use create::create_user_group;
pub(crate) use membership::{group_to_add_members, members_added_event};
pub use membership::{update_user_group_members, update_user_group_subgroups};
pub use read::{
    get_is_user_group_member, get_user_group_members, get_user_group_subgroups, get_user_groups,
    user_groups_json,
};
pub use update::{deactivate_user_group, update_user_group};

use serde_json::{Value, json};

use crate::command::{Actor, Event};
use crate::error::{ApiError, ApiResult};
use crate::groups::{Groups, realm_permission};
use crate::ids::{UserGroupId, UserId};
use crate::model::{GroupSetting, Role, SystemGroup, UserGroup};
use crate::params::refuse_nul;

/// The longest group name and description Zulip accepts.
pub const MAX_GROUP_NAME_LENGTH: usize = 100;
pub const MAX_GROUP_DESCRIPTION_LENGTH: usize = 1024;

/// Prefixes a group name may not start with: they name other things in mentions and settings.
const RESERVED_PREFIXES: [&str; 5] = ["@", "role:", "user:", "stream:", "channel:"];

fn insufficient_permission() -> ApiError {
    ApiError::bad_request("Insufficient permission")
}

/// A group of the actor's organization by id; other organizations' groups act as missing.
fn group_by_id(groups: &Groups, id: UserGroupId) -> ApiResult<&UserGroup> {
    groups.get(id).ok_or_else(|| ApiError::bad_request("Invalid user group"))
}

/// Checks a new or changed group name (Zulip's `check_user_group_name`).
fn check_name(groups: &Groups, name: &str, except: Option<UserGroupId>) -> ApiResult<String> {
    let name = name.trim();
    if name.is_empty() {
        return Err(ApiError::bad_request("User group name cannot be empty."));
    }
    if name.chars().count() > MAX_GROUP_NAME_LENGTH {
        return Err(ApiError::bad_request(format!(
            "User group name cannot exceed {MAX_GROUP_NAME_LENGTH} characters."
        )));
    }
    // As Zulip words it for channel and default group names; its database refuses NUL.
    if name.contains('\0') {
        return Err(ApiError::bad_request(format!(
            "User group name '{name}' contains NULL (0x00) characters."
        )));
    }
    if let Some(prefix) = RESERVED_PREFIXES.iter().find(|p| name.starts_with(**p)) {
        return Err(ApiError::bad_request(format!("User group name cannot start with '{prefix}'.")));
    }
    if groups.by_name(name).is_some_and(|g| Some(g.id) != except) {
        return Err(ApiError::bad_request(format!("User group '{name}' already exists.")));
    }
    Ok(name.to_owned())
}

fn check_description(description: &str) -> ApiResult<String> {
    refuse_nul("User group description", description)?;
    if description.chars().count() > MAX_GROUP_DESCRIPTION_LENGTH {
        return Err(ApiError::bad_request(format!(
            "User group description cannot exceed {MAX_GROUP_DESCRIPTION_LENGTH} characters."
        )));
    }
    Ok(description.to_owned())
}

/// The group settings, by name, with the system groups each may not be.
const SETTINGS: [(&str, &[SystemGroup]); 6] = [
    ("can_add_members_group", &[SystemGroup::Internet]),
    ("can_join_group", &[SystemGroup::Internet]),
    ("can_leave_group", &[SystemGroup::Internet]),
    ("can_manage_group", &[SystemGroup::Internet, SystemGroup::Everyone]),
    ("can_mention_group", &[SystemGroup::Internet, SystemGroup::Owners]),
    ("can_remove_members_group", &[SystemGroup::Internet]),
];

/// Reads one group setting's value, refusing the system groups it may not be.
fn checked_setting(groups: &Groups, name: &str, value: &Value) -> ApiResult<GroupSetting> {
    let setting = groups.parse_setting(name, value)?;
    let refused = SETTINGS.iter().find(|(n, _)| *n == name).map(|(_, refused)| *refused).unwrap_or_default();
    if let GroupSetting::Named(id) = &setting
        && let Some(which) = groups.get(*id).and_then(|g| g.system)
        && refused.contains(&which)
    {
        return Err(ApiError::bad_request(format!(
            "'{name}' setting cannot be set to '{}' group.",
            which.name()
        )));
    }
    Ok(setting)
}

fn setting_slot<'a>(group: &'a mut UserGroup, name: &str) -> Option<&'a mut GroupSetting> {
    Some(match name {
        "can_add_members_group" => &mut group.can_add_members_group,
        "can_join_group" => &mut group.can_join_group,
        "can_leave_group" => &mut group.can_leave_group,
        "can_manage_group" => &mut group.can_manage_group,
        "can_mention_group" => &mut group.can_mention_group,
        "can_remove_members_group" => &mut group.can_remove_members_group,
        _ => return None,
    })
}

/// Whether the actor may manage the group: the organization's `can_manage_all_groups`
/// (owners), or the group's own `can_manage_group`. Nobody manages a system group.
fn can_manage(groups: &Groups, actor: &Actor, group: &UserGroup) -> ApiResult<bool> {
    if group.system.is_some() {
        return Ok(false);
    }
    Ok(realm_permission(groups, &actor.realm, &actor.user, "can_manage_all_groups")?
        || groups.has_permission(&actor.user, &group.can_manage_group, false))
}

/// A group as the API shows it.
pub fn group_json(groups: &Groups, group: &UserGroup) -> Value {
    let mut members: Vec<UserId> = groups.direct_members(group);
    members.sort_unstable();
    json!({
        "id": group.id,
        "name": group.name,
        "description": group.description,
        "members": members,
        "direct_subgroup_ids": groups.subgroups(group),
        "creator_id": group.creator_id,
        "date_created": group.date_created,
        "is_system_group": group.system.is_some(),
        "deactivated": group.deactivated,
        "can_add_members_group": groups.shown_setting(&group.can_add_members_group),
        "can_join_group": groups.shown_setting(&group.can_join_group),
        "can_leave_group": groups.shown_setting(&group.can_leave_group),
        "can_manage_group": groups.shown_setting(&group.can_manage_group),
        "can_mention_group": groups.shown_setting(&group.can_mention_group),
        "can_remove_members_group": groups.shown_setting(&group.can_remove_members_group),
    })
}

/// A `user_group` event for everyone in the organization.
fn group_event(groups: &Groups, body: Value) -> Event {
    let users = groups.all_users().filter(|u| u.is_active).map(|u| u.id).collect();
    Event::Other { users, body }
}

/// The `user_group` events of a user leaving the system groups of one role and joining those
/// of another (`None`: not an active user). No command stores these memberships (they follow
/// roles and activity), so whatever changes a role or activity tells them, as Zulip does.
pub fn role_group_events(
    groups: &Groups,
    user: UserId,
    before: Option<Role>,
    after: Option<Role>,
) -> Vec<Event> {
    if before == after {
        return Vec::new();
    }
    let left = before.map(|role| groups.role_groups(role)).unwrap_or_default();
    let joined = after.map(|role| groups.role_groups(role)).unwrap_or_default();
    let mut events = Vec::new();
    for group in left {
        events.push(group_event(
            groups,
            json!({"type": "user_group", "op": "remove_members", "group_id": group, "user_ids": [user]}),
        ));
    }
    for group in joined {
        events.push(group_event(
            groups,
            json!({"type": "user_group", "op": "add_members", "group_id": group, "user_ids": [user]}),
        ));
    }
    events
}
