//! The block parser: Python-Markdown's `BlockParser` with Zulip's set of block processors, in
//! Zulip's priority order. The text is cut into blocks at blank lines; each block goes to the
//! first processor whose test accepts it, which may split it and hand pieces back.
//!
//! Zulip's choices kept here: `#` headings need a space after the hashes; there are no setext
//! headings, no HTML blocks and no reference definitions; lists and their nesting use 2-space
//! indentation ("sane lists": `*`/`-`/`+` items and `1.` items make different lists); a blank
//! line ends a block quote; mentions inside quotes are made silent; 4-space indented code stays.

use std::collections::VecDeque;
use std::sync::LazyLock;

use regex::Regex;

use super::inline::mention::silence_mentions;
use super::tree::{Node, NodeId, Tree};

/// Deeper nesting than this (quotes in lists in quotes...) is rendered as plain paragraphs, so
/// hostile input cannot exhaust the stack.
const MAX_DEPTH: usize = 64;

static HASH_HEADER_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|\n)(?P<level>#{1,6})\s(?P<header>(?:\\.|[^\\])*?)#*(?:\n|$)").expect("static regex")
});
static HR_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)^ {0,3}(?:(?:-+ {0,2}){3,}|(?:_+ {0,2}){3,}|(?:\*+ {0,2}){3,}) *$")
        .expect("static regex")
});
static OL_RE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^ ?\d+\. +").expect("static regex"));
static UL_RE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^ ?[*+-] +").expect("static regex"));
static OL_CHILD_RE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^ ?(\d+)\. +(.*)").expect("static regex"));
static UL_CHILD_RE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^ ?[*+-] +(.*)").expect("static regex"));
static LIST_INDENT_RE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^ {2,3}(?:\d+\.|[*+-]) +").expect("static regex"));

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    List,
    LooseList,
    Detabbed,
    Blockquote,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ListKind {
    Ordered,
    Unordered,
}

pub(crate) struct BlockParser<'t> {
    tree: &'t mut Tree,
    state: Vec<State>,
    depth: usize,
}

/// Parses the preprocessed lines into `tree` under its root.
pub(crate) fn parse_document(tree: &mut Tree, lines: &[String]) {
    let mut parser = BlockParser { tree, state: Vec::new(), depth: 0 };
    parser.parse_chunk(super::tree::ROOT, &lines.join("\n"));
}

impl BlockParser<'_> {
    fn state_is(&self, state: State) -> bool {
        self.state.last() == Some(&state)
    }

    fn parse_chunk(&mut self, parent: NodeId, text: &str) {
        self.parse_blocks(parent, text.split("\n\n").map(str::to_owned).collect());
    }

    fn parse_blocks(&mut self, parent: NodeId, blocks: VecDeque<String>) {
        let mut blocks = blocks;
        self.depth += 1;
        while let Some(block) = blocks.front() {
            if self.depth > MAX_DEPTH {
                let block = blocks.pop_front().unwrap_or_default();
                if !block.trim().is_empty() {
                    let p = self.tree.append(parent, "p");
                    self.tree.nodes[p].text = block.trim_start().to_owned();
                }
            } else if block.is_empty() || block.starts_with('\n') {
                self.empty(parent, &mut blocks);
            } else if self.test_list_indent(parent, block) {
                self.list_indent(parent, &mut blocks);
            } else if block.starts_with("    ") {
                self.code(parent, &mut blocks);
            } else if HASH_HEADER_RE.is_match(block) {
                self.hash_header(parent, &mut blocks);
            } else if let Some(table) = TableShape::test(block) {
                self.table(parent, &mut blocks, table);
            } else if let Some((start, end)) = HR_RE.find(block).map(|m| (m.start(), m.end())) {
                self.hr(parent, &mut blocks, start, end);
            } else if OL_RE.is_match(block) {
                self.list(parent, &mut blocks, ListKind::Ordered);
            } else if UL_RE.is_match(block) {
                self.list(parent, &mut blocks, ListKind::Unordered);
            } else if let Some(start) = quote_start(block) {
                self.blockquote(parent, &mut blocks, start);
            } else {
                self.paragraph(parent, &mut blocks);
            }
        }
        self.depth -= 1;
    }

    fn last_child_is_code(&self, parent: NodeId) -> Option<NodeId> {
        let pre = self.tree.last_child(parent)?;
        let code = *self.tree.nodes[pre].children.first()?;
        (self.tree.is(pre, "pre") && self.tree.is(code, "code")).then_some(code)
    }

    /// Empty blocks (and blocks starting with a blank line) add blank lines to a preceding code
    /// block and are otherwise dropped.
    fn empty(&mut self, parent: NodeId, blocks: &mut VecDeque<String>) {
        let block = blocks.pop_front().unwrap_or_default();
        let mut filler = "\n\n";
        if !block.is_empty() {
            filler = "\n";
            let rest = &block[1..];
            if !rest.is_empty() {
                blocks.push_front(rest.to_owned());
            }
        }
        if let Some(code) = self.last_child_is_code(parent) {
            self.tree.nodes[code].text.push_str(filler);
        }
    }

    fn test_list_indent(&self, parent: NodeId, block: &str) -> bool {
        block.starts_with("  ")
            && !self.state_is(State::Detabbed)
            && (self.tree.is(parent, "li")
                || self
                    .tree
                    .last_child(parent)
                    .is_some_and(|c| self.tree.is(c, "ul") || self.tree.is(c, "ol")))
    }

    fn is_list(&self, id: NodeId) -> bool {
        self.tree.is(id, "ul") || self.tree.is(id, "ol")
    }

    /// A block indented under a list item continues that item (2 spaces per level).
    fn list_indent(&mut self, parent: NodeId, blocks: &mut VecDeque<String>) {
        let block = blocks.pop_front().unwrap_or_default();
        let indent = block.bytes().take_while(|b| *b == b' ').count() / 2;
        let mut level = usize::from(self.state_is(State::List));
        let mut sibling = parent;
        while indent > level {
            let Some(child) = self.tree.last_child(sibling) else { break };
            if self.is_list(child) || self.tree.is(child, "li") {
                if self.is_list(child) {
                    level += 1;
                }
                sibling = child;
            } else {
                break;
            }
        }
        let block = loose_detab(&block, 2 * level);
        self.state.push(State::Detabbed);
        if self.tree.is(parent, "li") {
            match self.tree.last_child(parent) {
                Some(list) if self.is_list(list) => self.parse_blocks(list, VecDeque::from([block])),
                _ => self.parse_blocks(parent, VecDeque::from([block])),
            }
        } else if self.tree.is(sibling, "li") {
            self.parse_blocks(sibling, VecDeque::from([block]));
        } else if let Some(item) = self.tree.last_child(sibling).filter(|c| self.tree.is(*c, "li")) {
            self.move_text_into_paragraph(item);
            self.parse_chunk(item, &block);
        } else {
            let item = self.tree.append(sibling, "li");
            self.parse_blocks(item, VecDeque::from([block]));
        }
        self.state.pop();
    }

    /// A list item's loose text becomes its first paragraph once the item gets more blocks.
    fn move_text_into_paragraph(&mut self, item: NodeId) {
        if !self.tree.nodes[item].text.is_empty() {
            let text = std::mem::take(&mut self.tree.nodes[item].text);
            let p = self.tree.add(Node::element("p"));
            self.tree.nodes[p].text = text;
            self.tree.insert(item, 0, p);
        }
    }

    /// 4-space indented code.
    fn code(&mut self, parent: NodeId, blocks: &mut VecDeque<String>) {
        let block = blocks.pop_front().unwrap_or_default();
        let (code_text, rest) = detab(&block, 4);
        if let Some(code) = self.last_child_is_code(parent) {
            let text = &mut self.tree.nodes[code].text;
            text.push('\n');
            text.push_str(code_text.trim_end());
            text.push('\n');
        } else {
            let pre = self.tree.append(parent, "pre");
            let code = self.tree.append(pre, "code");
            self.tree.nodes[code].text = format!("{}\n", code_text.trim_end());
            self.tree.nodes[code].atomic = true;
            self.tree.nodes[code].escape = super::tree::Escape::Code;
        }
        if !rest.is_empty() {
            blocks.push_front(rest);
        }
    }

    fn hash_header(&mut self, parent: NodeId, blocks: &mut VecDeque<String>) {
        let block = blocks.pop_front().unwrap_or_default();
        let Some(m) = HASH_HEADER_RE.captures(&block) else { return };
        let (Some(whole), Some(level), Some(header)) = (m.get(0), m.name("level"), m.name("header")) else {
            return;
        };
        let before = &block[..whole.start()];
        let after = &block[whole.end()..];
        if !before.is_empty() {
            self.parse_blocks(parent, VecDeque::from([before.to_owned()]));
        }
        let tag = ["h1", "h2", "h3", "h4", "h5", "h6"][level.as_str().len().clamp(1, 6) - 1];
        let h = self.tree.append(parent, tag);
        self.tree.nodes[h].text = header.as_str().trim().to_owned();
        if !after.is_empty() {
            blocks.push_front(after.to_owned());
        }
    }

    fn table(&mut self, parent: NodeId, blocks: &mut VecDeque<String>, shape: TableShape) {
        let block = blocks.pop_front().unwrap_or_default();
        let lines: Vec<&str> = block.split('\n').collect();
        let header = lines[0].trim_matches(' ');
        let rows = if lines.len() < 3 { &[][..] } else { &lines[2..] };
        let align: Vec<Option<&str>> = shape
            .separator
            .iter()
            .map(|cell| {
                let cell = cell.trim_matches(' ');
                match (cell.starts_with(':'), cell.ends_with(':')) {
                    (true, true) => Some("center"),
                    (true, false) => Some("left"),
                    (false, true) => Some("right"),
                    (false, false) => None,
                }
            })
            .collect();
        let table = self.tree.append(parent, "table");
        let thead = self.tree.append(table, "thead");
        self.table_row(thead, "th", header, &align, shape.border);
        let tbody = self.tree.append(table, "tbody");
        if rows.is_empty() {
            let tr = self.tree.append(tbody, "tr");
            for _ in &align {
                self.tree.append(tr, "td");
            }
        }
        for row in rows {
            self.table_row(tbody, "td", row.trim_matches(' '), &align, shape.border);
        }
    }

    fn table_row(
        &mut self,
        parent: NodeId,
        tag: &'static str,
        row: &str,
        align: &[Option<&str>],
        border: bool,
    ) {
        let tr = self.tree.append(parent, "tr");
        let cells = split_table_row(row, border);
        for (i, a) in align.iter().enumerate() {
            let cell = self.tree.append(tr, tag);
            self.tree.nodes[cell].text = cells.get(i).map_or("", |c| c.trim_matches(' ')).to_owned();
            if let Some(a) = a {
                self.tree.nodes[cell].attrs.push(("style", format!("text-align: {a};")));
            }
        }
    }

    fn hr(&mut self, parent: NodeId, blocks: &mut VecDeque<String>, start: usize, end: usize) {
        let block = blocks.pop_front().unwrap_or_default();
        let before = block[..start].trim_end_matches('\n');
        if !before.is_empty() {
            self.parse_blocks(parent, VecDeque::from([before.to_owned()]));
        }
        self.tree.append(parent, "hr");
        let after = block[end..].trim_start_matches('\n');
        if !after.is_empty() {
            blocks.push_front(after.to_owned());
        }
    }

    fn list(&mut self, parent: NodeId, blocks: &mut VecDeque<String>, kind: ListKind) {
        let block = blocks.pop_front().unwrap_or_default();
        let (mut items, start) = list_items(&block, kind);
        let tag = if kind == ListKind::Ordered { "ol" } else { "ul" };
        let list = match self.tree.last_child(parent) {
            Some(sibling) if self.tree.is(sibling, tag) => {
                if let Some(last) = self.tree.last_child(sibling) {
                    self.move_text_into_paragraph(last);
                    if let Some(lch) = self.tree.last_child(last)
                        && !self.tree.nodes[lch].tail.is_empty()
                    {
                        let tail = std::mem::take(&mut self.tree.nodes[lch].tail);
                        let p = self.tree.append(last, "p");
                        self.tree.nodes[p].text = tail.trim_start().to_owned();
                    }
                }
                let item = self.tree.append(sibling, "li");
                self.state.push(State::LooseList);
                if !items.is_empty() {
                    let first = items.remove(0);
                    self.parse_blocks(item, VecDeque::from([first]));
                }
                self.state.pop();
                sibling
            }
            _ if self.is_list(parent) => parent,
            _ => {
                let list = self.tree.append(parent, tag);
                if let Some(start) = start.filter(|s| s != "1") {
                    self.tree.nodes[list].attrs.push(("start", start));
                }
                list
            }
        };
        self.state.push(State::List);
        for item in items {
            if item.starts_with("  ")
                && let Some(last) = self.tree.last_child(list)
            {
                self.parse_blocks(last, VecDeque::from([item]));
            } else {
                let li = self.tree.append(list, "li");
                self.parse_blocks(li, VecDeque::from([item]));
            }
        }
        self.state.pop();
    }

    fn blockquote(&mut self, parent: NodeId, blocks: &mut VecDeque<String>, start: usize) {
        let block = blocks.pop_front().unwrap_or_default();
        self.parse_blocks(parent, VecDeque::from([block[..start].to_owned()]));
        let content: Vec<String> = block[start..].split('\n').map(clean_quote_line).collect();
        let quote = self.tree.append(parent, "blockquote");
        self.state.push(State::Blockquote);
        self.parse_chunk(quote, &content.join("\n"));
        self.state.pop();
    }

    fn paragraph(&mut self, parent: NodeId, blocks: &mut VecDeque<String>) {
        let block = blocks.pop_front().unwrap_or_default();
        if block.trim().is_empty() {
            return;
        }
        if self.state_is(State::List) {
            // A tight list item: its text, or the tail of its last block.
            if let Some(sibling) = self.tree.last_child(parent) {
                let tail = &mut self.tree.nodes[sibling].tail;
                tail.push('\n');
                tail.push_str(&block);
            } else {
                let text = &mut self.tree.nodes[parent].text;
                if text.is_empty() {
                    *text = block.trim_start().to_owned();
                } else {
                    text.push('\n');
                    text.push_str(&block);
                }
            }
        } else {
            let p = self.tree.append(parent, "p");
            self.tree.nodes[p].text = block.trim_start().to_owned();
        }
    }
}

/// Removes `width` leading spaces from the lines that have them.
fn loose_detab(text: &str, width: usize) -> String {
    let prefix = " ".repeat(width);
    text.split('\n').map(|line| line.strip_prefix(&prefix).unwrap_or(line)).collect::<Vec<_>>().join("\n")
}

/// Splits off the leading lines indented by `width` (blank lines included); the rest is returned
/// as the second part.
fn detab(text: &str, width: usize) -> (String, String) {
    let prefix = " ".repeat(width);
    let lines: Vec<&str> = text.split('\n').collect();
    let mut taken = Vec::new();
    for line in &lines {
        if let Some(rest) = line.strip_prefix(&prefix) {
            taken.push(rest);
        } else if line.trim().is_empty() {
            taken.push("");
        } else {
            break;
        }
    }
    let rest = lines[taken.len()..].join("\n");
    (taken.join("\n"), rest)
}

/// The items of a list block and, for an ordered list, the number it starts at. Lines that do
/// not start an item continue the previous one; nested items (2–3 spaces) are kept with their
/// indentation for the item's own parse.
fn list_items(block: &str, kind: ListKind) -> (Vec<String>, Option<String>) {
    let mut items: Vec<String> = Vec::new();
    let mut start = None;
    for line in block.split('\n') {
        let child = match kind {
            ListKind::Ordered => OL_CHILD_RE.captures(line).map(|m| {
                if items.is_empty() {
                    start = Some(m[1].to_owned());
                }
                m[2].to_owned()
            }),
            ListKind::Unordered => UL_CHILD_RE.captures(line).map(|m| m[1].to_owned()),
        };
        if let Some(text) = child {
            items.push(text);
        } else if LIST_INDENT_RE.is_match(line) {
            match items.last_mut() {
                Some(last) if last.starts_with("  ") => {
                    last.push('\n');
                    last.push_str(line);
                }
                _ => items.push(line.to_owned()),
            }
        } else if let Some(last) = items.last_mut() {
            last.push('\n');
            last.push_str(line);
        } else {
            items.push(line.to_owned());
        }
    }
    (items, start)
}

fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// `[ ]{0,3}>` at the start of a line: the byte offset after the `>`.
fn quote_marker(line: &str) -> Option<usize> {
    let spaces = line.bytes().take_while(|b| *b == b' ').count();
    (spaces <= 3 && line.as_bytes().get(spaces) == Some(&b'>')).then_some(spaces + 1)
}

/// Zulip's block quote test: the first line starting with `>` that is not followed (up to the
/// end of the block) only by empty `>` lines. Returns where the quote starts: the newline before
/// that line, or 0.
fn quote_start(block: &str) -> Option<usize> {
    let lines: Vec<&str> = block.split('\n').collect();
    let empty_quote = |line: &str| quote_marker(line).is_some_and(|at| line[at..].chars().all(is_py_space));
    let only_empty_quotes_follow = |k: usize| {
        for line in &lines[k..] {
            if line.is_empty() {
                return true;
            }
            if !empty_quote(line) {
                return false;
            }
        }
        true
    };
    let mut offset = 0;
    for (k, line) in lines.iter().enumerate() {
        if quote_marker(line).is_some() && !only_empty_quotes_follow(k) {
            return Some(if k == 0 { 0 } else { offset - 1 });
        }
        offset += line.len() + 1;
    }
    None
}

/// A quoted line without its `>` (and one space), with its mentions made silent.
fn clean_quote_line(line: &str) -> String {
    let line = silence_mentions(line);
    if line.trim() == ">" {
        return String::new();
    }
    match quote_marker(&line) {
        Some(at) => {
            let rest = &line[at..];
            rest.strip_prefix(' ').unwrap_or(rest).to_owned()
        }
        None => line,
    }
}

/// What a table's first two lines establish.
struct TableShape {
    border: bool,
    separator: Vec<String>,
}

impl TableShape {
    /// Python-Markdown's table test: a header row with at least two cells (or one, bordered by
    /// pipes on every row) and a separator row of `|:- ` with as many cells.
    fn test(block: &str) -> Option<TableShape> {
        let rows: Vec<&str> = block.split('\n').map(|r| r.trim_matches(' ')).collect();
        if rows.len() < 2 {
            return None;
        }
        let header = rows[0];
        let border = header.starts_with('|') || ends_with_border(header);
        let header_cells = split_table_row(header, border).len();
        let mut is_table = header_cells > 1;
        if !is_table && header_cells == 1 && border {
            for row in &rows[1..] {
                is_table = row.starts_with('|') || ends_with_border(row);
                if !is_table {
                    break;
                }
            }
        }
        if !is_table {
            return None;
        }
        let separator = split_table_row(rows[1], border);
        let valid = separator.len() == header_cells
            && separator.iter().all(|c| c.chars().all(|ch| matches!(ch, '|' | ':' | '-' | ' ')));
        valid.then(|| TableShape { border, separator: separator.into_iter().map(str::to_owned).collect() })
    }
}

/// Whether a row ends with a pipe that is not escaped (an even number of backslashes before it).
fn ends_with_border(row: &str) -> bool {
    let Some(rest) = row.strip_suffix('|') else { return false };
    rest.bytes().rev().take_while(|b| *b == b'\\').count() % 2 == 0
}

/// Splits a table row at its pipes, except pipes inside backtick code and escaped ones.
fn split_table_row(row: &str, border: bool) -> Vec<&str> {
    let mut row = row;
    if border {
        row = row.strip_prefix('|').unwrap_or(row);
        if ends_with_border(row) {
            let pipe = row.len() - 1;
            let slashes = row[..pipe].bytes().rev().take_while(|b| *b == b'\\').count();
            row = &row[..pipe - slashes];
        }
    }
    split_cells(row)
}

fn split_cells(row: &str) -> Vec<&str> {
    // Backtick groups: (length, start, end, escape length) and candidate pipes.
    let bytes = row.as_bytes();
    let mut tics: Vec<(usize, usize, usize, usize)> = Vec::new();
    let mut pipes = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if bytes.get(i + 1) == Some(&b'\\') => i += 2,
            b'\\' if bytes.get(i + 1) == Some(&b'`') => {
                let run = bytes[i + 1..].iter().take_while(|b| **b == b'`').count();
                tics.push((run, i, i + run, 1));
                i += 1 + run;
            }
            b'\\' if bytes.get(i + 1) == Some(&b'|') => i += 2,
            b'`' => {
                let run = bytes[i..].iter().take_while(|b| **b == b'`').count();
                tics.push((run, i, i + run - 1, 0));
                i += run;
            }
            b'|' => {
                pipes.push(i);
                i += 1;
            }
            _ => i += 1,
        }
    }
    let mut regions = Vec::new();
    let mut pos = 0;
    while pos < tics.len() {
        let size = tics[pos].0 - tics[pos].3;
        let close = if size == 0 { None } else { tics[pos + 1..].iter().position(|t| t.0 == size) };
        match close {
            Some(offset) => {
                regions.push((tics[pos].1, tics[pos + 1 + offset].2));
                pos += offset + 2;
            }
            None => pos += 1,
        }
    }
    let mut cells = Vec::new();
    let mut start = 0;
    for pipe in pipes {
        if regions.iter().any(|(a, b)| *a <= pipe && pipe <= *b) {
            continue;
        }
        cells.push(&row[start..pipe]);
        start = pipe + 1;
    }
    cells.push(&row[start..]);
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_need_content_before_the_end() {
        assert_eq!(quote_start(">"), None);
        assert_eq!(quote_start(">\n>\ntext"), Some(0));
        assert_eq!(quote_start("a\n> b"), Some(1));
        assert_eq!(quote_start("a\n>\n> "), None);
        assert_eq!(quote_start("    > code"), None);
    }

    #[test]
    fn table_rows_split_outside_code() {
        assert_eq!(split_table_row("a | b", false), ["a ", " b"]);
        assert_eq!(split_table_row("| a | `b|c` |", true), [" a ", " `b|c` "]);
        assert_eq!(split_table_row(r"a \| b | c", false), [r"a \| b ", " c"]);
    }

    #[test]
    fn list_items_keep_nested_lines() {
        let (items, start) = list_items("3. a\n  1. b\n    c\n4. d", ListKind::Ordered);
        assert_eq!(items, ["a", "  1. b\n    c", "d"]);
        assert_eq!(start.as_deref(), Some("3"));
    }
}
