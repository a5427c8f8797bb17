//! Email over SMTP, received by a real mail server on this machine (Python's aiosmtpd, started
//! by the test; `tests/python/smtp_sink.py`).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use confab_tests::TestServer;
use serde_json::Value;

/// The mail server: killed with the test.
struct Sink {
    child: Child,
    dir: tempfile::TempDir,
    port: u16,
}

impl Drop for Sink {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Sink {
    fn start() -> Sink {
        let dir = tempfile::tempdir().expect("a temporary directory");
        // A free port: the system picks one, and the sink takes it over.
        let port =
            std::net::TcpListener::bind("127.0.0.1:0").expect("bind").local_addr().expect("addr").port();
        let script = confab_tests::workspace_root().join("tests/python/smtp_sink.py");
        let mut child = Command::new(confab_tests::python::python())
            .arg(script)
            .arg(dir.path())
            .arg(port.to_string())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the mail server starts");
        let mut ready = String::new();
        let stdout = child.stdout.take().expect("its output");
        BufReader::new(stdout).read_line(&mut ready).expect("it says it is ready");
        assert_eq!(ready.trim(), "ready");
        Sink { child, dir, port }
    }

    /// The server's flags that send mail here.
    fn flags(&self) -> Vec<String> {
        ["--smtp-host", "127.0.0.1", "--smtp-port", &self.port.to_string(), "--smtp-security", "none"]
            .iter()
            .map(|s| s.to_string())
            .chain(["--email-from".to_owned(), "Confab <noreply@chat.example.com>".to_owned()])
            .collect()
    }

    /// The `n`th email received (from 1), once it is in.
    fn email(&self, n: usize) -> Value {
        let path: PathBuf = self.dir.path().join(format!("{n}.json"));
        wait_for(&path);
        serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("JSON")
    }
}

/// A server that sends its mail to a new sink.
fn server_with_mail() -> (Sink, TestServer) {
    let sink = Sink::start();
    let flags = sink.flags();
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    let server = TestServer::start_with(env!("CARGO_BIN_EXE_confab-under-test"), &flags);
    (sink, server)
}

/// Mail goes out in the background after the reply, missed-message emails once their batch is
/// due (two minutes): wait for it (no timing is asserted; the limit only keeps a broken test
/// from hanging).
fn wait_for(path: &Path) {
    let deadline = Instant::now() + Duration::from_secs(300);
    while !path.exists() {
        assert!(Instant::now() < deadline, "no email arrived at {}", path.display());
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn link_in(body: &str, server: &TestServer) -> String {
    let link = body.split_whitespace().find(|w| w.starts_with("http")).expect("a link in the email");
    link.strip_prefix(&server.base_url).unwrap_or(link).to_owned()
}

#[test]
fn an_invitation_is_mailed_and_its_link_signs_the_invitee_up() {
    let (sink, server) = server_with_mail();
    let owner = server.owner();
    let api = server.api();
    let me = api.get("/users/me", Some(&owner), &[]).ok();
    api.post("/invites", Some(&owner), &[("invitee_emails", "bo@example.com"), ("stream_ids", "[]")]).ok();

    let email = sink.email(1);
    assert_eq!(email["rcpt_tos"], serde_json::json!(["bo@example.com"]));
    assert_eq!(email["to"], "bo@example.com");
    assert_eq!(email["from"], "Confab <noreply@chat.example.com>");
    assert_eq!(email["content_type"], "text/plain");
    let name = me["full_name"].as_str().expect("a name");
    assert!(email["subject"].as_str().expect("subject").starts_with(&format!("{name} invited you to join")));
    let body = email["body"].as_str().expect("body");
    assert!(body.contains(me["delivery_email"].as_str().expect("email")), "{body}");

    let path = link_in(body, &server);
    assert!(path.starts_with("/accounts/do_confirm/"), "{path}");

    // Sent again on request, with the same link.
    let invites = api.get("/invites", Some(&owner), &[]).ok();
    let id = invites["invites"][0]["id"].as_u64().expect("an invitation id");
    api.post(&format!("/invites/{id}/resend"), Some(&owner), &[]).ok();
    let again = sink.email(2);
    assert_eq!(link_in(again["body"].as_str().expect("body"), &server), path);

    let client = reqwest::blocking::Client::new();
    let url = format!("{}{path}", server.base_url);
    let form = client.get(&url).send().expect("the page answers");
    assert_eq!(form.status().as_u16(), 200);
    let joined = client
        .post(&url)
        .form(&[("full_name", "Bo"), ("password", "correct horse")])
        .send()
        .expect("the page answers");
    assert_eq!(joined.status().as_u16(), 200);
    api.post("/fetch_api_key", None, &[("username", "bo@example.com"), ("password", "correct horse")]).ok();

    // Used, it is gone; nothing was logged as unsent.
    let invites = api.get("/invites", Some(&owner), &[]).ok();
    assert_eq!(invites["invites"], serde_json::json!([]));
    assert!(!server.log_so_far().contains("not sent (no mail server configured)"));
}

#[test]
fn without_a_mail_server_the_server_says_email_is_off() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let deadline = Instant::now() + Duration::from_secs(30);
    while !server.log_so_far().contains("email is off") {
        assert!(Instant::now() < deadline, "{}", server.log_so_far());
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A form posted to one of the server's own pages: its status and HTML.
fn post_form(server: &TestServer, path: &str, form: &[(&str, &str)]) -> (u16, String) {
    let response = reqwest::blocking::Client::new()
        .post(format!("{}{path}", server.base_url))
        .form(form)
        .send()
        .expect("the page answers");
    (response.status().as_u16(), response.text().expect("text"))
}

fn get_page(server: &TestServer, path: &str) -> (u16, String) {
    let response = reqwest::blocking::get(format!("{}{path}", server.base_url)).expect("the page answers");
    (response.status().as_u16(), response.text().expect("text"))
}

#[test]
fn a_forgotten_password_is_reset_through_a_mailed_link() {
    let (sink, server) = server_with_mail();
    let owner = server.owner();
    let api = server.api();
    api.create_user(&owner, "ada@example.com", "Ada");

    let (status, form) = get_page(&server, "/accounts/password/reset/");
    assert_eq!(status, 200);
    assert!(form.contains("name=\"email\""), "{form}");
    // An address no account has gets the same answer, and no mail.
    let (status, unknown) =
        post_form(&server, "/accounts/password/reset/", &[("email", "nobody@example.com")]);
    assert_eq!(status, 200);
    let (status, asked) = post_form(&server, "/accounts/password/reset/", &[("email", "ada@example.com")]);
    assert_eq!(status, 200);
    assert_eq!(asked, unknown);
    assert!(asked.contains("Check your email"), "{asked}");

    let email = sink.email(1);
    assert_eq!(email["to"], "ada@example.com");
    assert!(email["subject"].as_str().expect("subject").starts_with("Reset your password"));
    let path = link_in(email["body"].as_str().expect("body"), &server);
    assert!(path.starts_with("/accounts/password/reset/"), "{path}");
    assert!(!sink.dir.path().join("2.json").exists(), "the unknown address got mail");

    let (status, form) = get_page(&server, &path);
    assert_eq!(status, 200);
    assert!(form.contains("name=\"password\""), "{form}");
    let (status, short) = post_form(&server, &path, &[("password", "short")]);
    assert_eq!(status, 400, "{short}");
    let (status, done) = post_form(&server, &path, &[("password", "a new and long password")]);
    assert_eq!(status, 200, "{done}");
    assert!(done.contains("Your password is changed"), "{done}");

    api.post(
        "/fetch_api_key",
        None,
        &[("username", "ada@example.com"), ("password", "a new and long password")],
    )
    .ok();
    api.post("/fetch_api_key", None, &[("username", "ada@example.com"), ("password", "s3cret-pass")])
        .error(401, "AUTHENTICATION_FAILED");
    // Used once, the link works no more; a made-up one never did.
    assert_eq!(get_page(&server, &path).0, 404);
    assert_eq!(get_page(&server, "/accounts/password/reset/2/nokey/").0, 404);
}

#[test]
fn password_reset_emails_are_limited_per_address_and_per_client_as_zulip_limits_them() {
    let sink = Sink::start();
    let mut flags = sink.flags();
    // Zulip's `sends_email_by_ip` is 5 a day; 4 here keeps the test short. Per email address,
    // Zulip's own `password_reset_form_by_email`: 2 an hour.
    flags.extend(["--rate-limit-emails-per-ip".to_owned(), "86400:4".to_owned()]);
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    let server = TestServer::start_rate_limited(env!("CARGO_BIN_EXE_confab-under-test"), &flags);
    let owner = server.owner();
    let api = server.api();
    api.create_user(&owner, "ada@example.com", "Ada");
    api.create_user(&owner, "bo@example.com", "Bo");

    for _ in 0..3 {
        let (status, page) = post_form(&server, "/accounts/password/reset/", &[("email", "ada@example.com")]);
        assert_eq!(status, 200);
        assert!(page.contains("Check your email"), "the answer does not tell: {page}");
    }
    post_form(&server, "/accounts/password/reset/", &[("email", "bo@example.com")]);

    let client = reqwest::blocking::Client::new();
    let refused = client
        .post(format!("{}/accounts/password/reset/", server.base_url))
        .form(&[("email", "bo@example.com")])
        .send()
        .expect("the page answers");
    assert_eq!(refused.status().as_u16(), 429);
    let retry_after: u64 = refused.headers()["retry-after"].to_str().expect("text").parse().expect("seconds");
    assert!(retry_after > 0);
    assert!(refused.text().expect("a page").contains("Too many requests"));

    // Emails leave side by side, in any order. An invitation (from a signed-in user, so no
    // limit) comes last: of the four emails, two are Ada's resets, her third held back.
    api.post("/invites", Some(&owner), &[("invitee_emails", "cy@example.com"), ("stream_ids", "[]")]).ok();
    let mut sent: Vec<String> =
        emails(&sink, 4).iter().map(|e| e["to"].as_str().expect("to").to_owned()).collect();
    sent.sort();
    assert_eq!(sent, ["ada@example.com", "ada@example.com", "bo@example.com", "cy@example.com"]);
}

/// The JSON of every email in the sink once there are `count`, in the order received.
fn emails(sink: &Sink, count: usize) -> Vec<Value> {
    (1..=count).map(|n| sink.email(n)).collect()
}

#[test]
fn messages_missed_while_away_arrive_as_one_batched_email_per_conversation() {
    let (sink, server) = server_with_mail();
    let owner = server.owner();
    let api = server.api();
    let ada = api.create_user(&owner, "ada@example.com", "Ada");
    let ada_id = api.user_id(&ada).to_string();
    let to_ada = format!("[{ada_id}]");
    // Ada has no client open: she is away. Two direct messages and a mention, then a message
    // that concerns her not.
    for content in ["Lunch at noon?", "Or one?"] {
        api.post("/messages", Some(&owner), &[("type", "direct"), ("to", &to_ada), ("content", content)])
            .ok();
    }
    let mention =
        [("type", "stream"), ("to", "general"), ("topic", "plans"), ("content", "@**Ada** please review")];
    api.post("/messages", Some(&owner), &mention).ok();
    let other = [("type", "stream"), ("to", "general"), ("topic", "plans"), ("content", "Nothing for Ada")];
    api.post("/messages", Some(&owner), &other).ok();

    // Her batch comes due after her batching period (Zulip's default, two minutes).
    let mut received = emails(&sink, 2);
    received.sort_by_key(|e| e["subject"].as_str().map(str::to_owned));
    let (topic, dms) = (&received[0], &received[1]);
    assert_eq!(dms["to"], "ada@example.com");
    let owner_name =
        api.get("/users/me", Some(&owner), &[]).ok()["full_name"].as_str().expect("name").to_owned();
    assert_eq!(dms["subject"], format!("DMs with {owner_name}"));
    let body = dms["body"].as_str().expect("body");
    assert!(body.contains("Lunch at noon?") && body.contains("Or one?"), "{body}");
    assert_eq!(topic["subject"], "#general > plans");
    let body = topic["body"].as_str().expect("body");
    assert!(body.contains("@**Ada** please review") && !body.contains("Nothing for Ada"), "{body}");
    // The link opens the conversation in the browser client.
    let link = link_in(dms["body"].as_str().expect("body"), &server);
    assert!(link.starts_with("/#narrow/dm/"), "{link}");
    assert_eq!(get_page(&server, "/").0, 200);
    assert!(!sink.dir.path().join("3.json").exists());
}
