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
use tokio::io::AsyncWriteExt as _;
use tokio::net::TcpStream;
use tokio::sync::watch;

use head::Head;

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
    // Handlers that care who asked (`/metrics`) read it as axum's `ConnectInfo`.
    let peer = stream.peer_addr().ok().map(axum::extract::ConnectInfo);
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
            Head::TooLarge => {
                let refusal = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\nconnection: close\r\n\r\n";
                let _ = stream.write_all(refusal).await;
                false
            }
        };
        if !keep_open {
            return;
        }
    }
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
