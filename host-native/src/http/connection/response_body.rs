//! A response body that tells the connection when hyper has written the response head.
//!
//! hyper serves the request with keep-alive on, so the head it writes does not say
//! `connection: close`; but the connection must come back to our loop after this one request
//! (see [`super::by_hyper`]). So hyper's keep-alive is switched off once the head is out and
//! before the body ends: hyper then finishes the response and stops, without reading the next
//! request itself.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};

use axum::body::{Body as AxumBody, Bytes};
use hyper::body::{Body, Frame, SizeHint};

/// Shared between the body, which hyper polls once it has written the head, and the driver of
/// the hyper connection, which then ends keep-alive.
#[derive(Default)]
pub struct HeadSignal {
    written: AtomicBool,
    released: AtomicBool,
}

impl HeadSignal {
    /// Whether hyper has written the head and is waiting for the body to be released.
    pub fn head_written(&self) -> bool {
        self.written.load(Ordering::Acquire) && !self.released.load(Ordering::Acquire)
    }

    /// Lets the body flow; the driver has ended keep-alive and polls the connection again.
    pub fn release(&self) {
        self.released.store(true, Ordering::Release);
    }
}

/// The handler's body, held back at its first poll until the driver has ended keep-alive.
/// Holding it back matters: a body that ended in the same poll would let hyper go on, in that
/// same poll, to a pipelined request already in its buffer.
pub struct SignallingBody {
    inner: AxumBody,
    signal: Arc<HeadSignal>,
}

impl SignallingBody {
    pub fn wrap(inner: AxumBody, signal: Arc<HeadSignal>) -> AxumBody {
        AxumBody::new(Self { inner, signal })
    }
}

impl Body for SignallingBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        if !self.signal.released.load(Ordering::Acquire) {
            // No waker is needed: the driver polls the connection again as soon as this poll
            // returns (`by_hyper::drive`).
            self.signal.written.store(true, Ordering::Release);
            return Poll::Pending;
        }
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    /// Never at its end before it is polled, so hyper always polls it once the head is out.
    fn is_end_stream(&self) -> bool {
        false
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

impl Drop for SignallingBody {
    /// hyper drops a body it may not send (a response to `HEAD`, a 204 or 304, an empty body)
    /// without polling it, after writing the head.
    fn drop(&mut self) {
        self.signal.written.store(true, Ordering::Release);
    }
}
