//! Math (`$$…$$` inline, ```` ```math ```` blocks) as Zulip renders it: KaTeX's HTML and
//! MathML for what KaTeX accepts, a `tex-error` span with the source for what it rejects.
//!
//! Core does not run KaTeX: a host supplies it as a [`MathRenderer`]. The server runs the
//! `katex` crate (KaTeX in QuickJS), the browser the `katex` npm package, both at
//! [`KATEX_VERSION`], so that a message renders to the same bytes on both sides. A host
//! installs its renderer once for the process ([`install_math_renderer`]); every rendering
//! (messages, previews, descriptions) then uses it through [`MarkdownContext::math_renderer`],
//! which a context may override (tests use a fake). Without one, all math is a `tex-error`.
//!
//! [`MarkdownContext::math_renderer`]: super::MarkdownContext::math_renderer

use std::sync::OnceLock;

/// The KaTeX release both hosts run: its output is what Confab stores and compares.
pub const KATEX_VERSION: &str = "0.16.4";

/// KaTeX, as a host runs it.
pub trait MathRenderer: Send + Sync {
    /// KaTeX's `renderToString(tex, {displayMode: display})` with no other option, as
    /// Zulip's KaTeX service calls it; `None` when KaTeX rejects the input (a `ParseError`).
    fn render(&self, tex: &str, display: bool) -> Option<String>;
}

static INSTALLED: OnceLock<&'static dyn MathRenderer> = OnceLock::new();

/// Makes `renderer` the process's KaTeX. Only the first call counts: a process has one KaTeX,
/// so that its renderings agree. Returns whether this call installed it.
pub fn install_math_renderer(renderer: &'static dyn MathRenderer) -> bool {
    INSTALLED.set(renderer).is_ok()
}

/// The renderer installed for the process, if any.
pub fn installed_math_renderer() -> Option<&'static dyn MathRenderer> {
    INSTALLED.get().copied()
}

/// `$$tex$$` in a paragraph: KaTeX's inline HTML, or the source in a `tex-error` span (`None`:
/// the caller makes that span, escaping the source as text).
pub(crate) fn inline_html(tex: &str, renderer: Option<&dyn MathRenderer>) -> Option<String> {
    renderer?.render(tex, false)
}

/// A ```` ```math ```` block as Zulip's `format_tex` renders it: each paragraph (split at blank
/// lines, so runs of newlines leave empty paragraphs) in display mode, or as a `tex-error` span
/// with its source escaped as Django's `escape` does; paragraphs joined by a blank line.
pub(crate) fn block_html(text: &str, renderer: Option<&dyn MathRenderer>) -> String {
    text.split("\n\n")
        .map(|paragraph| match renderer.and_then(|r| r.render(paragraph, true)) {
            Some(html) => html,
            None => tex_error(paragraph),
        })
        .collect::<Vec<_>>()
        .join("\n\n")
}

fn tex_error(source: &str) -> String {
    let mut html = String::from("<span class=\"tex-error\">");
    for c in source.chars() {
        match c {
            '&' => html.push_str("&amp;"),
            '<' => html.push_str("&lt;"),
            '>' => html.push_str("&gt;"),
            '"' => html.push_str("&quot;"),
            '\'' => html.push_str("&#x27;"),
            _ => html.push(c),
        }
    }
    html.push_str("</span>");
    html
}

#[cfg(test)]
mod tests {
    use super::*;

    /// KaTeX's shape without KaTeX: accepts anything without `\bad`.
    struct FakeKatex;

    impl MathRenderer for FakeKatex {
        fn render(&self, tex: &str, display: bool) -> Option<String> {
            (!tex.contains("\\bad")).then(|| format!("<katex display={display}>{tex}</katex>"))
        }
    }

    #[test]
    fn a_block_renders_each_paragraph_in_display_mode() {
        assert_eq!(
            block_html("a\n\n\n\n\nb", Some(&FakeKatex)),
            "<katex display=true>a</katex>\n\n<katex display=true></katex>\n\n<katex display=true>\nb</katex>"
        );
    }

    #[test]
    fn a_rejected_paragraph_shows_its_source_alone() {
        assert_eq!(
            block_html("x<1\n\n\\bad & 'y'", Some(&FakeKatex)),
            "<katex display=true>x<1</katex>\n\n<span class=\"tex-error\">\\bad &amp; &#x27;y&#x27;</span>"
        );
    }

    #[test]
    fn without_a_renderer_everything_is_a_tex_error() {
        assert_eq!(
            block_html("a\n\nb", None),
            "<span class=\"tex-error\">a</span>\n\n<span class=\"tex-error\">b</span>"
        );
        assert_eq!(inline_html("a", None), None);
        assert_eq!(inline_html("a", Some(&FakeKatex)), Some("<katex display=false>a</katex>".to_owned()));
    }
}
