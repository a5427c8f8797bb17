//! Reusable invitation links: `POST /invites/multiuse`, `DELETE /invites/multiuse/{id}`.

use crate::command::{Actor, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::ids::IdKind;
use crate::model::{Invitation, InvitationStatus};
use crate::params::{Json, Params};
use crate::store::{Change, IdAllocator, Store};

use super::{
    InvitationTerms, check_role_permissions, invites_changed, link_url, may, require_member_or_admin,
};

/// `POST /invites/multiuse`: a link anyone may sign up with until it expires or is revoked;
/// `key` is a fresh confirmation key from the host. Answers `invite_link`.
pub fn create_invite_link(
    store: &impl Store,
    actor: &Actor,
    params: &Params,
    key: String,
    now: i64,
) -> ApiResult<Outcome> {
    require_member_or_admin(actor)?;
    let stream_ids = params.optional::<Json<Option<Vec<u64>>>>("stream_ids")?.and_then(|Json(ids)| ids);
    let terms = InvitationTerms::parse(params, now, stream_ids.unwrap_or_default())?;
    if !may(store, actor, "create_multiuse_invite_group")? {
        return Err(ApiError::insufficient_permission());
    }
    terms.check_role(actor)?;
    terms.check_grants(store, actor)?;
    let id = IdAllocator::new(store, IdKind::Invitation)?.take();
    let invitation = terms.invitation(actor, id, key, None, now);
    let link = link_url(&invitation, &actor.realm_url);
    Ok(Outcome {
        changes: vec![Change::PutInvitation(invitation)],
        events: vec![invites_changed(store, actor.realm.id, Some(actor.user.id))?],
        ..Outcome::default()
    }
    .reply("invite_link", link))
}

/// `DELETE /invites/multiuse/{invite_id}` (Zulip's `access_multiuse_invite_by_id`): someone
/// else's link only by an administrator, one inviting owners only by an owner.
pub fn revoke_invite_link(store: &impl Store, actor: &Actor, id: u64) -> ApiResult<Outcome> {
    require_member_or_admin(actor)?;
    let invitation = store
        .invitations(actor.realm.id)?
        .into_iter()
        .find(|i| i.id == id && i.is_multiuse())
        .ok_or_else(|| ApiError::bad_request("No such invitation"))?;
    if invitation.referred_by != actor.user.id {
        check_role_permissions(actor, invitation.invited_as, true)?;
    }
    if invitation.status == InvitationStatus::Revoked {
        return Err(ApiError::bad_request("Invitation has already been revoked"));
    }
    let referrer = invitation.referred_by;
    let revoked = Invitation { status: InvitationStatus::Revoked, ..invitation };
    Ok(Outcome {
        changes: vec![Change::PutInvitation(revoked)],
        events: vec![invites_changed(store, actor.realm.id, Some(referrer))?],
        ..Outcome::default()
    })
}
