//! Rendering time of pathological Markdown: inputs built to make a renderer backtrack, rescan
//! or nest (emphasis, code spans, links, quotes, lists, mentions, linkifiers...), each at two
//! sizes. A linear renderer shows the same time per KB at both sizes; a ratio well above 1
//! names the pattern that is superlinear.
//!
//! Run: `cargo bench -p confab-core --bench markdown_pathological`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use confab_core::markdown::{Linkifier, MentionStream, MentionUser, OrganizationSnapshot, render};

/// The two sizes, in bytes: the message length cap (10,000 characters) and eight times it.
const SIZES: [usize; 2] = [10_000, 80_000];

fn organization() -> OrganizationSnapshot {
    let mut organization = OrganizationSnapshot::default();
    organization.users = vec![MentionUser {
        id: 10,
        full_name: "Ada Lovelace".into(),
        email: "ada@example.com".into(),
        is_active: true,
    }];
    organization.streams = vec![MentionStream { id: 1, name: "general".into() }];
    organization.linkifiers = vec![
        Linkifier {
            id: 1,
            pattern: "#(?P<id>[0-9]{2,8})".into(),
            url_template: "https://t.example/{id}".into(),
        },
        Linkifier {
            id: 2,
            pattern: "(?P<p>[A-Z]{2,5})-(?P<n>[0-9]+)".into(),
            url_template: "https://j.example/{p}-{n}".into(),
        },
    ];
    organization.realm_url = "https://chat.example.com".into();
    organization
}

/// `unit` repeated to `size` bytes.
fn repeat(unit: &str, size: usize) -> String {
    unit.repeat(size.div_ceil(unit.len()))
}

/// `open` and `close` nested around a word until the text is `size` bytes.
fn nest(open: &str, close: &str, size: usize) -> String {
    let depth = size / (open.len() + close.len());
    format!("{}x{}", open.repeat(depth), close.repeat(depth))
}

/// Builds an input of about the given size.
type Build = fn(usize) -> String;

/// Each input by name, built for a size.
fn inputs() -> Vec<(&'static str, Build)> {
    vec![
        ("plain words", |n| repeat("word ", n)),
        ("emphasis", |n| repeat("*a* ", n)),
        ("emphasis nested", |n| nest("*a ", " b*", n)),
        ("emphasis unclosed", |n| repeat("*a ", n)),
        ("strong", |n| repeat("**a** ", n)),
        ("strong unclosed", |n| repeat("**a ", n)),
        ("strong emphasis", |n| repeat("***a*** ", n)),
        ("strikethrough", |n| repeat("~~a~~ ", n)),
        ("lone asterisks", |n| repeat(" * ", n)),
        ("code spans", |n| repeat("`a` ", n)),
        ("code spans unclosed", |n| repeat("`` a ", n)),
        ("backslashes and backticks", |n| repeat("\\\\`", n)),
        ("links", |n| repeat("[a](http://b.c) ", n)),
        ("links unclosed", |n| repeat("[a](", n)),
        ("brackets nested", |n| nest("[", "]", n)),
        ("brackets open", |n| repeat("[", n)),
        ("bare URLs", |n| repeat("http://a.com/ ", n)),
        ("mentions", |n| repeat("@**Ada Lovelace** ", n)),
        ("mentions unknown", |n| repeat("@**nobody** ", n)),
        ("mentions unclosed", |n| repeat("@**a ", n)),
        ("channel links", |n| repeat("#**general** ", n)),
        ("linkifiers", |n| repeat("#123 AB-1 ", n)),
        ("emoji", |n| repeat(":smile: ", n)),
        ("emoji unknown", |n| repeat(":nope: ", n)),
        ("colons", |n| repeat(":", n)),
        ("times", |n| repeat("<time:2024-01-01T10:00:00Z> ", n)),
        ("math", |n| repeat("$$x$$ ", n)),
        ("dollars", |n| repeat("$$", n)),
        ("entities", |n| repeat("&amp; ", n)),
        ("line breaks", |n| repeat("a\n", n)),
        ("paragraphs", |n| repeat("a\n\n", n)),
        ("quotes nested", |n| repeat("> ", n)),
        ("quote lines", |n| repeat("> a\n", n)),
        ("lists nested", |n| {
            let mut s = String::new();
            let mut depth = 0;
            while s.len() < n {
                s.push_str(&" ".repeat(depth * 4));
                s.push_str("* a\n");
                depth = (depth + 1) % 40;
            }
            s
        }),
        ("list items", |n| repeat("* a\n", n)),
        ("fences unclosed", |n| repeat("```\n", n)),
        ("fences nested quotes", |n| repeat("````quote\n", n)),
        ("table rows", |n| format!("a|b\n-|-\n{}", repeat("1|2\n", n))),
        ("headings", |n| repeat("# a\n", n)),
        ("spoilers", |n| repeat("```spoiler a\nb\n```\n", n)),
        ("long word", |n| repeat("a", n)),
    ]
}

/// The median time of rendering `text`, over enough runs to take about 200 ms.
fn time(text: &str, organization: &OrganizationSnapshot) -> Duration {
    let start = Instant::now();
    black_box(render(black_box(text), organization));
    let once = start.elapsed();
    let runs = (Duration::from_millis(200).as_nanos() / once.as_nanos().max(1)).clamp(1, 200) as usize;
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            black_box(render(black_box(text), organization));
            start.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

fn main() {
    let organization = organization();
    let [small, large] = SIZES;
    println!(
        "{:<28} {:>12} {:>12} {:>7}",
        "input",
        format!("µs/KB @{}K", small / 1000),
        format!("µs/KB @{}K", large / 1000),
        "ratio"
    );
    for (name, build) in inputs() {
        let per_kb = |size: usize| {
            let text = build(size);
            time(&text, &organization).as_secs_f64() * 1e6 / (text.len() as f64 / 1000.0)
        };
        let (a, b) = (per_kb(small), per_kb(large));
        println!("{name:<28} {a:>12.1} {b:>12.1} {:>7.2}", b / a);
    }
}
