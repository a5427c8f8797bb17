//! The organization: `realm`, `user_group`, `channel_folder`, `custom_profile_fields`,
//! `realm_linkifiers`, `default_streams`, `default_stream_groups`, `realm_emoji`, and the settings events of the
//! `property`/`value` form (`user_settings`, `realm_user_settings_defaults`).

use serde::{Deserialize, Serialize};
use serde_json::Value;

#[cfg(feature = "typescript")]
use ts_rs::TS;

use super::Rest;

/// One property changed to a value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct PropertyChange {
    pub property: String,
    pub value: Value,
    #[serde(flatten)]
    pub rest: Rest,
}

/// `user_settings` and `realm_user_settings_defaults`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum SettingsEvent {
    Update(PropertyChange),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum RealmEvent {
    /// `realm_<property>` is now `value`.
    Update(PropertyChange),
    /// Each `realm_<key>` of `data` is now its value.
    UpdateDict(RealmUpdateDict),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct RealmUpdateDict {
    pub data: serde_json::Map<String, Value>,
    #[serde(flatten)]
    pub rest: Rest,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum UserGroupEvent {
    Add {
        group: Value,
        #[serde(flatten)]
        rest: Rest,
    },
    Remove {
        group_id: u64,
        #[serde(flatten)]
        rest: Rest,
    },
    Update {
        group_id: u64,
        data: serde_json::Map<String, Value>,
        #[serde(flatten)]
        rest: Rest,
    },
    AddMembers {
        group_id: u64,
        user_ids: Vec<u64>,
        #[serde(flatten)]
        rest: Rest,
    },
    RemoveMembers {
        group_id: u64,
        user_ids: Vec<u64>,
        #[serde(flatten)]
        rest: Rest,
    },
    AddSubgroups {
        group_id: u64,
        direct_subgroup_ids: Vec<u64>,
        #[serde(flatten)]
        rest: Rest,
    },
    RemoveSubgroups {
        group_id: u64,
        direct_subgroup_ids: Vec<u64>,
        #[serde(flatten)]
        rest: Rest,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum ChannelFolderEvent {
    Add {
        channel_folder: Value,
        #[serde(flatten)]
        rest: Rest,
    },
    Update {
        channel_folder_id: u64,
        data: serde_json::Map<String, Value>,
        #[serde(flatten)]
        rest: Rest,
    },
    /// The folders' ids in their new order.
    Reorder {
        order: Vec<u64>,
        #[serde(flatten)]
        rest: Rest,
    },
}

/// The organization's custom profile fields, all of them, in their order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct CustomProfileFieldsEvent {
    pub fields: Vec<Value>,
    #[serde(flatten)]
    pub rest: Rest,
}

/// The organization's linkifiers, all of them, in the order they apply.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct RealmLinkifiersEvent {
    pub linkifiers: Value,
    #[serde(flatten)]
    pub rest: Rest,
}

/// The organization's code playgrounds, all of them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct RealmPlaygroundsEvent {
    pub realm_playgrounds: Value,
    #[serde(flatten)]
    pub rest: Rest,
}

/// The organization's default channels, all of them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct DefaultStreamsEvent {
    pub default_streams: Value,
    #[serde(flatten)]
    pub rest: Rest,
}

/// The organization's default channel groups, all of them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct DefaultStreamGroupsEvent {
    pub default_stream_groups: Value,
    #[serde(flatten)]
    pub rest: Rest,
}

/// The organization's custom emoji, all of them, by id.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum RealmEmojiEvent {
    Update {
        realm_emoji: Value,
        #[serde(flatten)]
        rest: Rest,
    },
}
