//! Math through the real server: `$$…$$` and ```` ```math ```` blocks render with the server's
//! KaTeX (the `katex` crate) to KaTeX's HTML and MathML wrapped as Zulip wraps them, and
//! what KaTeX rejects renders as a `tex-error` span with the source; the same through the
//! unmodified Python client. (That the browser renders the same bytes is tested in Chromium by
//! `www_client.rs`'s math test.)

use confab_tests::{Api, Creds, TestServer, python};

/// Zulip's own rendering of `intro text\n$$p+q =4$$` (its KaTeX test cases), which KaTeX
/// 0.16.4 gives byte for byte.
const ZULIP_INLINE: &str = "<p>intro text<br>\n<span class=\"katex\"><span class=\"katex-mathml\"><math xmlns=\"http://www.w3.org/1998/Math/MathML\"><semantics><mrow><mi>p</mi><mo>+</mo><mi>q</mi><mo>=</mo><mn>4</mn></mrow><annotation encoding=\"application/x-tex\">p+q =4</annotation></semantics></math></span><span class=\"katex-html\" aria-hidden=\"true\"><span class=\"base\"><span class=\"strut\" style=\"height:0.7778em;vertical-align:-0.1944em;\"></span><span class=\"mord mathnormal\">p</span><span class=\"mspace\" style=\"margin-right:0.2222em;\"></span><span class=\"mbin\">+</span><span class=\"mspace\" style=\"margin-right:0.2222em;\"></span></span><span class=\"base\"><span class=\"strut\" style=\"height:0.625em;vertical-align:-0.1944em;\"></span><span class=\"mord mathnormal\" style=\"margin-right:0.03588em;\">q</span><span class=\"mspace\" style=\"margin-right:0.2778em;\"></span><span class=\"mrel\">=</span><span class=\"mspace\" style=\"margin-right:0.2778em;\"></span></span><span class=\"base\"><span class=\"strut\" style=\"height:0.6444em;\"></span><span class=\"mord\">4</span></span></span></span></p>";

/// Sends `content` to general and returns its `rendered_content` as stored.
fn rendered(api: &Api, who: &Creds, content: &str) -> String {
    let sent = api
        .post(
            "/messages",
            Some(who),
            &[("type", "stream"), ("to", "general"), ("topic", "math"), ("content", content)],
        )
        .ok();
    let id = sent["id"].as_u64().expect("message id");
    let message = api.get(&format!("/messages/{id}"), Some(who), &[]).ok();
    message["message"]["content"].as_str().expect("rendered content").to_owned()
}

#[test]
fn inline_math_renders_as_zulip_renders_it() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let (api, owner) = (server.api(), server.owner());
    assert_eq!(rendered(&api, &owner, "intro text\n$$p+q =4$$"), ZULIP_INLINE);
}

#[test]
fn a_math_block_is_display_math_per_paragraph_in_one_paragraph() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let (api, owner) = (server.api(), server.owner());
    let html = rendered(&api, &owner, "```math\nc + x = 6\n\n\\frac{1}{\n```");
    let (first, second) = html.split_once("\n\n").expect("two paragraphs, a blank line apart");
    assert!(first.starts_with("<p><span class=\"katex-display\"><span class=\"katex\"><span class=\"katex-mathml\"><math xmlns=\"http://www.w3.org/1998/Math/MathML\" display=\"block\">"), "{html}");
    assert!(first.contains("<annotation encoding=\"application/x-tex\">c + x = 6</annotation>"), "{html}");
    assert!(first.ends_with("</span></span></span>"), "{html}");
    // KaTeX rejects the second paragraph: its source alone is shown.
    assert_eq!(second, "<span class=\"tex-error\">\\frac{1}{</span></p>");
}

#[test]
fn rejected_math_shows_its_source_and_previews_agree() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let (api, owner) = (server.api(), server.owner());
    assert_eq!(
        rendered(&api, &owner, "a $$\\undefinedcommand<b>$$ c"),
        "<p>a <span class=\"tex-error\">$$\\undefinedcommand&lt;b&gt;$$</span> c</p>"
    );
    let preview = api.post("/messages/render", Some(&owner), &[("content", "intro text\n$$p+q =4$$")]).ok();
    assert_eq!(preview["rendered"], ZULIP_INLINE);
}

#[test]
fn the_python_client_sends_and_reads_math() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let zuliprc = server.data_dir.join("zuliprc");
    let output = python::run_script("tex_messages.py", &[zuliprc.to_str().expect("utf-8 path")]);
    assert!(output.status.success(), "the Python client's checks failed (see its output above)");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains(" passed, 0 failed"), "{stdout}");
}
