//! The deprecated `*_policy` values register still sends beside the group settings that
//! replaced them (feature levels 264, 266, 280 and 352), worked out as Zulip's
//! `get_corresponding_policy_value_for_group_setting` works them out: a setting naming a
//! system group the old enum had a value for gets that value; any other setting (another
//! group, an anonymous value) gets the value of the largest group the old enum allowed.
//!
//! Zulip sends no `realm_edit_topic_policy` since feature level 316 (its register leaves it
//! out), so neither does Confab.

use crate::model::SystemGroup;

/// Each deprecated register key and the organization setting it describes.
pub const LEGACY_POLICY_KEYS: [(&str, &str); 4] = [
    ("realm_create_public_stream_policy", "can_create_public_channel_group"),
    ("realm_create_private_stream_policy", "can_create_private_channel_group"),
    ("realm_create_web_public_stream_policy", "can_create_web_public_channel_group"),
    ("realm_wildcard_mention_policy", "can_mention_many_users_group"),
];

// Zulip's common policy enum (`Realm.POLICY_*`).
const MEMBERS_ONLY: i64 = 1;
const ADMINS_ONLY: i64 = 2;
const FULL_MEMBERS_ONLY: i64 = 3;
const MODERATORS_ONLY: i64 = 4;
const NOBODY: i64 = 6;
const OWNERS_ONLY: i64 = 7;

// Zulip's `WildcardMentionPolicyEnum`, numbered apart from the common enum.
const WILDCARD_EVERYONE: i64 = 1;
const WILDCARD_MEMBERS: i64 = 2;
const WILDCARD_FULL_MEMBERS: i64 = 3;
const WILDCARD_ADMINS: i64 = 5;
const WILDCARD_NOBODY: i64 = 6;
const WILDCARD_MODERATORS: i64 = 7;

/// The deprecated value of `setting` when it names `system` (`None`: a user-defined group or
/// an anonymous value). `None` for a setting without a deprecated key.
pub fn legacy_policy(setting: &str, system: Option<SystemGroup>) -> Option<i64> {
    use SystemGroup::*;
    Some(match setting {
        "can_create_public_channel_group" | "can_create_private_channel_group" => match system {
            Some(Administrators) => ADMINS_ONLY,
            Some(FullMembers) => FULL_MEMBERS_ONLY,
            Some(Moderators) => MODERATORS_ONLY,
            // Owners and nobody had no value in the common enum.
            _ => MEMBERS_ONLY,
        },
        "can_create_web_public_channel_group" => match system {
            Some(Owners) => OWNERS_ONLY,
            Some(Administrators) => ADMINS_ONLY,
            Some(Nobody) => NOBODY,
            _ => MODERATORS_ONLY,
        },
        "can_mention_many_users_group" => match system {
            Some(Members) => WILDCARD_MEMBERS,
            Some(FullMembers) => WILDCARD_FULL_MEMBERS,
            Some(Moderators) => WILDCARD_MODERATORS,
            Some(Administrators) => WILDCARD_ADMINS,
            Some(Nobody) => WILDCARD_NOBODY,
            // Zulip's map has no owners entry, and falls back to everyone.
            _ => WILDCARD_EVERYONE,
        },
        _ => return None,
    })
}

/// The system group a system group's name stands for, as register's groups name them.
pub fn system_group_named(name: &str) -> Option<SystemGroup> {
    SystemGroup::ALL.into_iter().find(|g| g.name() == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_system_group_maps_to_zulips_old_enum() {
        use SystemGroup::*;
        let cases = [
            ("can_create_public_channel_group", Some(Members), 1),
            ("can_create_public_channel_group", Some(Administrators), 2),
            ("can_create_public_channel_group", Some(FullMembers), 3),
            ("can_create_public_channel_group", Some(Moderators), 4),
            ("can_create_private_channel_group", Some(Owners), 1),
            ("can_create_private_channel_group", Some(Nobody), 1),
            ("can_create_private_channel_group", None, 1),
            ("can_create_web_public_channel_group", Some(Owners), 7),
            ("can_create_web_public_channel_group", Some(Nobody), 6),
            ("can_create_web_public_channel_group", Some(Moderators), 4),
            ("can_create_web_public_channel_group", Some(Administrators), 2),
            ("can_mention_many_users_group", Some(Administrators), 5),
            ("can_mention_many_users_group", Some(Everyone), 1),
            ("can_mention_many_users_group", Some(Owners), 1),
            ("can_mention_many_users_group", Some(Moderators), 7),
            ("can_mention_many_users_group", Some(Nobody), 6),
            ("can_mention_many_users_group", None, 1),
        ];
        for (setting, system, expected) in cases {
            assert_eq!(legacy_policy(setting, system), Some(expected), "{setting} {system:?}");
        }
        assert_eq!(legacy_policy("can_resolve_topics_group", None), None);
    }
}
