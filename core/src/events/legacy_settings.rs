//! The legacy settings events (before feature level 89) that accompany `user_settings` for
//! clients without the `user_settings_object` capability, such as zulip-terminal 0.7.0.
//!
//! The lists are Zulip's `UserBaseSettings.display_settings_legacy` and
//! `notification_settings_legacy` (`zerver/models/users.py`); "Don't add anything new to this
//! legacy dict", so they are fixed. The event shapes are those of `do_change_user_setting`
//! (`zerver/actions/user_settings.py`).

use serde_json::{Map, Value};

/// Settings reported by `update_display_settings`; `timezone` is added to them there.
pub const DISPLAY_SETTINGS_LEGACY: &[&str] = &[
    "color_scheme",
    "default_language",
    "web_home_view",
    "demote_inactive_streams",
    "emojiset",
    "enable_drafts_synchronization",
    "enter_sends",
    "fluid_layout_width",
    "high_contrast_mode",
    "left_side_userlist",
    "starred_message_counts",
    "translate_emoticons",
    "twenty_four_hour_time",
];

/// Settings reported by `update_global_notifications`.
pub const NOTIFICATION_SETTINGS_LEGACY: &[&str] = &[
    "desktop_icon_count_display",
    "email_notifications_batching_period_seconds",
    "enable_desktop_notifications",
    "enable_digest_emails",
    "enable_login_emails",
    "enable_marketing_emails",
    "enable_offline_email_notifications",
    "enable_offline_push_notifications",
    "enable_online_push_notifications",
    "enable_sounds",
    "enable_stream_audible_notifications",
    "enable_stream_desktop_notifications",
    "enable_stream_email_notifications",
    "enable_stream_push_notifications",
    "message_content_in_email_notifications",
    "notification_sound",
    "pm_content_in_desktop_notifications",
    "presence_enabled",
    "realm_name_in_email_notifications_policy",
    "wildcard_mentions_notify",
];

/// The legacy event for a `user_settings` `update` body, if its setting has one:
/// `update_global_notifications {user, notification_name, setting}` or
/// `update_display_settings {user, setting_name, setting[, language_name]}`. `email` is the
/// user's API email (the legacy `user` field).
pub(crate) fn legacy_settings_event(user_settings: &Value, email: &str) -> Option<Value> {
    if user_settings.get("op").and_then(Value::as_str) != Some("update") {
        return None;
    }
    let property = user_settings.get("property").and_then(Value::as_str)?;
    let value = user_settings.get("value").cloned().unwrap_or(Value::Null);
    let mut event = Map::new();
    if NOTIFICATION_SETTINGS_LEGACY.contains(&property) {
        event.insert("type".into(), "update_global_notifications".into());
        event.insert("user".into(), email.into());
        event.insert("notification_name".into(), property.into());
        event.insert("setting".into(), value);
    } else if DISPLAY_SETTINGS_LEGACY.contains(&property) || property == "timezone" {
        event.insert("type".into(), "update_display_settings".into());
        event.insert("user".into(), email.into());
        event.insert("setting_name".into(), property.into());
        event.insert("setting".into(), value);
        if let Some(language_name) = user_settings.get("language_name") {
            event.insert("language_name".into(), language_name.clone());
        }
    } else {
        return None;
    }
    Some(Value::Object(event))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn display_notification_and_modern_settings() {
        let update = |property: &str, value: Value| json!({"type": "user_settings", "op": "update", "property": property, "value": value});
        assert_eq!(
            legacy_settings_event(&update("twenty_four_hour_time", json!(true)), "a@x"),
            Some(
                json!({"type": "update_display_settings", "user": "a@x", "setting_name": "twenty_four_hour_time", "setting": true})
            )
        );
        assert_eq!(
            legacy_settings_event(&update("timezone", json!("Europe/Paris")), "a@x"),
            Some(
                json!({"type": "update_display_settings", "user": "a@x", "setting_name": "timezone", "setting": "Europe/Paris"})
            )
        );
        assert_eq!(
            legacy_settings_event(&update("enable_sounds", json!(false)), "a@x"),
            Some(
                json!({"type": "update_global_notifications", "user": "a@x", "notification_name": "enable_sounds", "setting": false})
            )
        );
        let mut language = update("default_language", json!("de"));
        language["language_name"] = json!("Deutsch");
        assert_eq!(
            legacy_settings_event(&language, "a@x"),
            Some(
                json!({"type": "update_display_settings", "user": "a@x", "setting_name": "default_language", "setting": "de", "language_name": "Deutsch"})
            )
        );
        // Settings added after feature level 89 have no legacy event.
        assert_eq!(legacy_settings_event(&update("send_read_receipts", json!(true)), "a@x"), None);
        assert_eq!(legacy_settings_event(&update("web_font_size_px", json!(16)), "a@x"), None);
    }

    #[test]
    fn lists_do_not_overlap() {
        assert!(DISPLAY_SETTINGS_LEGACY.iter().all(|s| !NOTIFICATION_SETTINGS_LEGACY.contains(s)));
    }
}
