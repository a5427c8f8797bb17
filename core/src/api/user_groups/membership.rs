//! `POST /user_groups/{id}/members` and `POST /user_groups/{id}/subgroups`.

use serde_json::json;

use crate::command::{Actor, Event, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::groups::Groups;
use crate::ids::{UserGroupId, UserId};
use crate::model::{SystemGroup, UserGroup};
use crate::params::{Json, Params};
use crate::store::{Change, Store};

use super::create::{member_ids, subgroup_ids};
use super::{can_manage, group_by_id, group_event, insufficient_permission};

fn id_list(params: &Params, name: &str) -> ApiResult<Vec<u64>> {
    Ok(params.optional::<Json<Vec<u64>>>(name)?.map(|Json(ids)| ids).unwrap_or_default())
}

/// A group whose members may change: not a system group (their members follow roles).
/// A deactivated group's members change too, since feature level 391.
fn changeable(groups: &Groups, id: UserGroupId) -> ApiResult<&UserGroup> {
    let group = group_by_id(groups, id)?;
    if group.system.is_some() {
        return Err(insufficient_permission());
    }
    Ok(group)
}

/// Whether the actor may add (or remove) these users: others need the group's
/// `can_add_members_group` (`can_remove_members_group`) or management; oneself also
/// `can_join_group` (`can_leave_group`).
fn may_change_members(
    groups: &Groups,
    actor: &Actor,
    group: &UserGroup,
    users: &[UserId],
    adding: bool,
) -> ApiResult<bool> {
    if users.is_empty() || can_manage(groups, actor, group)? {
        return Ok(true);
    }
    let (others, own) = if adding {
        (&group.can_add_members_group, &group.can_join_group)
    } else {
        (&group.can_remove_members_group, &group.can_leave_group)
    };
    // Zulip's `allow_everyone_group`: guests never hold power over others' membership, and
    // of their own they may only leave.
    if groups.has_permission(&actor.user, others, false) {
        return Ok(true);
    }
    Ok(users == [actor.user.id] && groups.has_permission(&actor.user, own, !adding))
}

/// A group the actor may add others to, for an invitation (Zulip's
/// `access_user_group_for_update` with `can_add_members_group`).
pub(crate) fn group_to_add_members<'g>(
    groups: &'g Groups,
    actor: &Actor,
    id: UserGroupId,
) -> ApiResult<&'g UserGroup> {
    let group = changeable(groups, id)?;
    if !can_manage(groups, actor, group)?
        && !groups.has_permission(&actor.user, &group.can_add_members_group, false)
    {
        return Err(insufficient_permission());
    }
    Ok(group)
}

/// The event of users joining a group.
pub(crate) fn members_added_event(groups: &Groups, id: UserGroupId, users: &[UserId]) -> Event {
    group_event(groups, json!({"type": "user_group", "op": "add_members", "group_id": id, "user_ids": users}))
}

pub fn update_user_group_members(
    store: &impl Store,
    actor: &Actor,
    id: UserGroupId,
    params: &Params,
) -> ApiResult<Outcome> {
    let groups = Groups::load(store, actor.realm.id)?;
    let group = changeable(&groups, id)?;
    let add = member_ids(&groups, &id_list(params, "add")?)?;
    let delete = member_ids(&groups, &id_list(params, "delete")?)?;
    let add_subgroups = id_list(params, "add_subgroups")?;
    let delete_subgroups = id_list(params, "delete_subgroups")?;
    if add.is_empty() && delete.is_empty() && add_subgroups.is_empty() && delete_subgroups.is_empty() {
        return Err(ApiError::bad_request(
            "Nothing to do. Specify at least one of \"add\", \"delete\", \"add_subgroups\" or \"delete_subgroups\".",
        ));
    }
    if !may_change_members(&groups, actor, group, &add, true)?
        || !may_change_members(&groups, actor, group, &delete, false)?
    {
        return Err(insufficient_permission());
    }
    let mut updated = group.clone();
    let direct = groups.direct_members(group);
    if let Some(already) = add.iter().find(|u| direct.contains(u)) {
        return Err(ApiError::bad_request(format!("User {already} is already a member of this group")));
    }
    if let Some(missing) = delete.iter().find(|u| !direct.contains(u)) {
        return Err(ApiError::bad_request(format!("There is no member '{missing}' in this user group")));
    }
    // Deactivated members stay stored (hidden), so that reactivation brings them back.
    updated.direct_members = group
        .direct_members
        .iter()
        .copied()
        .filter(|u| !delete.contains(u))
        .chain(add.iter().copied())
        .collect();
    updated.direct_members.sort_unstable();
    let mut events = Vec::new();
    if !add.is_empty() {
        events.push(group_event(
            &groups,
            json!({"type": "user_group", "op": "add_members", "group_id": id, "user_ids": add}),
        ));
    }
    if !delete.is_empty() {
        events.push(group_event(
            &groups,
            json!({"type": "user_group", "op": "remove_members", "group_id": id, "user_ids": delete}),
        ));
    }
    events.extend(change_subgroups(&groups, actor, &mut updated, &add_subgroups, &delete_subgroups)?);
    Ok(Outcome { changes: vec![Change::PutUserGroup(Box::new(updated))], events, ..Outcome::default() })
}

pub fn update_user_group_subgroups(
    store: &impl Store,
    actor: &Actor,
    id: UserGroupId,
    params: &Params,
) -> ApiResult<Outcome> {
    let groups = Groups::load(store, actor.realm.id)?;
    let group = changeable(&groups, id)?;
    let add = id_list(params, "add")?;
    let delete = id_list(params, "delete")?;
    if add.is_empty() && delete.is_empty() {
        return Err(ApiError::bad_request("Nothing to do. Specify at least one of \"add\" or \"delete\"."));
    }
    let mut updated = group.clone();
    let events = change_subgroups(&groups, actor, &mut updated, &add, &delete)?;
    Ok(Outcome { changes: vec![Change::PutUserGroup(Box::new(updated))], events, ..Outcome::default() })
}

/// Adds and removes subgroups of `group`: adding needs `can_add_members_group` or management,
/// removing needs management; a group cannot contain itself, even through others.
fn change_subgroups(
    groups: &Groups,
    actor: &Actor,
    group: &mut UserGroup,
    add: &[u64],
    delete: &[u64],
) -> ApiResult<Vec<Event>> {
    if add.is_empty() && delete.is_empty() {
        return Ok(Vec::new());
    }
    let add = subgroup_ids(groups, add)?;
    let delete = subgroup_ids(groups, delete)?;
    let manages = can_manage(groups, actor, group)?;
    let may_add = manages || groups.has_permission(&actor.user, &group.can_add_members_group, false);
    if (!add.is_empty() && !may_add) || (!delete.is_empty() && !manages) {
        return Err(insufficient_permission());
    }
    for sub in &add {
        if group.direct_subgroups.contains(sub) {
            return Err(ApiError::bad_request(format!(
                "User group {sub} is already a subgroup of this group."
            )));
        }
        if *sub == group.id || groups.contains_group(*sub, group.id) {
            // Zulip's text names the group being changed (feature level 311).
            return Err(ApiError::bad_request(format!(
                "User group {} is already a subgroup of one of the passed subgroups.",
                group.id
            )));
        }
        if groups.get(*sub).is_some_and(|g| g.system == Some(SystemGroup::Internet)) {
            return Err(insufficient_permission());
        }
    }
    if let Some(missing) = delete.iter().find(|s| !group.direct_subgroups.contains(s)) {
        return Err(ApiError::bad_request(format!("User group {missing} is not a subgroup of this group.")));
    }
    group.direct_subgroups.retain(|s| !delete.contains(s));
    group.direct_subgroups.extend(add.iter().copied());
    group.direct_subgroups.sort_unstable();
    let mut events = Vec::new();
    if !add.is_empty() {
        events.push(group_event(groups, json!({"type": "user_group", "op": "add_subgroups", "group_id": group.id, "direct_subgroup_ids": add})));
    }
    if !delete.is_empty() {
        events.push(group_event(groups, json!({"type": "user_group", "op": "remove_subgroups", "group_id": group.id, "direct_subgroup_ids": delete})));
    }
    Ok(events)
}
