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
pub fn sign_up(
    store: &impl Store,
    realm: &Realm,
    realm_url: &str,
    key: &str,
    form: SignUp,
    now: i64,
) -> ApiResult<Outcome> {
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
    let mut events = user_created_events(store, realm.id, realm_url, &changes)?;

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

/// After a sign-up, once the new account is durable (its messages are to it or mention it):
/// the welcome text reaches the new user, then the inviter is told. A command of its own, so a
/// failure leaves the account as it is.
pub fn after_sign_up(
    store: &impl Store,
    realm: &Realm,
    realm_url: &str,
    key: &str,
    new_user: UserId,
    now: i64,
) -> ApiResult<Outcome> {
    let mut outcome = Outcome::default();
    let Some(joined) = store.user(new_user)?.filter(|u| u.is_active) else { return Ok(outcome) };
    let invitation = store.invitation_by_key(key)?.filter(|i| i.realm_id == realm.id);
    let actor = Actor {
        user: joined.clone(),
        realm: realm.clone(),
        client: "Internal".into(),
        realm_url: realm_url.to_owned(),
    };
    let mut ids = NoticeIds::new(store)?;
    welcome(store, &actor, invitation.as_ref(), now, &mut ids, &mut outcome)?;
    if let Some(invitation) = &invitation {
        notify_referrer(store, &actor, invitation, now, &mut ids, &mut outcome)?;
    }
    Ok(outcome)
}

/// Zulip's Welcome Bot sends the invitation's `welcome_message_custom_text` (feature level
/// 416), or else the organization's, after its onboarding messages. Confab has no Welcome Bot
/// and sends no onboarding messages, so the Notification Bot sends the text alone, as it does
/// for `POST /realm/test_welcome_bot_custom_message`. Nothing when neither has a text.
fn welcome(
    store: &impl Store,
    actor: &Actor,
    invitation: Option<&Invitation>,
    now: i64,
    ids: &mut NoticeIds,
    outcome: &mut Outcome,
) -> ApiResult<()> {
    let text = match invitation.and_then(|i| i.welcome_message_custom_text.clone()) {
        Some(text) => text,
        None => actor
            .realm
            .settings
            .properties
            .get("welcome_message_custom_text")
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_owned(),
    };
    if !text.trim().is_empty() {
        send_direct_notice(store, actor, &actor.user, text, now, ids, outcome)?;
    }
    Ok(())
}

/// With an email invitation that asked for it: Notification Bot tells the inviter, if still
/// active, that the invitee joined.
fn notify_referrer(
    store: &impl Store,
    actor: &Actor,
    invitation: &Invitation,
    now: i64,
    ids: &mut NoticeIds,
    outcome: &mut Outcome,
) -> ApiResult<()> {
    if invitation.is_multiuse() || !invitation.notify_referrer_on_join {
        return Ok(());
    }
    let Some(referrer) = store.user(invitation.referred_by)?.filter(|u| u.is_active) else { return Ok(()) };
    let joined = &actor.user;
    let content =
        format!("{} accepted your invitation to join Zulip!", silent_mention(&joined.full_name, joined.id));
    send_direct_notice(store, actor, &referrer, content, now, ids, outcome)?;
    Ok(())
}
