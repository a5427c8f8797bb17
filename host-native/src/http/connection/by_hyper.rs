//! Every request other than a long-poll is served by hyper, one request at a time: hyper reads
//! it again from the bytes we already took off the socket, answers, and gives the connection
//! back with whatever it read beyond that request.

use std::io::Cursor;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};

use axum::Router;
use axum::body::Bytes;
use axum::http::{HeaderValue, Request, header};
use hyper::body::{Body, Frame, Incoming, SizeHint};
use hyper_util::rt::TokioIo;
use tokio::io::AsyncReadExt as _;
use tokio::net::TcpStream;
use tower::ServiceExt as _;

/// Serves the one request at the front of `pending` (and the socket). Returns whether the
/// connection can carry another request; if so, `pending` holds what was read beyond this one.
pub async fn serve_one(
    stream: &mut TcpStream,
    pending: &mut Vec<u8>,
    app: Router,
    close_after: bool,
    closing: impl Fn() -> bool + Send + Sync + 'static,
) -> bool {
    let body_unread = Arc::new(AtomicBool::new(false));
    let closing = Arc::new(closing);
    let service = {
        let body_unread = body_unread.clone();
        hyper::service::service_fn(move |request: Request<Incoming>| {
            let (app, body_unread, closing) = (app.clone(), body_unread.clone(), closing.clone());
            Box::pin(async move {
                let (request, read) = WatchedBody::wrap(request);
                let mut response = app.oneshot(request).await?;
                // A body the handler left unread is still on the wire, ahead of any next
                // request: the connection cannot be reused.
                if !read.load(Ordering::Acquire) || closing() {
                    body_unread.store(!read.load(Ordering::Acquire), Ordering::Release);
                    response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
                }
                Ok::<_, std::convert::Infallible>(response)
            })
        })
    };

    let (reader, writer) = stream.split();
    let io = TokioIo::new(tokio::io::join(Cursor::new(std::mem::take(pending)).chain(reader), writer));
    let served = hyper::server::conn::http1::Builder::new()
        .keep_alive(false)
        .serve_connection(io, service)
        .without_shutdown()
        .await;
    match served {
        Ok(parts) => {
            let (chain, _writer) = parts.io.into_inner().into_inner();
            let (unread, _reader) = chain.into_inner();
            // hyper's read-ahead came before whatever it never took from our bytes.
            let position = usize::try_from(unread.position()).unwrap_or(usize::MAX);
            let rest = unread.get_ref().get(position..).unwrap_or_default();
            *pending = [parts.read_buf.as_ref(), rest].concat();
            !close_after && !body_unread.load(Ordering::Acquire)
        }
        Err(e) => {
            tracing::debug!("connection ended: {e}");
            false
        }
    }
}

/// A request body that notes when it has been read to the end.
struct WatchedBody {
    inner: Incoming,
    read: Arc<AtomicBool>,
}

impl WatchedBody {
    fn wrap(request: Request<Incoming>) -> (Request<axum::body::Body>, Arc<AtomicBool>) {
        let read = Arc::new(AtomicBool::new(request.body().is_end_stream()));
        let watched = read.clone();
        let request = request.map(|inner| axum::body::Body::new(Self { inner, read: watched }));
        (request, read)
    }
}

impl Body for WatchedBody {
    type Data = Bytes;
    type Error = hyper::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, hyper::Error>>> {
        let frame = Pin::new(&mut self.inner).poll_frame(cx);
        if matches!(frame, Poll::Ready(None)) || self.inner.is_end_stream() {
            self.read.store(true, Ordering::Release);
        }
        frame
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
