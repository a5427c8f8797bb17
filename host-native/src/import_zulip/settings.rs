//! Settings carried over where Confab has the same setting with the same values: the
//! organization's plain properties, announcement channels and group settings, channels' group
//! settings, users' personal settings. Values Confab would refuse through the API are left at
//! Confab's default, as are settings it does not have.

use confab_core::model::realm_properties::{Kind, REALM_PROPERTIES, allowed};
use confab_core::model::settings::{Allowed, READ_ONLY_SETTINGS, allowed_values, default_user_settings};
use confab_core::model::{ChannelPermissions, GroupSetting, RealmSettings};
use confab_core::permission_settings;
use serde_json::{Map, Value};

/// The organization's settings from its `zerver_realm` row. `channel` maps an exported channel
/// id to the new one, `group` an exported group id to its setting.
pub fn realm_settings(
    row: &Map<String, Value>,
    channel: impl Fn(u64) -> Option<u64>,
    group: impl Fn(u64) -> GroupSetting,
) -> RealmSettings {
    let mut settings = RealmSettings::default();
    for (name, default, kind) in REALM_PROPERTIES {
        let value = match kind {
            // Zulip's column names the channel without `_id`; Confab's property has it.
            Kind::Channel => {
                match row.get(name.trim_end_matches("_id")).and_then(Value::as_u64).and_then(&channel) {
                    Some(id) => Value::from(id),
                    None => continue,
                }
            }
            _ => match row.get(*name) {
                Some(value) if allowed(*kind, value) => value.clone(),
                _ => continue,
            },
        };
        if value != default() {
            settings.properties.insert((*name).to_owned(), value);
        }
    }
    for rule in permission_settings::REALM {
        if let Some(id) = row.get(rule.name).and_then(Value::as_u64) {
            settings.groups.insert(rule.name.to_owned(), group(id));
        }
    }
    settings.moderation_request_channel_id = row
        .get("moderation_request_channel")
        .and_then(Value::as_u64)
        .and_then(&channel)
        .map(confab_core::ids::StreamId);
    settings
}

/// A channel's group settings from its `zerver_stream` row.
pub fn channel_permissions(
    row: &Map<String, Value>,
    group: impl Fn(u64) -> GroupSetting,
) -> ChannelPermissions {
    let mut set = Map::new();
    for rule in permission_settings::STREAM {
        if let Some(id) = row.get(rule.name).and_then(Value::as_u64) {
            set.insert(rule.name.to_owned(), serde_json::to_value(group(id)).unwrap_or(Value::Null));
        }
    }
    serde_json::from_value(Value::Object(set)).unwrap_or_default()
}

/// The personal settings a user changed from Zulip's defaults, as `userid_settings` keeps them.
pub fn user_settings(row: &Map<String, Value>) -> Map<String, Value> {
    let mut changed = Map::new();
    for (name, default) in default_user_settings("") {
        if name == "timezone"
            || name == "email_address_visibility"
            || READ_ONLY_SETTINGS.contains(&name.as_str())
        {
            continue;
        }
        let Some(value) = row.get(&name) else { continue };
        if *value != default && same_type(value, &default) && permitted(&name, value) {
            changed.insert(name, value.clone());
        }
    }
    changed
}

fn same_type(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(a), Value::Number(b)) => a.is_i64() == b.is_i64(),
        (a, b) => std::mem::discriminant(a) == std::mem::discriminant(b),
    }
}

fn permitted(name: &str, value: &Value) -> bool {
    match allowed_values(name) {
        Allowed::Any => true,
        Allowed::Ints(choices) => value.as_i64().is_some_and(|v| choices.contains(&v)),
        Allowed::Range(low, high) => value.as_i64().is_some_and(|v| (low..=high).contains(&v)),
        Allowed::Strings(choices) => value.as_str().is_some_and(|v| choices.contains(&v)),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn object(value: Value) -> Map<String, Value> {
        value.as_object().cloned().expect("an object")
    }

    #[test]
    fn realm_properties_keep_what_confab_allows_and_channels_are_remapped() {
        let row = object(json!({
            "invite_required": false, "giphy_rating": 99, "waiting_period_threshold": 3,
            "new_stream_announcements_stream": 5, "signup_announcements_stream": null,
            "zulip_update_announcements_stream": 77, "can_create_public_channel_group": 51,
            "moderation_request_channel": 5, "string_id": "anvils",
        }));
        let settings = realm_settings(
            &row,
            |id| (id == 5).then_some(50),
            |id| GroupSetting::Named(confab_core::ids::UserGroupId(id * 10)),
        );
        assert_eq!(settings.properties.get("invite_required"), Some(&json!(false)));
        assert_eq!(settings.properties.get("giphy_rating"), None, "99 is no rating");
        assert_eq!(settings.properties.get("new_stream_announcements_stream_id"), Some(&json!(50)));
        assert_eq!(settings.properties.get("zulip_update_announcements_stream_id"), None, "77 is no channel");
        assert_eq!(settings.moderation_request_channel_id, Some(confab_core::ids::StreamId(50)));
        assert_eq!(
            settings.groups.get("can_create_public_channel_group"),
            Some(&GroupSetting::Named(confab_core::ids::UserGroupId(510)))
        );
    }

    #[test]
    fn personal_settings_keep_changes_confab_allows() {
        let row = object(json!({
            "twenty_four_hour_time": true, "web_font_size_px": 99, "emojiset": "twitter",
            "color_scheme": "dark", "starred_message_counts": true, "full_name": "Ada",
        }));
        let changed = user_settings(&row);
        assert_eq!(changed, object(json!({"twenty_four_hour_time": true, "emojiset": "twitter"})));
    }
}
