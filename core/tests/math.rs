//! Math goes through the context's KaTeX and is wrapped as Zulip wraps it: inline math in its
//! paragraph, a math block's paragraphs in one `<p>`, and `tex-error` spans for what KaTeX
//! rejects. A fake KaTeX stands in (the servers' and browsers' real one is tested over HTTP
//! and in Chromium by confab-tests).

#[macro_use]
#[path = "common/delegate_markdown_context.rs"]
mod delegate_markdown_context;

use confab_core::markdown::{MarkdownContext, MathRenderer, OrganizationSnapshot, render};

/// Accepts any TeX without `\bad`, marking the mode it was asked for.
struct FakeKatex;

impl MathRenderer for FakeKatex {
    fn render(&self, tex: &str, display: bool) -> Option<String> {
        let class = if display { "katex-display" } else { "katex" };
        (!tex.contains("\\bad")).then(|| format!("<span class=\"{class}\">[{tex}]</span>"))
    }
}

/// An empty organization whose KaTeX is [`FakeKatex`].
struct WithKatex(OrganizationSnapshot);

impl MarkdownContext for WithKatex {
    delegate_markdown_context!();
    fn math_renderer(&self) -> Option<&dyn MathRenderer> {
        Some(&FakeKatex)
    }
}

fn html(source: &str) -> String {
    render(source, &WithKatex(OrganizationSnapshot::default())).html
}

#[test]
fn inline_math_is_katex_html_inside_its_paragraph() {
    assert_eq!(
        html("I *think* $$e^{i\\pi} = -1$$ holds"),
        "<p>I <em>think</em> <span class=\"katex\">[e^{i\\pi} = -1]</span> holds</p>"
    );
    assert_eq!(
        html("intro text\n$$p+q =4$$\n$$x<y$$"),
        "<p>intro text<br>\n<span class=\"katex\">[p+q =4]</span><br>\n<span class=\"katex\">[x<y]</span></p>"
    );
}

#[test]
fn rejected_inline_math_shows_its_source() {
    assert_eq!(
        html("see $$\\bad<x>$$ here"),
        "<p>see <span class=\"tex-error\">$$\\bad&lt;x&gt;$$</span> here</p>"
    );
    // A code span inside the dollars is another pattern's: KaTeX never sees a placeholder.
    assert_eq!(html("$$a `b` c$$"), "<p><span class=\"tex-error\">$$a <code>b</code> c$$</span></p>");
}

#[test]
fn a_math_block_is_one_paragraph_of_display_math() {
    assert_eq!(
        html("hello world\n\n```math\nc + x = 6\n\nc + a = 00\n```\n\nhi there"),
        "<p>hello world</p>\n<p><span class=\"katex-display\">[c + x = 6]</span>\n\n\
         <span class=\"katex-display\">[c + a = 00]</span></p>\n<p>hi there</p>"
    );
    // Zulip splits at every blank line: a run of newlines leaves empty formulas.
    assert_eq!(
        html("```math\na\n\n\n\nb\n```"),
        "<p><span class=\"katex-display\">[a]</span>\n\n<span class=\"katex-display\">[]</span>\n\n\
         <span class=\"katex-display\">[b]</span></p>"
    );
}

#[test]
fn a_rejected_paragraph_of_a_block_is_a_tex_error_alone() {
    assert_eq!(
        html("```math\nx^2\n\n\\bad & 'y'\n```"),
        "<p><span class=\"katex-display\">[x^2]</span>\n\n<span class=\"tex-error\">\\bad &amp; &#x27;y&#x27;</span></p>"
    );
}

#[test]
fn without_katex_all_math_is_shown_as_source() {
    let plain = OrganizationSnapshot::default();
    assert!(confab_core::markdown::installed_math_renderer().is_none());
    assert_eq!(render("$$x$$", &plain).html, "<p><span class=\"tex-error\">$$x$$</span></p>");
    assert_eq!(render("```math\nx\n```", &plain).html, "<p><span class=\"tex-error\">x</span></p>");
}
