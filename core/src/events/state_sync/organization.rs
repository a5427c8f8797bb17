//! The organization: its settings, user groups and channel folders.

use serde_json::{Map, Value};

use super::list_mut;
use crate::events::server_event::{ChannelFolderEvent, RealmEvent, UserGroupEvent};
use crate::legacy_policies::{LEGACY_POLICY_KEYS, legacy_policy, system_group_named};

pub(super) fn apply_realm(state: &mut Map<String, Value>, event: &RealmEvent) {
    match event {
        RealmEvent::UpdateDict(update) => {
            for (key, value) in &update.data {
                state.insert(format!("realm_{key}"), value.clone());
                refresh_legacy_policy(state, key, value);
            }
        }
        RealmEvent::Update(change) => {
            state.insert(format!("realm_{}", change.property), change.value.clone());
        }
    }
}

/// A group setting with a deprecated `*_policy` twin changed: register would now send the
/// twin's new value, worked out from the system group the setting names.
fn refresh_legacy_policy(state: &mut Map<String, Value>, setting: &str, value: &Value) {
    let Some((key, _)) = LEGACY_POLICY_KEYS.iter().find(|(_, s)| *s == setting) else { return };
    if !state.contains_key(*key) {
        return;
    }
    let system = value.as_u64().and_then(|id| {
        let groups = state.get("realm_user_groups")?.as_array()?;
        let group = groups.iter().find(|g| g["id"].as_u64() == Some(id))?;
        if group["is_system_group"] != true {
            return None;
        }
        system_group_named(group["name"].as_str()?)
    });
    if let Some(policy) = legacy_policy(setting, system) {
        state.insert((*key).to_owned(), policy.into());
    }
}

pub(super) fn apply_user_group(state: &mut Map<String, Value>, event: &UserGroupEvent) {
    let Some(groups) = list_mut(state, "realm_user_groups") else { return };
    match event {
        UserGroupEvent::Add { group, .. } => groups.push(group.clone()),
        UserGroupEvent::Remove { group_id, .. } => groups.retain(|g| g["id"].as_u64() != Some(*group_id)),
        UserGroupEvent::Update { group_id, data, .. } => {
            if let Some(group) = group_of(groups, *group_id) {
                for (key, value) in data {
                    group[key.as_str()] = value.clone();
                }
            }
        }
        UserGroupEvent::AddMembers { group_id, user_ids, .. }
        | UserGroupEvent::RemoveMembers { group_id, user_ids, .. } => {
            let adding = matches!(event, UserGroupEvent::AddMembers { .. });
            if let Some(group) = group_of(groups, *group_id) {
                edit_list(&mut group["members"], user_ids, adding);
            }
        }
        UserGroupEvent::AddSubgroups { group_id, direct_subgroup_ids, .. }
        | UserGroupEvent::RemoveSubgroups { group_id, direct_subgroup_ids, .. } => {
            let adding = matches!(event, UserGroupEvent::AddSubgroups { .. });
            if let Some(group) = group_of(groups, *group_id) {
                edit_list(&mut group["direct_subgroup_ids"], direct_subgroup_ids, adding);
            }
        }
    }
}

fn group_of(groups: &mut [Value], id: u64) -> Option<&mut Value> {
    groups.iter_mut().find(|g| g["id"].as_u64() == Some(id))
}

/// Adds ids to (or removes them from) a sorted id list.
pub(super) fn edit_list(list: &mut Value, ids: &[u64], adding: bool) {
    let Some(list) = list.as_array_mut() else { return };
    if adding {
        list.extend(ids.iter().map(|id| Value::from(*id)));
    } else {
        list.retain(|id| !id.as_u64().is_some_and(|id| ids.contains(&id)));
    }
    list.sort_by_key(|id| id.as_u64());
}

pub(super) fn apply_channel_folder(state: &mut Map<String, Value>, event: &ChannelFolderEvent) {
    let Some(folders) = list_mut(state, "channel_folders") else { return };
    match event {
        ChannelFolderEvent::Add { channel_folder, .. } => folders.push(channel_folder.clone()),
        ChannelFolderEvent::Update { channel_folder_id, data, .. } => {
            if let Some(Value::Object(folder)) =
                folders.iter_mut().find(|f| f["id"].as_u64() == Some(*channel_folder_id))
            {
                folder.extend(data.clone());
            }
        }
        ChannelFolderEvent::Reorder { order, .. } => {
            for folder in folders.iter_mut() {
                if let Some(position) = order.iter().position(|id| folder["id"].as_u64() == Some(*id)) {
                    folder["order"] = position.into();
                }
            }
            folders.sort_by_key(|f| (f["order"].as_u64(), f["id"].as_u64()));
        }
    }
}
