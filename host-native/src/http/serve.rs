//! The accept loop: each connection is served by [`super::connection`], and on shutdown the
//! loop stops accepting and waits for connections to finish what they are doing.

use std::future::Future;
use std::time::Duration;

use axum::Router;
use tokio::net::TcpListener;
use tokio::sync::watch;

use super::connection;

/// How long a client may take to send its request headers, unless configured otherwise.
pub const DEFAULT_HEADER_READ_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a client may pause between two pieces of a request body, unless configured
/// otherwise: nginx's `client_body_timeout`, which Zulip's own servers run behind.
pub const DEFAULT_BODY_READ_TIMEOUT: Duration = Duration::from_secs(60);

/// How long a connection waits for its client.
#[derive(Clone, Copy, Debug)]
pub struct Timeouts {
    /// For a request's head, counted from the end of the previous request (idle time included).
    pub header: Duration,
    /// Between two reads of a request's body; the request is then answered 408 and closed.
    pub body: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts { header: DEFAULT_HEADER_READ_TIMEOUT, body: DEFAULT_BODY_READ_TIMEOUT }
    }
}
/// How long shutdown waits for requests in flight.
pub const DRAIN_TIMEOUT: Duration = Duration::from_secs(10);

/// Serves `app` on `listener` until `shutdown` completes, then drains open connections.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    timeouts: Timeouts,
    shutdown: impl Future<Output = ()>,
) {
    // Every connection holds a receiver: `true` tells it to close once its current request
    // is answered, and the channel closes when the last connection is gone.
    let (closing, connections) = watch::channel(false);
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let (stream, _peer) = match accepted {
                    Ok(conn) => conn,
                    Err(e) => {
                        // Out of file descriptors and the like: back off instead of spinning.
                        tracing::warn!("accept failed: {e}");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                };
                // An answer leaves in two writes (hyper's head, then the body it holds back
                // until keep-alive is off): with Nagle's algorithm the second waited for the
                // client's delayed ACK, 40 ms a request (674 requests/s on 32 connections).
                if let Err(e) = stream.set_nodelay(true) {
                    tracing::debug!("cannot set TCP_NODELAY: {e}");
                }
                tokio::spawn(connection::serve(stream, app.clone(), timeouts, connections.clone()));
            }
            () = &mut shutdown => break,
        }
    }
    drop(listener);
    drop(connections);
    closing.send_replace(true);
    tokio::select! {
        () = closing.closed() => tracing::info!("all connections closed"),
        () = tokio::time::sleep(DRAIN_TIMEOUT) => tracing::warn!("shutdown timed out with connections open"),
    }
}
