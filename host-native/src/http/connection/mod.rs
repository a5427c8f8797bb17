//! One client connection, from accept to close.
//!
//! hyper keeps a read buffer of at least 8 KiB, and more state besides, for every connection
//! it serves, for as long as the connection is open. A client parked in `GET /events` would
//! cost twice the memory goal for its connection alone. So this loop reads each request head
//! itself ([`head`]): a long-poll is answered here ([`long_poll`]) and holds no buffers while
//! it waits; every other request goes to hyper for that one request ([`by_hyper`]), after
//! which the connection returns here, keep-alive intact.

mod by_hyper;
mod head;
mod long_poll;
mod request_body;
mod response_body;
#[cfg(test)]
mod tests;

use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use tokio::io::AsyncWriteExt as _;
use tokio::net::TcpStream;
use tokio::sync::watch;

use head::{Head, Refusal};

use super::serve::Timeouts;

/// Serves requests on `stream` until the client closes it, a request asks to close, a head
/// takes longer than the header timeout to arrive (idle keep-alive time included, as in hyper),
/// a body stalls longer than the body timeout, or `closing` turns true between requests.
pub async fn serve(
    mut stream: TcpStream,
    app: Router,
    timeouts: Timeouts,
    mut closing: watch::Receiver<bool>,
) {
    let mut pending = Vec::new();
    // Handlers that care who asked (`/metrics`, rate limits) read it as axum's `ConnectInfo`.
    let peer = stream.peer_addr().ok().map(ConnectInfo);
    loop {
        if *closing.borrow() {
            return;
        }
        // Boxed, like the answers below: the task itself stays small while a poll waits.
        let Some(head) = Box::pin(next_head(&stream, &mut pending, timeouts.header, &mut closing)).await
        else {
            return;
        };
        let is_closing = {
            let closing = closing.clone();
            move || *closing.borrow()
        };
        // Each kind of request runs in its own allocation, so a parked long-poll's task holds
        // only the poll's state, not room for hyper's too.
        let keep_open = match head {
            Head::LongPoll { mut request, consumed, close_after } => {
                if let Some(peer) = peer {
                    request.extensions_mut().insert(peer);
                }
                pending.drain(..consumed);
                if pending.is_empty() {
                    pending = Vec::new();
                }
                Box::pin(long_poll::answer(
                    &mut stream,
                    &mut pending,
                    app.clone(),
                    *request,
                    close_after,
                    is_closing,
                ))
                .await
            }
            Head::Other { close_after } => {
                let serving = by_hyper::serve_one(
                    &mut stream,
                    &mut pending,
                    app.clone(),
                    peer,
                    close_after,
                    timeouts.body,
                    is_closing,
                );
                Box::pin(serving).await
            }
            Head::Refused(refusal) => {
                if let Ok(bytes) = long_poll::encode(refused(refusal), true).await {
                    let _ = stream.write_all(&bytes).await;
                }
                false
            }
        };
        if !keep_open {
            return;
        }
    }
}

/// A request refused from its head, answered in Zulip's error shape.
fn refused(refusal: Refusal) -> axum::response::Response {
    let (status, msg) = match refusal {
        Refusal::HeadTooLarge => (431, "Request header fields too large"),
        Refusal::Malformed => (400, "Malformed HTTP request"),
        Refusal::MissingHost => (400, "Missing Host header"),
        Refusal::SeveralHosts => (400, "More than one Host header"),
        Refusal::BodyTooLarge => (413, "Request body too large"),
    };
    crate::http::respond::error(&confab_core::ApiError::bad_request(msg).with_status(status))
}

/// The next request's head; `None` when the connection should close instead: the client
/// closed it or failed, the head took too long, or the server is shutting down.
async fn next_head(
    stream: &TcpStream,
    pending: &mut Vec<u8>,
    header_timeout: Duration,
    closing: &mut watch::Receiver<bool>,
) -> Option<Head> {
    tokio::select! {
        read = tokio::time::timeout(header_timeout, head::read(stream, pending)) => match read {
            Ok(Ok(head)) => head,
            Ok(Err(e)) => {
                tracing::debug!("connection ended: {e}");
                None
            }
            Err(_elapsed) => None,
        },
        _ = closing.changed() => None,
    }
}
