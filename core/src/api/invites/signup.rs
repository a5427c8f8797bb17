//! Signing up with an invitation's link: Zulip's `/join/<key>/` (a reusable link) and
//! `/accounts/do_confirm/<key>` (an email invitation). The host serves the page; here is what
//! a link allows and what signing up with it does (Zulip's `process_new_human_user` for an
//! invited user): the account with the invitation's role, channels and groups, the email
//! invitation used up (and the address's other invitations revoked), and the inviter told.
//!
//! One difference from Zulip: a reusable link's holder gives an address and the account is
//! made at once. Zulip first mails a confirmation to that address; Confab sends no mail.

use crate::command::{Actor, Outcome};
use crate::error::{ApiError, ApiResult};
use crate::groups::Groups;
use crate::ids::{RealmId, UserId};
use crate::links::silent_mention;
use crate::model::{Invitation, InvitationStatus, Realm};
use crate::store::{Change, Store};

use super::super::messages::{NoticeIds, send_direct_notice};
use super::super::users::{InitialChannels, NewUser, new_user_joining, user_created_events, validate_email};
use super::invites_changed;

/// Zulip's `PASSWORD_MIN_LENGTH`.
pub const PASSWORD_MIN_LENGTH: usize = 6;

/// Why a link opens no sign-up, in the words of Zulip's confirmation pages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkRefusal {
    /// No invitation of this organization has the key.
    Unknown,
    /// Used, revoked or past its expiry.
    Expired,
}

impl LinkRefusal {
    pub fn text(self) -> &'static str {
        match self {
            LinkRefusal::Unknown => "Whoops. We couldn't find your confirmation link in the system.",
            LinkRefusal::Expired => "The confirmation link has expired or been deactivated.",
        }
    }
}

/// The invitation a link names, if it may still be used at `now` in this organization.
pub fn invitation_for_link(
    store: &impl Store,
    realm: RealmId,
    key: &str,
    now: i64,
) -> ApiResult<Result<Invitation, LinkRefusal>> {
    let Some(invitation) = store.invitation_by_key(key)?.filter(|i| i.realm_id == realm) else {
        return Ok(Err(LinkRefusal::Unknown));
    };
    if !invitation.is_valid(now) {
        return Ok(Err(LinkRefusal::Expired));
    }
    Ok(Ok(invitation))
}

/// Checks a new password before the host hashes it (Zulip's minimum length; it also asks
/// zxcvbn for a strength, which Confab does not).
pub fn check_password(password: &str) -> ApiResult<()> {
    if password.chars().count() < PASSWORD_MIN_LENGTH {
        return Err(ApiError::bad_request("The password is too weak."));
    }
    Ok(())
}

/// What the sign-up form sends, with the secrets the host made.
#[derive(Clone, Debug)]
pub struct SignUp {
    pub full_name: String,
    /// The address, for a reusable link; an email invitation's is its own.
    pub email: Option<String>,
    pub api_key: String,
    pub password_hash: String,
}

/// Creates the account a link invites. Answers `user_id` and `email`.
pub fn sign_up(store: &impl Store, realm: &Realm, key: &str, form: SignUp, now: i64) -> ApiResult<Outcome> {
    let invitation = match invitation_for_link(store, realm.id, key, now)? {
        Ok(invitation) => invitation,
        Err(refusal) => return Err(ApiError::bad_request(refusal.text())),
    };
    let email = match (&invitation.email, form.email) {
        (Some(invited), _) => invited.clone(),
        (None, Some(given)) => given.trim().to_owned(),
        (None, None) => return Err(ApiError::missing_argument("email")),
    };
    if validate_email(&email).is_err() {
        return Err(ApiError::bad_request("Please enter a valid email address."));
    }
    if let Some(existing) = store.user_by_delivery_email(realm.id, &email)? {
        let active = store.user(existing)?.is_some_and(|u| u.is_active);
        let why = if active {
            format!("{email} already has an account")
        } else {
            "Account has been deactivated.".into()
        };
        return Err(ApiError::bad_request(why));
    }
    let mut channels = invitation.stream_ids.clone();
    if invitation.include_realm_default_subscriptions {
        let defaults = store.realm_streams(realm.id)?.into_iter().filter(|s| s.is_default).map(|s| s.id);
        channels.extend(defaults);
    }
    let new = NewUser {
        email: email.clone(),
        full_name: form.full_name,
        role: invitation.invited_as,
        bot_type: None,
        bot_owner_id: None,
        api_key: form.api_key,
        password_hash: Some(form.password_hash),
    };
    let (user_id, mut changes) = new_user_joining(store, realm, new, InitialChannels::These(channels), now)?;
    let mut events = user_created_events(store, realm.id, &changes)?;

    let groups = Groups::load(store, realm.id)?;
    for id in &invitation.group_ids {
        let Some(group) = groups.get(*id).filter(|g| g.system.is_none()) else { continue };
        let mut joined = group.clone();
        joined.direct_members.push(user_id);
        joined.direct_members.sort_unstable();
        changes.push(Change::PutUserGroup(Box::new(joined)));
        events.push(super::super::user_groups::members_added_event(&groups, *id, &[user_id]));
    }

    if !invitation.is_multiuse() {
        // The address's other invitations are spent too, as Zulip's
        // `revoke_preregistration_users` leaves them.
        for other in store.invitations(realm.id)? {
            let same_address = other.email.as_deref().is_some_and(|e| e.eq_ignore_ascii_case(&email));
            if same_address && other.id != invitation.id && other.status == InvitationStatus::Active {
                changes
                    .push(Change::PutInvitation(Invitation { status: InvitationStatus::Revoked, ..other }));
            }
        }
        let referrer = invitation.referred_by;
        changes.push(Change::PutInvitation(Invitation { status: InvitationStatus::Used, ..invitation }));
        events.push(invites_changed(store, realm.id, Some(referrer))?);
    }
    Ok(Outcome { changes, events, ..Outcome::default() }.reply("user_id", user_id.0).reply("email", email))
}

/// After a sign-up with an email invitation that asked for it: Notification Bot tells the
/// inviter, if still active, that the invitee joined. A command of its own, run once the new
/// account is durable, since the message mentions the new user.
pub fn notify_referrer(
    store: &impl Store,
    realm: &Realm,
    realm_url: &str,
    key: &str,
    new_user: UserId,
    now: i64,
) -> ApiResult<Outcome> {
    let mut outcome = Outcome::default();
    let Some(invitation) = store.invitation_by_key(key)?.filter(|i| i.realm_id == realm.id) else {
        return Ok(outcome);
    };
    if invitation.is_multiuse() || !invitation.notify_referrer_on_join {
        return Ok(outcome);
    }
    let (Some(referrer), Some(joined)) = (store.user(invitation.referred_by)?, store.user(new_user)?) else {
        return Ok(outcome);
    };
    if !referrer.is_active {
        return Ok(outcome);
    }
    let actor = Actor {
        user: joined.clone(),
        realm: realm.clone(),
        client: "Internal".into(),
        realm_url: realm_url.to_owned(),
    };
    let content =
        format!("{} accepted your invitation to join Zulip!", silent_mention(&joined.full_name, joined.id));
    let mut ids = NoticeIds::new(store)?;
    send_direct_notice(store, &actor, &referrer, content, now, &mut ids, &mut outcome)?;
    Ok(outcome)
}
