//! Running a server: open the store, make the first organization if needed, bind, serve; and
//! stopping it so that the database file is closed cleanly.
//!
//! A file redb did not close is repaired at the next open by reading all of it (seconds at a
//! million messages), so a stop must end everything that holds the store before the process
//! exits: the connections and tasks, then the writer thread (after it commits what it has),
//! then the database itself ([`Stopped::close`], once the runtime is gone).

use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;

use confab_core::subdomains::Site;

use crate::bootstrap::{OwnerCredentials, ensure_first_realm};
use crate::events::EventHub;
use crate::http::{self, AppState, LargeAnswers, MetricsAccess};
use crate::store::{self, Store};
use crate::zuliprc::{self, Zuliprc};

/// Where a graceful shutdown saves the event queues, in the data directory.
const EVENT_QUEUES_FILE: &str = "event_queues.json";

/// How long a stop waits for the writer to commit the commands it has. A batch takes
/// milliseconds; this bounds a stop on a disk that no longer answers.
const WRITER_STOP_TIMEOUT: Duration = Duration::from_secs(10);

/// How to run.
#[derive(Clone, Debug)]
pub struct Config {
    pub data_dir: PathBuf,
    pub bind: SocketAddr,
    /// The first owner's email, used only when the data directory is new.
    pub owner_email: String,
    /// How long a client may take to send its request headers before it is disconnected.
    pub header_timeout: std::time::Duration,
    /// How long a client may pause in the middle of a request body before it is answered 408.
    pub body_timeout: std::time::Duration,
    /// How many commands from requests may wait for the writer at once; more are refused (429).
    pub write_queue: usize,
    /// Seconds an event queue may go unpolled before it is discarded.
    pub event_queue_timeout_secs: i64,
    /// The host clients reach the server at (`--external-host`); its subdomains are the other
    /// organizations. `None`: the bound address.
    pub external_host: Option<String>,
    /// `http`, or `https` behind a proxy that terminates TLS: the scheme of organization URLs.
    pub external_scheme: String,
    /// Private ranges outgoing webhooks may reach besides the public internet.
    pub outgoing_policy: confab_core::outgoing_policy::OutgoingPolicy,
    /// How the database is opened (its page cache's size).
    pub store: store::Options,
    /// A PostgreSQL database to keep everything in instead of the data directory's redb file
    /// (`--database`); the data directory then holds only this node's files.
    pub database: Option<String>,
    /// This server's name among several on one database (`--node-id`): it starts each of its
    /// event queues' ids, for the proxy that routes polls to the server holding the queue.
    pub node_id: Option<crate::node::NodeId>,
    /// The mail server (`--smtp-host`); `None`: emails are not sent, their links are logged.
    pub smtp: Option<crate::mail::SmtpConfig>,
    /// Who may read `/metrics`.
    pub metrics_access: MetricsAccess,
    /// Rate limits per user and per client address, and the addresses exempt from them.
    pub rate_limits: http::RateLimitConfig,
}

/// An organization, as the start-up banner shows it.
#[derive(Clone, Debug)]
pub struct Organization {
    pub name: String,
    pub url: String,
}

/// A server bound to its address, ready to serve.
pub struct Server {
    pub local_addr: SocketAddr,
    /// Where clients reach the server.
    pub site: Site,
    /// Set when this start created the organization.
    pub new_owner: Option<OwnerCredentials>,
    /// Every organization, the root's first.
    pub organizations: Vec<Organization>,
    listener: TcpListener,
    data_dir: PathBuf,
    state: AppState,
    timeouts: http::serve::Timeouts,
}

/// Why a server could not start.
#[derive(Debug)]
pub struct StartError(pub String);

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl Server {
    /// Opens the data directory and binds. On a data directory without organizations this
    /// creates one on the root and writes `DIR/zuliprc` pointing at the root's URL.
    pub async fn bind(config: &Config) -> Result<Server, StartError> {
        crate::math::install();
        let store = open_store(config).await?;
        let listener = TcpListener::bind(config.bind)
            .await
            .map_err(|e| StartError(format!("cannot listen on {}: {e}", config.bind)))?;
        let local_addr = listener.local_addr().map_err(|e| StartError(e.to_string()))?;
        let site = site_of(config, local_addr)?;
        let (new_owner, organizations) = {
            let (store, site, zuliprc_path) =
                (store.clone(), site.clone(), config.data_dir.join(zuliprc::FILE_NAME));
            let owner_email = config.owner_email.clone();
            // On a blocking thread, as every read: PostgreSQL's client blocks.
            let prepared = tokio::task::spawn_blocking(move || {
                let new_owner = ensure_first_realm(&store, &owner_email, http::now())
                    .map_err(|e| StartError(format!("cannot create the organization: {e}")))?;
                if let Some(owner) = &new_owner {
                    let rc = Zuliprc {
                        email: owner.email.clone(),
                        key: owner.api_key.clone(),
                        site: site.root_url(),
                    };
                    rc.write(&zuliprc_path)
                        .map_err(|e| StartError(format!("cannot write {}: {e}", zuliprc_path.display())))?;
                } else {
                    check_zuliprc(&zuliprc_path, &store, &site);
                }
                Ok::<_, StartError>((new_owner, organizations(&store, &site)?))
            });
            prepared.await.map_err(|e| StartError(format!("starting: {e}")))??
        };
        let saved_queues = config.data_dir.join(EVENT_QUEUES_FILE);
        let events = EventHub::load(
            saved_queues,
            http::now(),
            config.event_queue_timeout_secs,
            config.node_id.clone(),
        );
        if store.shares_events() {
            let (hub, store) = (events.clone(), store.clone());
            let started = tokio::task::spawn_blocking(move || hub.share_events(&store)).await;
            started
                .map_err(|e| StartError(e.to_string()))?
                .map_err(|e| StartError(format!("cannot read the shared events: {}", e.msg)))?;
        }
        let files = crate::uploads::FileStore::new(&config.data_dir);
        let large_answers = LargeAnswers::one_per_core()
            .map_err(|e| StartError(format!("cannot start the threads for large answers: {}", e.msg)))?;
        let mailer = crate::mail::Mailer::start(config.smtp.as_ref()).map_err(StartError)?;
        if !mailer.is_configured() {
            tracing::warn!(
                "email is off (no --smtp-host): the links of invitations and password resets are written to this log instead"
            );
        }
        let policy = config.outgoing_policy.clone();
        let state = AppState::new(store, site.clone(), events, policy, files, large_answers, mailer)
            .with_write_queue(config.write_queue)
            .with_metrics_access(config.metrics_access.clone())
            .with_rate_limits(config.rate_limits.clone());
        let timeouts = http::serve::Timeouts { header: config.header_timeout, body: config.body_timeout };
        let data_dir = config.data_dir.clone();
        Ok(Server { local_addr, site, new_owner, organizations, listener, data_dir, state, timeouts })
    }

    /// Serves until `shutdown` completes, then drains connections (waiting polls answer at
    /// once), stops the tasks and the writer (which commits what it has) and saves the event
    /// queues for the next start. What is left is the database, for [`Stopped::close`].
    pub async fn run(self, shutdown: impl Future<Output = ()>) -> Stopped {
        let store = self.state.store.clone();
        let writer = self.state.writer.clone();
        let events = self.state.events.clone();
        let timer = tokio::spawn(events.clone().run_timer());
        let deliveries = tokio::spawn(self.state.deliveries.clone().run(
            self.state.store.clone(),
            self.state.writer.clone(),
            self.state.site.clone(),
        ));
        let exports = tokio::spawn(self.state.exports.clone().run(
            self.state.store.clone(),
            self.state.writer.clone(),
            self.state.site.clone(),
            self.state.files.clone(),
        ));
        // `confab backup` asks for backups here (never over HTTP).
        let control = crate::backups::socket::listen(
            &self.data_dir,
            self.state.store.clone(),
            self.state.files.clone(),
        );
        // Other servers' batches, on a thread of its own (PostgreSQL only).
        let listening = store.shares_events().then(|| {
            let (hub, store) = (events.clone(), store.clone());
            std::thread::Builder::new()
                .name("confab-events-listener".into())
                .spawn(move || hub.listen(&store))
        });
        let app = http::app(self.state);
        let closing = events.clone();
        let shutdown = async move {
            shutdown.await;
            closing.close();
        };
        http::serve::serve(self.listener, app, self.timeouts, shutdown).await;
        if let Some(control) = control {
            control.stop().await;
        }
        timer.abort();
        deliveries.abort();
        exports.abort();
        // Awaited, so that the delivery and export tasks have dropped their store and writer.
        let _ = tokio::join!(timer, deliveries, exports);
        match listening {
            // It sees the hub closed within a second, and drops its store.
            Some(Ok(thread)) => drop(tokio::task::spawn_blocking(move || thread.join()).await),
            Some(Err(e)) => {
                tracing::error!("cannot start the thread that listens for other servers' events: {e}")
            }
            None => {}
        }
        let stopped = tokio::task::spawn_blocking(move || writer.stop(WRITER_STOP_TIMEOUT)).await;
        if !matches!(stopped, Ok(true)) {
            tracing::warn!("the writer did not finish within {WRITER_STOP_TIMEOUT:?}");
        }
        // After the writer: the events of its last commits are in the queues.
        events.save();
        Stopped { store }
    }
}

/// Opens the store: the PostgreSQL database when one is named, else the data directory's file.
async fn open_store(config: &Config) -> Result<Arc<Store>, StartError> {
    let (data_dir, options, database) = (config.data_dir.clone(), config.store, config.database.clone());
    let session_name = match &config.node_id {
        Some(node) => format!("confab node {node}"),
        None => "confab".to_owned(),
    };
    let opened = tokio::task::spawn_blocking(move || match &database {
        Some(url) => {
            // Opening a file creates the directory; this node's files go there all the same.
            std::fs::create_dir_all(&data_dir)
                .map_err(|e| format!("cannot create {}: {e}", data_dir.display()))?;
            Store::open_postgres_as(url, &session_name).map_err(|e| format!("cannot open the database: {e}"))
        }
        None => Store::open_with(&data_dir, options)
            .map_err(|e| format!("cannot open {}: {e}", data_dir.display())),
    });
    let store = opened.await.map_err(|e| StartError(format!("opening the database: {e}")))?;
    Ok(Arc::new(store.map_err(StartError)?))
}

/// A server that has stopped serving; its database is still open.
pub struct Stopped {
    store: Arc<Store>,
}

impl Stopped {
    /// Closes the database file, so that the next start needs no repair. Call it once the
    /// runtime has shut down: a request still running there (one the drain gave up on) holds
    /// the store, and the file then stays open until the process exits, as after a crash.
    pub fn close(self) -> Result<(), String> {
        let store = Arc::try_unwrap(self.store)
            .map_err(|_| "the database is still in use (a request outlived the shutdown)".to_owned())?;
        store.close()
    }
}

/// Puts the site this server answers at into the data directory's zuliprc, and says so: copies
/// of the file elsewhere need the same change.
fn check_zuliprc(path: &std::path::Path, store: &Store, site: &Site) {
    match zuliprc::refresh_site(path, store, site) {
        Ok(zuliprc::Checked::Fine) => {}
        Ok(zuliprc::Checked::SiteChanged { from, to }) => tracing::warn!(
            "{} named site={from}, but this server answers its user at {to}: rewrote its site. \
             Copies of it elsewhere need the same change (`confab zuliprc` writes a fresh one)",
            path.display()
        ),
        Ok(zuliprc::Checked::NoAccount) => tracing::warn!(
            "{}'s email and key open no account here, so the Zulip clients cannot use it; \
             `confab zuliprc` writes a fresh one",
            path.display()
        ),
        Err(e) => tracing::warn!("cannot check {}: {e}", path.display()),
    }
}

/// Every organization with its URL, the root's first.
fn organizations(store: &Store, site: &Site) -> Result<Vec<Organization>, StartError> {
    use confab_core::store::Store as _;
    let mut realms = store
        .read(|tables| tables.realms())
        .map_err(|e| StartError(format!("cannot read the organizations: {}", e.msg)))?;
    realms.sort_by(|a, b| {
        (!a.subdomain.is_empty(), &a.subdomain).cmp(&(!b.subdomain.is_empty(), &b.subdomain))
    });
    Ok(realms
        .into_iter()
        .map(|realm| Organization { url: site.realm_url(&realm.subdomain), name: realm.name })
        .collect())
}

/// The site clients reach: `--external-host`, else the address actually bound (so `:0` becomes
/// the chosen port).
fn site_of(config: &Config, local_addr: SocketAddr) -> Result<Site, StartError> {
    let host = match &config.external_host {
        Some(host) => host.clone(),
        None => {
            if local_addr.ip().is_unspecified() {
                // Clients cannot send this address as their Host, so no request would find an
                // organization.
                tracing::warn!(
                    "listening on {local_addr} without --external-host: requests must name the host \
                     {local_addr}; set --external-host to the name clients use"
                );
            }
            local_addr.to_string()
        }
    };
    Site::new(&config.external_scheme, &host).map_err(|e| StartError(format!("--external-host: {e}")))
}

/// Completes on SIGTERM, SIGINT or SIGHUP (the terminal that started the server closed):
/// each stops the server the same graceful way, saving its event queues. The handlers are installed by this call, not when the
/// future is first polled: a signal that arrives after the server says it is listening, but
/// before it starts serving, still shuts it down gracefully instead of killing it.
pub fn shutdown_signal() -> impl Future<Output = ()> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let terminate = signal(SignalKind::terminate());
        let interrupt = signal(SignalKind::interrupt());
        let hangup = signal(SignalKind::hangup());
        async move {
            let (mut terminate, mut interrupt, mut hangup) = match (terminate, interrupt, hangup) {
                (Ok(t), Ok(i), Ok(h)) => (t, i, h),
                (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => {
                    tracing::error!("cannot listen for SIGTERM, SIGINT and SIGHUP: {e}");
                    return std::future::pending().await;
                }
            };
            tokio::select! {
                _ = interrupt.recv() => tracing::info!("SIGINT: shutting down"),
                _ = terminate.recv() => tracing::info!("SIGTERM: shutting down"),
                _ = hangup.recv() => tracing::info!("SIGHUP: shutting down"),
            }
        }
    }
    #[cfg(not(unix))]
    async {
        if let Err(e) = tokio::signal::ctrl_c().await {
            tracing::error!("cannot listen for Ctrl-C: {e}");
            std::future::pending::<()>().await;
        }
        tracing::info!("Ctrl-C: shutting down");
    }
}
