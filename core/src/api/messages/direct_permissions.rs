//! Who may send a direct message (feature level 270), as Zulip's
//! `check_can_send_direct_message`: the organization's `direct_message_permission_group` must
//! hold someone in the conversation (the sender or a recipient) to authorize it, and a sender
//! outside `direct_message_initiator_group` may only answer, in a conversation that already
//! has messages. Bots, and conversations with only bots and oneself, are never held back.

use std::ops::Bound;

use crate::command::Actor;
use crate::error::{ApiError, ApiResult};
use crate::groups::{Groups, realm_permission, realm_setting};
use crate::ids::RecipientId;
use crate::model::{GroupSetting, SystemGroup, User};
use crate::store::{Direction, MessageIndex, Store};

const INITIATOR: &str = "direct_message_initiator_group";
const AUTHORIZER: &str = "direct_message_permission_group";

/// Checks a direct message from the actor to `participants` (the sender included), filed
/// under `recipient` as the sender sees the conversation; `None` for a group conversation that
/// has no recipient yet, and so no messages.
pub(super) fn check_can_send_direct(
    store: &impl Store,
    actor: &Actor,
    participants: &[User],
    recipient: Option<RecipientId>,
) -> ApiResult<()> {
    let sender = &actor.user;
    let settings = &actor.realm.settings.groups;
    // Both default to everyone: nothing to look up for most organizations.
    if !settings.contains_key(INITIATOR) && !settings.contains_key(AUTHORIZER) {
        return Ok(());
    }
    if sender.is_bot() || participants.iter().all(|u| u.is_bot() || u.id == sender.id) {
        return Ok(());
    }
    let groups = Groups::load(store, actor.realm.id)?;
    let authorizers = realm_setting(&groups, &actor.realm, AUTHORIZER)?;
    if !participants.iter().any(|u| groups.has_permission(u, &authorizers, true)) {
        let nobody = matches!(&authorizers, GroupSetting::Named(id)
            if groups.get(*id).is_some_and(|g| g.system == Some(SystemGroup::Nobody)));
        return Err(ApiError::bad_request(if nobody {
            "Direct messages are disabled in this organization."
        } else {
            "This conversation does not include any users who can authorize it."
        }));
    }
    if realm_permission(&groups, &actor.realm, sender, INITIATOR)? {
        return Ok(());
    }
    let answered = match recipient {
        Some(recipient) => store
            .message_ids(
                &MessageIndex::UserConversation(sender.id, recipient),
                Bound::Unbounded,
                Bound::Unbounded,
                Direction::Descending,
            )?
            .next()
            .is_some(),
        None => false,
    };
    if !answered {
        return Err(ApiError::bad_request(
            "You do not have permission to initiate direct message conversations.",
        ));
    }
    Ok(())
}
