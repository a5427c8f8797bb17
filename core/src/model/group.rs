//! User groups (spec 2.9) and group-setting values (spec conventions §6).

use serde::{Deserialize, Serialize};

use crate::ids::{RealmId, UserGroupId, UserId};

/// A user group. System groups (`role:*`) have no stored members: their direct members follow
/// from users' roles, so a role change never leaves them out of step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UserGroup {
    pub id: UserGroupId,
    pub realm_id: RealmId,
    pub name: String,
    pub description: String,
    pub creator_id: Option<UserId>,
    pub date_created: Option<i64>,
    /// Set for the system groups; their direct members are computed (see [`SystemGroup`]).
    pub system: Option<SystemGroup>,
    pub direct_members: Vec<UserId>,
    pub direct_subgroups: Vec<UserGroupId>,
    pub deactivated: bool,
    pub can_add_members_group: GroupSetting,
    pub can_join_group: GroupSetting,
    pub can_leave_group: GroupSetting,
    pub can_manage_group: GroupSetting,
    pub can_mention_group: GroupSetting,
    pub can_remove_members_group: GroupSetting,
}

impl UserGroup {
    /// The group's permission settings, by name.
    pub fn settings(&self) -> [(&'static str, &GroupSetting); 6] {
        [
            ("can_add_members_group", &self.can_add_members_group),
            ("can_join_group", &self.can_join_group),
            ("can_leave_group", &self.can_leave_group),
            ("can_manage_group", &self.can_manage_group),
            ("can_mention_group", &self.can_mention_group),
            ("can_remove_members_group", &self.can_remove_members_group),
        ]
    }
}

/// Who holds a permission: a named group, or an anonymous set of users and groups.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum GroupSetting {
    Named(UserGroupId),
    Anonymous { direct_members: Vec<UserId>, direct_subgroups: Vec<UserGroupId> },
}

/// Zulip's system groups, nested from owners outwards:
/// owners ⊂ administrators ⊂ moderators ⊂ full members ⊂ members ⊂ everyone ⊂ internet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum SystemGroup {
    Owners,
    Administrators,
    Moderators,
    FullMembers,
    Members,
    Everyone,
    Internet,
    Nobody,
}

impl SystemGroup {
    /// Every system group, in creation order (each one's subgroup comes before it).
    pub const ALL: [SystemGroup; 8] = [
        SystemGroup::Owners,
        SystemGroup::Administrators,
        SystemGroup::Moderators,
        SystemGroup::FullMembers,
        SystemGroup::Members,
        SystemGroup::Everyone,
        SystemGroup::Internet,
        SystemGroup::Nobody,
    ];

    /// The group's name, as settings and the API name it.
    pub fn name(self) -> &'static str {
        match self {
            SystemGroup::Owners => "role:owners",
            SystemGroup::Administrators => "role:administrators",
            SystemGroup::Moderators => "role:moderators",
            SystemGroup::FullMembers => "role:fullmembers",
            SystemGroup::Members => "role:members",
            SystemGroup::Everyone => "role:everyone",
            SystemGroup::Internet => "role:internet",
            SystemGroup::Nobody => "role:nobody",
        }
    }

    /// The name a mention of the group shows.
    pub fn display_name(self) -> &'static str {
        match self {
            SystemGroup::Owners => "Owners",
            SystemGroup::Administrators => "Administrators",
            SystemGroup::Moderators => "Moderators",
            SystemGroup::FullMembers => "Full members",
            SystemGroup::Members => "Members",
            SystemGroup::Everyone => "Everyone",
            SystemGroup::Internet => "Everyone on the internet",
            SystemGroup::Nobody => "Nobody",
        }
    }

    /// Zulip's descriptions of the system groups.
    pub fn description(self) -> &'static str {
        match self {
            SystemGroup::Owners => "Owners of this organization",
            SystemGroup::Administrators => "Administrators of this organization, including owners",
            SystemGroup::Moderators => "Moderators of this organization, including administrators",
            SystemGroup::FullMembers => "Members of this organization, not including new accounts and guests",
            SystemGroup::Members => "Members of this organization, not including guests",
            SystemGroup::Everyone => "Everyone in this organization, including guests",
            SystemGroup::Internet => "Everyone on the internet",
            SystemGroup::Nobody => "Nobody",
        }
    }

    /// The system group directly inside this one.
    pub fn subgroup(self) -> Option<SystemGroup> {
        match self {
            SystemGroup::Owners | SystemGroup::Nobody => None,
            SystemGroup::Administrators => Some(SystemGroup::Owners),
            SystemGroup::Moderators => Some(SystemGroup::Administrators),
            SystemGroup::FullMembers => Some(SystemGroup::Moderators),
            SystemGroup::Members => Some(SystemGroup::FullMembers),
            SystemGroup::Everyone => Some(SystemGroup::Members),
            SystemGroup::Internet => Some(SystemGroup::Everyone),
        }
    }

    pub fn from_name(name: &str) -> Option<SystemGroup> {
        SystemGroup::ALL.into_iter().find(|g| g.name() == name)
    }
}
