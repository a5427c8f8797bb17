//! Rate limits per user and per client address, as Zulip applies them
//! (`zerver/lib/rate_limiter.py`, `RATE_LIMITING_RULES`), with an allow-list of addresses to
//! which none applies. Core counts ([`confab_core::rate_limit`]); this module decides whose
//! count a request is, and writes Zulip's `X-RateLimit-*` headers on the answer.
//!
//! - A request with credentials counts against its user once they are checked (`api_by_user`).
//! - A request without credentials counts against its address (`api_by_ip`).
//! - Password attempts count against the username (`authenticate_by_username`).
//! - Failed authentications, wrong API keys and wrong passwords alike, count against the
//!   address; an address over that limit has its credentials refused unchecked, so that neither
//!   a password tried across many usernames nor guessed API keys can go on.
//!
//! IPv6 clients count per /64, the network one subscriber is given: counting per address would
//! give each of them 2^64 allowances.

use std::future::Future;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use axum::extract::{ConnectInfo, Request};
use axum::http::{HeaderMap, HeaderValue, Method, header};
use axum::response::Response;
use confab_core::ids::UserId;
use confab_core::rate_limit::{Limited, Limiter, Rules, Standing};
use confab_core::{ApiError, ApiResult};
use ipnet::IpNet;
use tower::{Layer, Service};

use super::respond;

/// The limits, as configured (`confab serve --rate-limit-*`).
#[derive(Clone, Debug)]
pub struct RateLimitConfig {
    /// Requests per user.
    pub per_user: Rules,
    /// Requests without credentials per client address.
    pub per_ip: Rules,
    /// Password attempts per username.
    pub logins_per_username: Rules,
    /// Failed authentications per client address.
    pub failed_auth_per_ip: Rules,
    /// Emails asked for without credentials (password resets) per client address.
    pub emails_per_ip: Rules,
    /// Password-reset emails per email address.
    pub password_resets_per_email: Rules,
    /// Client addresses no limit applies to.
    pub exempt: Vec<IpNet>,
    /// Proxies whose `X-Real-IP` header names the client (nginx's `$remote_addr`).
    pub trusted_proxies: Vec<IpNet>,
}

impl Default for RateLimitConfig {
    /// Zulip's defaults; no address exempt, no proxy trusted.
    fn default() -> Self {
        RateLimitConfig {
            per_user: Rules::api_by_user(),
            per_ip: Rules::api_by_ip(),
            logins_per_username: Rules::authenticate_by_username(),
            failed_auth_per_ip: Rules::failed_authentications_by_ip(),
            emails_per_ip: Rules::sends_email_by_ip(),
            password_resets_per_email: Rules::password_reset_form_by_email(),
            exempt: Vec::new(),
            trusted_proxies: Vec::new(),
        }
    }
}

/// The counts, shared by every request.
pub struct RateLimits {
    exempt: Vec<IpNet>,
    trusted_proxies: Vec<IpNet>,
    users: Mutex<Limiter<UserId>>,
    anonymous: Mutex<Limiter<ClientKey>>,
    failures: Mutex<Limiter<ClientKey>>,
    logins: Mutex<Limiter<String>>,
    emails: Mutex<Limiter<ClientKey>>,
    password_resets: Mutex<Limiter<String>>,
}

impl RateLimits {
    pub fn new(config: RateLimitConfig) -> Arc<RateLimits> {
        Arc::new(RateLimits {
            exempt: config.exempt,
            trusted_proxies: config.trusted_proxies,
            users: Mutex::new(Limiter::new(config.per_user)),
            anonymous: Mutex::new(Limiter::new(config.per_ip)),
            failures: Mutex::new(Limiter::new(config.failed_auth_per_ip)),
            logins: Mutex::new(Limiter::new(config.logins_per_username)),
            emails: Mutex::new(Limiter::new(config.emails_per_ip)),
            password_resets: Mutex::new(Limiter::new(config.password_resets_per_email)),
        })
    }

    /// The client a request comes from: the peer, or the address a trusted proxy names.
    fn client(&self, peer: Option<IpAddr>, headers: &HeaderMap) -> Option<IpAddr> {
        let peer = peer?;
        if self.trusted_proxies.iter().any(|proxy| proxy.contains(&peer)) {
            let named = headers.get("x-real-ip").and_then(|v| v.to_str().ok()?.trim().parse().ok());
            return Some(named.unwrap_or(peer));
        }
        Some(peer)
    }

    fn is_exempt(&self, client: IpAddr) -> bool {
        // A dual-stack listener sees IPv4 clients as ::ffff:a.b.c.d.
        let canonical = client.to_canonical();
        self.exempt.iter().any(|range| range.contains(&client) || range.contains(&canonical))
    }
}

/// The address a client's limits count under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClientKey(IpAddr);

impl ClientKey {
    pub fn of(ip: IpAddr) -> ClientKey {
        match ip.to_canonical() {
            IpAddr::V6(v6) => {
                let network = u128::from(v6) & !(u128::MAX >> 64);
                ClientKey(IpAddr::V6(Ipv6Addr::from(network)))
            }
            v4 => ClientKey(v4),
        }
    }
}

/// One request's limits: whose counts it goes to, and where it stood, for its answer's headers.
pub struct RequestLimits {
    /// `None`: no limit applies (an exempt address, or a request from no known client).
    counted: Option<(Arc<RateLimits>, ClientKey)>,
    standing: Mutex<Option<Standing>>,
}

impl RequestLimits {
    /// Limits for a request no limit applies to.
    pub fn unlimited() -> Arc<RequestLimits> {
        Arc::new(RequestLimits { counted: None, standing: Mutex::new(None) })
    }

    /// Counts a request without credentials against its address.
    pub fn anonymous_request(&self) -> ApiResult<()> {
        let Some((limits, client)) = &self.counted else { return Ok(()) };
        self.count(&limits.anonymous, |l| l.attempt(client, now_ms()))
    }

    /// Refuses, unchecked, the credentials of an address that failed too often.
    pub fn before_credentials(&self) -> ApiResult<()> {
        let Some((limits, client)) = &self.counted else { return Ok(()) };
        let Ok(failures) = limits.failures.lock() else { return Ok(()) };
        failures.check(client, now_ms()).map_err(|limited| self.refuse(limited))
    }

    /// Counts credentials that did not open an account against the address.
    pub fn credentials_failed(&self) {
        let Some((limits, client)) = &self.counted else { return };
        if let Ok(mut failures) = limits.failures.lock() {
            // Only counted: the request is refused for its credentials already.
            let _ = failures.attempt(client, now_ms());
        }
    }

    /// Counts a form that mails someone, asked for without credentials, against the address
    /// (Zulip's `sends_email_by_ip`), so that one client cannot mail the world from us.
    pub fn email_asked(&self) -> ApiResult<()> {
        let Some((limits, client)) = &self.counted else { return Ok(()) };
        self.count(&limits.emails, |l| l.attempt(client, now_ms()))
    }

    /// Whether a password-reset email may go to `email` now (Zulip's
    /// `password_reset_form_by_email`). Past the limit the email is not sent, silently: the
    /// answer is the same whether or not an account has the address, and stays so.
    pub fn password_reset_may_mail(&self, email: &str) -> bool {
        let Some((limits, _)) = &self.counted else { return true };
        let Ok(mut resets) = limits.password_resets.lock() else { return true };
        resets.is_off() || resets.attempt(&email.trim().to_lowercase(), now_ms()).is_ok()
    }

    /// Counts an authenticated request against its user.
    pub fn authenticated(&self, user: UserId) -> ApiResult<()> {
        let Some((limits, _)) = &self.counted else { return Ok(()) };
        self.count(&limits.users, |l| l.attempt(&user, now_ms()))
    }

    /// Runs a password login with the per-username counts (`key` is the login's, from
    /// `fetch_api_key::login_limit_key`), and notes where the username stands afterwards.
    pub fn login<R>(
        &self,
        key: &str,
        now_ms: i64,
        f: impl FnOnce(&mut Limiter<String>) -> R,
    ) -> ApiResult<R> {
        let Some((limits, _)) = &self.counted else {
            return Ok(f(&mut Limiter::new(Rules::off())));
        };
        let mut logins = limits.logins.lock().map_err(|_| ApiError::internal("login limits poisoned"))?;
        let result = f(&mut logins);
        if !logins.is_off() {
            self.note(logins.standing(&key.to_owned(), now_ms));
        }
        Ok(result)
    }

    fn count<K: std::hash::Hash + Eq + Clone>(
        &self,
        limiter: &Mutex<Limiter<K>>,
        attempt: impl FnOnce(&mut Limiter<K>) -> Result<Standing, Limited>,
    ) -> ApiResult<()> {
        let Ok(mut limiter) = limiter.lock() else { return Ok(()) };
        if limiter.is_off() {
            return Ok(());
        }
        match attempt(&mut limiter) {
            Ok(standing) => {
                self.note(standing);
                Ok(())
            }
            Err(limited) => Err(self.refuse(limited)),
        }
    }

    fn refuse(&self, limited: Limited) -> ApiError {
        self.note(limited.standing);
        ApiError::rate_limited(limited.retry_after_secs)
    }

    fn note(&self, standing: Standing) {
        if let Ok(mut noted) = self.standing.lock() {
            *noted = Some(noted.map_or(standing, |before| before.combine(standing)));
        }
    }

    /// Zulip's `X-RateLimit-*` headers, when a limit applied to the request.
    fn write_headers(&self, headers: &mut HeaderMap) {
        let Some(standing) = self.standing.lock().ok().and_then(|s| *s) else { return };
        let reset = now_ms() / 1000 + standing.reset_secs.ceil() as i64;
        headers.insert("x-ratelimit-limit", HeaderValue::from(standing.limit));
        headers.insert("x-ratelimit-remaining", HeaderValue::from(standing.remaining));
        headers.insert("x-ratelimit-reset", HeaderValue::from(reset));
    }
}

/// The layer that gives each request its [`RequestLimits`] (read by `ApiRequest`), counts API
/// calls and form posts without credentials against their address, and writes the
/// `X-RateLimit-*` headers on the way out. A plain tower layer rather than axum's `from_fn`: a
/// waiting long-poll holds its future, and `from_fn`'s boxed one costs kilobytes per poll.
#[derive(Clone)]
pub struct RateLimitLayer {
    limits: Arc<RateLimits>,
}

impl RateLimitLayer {
    pub fn new(limits: Arc<RateLimits>) -> RateLimitLayer {
        RateLimitLayer { limits }
    }
}

impl<S> Layer<S> for RateLimitLayer {
    type Service = RateLimited<S>;
    fn layer(&self, inner: S) -> RateLimited<S> {
        RateLimited { inner, limits: self.limits.clone() }
    }
}

#[derive(Clone)]
pub struct RateLimited<S> {
    inner: S,
    limits: Arc<RateLimits>,
}

impl<S> Service<Request> for RateLimited<S>
where
    S: Service<Request, Response = Response>,
{
    type Response = Response;
    type Error = S::Error;
    type Future = LimitedAnswer<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: Request) -> Self::Future {
        let peer = request.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
        let counted = self
            .limits
            .client(peer, request.headers())
            .filter(|&client| !self.limits.is_exempt(client))
            .map(|client| (self.limits.clone(), ClientKey::of(client)));
        let request_limits = Arc::new(RequestLimits { counted, standing: Mutex::new(None) });
        if counts_as_anonymous(&request)
            && let Err(refused) = request_limits.anonymous_request()
        {
            let mut response = respond::error(&refused);
            request_limits.write_headers(response.headers_mut());
            return LimitedAnswer::Refused { response: Some(response) };
        }
        request.extensions_mut().insert(request_limits.clone());
        LimitedAnswer::Answering { inner: self.inner.call(request), limits: request_limits }
    }
}

/// Whether a request counts against its address: API calls and form posts without credentials.
/// Pages, assets and files are not counted, as Zulip counts only its API views; a request with
/// credentials counts against its user once they are checked.
fn counts_as_anonymous(request: &Request) -> bool {
    let path = request.uri().path();
    !request.headers().contains_key(header::AUTHORIZATION)
        && (path.starts_with("/api/") || path.starts_with("/json/") || request.method() == Method::POST)
}

pin_project_lite::pin_project! {
    /// A request's answer: refused at once, or the handler's with the limits' headers added.
    #[project = LimitedProjection]
    pub enum LimitedAnswer<F> {
        Refused { response: Option<Response> },
        Answering { #[pin] inner: F, limits: Arc<RequestLimits> },
    }
}

impl<F, E> Future for LimitedAnswer<F>
where
    F: Future<Output = Result<Response, E>>,
{
    type Output = Result<Response, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.project() {
            LimitedProjection::Refused { response } => match response.take() {
                Some(response) => Poll::Ready(Ok(response)),
                None => Poll::Pending,
            },
            LimitedProjection::Answering { inner, limits } => {
                let mut response = std::task::ready!(inner.poll(cx))?;
                limits.write_headers(response.headers_mut());
                Poll::Ready(Ok(response))
            }
        }
    }
}

/// The clock in milliseconds, for the counts.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv6_clients_count_per_64_and_mapped_ipv4_as_ipv4() {
        let key = |s: &str| ClientKey::of(s.parse().expect("address"));
        assert_eq!(key("2001:db8:1:2:aaaa::1"), key("2001:db8:1:2:ffff::9"));
        assert_ne!(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
        assert_eq!(key("::ffff:192.0.2.7"), key("192.0.2.7"));
    }

    #[test]
    fn exempt_ranges_and_trusted_proxies() {
        let range = |s: &str| s.parse::<IpNet>().expect("range");
        let limits = RateLimits::new(RateLimitConfig {
            exempt: vec![range("10.0.0.0/8")],
            trusted_proxies: vec![range("127.0.0.1/32")],
            ..RateLimitConfig::default()
        });
        let ip = |s: &str| s.parse::<IpAddr>().expect("address");
        assert!(limits.is_exempt(ip("10.1.2.3")));
        assert!(limits.is_exempt(ip("::ffff:10.1.2.3")));
        assert!(!limits.is_exempt(ip("192.0.2.1")));
        let mut headers = HeaderMap::new();
        headers.insert("x-real-ip", HeaderValue::from_static("192.0.2.9"));
        assert_eq!(limits.client(Some(ip("127.0.0.1")), &headers), Some(ip("192.0.2.9")));
        assert_eq!(limits.client(Some(ip("192.0.2.1")), &headers), Some(ip("192.0.2.1")), "untrusted");
    }

    #[test]
    fn an_address_over_its_failures_has_credentials_refused_unchecked() {
        let limits = RateLimits::new(RateLimitConfig {
            failed_auth_per_ip: "60:3".parse().expect("rules"),
            ..RateLimitConfig::default()
        });
        let request = RequestLimits {
            counted: Some((limits, ClientKey::of("192.0.2.1".parse().expect("ip")))),
            standing: Mutex::new(None),
        };
        for _ in 0..3 {
            assert!(request.before_credentials().is_ok());
            request.credentials_failed();
        }
        let refused = request.before_credentials().expect_err("refused");
        assert_eq!(refused.code, confab_core::ErrorCode::RateLimitHit);
        let mut headers = HeaderMap::new();
        request.write_headers(&mut headers);
        assert_eq!(headers["x-ratelimit-remaining"], "0");
        assert_eq!(headers["x-ratelimit-limit"], "3");
    }
}
