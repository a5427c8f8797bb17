//! Markdown to HTML. This is CommonMark through pulldown-cmark with Zulip's safety rules (raw
//! HTML shown as text, only safe link schemes); Zulip's own syntax (mentions, channel links,
//! emoji, spoilers, ...) arrives with the messages issue and is layered on these events.

use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, html};

/// A rendering and the facts about it that drive flags and narrows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rendered {
    pub html: String,
    pub has_link: bool,
    pub has_image: bool,
}

/// Link schemes Zulip's sanitizer lets through; anything else renders as plain text.
fn is_safe_url(url: &str) -> bool {
    let lower = url.trim().to_ascii_lowercase();
    match lower.split_once(':') {
        // No scheme (relative link) or a scheme-like prefix after a path separator.
        None => true,
        Some((scheme, _)) if scheme.contains('/') || scheme.contains('?') || scheme.contains('#') => true,
        Some((scheme, _)) => {
            matches!(scheme, "http" | "https" | "mailto" | "ftp" | "irc" | "ircs" | "tel" | "xmpp")
        }
    }
}

/// Drops the line break an HTML block's text ends with, so it closes its paragraph as Zulip's
/// does (`<p>text</p>`, not `<p>text\n</p>`).
fn trim_before_paragraph_ends(mut events: Vec<Event<'_>>) -> Vec<Event<'_>> {
    for i in 1..events.len() {
        if matches!(events[i], Event::End(pulldown_cmark::TagEnd::Paragraph))
            && let Event::Text(text) = &events[i - 1]
            && text.ends_with('\n')
        {
            let trimmed = text.trim_end_matches('\n').to_owned();
            events[i - 1] = Event::Text(CowStr::from(trimmed));
        }
    }
    events
}

/// Renders Markdown source to HTML.
pub fn render_markdown(source: &str) -> Rendered {
    let mut rendered = Rendered::default();
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let mut suppressed_link_depth = 0usize;
    let events: Vec<Event<'_>> = Parser::new_ext(source, options)
        .filter_map(|event| match event {
            // Zulip never passes raw HTML through: it is shown as typed, an HTML block as a
            // paragraph of text.
            Event::Html(text) | Event::InlineHtml(text) => Some(Event::Text(text)),
            Event::Start(Tag::HtmlBlock) => Some(Event::Start(Tag::Paragraph)),
            Event::End(pulldown_cmark::TagEnd::HtmlBlock) => {
                Some(Event::End(pulldown_cmark::TagEnd::Paragraph))
            }
            Event::Start(Tag::Link { link_type, dest_url, title, id }) => {
                if is_safe_url(&dest_url) {
                    rendered.has_link = true;
                    Some(Event::Start(Tag::Link { link_type, dest_url, title, id }))
                } else {
                    suppressed_link_depth += 1;
                    None
                }
            }
            Event::End(pulldown_cmark::TagEnd::Link) if suppressed_link_depth > 0 => {
                suppressed_link_depth -= 1;
                None
            }
            Event::Start(Tag::Image { link_type, dest_url, title, id }) => {
                if is_safe_url(&dest_url) {
                    rendered.has_image = true;
                    rendered.has_link = true;
                    Some(Event::Start(Tag::Image { link_type, dest_url, title, id }))
                } else {
                    Some(Event::Start(Tag::Image { link_type, dest_url: CowStr::from(""), title, id }))
                }
            }
            other => Some(other),
        })
        .collect();
    let events = trim_before_paragraph_ends(events);
    html::push_html(&mut rendered.html, events.into_iter());
    let trimmed = rendered.html.trim_end().len();
    rendered.html.truncate(trimmed);
    rendered
}

#[cfg(test)]
mod tests {
    use super::render_markdown;

    #[test]
    fn renders_commonmark_with_zulip_safety() {
        let cases: &[(&str, &str)] = &[
            ("hello", "<p>hello</p>"),
            ("**bold** _it_", "<p><strong>bold</strong> <em>it</em></p>"),
            ("<script>alert(1)</script>", "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>"),
            ("[x](javascript:alert(1))", "<p>x</p>"),
            ("[x](https://example.com)", "<p><a href=\"https://example.com\">x</a></p>"),
        ];
        for (source, html) in cases {
            assert_eq!(render_markdown(source).html, *html, "source {source:?}");
        }
    }

    #[test]
    fn reports_links_and_images() {
        assert!(render_markdown("[a](https://x.org)").has_link);
        let image = render_markdown("![a](https://x.org/a.png)");
        assert!(image.has_image && image.has_link);
        assert!(!render_markdown("plain").has_link);
    }
}
