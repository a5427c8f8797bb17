//! Who is in a user group and who holds a group-setting permission (zulip-semantics §6.1).
//!
//! [`Groups`] is one organization's groups and users, read once per command: membership is
//! recursive over subgroups and counts active users only; system groups take their direct
//! members from users' roles.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};

use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::ids::{IdKind, RealmId, UserGroupId, UserId};
use crate::model::{GroupSetting, Realm, Role, Stream, SystemGroup, User, UserGroup};
use crate::store::{Change, IdAllocator, Store};

/// The role whose active users are a system group's direct members.
fn role_of(which: SystemGroup) -> Option<Role> {
    match which {
        SystemGroup::Owners => Some(Role::Owner),
        SystemGroup::Administrators => Some(Role::Administrator),
        SystemGroup::Moderators => Some(Role::Moderator),
        SystemGroup::FullMembers | SystemGroup::Members => Some(Role::Member),
        SystemGroup::Everyone => Some(Role::Guest),
        SystemGroup::Internet | SystemGroup::Nobody => None,
    }
}

/// One organization's user groups and users.
#[derive(Clone, Debug)]
pub struct Groups {
    groups: BTreeMap<UserGroupId, UserGroup>,
    users: BTreeMap<UserId, User>,
}

impl Groups {
    pub fn load(store: &impl Store, realm: RealmId) -> ApiResult<Groups> {
        Ok(Groups {
            groups: store.user_groups(realm)?.into_iter().map(|g| (g.id, g)).collect(),
            users: store.realm_users(realm)?.into_iter().map(|u| (u.id, u)).collect(),
        })
    }

    /// Replaces a user's record, as a command that changes it (a reactivation) sees it after.
    pub fn put_user(&mut self, user: User) {
        self.users.insert(user.id, user);
    }

    pub fn get(&self, id: UserGroupId) -> Option<&UserGroup> {
        self.groups.get(&id)
    }

    pub fn all(&self) -> impl Iterator<Item = &UserGroup> {
        self.groups.values()
    }

    /// A group by name, compared case-insensitively, as mentions and names are unique.
    pub fn by_name(&self, name: &str) -> Option<&UserGroup> {
        let name = name.to_lowercase();
        self.groups.values().find(|g| g.name.to_lowercase() == name)
    }

    pub fn system(&self, which: SystemGroup) -> Option<&UserGroup> {
        self.groups.values().find(|g| g.system == Some(which))
    }

    /// The id of a system group; every organization has all of them.
    pub fn system_id(&self, which: SystemGroup) -> ApiResult<UserGroupId> {
        self.system(which)
            .map(|g| g.id)
            .ok_or_else(|| ApiError::internal(format!("missing {}", which.name())))
    }

    pub fn user(&self, id: UserId) -> Option<&User> {
        self.users.get(&id)
    }

    pub fn all_users(&self) -> impl Iterator<Item = &User> {
        self.users.values()
    }

    /// A group's direct members: stored ones, or for a system group the active users whose role
    /// puts them there.
    pub fn direct_members(&self, group: &UserGroup) -> Vec<UserId> {
        let active = |id: &UserId| self.users.get(id).is_some_and(|u| u.is_active);
        match group.system {
            None => group.direct_members.iter().copied().filter(active).collect(),
            Some(which) => match role_of(which) {
                Some(role) => {
                    self.users.values().filter(|u| u.is_active && u.role == role).map(|u| u.id).collect()
                }
                None => Vec::new(),
            },
        }
    }

    /// The system groups an active user of `role` is a direct member of.
    pub fn role_groups(&self, role: Role) -> Vec<UserGroupId> {
        self.groups.values().filter(|g| g.system.and_then(role_of) == Some(role)).map(|g| g.id).collect()
    }

    /// Every active member of a group, through its subgroups.
    pub fn members(&self, id: UserGroupId) -> BTreeSet<UserId> {
        self.members_of(&[], &[id])
    }

    /// Every active user a group-setting value names.
    pub fn setting_members(&self, setting: &GroupSetting) -> BTreeSet<UserId> {
        match setting {
            GroupSetting::Named(id) => self.members(*id),
            GroupSetting::Anonymous { direct_members, direct_subgroups } => {
                self.members_of(direct_members, direct_subgroups)
            }
        }
    }

    fn members_of(&self, users: &[UserId], groups: &[UserGroupId]) -> BTreeSet<UserId> {
        let mut members: BTreeSet<UserId> =
            users.iter().copied().filter(|id| self.users.get(id).is_some_and(|u| u.is_active)).collect();
        for group in self.closure(groups) {
            if let Some(group) = self.groups.get(&group) {
                members.extend(self.direct_members(group));
            }
        }
        members
    }

    /// The groups and all their subgroups, each once (cycles cannot loop).
    fn closure(&self, start: &[UserGroupId]) -> BTreeSet<UserGroupId> {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<UserGroupId> = start.to_vec();
        while let Some(id) = todo.pop() {
            if seen.insert(id)
                && let Some(group) = self.groups.get(&id)
            {
                todo.extend(self.subgroups(group));
            }
        }
        seen
    }

    /// A group's direct subgroups.
    pub fn subgroups(&self, group: &UserGroup) -> Vec<UserGroupId> {
        group.direct_subgroups.clone()
    }

    /// A group and every group inside it, at any depth.
    pub fn closure_of(&self, id: UserGroupId) -> BTreeSet<UserGroupId> {
        self.closure(&[id])
    }

    /// Whether `inner` is `outer` or one of its subgroups, at any depth.
    pub fn contains_group(&self, outer: UserGroupId, inner: UserGroupId) -> bool {
        self.closure(&[outer]).contains(&inner)
    }

    /// Whether a user holds a permission. Guests never hold one whose setting does not allow
    /// the everyone group (Zulip's `allow_everyone_group=False`).
    pub fn has_permission(&self, user: &User, setting: &GroupSetting, allow_guests: bool) -> bool {
        if user.is_guest() && !allow_guests {
            return false;
        }
        user.is_active && self.names(setting, user)
    }

    /// Whether a setting names an active user of the organization, directly or through a
    /// group (what `setting_members(setting).contains(user)` answers, without listing every
    /// member of `role:everyone` for one question).
    fn names(&self, setting: &GroupSetting, user: &User) -> bool {
        let Some(stored) = self.users.get(&user.id).filter(|u| u.is_active) else { return false };
        self.names_with_role(setting, user.id, stored.role)
    }

    /// Whether a setting would name the user were they active: what their role and groups
    /// allow, as register describes it even to a user deactivated since.
    pub fn permits_role(&self, user: &User, setting: &GroupSetting, allow_guests: bool) -> bool {
        (allow_guests || !user.is_guest()) && self.names_with_role(setting, user.id, user.role)
    }

    fn names_with_role(&self, setting: &GroupSetting, user: UserId, role: Role) -> bool {
        let groups = match setting {
            GroupSetting::Named(id) => std::slice::from_ref(id),
            GroupSetting::Anonymous { direct_members, direct_subgroups } => {
                if direct_members.contains(&user) {
                    return true;
                }
                direct_subgroups.as_slice()
            }
        };
        self.closure(groups).into_iter().filter_map(|id| self.groups.get(&id)).any(|group| {
            match group.system {
                None => group.direct_members.contains(&user),
                Some(which) => role_of(which) == Some(role),
            }
        })
    }

    /// A setting as the API shows it: a group id, or `{direct_members, direct_subgroups}`.
    pub fn setting_json(setting: &GroupSetting) -> Value {
        match setting {
            GroupSetting::Named(id) => json!(id),
            GroupSetting::Anonymous { direct_members, direct_subgroups } => {
                json!({"direct_members": direct_members, "direct_subgroups": direct_subgroups})
            }
        }
    }

    /// An organization's or a user group's setting as register and events show it: an
    /// anonymous value leaves out deactivated users, who hold nothing while deactivated
    /// (feature level 303); the stored value keeps them, for their reactivation. Channels'
    /// settings are shown as stored ([`Groups::setting_json`]), as Zulip's clients only drop
    /// deactivated users from these two kinds.
    pub fn shown_setting(&self, setting: &GroupSetting) -> Value {
        match setting {
            GroupSetting::Anonymous { direct_members, direct_subgroups } => {
                let active: Vec<UserId> = direct_members
                    .iter()
                    .copied()
                    .filter(|id| self.users.get(id).is_some_and(|u| u.is_active))
                    .collect();
                json!({"direct_members": active, "direct_subgroups": direct_subgroups})
            }
            named => Groups::setting_json(named),
        }
    }

    /// Reads a group-setting value (an id, or `{direct_members, direct_subgroups}`), checking
    /// every id, and canonicalizes it as Zulip does: an anonymous value of one subgroup and no
    /// members is that group; an empty one is `role:nobody`.
    pub fn parse_setting(&self, name: &str, value: &Value) -> ApiResult<GroupSetting> {
        let group = |id: u64| -> ApiResult<UserGroupId> {
            let id = UserGroupId(id);
            match self.groups.get(&id) {
                Some(g) if !g.deactivated => Ok(id),
                _ => Err(ApiError::bad_request(format!("Invalid user group ID: {id}"))),
            }
        };
        let setting = match value {
            Value::Number(n) => GroupSetting::Named(group(n.as_u64().unwrap_or(0))?),
            Value::Object(fields) => {
                let ids = |key: &str| -> ApiResult<Vec<u64>> {
                    match fields.get(key) {
                        None => Ok(Vec::new()),
                        Some(Value::Array(items)) => items
                            .iter()
                            .map(|i| {
                                i.as_u64().ok_or_else(|| {
                                    ApiError::bad_request(format!("{name}.{key} is not a list of integers"))
                                })
                            })
                            .collect(),
                        Some(_) => Err(ApiError::bad_request(format!("{name}.{key} is not a list"))),
                    }
                };
                let mut members = Vec::new();
                for id in ids("direct_members")? {
                    match self.users.get(&UserId(id)) {
                        Some(u) if u.is_active => members.push(u.id),
                        _ => return Err(ApiError::bad_request(format!("Invalid user ID: {id}"))),
                    }
                }
                let subgroups =
                    ids("direct_subgroups")?.into_iter().map(group).collect::<ApiResult<Vec<_>>>()?;
                members.sort_unstable();
                members.dedup();
                match (members.is_empty(), subgroups.as_slice()) {
                    (true, [only]) => GroupSetting::Named(*only),
                    (true, []) => GroupSetting::Named(self.system_id(SystemGroup::Nobody)?),
                    _ => GroupSetting::Anonymous { direct_members: members, direct_subgroups: subgroups },
                }
            }
            _ => return Err(ApiError::bad_request(format!("{name} is not an integer or a dict"))),
        };
        Ok(setting)
    }
}

/// Reads a setting change as clients send it, `{"new": value, "old": value}`: `old`, if given,
/// must be the current value (`EXPECTATION_MISMATCH` otherwise). Returns `new`, which the
/// caller checks as it checks any value of that setting.
pub fn setting_change<'v>(
    groups: &Groups,
    name: &str,
    current: &GroupSetting,
    change: &'v Value,
) -> ApiResult<&'v Value> {
    // A bare group id (an older form) is refused with Zulip's text: its
    // `GroupSettingChangeRequest` takes only `{"new": ..., "old": ...}`.
    let Value::Object(fields) = change else {
        return Err(ApiError::bad_request(format!("{name} does not have the expected format")));
    };
    let new = fields
        .get("new")
        .ok_or_else(|| ApiError::bad_request(format!("{name}[\"new\"] key is missing from {name}")))?;
    // Compared with the value as clients were shown it (without deactivated users), both in
    // canonical form.
    let shown = groups.shown_setting(current);
    let current = groups.parse_setting(name, &shown).unwrap_or_else(|_| current.clone());
    if let Some(old) = fields.get("old")
        && groups.parse_setting(name, old)? != current
    {
        return Err(ApiError::new(
            ErrorCode::ExpectationMismatch,
            "'old' value does not match the expected value.",
        ));
    }
    Ok(new)
}

/// The organization's group settings: name, default group, and whether guests may hold it
/// (Zulip's `allow_everyone_group`), per zulip-semantics §6.2.
pub const REALM_GROUP_SETTINGS: [(&str, SystemGroup, bool); 23] = [
    // Who sees every user; guests outside it see only the people they share a conversation
    // with (`crate::user_access`).
    ("can_access_all_users_group", SystemGroup::Everyone, true),
    ("can_add_custom_emoji_group", SystemGroup::Members, false),
    ("can_add_subscribers_group", SystemGroup::Members, false),
    ("can_create_bots_group", SystemGroup::Members, false),
    ("can_create_groups", SystemGroup::Members, false),
    ("can_create_private_channel_group", SystemGroup::Members, false),
    ("can_create_public_channel_group", SystemGroup::Members, false),
    ("can_create_web_public_channel_group", SystemGroup::Owners, false),
    ("can_create_write_only_bots_group", SystemGroup::Members, false),
    ("can_delete_any_message_group", SystemGroup::Administrators, false),
    ("can_delete_own_message_group", SystemGroup::Everyone, true),
    ("can_invite_users_group", SystemGroup::Members, false),
    ("can_manage_all_groups", SystemGroup::Owners, false),
    ("can_mention_many_users_group", SystemGroup::Administrators, true),
    ("can_move_messages_between_channels_group", SystemGroup::Members, false),
    ("can_move_messages_between_topics_group", SystemGroup::Everyone, true),
    ("can_resolve_topics_group", SystemGroup::Everyone, true),
    ("can_set_delete_message_policy_group", SystemGroup::Moderators, false),
    ("can_set_topics_policy_group", SystemGroup::Members, true),
    // Held, but unused: Confab has no topic summaries (`server_can_summarize_topics` is false).
    ("can_summarize_topics_group", SystemGroup::Everyone, true),
    ("create_multiuse_invite_group", SystemGroup::Administrators, false),
    ("direct_message_initiator_group", SystemGroup::Everyone, true),
    ("direct_message_permission_group", SystemGroup::Everyone, true),
];

/// One of the organization's group settings, its default if unset.
pub fn realm_setting(groups: &Groups, realm: &Realm, name: &str) -> ApiResult<GroupSetting> {
    if let Some(setting) = realm.settings.groups.get(name) {
        return Ok(setting.clone());
    }
    let (_, default, _) = REALM_GROUP_SETTINGS
        .iter()
        .find(|(n, _, _)| *n == name)
        .ok_or_else(|| ApiError::internal(format!("unknown organization setting {name}")))?;
    Ok(GroupSetting::Named(groups.system_id(*default)?))
}

/// Whether a user holds one of the organization's group-setting permissions.
pub fn realm_permission(groups: &Groups, realm: &Realm, user: &User, name: &str) -> ApiResult<bool> {
    let allow_guests = REALM_GROUP_SETTINGS.iter().find(|(n, _, _)| *n == name).is_some_and(|(_, _, g)| *g);
    Ok(groups.has_permission(user, &realm_setting(groups, realm, name)?, allow_guests))
}

/// A channel's group setting, its default if unset (zulip-semantics §6.3): administering
/// defaults to the channel's creator, posting and creating topics to everyone, removing
/// subscribers to administrators, the rest to nobody. These add to the organization's own
/// permissions.
pub fn channel_setting(groups: &Groups, stream: &Stream, name: &str) -> ApiResult<GroupSetting> {
    if let Some((_, Some(setting))) = stream.permissions.fields().into_iter().find(|(n, _)| *n == name) {
        return Ok(setting.clone());
    }
    let system = |which| groups.system_id(which).map(GroupSetting::Named);
    match name {
        "can_administer_channel_group" => match stream.creator_id {
            Some(creator) => {
                Ok(GroupSetting::Anonymous { direct_members: vec![creator], direct_subgroups: Vec::new() })
            }
            None => system(SystemGroup::Nobody),
        },
        "can_create_topic_group" | "can_send_message_group" => system(SystemGroup::Everyone),
        "can_remove_subscribers_group" => system(SystemGroup::Administrators),
        _ => system(SystemGroup::Nobody),
    }
}

/// Whether `user` holds a channel's group setting. Settings left at the default of everyone
/// (posting, creating topics) are answered without reading the organization's groups: every
/// active user belongs to `role:everyone`, and this runs on every message sent.
pub fn channel_permission(store: &impl Store, stream: &Stream, user: &User, name: &str) -> ApiResult<bool> {
    let set = stream.permissions.fields().into_iter().any(|(n, s)| n == name && s.is_some());
    if !set && matches!(name, "can_send_message_group" | "can_create_topic_group") {
        return Ok(user.is_active);
    }
    let groups = Groups::load(store, stream.realm_id)?;
    Ok(groups.has_permission(user, &channel_setting(&groups, stream, name)?, true))
}

/// The system groups of a new organization, with ids from `ids`.
pub fn system_group_changes(realm: RealmId, ids: &mut IdAllocator) -> Vec<Change> {
    let assigned: BTreeMap<SystemGroup, UserGroupId> =
        SystemGroup::ALL.iter().map(|&which| (which, UserGroupId(ids.take()))).collect();
    let named = |which: SystemGroup| GroupSetting::Named(assigned[&which]);
    SystemGroup::ALL
        .iter()
        .map(|&which| {
            Change::PutUserGroup(Box::new(UserGroup {
                id: assigned[&which],
                realm_id: realm,
                name: which.name().to_owned(),
                description: which.description().to_owned(),
                creator_id: None,
                date_created: None,
                system: Some(which),
                direct_members: Vec::new(),
                direct_subgroups: which.subgroup().map(|inner| vec![assigned[&inner]]).unwrap_or_default(),
                deactivated: false,
                can_add_members_group: named(SystemGroup::Nobody),
                can_join_group: named(SystemGroup::Nobody),
                can_leave_group: named(SystemGroup::Nobody),
                can_manage_group: named(SystemGroup::Nobody),
                can_mention_group: named(SystemGroup::Everyone),
                can_remove_members_group: named(SystemGroup::Nobody),
            }))
        })
        .collect()
}

/// The system groups an organization created before user groups existed needs.
pub fn missing_system_groups(store: &impl Store, realm: RealmId) -> ApiResult<Vec<Change>> {
    if store.user_groups(realm)?.iter().any(|g| g.system.is_some()) {
        return Ok(Vec::new());
    }
    let mut ids = IdAllocator::new(store, IdKind::UserGroup)?;
    Ok(system_group_changes(realm, &mut ids))
}
