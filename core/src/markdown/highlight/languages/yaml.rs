//! YAML, as Pygments' `YamlLexer` (`yaml`, `yml`) tokenizes it: keys are tags, plain scalars
//! literals. Pygments tracks indentation to know where a block scalar (`|`, `>`) ends; here a
//! function finds that end from the lines' indentation, and a grammar of its own lexes it.

use std::ops::Range;

use super::super::engine::{Grammar, Rule, State, default, g, r, using};
use super::super::token::Token::*;

pub(in super::super) static YAML: Grammar = Grammar::new(&[
    State {
        name: "root",
        rules: &[&[
            r(r"[ ]+", Whitespace).before("#|$"),
            r(r"\n+", Whitespace),
            r(r"#[^\n]*", CommentSingle),
            r(r"^%YAML", NameTag).before("[ ]|$").push(&["yaml-directive"]),
            r(r"^%TAG", NameTag).before("[ ]|$").push(&["tag-directive"]),
            r(r"^(?:---|\.\.\.)", NameNamespace).before("[ ]|$").push(&["block-line"]),
            r(r"[ ]*", Whitespace).not_before(r"\s|$").push(&["block-line", "indentation"]),
        ]],
    },
    State {
        name: "ignored-line",
        rules: &[&[
            r(r"[ ]+", Whitespace).before("#|$"),
            r(r"#[^\n]*", CommentSingle),
            r(r"\n", Whitespace).pop_n(2),
        ]],
    },
    State {
        name: "yaml-directive",
        rules: &[&[g(r"([ ]+)([0-9]+\.[0-9]+)", &[Whitespace, Number]).push(&["ignored-line"])]],
    },
    State {
        name: "tag-directive",
        rules: &[&[g(
            r"([ ]+)(!|![\w-]*!)([ ]+)(!|!?[\w;/?:@&=+$,.!~*'()\[\]%-]+)",
            &[Whitespace, KeywordType, Whitespace, KeywordType],
        )
        .push(&["ignored-line"])]],
    },
    State {
        name: "indentation",
        rules: &[&[
            r(r"[ ]*$", Whitespace).pop_n(2),
            r(r"[ ]+", Whitespace).before("[?:-](?:[ ]|$)"),
            r(r"[?:-]", Punctuation).before("[ ]|$"),
            r(r"[ ]*", Whitespace).pop(),
        ]],
    },
    State {
        name: "block-line",
        rules: &[
            &[
                r(r"[ ]*", Whitespace).before("#|$").pop(),
                r(r"[ ]+", Whitespace),
                // Pygments' look-ahead for the space backtracks to the last such `:`; here the
                // space is matched, so the regex does the same.
                g(r#"([^#,?\[\]{}"'\n]+)(:)([ ]|$)"#, &[NameTag, Punctuation, Whitespace]),
            ],
            DESCRIPTORS,
            &[r(":", Punctuation).before("[ ]|$"), using(r"[|>]", &BLOCK_SCALAR).extended(block_scalar)],
            FLOW_NODES,
            &[default()
                .before(r#"[^\s?:,\[\]{}#&*!|>'"%@`-]|[?:-]\S"#)
                .push(&["plain-scalar-in-block-context"])],
        ],
    },
    State {
        name: "flow-sequence",
        rules: &[FLOW_COLLECTION, DESCRIPTORS, FLOW_NODES, FLOW_PLAIN, &[r(r"\]", Punctuation).pop()]],
    },
    State {
        name: "flow-mapping",
        rules: &[
            &[g(r#"([^,:?\[\]{}"'\n]+)(:)"#, &[NameTag, Punctuation]).before("[ ]|$")],
            FLOW_COLLECTION,
            DESCRIPTORS,
            FLOW_NODES,
            FLOW_PLAIN,
            &[r(r"\}", Punctuation).pop()],
        ],
    },
    State {
        name: "single-quoted-scalar",
        rules: &[QUOTED_WHITESPACE, &[r("''", StringEscape), r(r"[^\s']+", String), r("'", String).pop()]],
    },
    State {
        name: "double-quoted-scalar",
        rules: &[
            QUOTED_WHITESPACE,
            &[
                r("\\\\[0abt\tn\nvfre \"\\\\N_LP]", String),
                r(r"\\(?:x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8})", StringEscape),
                r(r#"[^\s"\\]+"#, String),
                r("\"", String).pop(),
            ],
        ],
    },
    // Pygments continues a plain scalar on a more indented next line; here it ends at the
    // line's end.
    State {
        name: "plain-scalar-in-block-context",
        rules: &[&[
            default().before(":[ ]|:$|\n").pop(),
            r(r"[ ]*", Whitespace).before(":[ ]|:$").pop(),
            r(r"[ ]+", Whitespace).before("#").pop(),
            r(r"[ ]+$", Whitespace),
            r("[ \u{a0}]+", Literal),
            r(r"(?::\S|[^\s:])+", Literal),
        ]],
    },
    State {
        name: "plain-scalar-in-flow-context",
        rules: &[&[
            r(r"[ ]*", Whitespace).before(r"[,:?\[\]{}]").pop(),
            r(r"[ ]+", Whitespace).before("#").pop(),
            r(r"^[ ]+", Whitespace),
            r(r"[ ]+$", Whitespace),
            r(r"\n+", Whitespace),
            r("[ \u{a0}]+", NameVariable),
            r(r"[^\s,:?\[\]{}]+", NameVariable),
        ]],
    },
]);

static DESCRIPTORS: &[Rule] = &[
    r(r"!<[\w#;/?:@&=+$,.!~*'()\[\]%-]+>", KeywordType),
    r(r"!(?:[\w-]+!)?[\w#;/?:@&=+$,.!~*'()\[\]%-]*", KeywordType),
    r(r"&[\w-]+", NameLabel),
    r(r"\*[\w-]+", NameVariable),
];

static FLOW_NODES: &[Rule] = &[
    r(r"\[", Punctuation).push(&["flow-sequence"]),
    r(r"\{", Punctuation).push(&["flow-mapping"]),
    r("'", String).push(&["single-quoted-scalar"]),
    r("\"", String).push(&["double-quoted-scalar"]),
];

static FLOW_COLLECTION: &[Rule] =
    &[r(r"[ ]+", Whitespace), r(r"\n+", Whitespace), r(r"#[^\n]*", CommentSingle), r(r"[?:,]", Punctuation)];

static FLOW_PLAIN: &[Rule] =
    &[default().before(r#"[^\s?:,\[\]{}#&*!|>'"%@`]"#).push(&["plain-scalar-in-flow-context"])];

static QUOTED_WHITESPACE: &[Rule] =
    &[r(r"^[ ]+", Whitespace), r(r"[ ]+$", Whitespace), r(r"\n+", Whitespace), r("[ \u{a0}]+", NameVariable)];

/// A block scalar: its header line, then the lines indented under it.
static BLOCK_SCALAR: Grammar = Grammar::new(&[
    State {
        name: "root",
        rules: &[&[
            r(r"\A[|>](?:[1-9][+-]?|[+-][1-9]?)?", Punctuation),
            r(r"[ ]+", Whitespace),
            r(r"#[^\n]*", CommentSingle),
            r(r"\n", Whitespace).push(&["content"]),
        ]],
    },
    State {
        name: "content",
        rules: &[&[r(r"\n", Whitespace), r(r"^[ ]+", Whitespace), r(r"[^\n]+", NameConstant)]],
    },
]);

/// The end of a block scalar whose indicator is at `indicator`: the last line indented more
/// than the key (or sequence entry) it belongs to, all of its lines at least as far as its
/// first.
fn block_scalar(text: &str, indicator: Range<usize>) -> Option<usize> {
    let line_start = text[..indicator.start].rfind('\n').map_or(0, |i| i + 1);
    let line = &text[line_start..indicator.start];
    let content = line.trim_start_matches(' ');
    let mut parent = line.len() - content.len();
    if content.starts_with("- ") {
        parent += 1;
    }
    let header_end = text[indicator.end..].find('\n').map_or(text.len(), |i| indicator.end + i);
    let mut end = header_end;
    let mut block_indent = None;
    let mut at = header_end;
    while at < text.len() {
        let next = text[at + 1..].find('\n').map_or(text.len(), |i| at + 1 + i);
        let line = &text[at + 1..next];
        let indent = line.len() - line.trim_start_matches(' ').len();
        if indent == line.len() {
            at = next;
            continue;
        }
        let needed = *block_indent.get_or_insert(if indent > parent { indent } else { usize::MAX });
        if indent < needed {
            break;
        }
        end = next;
        at = next;
    }
    Some(end)
}
