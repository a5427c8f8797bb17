//! Golden tests of Zulip-flavoured Markdown: every case in `markdown/cases.jsonl` is rendered
//! against one small organization and must give exactly the recorded HTML and facts (mentions,
//! wildcards, links, images, uploads, `/me`). The shapes were checked against Zulip's renderer
//! and its test fixtures; see the module documentation of `confab_core::markdown`.
//!
//! To re-record after an intended change, run with `UPDATE_EXPECT=1` and review the diff.

#[macro_use]
#[path = "common/delegate_markdown_context.rs"]
mod delegate_markdown_context;

use std::collections::BTreeSet;
use std::path::PathBuf;

use confab_core::markdown::{
    CustomEmoji, Linkifier, MarkdownContext, MentionGroup, MentionStream, MentionUser, Rendering, TopicLink,
    alert_word_hits, render, topic_links, validate_linkifier,
};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

/// The organization every case renders in.
struct Org {
    linkifiers: Vec<Linkifier>,
}

fn user(id: u64, full_name: &str, is_active: bool) -> MentionUser {
    MentionUser {
        id,
        full_name: full_name.to_owned(),
        email: format!("user{id}@chat.example.com"),
        is_active,
    }
}

impl Org {
    fn new() -> Org {
        let linkifier = |id, pattern: &str, url_template: &str| Linkifier {
            id,
            pattern: pattern.to_owned(),
            url_template: url_template.to_owned(),
        };
        Org {
            linkifiers: vec![
                linkifier(1, "#(?P<id>[0-9]{2,8})", "https://trac.example.com/ticket/{id}"),
                linkifier(
                    2,
                    "(?P<project>[A-Z]{2,5})-(?P<num>[0-9]+)",
                    "https://jira.example.com/browse/{project}-{num}",
                ),
                linkifier(3, "search:(?P<q>[a-z ]+);", "https://search.example.com/{?q}"),
            ],
        }
    }

    fn users() -> Vec<MentionUser> {
        vec![
            user(10, "Ada Lovelace", true),
            user(11, "Bob Builder", true),
            user(20, "Mark Twin", true),
            user(21, "Mark Twin", true),
            user(30, "Old Timer", false),
            user(31, "Atomic #123", true),
        ]
    }
}

impl MarkdownContext for Org {
    fn user_by_id(&self, id: u64) -> Option<MentionUser> {
        Org::users().into_iter().find(|u| u.id == id)
    }

    fn users_by_full_name(&self, name: &str) -> Vec<MentionUser> {
        Org::users().into_iter().filter(|u| u.full_name.to_lowercase() == name.to_lowercase()).collect()
    }

    fn group_by_name(&self, name: &str) -> Option<MentionGroup> {
        let group = |id, name: &str, members: &[u64], is_deactivated| MentionGroup {
            id,
            name: name.to_owned(),
            members: members.to_vec(),
            is_deactivated,
        };
        match name.to_lowercase().as_str() {
            "support" => Some(group(5, "support", &[10, 11], false)),
            "legacy" => Some(group(6, "legacy", &[30], true)),
            "role:administrators" => Some(group(7, "Administrators", &[10], false)),
            _ => None,
        }
    }

    fn stream_by_name(&self, name: &str) -> Option<MentionStream> {
        let id = match name {
            "general" => 1,
            "design team" => 2,
            "Q&A" => 3,
            "CaseSens" => 4,
            _ => return None,
        };
        Some(MentionStream { id, name: name.to_owned() })
    }

    fn custom_emoji(&self, name: &str) -> Option<CustomEmoji> {
        (name == "green_tick").then(|| CustomEmoji {
            id: 1,
            name: name.to_owned(),
            source_url: "/user_avatars/2/emoji/images/1.png".to_owned(),
        })
    }

    fn linkifiers(&self) -> &[Linkifier] {
        &self.linkifiers
    }

    fn realm_url(&self) -> &str {
        "https://chat.example.com"
    }

    /// `#general > lunch plans` has messages, the newest 42; no other topic has any.
    fn latest_message_in_topic(&self, stream_id: u64, topic: &str) -> Option<u64> {
        (stream_id == 1 && topic.to_lowercase() == "lunch plans").then_some(42)
    }
}

fn cases_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/markdown/cases.jsonl")
}

/// The facts of a rendering that differ from the defaults, as the case file records them.
fn facts(rendering: &Rendering) -> Map<String, Value> {
    let mut facts = Map::new();
    let ids = |set: &BTreeSet<u64>| json!(set.iter().collect::<Vec<_>>());
    if !rendering.mentioned_user_ids.is_empty() {
        facts.insert("user_ids".into(), ids(&rendering.mentioned_user_ids));
    }
    if !rendering.mentioned_group_ids.is_empty() {
        facts.insert("group_ids".into(), ids(&rendering.mentioned_group_ids));
    }
    if !rendering.mentioned_group_member_ids.is_empty() {
        facts.insert("group_member_ids".into(), ids(&rendering.mentioned_group_member_ids));
    }
    for (name, value) in [
        ("stream_wildcard", rendering.stream_wildcard),
        ("topic_wildcard", rendering.topic_wildcard),
        ("has_link", rendering.has_link),
        ("has_image", rendering.has_image),
        ("has_attachment", rendering.has_attachment),
        ("me", rendering.is_me_message),
    ] {
        if value {
            facts.insert(name.into(), json!(true));
        }
    }
    if !rendering.user_upload_paths.is_empty() {
        facts.insert("uploads".into(), json!(rendering.user_upload_paths));
    }
    facts
}

#[test]
fn golden_cases() {
    let org = Org::new();
    let text = std::fs::read_to_string(cases_path()).expect("cases file");
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut names = BTreeSet::new();
    let mut failures = Vec::new();
    let mut updated = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let case: Map<String, Value> = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("line {}: not a JSON object: {e}", number + 1));
        let name = case["name"].as_str().expect("name").to_owned();
        let input = case["input"].as_str().expect("input").to_owned();
        assert!(names.insert(name.clone()), "duplicate case name {name}");
        let rendering = render(&input, &org);
        let got_facts = facts(&rendering);
        if update {
            // Written by hand so the fields keep a readable order.
            updated.push(format!(
                "{{\"name\":{},\"input\":{},\"html\":{},\"facts\":{}}}",
                json!(name),
                json!(input),
                json!(rendering.html),
                Value::Object(got_facts)
            ));
            continue;
        }
        let expected_html = case.get("html").and_then(Value::as_str).unwrap_or_default();
        let expected_facts = case.get("facts").and_then(Value::as_object).cloned().unwrap_or_default();
        if rendering.html != expected_html {
            failures.push(format!(
                "{name}\n  input:    {input:?}\n  expected: {expected_html:?}\n  got:      {:?}",
                rendering.html
            ));
        }
        if got_facts != expected_facts {
            failures.push(format!(
                "{name}: facts\n  expected: {}\n  got:      {}",
                Value::Object(expected_facts),
                Value::Object(got_facts)
            ));
        }
    }
    if update {
        std::fs::write(cases_path(), updated.join("\n") + "\n").expect("write cases");
        return;
    }
    assert!(names.len() > 150, "the case file lost cases ({})", names.len());
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n\n{}",
        failures.len(),
        names.len(),
        failures.join("\n\n")
    );
}

#[test]
fn alert_words_skip_code_blocks_and_need_boundaries() {
    let org = Org::new();
    let words = vec![
        (1, vec!["Deploy".to_owned()]),
        (2, vec!["outage".to_owned()]),
        (3, vec!["release train".to_owned()]),
        (4, vec!["prod".to_owned()]),
    ];
    let hits = |content: &str| alert_word_hits(&render(content, &org), &words);
    assert_eq!(hits("We DEPLOY at noon"), BTreeSet::from([1]));
    assert_eq!(hits("```\noutage\n```\nall quiet"), BTreeSet::new());
    assert_eq!(hits("`outage` in inline code counts"), BTreeSet::from([2]));
    assert_eq!(hits("the release train, leaving"), BTreeSet::from([3]));
    assert_eq!(hits("production is fine"), BTreeSet::new());
    assert_eq!(hits("(prod) and *deploy*"), BTreeSet::from([1, 4]));
    assert_eq!(hits("> quoted outage"), BTreeSet::from([2]));
    assert_eq!(hits("say \"prod\" loudly"), BTreeSet::new());
}

#[test]
fn topic_links_follow_zulip() {
    let org = Org::new();
    let link = |text: &str, url: &str| TopicLink { text: text.to_owned(), url: url.to_owned() };
    assert_eq!(topic_links("no links here", org.linkifiers()), []);
    assert_eq!(
        topic_links("#4242 crash, see ABC-12", org.linkifiers()),
        [
            link("#4242", "https://trac.example.com/ticket/4242"),
            link("ABC-12", "https://jira.example.com/browse/ABC-12"),
        ]
    );
    assert_eq!(
        topic_links("docs at example.org/guide and http://x.example.com", org.linkifiers()),
        [
            link("example.org/guide", "https://example.org/guide"),
            link("http://x.example.com", "http://x.example.com")
        ]
    );
    assert_eq!(topic_links("word#12 is not a ticket", org.linkifiers()), []);
    assert_eq!(
        topic_links("search:pizza place; ok", org.linkifiers()),
        [link("search:pizza place;", "https://search.example.com/?q=pizza%20place")]
    );
}

#[test]
fn linkifier_validation_messages_are_zulips() {
    assert_eq!(validate_linkifier("#(?P<id>[0-9]+)", "https://trac.example.com/ticket/{id}"), Ok(()));
    assert_eq!(validate_linkifier("ABC", "https://example.com/"), Ok(()));
    assert_eq!(
        validate_linkifier("#(?P<id>[0-9]+)", "https://trac.example.com/{id"),
        Err("Invalid URL template.".to_owned())
    );
    assert_eq!(
        validate_linkifier("#(?P<id>[0-9]+", "https://trac.example.com/ticket/{id}"),
        Err("Bad regular expression: unclosed group".to_owned())
    );
    assert_eq!(
        validate_linkifier("#(?P<id>[0-9]+", "https://trac.example.com/{id"),
        Err("Invalid URL template.".to_owned())
    );
    assert_eq!(
        validate_linkifier("#(?P<id>[0-9]+)", "https://trac.example.com/{id}/{other}"),
        Err("Group 'other' in URL template is not present in linkifier pattern.".to_owned())
    );
    assert_eq!(
        validate_linkifier("(?P<b>x)(?P<a>y)", "https://example.com/"),
        Err("Group 'a' in linkifier pattern is not present in URL template.".to_owned())
    );
}

/// The organization's default code block language applies to fences without one (not inside
/// spoilers, as in Zulip).
#[test]
fn default_code_block_language_applies() {
    struct WithDefault(Org);
    impl MarkdownContext for WithDefault {
        delegate_markdown_context!();
        fn default_code_block_language(&self) -> Option<&str> {
            Some("Python")
        }
    }
    let org = WithDefault(Org::new());
    let frame = |lang: &str, class: &str| {
        format!(
            "<div class=\"codehilite\" data-code-language=\"{lang}\"><pre><span></span><code><span class=\"{class}\">x</span>\n</code></pre></div>"
        )
    };
    assert_eq!(render("```\nx\n```", &org).html, frame("Python", "n"));
    assert_eq!(render("```js\nx\n```", &org).html, frame("JavaScript", "nx"));
    assert_eq!(
        render("````quote\n```\nx\n```\n\n````", &org).html,
        format!("<blockquote>\n{}\n</blockquote>", frame("Python", "n"))
    );
    assert!(!render("```\nx\n```", &Org::new()).html.contains("data-code-language"));
}

/// Deep nesting is bounded: it renders on a small stack (WebAssembly's is 1 MiB).
#[test]
fn deep_nesting_renders_on_a_small_stack() {
    let inputs = [
        ">".repeat(5000),
        (0..100).map(|i| format!("{}* x", "  ".repeat(i))).collect::<Vec<_>>().join("\n"),
        (0..100).map(|i| format!("{}1. x", "> ".repeat(i))).collect::<Vec<_>>().join("\n"),
        "```quote\n".repeat(300) + "**a *b ~~c~~* :smile: @**Ada Lovelace** [l](https://x.example.com)**",
    ];
    let renders = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || inputs.iter().all(|input| !render(input, &Org::new()).html.is_empty()))
        .expect("thread")
        .join();
    assert!(matches!(renders, Ok(true)));
}

/// Text made of Markdown's special characters, so the generator reaches the parsers' corners.
fn markdownish() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "*",
        "**",
        "_",
        "`",
        "```",
        "~~~",
        "$$",
        "\n",
        "\n\n",
        " ",
        "  ",
        "    ",
        ">",
        "> ",
        "#",
        "# ",
        "1. ",
        "* ",
        "- ",
        "|",
        "---",
        "[",
        "]",
        "(",
        ")",
        "<",
        ">",
        "&",
        "&amp;",
        "@",
        "@**",
        "@_**",
        "@*",
        "#**",
        ">",
        "@",
        ":",
        ":smile:",
        ":+1:",
        "http://",
        "https://x.example.com/",
        "www.",
        ".com",
        "a@b.com",
        "/",
        "\"",
        "'",
        "\\",
        "<time:",
        "2024-01-01T10:00Z",
        "```quote\n",
        "```spoiler ",
        "```math\n",
        "```py\n",
        "Ada Lovelace",
        "support",
        "general",
        ">topic",
        "@12",
        "😀",
        "\u{200d}",
        "\u{fe0f}",
        "#12",
        "ABC-12",
        "\t",
        "\r\n",
        "é",
        "\u{F0000}",
        "\u{100000}",
        "x",
        "word",
        "/user_uploads/1/a.png",
        ".png",
        "youtube.com/watch?v=abc",
    ]);
    prop::collection::vec(pieces, 0..40).prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_text_renders(text in any::<String>()) {
        let rendering = render(&text, &Org::new());
        prop_assert!(rendering.html.len() <= 64 * text.len() + 64);
    }

    #[test]
    fn markdownish_text_renders(text in markdownish()) {
        let org = Org::new();
        let rendering = render(&text, &org);
        let _ = alert_word_hits(&rendering, &[(1, vec!["word".to_owned()])]);
        let _ = topic_links(&text, org.linkifiers());
        prop_assert!(!rendering.html.contains("<script"));
    }

    #[test]
    fn arbitrary_linkifiers_validate_or_fail_cleanly(pattern in ".{0,30}", template in ".{0,30}") {
        let _ = validate_linkifier(&pattern, &template);
    }

    /// Any linkifier that validates renders and yields topic links on any text.
    #[test]
    fn valid_linkifiers_render(
        group in prop::sample::select(vec![".+", "[a-z]*", "\\w+", "é|ü+", "[^ ]{1,3}", "x?"]),
        template in prop::sample::select(vec![
            "https://x.example.com/{v}", "{+v}", "{#v}", "https://x.example.com/{v:2}", "/{?v}", "{/v*}", "%41{v}",
        ]),
        text in "[a-zé #%{}:/?*_()\\[\\]<>&\"'😀\u{0301}\n]{0,40}",
    ) {
        let pattern = format!("(?P<v>{group})");
        prop_assume!(validate_linkifier(&pattern, template).is_ok());
        let linkifiers = vec![Linkifier { id: 9, pattern, url_template: template.to_owned() }];
        let org = Org { linkifiers };
        let _ = render(&text, &org);
        let _ = topic_links(&text, org.linkifiers());
    }
}
