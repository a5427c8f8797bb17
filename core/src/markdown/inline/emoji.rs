//! Emoji: `:name:` with Zulip's names and aliases, the organization's custom emoji, `:zulip:`,
//! and Unicode emoji typed directly, all shown as Zulip's emoji elements.

use std::sync::LazyLock;

use regex::Regex;

use super::{Elem, Engine, Found, Stashed};
use crate::markdown::data::emoji::{CODEPOINT_TO_NAME, NAME_TO_CODEPOINT};

static EMOJI_NAME_RE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r":[\w\-+]+:").expect("static regex"));

/// Unicode's emoji sequence grammar (UTS #51), as Zulip's `POSSIBLE_EMOJI_RE`.
static POSSIBLE_EMOJI_RE: LazyLock<Regex> = LazyLock::new(|| {
    let element = r"(?:\p{RI}\p{RI}|\p{Emoji}(?:\p{Emoji_Modifier}|\x{FE0F}\x{20E3}?|[\x{E0020}-\x{E007E}]+\x{E007F})?)";
    Regex::new(&format!(r"{element}(?:\x{{200D}}{element})*")).expect("static regex")
});

/// A single character shown as text by default (optionally with a keycap mark): not an emoji
/// unless written with U+FE0F.
static TEXT_PRESENTATION_RE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\P{Emoji_Presentation}\x{20E3}?$").expect("static regex"));

/// The codepoint of a Zulip emoji name or alias.
pub fn name_to_codepoint(name: &str) -> Option<&'static str> {
    NAME_TO_CODEPOINT.binary_search_by(|(n, _)| (*n).cmp(name)).ok().map(|i| NAME_TO_CODEPOINT[i].1)
}

/// The canonical name of an emoji codepoint.
pub fn codepoint_to_name(codepoint: &str) -> Option<&'static str> {
    CODEPOINT_TO_NAME.binary_search_by(|(c, _)| (*c).cmp(codepoint)).ok().map(|i| CODEPOINT_TO_NAME[i].1)
}

/// `<span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span>`
fn emoji_span(codepoint: &str, display: &str) -> Elem {
    let title = display.trim_matches(':').replace('_', " ");
    Elem::atomic("span", display)
        .attr("class", format!("emoji emoji-{codepoint}"))
        .attr("title", title.clone())
        .attr("role", "img")
        .attr("aria-label", title)
}

/// `<img alt=":name:" class="emoji" src="…" title="name">`
fn image_emoji(src: &str, display: &str) -> Elem {
    Elem::atomic("img", "")
        .attr("src", src)
        .attr("class", "emoji")
        .attr("alt", display)
        .attr("title", display.trim_matches(':').replace('_', " "))
}

impl Engine<'_> {
    /// `:name:`: custom emoji first, then `:zulip:`, then Zulip's names; an unknown name stays as
    /// typed (and out of reach of later patterns, as in Zulip).
    pub(super) fn emoji(&mut self, data: &str, from: usize) -> Option<Found> {
        let m = EMOJI_NAME_RE.find_at(data, from)?;
        let syntax = m.as_str();
        let name = &syntax[1..syntax.len() - 1];
        let node = if let Some(custom) = self.ctx.custom_emoji(name) {
            Stashed::Element(image_emoji(&custom.source_url, syntax))
        } else if name == "zulip" {
            Stashed::Element(image_emoji("/static/generated/emoji/images/emoji/unicode/zulip.png", syntax))
        } else if let Some(codepoint) = name_to_codepoint(name) {
            Stashed::Element(emoji_span(codepoint, syntax))
        } else {
            Stashed::Text(syntax.to_owned())
        };
        Some(Found::new(m.start(), m.end(), node))
    }
}

/// Unicode emoji: known sequences become emoji spans named by their canonical name; text-style
/// symbols (digits, `©`, arrows without U+FE0F) and unknown sequences stay as typed.
pub(super) fn unicode_emoji(data: &str, from: usize) -> Option<Found> {
    let mut at = from;
    while let Some(m) = POSSIBLE_EMOJI_RE.find_at(data, at) {
        at = if m.end() > m.start() { m.end() } else { m.end() + 1 };
        let syntax = m.as_str();
        if TEXT_PRESENTATION_RE.is_match(syntax) {
            continue;
        }
        let codepoint = syntax
            .chars()
            .filter(|c| *c != '\u{FE0F}')
            .map(|c| format!("{:04x}", c as u32))
            .collect::<Vec<_>>()
            .join("-");
        if let Some(name) = codepoint_to_name(&codepoint) {
            let display = format!(":{name}:");
            return Some(Found::new(m.start(), m.end(), Stashed::Element(emoji_span(&codepoint, &display))));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_codepoints_resolve() {
        assert_eq!(name_to_codepoint("smile"), Some("1f642"));
        assert_eq!(name_to_codepoint("+1"), Some("1f44d"));
        assert_eq!(name_to_codepoint("thumbs_up"), Some("1f44d"));
        assert_eq!(name_to_codepoint("no_such_emoji"), None);
        assert_eq!(codepoint_to_name("1f937-200d-2640"), Some("woman_shrugging"));
    }

    #[test]
    fn unicode_emoji_skip_text_symbols() {
        let name = |s: &str| {
            unicode_emoji(s, 0).and_then(|f| match f.node {
                Stashed::Element(e) => Some(e.text),
                _ => None,
            })
        };
        assert_eq!(name("I ☕"), Some(":coffee:".to_owned()));
        assert_eq!(name("1 + 2 © ↔"), None);
        assert_eq!(name("#\u{FE0F}\u{20E3}"), Some(":hash:".to_owned()));
        assert_eq!(name("\u{2B06}\u{FE0F}"), Some(":up:".to_owned()));
    }
}
