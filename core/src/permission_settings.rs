//! What each group setting may be set to, as Zulip's `GroupPermissionSetting` tables say
//! (`Realm.REALM_PERMISSION_GROUP_SETTINGS`, `Stream.stream_permission_group_settings`,
//! `NamedUserGroup.GROUP_PERMISSION_SETTINGS` at feature level 419): register's
//! `server_supported_permission_settings` (feature level 221), from which clients build their
//! permission dropdowns, and the checks a new value passes (Zulip's
//! `check_setting_configuration_for_system_groups`).

use serde_json::{Map, Value, json};

use crate::error::{ApiError, ApiResult};
use crate::groups::Groups;
use crate::model::GroupSetting;

/// One setting's rules.
#[derive(Clone, Copy, Debug)]
pub struct PermissionSetting {
    pub name: &'static str,
    pub require_system_group: bool,
    pub allow_internet_group: bool,
    pub allow_nobody_group: bool,
    pub allow_everyone_group: bool,
    pub default_group_name: &'static str,
    pub default_for_system_groups: Option<&'static str>,
    /// Empty: any system group the flags above allow.
    pub allowed_system_groups: &'static [&'static str],
}

/// A setting of the common shape: any group but `role:internet`.
const fn setting(name: &'static str, everyone: bool, default: &'static str) -> PermissionSetting {
    PermissionSetting {
        name,
        require_system_group: false,
        allow_internet_group: false,
        allow_nobody_group: true,
        allow_everyone_group: everyone,
        default_group_name: default,
        default_for_system_groups: None,
        allowed_system_groups: &[],
    }
}

/// A user group's setting: system groups take `role:nobody` for it.
const fn group_setting(name: &'static str, everyone: bool, default: &'static str) -> PermissionSetting {
    PermissionSetting { default_for_system_groups: Some("role:nobody"), ..setting(name, everyone, default) }
}

/// The organization's settings Confab has (see `crate::groups::REALM_GROUP_SETTINGS`).
pub const REALM: &[PermissionSetting] = &[
    PermissionSetting {
        require_system_group: true,
        allow_nobody_group: false,
        allowed_system_groups: &["role:everyone", "role:members"],
        ..setting("can_access_all_users_group", true, "role:everyone")
    },
    setting("can_add_custom_emoji_group", false, "role:members"),
    setting("can_add_subscribers_group", false, "role:members"),
    setting("can_create_bots_group", false, "role:members"),
    setting("can_create_groups", false, "role:members"),
    setting("can_create_private_channel_group", false, "role:members"),
    setting("can_create_public_channel_group", false, "role:members"),
    PermissionSetting {
        require_system_group: true,
        allowed_system_groups: &["role:moderators", "role:administrators", "role:owners", "role:nobody"],
        ..setting("can_create_web_public_channel_group", false, "role:owners")
    },
    setting("can_create_write_only_bots_group", false, "role:members"),
    setting("can_delete_any_message_group", false, "role:administrators"),
    setting("can_delete_own_message_group", true, "role:everyone"),
    setting("can_invite_users_group", false, "role:members"),
    PermissionSetting { allow_nobody_group: false, ..setting("can_manage_all_groups", false, "role:owners") },
    setting("can_mention_many_users_group", true, "role:administrators"),
    setting("can_move_messages_between_channels_group", false, "role:members"),
    setting("can_move_messages_between_topics_group", true, "role:everyone"),
    setting("can_resolve_topics_group", true, "role:everyone"),
    setting("can_set_delete_message_policy_group", false, "role:moderators"),
    setting("can_set_topics_policy_group", true, "role:members"),
    setting("can_summarize_topics_group", true, "role:everyone"),
    setting("create_multiuse_invite_group", false, "role:administrators"),
    setting("direct_message_initiator_group", true, "role:everyone"),
    setting("direct_message_permission_group", true, "role:everyone"),
];

/// A channel's settings; `stream_creator_or_nobody` is Zulip's name at our level (427 renamed
/// it `channel_creator`).
pub const STREAM: &[PermissionSetting] = &[
    setting("can_add_subscribers_group", false, "role:nobody"),
    setting("can_administer_channel_group", false, "stream_creator_or_nobody"),
    setting("can_create_topic_group", true, "role:everyone"),
    setting("can_delete_any_message_group", true, "role:nobody"),
    setting("can_delete_own_message_group", true, "role:nobody"),
    setting("can_move_messages_out_of_channel_group", true, "role:nobody"),
    setting("can_move_messages_within_channel_group", true, "role:nobody"),
    setting("can_remove_subscribers_group", true, "role:administrators"),
    setting("can_resolve_topics_group", true, "role:nobody"),
    setting("can_send_message_group", true, "role:everyone"),
    setting("can_subscribe_group", false, "role:nobody"),
];

/// A user group's settings.
pub const GROUP: &[PermissionSetting] = &[
    group_setting("can_add_members_group", false, "group_creator"),
    group_setting("can_join_group", false, "role:nobody"),
    group_setting("can_leave_group", true, "role:everyone"),
    group_setting("can_manage_group", false, "group_creator"),
    group_setting("can_mention_group", true, "role:everyone"),
    group_setting("can_remove_members_group", false, "role:nobody"),
];

fn table_json(table: &[PermissionSetting]) -> Value {
    let entries: Map<String, Value> = table
        .iter()
        .map(|s| {
            let value = json!({
                "require_system_group": s.require_system_group,
                "allow_internet_group": s.allow_internet_group,
                "allow_nobody_group": s.allow_nobody_group,
                "allow_everyone_group": s.allow_everyone_group,
                "default_group_name": s.default_group_name,
                "default_for_system_groups": s.default_for_system_groups,
                "allowed_system_groups": s.allowed_system_groups,
            });
            (s.name.to_owned(), value)
        })
        .collect();
    Value::Object(entries)
}

/// Register's `server_supported_permission_settings`.
pub fn supported_json() -> Value {
    json!({"realm": table_json(REALM), "stream": table_json(STREAM), "group": table_json(GROUP)})
}

/// The rules of a setting, by table and name.
pub fn find(table: &[PermissionSetting], name: &str) -> Option<PermissionSetting> {
    table.iter().find(|s| s.name == name).copied()
}

/// Checks a new value against a setting's rules, with Zulip's texts.
pub fn check(groups: &Groups, rules: &PermissionSetting, value: &GroupSetting) -> ApiResult<()> {
    let name = rules.name;
    let required = || ApiError::bad_request(format!("'{name}' must be a system user group."));
    let GroupSetting::Named(id) = value else {
        return if rules.require_system_group { Err(required()) } else { Ok(()) };
    };
    let Some(group) = groups.get(*id) else { return Ok(()) };
    let Some(system) = group.system else {
        return if rules.require_system_group { Err(required()) } else { Ok(()) };
    };
    let group_name = system.name();
    let refused = |group_name: &str| {
        Err(ApiError::bad_request(format!("'{name}' setting cannot be set to '{group_name}' group.")))
    };
    let allowed = match group_name {
        "role:internet" => rules.allow_internet_group,
        "role:nobody" => rules.allow_nobody_group,
        "role:everyone" => rules.allow_everyone_group,
        _ => true,
    };
    if !allowed {
        return refused(group_name);
    }
    if !rules.allowed_system_groups.is_empty() && !rules.allowed_system_groups.contains(&group_name) {
        return refused(group_name);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_organization_setting_has_its_rules() {
        for (name, _, guests) in crate::groups::REALM_GROUP_SETTINGS {
            let rules = find(REALM, name).unwrap_or_else(|| panic!("{name} has no rules"));
            assert_eq!(rules.allow_everyone_group, guests, "{name}");
        }
        assert_eq!(REALM.len(), crate::groups::REALM_GROUP_SETTINGS.len());
    }

    #[test]
    fn every_channel_setting_has_its_rules() {
        let stream = crate::model::ChannelPermissions::default();
        for (name, _) in stream.fields() {
            assert!(find(STREAM, name).is_some(), "{name} has no rules");
        }
    }
}
