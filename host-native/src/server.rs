//! Running a server: open the store, make the first organization if needed, bind, serve.

use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use tokio::net::TcpListener;

use crate::bootstrap::{OwnerCredentials, ensure_root_realm, write_zuliprc};
use crate::events::EventHub;
use crate::http::{self, AppState};
use crate::store::Store;

/// Where a graceful shutdown saves the event queues, in the data directory.
const EVENT_QUEUES_FILE: &str = "event_queues.json";

/// How to run.
#[derive(Clone, Debug)]
pub struct Config {
    pub data_dir: PathBuf,
    pub bind: SocketAddr,
    /// The first owner's email, used only when the data directory is new.
    pub owner_email: String,
    /// How long a client may take to send its request headers before it is disconnected.
    pub header_timeout: std::time::Duration,
}

/// A server bound to its address, ready to serve.
pub struct Server {
    pub local_addr: SocketAddr,
    /// Set when this start created the organization.
    pub new_owner: Option<OwnerCredentials>,
    listener: TcpListener,
    state: AppState,
    header_timeout: std::time::Duration,
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
    /// Opens the data directory and binds. On a new data directory this creates the
    /// organization and writes `DIR/zuliprc` pointing at the bound address.
    pub async fn bind(config: &Config) -> Result<Server, StartError> {
        let store = Store::open(&config.data_dir)
            .map_err(|e| StartError(format!("cannot open {}: {e}", config.data_dir.display())))?;
        let store = Arc::new(store);
        let listener = TcpListener::bind(config.bind)
            .await
            .map_err(|e| StartError(format!("cannot listen on {}: {e}", config.bind)))?;
        let local_addr = listener.local_addr().map_err(|e| StartError(e.to_string()))?;
        let site = format!("http://{local_addr}");
        let new_owner = ensure_root_realm(&store, &config.owner_email, http::now())
            .map_err(|e| StartError(format!("cannot create the organization: {e}")))?;
        if let Some(owner) = &new_owner {
            let path = config.data_dir.join("zuliprc");
            write_zuliprc(&path, &owner.email, &owner.api_key, &site)
                .map_err(|e| StartError(format!("cannot write {}: {e}", path.display())))?;
        }
        let events = EventHub::load(config.data_dir.join(EVENT_QUEUES_FILE), http::now());
        let state = AppState::new(store, &site, events);
        Ok(Server { local_addr, new_owner, listener, state, header_timeout: config.header_timeout })
    }

    /// Serves until `shutdown` completes, then drains connections (waiting polls answer at
    /// once) and saves the event queues for the next start.
    pub async fn run(self, shutdown: impl Future<Output = ()>) {
        let events = self.state.events.clone();
        let timer = tokio::spawn(events.clone().run_timer());
        let app = http::app(self.state);
        let closing = events.clone();
        let shutdown = async move {
            shutdown.await;
            closing.close();
        };
        http::serve::serve(self.listener, app, self.header_timeout, shutdown).await;
        timer.abort();
        events.save();
    }
}

/// Completes on SIGTERM or SIGINT.
pub async fn shutdown_signal() {
    let interrupt = async {
        if let Err(e) = tokio::signal::ctrl_c().await {
            tracing::error!("cannot listen for SIGINT: {e}");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(e) => {
                tracing::error!("cannot listen for SIGTERM: {e}");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => tracing::info!("SIGINT: shutting down"),
        () = terminate => tracing::info!("SIGTERM: shutting down"),
    }
}
