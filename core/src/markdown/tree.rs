//! The document tree and its HTML serialization, with Python-Markdown's conventions (Zulip's
//! renderer is built on it): an element has `text` before its first child and each child has a
//! `tail` after it; attributes are written sorted by name; void elements are not closed; block
//! elements are separated by newlines (`prettify`).
//!
//! Nodes live in an arena and are addressed by [`NodeId`], so passes that insert or remove
//! nodes (inline patterns, image previews) can keep references across mutations.

/// An index into [`Tree::nodes`].
pub(crate) type NodeId = usize;

/// How a node's `text` is escaped when written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Escape {
    /// `&` (unless it already starts an entity), `<` and `>`: Python-Markdown's text escaping.
    Text,
    /// Every `&`, `<` and `>`: code, whose entities are shown as typed.
    Code,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Element(&'static str),
    /// HTML written verbatim (entities, fenced blocks, spoiler frames, math errors). When it is
    /// the only content of a paragraph and starts with a block-level tag, it replaces the
    /// paragraph, as Python-Markdown's raw-HTML postprocessor does.
    Raw(String),
}

#[derive(Clone, Debug)]
pub(crate) struct Node {
    pub(crate) kind: Kind,
    pub(crate) attrs: Vec<(&'static str, String)>,
    pub(crate) text: String,
    /// Inline patterns do not run on this node's text (code, links, mentions, ...).
    pub(crate) atomic: bool,
    pub(crate) escape: Escape,
    pub(crate) tail: String,
    pub(crate) children: Vec<NodeId>,
    pub(crate) parent: Option<NodeId>,
}

/// The document: node 0 is the root `div` whose children are the top-level blocks.
#[derive(Debug)]
pub(crate) struct Tree {
    pub(crate) nodes: Vec<Node>,
}

pub(crate) const ROOT: NodeId = 0;

/// Python-Markdown's block-level tags: they get newlines around them and end inline previews'
/// search for a paragraph.
pub(crate) fn is_block_level(tag: &str) -> bool {
    matches!(
        tag,
        "address"
            | "article"
            | "aside"
            | "blockquote"
            | "details"
            | "div"
            | "dl"
            | "fieldset"
            | "figcaption"
            | "figure"
            | "footer"
            | "form"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "header"
            | "hgroup"
            | "hr"
            | "main"
            | "menu"
            | "nav"
            | "ol"
            | "p"
            | "pre"
            | "section"
            | "table"
            | "ul"
            | "canvas"
            | "colgroup"
            | "dd"
            | "body"
            | "dt"
            | "group"
            | "html"
            | "iframe"
            | "li"
            | "legend"
            | "math"
            | "map"
            | "noscript"
            | "output"
            | "object"
            | "option"
            | "progress"
            | "script"
            | "style"
            | "summary"
            | "tbody"
            | "td"
            | "textarea"
            | "tfoot"
            | "th"
            | "thead"
            | "tr"
            | "video"
    )
}

/// Whether raw HTML starts with a block-level tag (Python-Markdown's `isblocklevel`).
fn raw_is_block_level(html: &str) -> bool {
    let Some(rest) = html.strip_prefix('<') else { return false };
    let rest = rest.strip_prefix('/').unwrap_or(rest);
    let name: String = rest.chars().take_while(|c| *c != ' ' && *c != '>').collect();
    match name.chars().next() {
        None => false,
        Some('!' | '?' | '@' | '%') => true,
        Some(_) => is_block_level(name.to_lowercase().trim_end_matches('/')),
    }
}

fn is_void(tag: &str) -> bool {
    matches!(
        tag,
        "area"
            | "base"
            | "basefont"
            | "br"
            | "col"
            | "frame"
            | "hr"
            | "img"
            | "input"
            | "isindex"
            | "link"
            | "meta"
            | "param"
    )
}

impl Tree {
    pub(crate) fn new() -> Tree {
        Tree { nodes: vec![Node::element("div")] }
    }

    pub(crate) fn tag(&self, id: NodeId) -> Option<&'static str> {
        match self.nodes[id].kind {
            Kind::Element(tag) => Some(tag),
            Kind::Raw(_) => None,
        }
    }

    pub(crate) fn is(&self, id: NodeId, tag: &str) -> bool {
        self.tag(id) == Some(tag)
    }

    pub(crate) fn last_child(&self, id: NodeId) -> Option<NodeId> {
        self.nodes[id].children.last().copied()
    }

    /// Adds a detached node and returns its id.
    pub(crate) fn add(&mut self, node: Node) -> NodeId {
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    /// Appends a new element as the last child of `parent`.
    pub(crate) fn append(&mut self, parent: NodeId, tag: &'static str) -> NodeId {
        let id = self.add(Node::element(tag));
        self.insert(parent, self.nodes[parent].children.len(), id);
        id
    }

    pub(crate) fn insert(&mut self, parent: NodeId, index: usize, child: NodeId) {
        let index = index.min(self.nodes[parent].children.len());
        self.nodes[parent].children.insert(index, child);
        self.nodes[child].parent = Some(parent);
    }

    pub(crate) fn remove(&mut self, child: NodeId) {
        if let Some(parent) = self.nodes[child].parent.take() {
            self.nodes[parent].children.retain(|c| *c != child);
        }
    }

    pub(crate) fn index_in_parent(&self, child: NodeId) -> Option<usize> {
        let parent = self.nodes[child].parent?;
        self.nodes[parent].children.iter().position(|c| *c == child)
    }

    pub(crate) fn attr(&self, id: NodeId, name: &str) -> Option<&str> {
        self.nodes[id].attrs.iter().find(|(k, _)| *k == name).map(|(_, v)| v.as_str())
    }

    /// Python-Markdown's `PrettifyTreeprocessor`: newlines inside and after block elements and
    /// after every `<br>`.
    pub(crate) fn prettify(&mut self) {
        self.prettify_node(ROOT);
        for id in 0..self.nodes.len() {
            if self.is(id, "br") && self.nodes[id].parent.is_some() {
                let tail = &mut self.nodes[id].tail;
                if tail.trim().is_empty() {
                    *tail = "\n".to_owned();
                } else {
                    tail.insert(0, '\n');
                }
            }
        }
    }

    fn prettify_node(&mut self, id: NodeId) {
        let Some(tag) = self.tag(id) else { return };
        if is_block_level(tag) && tag != "code" && tag != "pre" {
            let first_is_block =
                self.nodes[id].children.first().and_then(|c| self.tag(*c)).is_some_and(is_block_level);
            if self.nodes[id].text.trim().is_empty() && first_is_block {
                self.nodes[id].text = "\n".to_owned();
            }
            for child in self.nodes[id].children.clone() {
                if self.tag(child).is_some_and(is_block_level) {
                    self.prettify_node(child);
                }
            }
        }
        if self.nodes[id].tail.trim().is_empty() {
            self.nodes[id].tail = "\n".to_owned();
        }
    }

    /// The document as HTML, without the root element, trimmed as Python-Markdown does.
    pub(crate) fn to_html(&self) -> String {
        let mut out = String::new();
        escape_text(&mut out, &self.nodes[ROOT].text);
        for child in &self.nodes[ROOT].children {
            self.write(&mut out, *child);
        }
        out.trim().to_owned()
    }

    fn write(&self, out: &mut String, id: NodeId) {
        let node = &self.nodes[id];
        match &node.kind {
            Kind::Raw(html) => out.push_str(html),
            Kind::Element(tag) => {
                if let Some(html) = self.lone_block_raw(id) {
                    out.push_str(html);
                } else {
                    out.push('<');
                    out.push_str(tag);
                    let mut attrs: Vec<&(&str, String)> = node.attrs.iter().collect();
                    attrs.sort_by(|a, b| a.0.cmp(b.0));
                    for (name, value) in attrs {
                        out.push(' ');
                        out.push_str(name);
                        // Python-Markdown writes a boolean attribute (one whose value is its
                        // name, as `controls`) bare.
                        if name != value {
                            out.push_str("=\"");
                            escape_attribute(out, value);
                            out.push('"');
                        }
                    }
                    out.push('>');
                    match node.escape {
                        Escape::Text => escape_text(out, &node.text),
                        Escape::Code => escape_code(out, &node.text),
                    }
                    for child in &node.children {
                        self.write(out, *child);
                    }
                    if !is_void(tag) {
                        out.push_str("</");
                        out.push_str(tag);
                        out.push('>');
                    }
                }
            }
        }
        escape_text(out, &node.tail);
    }

    /// A paragraph holding only block-level raw HTML is written as that HTML alone.
    fn lone_block_raw(&self, id: NodeId) -> Option<&str> {
        let node = &self.nodes[id];
        if node.kind != Kind::Element("p") || !node.text.is_empty() || node.children.len() != 1 {
            return None;
        }
        let child = &self.nodes[node.children[0]];
        match &child.kind {
            Kind::Raw(html) if child.tail.is_empty() && raw_is_block_level(html) => Some(html),
            _ => None,
        }
    }
}

impl Node {
    pub(crate) fn element(tag: &'static str) -> Node {
        Node {
            kind: Kind::Element(tag),
            attrs: Vec::new(),
            text: String::new(),
            atomic: false,
            escape: Escape::Text,
            tail: String::new(),
            children: Vec::new(),
            parent: None,
        }
    }

    pub(crate) fn raw(html: String) -> Node {
        Node { kind: Kind::Raw(html), atomic: true, ..Node::element("") }
    }
}

/// Whether `s` starts with an entity (`#123;`, `#x1F;`, `name;`) right after an `&`.
fn starts_entity(s: &str) -> bool {
    let bytes = s.as_bytes();
    let (digits, start): (fn(u8) -> bool, usize) = match bytes {
        [b'#', b'x' | b'X', ..] => (|b: u8| b.is_ascii_hexdigit(), 2),
        [b'#', ..] => (|b: u8| b.is_ascii_digit(), 1),
        _ => (|b: u8| b.is_ascii_alphanumeric(), 0),
    };
    let run = bytes[start..].iter().take_while(|b| digits(**b)).count();
    run > 0 && bytes.get(start + run) == Some(&b';')
}

fn escape_amp_lt_gt(out: &mut String, s: &str, quote: bool) {
    for (i, c) in s.char_indices() {
        match c {
            '&' if starts_entity(&s[i + 1..]) => out.push('&'),
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if quote => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
}

/// Python-Markdown's text escaping.
pub(crate) fn escape_text(out: &mut String, s: &str) {
    escape_amp_lt_gt(out, s, false);
}

/// Python-Markdown's attribute escaping.
pub(crate) fn escape_attribute(out: &mut String, s: &str) {
    escape_amp_lt_gt(out, s, true);
}

/// Escaping for code: every `&`, `<`, `>`.
pub(crate) fn escape_code(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            _ => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_are_sorted_and_escaped() {
        let mut tree = Tree::new();
        let span = tree.append(ROOT, "span");
        tree.nodes[span].attrs = vec![("title", "a \"b\" & c".into()), ("class", "x".into())];
        tree.nodes[span].text = "1 < 2 &amp; 3 & 4".into();
        assert_eq!(
            tree.to_html(),
            "<span class=\"x\" title=\"a &quot;b&quot; &amp; c\">1 &lt; 2 &amp; 3 &amp; 4</span>"
        );
    }

    #[test]
    fn entities_are_recognised() {
        assert!(starts_entity("amp; x"));
        assert!(starts_entity("#39;"));
        assert!(starts_entity("#x1F;"));
        assert!(!starts_entity("#x;"));
        assert!(!starts_entity(" amp;"));
        assert!(!starts_entity("amp"));
    }

    #[test]
    fn block_raw_html_replaces_its_paragraph() {
        let mut tree = Tree::new();
        let p = tree.append(ROOT, "p");
        let raw = tree.add(Node::raw("<div>x</div>".into()));
        tree.insert(p, 0, raw);
        let q = tree.append(ROOT, "p");
        let span = tree.add(Node::raw("<span>y</span>".into()));
        tree.insert(q, 0, span);
        tree.prettify();
        assert_eq!(tree.to_html(), "<div>x</div>\n<p><span>y</span></p>");
    }
}
