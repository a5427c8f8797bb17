//! Organization settings that are plain values (Zulip's `Realm.property_types`), each with
//! Zulip's default and what it may be set to. An organization stores only the values it
//! changed (`RealmSettings::properties`); register shows every one as `realm_<name>`.
//!
//! The settings with rules of their own (name, description, editing limits, moderation channel,
//! topics policy, group settings) are fields of `RealmSettings` and handled by `api::realm`.

use serde_json::{Map, Value, json};

/// What a property may be set to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Bool,
    /// An integer among these.
    Ints(&'static [i64]),
    /// An integer in this range, inclusive.
    Range(i64, i64),
    /// A channel of the organization, or -1 for none.
    Channel,
    /// A language code, as Zulip's `default_language` (`en`, `pt_BR`, `zh-hans`).
    Language,
    /// Any string up to this many characters.
    Text(usize),
    /// A URL, or null for the server's default.
    OptionalUrl,
}

/// One property: its name (without `realm_`), Zulip's default, what it may be.
pub type Property = (&'static str, fn() -> Value, Kind);

/// Zulip's organization types (`Realm.ORG_TYPES`).
const ORG_TYPES: &[i64] = &[0, 10, 20, 30, 35, 40, 50, 60, 70, 80, 90, 100, 1000];
/// Zulip's video call providers: none, Jitsi, Zoom, BigBlueButton, Zoom (server to server),
/// Nextcloud Talk, Webex, Constructor Groups.
const VIDEO_CHAT_PROVIDERS: &[i64] = &[0, 1, 3, 4, 5, 6, 7, 8];
/// GIPHY content ratings: disabled, Y, G, PG, PG-13, R.
const GIPHY_RATINGS: &[i64] = &[0, 1, 2, 3, 4];

/// Zulip's `Realm.MAX_REALM_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH`.
pub const MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH: usize = 8000;

/// Every plain property Confab keeps, in Zulip's `property_types` order.
pub const REALM_PROPERTIES: &[Property] = &[
    ("avatar_changes_disabled", || json!(false), Kind::Bool),
    ("default_code_block_language", || json!(""), Kind::Text(100)),
    ("default_language", || json!("en"), Kind::Language),
    ("digest_emails_enabled", || json!(false), Kind::Bool),
    ("digest_weekday", || json!(1), Kind::Range(0, 6)),
    ("disallow_disposable_email_addresses", || json!(true), Kind::Bool),
    ("email_changes_disabled", || json!(false), Kind::Bool),
    ("emails_restricted_to_domains", || json!(false), Kind::Bool),
    ("enable_guest_user_dm_warning", || json!(true), Kind::Bool),
    ("enable_guest_user_indicator", || json!(true), Kind::Bool),
    ("enable_read_receipts", || json!(false), Kind::Bool),
    ("enable_spectator_access", || json!(false), Kind::Bool),
    ("giphy_rating", || json!(2), Kind::Ints(GIPHY_RATINGS)),
    ("inline_image_preview", || json!(true), Kind::Bool),
    ("inline_url_embed_preview", || json!(false), Kind::Bool),
    ("invite_required", || json!(true), Kind::Bool),
    ("jitsi_server_url", || Value::Null, Kind::OptionalUrl),
    ("message_content_allowed_in_email_notifications", || json!(true), Kind::Bool),
    ("name_changes_disabled", || json!(false), Kind::Bool),
    ("new_stream_announcements_stream_id", || json!(-1), Kind::Channel),
    ("org_type", || json!(0), Kind::Ints(ORG_TYPES)),
    ("presence_disabled", || json!(false), Kind::Bool),
    // Settable though no push service is configured, as in Zulip, which checks nothing more.
    ("require_e2ee_push_notifications", || json!(false), Kind::Bool),
    ("require_unique_names", || json!(false), Kind::Bool),
    ("send_welcome_emails", || json!(true), Kind::Bool),
    ("signup_announcements_stream_id", || json!(-1), Kind::Channel),
    ("video_chat_provider", || json!(1), Kind::Ints(VIDEO_CHAT_PROVIDERS)),
    ("waiting_period_threshold", || json!(0), Kind::Range(0, i32::MAX as i64)),
    ("want_advertise_in_communities_directory", || json!(false), Kind::Bool),
    ("zulip_update_announcements_stream_id", || json!(-1), Kind::Channel),
    // What a Welcome Bot would add to its welcome (feature level 416); Confab has no Welcome
    // Bot, so only `POST /realm/test_welcome_bot_custom_message` sends it.
    ("welcome_message_custom_text", || json!(""), Kind::Text(MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH)),
];

/// The property of this name.
pub fn realm_property(name: &str) -> Option<&'static Property> {
    REALM_PROPERTIES.iter().find(|(n, _, _)| *n == name)
}

/// Every property's value: Zulip's defaults with what the organization changed.
pub fn realm_properties(changed: &Map<String, Value>) -> Map<String, Value> {
    REALM_PROPERTIES
        .iter()
        .map(|(name, default, _)| ((*name).to_owned(), changed.get(*name).cloned().unwrap_or_else(default)))
        .collect()
}

/// Whether `value` (already of the property's JSON type) is allowed. Channels are checked by
/// the caller, which can see them.
pub fn allowed(kind: Kind, value: &Value) -> bool {
    match kind {
        Kind::Bool => value.is_boolean(),
        Kind::Ints(choices) => value.as_i64().is_some_and(|n| choices.contains(&n)),
        Kind::Range(low, high) => value.as_i64().is_some_and(|n| (low..=high).contains(&n)),
        Kind::Channel => value.as_i64().is_some_and(|n| n == -1 || n > 0),
        Kind::Language => value.as_str().is_some_and(is_language_code),
        Kind::Text(limit) => value.as_str().is_some_and(|s| s.chars().count() <= limit),
        Kind::OptionalUrl => {
            value.is_null()
                || value.as_str().is_some_and(|s| s.starts_with("https://") || s.starts_with("http://"))
        }
    }
}

/// `en`, `pt_BR`, `zh-hans`, `sr@latin`: the shapes of Zulip's language codes.
fn is_language_code(code: &str) -> bool {
    let mut parts = code.splitn(2, ['_', '-', '@']);
    let base = parts.next().unwrap_or_default();
    let rest = parts.next().unwrap_or("x");
    (2..=3).contains(&base.len())
        && base.chars().all(|c| c.is_ascii_lowercase())
        && (1..=8).contains(&rest.len())
        && rest.chars().all(|c| c.is_ascii_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_checked_by_kind() {
        assert!(allowed(Kind::Bool, &json!(true)));
        assert!(!allowed(Kind::Bool, &json!(1)));
        assert!(allowed(Kind::Ints(ORG_TYPES), &json!(35)));
        assert!(!allowed(Kind::Ints(ORG_TYPES), &json!(36)));
        assert!(allowed(Kind::Range(0, 6), &json!(6)));
        assert!(!allowed(Kind::Range(0, 6), &json!(7)));
        for code in ["en", "pt_BR", "zh-hans", "sr@latin"] {
            assert!(allowed(Kind::Language, &json!(code)), "{code}");
        }
        for code in ["", "english", "EN", "en_"] {
            assert!(!allowed(Kind::Language, &json!(code)), "{code}");
        }
        assert!(allowed(Kind::OptionalUrl, &Value::Null));
        assert!(!allowed(Kind::OptionalUrl, &json!("ftp://x")));
    }

    #[test]
    fn unchanged_properties_read_as_zulips_defaults() {
        let changed = Map::from_iter([("digest_weekday".to_owned(), json!(4))]);
        let all = realm_properties(&changed);
        assert_eq!(all["digest_weekday"], 4);
        assert_eq!(all["invite_required"], true);
        assert_eq!(all.len(), REALM_PROPERTIES.len());
    }
}
