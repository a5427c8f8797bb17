//! A web service on loopback for outgoing webhooks to call: it records each request's JSON
//! body and answers with the next of its canned answers (status and body), one per connection.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::mpsc;
use std::time::Duration;

use serde_json::Value;

pub struct FakeService {
    /// Where to post: `http://127.0.0.1:PORT/hook`.
    pub url: String,
    /// Each request's body, in the order they came.
    pub received: mpsc::Receiver<Value>,
}

impl FakeService {
    /// Answers one request with each of `answers`, then stops listening.
    pub fn start(answers: Vec<(u16, &'static str)>) -> FakeService {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let url = format!("http://{}/hook", listener.local_addr().expect("address"));
        let (record, received) = mpsc::channel();
        std::thread::spawn(move || {
            for (stream, (status, body)) in listener.incoming().zip(answers) {
                let mut stream = stream.expect("connection");
                let mut reader = BufReader::new(stream.try_clone().expect("clone"));
                let mut length = 0;
                loop {
                    let mut line = String::new();
                    reader.read_line(&mut line).expect("header");
                    if line.trim().is_empty() {
                        break;
                    }
                    if let Some((name, value)) = line.split_once(':')
                        && name.eq_ignore_ascii_case("content-length")
                    {
                        length = value.trim().parse().expect("length");
                    }
                }
                let mut request = vec![0; length];
                reader.read_exact(&mut request).expect("body");
                let _ = record.send(serde_json::from_slice(&request).unwrap_or(Value::Null));
                let reply = format!(
                    "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
                stream.write_all(reply.as_bytes()).expect("answer");
            }
        });
        FakeService { url, received }
    }

    /// The next request's body, waiting up to a minute for it.
    pub fn next(&self) -> Value {
        self.received.recv_timeout(Duration::from_secs(60)).expect("the server posted to the service")
    }
}
