//! Zulip-flavoured Markdown: the HTML Zulip's server renders for a message, with the classes,
//! data attributes and attribute order Zulip's clients style and parse, and the facts that
//! drive flags (mentions, wildcards), narrows (`has:link`, `has:image`, `has:attachment`) and
//! attachments.
//!
//! # Pipeline
//!
//! Zulip renders with Python-Markdown plus its own extensions; this module follows that
//! pipeline step for step so that edge cases come out the same:
//!
//! 1. line preprocessors (`preprocess.rs`): a blank line before lists that hang off a
//!    paragraph; whitespace normalization (tabs to 4 columns);
//! 2. fenced blocks (`fence.rs`): code and math become finished HTML, quotes become `> ` lines,
//!    spoilers become HTML frames around Markdown;
//! 3. blocks (`block.rs`): paragraphs, `#` headings, lists, quotes, tables, rules, 4-space code;
//! 4. inline patterns in Zulip's priority order (`inline/`), over each block's text;
//! 5. newlines between blocks (`tree.rs`), then link facts and image previews (`preview.rs`);
//! 6. serialization with sorted attributes (`tree.rs`).
//!
//! Raw HTML is never passed through: it is shown as typed. Only links with safe schemes are
//! made (`url.rs`); links to the organization's own `#narrow` views and uploads are relative.
//!
//! # Choices
//!
//! - **Syntax highlighting by our own grammars, not Pygments.** Code blocks have Zulip's frame
//!   and `data-code-language` (the Pygments lexer name for the language, from a generated
//!   table), and for the languages we have a grammar for (`highlight/languages/`), Pygments'
//!   token `<span>`s with its short classes. Each grammar is written to tokenize as Pygments'
//!   lexer does; `cargo bench -p confab-tests --bench highlighting` measures the agreement.
//!   Other languages Pygments knows get no spans (Zulip would highlight them).
//! - **KaTeX from the host** (`math.rs`). `$$…$$` and ```` ```math ```` blocks are KaTeX's
//!   HTML and MathML, made by a [`MathRenderer`] the host supplies at [`KATEX_VERSION`] (the
//!   server: the `katex` crate; the browser: the `katex` npm package), called as Zulip calls
//!   it (`displayMode` for blocks, no other option). Inline math is KaTeX's `<span
//!   class="katex">`; a block is one `<p>` holding each of its paragraphs' `<span
//!   class="katex-display">`, a blank line apart. What KaTeX rejects, or all math where no
//!   renderer is installed, is shown as Zulip shows it: `<span class="tex-error">$$…$$</span>`
//!   inline, a `tex-error` span per paragraph in a block.
//! - **No network.** Previews are made for image, video and YouTube links only (no Dropbox,
//!   tweets or page embeds), without a Camo proxy. Uploaded images are previewed as
//!   Zulip 9+ previews them once thumbnailed, from what `MarkdownContext::uploaded_image` says
//!   (see `preview.rs`).
//!
//! # Differences from Zulip
//!
//! - `<time:…>` accepts ISO 8601, UNIX seconds, `YYYYMMDD[hhmm[ss]]` and common written dates
//!   (see `inline/time.rs`), not all of `dateutil`; text without a full date is an error (Zulip
//!   would use today's date).
//! - Emoticons (`:)`) are not translated (a per-sender setting we do not receive).
//! - `![alt](url)` is not an image (an audio file's is an audio player, as in Zulip).
//! - Code blocks' `hl_lines` option (in a `:::lang hl_lines="1"` header) is ignored.
//! - Linkifier patterns use the `regex` crate (RE2-like; `\d`, `\w`, `\s` are Unicode-aware),
//!   and its error texts follow `Bad regular expression: …`.
//! - Python-Markdown re-runs all patterns on the children of nested emphasis; we run each text
//!   through the patterns once.
//! - Inline patterns run in one pass each (`inline/mod.rs`), not by searching again from the
//!   start after every match: the same result (a property test compares the two), in linear
//!   time. One exception: a code span that starts inside a run of backticks (after `\`) makes
//!   the pass start over, as the rest of the run may now close an earlier span. Still
//!   superlinear, and bounded only by the 10,000-character message: unclosed `[` (each link
//!   looks for its `]` to the end) and `**` across a line.
//! - Bounds Zulip does not have (it relies on a 5-second timeout): block nesting deeper than 64
//!   levels renders as paragraphs, fences nested deeper than 32 are text, and a bare URL ends
//!   where an earlier pattern's result begins (Zulip would put a placeholder into the href).
//! - Linkifier URL templates are validated with iri-string but expanded here (RFC 6570 level
//!   4): iri-string 0.7 panics expanding `{+var}` with non-ASCII values.

mod alert;
mod block;
mod context;
mod data;
mod fence;
mod highlight;
mod inline;
mod linkifier;
mod math;
mod preprocess;
mod preview;
mod snapshot;
mod tree;
mod url;

pub use alert::alert_word_hits;
pub use context::{
    CustomEmoji, Linkifier, MarkdownContext, MentionGroup, MentionStream, MentionUser, Rendering, TopicLink,
};
pub use context::{UploadLookup, UploadedImage};
pub use inline::emoji::{codepoint_to_name as unicode_emoji_name, name_to_codepoint as unicode_emoji_code};
pub use linkifier::{template_variables, topic_links, validate_linkifier};
pub use math::{KATEX_VERSION, MathRenderer, install_math_renderer, installed_math_renderer};
pub use snapshot::{OrganizationSnapshot, TopicLatest, render_description};

/// The highlighter's tokens for `code` in a code block's language (any alias Pygments knows,
/// as in ```` ```py ````): `(class, text)` pairs, `class` being Pygments' short CSS class
/// (`"k"`, `"nf"`; `""` for plain text). The code is taken as Pygments takes it: without
/// leading and trailing newlines, and with one newline added. `None` for a language that is not
/// highlighted.
pub fn code_tokens(language: &str, code: &str) -> Option<Vec<(&'static str, String)>> {
    let code = format!("{}\n", code.trim_matches('\n'));
    let lexer = fence::code_language_name(&language.to_lowercase()).to_owned();
    let tokens = highlight::tokens(&lexer, &code)?;
    Some(tokens.into_iter().map(|(token, text)| (token.class(), text.to_owned())).collect())
}

/// Every Zulip emoji name and alias with its codepoint (lowercase hex, `-`-joined, without
/// U+FE0F), sorted by name: the catalogue typeaheads and pickers choose from.
pub fn unicode_emoji_catalogue() -> &'static [(&'static str, &'static str)] {
    data::emoji::NAME_TO_CODEPOINT
}

use fence::{HtmlStash, code_block_html};
use tree::{Kind, Node, Tree};

/// Renders a message's Markdown as Zulip does, with the facts about it.
pub fn render(content: &str, ctx: &impl MarkdownContext) -> Rendering {
    render_dyn(content, ctx)
}

fn render_dyn(content: &str, ctx: &dyn MarkdownContext) -> Rendering {
    let mut rendering = Rendering { is_me_message: content.starts_with("/me "), ..Rendering::default() };
    if content.trim().is_empty() {
        return rendering;
    }
    // Private-use characters of the two planes we use as placeholders cannot be typed into
    // the text as markers.
    let content: String = content
        .chars()
        .map(|c| if (0xF_0000..=0x10_FFFF).contains(&(c as u32)) { '\u{FFFD}' } else { c })
        .collect();

    let lines: Vec<String> = content.split('\n').map(str::to_owned).collect();
    let lines = preprocess::normalize_whitespace(preprocess::hanging_lists(lines));
    let mut html = HtmlStash::default();
    let lines =
        fence::fenced_blocks(lines, ctx.default_code_block_language(), ctx.math_renderer(), &mut html);
    rendering.alert_text = lines
        .iter()
        .map(|l| l.chars().map(|c| if HtmlStash::is_marker(c) { '\u{2}' } else { c }).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n");

    let mut tree = Tree::new();
    block::parse_document(&mut tree, &lines);
    highlight_indented_code(&mut tree);

    let linkifiers = linkifier::compile_all(ctx.linkifiers());
    let mut engine = inline::Engine::new(ctx, &linkifiers, &html);
    engine.run(&mut tree);
    let facts = std::mem::take(&mut engine.facts);
    let realm_url = engine.realm_url.to_owned();
    drop(engine);

    tree.prettify();
    let links = preview::inline_previews(&mut tree, &realm_url, ctx);
    rendering.html = tree.to_html();
    rendering.mentioned_user_ids = facts.mentioned_user_ids;
    rendering.mentioned_group_ids = facts.mentioned_group_ids;
    rendering.mentioned_group_member_ids = facts.mentioned_group_member_ids;
    rendering.stream_wildcard = facts.stream_wildcard;
    rendering.topic_wildcard = facts.topic_wildcard;
    rendering.has_link = links.has_link;
    rendering.has_image = links.has_image;
    rendering.has_attachment = !links.user_upload_paths.is_empty();
    rendering.user_upload_paths = links.user_upload_paths;
    rendering
}

/// Indented code blocks get the same frame as fenced ones (Python-Markdown's codehilite step):
/// the `<pre>` becomes a paragraph holding the finished HTML.
fn highlight_indented_code(tree: &mut Tree) {
    for id in 0..tree.nodes.len() {
        let node = &tree.nodes[id];
        if node.kind != Kind::Element("pre") || node.children.len() != 1 {
            continue;
        }
        let code = node.children[0];
        if !tree.is(code, "code") {
            continue;
        }
        let html = code_block_html(None, &tree.nodes[code].text, true);
        tree.remove(code);
        let raw = tree.add(Node::raw(html));
        tree.nodes[id].kind = Kind::Element("p");
        tree.insert(id, 0, raw);
    }
}
