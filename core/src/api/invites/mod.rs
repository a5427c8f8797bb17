//! GET    /invites                      get_invites
//! POST   /invites                      send_invites
//! DELETE /invites/{invite_id}          revoke_email_invite
//! POST   /invites/{invite_id}/resend   resend_email_invite
//! POST   /invites/multiuse             create_invite_link
//! DELETE /invites/multiuse/{invite_id} revoke_invite_link
//!
//! Invitations as Zulip has them at feature level 419 (`zerver/views/invite.py`,
//! `zerver/actions/invites.py`): email invitations, each for one address, and reusable links.
//! Both carry the role, channels and groups the new account starts with, and expire.
//! `signup` is the other side: what a link's holder may do with it.
//!
//! An email invitation is stored as in Zulip, and its email goes to the host as an
//! [`Event::Email`](crate::command::Event::Email): mailed when the server has a mail server,
//! otherwise its link is logged for an administrator to pass on (as Zulip's development email
//! backend logs the mail it would send).

mod email;
mod multiuse;
pub mod signup;

pub use email::{resend_email_invite, revoke_email_invite, send_invites, take_partial_refusal};
pub use multiuse::{create_invite_link, revoke_invite_link};

use serde_json::{Value, json};

use crate::command::{Actor, Event, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::groups::{Groups, realm_permission};
use crate::ids::{RealmId, StreamId, UserGroupId, UserId};
use crate::model::{Invitation, InvitationStatus, Role};
use crate::params::{Json, Params};
use crate::store::Store;

use super::streams::{has_content_access, stream_in_realm};

/// Zulip's `INVITATION_LINK_VALIDITY_DAYS` (10), in minutes: the expiry of an invitation
/// that names none.
pub const DEFAULT_VALIDITY_MINUTES: i64 = 10 * 24 * 60;

/// Zulip's `Realm.MAX_REALM_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH`.
pub const MAX_WELCOME_MESSAGE_LENGTH: usize =
    crate::model::realm_properties::MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH;

/// `GET /invites`: the unexpired invitations the actor may manage, email invitations first:
/// an administrator's are everyone's, anyone else's their own.
pub fn get_invites(store: &impl Store, actor: &Actor, now: i64) -> ApiResult<Outcome> {
    require_member_or_admin(actor)?;
    let mut manageable: Vec<Invitation> = store
        .invitations(actor.realm.id)?
        .into_iter()
        .filter(|i| i.is_valid(now) && (actor.user.is_admin() || i.referred_by == actor.user.id))
        .collect();
    manageable.sort_by_key(|i| (i.is_multiuse(), i.id));
    let invites: Vec<Value> = manageable.iter().map(|i| invite_json(i, &actor.realm_url)).collect();
    Ok(Outcome::default().reply("invites", invites))
}

/// An invitation as `GET /invites` shows it (Zulip's `Invite` schema).
pub fn invite_json(invitation: &Invitation, realm_url: &str) -> Value {
    let mut shown = json!({
        "id": invitation.id,
        "invited_by_user_id": invitation.referred_by,
        "invited": invitation.invited_at,
        "expiry_date": invitation.expires_at,
        "invited_as": invitation.invited_as.value(),
        "is_multiuse": invitation.is_multiuse(),
    });
    match &invitation.email {
        Some(email) => {
            shown["email"] = json!(email);
            shown["notify_referrer_on_join"] = json!(invitation.notify_referrer_on_join);
        }
        None => shown["link_url"] = json!(link_url(invitation, realm_url)),
    }
    shown
}

/// The link an invitation's holder opens: Zulip's `/join/<key>/` for a reusable link and
/// `/accounts/do_confirm/<key>` for an email invitation.
pub fn link_url(invitation: &Invitation, realm_url: &str) -> String {
    let realm_url = realm_url.trim_end_matches('/');
    if invitation.is_multiuse() {
        format!("{realm_url}/join/{}/", invitation.key)
    } else {
        format!("{realm_url}/accounts/do_confirm/{}", invitation.key)
    }
}

/// Zulip's `notify_invites_changed`: the organization's administrators (bots too) and the
/// invitation's creator are told to fetch the list again.
pub(crate) fn invites_changed(
    store: &impl Store,
    realm: RealmId,
    referrer: Option<UserId>,
) -> ApiResult<Event> {
    let mut users: Vec<UserId> =
        store.realm_users(realm)?.iter().filter(|u| u.is_active && u.is_admin()).map(|u| u.id).collect();
    if let Some(referrer) = referrer.filter(|r| !users.contains(r)) {
        users.push(referrer);
    }
    Ok(Event::Other { users, body: json!({"type": "invites_changed"}) })
}

/// Zulip's `require_member_or_admin`: guests and bots manage no invitations.
fn require_member_or_admin(actor: &Actor) -> ApiResult<()> {
    if actor.user.is_guest() {
        return Err(ApiError::bad_request("Not allowed for guest users"));
    }
    crate::command::require_human(actor)
}

/// Zulip's `check_role_based_permissions`: only owners invite owners; with `require_admin`,
/// only administrators act at all.
fn check_role_permissions(actor: &Actor, invited_as: Role, require_admin: bool) -> ApiResult<()> {
    if invited_as == Role::Owner && actor.user.role != Role::Owner {
        return Err(ApiError::owner_required());
    }
    if require_admin && !actor.user.is_admin() {
        return Err(ApiError::bad_request("Must be an organization administrator"));
    }
    Ok(())
}

/// What an invitation of either kind is made with.
#[derive(Clone)]
struct InvitationTerms {
    invited_as: Role,
    expires_at: Option<i64>,
    stream_ids: Vec<StreamId>,
    group_ids: Vec<UserGroupId>,
    include_realm_default_subscriptions: bool,
    welcome_message_custom_text: Option<String>,
}

impl InvitationTerms {
    /// Reads the parameters both endpoints take, as Zulip's typed endpoint does before its
    /// checks: `invite_as` among the roles, the expiry in minutes (`null`: never).
    fn parse(params: &Params, now: i64, stream_ids: Vec<u64>) -> ApiResult<Self> {
        let invited_as: i64 = params.or("invite_as", i64::from(Role::Member.value()))?;
        let invited_as = u16::try_from(invited_as)
            .ok()
            .and_then(Role::from_value)
            .ok_or_else(|| ApiError::bad_request("Invalid invite_as"))?;
        let minutes = match params.optional::<Json<Option<i64>>>("invite_expires_in_minutes")? {
            None => Some(DEFAULT_VALIDITY_MINUTES),
            Some(Json(minutes)) => minutes,
        };
        let expires_at = minutes.map(|m| now.saturating_add(m.saturating_mul(60)));
        let group_ids = params.optional::<Json<Option<Vec<u64>>>>("group_ids")?.and_then(|Json(ids)| ids);
        let welcome = params.optional::<String>("welcome_message_custom_text")?;
        if welcome.as_ref().is_some_and(|text| text.chars().count() > MAX_WELCOME_MESSAGE_LENGTH) {
            return Err(ApiError::bad_request(format!(
                "welcome_message_custom_text is too long (limit: {MAX_WELCOME_MESSAGE_LENGTH} characters)"
            )));
        }
        Ok(InvitationTerms {
            invited_as,
            expires_at,
            stream_ids: stream_ids.into_iter().map(StreamId).collect(),
            group_ids: group_ids.unwrap_or_default().into_iter().map(UserGroupId).collect(),
            include_realm_default_subscriptions: params.or("include_realm_default_subscriptions", false)?,
            welcome_message_custom_text: welcome,
        })
    }

    /// The role the invitation gives: moderators and above only from administrators, owners
    /// only from owners.
    fn check_role(&self, actor: &Actor) -> ApiResult<()> {
        let require_admin = self.invited_as <= Role::Moderator;
        check_role_permissions(actor, self.invited_as, require_admin)
    }

    /// What the invitation grants besides the role, in Zulip's order: the channels, the
    /// groups, and the welcome text (administrators only).
    fn check_grants(&self, store: &impl Store, actor: &Actor) -> ApiResult<()> {
        let groups = Groups::load(store, actor.realm.id)?;
        check_channels(store, &groups, actor, &self.stream_ids)?;
        for id in &self.group_ids {
            super::user_groups::group_to_add_members(&groups, actor, *id)?;
        }
        if self.welcome_message_custom_text.is_some() && !actor.user.is_admin() {
            return Err(ApiError::bad_request("Must be an organization administrator"));
        }
        Ok(())
    }

    /// The invitation these terms make.
    fn invitation(self, actor: &Actor, id: u64, key: String, email: Option<String>, now: i64) -> Invitation {
        Invitation {
            id,
            realm_id: actor.realm.id,
            key,
            email,
            referred_by: actor.user.id,
            invited_as: self.invited_as,
            invited_at: now,
            expires_at: self.expires_at,
            stream_ids: self.stream_ids,
            group_ids: self.group_ids,
            include_realm_default_subscriptions: self.include_realm_default_subscriptions,
            notify_referrer_on_join: false,
            welcome_message_custom_text: self.welcome_message_custom_text,
            status: InvitationStatus::Active,
        }
    }
}

/// Zulip's `access_streams_for_invite`: each channel must be one the actor can read, and the
/// actor must be allowed to subscribe others to it, except to a default channel (which an
/// invitation may always include, since feature level 342).
fn check_channels(store: &impl Store, groups: &Groups, actor: &Actor, ids: &[StreamId]) -> ApiResult<()> {
    let mut refused = false;
    for id in ids {
        let stream = stream_in_realm(store, actor, *id)?
            .filter(|s| has_content_access(store, &actor.user, s).unwrap_or(false));
        let Some(stream) = stream else {
            return Err(ApiError::bad_request(format!("Invalid channel ID {id}. No invites were sent.")));
        };
        if !stream.is_default && !super::subscriptions::may_add_subscribers(groups, actor, &stream)? {
            refused = true;
        }
    }
    if refused {
        return Err(ApiError::bad_request(
            "You do not have permission to subscribe other users to channels.",
        ));
    }
    Ok(())
}

/// Whether the actor holds one of the organization's invitation permissions.
fn may(store: &impl Store, actor: &Actor, setting: &str) -> ApiResult<bool> {
    let groups = Groups::load(store, actor.realm.id)?;
    realm_permission(&groups, &actor.realm, &actor.user, setting)
}
