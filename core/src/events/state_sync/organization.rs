//! The organization: its settings, user groups and channel folders.

use serde_json::{Map, Value};

use super::{list_mut, str_of};

pub(super) fn apply_realm(state: &mut Map<String, Value>, event: &Value) {
    match str_of(event, "op") {
        "update_dict" => {
            for (key, value) in event["data"].as_object().into_iter().flatten() {
                state.insert(format!("realm_{key}"), value.clone());
            }
        }
        "update" => {
            state.insert(format!("realm_{}", str_of(event, "property")), event["value"].clone());
        }
        _ => {}
    }
}

pub(super) fn apply_user_group(state: &mut Map<String, Value>, event: &Value) {
    let Some(groups) = list_mut(state, "realm_user_groups") else { return };
    let id = &event["group_id"];
    let group = groups.iter_mut().find(|g| g["id"] == *id);
    match (str_of(event, "op"), group) {
        ("add", _) => groups.push(event["group"].clone()),
        ("remove", _) => groups.retain(|g| g["id"] != *id),
        ("update", Some(group)) => {
            for (key, value) in event["data"].as_object().into_iter().flatten() {
                group[key.as_str()] = value.clone();
            }
        }
        (op @ ("add_members" | "remove_members"), Some(group)) => {
            edit_list(&mut group["members"], &event["user_ids"], op == "add_members")
        }
        (op @ ("add_subgroups" | "remove_subgroups"), Some(group)) => {
            edit_list(
                &mut group["direct_subgroup_ids"],
                &event["direct_subgroup_ids"],
                op == "add_subgroups",
            );
        }
        _ => {}
    }
}

/// Adds ids to (or removes them from) a sorted id list.
pub(super) fn edit_list(list: &mut Value, ids: &Value, adding: bool) {
    let Some(list) = list.as_array_mut() else { return };
    let ids = ids.as_array().cloned().unwrap_or_default();
    if adding {
        list.extend(ids);
    } else {
        list.retain(|id| !ids.contains(id));
    }
    list.sort_by_key(|id| id.as_u64());
}

pub(super) fn apply_channel_folder(state: &mut Map<String, Value>, event: &Value) {
    let Some(folders) = list_mut(state, "channel_folders") else { return };
    match str_of(event, "op") {
        "add" => folders.push(event["channel_folder"].clone()),
        "update" => {
            let id = &event["channel_folder_id"];
            if let (Some(Value::Object(folder)), Value::Object(data)) =
                (folders.iter_mut().find(|f| &f["id"] == id), &event["data"])
            {
                folder.extend(data.clone());
            }
        }
        "reorder" => {
            let order: Vec<&Value> =
                event["order"].as_array().map(|o| o.iter().collect()).unwrap_or_default();
            for folder in folders.iter_mut() {
                if let Some(position) = order.iter().position(|id| **id == folder["id"]) {
                    folder["order"] = position.into();
                }
            }
            folders.sort_by_key(|f| (f["order"].as_u64(), f["id"].as_u64()));
        }
        _ => {}
    }
}
