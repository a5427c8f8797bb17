//! Rate limits as Zulip applies them: per user, per address without credentials, per username
//! for passwords, and per address for failed authentications; `429 RATE_LIMIT_HIT` with
//! `retry-after` and the `X-RateLimit-*` headers; an allow-list of exempt addresses. These
//! servers count the tests' own requests (others exempt loopback). Windows are long (30 or 60
//! minutes), so no slot frees while a test runs.

use confab_tests::{Api, Creds, Reply, TestServer};
use reqwest::Method;
use reqwest::header::HeaderMap;

const BINARY: &str = env!("CARGO_BIN_EXE_confab-under-test");

fn now_secs() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// A response with its headers.
struct Answer {
    reply: Reply,
    headers: HeaderMap,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    fn ok(self) -> serde_json::Value {
        self.reply.ok()
    }

    fn error(self, status: u16, code: &str) -> serde_json::Value {
        self.reply.error(status, code)
    }
}

fn get(api: &Api, path: &str, auth: Option<&Creds>) -> Answer {
    let (reply, headers) = api.exchange(Method::GET, path, auth, &[]);
    Answer { reply, headers }
}

fn post(api: &Api, path: &str, auth: Option<&Creds>, params: &[(&str, &str)]) -> Answer {
    let (reply, headers) = api.exchange(Method::POST, path, auth, params);
    Answer { reply, headers }
}

/// The `X-RateLimit-*` headers as numbers: limit, remaining, reset.
fn rate_headers(answer: &Answer) -> (u64, u64, u64) {
    let number = |name: &str| {
        answer
            .header(name)
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{name} in {:?}", answer.headers))
    };
    (number("x-ratelimit-limit"), number("x-ratelimit-remaining"), number("x-ratelimit-reset"))
}

/// Asserts Zulip's rate-limit answer and returns its `retry-after`.
fn assert_rate_limited(answer: Answer) -> f64 {
    let body = &answer.reply.body;
    let retry_after = body["retry-after"].as_f64().unwrap_or_else(|| panic!("retry-after in {body}"));
    assert!(retry_after > 0.0, "{body}");
    let header: u64 =
        answer.header("retry-after").and_then(|v| v.parse().ok()).expect("a Retry-After header");
    assert_eq!(header, retry_after.ceil() as u64, "the header is the body's seconds, rounded up");
    let (_, remaining, reset) = rate_headers(&answer);
    assert_eq!(remaining, 0);
    assert!(reset >= now_secs(), "reset {reset} is a time to come");
    let body = answer.error(429, "RATE_LIMIT_HIT");
    assert_eq!(body["msg"], "API usage exceeded rate limit");
    assert_eq!(body.as_object().map(|o| o.len()), Some(4), "result, msg, code, retry-after: {body}");
    retry_after
}

#[test]
fn the_sixth_wrong_password_within_the_window_gets_429_with_zulips_body_and_headers() {
    let server = TestServer::start_rate_limited(BINARY, &[]);
    let api = server.api();
    api.post(
        "/users",
        Some(&server.owner()),
        &[("email", "eve@example.com"), ("password", "s3cret-pass"), ("full_name", "Eve")],
    )
    .ok();
    let login = |password: &str| {
        post(&api, "/fetch_api_key", None, &[("username", "eve@example.com"), ("password", password)])
    };
    for attempt in 1..=5u64 {
        let refused = login("guess");
        let (limit, remaining, _) = rate_headers(&refused);
        assert_eq!((limit, remaining), (5, 5 - attempt), "attempt {attempt}");
        let body = refused.error(401, "AUTHENTICATION_FAILED");
        assert_eq!(body["msg"], "Your username or password is incorrect");
    }
    // Zulip's authenticate_by_username: five attempts per thirty minutes; the sixth is refused
    // even with the right password, until the first slot frees (six minutes on).
    let retry_after = assert_rate_limited(login("s3cret-pass"));
    assert!((350.0..=360.0).contains(&retry_after), "{retry_after}");
    // Other usernames are not held back by this one's count.
    let owner = server.owner();
    let password = server.owner_password.clone().expect("the owner's password");
    api.post("/fetch_api_key", None, &[("username", owner.email.as_str()), ("password", password.as_str())])
        .ok();
}

#[test]
fn a_user_gets_their_requests_then_429_and_the_headers_count_down() {
    let server = TestServer::start_rate_limited(BINARY, &["--rate-limit-per-user", "3600:5"]);
    let api = server.api();
    let owner = server.owner();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let mut remaining = rate_headers(&get(&api, "/users/me", Some(&owner))).1;
    while remaining > 0 {
        let reply = get(&api, "/users/me", Some(&owner));
        assert_eq!(rate_headers(&reply).1, remaining - 1, "one fewer each time");
        assert_eq!(rate_headers(&reply).0, 5);
        remaining -= 1;
        reply.ok();
    }
    assert_rate_limited(get(&api, "/users/me", Some(&owner)));
    assert_rate_limited(post(&api, "/messages", Some(&owner), &[("type", "stream"), ("to", "general")]));
    // Another user's allowance is their own.
    get(&api, "/users/me", Some(&ada)).ok();
}

#[test]
fn requests_without_credentials_count_per_address() {
    let server = TestServer::start_rate_limited(BINARY, &["--rate-limit-per-ip", "3600:3"]);
    let api = server.api();
    for _ in 0..3 {
        let reply = get(&api, "/server_settings", None);
        assert_eq!(rate_headers(&reply).0, 3);
        reply.ok();
    }
    assert_rate_limited(get(&api, "/server_settings", None));
    // A user's requests are counted against the user, not the address.
    api.get("/users/me", Some(&server.owner()), &[]).ok();
    // Pages, assets and the operator's endpoints are not API calls: Zulip limits its API views.
    let http = reqwest::blocking::Client::new();
    for path in ["/", "/static/icon.svg", "/static/images/unknown-user-avatar.png", "/health", "/ready"] {
        for _ in 0..5 {
            let response = http.get(format!("{}{path}", server.base_url)).send().expect("an answer");
            assert_eq!(response.status().as_u16(), 200, "{path} is not counted");
            assert!(response.headers().get("x-ratelimit-limit").is_none(), "{path}");
        }
    }
}

#[test]
fn wrong_api_keys_are_limited_per_address_and_then_even_a_right_key_is_refused_unchecked() {
    let server = TestServer::start_rate_limited(BINARY, &["--rate-limit-failed-auth-per-ip", "3600:3"]);
    let api = server.api();
    let owner = server.owner();
    let wrong = Creds { email: owner.email.clone(), api_key: "x".repeat(32) };
    for _ in 0..3 {
        get(&api, "/users/me", Some(&wrong)).error(401, "INVALID_API_KEY");
    }
    assert_rate_limited(get(&api, "/users/me", Some(&wrong)));
    assert_rate_limited(get(&api, "/users/me", Some(&owner)));
}

#[test]
fn one_password_tried_across_many_usernames_is_stopped_per_address() {
    let server = TestServer::start_rate_limited(BINARY, &["--rate-limit-failed-auth-per-ip", "3600:4"]);
    let api = server.api();
    let login = |username: &str| {
        post(&api, "/fetch_api_key", None, &[("username", username), ("password", "123456")])
    };
    for n in 0..4 {
        login(&format!("user{n}@example.com")).error(401, "AUTHENTICATION_FAILED");
    }
    assert_rate_limited(login("user4@example.com"));
    assert_rate_limited(login(&server.owner().email));
}

#[test]
fn an_exempt_address_is_not_limited() {
    let server = TestServer::start_rate_limited(
        BINARY,
        &[
            "--rate-limit-per-user",
            "3600:2",
            "--rate-limit-logins-per-username",
            "3600:1",
            "--rate-limit-exempt",
            "127.0.0.0/8",
        ],
    );
    let api = server.api();
    let owner = server.owner();
    for _ in 0..5 {
        let reply = get(&api, "/users/me", Some(&owner));
        assert!(reply.header("x-ratelimit-limit").is_none(), "no limit applied");
        reply.ok();
        api.post("/fetch_api_key", None, &[("username", "nobody@example.com"), ("password", "x")])
            .error(401, "AUTHENTICATION_FAILED");
    }
}

#[test]
fn limits_are_refused_at_startup_when_malformed() {
    let output = std::process::Command::new(BINARY)
        .args(["serve", "--data-dir", "/nonexistent", "--rate-limit-per-user", "60"])
        .output()
        .expect("the binary runs");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("SECONDS:REQUESTS"), "{stderr}");
}
