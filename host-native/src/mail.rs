//! Email, as far as Confab has it: none. Zulip mails each invitation's link; Confab has no mail
//! server yet, so once an invitation is durable its link is written to the server's log (as
//! Zulip's development email backend logs the mail it would send), for an administrator to
//! pass on. Nothing pretends the mail went out.

use confab_core::Event;

/// Logs the invitation links among committed events.
pub fn log_invitation_links(events: &[Event]) {
    for event in events {
        if let Event::InvitationLink { to, link } = event {
            tracing::warn!("invitation email to {to} not sent (no mail server configured); its link: {link}");
        }
    }
}
