//! Inline patterns, Python-Markdown style: the patterns run in Zulip's priority order over a
//! block's text; each match is replaced by a placeholder character standing for the node it
//! produced, so later patterns cannot match inside it. A node whose text is not atomic has its
//! text run through the patterns after the one that made it (so `**bold :smile:**` gets the
//! emoji, but `[**x**](url)` keeps its asterisks: link text is atomic). When every pattern has
//! run, the placeholders are expanded into tree nodes.
//!
//! Pattern order (Zulip's priorities): code spans, `***strong em***`, user mentions, `$$math$$`,
//! message links, topic links, channel links, `<time:…>`, group mentions, `[links](…)`, bare
//! URLs, linkifiers (in the organization's order), entities, `**strong**`, `*emphasis*`,
//! `~~strike~~`, lone `*`, `:emoji:`, line breaks, Unicode emoji.

mod autolink;
mod basic;
mod channel;
pub(crate) mod emoji;
mod link;
pub(crate) mod mention;
mod time;

use std::collections::BTreeSet;

pub(crate) use autolink::find_url;

use super::context::MarkdownContext;
use super::fence::HtmlStash;
use super::linkifier::CompiledLinkifier;
use super::tree::{Escape, Node, NodeId, Tree};
use super::url::{rewrite_local_links, sanitize_url};

/// First character of the private-use plane used for inline placeholders.
const PLACEHOLDER_BASE: u32 = 0xF_0000;
const PLACEHOLDER_LIMIT: usize = 0xFFFE;

pub(crate) fn is_placeholder(c: char) -> bool {
    (PLACEHOLDER_BASE..PLACEHOLDER_BASE + PLACEHOLDER_LIMIT as u32).contains(&(c as u32))
}

/// An inline element made by a pattern. Its text may hold placeholders of other nodes.
#[derive(Clone, Debug)]
pub(crate) struct Elem {
    pub(crate) tag: &'static str,
    pub(crate) attrs: Vec<(&'static str, String)>,
    pub(crate) text: String,
    /// Later patterns do not run on the text.
    pub(crate) atomic: bool,
    pub(crate) escape: Escape,
}

impl Elem {
    pub(crate) fn new(tag: &'static str, text: impl Into<String>) -> Elem {
        Elem { tag, attrs: Vec::new(), text: text.into(), atomic: false, escape: Escape::Text }
    }

    pub(crate) fn atomic(tag: &'static str, text: impl Into<String>) -> Elem {
        Elem { atomic: true, ..Elem::new(tag, text) }
    }

    pub(crate) fn attr(mut self, name: &'static str, value: impl Into<String>) -> Elem {
        self.attrs.push((name, value.into()));
        self
    }
}

/// What a placeholder stands for.
#[derive(Clone, Debug)]
pub(crate) enum Stashed {
    Element(Elem),
    /// Text kept as typed, out of reach of later patterns.
    Text(String),
    /// HTML written verbatim.
    Raw(String),
}

/// A match: the byte range it replaces and what replaces it.
pub(crate) struct Found {
    start: usize,
    end: usize,
    node: Stashed,
}

impl Found {
    pub(crate) fn new(start: usize, end: usize, node: Stashed) -> Found {
        Found { start, end, node }
    }
}

/// The facts inline patterns collect for the rendering result.
#[derive(Debug, Default)]
pub(crate) struct Facts {
    pub(crate) mentioned_user_ids: BTreeSet<u64>,
    pub(crate) mentioned_group_ids: BTreeSet<u64>,
    pub(crate) mentioned_group_member_ids: BTreeSet<u64>,
    pub(crate) stream_wildcard: bool,
    pub(crate) topic_wildcard: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pattern {
    Backtick,
    StrongEm,
    UserMention,
    Tex,
    MessageLink,
    TopicLink,
    ChannelLink,
    Timestamp,
    GroupMention,
    Link,
    AutoLink,
    Linkifier(usize),
    Entity,
    Strong,
    Emphasis,
    Del,
    NotStrong,
    Emoji,
    LineBreak,
    UnicodeEmoji,
}

impl Pattern {
    /// Whether a match of this pattern can never include a placeholder or be made possible by
    /// one, so that searching may resume after the last match.
    fn is_local(self) -> bool {
        matches!(
            self,
            Pattern::AutoLink | Pattern::Entity | Pattern::Emoji | Pattern::LineBreak | Pattern::UnicodeEmoji
        )
    }
}

pub(crate) struct Engine<'a> {
    pub(crate) ctx: &'a dyn MarkdownContext,
    pub(crate) realm_url: &'a str,
    linkifiers: &'a [CompiledLinkifier],
    html: &'a HtmlStash,
    patterns: Vec<Pattern>,
    stash: Vec<Stashed>,
    pub(crate) facts: Facts,
}

impl<'a> Engine<'a> {
    pub(crate) fn new(
        ctx: &'a dyn MarkdownContext,
        linkifiers: &'a [CompiledLinkifier],
        html: &'a HtmlStash,
    ) -> Engine<'a> {
        use Pattern::*;
        let mut patterns = vec![
            Backtick,
            StrongEm,
            UserMention,
            Tex,
            MessageLink,
            TopicLink,
            ChannelLink,
            Timestamp,
            GroupMention,
            Link,
            AutoLink,
        ];
        patterns.extend((0..linkifiers.len()).map(Linkifier));
        patterns.extend([Entity, Strong, Emphasis, Del, NotStrong, Emoji, LineBreak, UnicodeEmoji]);
        Engine {
            ctx,
            realm_url: ctx.realm_url().trim_end_matches('/'),
            linkifiers,
            html,
            patterns,
            stash: Vec::new(),
            facts: Facts::default(),
        }
    }

    /// Runs every inline pattern over the texts and tails of the block tree and expands the
    /// results into nodes.
    pub(crate) fn run(&mut self, tree: &mut Tree) {
        let mut jobs = Vec::new();
        for id in 0..tree.nodes.len() {
            let node = &tree.nodes[id];
            if node.parent.is_none() && id != super::tree::ROOT {
                continue;
            }
            if !node.atomic && !node.text.is_empty() && matches!(node.kind, super::tree::Kind::Element(_)) {
                jobs.push((id, true));
            }
            if !node.tail.is_empty() && id != super::tree::ROOT {
                jobs.push((id, false));
            }
        }
        for (id, is_text) in jobs {
            if is_text {
                let text = std::mem::take(&mut tree.nodes[id].text);
                let processed = self.handle(text, 0);
                let (lead, nodes) = self.materialize(tree, &processed);
                tree.nodes[id].text = lead;
                for (i, child) in nodes.into_iter().enumerate() {
                    tree.insert(id, i, child);
                }
            } else {
                let tail = std::mem::take(&mut tree.nodes[id].tail);
                let processed = self.handle(tail, 0);
                let (lead, nodes) = self.materialize(tree, &processed);
                tree.nodes[id].tail = lead;
                if let (Some(parent), Some(at)) = (tree.nodes[id].parent, tree.index_in_parent(id)) {
                    for (i, child) in nodes.into_iter().enumerate() {
                        tree.insert(parent, at + 1 + i, child);
                    }
                }
            }
        }
    }

    /// Applies the patterns from `first` on, each as often as it matches.
    fn handle(&mut self, text: String, first: usize) -> String {
        let mut data = text;
        let mut index = first;
        // Like Python-Markdown, a pattern searches again from the start after each match (a
        // match can enable an earlier one: `*a *b* c*`). Patterns whose matches cannot contain
        // or be enabled by a placeholder resume after the last one instead; same result.
        let mut resume = 0;
        while index < self.patterns.len() {
            if self.stash.len() >= PLACEHOLDER_LIMIT {
                break;
            }
            match self.apply(index, &data, resume) {
                Some((next, after)) => {
                    data = next;
                    resume = if self.patterns[index].is_local() { after } else { 0 };
                }
                None => {
                    index += 1;
                    resume = 0;
                }
            }
        }
        data
    }

    /// Applies a pattern once: the text with the match replaced, and the offset after the
    /// placeholder.
    fn apply(&mut self, index: usize, data: &str, from: usize) -> Option<(String, usize)> {
        let found = match self.patterns[index] {
            Pattern::Backtick => basic::backtick(data),
            Pattern::StrongEm => self.strong_em(data, index),
            Pattern::UserMention => self.user_mention(data),
            Pattern::Tex => basic::tex(data),
            Pattern::MessageLink => self.message_link(data),
            Pattern::TopicLink => self.topic_link(data),
            Pattern::ChannelLink => self.channel_link(data),
            Pattern::Timestamp => time::timestamp(data),
            Pattern::GroupMention => self.group_mention(data),
            Pattern::Link => self.link(data),
            Pattern::AutoLink => self.autolink(data, from),
            Pattern::Linkifier(i) => self.linkifier(data, i),
            Pattern::Entity => basic::entity(data, from),
            Pattern::Strong => basic::strong(data),
            Pattern::Emphasis => basic::emphasis(data),
            Pattern::Del => basic::del(data),
            Pattern::NotStrong => basic::not_strong(data),
            Pattern::Emoji => self.emoji(data, from),
            Pattern::LineBreak => basic::line_break(data, from),
            Pattern::UnicodeEmoji => emoji::unicode_emoji(data, from),
        }?;
        let Found { start, end, mut node } = found;
        // A match made only of placeholders would be replaced by a placeholder forever.
        if data[start..end].chars().all(|c| is_placeholder(c) || HtmlStash::is_marker(c)) {
            return None;
        }
        if let Stashed::Element(elem) = &mut node
            && !elem.atomic
        {
            elem.text = self.handle(std::mem::take(&mut elem.text), index + 1);
        }
        let placeholder = self.stash_node(node)?;
        let mut next = String::with_capacity(data.len());
        next.push_str(&data[..start]);
        next.push(placeholder);
        next.push_str(&data[end..]);
        Some((next, start + placeholder.len_utf8()))
    }

    /// Stores a node and returns its placeholder (none when the stash is full).
    pub(crate) fn stash_node(&mut self, node: Stashed) -> Option<char> {
        if self.stash.len() >= PLACEHOLDER_LIMIT {
            return None;
        }
        let c = char::from_u32(PLACEHOLDER_BASE + self.stash.len() as u32)?;
        self.stash.push(node);
        Some(c)
    }

    /// The text content of a string with placeholders (Python-Markdown's `unescape`).
    pub(crate) fn plain_text(&self, text: &str) -> String {
        let mut out = String::new();
        for c in text.chars() {
            if is_placeholder(c) {
                match self.stash.get((c as u32 - PLACEHOLDER_BASE) as usize) {
                    Some(Stashed::Text(s)) => out.push_str(s),
                    Some(Stashed::Element(e)) => out.push_str(&self.plain_text(&e.text)),
                    Some(Stashed::Raw(_)) | None => {}
                }
            } else {
                out.push(c);
            }
        }
        out
    }

    /// Turns a string with placeholders into its leading text and the nodes after it (each node's
    /// tail holds the text that follows it).
    fn materialize(&mut self, tree: &mut Tree, text: &str) -> (String, Vec<NodeId>) {
        let mut lead = String::new();
        let mut nodes: Vec<NodeId> = Vec::new();
        let mut push_text = |tree: &mut Tree, nodes: &[NodeId], s: &str| match nodes.last() {
            Some(last) => tree.nodes[*last].tail.push_str(s),
            None => lead.push_str(s),
        };
        for c in text.chars() {
            if is_placeholder(c) {
                let index = (c as u32 - PLACEHOLDER_BASE) as usize;
                let Some(entry) = self.stash.get_mut(index) else { continue };
                match std::mem::replace(entry, Stashed::Text(String::new())) {
                    Stashed::Text(s) => push_text(tree, &nodes, &s),
                    Stashed::Raw(html) => nodes.push(tree.add(Node::raw(html))),
                    Stashed::Element(elem) => {
                        let id = tree.add(Node {
                            attrs: elem.attrs,
                            atomic: true,
                            escape: elem.escape,
                            ..Node::element(elem.tag)
                        });
                        let (inner_lead, inner) = self.materialize(tree, &elem.text);
                        tree.nodes[id].text = inner_lead;
                        for (i, child) in inner.into_iter().enumerate() {
                            tree.insert(id, i, child);
                        }
                        nodes.push(id);
                    }
                }
            } else if HtmlStash::is_marker(c) {
                let html = self.html.get(c).unwrap_or_default().to_owned();
                nodes.push(tree.add(Node::raw(html)));
            } else {
                let mut buf = [0u8; 4];
                push_text(tree, &nodes, c.encode_utf8(&mut buf));
            }
        }
        (lead, nodes)
    }

    /// A linkifier: the first match whose URL is safe links the matched text.
    fn linkifier(&mut self, data: &str, index: usize) -> Option<Found> {
        let linkifier = self.linkifiers.get(index)?;
        for captures in linkifier.regex.captures_iter(data) {
            let Some((start, end)) = CompiledLinkifier::actual(&captures) else { continue };
            if start == end {
                continue;
            }
            let Some(url) = linkifier.url(&captures) else { continue };
            let Some(a) = self.url_to_a(&url, data[start..end].to_owned()) else { continue };
            return Some(Found::new(start, end, Stashed::Element(a)));
        }
        None
    }

    /// Zulip's `url_to_a`: a link to a sanitized URL, or `None` for an unsafe one.
    pub(crate) fn url_to_a(&self, url: &str, text: String) -> Option<Elem> {
        let href = rewrite_local_links(self.realm_url, sanitize_url(url)?);
        Some(Elem::atomic("a", text).attr("href", href))
    }
}

/// The character before byte `pos`.
pub(crate) fn char_before(data: &str, pos: usize) -> Option<char> {
    data[..pos].chars().next_back()
}

/// Python's `\s` (`str.isspace`).
pub(crate) fn is_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Python's `\w`.
pub(crate) fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Zulip's `BEFORE_MENTION_ALLOWED_REGEX`: mentions and channel links start a string, follow
/// whitespace, or follow one of `'"({[/<`.
pub(crate) fn mention_may_start(data: &str, pos: usize) -> bool {
    char_before(data, pos).is_none_or(|c| is_space(c) || "'\"({[/<".contains(c))
}
