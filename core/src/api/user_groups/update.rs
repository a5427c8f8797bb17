//! `PATCH /user_groups/{id}` and `POST /user_groups/{id}/deactivate`.

use serde_json::{Map, Value, json};

use crate::command::{Actor, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::groups::{Groups, setting_change};
use crate::ids::UserGroupId;
use crate::model::{GroupSetting, UserGroup};
use crate::params::{Json, Params};
use crate::store::{Change, Store};

use super::{
    SETTINGS, can_manage, check_description, check_name, checked_setting, group_by_id, group_event,
    insufficient_permission, setting_slot,
};

pub fn update_user_group(
    store: &impl Store,
    actor: &Actor,
    id: UserGroupId,
    params: &Params,
) -> ApiResult<Outcome> {
    let groups = Groups::load(store, actor.realm.id)?;
    let group = group_by_id(&groups, id)?;
    if !can_manage(&groups, actor, group)? {
        return Err(insufficient_permission());
    }
    let mut updated: UserGroup = group.clone();
    let mut data = Map::new();
    if let Some(name) = params.optional::<String>("name")? {
        updated.name = check_name(&groups, &name, Some(id))?;
        data.insert("name".into(), updated.name.clone().into());
    }
    if let Some(description) = params.optional::<String>("description")? {
        updated.description = check_description(&description)?;
        data.insert("description".into(), updated.description.clone().into());
    }
    for (setting, _) in SETTINGS {
        if let Some(Json(value)) = params.optional::<Json<Value>>(setting)? {
            let current =
                setting_slot(&mut updated, setting).map(|s| s.clone()).unwrap_or(GroupSetting::Named(id));
            let new = checked_setting(&groups, setting, setting_change(&groups, setting, &current, &value)?)?;
            data.insert(setting.into(), Groups::setting_json(&new));
            if let Some(slot) = setting_slot(&mut updated, setting) {
                *slot = new;
            }
        }
    }
    if data.is_empty() {
        return Err(ApiError::bad_request("No new data supplied"));
    }
    if updated.deactivated && data.keys().any(|k| k != "name") {
        return Err(ApiError::bad_request("You can only change name of deactivated user groups"));
    }
    let event =
        group_event(&groups, json!({"type": "user_group", "op": "update", "group_id": id, "data": data}));
    Ok(Outcome {
        changes: vec![Change::PutUserGroup(Box::new(updated))],
        events: vec![event],
        ..Outcome::default()
    })
}

/// Where a group is used: as a subgroup of an active group, or in a group's setting. A group
/// in use cannot be deactivated.
fn in_use(groups: &Groups, id: UserGroupId) -> bool {
    groups.all().filter(|g| g.id != id && !g.deactivated).any(|g| {
        let names = |s: &GroupSetting| match s {
            GroupSetting::Named(named) => *named == id,
            GroupSetting::Anonymous { direct_subgroups, .. } => direct_subgroups.contains(&id),
        };
        g.direct_subgroups.contains(&id)
            || [
                &g.can_add_members_group,
                &g.can_join_group,
                &g.can_leave_group,
                &g.can_manage_group,
                &g.can_mention_group,
                &g.can_remove_members_group,
            ]
            .into_iter()
            .any(names)
    })
}

pub fn deactivate_user_group(store: &impl Store, actor: &Actor, id: UserGroupId) -> ApiResult<Outcome> {
    let groups = Groups::load(store, actor.realm.id)?;
    let group = group_by_id(&groups, id)?;
    if !can_manage(&groups, actor, group)? {
        return Err(insufficient_permission());
    }
    if group.deactivated {
        return Err(ApiError::bad_request("User group is already deactivated."));
    }
    if in_use(&groups, id) {
        return Err(ApiError::bad_request("Cannot deactivate user group in use."));
    }
    let updated = UserGroup { deactivated: true, ..group.clone() };
    // Clients that keep deactivated groups get an update; the others drop the group (the
    // event system picks one per client by `include_deactivated_groups`).
    let events = vec![
        group_event(
            &groups,
            json!({"type": "user_group", "op": "update", "group_id": id, "data": {"deactivated": true}}),
        ),
        group_event(&groups, json!({"type": "user_group", "op": "remove", "group_id": id})),
    ];
    Ok(Outcome { changes: vec![Change::PutUserGroup(Box::new(updated))], events, ..Outcome::default() })
}
