//! Answering a long-poll without hyper: while the request waits for an event, the connection
//! holds its socket, the handler's future and nothing else.

use std::io::Write as _;
use std::time::SystemTime;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::http::{Request, header};
use axum::response::Response;
use tokio::io::AsyncWriteExt as _;
use tokio::net::TcpStream;
use tower::ServiceExt as _;

use super::head::MAX_HEAD_BYTES;

/// Runs the request through `app` and writes its answer. Returns whether the connection can
/// carry another request. If the client goes away first, the handler is dropped unanswered,
/// which tells the event queue the poll is over.
pub async fn answer(
    stream: &mut TcpStream,
    pending: &mut Vec<u8>,
    app: Router,
    request: Request<Body>,
    close_after: bool,
    closing: impl Fn() -> bool,
) -> bool {
    let handling = app.oneshot(request);
    let response = tokio::select! {
        response = handling => match response {
            Ok(response) => response,
            Err(never) => match never {},
        },
        () = client_gone(stream, pending) => return false,
    };
    let close = close_after || closing();
    let Ok(bytes) = encode(response, close).await else { return false };
    stream.write_all(&bytes).await.is_ok() && !close
}

/// Completes when the client closes its side of the connection. Anything it sends meanwhile
/// is a pipelined request, kept in `pending` for after this one.
async fn client_gone(stream: &TcpStream, pending: &mut Vec<u8>) {
    loop {
        if pending.len() >= MAX_HEAD_BYTES {
            // Enough read ahead; the socket's own buffer holds the rest until we get there.
            std::future::pending::<()>().await;
        }
        if stream.readable().await.is_err() {
            return;
        }
        pending.reserve(1024);
        match stream.try_read_buf(pending) {
            Ok(0) => return,
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(_) => return,
        }
    }
}

/// The response as HTTP/1.1 bytes, with the framing headers hyper would add.
pub(super) async fn encode(response: Response, close: bool) -> Result<Vec<u8>, axum::Error> {
    let (parts, body) = response.into_parts();
    let body: Bytes = axum::body::to_bytes(body, usize::MAX).await?;
    let mut out = Vec::with_capacity(256 + body.len());
    let status = parts.status;
    // Writing to a Vec cannot fail.
    let _ = write!(out, "HTTP/1.1 {} {}\r\n", status.as_str(), status.canonical_reason().unwrap_or(""));
    for (name, value) in &parts.headers {
        if [header::CONTENT_LENGTH, header::TRANSFER_ENCODING, header::CONNECTION, header::DATE]
            .contains(name)
        {
            continue;
        }
        out.extend_from_slice(name.as_str().as_bytes());
        out.extend_from_slice(b": ");
        out.extend_from_slice(value.as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    let _ = write!(out, "content-length: {}\r\n", body.len());
    let _ = write!(out, "date: {}\r\n", httpdate::fmt_http_date(SystemTime::now()));
    if close {
        out.extend_from_slice(b"connection: close\r\n");
    }
    out.extend_from_slice(b"\r\n");
    out.extend_from_slice(&body);
    Ok(out)
}
