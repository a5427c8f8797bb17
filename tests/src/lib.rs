//! The test harness: a real `confab` process on a loopback port with a temporary data
//! directory, an HTTP client that speaks the API as Zulip clients do, and the real Python
//! clients in a virtual environment that the harness installs itself.

pub mod fake_service;
pub mod highlighting;
pub mod load;
pub mod python;
pub mod scale;
pub mod seed;
pub mod terminal;
pub mod web;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use serde_json::Value;

/// The wall clock's UNIX second.
pub fn unix_now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64)
}

/// Polls `probe` every 100 ms until it returns something. The minute's limit only ends a
/// failing wait: a passing run goes on as soon as the condition holds.
pub fn eventually<T>(what: &str, mut probe: impl FnMut() -> Option<T>) -> T {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        if let Some(found) = probe() {
            return found;
        }
        assert!(std::time::Instant::now() < deadline, "gave up waiting for {what}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

/// Credentials of one user.
#[derive(Clone, Debug)]
pub struct Creds {
    pub email: String,
    pub api_key: String,
}

/// Whether the servers the tests start keep their data in PostgreSQL: `CONFAB_TEST_STORE=postgres`
/// (the second pass of `scripts/test`). Each server started on a fresh data directory then gets
/// a new database of its own on a scratch PostgreSQL server, one per test process.
pub fn on_postgres() -> bool {
    std::env::var("CONFAB_TEST_STORE").is_ok_and(|store| store == "postgres")
}

/// The `serve` arguments that put a fresh server's data where the tests ask (see
/// [`on_postgres`]): nothing for the data directory's redb file, or when the test names its
/// own database in `extra`.
fn fresh_store_args(extra: &[&str]) -> Vec<String> {
    if !on_postgres() || extra.contains(&"--database") {
        return Vec::new();
    }
    let cluster = confab_server::scratch_postgres::shared().expect("a scratch PostgreSQL server");
    vec!["--database".to_owned(), cluster.new_database().expect("a new database")]
}

/// On PostgreSQL, says why the test does not run there and returns true: a test of what only
/// the data directory's redb file does (its repair), or one PostgreSQL cannot pass yet, which
/// the PostgreSQL pass leaves to the redb pass. Each use says which.
pub fn not_on_postgres(why: &str) -> bool {
    if on_postgres() {
        eprintln!("not run on PostgreSQL: {why}");
    }
    on_postgres()
}

/// The `serve` arguments that exempt the tests' own address from rate limits.
const LOOPBACK_EXEMPT: [&str; 4] = ["--rate-limit-exempt", "127.0.0.0/8", "--rate-limit-exempt", "::1"];

/// A running `confab serve`. Killed when dropped.
pub struct TestServer {
    pub base_url: String,
    pub data_dir: PathBuf,
    /// The owner created at first start (absent after a restart on an existing directory).
    pub owner: Option<Creds>,
    pub owner_password: Option<String>,
    binary: PathBuf,
    /// The `serve` arguments after the address, used again by a restart.
    extra: Vec<String>,
    child: Child,
    /// Copies the server's standard error through to ours and returns all of it at its end.
    stderr: Option<std::thread::JoinHandle<String>>,
    /// Everything the server has written to its standard error so far.
    log: std::sync::Arc<std::sync::Mutex<String>>,
    // Keeps the temporary directory alive for the server's lifetime.
    _dir: Option<tempfile::TempDir>,
}

impl TestServer {
    /// Starts a server on a fresh temporary data directory.
    pub fn start(binary: &str) -> TestServer {
        Self::start_with(binary, &[])
    }

    /// Starts a server on a fresh temporary data directory with extra `serve` arguments.
    pub fn start_with(binary: &str, extra: &[&str]) -> TestServer {
        let dir = tempfile::tempdir().expect("temporary directory");
        let data_dir = dir.path().join("data");
        let store = fresh_store_args(extra);
        let extra = [extra, &store.iter().map(String::as_str).collect::<Vec<_>>()].concat();
        let mut server = Self::spawn(Path::new(binary), &data_dir, "127.0.0.1:0", &extra);
        server._dir = Some(dir);
        server
    }

    /// Starts a server on a fresh temporary data directory with Zulip's rate limits applied to
    /// the test's own requests too (and extra `serve` arguments, such as other limits).
    pub fn start_rate_limited(binary: &str, extra: &[&str]) -> TestServer {
        let dir = tempfile::tempdir().expect("temporary directory");
        let data_dir = dir.path().join("data");
        let store = fresh_store_args(extra);
        let extra = [extra, &store.iter().map(String::as_str).collect::<Vec<_>>()].concat();
        let mut server = Self::spawn_with_args(Path::new(binary), &data_dir, "127.0.0.1:0", &extra);
        server._dir = Some(dir);
        server
    }

    /// Starts a server on an existing data directory and address. Loopback, where the tests
    /// send from, is exempt from rate limits: one test sends more than any one client would.
    pub fn spawn(binary: &Path, data_dir: &Path, bind: &str, extra: &[&str]) -> TestServer {
        Self::spawn_with_args(binary, data_dir, bind, &[&LOOPBACK_EXEMPT[..], extra].concat())
    }

    fn spawn_with_args(binary: &Path, data_dir: &Path, bind: &str, extra: &[&str]) -> TestServer {
        let mut child = Command::new(binary)
            .args(["serve", "--data-dir"])
            .arg(data_dir)
            .args(["--bind", bind])
            .args(extra)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the confab binary starts");
        let stderr = child.stderr.take().expect("stderr is piped");
        let log_so_far = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let shared_log = log_so_far.clone();
        let stderr = std::thread::spawn(move || {
            use std::io::Write;
            let mut log = String::new();
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                // Straight to our standard error, as an inherited one would be.
                let _ = writeln!(std::io::stderr(), "{line}");
                log.push_str(&line);
                log.push('\n');
                if let Ok(mut shared) = shared_log.lock() {
                    shared.push_str(&line);
                    shared.push('\n');
                }
            }
            log
        });
        let stdout = child.stdout.take().expect("stdout is piped");
        let mut lines = BufReader::new(stdout).lines();
        let (mut email, mut password, mut key, mut base_url) = (None, None, None, None);
        for line in lines.by_ref() {
            let line = line.expect("server output is text");
            let value = |prefix: &str| line.trim().strip_prefix(prefix).map(|v| v.trim().to_owned());
            if let Some(v) = value("email:") {
                email = Some(v);
            } else if let Some(v) = value("password:") {
                password = Some(v);
            } else if let Some(v) = value("API key:") {
                key = Some(v);
            } else if let Some(v) = value("Confab is listening on") {
                base_url = Some(v);
                break;
            }
        }
        // Keep draining stdout so the server never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines {});
        let base_url = base_url.expect("the server reports its address");
        let owner = match (email, key) {
            (Some(email), Some(api_key)) => Some(Creds { email, api_key }),
            _ => None,
        };
        TestServer {
            base_url,
            data_dir: data_dir.to_owned(),
            owner,
            owner_password: password,
            binary: binary.to_owned(),
            extra: extra.iter().map(|a| (*a).to_owned()).collect(),
            child,
            stderr: Some(stderr),
            log: log_so_far,
            _dir: None,
        }
    }

    /// The arguments that name this server's store to another command (`create-user`,
    /// `zuliprc`, ...): its `--database`, if it has one; the data directory holds the rest.
    pub fn store_args(&self) -> Vec<String> {
        match self.extra.iter().position(|arg| arg == "--database") {
            Some(i) => self.extra[i..].iter().take(2).cloned().collect(),
            None => Vec::new(),
        }
    }

    /// What the server has logged so far (at `warn` and above), for what it reports only
    /// there: the links of invitations it cannot mail.
    pub fn log_so_far(&self) -> String {
        self.log.lock().map(|log| log.clone()).unwrap_or_default()
    }

    /// The server's process id (for measuring it).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The owner's credentials; panics on a restarted server that did not create one.
    pub fn owner(&self) -> Creds {
        self.owner.clone().expect("this server created the owner")
    }

    /// Kills the process with SIGKILL: no shutdown, no flush.
    pub fn kill(&mut self) {
        self.child.kill().ok();
        self.child.wait().ok();
    }

    /// Sends SIGTERM and waits for a graceful exit.
    pub fn terminate(&mut self) -> std::process::ExitStatus {
        self.stop_with("TERM")
    }

    /// Sends a signal (`TERM`, `HUP`, ...) and waits for the server to exit.
    pub fn stop_with(&mut self, signal: &str) -> std::process::ExitStatus {
        Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(self.child.id().to_string())
            .status()
            .expect("kill runs");
        self.child.wait().expect("the server exits")
    }

    /// Sends SIGTERM, waits for the exit, and returns the exit status and everything the server
    /// wrote to its standard error (its log, at `warn` and above).
    pub fn terminate_with_log(&mut self) -> (std::process::ExitStatus, String) {
        let status = self.terminate();
        let log = self.stderr.take().map(|reader| reader.join().expect("the log reader")).unwrap_or_default();
        (status, log)
    }

    /// Kills the server (SIGKILL) and starts the same binary again on the same data directory
    /// and address.
    pub fn restart(mut self) -> TestServer {
        self.kill();
        self.start_again()
    }

    /// Stops the server gracefully (SIGTERM) and starts it again on the same data directory.
    pub fn start_again_after_terminate(mut self) -> TestServer {
        self.terminate();
        self.start_again()
    }

    /// Starts the same binary again on the same data directory, address and arguments; the old
    /// process must have exited.
    pub fn start_again(mut self) -> TestServer {
        let bind = self.base_url.trim_start_matches("http://").to_owned();
        let extra: Vec<&str> = self.extra.iter().map(String::as_str).collect();
        let mut next = Self::spawn_with_args(&self.binary, &self.data_dir, &bind, &extra);
        next._dir = self._dir.take();
        next.owner = self.owner.clone();
        next
    }

    pub fn api(&self) -> Api {
        Api::new(&self.base_url)
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A file of a multipart request.
#[derive(Clone, Copy, Debug)]
pub struct UploadFile<'a> {
    pub name: &'a str,
    /// The part's `Content-Type`; none, as the Python client sends files.
    pub content_type: Option<&'a str>,
    pub bytes: &'a [u8],
}

/// A 1×1 PNG image.
pub const TINY_PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00,
    0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4, 0x89, 0x00,
    0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xcf, 0xc0, 0xf0, 0x1f, 0x00, 0x05,
    0x00, 0x01, 0xff, 0x89, 0x99, 0x3d, 0x1d, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42,
    0x60, 0x82,
];

/// A response: HTTP status and JSON body.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub body: Value,
}

impl Reply {
    /// Asserts a success and returns the body.
    pub fn ok(self) -> Value {
        assert_eq!(self.status, 200, "expected success, got {}", self.body);
        assert_eq!(self.body["result"], "success", "{}", self.body);
        self.body
    }

    /// Asserts an error with this status and code, and returns the body.
    pub fn error(self, status: u16, code: &str) -> Value {
        assert_eq!(self.status, status, "status of {}", self.body);
        assert_eq!(self.body["result"], "error", "{}", self.body);
        assert_eq!(self.body["code"], code, "{}", self.body);
        assert!(self.body["msg"].is_string(), "{}", self.body);
        self.body
    }
}

/// An HTTP client for `/api/v1` that sends parameters as the Python client does.
pub struct Api {
    pub base_url: String,
    /// The `Host` header to send instead of the URL's (to reach an organization by subdomain).
    host: Option<String>,
    http: reqwest::blocking::Client,
}

impl Api {
    /// A client for the server at `base_url` (`http://host:port`), for use from other threads.
    /// No request timeout: long-polls wait as long as the server makes them.
    pub fn new(base_url: &str) -> Api {
        let http = reqwest::blocking::Client::builder().timeout(None).build().expect("an HTTP client");
        Api { base_url: format!("{base_url}/api/v1"), host: None, http }
    }

    /// The same client sending `Host: host`, as a client of the organization there would.
    pub fn with_host(mut self, host: &str) -> Api {
        self.host = Some(host.to_owned());
        self
    }

    fn send(
        &self,
        method: reqwest::Method,
        path: &str,
        auth: Option<&Creds>,
        params: &[(&str, &str)],
    ) -> Reply {
        self.exchange(method, path, auth, params).0
    }

    /// As the other methods, with the response's headers too.
    pub fn exchange(
        &self,
        method: reqwest::Method,
        path: &str,
        auth: Option<&Creds>,
        params: &[(&str, &str)],
    ) -> (Reply, reqwest::header::HeaderMap) {
        let url = format!("{}{}", self.base_url, path);
        let mut request = self.http.request(method.clone(), &url).header("User-Agent", "ConfabTests/1.0");
        if let Some(host) = &self.host {
            request = request.header("Host", host);
        }
        if let Some(creds) = auth {
            request = request.basic_auth(&creds.email, Some(&creds.api_key));
        }
        request = if method == reqwest::Method::GET { request.query(params) } else { request.form(params) };
        let response = request.send().expect("the server answers");
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let text = response.text().expect("a body");
        let body = serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON ({status}): {text}"));
        (Reply { status, body }, headers)
    }

    pub fn get(&self, path: &str, auth: Option<&Creds>, params: &[(&str, &str)]) -> Reply {
        self.send(reqwest::Method::GET, path, auth, params)
    }

    pub fn post(&self, path: &str, auth: Option<&Creds>, params: &[(&str, &str)]) -> Reply {
        self.send(reqwest::Method::POST, path, auth, params)
    }

    pub fn delete(&self, path: &str, auth: Option<&Creds>, params: &[(&str, &str)]) -> Reply {
        self.send(reqwest::Method::DELETE, path, auth, params)
    }

    pub fn patch(&self, path: &str, auth: Option<&Creds>, params: &[(&str, &str)]) -> Reply {
        self.send(reqwest::Method::PATCH, path, auth, params)
    }

    pub fn put(&self, path: &str, auth: Option<&Creds>, params: &[(&str, &str)]) -> Reply {
        self.send(reqwest::Method::PUT, path, auth, params)
    }

    /// Sends a multipart body of files to `path` with `method`, as the Python client does:
    /// each file a part named after it, with a content type only where one is given.
    pub fn send_files(
        &self,
        method: reqwest::Method,
        path: &str,
        auth: Option<&Creds>,
        files: &[UploadFile<'_>],
    ) -> Reply {
        // A text field, so that a request without files is still a well-formed form.
        let mut form = reqwest::blocking::multipart::Form::new().text("client", "ConfabTests");
        for file in files {
            let mut part = reqwest::blocking::multipart::Part::bytes(file.bytes.to_vec())
                .file_name(file.name.to_owned());
            if let Some(content_type) = file.content_type {
                part = part.mime_str(content_type).expect("a content type");
            }
            form = form.part(file.name.to_owned(), part);
        }
        let mut request = self.http.request(method, format!("{}{}", self.base_url, path)).multipart(form);
        if let Some(host) = &self.host {
            request = request.header("Host", host);
        }
        if let Some(creds) = auth {
            request = request.basic_auth(&creds.email, Some(&creds.api_key));
        }
        let response = request.send().expect("the server answers");
        let status = response.status().as_u16();
        let text = response.text().expect("a body");
        let body = serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON ({status}): {text}"));
        Reply { status, body }
    }

    /// What a queue holds now (a fetch with `dont_block`), given register's answer. The whole
    /// body, with `events` and `queue_id`.
    pub fn queued(&self, who: &Creds, registered: &Value) -> Value {
        let queue_id = registered["queue_id"].as_str().expect("register answered a queue_id");
        self.get("/events", Some(who), &[("queue_id", queue_id), ("dont_block", "true")]).ok()
    }

    /// Subscribes users (by email) to channels (by name, created if new), as `admin`.
    pub fn subscribe(&self, admin: &Creds, channels: &[&str], emails: &[&str]) {
        let channels: Vec<Value> = channels.iter().map(|name| serde_json::json!({"name": name})).collect();
        let subscriptions = Value::Array(channels).to_string();
        let principals = serde_json::json!(emails).to_string();
        let params = [("subscriptions", subscriptions.as_str()), ("principals", principals.as_str())];
        self.post("/users/me/subscriptions", Some(admin), &params).ok();
    }

    /// Creates a user as `admin` and fetches its key with its password.
    /// The id of the account these credentials belong to.
    pub fn user_id(&self, who: &Creds) -> u64 {
        self.get("/users/me", Some(who), &[]).ok()["user_id"].as_u64().expect("user_id")
    }

    pub fn create_user(&self, admin: &Creds, email: &str, full_name: &str) -> Creds {
        self.post(
            "/users",
            Some(admin),
            &[("email", email), ("password", "s3cret-pass"), ("full_name", full_name)],
        )
        .ok();
        let body =
            self.post("/fetch_api_key", None, &[("username", email), ("password", "s3cret-pass")]).ok();
        Creds { email: email.to_owned(), api_key: body["api_key"].as_str().expect("api_key").to_owned() }
    }
}

/// The workspace's root directory.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ is inside the workspace").to_owned()
}

/// The target directory: `CARGO_TARGET_DIR` when set, else the workspace's `target/`.
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| workspace_root().join("target"))
}
