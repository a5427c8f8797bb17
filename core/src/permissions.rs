//! Who may move, resolve and delete messages (zulip-semantics §6.2–6.3). Each is a group
//! setting of the organization, widened per channel by the channel's own group settings
//! (which add to the organization's, never remove).

use std::borrow::Cow;

use crate::command::Actor;
use crate::error::ApiResult;
use crate::groups::{Groups, channel_setting, realm_permission};
use crate::model::{Role, Stream, User};
use crate::store::Store;

/// The organization's groups, loaded once per command, answering for the actor.
pub struct Permissions<'a> {
    actor: &'a Actor,
    groups: Cow<'a, Groups>,
}

impl<'a> Permissions<'a> {
    pub fn load(store: &impl Store, actor: &'a Actor) -> ApiResult<Permissions<'a>> {
        Ok(Permissions { actor, groups: Cow::Owned(Groups::load(store, actor.realm.id)?) })
    }

    /// The same rules over groups already loaded (the client engine keeps them between
    /// questions).
    pub fn with_groups(actor: &'a Actor, groups: &'a Groups) -> Permissions<'a> {
        Permissions { actor, groups: Cow::Borrowed(groups) }
    }

    fn realm(&self, name: &str) -> ApiResult<bool> {
        realm_permission(&self.groups, &self.actor.realm, &self.actor.user, name)
    }

    /// Whether a channel's own setting (or administering the channel) grants it. Guests hold
    /// channel settings only as named members, like any other user.
    fn channel(&self, stream: Option<&Stream>, names: &[&str]) -> ApiResult<bool> {
        let Some(stream) = stream else { return Ok(false) };
        for name in names {
            let setting = channel_setting(&self.groups, stream, name)?;
            if self.groups.has_permission(&self.actor.user, &setting, true) {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Renaming topics: `can_move_messages_between_topics_group` (everyone), or the channel's
    /// `can_move_messages_within_channel_group`, or administering the channel.
    pub fn can_move_between_topics(&self, stream: Option<&Stream>) -> ApiResult<bool> {
        Ok(self.realm("can_move_messages_between_topics_group")?
            || self.channel(
                stream,
                &["can_move_messages_within_channel_group", "can_administer_channel_group"],
            )?)
    }

    /// Resolving topics: `can_resolve_topics_group` (everyone), or the channel's own.
    pub fn can_resolve_topics(&self, stream: Option<&Stream>) -> ApiResult<bool> {
        Ok(self.realm("can_resolve_topics_group")? || self.channel(stream, &["can_resolve_topics_group"])?)
    }

    /// Moving to another channel: `can_move_messages_between_channels_group` (members), or the
    /// source channel's `can_move_messages_out_of_channel_group`, or administering it.
    pub fn can_move_between_channels(&self, stream: Option<&Stream>) -> ApiResult<bool> {
        Ok(self.realm("can_move_messages_between_channels_group")?
            || self.channel(
                stream,
                &["can_move_messages_out_of_channel_group", "can_administer_channel_group"],
            )?)
    }

    /// Deleting anyone's message: `can_delete_any_message_group` (administrators), or the
    /// channel's own.
    pub fn can_delete_any_message(&self, stream: Option<&Stream>) -> ApiResult<bool> {
        Ok(self.realm("can_delete_any_message_group")?
            || self.channel(stream, &["can_delete_any_message_group"])?)
    }

    /// Deleting one's own message: `can_delete_own_message_group` (everyone), or the channel's.
    pub fn can_delete_own_message(&self, stream: Option<&Stream>) -> ApiResult<bool> {
        Ok(self.realm("can_delete_own_message_group")?
            || self.channel(stream, &["can_delete_own_message_group"])?)
    }
}

/// Moderators and above are exempt from the time limits on moving messages.
pub fn is_moderator(user: &User) -> bool {
    user.role <= Role::Moderator
}

/// Realm administrators manage linkifiers and other organization settings.
pub fn is_realm_admin(user: &User) -> bool {
    user.role <= Role::Administrator
}
