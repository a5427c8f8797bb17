//! Acceptance 3 of the integrations issue: a tus 1.0 client uploads a 30 MB file in chunks to
//! `/api/v1/tus`, one PATCH breaks off midway, and the client resumes from the offset the server
//! reports; the finished file downloads byte for byte.

use std::io::Write;
use std::net::TcpStream;

use confab_tests::{Creds, TestServer};
use reqwest::blocking::Client;
use serde_json::Value;

const LENGTH: usize = 30_000_000;
const CHUNK: usize = 5_000_000;

/// A tus client: every request names the protocol and carries API credentials.
struct Tus<'a> {
    http: Client,
    base: &'a str,
    who: &'a Creds,
}

impl Tus<'_> {
    fn request(&self, method: reqwest::Method, path: &str) -> reqwest::blocking::RequestBuilder {
        self.http
            .request(method, format!("{}{path}", self.base))
            .basic_auth(&self.who.email, Some(&self.who.api_key))
            .header("Tus-Resumable", "1.0.0")
    }

    fn offset(&self, location: &str) -> usize {
        let response = self.request(reqwest::Method::HEAD, location).send().expect("HEAD");
        assert_eq!(response.status().as_u16(), 200);
        response.headers()["Upload-Offset"].to_str().expect("text").parse().expect("number")
    }

    /// Sends the bytes from `offset` on; `None` while more is expected, the answer at the end.
    fn patch(&self, location: &str, offset: usize, bytes: &[u8]) -> (u16, Option<Value>) {
        let response = self
            .request(reqwest::Method::PATCH, location)
            .header("Upload-Offset", offset.to_string())
            .header("Content-Type", "application/offset+octet-stream")
            .body(bytes.to_vec())
            .send()
            .expect("PATCH");
        let status = response.status().as_u16();
        (status, if status == 200 { Some(response.json().expect("JSON")) } else { None })
    }
}

/// Starts a PATCH of `CHUNK` bytes and hangs up after sending fewer.
fn interrupted_patch(server: &TestServer, who: &Creds, location: &str, offset: usize, bytes: &[u8]) {
    let address = server.base_url.trim_start_matches("http://");
    let mut stream = TcpStream::connect(address).expect("connect");
    let credentials = base64_basic(&who.email, &who.api_key);
    let head = format!(
        "PATCH {location} HTTP/1.1\r\nHost: {address}\r\nAuthorization: Basic {credentials}\r\nTus-Resumable: 1.0.0\r\nUpload-Offset: {offset}\r\nContent-Type: application/offset+octet-stream\r\nContent-Length: {CHUNK}\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).expect("headers");
    stream.write_all(&bytes[..CHUNK / 2]).expect("half a chunk");
    drop(stream);
}

fn base64_basic(user: &str, password: &str) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let input = format!("{user}:{password}").into_bytes();
    let mut out = String::new();
    for chunk in input.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[test]
fn a_30_mb_file_uploads_in_chunks_and_resumes_after_an_interruption() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let tus = Tus { http: Client::new(), base: &server.base_url, who: &owner };
    let content: Vec<u8> = (0..LENGTH).map(|i| (i * 7 % 251) as u8).collect();

    let options = tus
        .http
        .request(reqwest::Method::OPTIONS, format!("{}/api/v1/tus", server.base_url))
        .send()
        .expect("OPTIONS");
    assert_eq!(options.headers()["Tus-Version"], "1.0.0");
    assert!(options.headers()["Tus-Extension"].to_str().expect("text").contains("creation"));

    let created = tus
        .request(reqwest::Method::POST, "/api/v1/tus")
        .header("Upload-Length", LENGTH.to_string())
        .header("Upload-Metadata", "filename YmlnLmJpbg==")
        .send()
        .expect("POST");
    assert_eq!(created.status().as_u16(), 201);
    let location = created.headers()["Location"].to_str().expect("text").to_owned();
    assert_eq!(tus.offset(&location), 0);

    let (status, _) = tus.patch(&location, 0, &content[..CHUNK]);
    assert_eq!(status, 204);
    assert_eq!(tus.offset(&location), CHUNK);
    interrupted_patch(&server, &owner, &location, CHUNK, &content[CHUNK..2 * CHUNK]);

    // Resume from what the server reports, as tus clients do; a stale offset answers 409 and
    // the client asks again.
    let mut answer = None;
    while answer.is_none() {
        let offset = tus.offset(&location);
        assert!(offset >= CHUNK, "the server lost acknowledged bytes: {offset}");
        let end = (offset + CHUNK).min(LENGTH);
        let (status, finished) = tus.patch(&location, offset, &content[offset..end]);
        assert!([200, 204, 409].contains(&status), "PATCH answered {status}");
        answer = finished;
    }
    let answer = answer.expect("the last PATCH answers the upload");
    assert_eq!(answer["filename"], "big.bin");
    let url = answer["url"].as_str().expect("url");
    let downloaded = tus
        .http
        .get(format!("{}{url}", server.base_url))
        .basic_auth(&owner.email, Some(&owner.api_key))
        .send()
        .expect("GET");
    assert_eq!(downloaded.status().as_u16(), 200);
    assert!(downloaded.bytes().expect("bytes").as_ref() == content.as_slice(), "the same 30 MB come back");

    let listed = server.api().get("/attachments", Some(&owner), &[]).ok();
    assert_eq!(listed["attachments"][0]["size"], LENGTH);
}

#[test]
fn tus_requests_are_checked() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let tus = Tus { http: Client::new(), base: &server.base_url, who: &owner };
    let no_version = tus
        .http
        .post(format!("{}/api/v1/tus", server.base_url))
        .basic_auth(&owner.email, Some(&owner.api_key))
        .header("Upload-Length", "10")
        .send()
        .expect("POST");
    assert_eq!(no_version.status().as_u16(), 412);
    let too_big = tus
        .request(reqwest::Method::POST, "/api/v1/tus")
        .header("Upload-Length", (101u64 * 1024 * 1024).to_string())
        .send()
        .expect("POST");
    assert_eq!(too_big.status().as_u16(), 413);
    let anonymous = Client::new()
        .post(format!("{}/api/v1/tus", server.base_url))
        .header("Tus-Resumable", "1.0.0")
        .header("Upload-Length", "10")
        .send()
        .expect("POST");
    assert_eq!(anonymous.status().as_u16(), 401);
    let created =
        tus.request(reqwest::Method::POST, "/api/v1/tus").header("Upload-Length", "10").send().expect("POST");
    let location = created.headers()["Location"].to_str().expect("text").to_owned();
    let (status, _) = tus.patch(&location, 3, b"abc");
    assert_eq!(status, 409, "an offset the server does not have");
    let wrong_type = tus
        .request(reqwest::Method::PATCH, &location)
        .header("Upload-Offset", "0")
        .header("Content-Type", "text/plain")
        .body("abc")
        .send()
        .expect("PATCH");
    assert_eq!(wrong_type.status().as_u16(), 415);
    let ada = server.api().create_user(&owner, "ada@example.com", "Ada");
    let other = Tus { http: Client::new(), base: &server.base_url, who: &ada };
    let head = other.request(reqwest::Method::HEAD, &location).send().expect("HEAD");
    assert_eq!(head.status().as_u16(), 404, "another user's upload is not there for them");
}
