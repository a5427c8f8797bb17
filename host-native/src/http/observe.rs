//! What an operator's tools ask: `GET /health` (liveness), `GET /ready` (readiness) and
//! `GET /metrics` (Prometheus), and the layer that counts every request for the metrics.
//!
//! `/health` and `/ready` answer anyone, as load balancers and orchestrators ask without
//! credentials, and say nothing but whether the server works. `/metrics` tells more (traffic,
//! endpoints, queue sizes), so it answers only peers in [`MetricsAccess`]: loopback unless the
//! operator names ranges, and never a request that came through a proxy.

use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::{ConnectInfo, MatchedPath, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use confab_core::{ApiError, ErrorCode};
use ipnet::IpNet;
use serde_json::Map;
use tower::{Layer, Service};

use super::{AppState, respond};
use crate::metrics::{self, Metrics, RequestLabels};

/// How long `/ready` waits for the writer to run a command: a batch takes milliseconds, so a
/// writer this late is stuck (a disk that no longer answers).
const WRITER_PING_TIMEOUT: Duration = Duration::from_secs(5);

/// The start of the files `/ready` writes, syncs and removes in the data directory; each probe
/// has its own, so that probes at once do not remove each other's.
const PROBE_FILE: &str = ".ready-probe-";

/// Numbers the probes' files.
static PROBES: AtomicU64 = AtomicU64::new(0);

/// Headers a reverse proxy adds. A request bearing one came through a proxy, so its peer
/// address (the proxy's, often loopback) says nothing about who asked.
const PROXY_HEADERS: [&str; 3] = ["forwarded", "x-forwarded-for", "x-real-ip"];

pub fn router() -> Router<AppState> {
    Router::new().route("/health", get(health)).route("/ready", get(ready)).route("/metrics", get(scrape))
}

/// Who may read `/metrics`: peers in these ranges (`confab serve --metrics-allow`).
#[derive(Clone, Debug)]
pub struct MetricsAccess {
    allowed: Vec<IpNet>,
}

impl Default for MetricsAccess {
    /// Loopback only: a scraper on the same machine, or one the operator lets in.
    fn default() -> Self {
        let loopback = ["127.0.0.0/8", "::1/128"].map(|range| range.parse().expect("a valid range"));
        MetricsAccess { allowed: loopback.to_vec() }
    }
}

impl MetricsAccess {
    /// Peers in `ranges` (which replace the loopback default when not empty).
    pub fn new(ranges: Vec<IpNet>) -> MetricsAccess {
        if ranges.is_empty() { MetricsAccess::default() } else { MetricsAccess { allowed: ranges } }
    }

    fn permits(&self, peer: IpAddr, headers: &HeaderMap) -> bool {
        // A dual-stack listener sees IPv4 clients as ::ffff:a.b.c.d.
        let peer = peer.to_canonical();
        PROXY_HEADERS.iter().all(|name| !headers.contains_key(*name))
            && self.allowed.iter().any(|range| range.contains(&peer))
    }
}

/// Liveness: the process accepts connections and answers requests.
async fn health() -> Response {
    respond::success(Map::new())
}

/// Readiness: the data directory takes writes and the writer runs commands. 503 otherwise,
/// with what failed.
async fn ready(State(state): State<AppState>) -> Response {
    let files = state.files.clone();
    let probe = tokio::task::spawn_blocking(move || probe_writable(files.data_dir()))
        .await
        .map_err(|e| e.to_string())
        .and_then(|written| written.map_err(|e| e.to_string()));
    if let Err(e) = probe {
        return not_ready(format!("The data directory does not take writes: {e}"));
    }
    match tokio::time::timeout(WRITER_PING_TIMEOUT, state.writer.ping()).await {
        Ok(Ok(())) => respond::success(Map::new()),
        Ok(Err(e)) => not_ready(format!("The writer is not running: {}", e.msg)),
        Err(_) => not_ready(format!("The writer has not answered within {WRITER_PING_TIMEOUT:?}")),
    }
}

/// Writes, syncs and removes a small file: fails on a full, read-only or vanished disk.
fn probe_writable(dir: &std::path::Path) -> std::io::Result<()> {
    let path = dir.join(format!("{PROBE_FILE}{}", PROBES.fetch_add(1, Ordering::Relaxed)));
    let written = std::fs::write(&path, b"ready\n")
        .and_then(|()| std::fs::File::open(&path))
        .and_then(|file| file.sync_all());
    let removed = std::fs::remove_file(&path);
    written.and(removed)
}

fn not_ready(msg: String) -> Response {
    tracing::warn!("not ready: {msg}");
    respond::error(&ApiError::new(ErrorCode::ServerNotReady, msg).with_status(503))
}

/// The Prometheus exposition, to allowed peers.
async fn scrape(State(state): State<AppState>, request: Request) -> Response {
    let peer = request.extensions().get::<ConnectInfo<SocketAddr>>().map(|info| info.0.ip());
    if !peer.is_some_and(|peer| state.metrics_access.permits(peer, request.headers())) {
        let refusal = ApiError::bad_request("Metrics are not available to this client").with_status(403);
        return respond::error(&refusal);
    }
    let (queues, waiting) = state.events.counts();
    let text = state.metrics.render(queues, waiting);
    ([(header::CONTENT_TYPE, HeaderValue::from_static(metrics::CONTENT_TYPE))], text).into_response()
}

/// Lets [`CountLayer`], outside the router, label requests by route template: the template is
/// known only once routing has matched, inside the router, so [`NoteRoute`] passes it out on
/// the response.
pub fn note_routes(router: Router<AppState>) -> Router<AppState> {
    router.route_layer(NoteRouteLayer)
}

#[derive(Clone)]
struct NoteRouteLayer;

impl<S> Layer<S> for NoteRouteLayer {
    type Service = NoteRoute<S>;
    fn layer(&self, inner: S) -> NoteRoute<S> {
        NoteRoute { inner }
    }
}

/// Copies the matched route's template onto the response.
#[derive(Clone)]
struct NoteRoute<S> {
    inner: S,
}

impl<S, B> Service<Request<B>> for NoteRoute<S>
where
    S: Service<Request<B>, Response = Response>,
{
    type Response = Response;
    type Error = S::Error;
    type Future = Noted<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let route = request.extensions().get::<MatchedPath>().cloned();
        Noted { inner: self.inner.call(request), route }
    }
}

pin_project_lite::pin_project! {
    struct Noted<F> {
        #[pin]
        inner: F,
        route: Option<MatchedPath>,
    }
}

impl<F, E> Future for Noted<F>
where
    F: Future<Output = Result<Response, E>>,
{
    type Output = Result<Response, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let mut response = std::task::ready!(this.inner.poll(cx))?;
        if let Some(route) = this.route.take() {
            response.extensions_mut().insert(route);
        }
        Poll::Ready(Ok(response))
    }
}

/// Counts every request the router answers, by method, route template and status, and times
/// it.
///
/// This layer and [`NoteRouteLayer`] are plain tower services whose futures hold a few words
/// beside the inner one: a long-poll's future lives as long as it waits, and axum's `from_fn`
/// middleware (which boxes, and keeps the request's parts and a `Next`) cost 3.5 KB per
/// waiting poll.
#[derive(Clone)]
pub struct CountLayer {
    metrics: Arc<Metrics>,
}

impl CountLayer {
    pub fn new(metrics: Arc<Metrics>) -> CountLayer {
        CountLayer { metrics }
    }
}

impl<S> Layer<S> for CountLayer {
    type Service = Count<S>;
    fn layer(&self, inner: S) -> Count<S> {
        Count { inner, metrics: self.metrics.clone() }
    }
}

/// Times and counts each request once its answer's head is ready.
#[derive(Clone)]
pub struct Count<S> {
    inner: S,
    metrics: Arc<Metrics>,
}

impl<S, B> Service<Request<B>> for Count<S>
where
    S: Service<Request<B>, Response = Response>,
{
    type Response = Response;
    type Error = S::Error;
    type Future = Counted<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let method = method_label(request.method());
        Counted {
            inner: self.inner.call(request),
            metrics: self.metrics.clone(),
            started: Instant::now(),
            method,
        }
    }
}

pin_project_lite::pin_project! {
    pub struct Counted<F> {
        #[pin]
        inner: F,
        metrics: Arc<Metrics>,
        started: Instant,
        method: &'static str,
    }
}

impl<F, E> Future for Counted<F>
where
    F: Future<Output = Result<Response, E>>,
{
    type Output = Result<Response, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let response = std::task::ready!(this.inner.poll(cx))?;
        let endpoint = match response.extensions().get::<MatchedPath>() {
            // A nested router's fallback is matched under a wildcard of axum's own making.
            Some(route) if !route.as_str().contains("__private__") => route.as_str().to_owned(),
            _ => "unmatched".to_owned(),
        };
        let labels = RequestLabels { method: this.method, endpoint, status: response.status().as_u16() };
        this.metrics.request(labels, this.started.elapsed());
        Poll::Ready(Ok(response))
    }
}

/// The method, or `other` for one HTTP does not define: clients choose methods, and each new
/// label value would be a new series.
fn method_label(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::PATCH => "PATCH",
        Method::DELETE => "DELETE",
        Method::HEAD => "HEAD",
        Method::OPTIONS => "OPTIONS",
        _ => "other",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metrics_are_for_loopback_unless_ranges_are_named_and_never_through_a_proxy() {
        let none = HeaderMap::new();
        let local: IpAddr = "127.0.0.1".parse().expect("an address");
        let mapped: IpAddr = "::ffff:127.0.0.1".parse().expect("an address");
        let remote: IpAddr = "192.0.2.7".parse().expect("an address");
        let default = MetricsAccess::default();
        assert!(default.permits(local, &none));
        assert!(default.permits(mapped, &none));
        assert!(default.permits("::1".parse().expect("an address"), &none));
        assert!(!default.permits(remote, &none));
        let mut proxied = HeaderMap::new();
        proxied.insert("x-forwarded-for", HeaderValue::from_static("192.0.2.7"));
        assert!(!default.permits(local, &proxied));
        let named = MetricsAccess::new(vec!["192.0.2.0/24".parse().expect("a range")]);
        assert!(named.permits(remote, &none));
        assert!(!named.permits(local, &none), "named ranges replace the default");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn ready_fails_once_the_writer_has_stopped_and_health_does_not() {
        use tower::ServiceExt as _;

        let dir = tempfile::tempdir().expect("a temporary directory");
        let store = Arc::new(crate::store::Store::open(dir.path()).expect("the store"));
        let state = AppState::new(
            store,
            confab_core::subdomains::Site::new("http", "127.0.0.1:9991").expect("a site"),
            crate::events::EventHub::load(dir.path().join("queues.json"), 0, 600, None),
            confab_core::outgoing_policy::OutgoingPolicy::new(Vec::new()),
            crate::uploads::FileStore::new(dir.path()),
            super::super::LargeAnswers::one_per_core().expect("threads"),
            crate::mail::Mailer::start(None).expect("no mail server"),
        );
        let app = super::super::app(state.clone());
        let status = |path: &'static str| {
            let app = app.clone();
            async move {
                let request =
                    Request::builder().uri(path).body(axum::body::Body::empty()).expect("a request");
                let response = app.oneshot(request).await.expect("an answer");
                let status = response.status().as_u16();
                let body = axum::body::to_bytes(response.into_body(), usize::MAX).await.expect("a body");
                let body: serde_json::Value = serde_json::from_slice(&body).expect("JSON");
                (status, body["code"].as_str().map(str::to_owned))
            }
        };
        assert_eq!(status("/ready").await, (200, None));
        let writer = state.writer.clone();
        let stopped = tokio::task::spawn_blocking(move || writer.stop(Duration::from_secs(10))).await;
        assert!(matches!(stopped, Ok(true)));
        assert_eq!(status("/ready").await, (503, Some("SERVER_NOT_READY".to_owned())));
        assert_eq!(status("/health").await.0, 200);
        let leftovers: Vec<_> = std::fs::read_dir(dir.path())
            .expect("the directory")
            .filter_map(Result::ok)
            .filter(|entry| entry.file_name().to_string_lossy().starts_with(PROBE_FILE))
            .collect();
        assert!(leftovers.is_empty(), "probes leave nothing behind");
    }

    #[test]
    fn unknown_methods_share_one_label() {
        assert_eq!(method_label(&Method::PATCH), "PATCH");
        assert_eq!(method_label(&Method::from_bytes(b"BREW").expect("a method")), "other");
    }
}
