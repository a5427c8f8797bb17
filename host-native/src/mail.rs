//! Email over SMTP. Core writes each email ([`confab_core::emails`]); once the command that
//! asked for it is durable, [`Mailer::deliver`] sends it in the background. With no mail
//! server configured (`--smtp-host`), nothing pretends the mail went out: its link is written
//! to the server's log, as Zulip's development email backend logs the mail it would send, for
//! an administrator to pass on.

use std::time::Duration;

use confab_core::Event;
use confab_core::emails::OutgoingEmail;
use lettre::message::{Mailbox, header::ContentType};
use lettre::transport::smtp::authentication::Credentials;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

/// How the connection to the mail server is secured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SmtpSecurity {
    /// Plain connection upgraded with STARTTLS, which the server must offer (port 587).
    Starttls,
    /// TLS from the first byte (port 465).
    Tls,
    /// No encryption: only for a relay on the same machine or network.
    None,
}

/// Where and how to send mail (`--smtp-*`).
#[derive(Clone, Debug)]
pub struct SmtpConfig {
    pub host: String,
    pub port: u16,
    pub security: SmtpSecurity,
    pub username: Option<String>,
    pub password: Option<String>,
    /// The sender of every email, `Name <address>` or an address.
    pub from: String,
}

/// The mail server flags of `confab serve`.
#[derive(clap::Args, Debug)]
pub struct SmtpArgs {
    /// The mail server (SMTP relay) that sends Confab's emails: invitations, password resets.
    /// Without it, no email is sent and the links they would carry are written to the log.
    #[arg(long, value_name = "HOST")]
    smtp_host: Option<String>,
    /// Its port; by default 587 for STARTTLS, 465 for TLS, 25 without encryption.
    #[arg(long, value_name = "PORT")]
    smtp_port: Option<u16>,
    #[arg(long, value_enum, default_value_t = SmtpSecurity::Starttls)]
    smtp_security: SmtpSecurity,
    /// The account to log in to the mail server with, if it wants one.
    #[arg(long, value_name = "NAME")]
    smtp_username: Option<String>,
    /// Its password; better given in the environment than on the command line.
    #[arg(long, value_name = "PASSWORD", env = "CONFAB_SMTP_PASSWORD", hide_env_values = true)]
    smtp_password: Option<String>,
    /// The sender of Confab's emails. Default: `Confab <noreply@HOST>` with the server's host.
    #[arg(long, value_name = "ADDRESS")]
    email_from: Option<String>,
}

impl SmtpArgs {
    /// The mail server's settings, if one is named; `host` fills the default sender.
    pub fn config(self, host: &str) -> Option<SmtpConfig> {
        let server = self.smtp_host?;
        let port = self.smtp_port.unwrap_or(match self.smtp_security {
            SmtpSecurity::Starttls => 587,
            SmtpSecurity::Tls => 465,
            SmtpSecurity::None => 25,
        });
        let domain = host.split(':').next().unwrap_or(host);
        Some(SmtpConfig {
            host: server,
            port,
            security: self.smtp_security,
            username: self.smtp_username,
            password: self.smtp_password,
            from: self.email_from.unwrap_or_else(|| format!("Confab <noreply@{domain}>")),
        })
    }
}

/// Attempts per email before it is given up (and logged): a mail server that is briefly away
/// is common, one that refuses an address is not worth retrying for long.
const ATTEMPTS: u32 = 3;
const RETRY_PAUSE: Duration = Duration::from_secs(5);

/// Sends the emails of committed commands. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Mailer {
    /// To the task that sends, when a mail server is configured.
    outbox: Option<tokio::sync::mpsc::UnboundedSender<OutgoingEmail>>,
}

/// Checks settings as [`Mailer::start`] would use them, without starting anything.
pub fn check(config: &SmtpConfig) -> Result<(), String> {
    config
        .from
        .parse::<Mailbox>()
        .map_err(|e| format!("--email-from {:?} is not an address: {e}", config.from))?;
    Ok(())
}

impl Mailer {
    /// A mailer for the configured server (its sending task started: needs a tokio runtime),
    /// or one that logs when there is none. Fails on a sender address or a mail server name
    /// that cannot work.
    pub fn start(config: Option<&SmtpConfig>) -> Result<Self, String> {
        let Some(config) = config else { return Ok(Mailer { outbox: None }) };
        let from: Mailbox = config
            .from
            .parse()
            .map_err(|e| format!("--email-from {:?} is not an address: {e}", config.from))?;
        let builder = match config.security {
            SmtpSecurity::Starttls => AsyncSmtpTransport::<Tokio1Executor>::starttls_relay(&config.host),
            SmtpSecurity::Tls => AsyncSmtpTransport::<Tokio1Executor>::relay(&config.host),
            SmtpSecurity::None => Ok(AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&config.host)),
        }
        .map_err(|e| format!("--smtp-host {:?}: {e}", config.host))?;
        let mut builder = builder.port(config.port).timeout(Some(Duration::from_secs(30)));
        if let Some(username) = &config.username {
            let password = config.password.clone().unwrap_or_default();
            builder = builder.credentials(Credentials::new(username.clone(), password));
        }
        let transport = builder.build();
        let (outbox, mut queued) = tokio::sync::mpsc::unbounded_channel::<OutgoingEmail>();
        tokio::spawn(async move {
            while let Some(email) = queued.recv().await {
                let (transport, from) = (transport.clone(), from.clone());
                tokio::spawn(send(transport, from, email));
            }
        });
        Ok(Mailer { outbox: Some(outbox) })
    }

    pub fn is_configured(&self) -> bool {
        self.outbox.is_some()
    }

    /// Sends the emails among committed events (from any thread: the writer's calls this).
    pub fn deliver(&self, events: &[Event]) {
        for event in events {
            let Event::Email(email) = event else { continue };
            let unsent = match &self.outbox {
                Some(outbox) => outbox.send(email.clone()).err().map(|e| e.0),
                None => Some(email.clone()),
            };
            let Some(email) = unsent else { continue };
            let link = email.link.as_deref().unwrap_or("(none)");
            // An invitation or a password reset is something an administrator can pass on;
            // missed-message emails would only fill the log.
            if email.kind == confab_core::emails::MISSED_MESSAGES {
                tracing::debug!("{} email to {} not sent (no mail server configured)", email.kind, email.to);
            } else {
                tracing::warn!(
                    "{} email to {} not sent (no mail server configured); its link: {link}",
                    email.kind,
                    email.to
                );
            }
        }
    }
}

async fn send(transport: AsyncSmtpTransport<Tokio1Executor>, from: Mailbox, email: OutgoingEmail) {
    let message = match email.to.parse::<Mailbox>().map_err(|e| e.to_string()).and_then(|to| {
        Message::builder()
            .from(from)
            .to(to)
            .subject(email.subject.as_str())
            .header(ContentType::TEXT_PLAIN)
            .body(email.body.clone())
            .map_err(|e| e.to_string())
    }) {
        Ok(message) => message,
        Err(e) => {
            tracing::error!("{} email to {} not sent: {e}", email.kind, email.to);
            return;
        }
    };
    for attempt in 1..=ATTEMPTS {
        match transport.send(message.clone()).await {
            Ok(_) => {
                tracing::info!("{} email sent to {}", email.kind, email.to);
                return;
            }
            Err(e) if attempt < ATTEMPTS && !e.is_permanent() => {
                tracing::warn!("{} email to {}: {e}; trying again", email.kind, email.to);
                tokio::time::sleep(RETRY_PAUSE).await;
            }
            Err(e) => {
                tracing::error!("{} email to {} not sent: {e}", email.kind, email.to);
                return;
            }
        }
    }
}
