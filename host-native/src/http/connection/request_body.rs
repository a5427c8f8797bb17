//! A request body as hyper hands it over, watched on its way to the handler: whether it was
//! read to the end (if not, it is still on the wire ahead of any next request), and whether the
//! client went quiet in the middle of it.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Bytes;
use axum::http::Request;
use hyper::body::{Body, Frame, Incoming, SizeHint};
use tokio::time::{Instant, Sleep};

/// What the connection learns about a request's body while the handler reads it.
#[derive(Default)]
pub struct BodyWatch {
    read: AtomicBool,
    timed_out: AtomicBool,
}

impl BodyWatch {
    /// Whether the handler read the body to its end.
    pub fn was_read(&self) -> bool {
        self.read.load(Ordering::Acquire)
    }

    /// Whether the client let more than the body timeout pass between two pieces of its body.
    pub fn timed_out(&self) -> bool {
        self.timed_out.load(Ordering::Acquire)
    }
}

/// Why a body ended early: the client stopped sending it.
#[derive(Debug)]
pub struct BodyTimedOut;

impl std::fmt::Display for BodyTimedOut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the client stopped sending the request body")
    }
}

impl std::error::Error for BodyTimedOut {}

/// A request body that reports to a [`BodyWatch`] and fails once the client leaves more than
/// `timeout` between two reads, as nginx's `client_body_timeout` does: a client trickling its
/// body or stalling in the middle cannot hold a handler (and its connection) for ever.
pub struct WatchedBody {
    inner: Incoming,
    watch: Arc<BodyWatch>,
    timeout: Duration,
    /// Armed at the first read and pushed back by every piece that arrives.
    deadline: Option<Pin<Box<Sleep>>>,
}

impl WatchedBody {
    pub fn wrap(
        request: Request<Incoming>,
        timeout: Duration,
    ) -> (Request<axum::body::Body>, Arc<BodyWatch>) {
        let watch = Arc::new(BodyWatch::default());
        watch.read.store(request.body().is_end_stream(), Ordering::Release);
        let watched = watch.clone();
        let request = request
            .map(|inner| axum::body::Body::new(Self { inner, watch: watched, timeout, deadline: None }));
        (request, watch)
    }
}

impl Body for WatchedBody {
    type Data = Bytes;
    type Error = Box<dyn std::error::Error + Send + Sync>;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        if self.watch.timed_out() {
            return Poll::Ready(Some(Err(Box::new(BodyTimedOut))));
        }
        let frame = Pin::new(&mut self.inner).poll_frame(cx);
        if matches!(frame, Poll::Ready(None)) || self.inner.is_end_stream() {
            self.watch.read.store(true, Ordering::Release);
        }
        let timeout = self.timeout;
        let deadline = self.deadline.get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        match frame {
            Poll::Pending => {
                if deadline.as_mut().poll(cx).is_ready() {
                    self.watch.timed_out.store(true, Ordering::Release);
                    return Poll::Ready(Some(Err(Box::new(BodyTimedOut))));
                }
                Poll::Pending
            }
            Poll::Ready(frame) => {
                deadline.as_mut().reset(Instant::now() + timeout);
                Poll::Ready(frame.map(|frame| frame.map_err(Into::into)))
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
