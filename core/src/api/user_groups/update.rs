//! `PATCH /user_groups/{id}` and `POST /user_groups/{id}/deactivate`.

use serde_json::{Map, Value, json};

use crate::command::{Actor, Outcome};
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::events::DEACTIVATED_GROUP_MARK;
use crate::groups::{Groups, setting_change};
use crate::ids::UserGroupId;
use crate::model::{GroupSetting, UserGroup};
use crate::params::{Json, Params};
use crate::store::{Change, Store};

use super::{
    SETTINGS, can_manage, check_description, check_name, checked_setting, group_by_id, group_event,
    group_json, insufficient_permission, setting_slot,
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
            data.insert(setting.into(), groups.shown_setting(&new));
            if let Some(slot) = setting_slot(&mut updated, setting) {
                *slot = new;
            }
        }
    }
    // `deactivated: false` brings a deactivated group back (feature level 386); `true`, or
    // false for an active group, changes nothing, as in Zulip.
    let reactivating = params.optional::<bool>("deactivated")?.is_some_and(|d| !d) && group.deactivated;
    let asked_deactivated = params.raw("deactivated").is_some();
    if data.is_empty() && !asked_deactivated {
        return Err(ApiError::bad_request("No new data supplied"));
    }
    let mut events = Vec::new();
    if reactivating {
        updated.deactivated = false;
        // Clients that kept the group learn it is active again; the others, which dropped it,
        // get it back whole (the event system picks one per client).
        events.push(group_event(
            &groups,
            json!({"type": "user_group", "op": "update", "group_id": id, "data": {"deactivated": false}}),
        ));
        events.push(group_event(
            &groups,
            json!({"type": "user_group", "op": "add", "group": group_json(&groups, &updated), "reactivated": true}),
        ));
    }
    if !data.is_empty() {
        let mut body = json!({"type": "user_group", "op": "update", "group_id": id, "data": data});
        if updated.deactivated {
            body[DEACTIVATED_GROUP_MARK] = true.into();
        }
        events.push(group_event(&groups, body));
    }
    if events.is_empty() {
        return Ok(Outcome::default());
    }
    Ok(Outcome { changes: vec![Change::PutUserGroup(Box::new(updated))], events, ..Outcome::default() })
}

/// Where a group is used, as Zulip's `check_user_group_can_be_deactivated` lists it: as a
/// subgroup of an active group, and in the settings of active channels, active groups and the
/// organization, by name or inside an anonymous value. A group in use cannot be deactivated;
/// each place is an objection the client can show.
fn objections(store: &impl Store, actor: &Actor, groups: &Groups, id: UserGroupId) -> ApiResult<Vec<Value>> {
    let names = |s: &GroupSetting| match s {
        GroupSetting::Named(named) => *named == id,
        GroupSetting::Anonymous { direct_subgroups, .. } => direct_subgroups.contains(&id),
    };
    let mut objections = Vec::new();
    let supergroups: Vec<UserGroupId> = groups
        .all()
        .filter(|g| g.id != id && !g.deactivated && g.direct_subgroups.contains(&id))
        .map(|g| g.id)
        .collect();
    if !supergroups.is_empty() {
        objections.push(json!({"type": "subgroup", "supergroup_ids": supergroups}));
    }
    for stream in store.realm_streams(actor.realm.id)?.iter().filter(|s| !s.is_archived) {
        let settings: Vec<&str> = stream
            .permissions
            .fields()
            .into_iter()
            .filter(|(_, value)| value.as_ref().is_some_and(names))
            .map(|(name, _)| name)
            .collect();
        if !settings.is_empty() {
            objections.push(json!({"type": "channel", "channel_id": stream.id, "settings": settings}));
        }
    }
    for group in groups.all().filter(|g| g.id != id && !g.deactivated) {
        let settings: Vec<&str> =
            group.settings().into_iter().filter(|(_, value)| names(value)).map(|(name, _)| name).collect();
        if !settings.is_empty() {
            objections.push(json!({"type": "user_group", "group_id": group.id, "settings": settings}));
        }
    }
    let realm_settings: Vec<&String> =
        actor.realm.settings.groups.iter().filter(|(_, value)| names(value)).map(|(name, _)| name).collect();
    if !realm_settings.is_empty() {
        objections.push(json!({"type": "realm", "settings": realm_settings}));
    }
    Ok(objections)
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
    let objections = objections(store, actor, &groups, id)?;
    if !objections.is_empty() {
        return Err(ApiError::new(
            ErrorCode::CannotDeactivateGroupInUse,
            "Cannot deactivate user group in use.",
        )
        .with("objections", objections));
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
