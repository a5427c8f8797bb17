//! Every request other than a long-poll is served by hyper, one request at a time: hyper reads
//! it again from the bytes we already took off the socket, answers, and gives the connection
//! back with whatever it read beyond that request.
//!
//! hyper runs with keep-alive on, so that its answer does not say `connection: close` (it
//! forces that header onto every response of a connection without keep-alive); keep-alive is
//! switched off as soon as the head is written ([`super::response_body`]), so that hyper stops
//! after this one request and the connection returns to our loop, open.

use std::future::poll_fn;
use std::io::Cursor;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use axum::http::{HeaderValue, Request, StatusCode, header};
use axum::response::Response;
use confab_core::{ApiError, ErrorCode};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use tokio::io::AsyncReadExt as _;
use tokio::net::TcpStream;
use tower::ServiceExt as _;

use super::request_body::WatchedBody;
use super::response_body::{HeadSignal, SignallingBody};
use crate::http::respond;

/// Serves the one request at the front of `pending` (and the socket). Returns whether the
/// connection can carry another request; if so, `pending` holds what was read beyond this one.
pub async fn serve_one(
    stream: &mut TcpStream,
    pending: &mut Vec<u8>,
    app: Router,
    peer: Option<ConnectInfo<SocketAddr>>,
    close_after: bool,
    body_timeout: Duration,
    closing: impl Fn() -> bool + Send + Sync + 'static,
) -> bool {
    let keep_open = Arc::new(AtomicBool::new(true));
    let head = Arc::new(HeadSignal::default());
    let closing = Arc::new(closing);
    let service = {
        let (keep_open, head) = (keep_open.clone(), head.clone());
        hyper::service::service_fn(move |request: Request<Incoming>| {
            let (app, keep_open, head, closing) =
                (app.clone(), keep_open.clone(), head.clone(), closing.clone());
            Box::pin(async move {
                let (mut request, body) = WatchedBody::wrap(request, body_timeout);
                if let Some(peer) = peer {
                    request.extensions_mut().insert(peer);
                }
                let mut response = app.oneshot(request).await?;
                if body.timed_out() {
                    response = body_timed_out();
                }
                // A body the handler left unread is still on the wire, ahead of any next
                // request: the connection cannot be reused.
                if !body.was_read() || closing() {
                    keep_open.store(body.was_read(), Ordering::Release);
                    response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
                }
                Ok::<_, std::convert::Infallible>(response.map(|inner| SignallingBody::wrap(inner, head)))
            })
        })
    };

    let (reader, writer) = stream.split();
    let io = TokioIo::new(tokio::io::join(Cursor::new(std::mem::take(pending)).chain(reader), writer));
    let mut connection = hyper::server::conn::http1::Builder::new().serve_connection(io, service);
    let served = poll_fn(|cx| {
        loop {
            let polled = connection.poll_without_shutdown(cx);
            if polled.is_pending() && head.head_written() {
                // The head is out and the body waits for this: from here hyper closes after
                // the response instead of reading another request.
                Pin::new(&mut connection).graceful_shutdown();
                head.release();
                continue;
            }
            return polled;
        }
    })
    .await;
    match served {
        Ok(()) => {
            let parts = connection.into_parts();
            let (chain, _writer) = parts.io.into_inner().into_inner();
            let (unread, _reader) = chain.into_inner();
            // hyper's read-ahead came before whatever it never took from our bytes.
            let position = usize::try_from(unread.position()).unwrap_or(usize::MAX);
            let rest = unread.get_ref().get(position..).unwrap_or_default();
            *pending = [parts.read_buf.as_ref(), rest].concat();
            !close_after && keep_open.load(Ordering::Acquire)
        }
        Err(e) => {
            tracing::debug!("connection ended: {e}");
            false
        }
    }
}

/// The answer to a request whose client stopped sending its body, whatever the handler made of
/// the broken body. Zulip, behind nginx, never sees such a request: nginx answers 408 itself.
fn body_timed_out() -> Response {
    let error = ApiError::new(ErrorCode::BadRequest, "Request body timed out")
        .with_status(StatusCode::REQUEST_TIMEOUT.as_u16());
    respond::error(&error)
}
