//! The emails Confab sends, written here and mailed by the host once the command that asks
//! for one is durable ([`crate::command::Event::Email`]). Plain text, as Zulip's `.txt`
//! templates carry the same content as its HTML ones.

use crate::model::{Realm, User};

/// The `kind` of missed-message emails (`api::missed_messages`).
pub const MISSED_MESSAGES: &str = "missed messages";

/// One email to send.
#[derive(Clone, Debug, PartialEq)]
pub struct OutgoingEmail {
    pub to: String,
    pub subject: String,
    pub body: String,
    /// What it is, for the server's log ("invitation").
    pub kind: &'static str,
    /// The link it carries. With no mail server configured the host logs it, for an
    /// administrator to pass on by hand.
    pub link: Option<String>,
}

/// An email invitation (Zulip's `invitation` template): who invites, to which organization,
/// and the link that signs the invitee up.
pub fn invitation(inviter: &User, realm: &Realm, realm_url: &str, to: &str, link: &str) -> OutgoingEmail {
    let body = format!(
        "Hi there,\n\n\
         {inviter} ({inviter_email}) wants you to join them on Zulip, the team chat that \
         {organization} ({realm_url}) uses.\n\n\
         To get started, click this link:\n{link}\n\n\
         The link expires if the invitation is revoked or runs out; ask {inviter} for a new one \
         then.\n",
        inviter = inviter.full_name,
        inviter_email = inviter.delivery_email,
        organization = realm.name,
    );
    OutgoingEmail {
        to: to.to_owned(),
        subject: format!("{} invited you to join {}", inviter.full_name, realm.name),
        body,
        kind: "invitation",
        link: Some(link.to_owned()),
    }
}

/// A password reset link (Zulip's `password_reset` template), to the account's own address.
pub fn password_reset(user: &User, realm: &Realm, realm_url: &str, link: &str) -> OutgoingEmail {
    let body = format!(
        "Hi {name},\n\n\
         Somebody (possibly you) asked to reset the password of the account {email} in \
         {organization} ({realm_url}).\n\n\
         To choose a new password, open this link within a day:\n{link}\n\n\
         If you did not ask for this, you can ignore this email: your password stays as it is.\n",
        name = user.full_name,
        email = user.delivery_email,
        organization = realm.name,
    );
    OutgoingEmail {
        to: user.delivery_email.clone(),
        subject: format!("Reset your password for {}", realm.name),
        body,
        kind: "password reset",
        link: Some(link.to_owned()),
    }
}
