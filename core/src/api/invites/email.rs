//! Email invitations: `POST /invites`, `DELETE /invites/{id}`, `POST /invites/{id}/resend`.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use crate::command::{Actor, Event, Outcome};
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::ids::IdKind;
use crate::model::{Invitation, InvitationStatus};
use crate::params::{Json, Params};
use crate::store::{Change, IdAllocator, Store};

use super::{
    InvitationTerms, check_role_permissions, invites_changed, link_url, may, require_member_or_admin,
};

/// Zulip's `INVITES_MIN_USER_AGE_DAYS`: in an organization anyone may join, members this new
/// send no invitations.
const MIN_INVITER_AGE_DAYS: i64 = 3;

/// Where a command that invited some addresses and refused others keeps its refusal (Zulip
/// answers such a request with an error after sending the invitations it could).
const PARTIAL_REFUSAL: &str = "partial_refusal";

/// `POST /invites`. `keys` are fresh confirmation keys from the host, at least one per
/// address.
pub fn send_invites(
    store: &impl Store,
    actor: &Actor,
    params: &Params,
    keys: Vec<String>,
    now: i64,
) -> ApiResult<Outcome> {
    require_member_or_admin(actor)?;
    let raw: String = params.required("invitee_emails")?;
    let Json(stream_ids) = params.required::<Json<Vec<u64>>>("stream_ids")?;
    let notify_referrer_on_join: bool = params.or("notify_referrer_on_join", true)?;
    let terms = InvitationTerms::parse(params, now, stream_ids)?;
    if !may(store, actor, "can_invite_users_group")? {
        return Err(ApiError::insufficient_permission());
    }
    terms.check_role(actor)?;
    if raw.is_empty() {
        return Err(ApiError::bad_request("You must specify at least one email address."));
    }
    let emails = invitee_emails(&raw);
    terms.check_grants(store, actor)?;
    check_inviter_age(actor, now)?;

    let mut invalid: Vec<Value> = Vec::new();
    let mut skipped: Vec<Value> = Vec::new();
    let mut good: Vec<&str> = Vec::new();
    for email in emails.iter().filter(|e| !e.is_empty()) {
        if super::super::users::validate_email(email).is_err() {
            invalid.push(json!([email, "Invalid address.", false]));
        } else if let Some(existing) = store.user_by_delivery_email(actor.realm.id, email)? {
            let active = store.user(existing)?.is_some_and(|u| u.is_active);
            let why = if active { "Already has an account." } else { "Account has been deactivated." };
            skipped.push(json!([email, why, !active]));
        } else {
            good.push(email);
        }
    }
    if !invalid.is_empty() {
        invalid.extend(skipped);
        return Err(invitation_failed(
            "Some emails did not validate, so we didn't send any invitations.",
            invalid,
            false,
        ));
    }
    if !skipped.is_empty() && skipped.len() == emails.len() {
        return Err(invitation_failed("We weren't able to invite anyone.", skipped, false));
    }
    if keys.len() < good.len() {
        return Err(ApiError::internal("too few confirmation keys for the invitations"));
    }

    let mut outcome = Outcome::default();
    let mut ids = IdAllocator::new(store, IdKind::Invitation)?;
    let realm_url = actor.realm_url.clone();
    for (email, key) in good.into_iter().zip(keys) {
        let mut invitation = terms.clone().invitation(actor, ids.take(), key, Some(email.to_owned()), now);
        invitation.notify_referrer_on_join = notify_referrer_on_join;
        let link = link_url(&invitation, &realm_url);
        let mail = crate::emails::invitation(&actor.user, &actor.realm, &realm_url, email, &link);
        outcome.events.push(Event::Email(mail));
        outcome.changes.push(Change::PutInvitation(invitation));
    }
    outcome.events.push(invites_changed(store, actor.realm.id, Some(actor.user.id))?);
    if !skipped.is_empty() {
        let refusal = invitation_failed(
            "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
            skipped,
            true,
        );
        outcome.reply.insert(PARTIAL_REFUSAL.into(), refusal.body());
    }
    Ok(outcome)
}

/// The refusal a committed `send_invites` carries, taken out of its reply: the host answers
/// with it (status 400) instead of a success.
pub fn take_partial_refusal(outcome: &mut Outcome) -> Option<ApiError> {
    let Value::Object(mut body) = outcome.reply.remove(PARTIAL_REFUSAL)? else { return None };
    let msg = body.remove("msg").and_then(|m| m.as_str().map(str::to_owned)).unwrap_or_default();
    let mut refusal = ApiError::new(ErrorCode::InvitationFailed, msg);
    for key in ["errors", "sent_invitations", "license_limit_reached", "daily_limit_reached"] {
        if let Some(value) = body.remove(key) {
            refusal = refusal.with(key, value);
        }
    }
    Some(refusal)
}

/// Zulip's `InvitationError`: each refused address as `[email, reason, deactivated]`.
fn invitation_failed(msg: &str, errors: Vec<Value>, sent_invitations: bool) -> ApiError {
    ApiError::new(ErrorCode::InvitationFailed, msg)
        .with("errors", errors)
        .with("sent_invitations", sent_invitations)
        .with("license_limit_reached", false)
        .with("daily_limit_reached", false)
}

/// Zulip's `get_invitee_emails_set`: addresses separated by commas or newlines, each maybe
/// written `Name <address>`, trimmed, without repeats.
fn invitee_emails(raw: &str) -> BTreeSet<String> {
    raw.split([',', '\n'])
        .map(|entry| match (entry.find('<'), entry.rfind('>')) {
            (Some(open), Some(close)) if open < close => &entry[open + 1..close],
            _ => entry,
        })
        .map(|email| email.trim().to_owned())
        .collect()
}

/// Where anyone may join without an invitation, a member must have been one for a few days
/// before inviting others (administrators need not).
fn check_inviter_age(actor: &Actor, now: i64) -> ApiResult<()> {
    let invite_required =
        actor.realm.settings.properties.get("invite_required").and_then(Value::as_bool).unwrap_or(true);
    let new = actor.user.date_joined > now - MIN_INVITER_AGE_DAYS * 24 * 60 * 60;
    if !invite_required && new && !actor.user.is_admin() {
        return Err(invitation_failed(
            "Your account is too new to send invites for this organization. Ask an organization admin, or a more experienced user.",
            Vec::new(),
            false,
        ));
    }
    Ok(())
}

/// Zulip's `access_invite_by_id`: an email invitation of the organization; one made by
/// someone else only for an administrator (and one inviting an owner only for an owner).
fn email_invitation(store: &impl Store, actor: &Actor, id: u64) -> ApiResult<Invitation> {
    require_member_or_admin(actor)?;
    let invitation = store
        .invitations(actor.realm.id)?
        .into_iter()
        .find(|i| i.id == id && !i.is_multiuse() && i.status != InvitationStatus::Revoked)
        .ok_or_else(|| ApiError::bad_request("No such invitation"))?;
    if invitation.referred_by != actor.user.id {
        check_role_permissions(actor, invitation.invited_as, true)?;
    }
    Ok(invitation)
}

/// `DELETE /invites/{invite_id}`: the link stops working.
pub fn revoke_email_invite(store: &impl Store, actor: &Actor, id: u64) -> ApiResult<Outcome> {
    let invitation = email_invitation(store, actor, id)?;
    let referrer = invitation.referred_by;
    let revoked = Invitation { status: InvitationStatus::Revoked, ..invitation };
    Ok(Outcome {
        changes: vec![Change::PutInvitation(revoked)],
        events: vec![invites_changed(store, actor.realm.id, Some(referrer))?],
        ..Outcome::default()
    })
}

/// `POST /invites/{invite_id}/resend`: the same email again, from the invitation's inviter.
/// The invitation keeps its expiry.
pub fn resend_email_invite(store: &impl Store, actor: &Actor, id: u64) -> ApiResult<Outcome> {
    let invitation = email_invitation(store, actor, id)?;
    let to = invitation.email.clone().unwrap_or_default();
    let link = link_url(&invitation, &actor.realm_url);
    let inviter = store.user(invitation.referred_by)?.unwrap_or_else(|| actor.user.clone());
    let mail = crate::emails::invitation(&inviter, &actor.realm, &actor.realm_url, &to, &link);
    Ok(Outcome { events: vec![Event::Email(mail)], ..Outcome::default() })
}
