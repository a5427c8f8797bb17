use serde::{Deserialize, Serialize};

use crate::ids::RealmId;

/// The kinds of custom profile field, with Zulip's numeric values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "u8", try_from = "u8")]
pub enum ProfileFieldType {
    ShortText,
    LongText,
    /// A list of options (`field_data` holds them); Zulip's `SELECT`.
    Select,
    Date,
    Url,
    /// One or more users of the organization; Zulip's "Person picker".
    User,
    /// A user name on another service (`field_data` names the service).
    ExternalAccount,
    Pronouns,
}

impl ProfileFieldType {
    /// Every type, in Zulip's `ALL_FIELD_TYPES` order (sorted by display name).
    pub const ALL: [ProfileFieldType; 8] = [
        ProfileFieldType::Date,
        ProfileFieldType::ExternalAccount,
        ProfileFieldType::Url,
        ProfileFieldType::Select,
        ProfileFieldType::Pronouns,
        ProfileFieldType::LongText,
        ProfileFieldType::ShortText,
        ProfileFieldType::User,
    ];

    pub fn value(self) -> u8 {
        match self {
            ProfileFieldType::ShortText => 1,
            ProfileFieldType::LongText => 2,
            ProfileFieldType::Select => 3,
            ProfileFieldType::Date => 4,
            ProfileFieldType::Url => 5,
            ProfileFieldType::User => 6,
            ProfileFieldType::ExternalAccount => 7,
            ProfileFieldType::Pronouns => 8,
        }
    }

    pub fn from_value(value: i64) -> Option<ProfileFieldType> {
        ProfileFieldType::ALL.into_iter().find(|t| i64::from(t.value()) == value)
    }

    /// The key of `custom_profile_field_types` in register.
    pub fn keyword(self) -> &'static str {
        match self {
            ProfileFieldType::ShortText => "SHORT_TEXT",
            ProfileFieldType::LongText => "LONG_TEXT",
            ProfileFieldType::Select => "SELECT",
            ProfileFieldType::Date => "DATE",
            ProfileFieldType::Url => "URL",
            ProfileFieldType::User => "USER",
            ProfileFieldType::ExternalAccount => "EXTERNAL_ACCOUNT",
            ProfileFieldType::Pronouns => "PRONOUNS",
        }
    }

    /// The name Zulip shows administrators.
    pub fn display_name(self) -> &'static str {
        match self {
            ProfileFieldType::ShortText => "Text (short)",
            ProfileFieldType::LongText => "Text (long)",
            ProfileFieldType::Select => "List of options",
            ProfileFieldType::Date => "Date",
            ProfileFieldType::Url => "Link",
            ProfileFieldType::User => "Users",
            ProfileFieldType::ExternalAccount => "External account",
            ProfileFieldType::Pronouns => "Pronouns",
        }
    }

    /// Whether values are Markdown, rendered into `rendered_value` (Zulip's `is_renderable`).
    pub fn is_rendered(self) -> bool {
        matches!(self, ProfileFieldType::ShortText | ProfileFieldType::LongText)
    }
}

impl From<ProfileFieldType> for u8 {
    fn from(kind: ProfileFieldType) -> u8 {
        kind.value()
    }
}

impl TryFrom<u8> for ProfileFieldType {
    type Error = String;
    fn try_from(value: u8) -> Result<Self, Self::Error> {
        ProfileFieldType::from_value(i64::from(value)).ok_or_else(|| format!("invalid field type {value}"))
    }
}

/// A custom profile field an organization defined (Zulip's `CustomProfileField`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProfileField {
    pub id: u64,
    pub realm_id: RealmId,
    pub name: String,
    pub hint: String,
    pub field_type: ProfileFieldType,
    /// JSON text: the options of a list, the service of an external account; empty otherwise.
    pub field_data: String,
    /// Position in the organization's list (fields are shown by increasing order).
    pub order: i64,
    pub display_in_profile_summary: bool,
    pub required: bool,
    /// Whether users may set their own value (administrators always may).
    pub editable_by_user: bool,
}

/// One user's value for one field. A user with no value has no row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProfileValue {
    pub field_id: u64,
    /// As clients send and read it: the text, the option key, or a JSON list of user ids.
    pub value: String,
    /// The value as HTML, for the types whose values are Markdown.
    pub rendered_value: Option<String>,
}
