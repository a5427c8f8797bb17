//! Personal settings, with Zulip's defaults (`UserProfile` property types).

use serde_json::{Map, Value, json};

/// The settings Zulip's register returns in `user_settings`, at Zulip's defaults (`timezone`
/// is the user's own).
pub fn default_user_settings(timezone: &str) -> Map<String, Value> {
    let mut settings = DEFAULTS.clone();
    settings.insert("timezone".into(), timezone.into());
    settings
}

/// One setting as the user has it: what they changed it to, else Zulip's default. For rules
/// that read a setting or two (every send reads the sender's automatic-follow policies), where
/// building the whole map would cost more than the rule.
pub fn user_setting(changed: &Map<String, Value>, name: &str) -> Option<Value> {
    changed.get(name).or_else(|| DEFAULTS.get(name)).cloned()
}

/// The defaults but `timezone`, built once: they are the same for everyone.
static DEFAULTS: std::sync::LazyLock<Map<String, Value>> = std::sync::LazyLock::new(|| {
    let value = json!({
        "twenty_four_hour_time": false,
        "web_mark_read_on_scroll_policy": 1,
        "web_channel_default_view": 1,
        "starred_message_counts": true,
        "receives_typing_notifications": true,
        "fluid_layout_width": false,
        "high_contrast_mode": false,
        "web_font_size_px": 14,
        "web_line_height_percent": 122,
        "color_scheme": 1,
        "enable_drafts_synchronization": true,
        "translate_emoticons": false,
        "display_emoji_reaction_users": true,
        "default_language": "en",
        "web_home_view": "inbox",
        "web_escape_navigates_to_home_view": true,
        "left_side_userlist": false,
        "emojiset": "google",
        "demote_inactive_streams": 1,
        "user_list_style": 2,
        "web_animate_image_previews": "on_hover",
        "web_stream_unreads_count_display_policy": 2,
        "hide_ai_features": false,
        "timezone": "",
        "enable_stream_desktop_notifications": false,
        "enable_stream_email_notifications": false,
        "enable_stream_push_notifications": false,
        "enable_stream_audible_notifications": false,
        "notification_sound": "zulip",
        "enable_desktop_notifications": true,
        "enable_sounds": true,
        "email_notifications_batching_period_seconds": 120,
        "enable_offline_email_notifications": true,
        "enable_offline_push_notifications": true,
        "enable_online_push_notifications": true,
        "enable_followed_topic_desktop_notifications": true,
        "enable_followed_topic_email_notifications": true,
        "enable_followed_topic_push_notifications": true,
        "enable_followed_topic_audible_notifications": true,
        "enable_digest_emails": true,
        "enable_marketing_emails": true,
        "enable_login_emails": true,
        "message_content_in_email_notifications": true,
        "pm_content_in_desktop_notifications": true,
        "wildcard_mentions_notify": true,
        "enable_followed_topic_wildcard_mentions_notify": true,
        "desktop_icon_count_display": 1,
        "realm_name_in_email_notifications_policy": 1,
        "automatically_follow_topics_policy": 3,
        "automatically_unmute_topics_in_muted_streams_policy": 2,
        "automatically_follow_topics_where_mentioned": true,
        "presence_enabled": true,
        "enter_sends": false,
        "send_private_typing_notifications": true,
        "send_stream_typing_notifications": true,
        "send_read_receipts": true,
        "allow_private_data_export": false,
        "email_address_visibility": 1,
        "web_navigate_to_sent_message": true,
        "web_suggest_update_timezone": true,
        "web_left_sidebar_unreads_count_summary": true,
        "web_left_sidebar_show_channel_folders": true,
        "resolved_topic_notice_auto_read_policy": "except_followed",
        "available_notification_sounds": ["zulip"],
        "emojiset_choices": [
            {"key": "google", "text": "Google"},
            {"key": "twitter", "text": "Twitter"},
            {"key": "text", "text": "Plain text"}
        ],
    });
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
});

/// A user's settings: the defaults with what they changed.
pub fn user_settings(timezone: &str, changed: &Map<String, Value>) -> Map<String, Value> {
    let mut settings = default_user_settings(timezone);
    // Only settings that still exist: a stored choice of one Zulip removed since (such as
    // `dense_mode`, feature level 364) is no longer shown.
    let kept: Vec<(String, Value)> = changed
        .iter()
        .filter(|(k, _)| settings.contains_key(k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    settings.extend(kept);
    settings
}

/// What a setting may be set to, beyond its type (Zulip's `UserBaseSettings` validators).
pub enum Allowed {
    Any,
    Ints(&'static [i64]),
    Range(i64, i64),
    Strings(&'static [&'static str]),
}

/// The choices of the settings that have them.
pub fn allowed_values(name: &str) -> Allowed {
    match name {
        "color_scheme" => Allowed::Ints(&[1, 2, 3]),
        "web_mark_read_on_scroll_policy" | "demote_inactive_streams" | "user_list_style" => {
            Allowed::Ints(&[1, 2, 3])
        }
        "web_stream_unreads_count_display_policy" => Allowed::Ints(&[1, 2, 3]),
        // Four choices since feature level 227.
        "desktop_icon_count_display" => Allowed::Ints(&[1, 2, 3, 4]),
        "realm_name_in_email_notifications_policy" => Allowed::Ints(&[1, 2, 3]),
        "web_channel_default_view" | "automatically_follow_topics_policy" => Allowed::Ints(&[1, 2, 3, 4]),
        "automatically_unmute_topics_in_muted_streams_policy" => Allowed::Ints(&[1, 2, 3, 4]),
        "email_address_visibility" => Allowed::Ints(&[1, 2, 3, 4, 5]),
        "email_notifications_batching_period_seconds" => Allowed::Range(120, 7 * 24 * 60 * 60),
        "web_font_size_px" => Allowed::Range(12, 20),
        "web_line_height_percent" => Allowed::Range(122, 158),
        "emojiset" => Allowed::Strings(&["google", "twitter", "text", "google-blob"]),
        "web_home_view" => Allowed::Strings(&["recent_topics", "inbox", "all_messages"]),
        "web_animate_image_previews" => Allowed::Strings(&["always", "on_hover", "never"]),
        "notification_sound" => Allowed::Strings(&["zulip", "none"]),
        "resolved_topic_notice_auto_read_policy" => Allowed::Strings(&["always", "except_followed", "never"]),
        "default_language" => Allowed::Strings(&["en"]),
        _ => Allowed::Any,
    }
}

/// Settings that are shown but not set through `PATCH /settings`.
pub const READ_ONLY_SETTINGS: &[&str] = &["available_notification_sounds", "emojiset_choices"];
