//! `POST /user_groups/create` (spec 4.12).

use serde_json::{Value, json};

use crate::command::{Actor, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::groups::{Groups, realm_permission};
use crate::ids::{IdKind, UserGroupId, UserId};
use crate::model::{GroupSetting, SystemGroup, UserGroup};
use crate::params::{Json, Params};
use crate::store::{Change, IdAllocator, Store};

use super::{
    SETTINGS, check_description, check_name, checked_setting, group_event, group_json,
    insufficient_permission, setting_slot,
};

/// Checks user ids for a group's members: active users of the organization.
pub(super) fn member_ids(groups: &Groups, ids: &[u64]) -> ApiResult<Vec<UserId>> {
    let mut members = Vec::with_capacity(ids.len());
    for &id in ids {
        match groups.user(UserId(id)) {
            Some(user) if user.is_active => members.push(user.id),
            _ => return Err(ApiError::bad_request(format!("Invalid user ID: {id}"))),
        }
    }
    members.sort_unstable();
    members.dedup();
    Ok(members)
}

/// Checks group ids for subgroups: active groups of the organization.
pub(super) fn subgroup_ids(groups: &Groups, ids: &[u64]) -> ApiResult<Vec<UserGroupId>> {
    let mut subgroups = Vec::with_capacity(ids.len());
    for &id in ids {
        match groups.get(UserGroupId(id)) {
            Some(group) if !group.deactivated => subgroups.push(group.id),
            _ => return Err(ApiError::bad_request(format!("Invalid user group ID: {id}"))),
        }
    }
    subgroups.sort_unstable();
    subgroups.dedup();
    Ok(subgroups)
}

pub fn create_user_group(store: &impl Store, actor: &Actor, params: &Params, now: i64) -> ApiResult<Outcome> {
    let groups = Groups::load(store, actor.realm.id)?;
    if !realm_permission(&groups, &actor.realm, &actor.user, "can_create_groups")? {
        return Err(insufficient_permission());
    }
    let name = check_name(&groups, &params.required::<String>("name")?, None)?;
    let description = check_description(&params.required::<String>("description")?)?;
    let Json(members) = params.required::<Json<Vec<u64>>>("members")?;
    let members = member_ids(&groups, &members)?;
    let subgroups = match params.optional::<Json<Vec<u64>>>("subgroups")? {
        Some(Json(ids)) => subgroup_ids(&groups, &ids)?,
        None => Vec::new(),
    };
    let creator =
        GroupSetting::Anonymous { direct_members: vec![actor.user.id], direct_subgroups: Vec::new() };
    let named = |which| groups.system_id(which).map(GroupSetting::Named);
    let mut group = UserGroup {
        id: UserGroupId(IdAllocator::new(store, IdKind::UserGroup)?.take()),
        realm_id: actor.realm.id,
        name,
        description,
        creator_id: Some(actor.user.id),
        date_created: Some(now),
        system: None,
        direct_members: members,
        direct_subgroups: subgroups,
        deactivated: false,
        can_add_members_group: creator.clone(),
        can_join_group: named(SystemGroup::Nobody)?,
        can_leave_group: named(SystemGroup::Everyone)?,
        can_manage_group: creator,
        can_mention_group: named(SystemGroup::Everyone)?,
        can_remove_members_group: named(SystemGroup::Nobody)?,
    };
    for (setting, _) in SETTINGS {
        if let Some(Json(value)) = params.optional::<Json<Value>>(setting)? {
            let parsed = checked_setting(&groups, setting, &value)?;
            if let Some(slot) = setting_slot(&mut group, setting) {
                *slot = parsed;
            }
        }
    }
    let event = group_event(
        &groups,
        json!({"type": "user_group", "op": "add", "group": group_json(&groups, &group)}),
    );
    let id = group.id;
    Ok(Outcome {
        changes: vec![Change::PutUserGroup(Box::new(group))],
        events: vec![event],
        ..Outcome::default()
    }
    .reply("group_id", id.0))
}
