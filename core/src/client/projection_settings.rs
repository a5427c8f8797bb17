//! The organization's rules as the register state tells them, in core's model: the realm's
//! settings (editing, limits, who may move or delete), its user groups, and each channel's own
//! group settings. The projection holds them so that core's permission rules
//! (`crate::permissions`) answer for the client as they answer for the server.

use serde_json::{Map, Value};

use crate::ids::{RealmId, UserGroupId, UserId};
use crate::model::{ChannelPermissions, GroupSetting, RealmSettings, SystemGroup, UserGroup};

/// The realm's settings from register's `realm_*` fields; those the state lacks keep Zulip's
/// defaults. A limit of `null` is no limit.
pub fn realm_settings(state: &Map<String, Value>) -> RealmSettings {
    let mut settings = RealmSettings::default();
    if let Some(allowed) = state.get("realm_allow_message_editing").and_then(Value::as_bool) {
        settings.allow_message_editing = allowed;
    }
    let limit = |key: &str, slot: &mut Option<i64>| {
        if let Some(value) = state.get(key) {
            *slot = value.as_i64();
        }
    };
    limit("realm_message_content_edit_limit_seconds", &mut settings.message_content_edit_limit_seconds);
    limit("realm_message_content_delete_limit_seconds", &mut settings.message_content_delete_limit_seconds);
    limit(
        "realm_move_messages_within_stream_limit_seconds",
        &mut settings.move_messages_within_stream_limit_seconds,
    );
    limit(
        "realm_move_messages_between_streams_limit_seconds",
        &mut settings.move_messages_between_streams_limit_seconds,
    );
    for (key, value) in state {
        if let Some(name) = key.strip_prefix("realm_").filter(|name| name.ends_with("_group"))
            && let Ok(setting) = serde_json::from_value::<GroupSetting>(value.clone())
        {
            settings.groups.insert(name.to_owned(), setting);
        }
    }
    settings
}

/// Register's `realm_user_groups` as the model's groups (system groups take their members from
/// roles, as the server's do).
pub fn user_groups(state: &Map<String, Value>, realm: RealmId) -> Vec<UserGroup> {
    let nobody = || GroupSetting::Anonymous { direct_members: Vec::new(), direct_subgroups: Vec::new() };
    let setting = |group: &Value, name: &str| {
        group.get(name).and_then(|v| serde_json::from_value(v.clone()).ok()).unwrap_or_else(nobody)
    };
    let ids = |value: &Value| -> Vec<u64> {
        value.as_array().into_iter().flatten().filter_map(Value::as_u64).collect()
    };
    state
        .get("realm_user_groups")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|group| {
            let name = group["name"].as_str().unwrap_or_default();
            Some(UserGroup {
                id: UserGroupId(group["id"].as_u64()?),
                realm_id: realm,
                name: name.to_owned(),
                description: group["description"].as_str().unwrap_or_default().to_owned(),
                creator_id: group["creator_id"].as_u64().map(UserId),
                date_created: group["date_created"].as_i64(),
                system: if group["is_system_group"] == true { SystemGroup::from_name(name) } else { None },
                direct_members: ids(&group["members"]).into_iter().map(UserId).collect(),
                direct_subgroups: ids(&group["direct_subgroup_ids"]).into_iter().map(UserGroupId).collect(),
                deactivated: group["deactivated"] == true,
                can_add_members_group: setting(group, "can_add_members_group"),
                can_join_group: setting(group, "can_join_group"),
                can_leave_group: setting(group, "can_leave_group"),
                can_manage_group: setting(group, "can_manage_group"),
                can_mention_group: setting(group, "can_mention_group"),
                can_remove_members_group: setting(group, "can_remove_members_group"),
            })
        })
        .collect()
}

/// A channel's own group settings from its record (`can_delete_any_message_group`...); one
/// the model cannot read keeps its default rather than failing the others.
pub fn channel_permissions(channel: &Value) -> ChannelPermissions {
    let settings: Map<String, Value> = channel
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(name, value)| {
            name.starts_with("can_")
                && name.ends_with("_group")
                && serde_json::from_value::<GroupSetting>((*value).clone()).is_ok()
        })
        .map(|(name, value)| (name.clone(), value.clone()))
        .collect();
    serde_json::from_value(Value::Object(settings)).unwrap_or_default()
}
