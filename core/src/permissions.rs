//! Who may do what with messages. Zulip expresses these as group settings; until user groups
//! exist (the organizations issue) each rule is its Zulip default group, written as the roles
//! that group holds.

use crate::model::{Role, User};

/// `can_move_messages_between_topics_group`, default `role:everyone`.
pub fn can_move_between_topics(user: &User) -> bool {
    user.role <= Role::Guest
}

/// `can_resolve_topics_group`, default `role:everyone`.
pub fn can_resolve_topics(user: &User) -> bool {
    user.role <= Role::Guest
}

/// `can_move_messages_between_channels_group`, default `role:members` (guests excluded).
pub fn can_move_between_channels(user: &User) -> bool {
    user.role <= Role::Member
}

/// `can_delete_any_message_group`, default `role:administrators`.
pub fn can_delete_any_message(user: &User) -> bool {
    user.role <= Role::Administrator
}

/// `can_delete_own_message_group`, default `role:everyone`.
pub fn can_delete_own_message(user: &User) -> bool {
    user.role <= Role::Guest
}

/// Moderators and above are exempt from the time limits on moving messages.
pub fn is_moderator(user: &User) -> bool {
    user.role <= Role::Moderator
}

/// Realm administrators manage linkifiers and other organization settings.
pub fn is_realm_admin(user: &User) -> bool {
    user.role <= Role::Administrator
}
