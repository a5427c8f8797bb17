//! Syntax highlighting: agreement with Pygments per language, and what highlighting costs.
//!
//! 1. The corpus (`tests/corpus/highlighting/<language>/`) lexed by Confab and by Pygments
//!    (installed from PyPI into the test environment): per language, the share of non-whitespace
//!    characters given the same CSS class (`confab_tests::highlighting`).
//! 2. Rendering 100 code-heavy messages in-process (two corpus snippets each), with languages
//!    on the fences (highlighted) and without (each block only escaped: what these messages
//!    cost before highlighting).
//! 3. The same 100 messages over HTTP on a release server: `POST /messages` (where rendering
//!    happens; the HTML is stored) and `GET /messages` for the 100, which reads the stored
//!    HTML and renders nothing.
//!
//! Run: `cargo bench -p confab-tests --bench highlighting`. Prints figures, asserts nothing.

use std::hint::black_box;
use std::time::{Duration, Instant};

use confab_core::markdown::{OrganizationSnapshot, render};
use confab_tests::highlighting::{Snippet, agreement, corpus, corpus_dir, pygments_tokens, table};
use confab_tests::{TestServer, python, workspace_root};
use serde_json::json;

const MESSAGES: usize = 100;
const RENDER_PASSES: usize = 20;
const FETCHES: usize = 200;

fn main() {
    let workspace = workspace_root();
    let snippets = corpus(&corpus_dir(&workspace));
    let (version, tokens) = pygments_tokens(&python::python(), &workspace, &snippets);
    let (per_language, overall) = agreement(&snippets, &tokens);
    println!("Agreement with Pygments {version} (non-whitespace characters given the same class):\n");
    println!("{}", table(&per_language, &overall));

    let highlighted = messages(&snippets, true);
    let plain = messages(&snippets, false);
    let kb = |messages: &[String]| messages.iter().map(String::len).sum::<usize>() as f64 / 1e3;
    println!(
        "{MESSAGES} code-heavy messages: {:.0} KB of Markdown, two code blocks each\n",
        kb(&highlighted)
    );

    let organization = OrganizationSnapshot::default();
    let html_kb = |messages: &[String]| {
        messages.iter().map(|m| render(m, &organization).html.len()).sum::<usize>() as f64 / 1e3
    };
    let render_all = |messages: &[String]| {
        median((0..RENDER_PASSES).map(|_| {
            let start = Instant::now();
            for message in messages {
                black_box(render(message, &organization));
            }
            start.elapsed()
        }))
    };
    let (with, without) = (render_all(&highlighted), render_all(&plain));
    println!("In-process rendering of the {MESSAGES} (median of {RENDER_PASSES} passes):");
    println!(
        "  highlighted: {:>7.2} ms ({:.0} µs a message, {:.0} KB of HTML)",
        ms(with),
        us(with) / MESSAGES as f64,
        html_kb(&highlighted)
    );
    println!(
        "  no language: {:>7.2} ms ({:.0} µs a message, {:.0} KB of HTML)",
        ms(without),
        us(without) / MESSAGES as f64,
        html_kb(&plain)
    );
    println!("  ratio {:.2}\n", with.as_secs_f64() / without.as_secs_f64());

    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    api.subscribe(&owner, &["code"], &[owner.email.as_str()]);
    let send_all = |topic: &str, messages: &[String]| {
        let mut times: Vec<Duration> = messages
            .iter()
            .map(|content| {
                let start = Instant::now();
                let params =
                    [("type", "stream"), ("to", "code"), ("topic", topic), ("content", content.as_str())];
                api.post("/messages", Some(&owner), &params).ok();
                start.elapsed()
            })
            .collect();
        times.sort();
        (times.iter().sum::<Duration>(), times[times.len() / 2])
    };
    // Timed to the last byte of the answer, as a client receives it; parsed (to check it)
    // outside the timing.
    let http = reqwest::blocking::Client::new();
    let fetch_all = |topic: &str| {
        let narrow = json!([["channel", "code"], ["topic", topic]]).to_string();
        let params =
            [("anchor", "newest"), ("num_before", "100"), ("num_after", "0"), ("narrow", narrow.as_str())];
        let mut bytes = 0;
        let time = median((0..FETCHES).map(|_| {
            let start = Instant::now();
            let body = http
                .get(format!("{}/messages", api.base_url))
                .basic_auth(&owner.email, Some(&owner.api_key))
                .query(&params)
                .send()
                .and_then(|r| r.bytes())
                .expect("GET /messages answers");
            let took = start.elapsed();
            let answer: serde_json::Value = serde_json::from_slice(&body).expect("JSON");
            assert_eq!(answer["messages"].as_array().map(Vec::len), Some(MESSAGES));
            bytes = body.len();
            took
        }));
        (time, bytes)
    };
    // Warm up the connection and the server's caches.
    send_all("warm-up", &plain[..5]);
    let (send_plain, send_plain_median) = send_all("no language", &plain);
    let (send_highlighted, send_highlighted_median) = send_all("highlighted", &highlighted);
    let (get_plain, plain_bytes) = fetch_all("no language");
    let (get_highlighted, highlighted_bytes) = fetch_all("highlighted");
    println!("Over HTTP (release server, loopback):");
    println!(
        "  POST /messages, 100 sends: highlighted {:.1} ms (median {:.2} ms a send), no language {:.1} ms (median {:.2} ms)",
        ms(send_highlighted),
        ms(send_highlighted_median),
        ms(send_plain),
        ms(send_plain_median)
    );
    println!(
        "  GET /messages for the 100 (median of {FETCHES}): highlighted {:.2} ms ({:.0} KB), no language {:.2} ms ({:.0} KB); ratio {:.2} (goal ≤ 2)",
        ms(get_highlighted),
        highlighted_bytes as f64 / 1e3,
        ms(get_plain),
        plain_bytes as f64 / 1e3,
        get_highlighted.as_secs_f64() / get_plain.as_secs_f64()
    );
}

/// `MESSAGES` messages of two fenced blocks each, cycling through the corpus; with or
/// without the language on the fence.
fn messages(snippets: &[Snippet], with_language: bool) -> Vec<String> {
    (0..MESSAGES)
        .map(|i| {
            let block = |s: &Snippet| {
                let language = if with_language { s.language.as_str() } else { "" };
                format!("````{language}\n{}````", s.code)
            };
            let first = &snippets[i % snippets.len()];
            let second = &snippets[(i * 7 + 3) % snippets.len()];
            format!(
                "Here is what I have so far:\n{}\nand the other half:\n{}\nThoughts?",
                block(first),
                block(second)
            )
        })
        .collect()
}

fn median(times: impl Iterator<Item = Duration>) -> Duration {
    let mut times: Vec<Duration> = times.collect();
    times.sort();
    times[times.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}
