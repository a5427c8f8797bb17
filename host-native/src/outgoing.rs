//! Outgoing webhooks, carried: after a message commits, its `Event::OutgoingWebhook`s come here;
//! each is posted to the bot's service on a task of its own, and the service's answer (or its
//! failure) goes back through the writer as the bot's reply (or a note to the bot's owner).
//! Sending a message never waits for any of this. The rules are in
//! `confab_core::api::outgoing_webhooks`; where requests may go is `OutgoingPolicy`.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use confab_core::api::outgoing_webhooks::{self, Body, Failure, Trigger, WebhookRequest};
use confab_core::ids::{MessageId, UserId};
use confab_core::outgoing_policy::OutgoingPolicy;
use confab_core::store::Store as _;
use confab_core::subdomains::Site;
use confab_core::{Actor, ApiError, ApiResult, Event};
use tokio::sync::{Semaphore, mpsc};

use crate::store::Store;
use crate::writer::Writer;

/// Zulip's `OUTGOING_WEBHOOK_TIMEOUT_SECONDS`.
const TIMEOUT: Duration = Duration::from_secs(10);
/// Zulip's `MAX_REQUEST_RETRIES`: after the first attempt, this many more on timeouts,
/// connection errors and 5xx answers.
const RETRIES: u32 = 3;
/// Deliveries in flight at once; more wait their turn.
const CONCURRENT: usize = 32;
/// The `client` of a bot's reply, as Zulip records it.
const REPLY_CLIENT: &str = "OutgoingWebhookResponse";

/// One bot to tell about one message.
#[derive(Debug)]
pub struct Delivery {
    bot: UserId,
    message: MessageId,
    trigger: Trigger,
}

/// Takes deliveries from the writer's event sink (a plain thread) to the delivery task.
#[derive(Clone)]
pub struct OutgoingWebhooks {
    queue: mpsc::UnboundedSender<Delivery>,
}

impl OutgoingWebhooks {
    pub fn channel() -> (OutgoingWebhooks, mpsc::UnboundedReceiver<Delivery>) {
        let (queue, deliveries) = mpsc::unbounded_channel();
        (OutgoingWebhooks { queue }, deliveries)
    }

    /// Queues the deliveries among committed events.
    pub fn dispatch(&self, events: &[Event]) {
        for event in events {
            if let Event::OutgoingWebhook { bot, message, trigger } = event {
                let delivery = Delivery { bot: *bot, message: *message, trigger: *trigger };
                if self.queue.send(delivery).is_err() {
                    tracing::warn!("outgoing webhook for message {message} dropped: the server is stopping");
                }
            }
        }
    }
}

/// What the delivery task works with.
pub struct Deliverer {
    pub store: Arc<Store>,
    pub writer: Writer,
    pub site: Arc<Site>,
    pub policy: Arc<OutgoingPolicy>,
    pub metrics: Arc<crate::metrics::Metrics>,
}

impl Deliverer {
    /// Delivers until the sending side is gone.
    pub async fn run(self, mut deliveries: mpsc::UnboundedReceiver<Delivery>) {
        let client = match http_client(self.policy.clone()) {
            Ok(client) => client,
            Err(e) => {
                tracing::error!("outgoing webhooks are off: cannot build an HTTP client: {e}");
                return;
            }
        };
        let this = Arc::new(self);
        let slots = Arc::new(Semaphore::new(CONCURRENT));
        while let Some(delivery) = deliveries.recv().await {
            let Ok(slot) = slots.clone().acquire_owned().await else { return };
            let (this, client) = (this.clone(), client.clone());
            tokio::spawn(async move {
                if let Err(e) = this.deliver(&client, &delivery).await {
                    tracing::warn!(
                        bot = delivery.bot.0,
                        message = delivery.message.0,
                        "outgoing webhook: {e}"
                    );
                }
                drop(slot);
            });
        }
    }

    async fn deliver(&self, client: &reqwest::Client, delivery: &Delivery) -> ApiResult<()> {
        let (bot, message, trigger) = (delivery.bot, delivery.message, delivery.trigger);
        let store = self.store.clone();
        let site = self.site.clone();
        let request = tokio::task::spawn_blocking(move || {
            store.read(|tables| {
                let Some(user) = tables.user(bot)? else { return Ok(None) };
                let Some(realm) = tables.realm(user.realm_id)? else { return Ok(None) };
                let realm_url = site.realm_url(&realm.subdomain);
                outgoing_webhooks::request(tables, &realm_url, bot, message, trigger)
            })
        })
        .await
        .map_err(ApiError::internal)??;
        let Some(request) = request else { return Ok(()) };
        let interface = request.interface;
        let posted = self.post(client, &request).await;
        self.metrics.delivery(posted.is_ok());
        match posted {
            Ok(body) => {
                self.command(bot, move |tables, actor, now| {
                    outgoing_webhooks::answer(tables, actor, message, interface, &body, now)
                })
                .await
            }
            Err(failure) => {
                let store = self.store.clone();
                // On a blocking thread, as every read (PostgreSQL's client blocks).
                let notifier = tokio::task::spawn_blocking(move || {
                    store.read(|t| {
                        let realm = t.user(bot)?.map(|u| u.realm_id);
                        Ok(realm.map(|r| t.realm(r)).transpose()?.flatten().and_then(|r| r.notification_bot))
                    })
                })
                .await
                .map_err(ApiError::internal)??;
                let Some(notifier) = notifier else { return Ok(()) };
                self.command(notifier, move |tables, actor, now| {
                    outgoing_webhooks::failure_notice(tables, actor, bot, message, &failure, now)
                })
                .await
            }
        }
    }

    /// Posts with Zulip's retries; the body of a 2xx answer, or why there was none.
    async fn post(&self, client: &reqwest::Client, request: &WebhookRequest) -> Result<String, Failure> {
        let url = self.target(&request.url).map_err(Failure::Unreachable)?;
        let mut attempt = 0;
        loop {
            let failure = match post_once(client, url.clone(), &request.body).await {
                Ok((status, body)) if status.is_success() => return Ok(body),
                Ok((status, body)) => {
                    let failure = Failure::Status { code: status.as_u16(), body };
                    if status.is_client_error() {
                        return Err(failure);
                    }
                    failure
                }
                Err(reason) => Failure::Unreachable(reason),
            };
            if attempt >= RETRIES {
                return Err(failure);
            }
            attempt += 1;
            tokio::time::sleep(Duration::from_secs(1 << (attempt - 1))).await;
        }
    }

    /// The service's URL, if requests may go there. Names are checked as they resolve
    /// (`PolicyResolver`), literal addresses here; neither changes on a retry.
    fn target(&self, url: &str) -> Result<reqwest::Url, String> {
        let url = reqwest::Url::parse(url).map_err(|e| format!("invalid URL {url}: {e}"))?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(format!("unsupported URL scheme in {url}"));
        }
        let host = url.host_str().unwrap_or_default();
        let literal = host.trim_start_matches('[').trim_end_matches(']').parse::<IpAddr>().ok();
        match literal {
            Some(ip) if !self.policy.permits(ip) => Err(refused(ip)),
            _ => Ok(url),
        }
    }

    /// Runs a command as `user` through the writer.
    async fn command<F>(&self, user: UserId, f: F) -> ApiResult<()>
    where
        F: FnOnce(&crate::store::WriteTables<'_>, &Actor, i64) -> ApiResult<confab_core::Outcome>
            + Send
            + 'static,
    {
        let site = self.site.clone();
        let now = crate::http::now();
        self.writer
            .submit(Box::new(move |tables| {
                let Some(user) = tables.user(user)?.filter(|u| u.is_active) else {
                    return Ok(confab_core::Outcome::default());
                };
                let Some(realm) = tables.realm(user.realm_id)? else {
                    return Ok(confab_core::Outcome::default());
                };
                let realm_url = site.realm_url(&realm.subdomain);
                let actor = Actor { user, realm, client: REPLY_CLIENT.to_owned(), realm_url };
                f(tables, &actor, now)
            }))
            .await
            .map(|_| ())
    }
}

async fn post_once(
    client: &reqwest::Client,
    url: reqwest::Url,
    body: &Body,
) -> Result<(reqwest::StatusCode, String), String> {
    let builder = client.post(url);
    let builder = match body {
        Body::Json(value) => builder.json(value),
        Body::Form(pairs) => builder.form(pairs),
    };
    let response = builder.send().await.map_err(describe)?;
    let status = response.status();
    let body = response.text().await.map_err(describe)?;
    Ok((status, body))
}

fn refused(ip: IpAddr) -> String {
    format!("the address {ip} is not allowed for outgoing requests (see confab serve --allow-outgoing-to)")
}

/// The error chain, which reqwest keeps in `source`s.
fn describe(error: reqwest::Error) -> String {
    let mut text = error.to_string();
    let mut source = std::error::Error::source(&error);
    while let Some(cause) = source {
        text.push_str(&format!(": {cause}"));
        source = cause.source();
    }
    text
}

/// A client that resolves names through the policy, follows no redirects and uses no proxy, so
/// the address the policy saw is the one connected to.
fn http_client(policy: Arc<OutgoingPolicy>) -> reqwest::Result<reqwest::Client> {
    reqwest::Client::builder()
        .timeout(TIMEOUT)
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy()
        .dns_resolver(Arc::new(PolicyResolver { policy }))
        .user_agent(concat!("ZulipOutgoingWebhook/", env!("CARGO_PKG_VERSION")))
        .build()
}

/// Resolves with the system resolver and keeps only the addresses the policy permits.
struct PolicyResolver {
    policy: Arc<OutgoingPolicy>,
}

impl reqwest::dns::Resolve for PolicyResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let policy = self.policy.clone();
        Box::pin(async move {
            let host = name.as_str().to_owned();
            let found: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            let permitted: Vec<SocketAddr> =
                found.iter().copied().filter(|a| policy.permits(a.ip())).collect();
            match (permitted.is_empty(), found.first()) {
                (false, _) => Ok(Box::new(permitted.into_iter()) as reqwest::dns::Addrs),
                (true, Some(first)) => Err(refused(first.ip()).into()),
                (true, None) => Err(format!("{host} has no address").into()),
            }
        })
    }
}
