//! The organization itself: its record, notification bot, system groups and linkifiers; its
//! user groups; its custom emoji.

use std::collections::HashMap;

use confab_core::api::realm::NOTIFICATION_BOT_DOMAIN;
use confab_core::groups::system_group_changes;
use confab_core::ids::UserGroupId;
use confab_core::model::{
    BotType, EmailVisibility, GroupSetting, Linkifier, RealmEmoji, Recipient, RecipientKind, Role,
    SystemGroup, User, UserGroup,
};
use confab_core::store::Change;

use super::Planner;
use crate::import_zulip::format::NamedGroupRow;

impl Planner<'_> {
    /// The organization (deactivated), its notification bot, its system groups as Confab makes
    /// them, and its linkifiers.
    pub(super) fn organization(&mut self) -> Vec<Change> {
        let realm_id = self.realm.id;
        let mut changes = vec![
            Change::PutRealm(self.realm.clone()),
            Change::PutRecipient(Recipient {
                id: self.bot_recipient,
                kind: RecipientKind::Personal(self.bot),
            }),
            Change::PutUser(User {
                id: self.bot,
                realm_id,
                email: format!("notification-bot@{NOTIFICATION_BOT_DOMAIN}"),
                delivery_email: format!("notification-bot@{NOTIFICATION_BOT_DOMAIN}"),
                email_address_visibility: EmailVisibility::Everyone,
                full_name: "Notification Bot".to_owned(),
                role: Role::Member,
                bot_type: Some(BotType::Generic),
                bot_owner_id: None,
                is_active: true,
                date_joined: self.realm.date_created,
                timezone: String::new(),
                avatar_version: 1,
                avatar: None,
                personal_recipient: self.bot_recipient,
            }),
        ];
        let system_groups = system_group_changes(realm_id, &mut self.ids.group);
        for change in &system_groups {
            if let Change::PutUserGroup(group) = change {
                self.system_groups.insert(group.name.clone(), group.id);
            }
        }
        changes.extend(system_groups);
        let mut linkifiers: Vec<_> = self.export.realm.zerver_realmfilter.iter().collect();
        linkifiers.sort_by_key(|l| l.order);
        for (order, linkifier) in linkifiers.into_iter().enumerate() {
            changes.push(Change::PutLinkifier(Linkifier {
                id: self.ids.linkifier.take(),
                realm_id,
                pattern: linkifier.pattern.clone(),
                url_template: linkifier.url_template.clone(),
                order: order as u64,
            }));
        }
        changes
    }

    /// User groups, with their members and subgroups. Zulip's system groups are Confab's own
    /// (matched by name), never copies; the others get new ids. Unnamed groups stand for
    /// anonymous group settings.
    pub(super) fn user_groups(&mut self) -> Vec<Change> {
        let realm = &self.export.realm;
        let mut named: Vec<(u64, &NamedGroupRow)> =
            realm.zerver_namedusergroup.iter().filter_map(|g| g.group_id().map(|id| (id, g))).collect();
        named.sort_by_key(|(old, _)| *old);
        for (old, group) in &named {
            let id = match self.system_groups.get(&group.name).filter(|_| group.is_system_group) {
                Some(&system) => system,
                None => UserGroupId(self.ids.group.take()),
            };
            self.groups.insert(*old, id);
        }
        for membership in &realm.zerver_usergroupmembership {
            let member = self.users[&membership.user_profile];
            self.group_members.entry(membership.user_group).or_default().push(member);
        }
        for nesting in &realm.zerver_groupgroupmembership {
            if let Some(&subgroup) = self.groups.get(&nesting.subgroup) {
                self.subgroups.entry(nesting.supergroup).or_default().push(subgroup);
            }
        }
        let (nobody, everyone) = (SystemGroup::Nobody.name(), SystemGroup::Everyone.name());
        let system: HashMap<&str, UserGroupId> =
            self.system_groups.iter().map(|(name, id)| (name.as_str(), *id)).collect();
        let setting = |old: Option<u64>, default: &str| -> GroupSetting {
            old.map(|old| self.group_setting(old)).unwrap_or(GroupSetting::Named(system[default]))
        };
        let mut changes = Vec::new();
        for (old, group) in named {
            if group.is_system_group && system.contains_key(group.name.as_str()) {
                continue;
            }
            changes.push(Change::PutUserGroup(Box::new(UserGroup {
                id: self.groups[&old],
                realm_id: self.realm.id,
                name: group.name.clone(),
                description: group.description.clone(),
                creator_id: self.user(group.creator),
                date_created: group.date_created.map(|d| d as i64),
                system: None,
                direct_members: self.group_members.get(&old).cloned().unwrap_or_default(),
                direct_subgroups: self.subgroups.get(&old).cloned().unwrap_or_default(),
                deactivated: group.deactivated,
                can_add_members_group: setting(group.can_add_members_group, nobody),
                can_join_group: setting(group.can_join_group, nobody),
                can_leave_group: setting(group.can_leave_group, everyone),
                can_manage_group: setting(group.can_manage_group, nobody),
                can_mention_group: setting(group.can_mention_group, everyone),
                can_remove_members_group: setting(group.can_remove_members_group, nobody),
            })));
        }
        self.counts.user_groups = changes.len();
        changes
    }

    /// Custom emoji, with the file names they had (their images are kept under the new
    /// organization's folder by then).
    pub(super) fn custom_emoji(&mut self) -> Vec<Change> {
        let mut changes = Vec::new();
        for row in &self.export.realm.zerver_realmemoji {
            let Some(file_name) = &row.file_name else { continue };
            let id = self.ids.emoji.take();
            self.emoji_codes.insert(row.id.to_string(), id.to_string());
            changes.push(Change::PutRealmEmoji(RealmEmoji {
                id,
                realm_id: self.realm.id,
                name: row.name.clone(),
                file_name: file_name.clone(),
                author_id: self.user(row.author),
                deactivated: row.deactivated,
            }));
        }
        self.counts.custom_emoji = changes.len();
        changes
    }
}
