//! Rust, as Pygments' `RustLexer` (`rust`, `rs`) tokenizes it.

use std::ops::Range;

use super::super::engine::{Grammar, Rule, State, default, g, r};
use super::super::token::Token::*;

pub(in super::super) static RUST: Grammar = Grammar::new(&[
    State { name: "root", rules: &[&[r(r"#![^\[\r\n].*$", CommentPreproc), default().push(&["base"])]] },
    State { name: "base", rules: &[BASE] },
    State {
        name: "comment",
        rules: &[&[
            r("[^*/]+", CommentMultiline),
            r(r"/\*", CommentMultiline).push(&["comment"]),
            r(r"\*/", CommentMultiline).pop(),
            r("[*/]", CommentMultiline),
        ]],
    },
    State {
        name: "doccomment",
        rules: &[&[
            r("[^*/]+", StringDoc),
            r(r"/\*", StringDoc).push(&["doccomment"]),
            r(r"\*/", StringDoc).pop(),
            r("[*/]", StringDoc),
        ]],
    },
    State {
        name: "modname",
        rules: &[&[r(r"\s+", Whitespace), r(r"[a-zA-Z_]\w*", NameNamespace).pop(), default().pop()]],
    },
    State {
        name: "funcname",
        rules: &[&[r(r"\s+", Whitespace), r(r"[a-zA-Z_]\w*", NameFunction).pop(), default().pop()]],
    },
    State {
        name: "typename",
        rules: &[&[
            r(r"\s+", Whitespace),
            r("&", KeywordPseudo),
            r("'", Operator).push(&["lifetime"]),
            BUILTIN_TYPES,
            KEYWORD_TYPES,
            r(r"[a-zA-Z_]\w*", NameClass).pop(),
            default().pop(),
        ]],
    },
    State {
        name: "lifetime",
        rules: &[&[r("static|_", NameBuiltin), r(r"[a-zA-Z_]+\w*", NameAttribute), default().pop()]],
    },
    State {
        name: "number_lit",
        rules: &[&[
            r("[ui](?:8|16|32|64|size)", Keyword).pop(),
            r("f(?:32|64)", Keyword).pop(),
            default().pop(),
        ]],
    },
    State { name: "string", rules: &[STRING] },
    State { name: "bytestring", rules: &[&[r(r"\\x[89a-fA-F][0-9a-fA-F]", StringEscape)], STRING] },
    State {
        name: "attribute[",
        rules: &[&[
            r("\"", String).push(&["string"]),
            r(r"\[", CommentPreproc).push(&["attribute["]),
            r(r"\]", CommentPreproc).pop(),
            r(r#"[^"\]\[]+"#, CommentPreproc),
        ]],
    },
]);

const KEYWORD_TYPES: Rule =
    r(r"(?:u8|u16|u32|u64|u128|i8|i16|i32|i64|i128|usize|isize|f32|f64|char|str|bool)\b", KeywordType);

const BUILTIN_TYPES: Rule = r(
    r"(?:Copy|Send|Sized|Sync|Unpin|Drop|Fn|FnMut|FnOnce|drop|Box|ToOwned|Clone|PartialEq|PartialOrd|Eq|Ord|AsRef|AsMut|Into|From|Default|Iterator|Extend|IntoIterator|DoubleEndedIterator|ExactSizeIterator|Option|Some|None|Result|Ok|Err|String|ToString|Vec)\b",
    NameBuiltin,
);

static STRING: &[Rule] = &[
    r("\"", String).pop(),
    r(r#"\\['"\\nrt]|\\x[0-7][0-9a-fA-F]|\\0|\\u\{[0-9a-fA-F]{1,6}\}"#, StringEscape),
    r(r#"[^\\"]+"#, String),
    r(r"\\", String),
];

static BASE: &[Rule] = &[
    r(r"\s+", Whitespace),
    r(r"//!.*?\n", StringDoc),
    r(r"///(?:\n|[^/].*?\n)", StringDoc),
    r(r"//.*?\n", CommentSingle),
    r(r"/\*\*(?:\n|[^/*])", StringDoc).push(&["doccomment"]),
    r(r"/\*!", StringDoc).push(&["doccomment"]),
    r(r"/\*", CommentMultiline).push(&["comment"]),
    r(r"\$(?:[a-zA-Z_]\w*|\(,?|\),?|,?)", CommentPreproc),
    r(
        r"(?:as|async|await|box|const|crate|dyn|else|extern|for|if|impl|in|loop|match|move|mut|pub|ref|return|static|super|trait|unsafe|use|where|while)\b",
        Keyword,
    ),
    r(
        r"(?:abstract|become|do|final|macro|override|priv|typeof|try|unsized|virtual|yield)\b",
        KeywordReserved,
    ),
    r(r"(?:true|false)\b", KeywordConstant),
    r(r"self\b", NameBuiltinPseudo),
    r(r"mod\b", Keyword).push(&["modname"]),
    r(r"let\b", KeywordDeclaration),
    r(r"fn\b", Keyword).push(&["funcname"]),
    r(r"(?:struct|enum|type|union)\b", Keyword).push(&["typename"]),
    g(r"(default)(\s+)(type|fn)\b", &[Keyword, Whitespace, Keyword]),
    KEYWORD_TYPES,
    r(r"[sS]elf\b", NameBuiltinPseudo),
    BUILTIN_TYPES,
    r(
        r"(?:asm|assert|assert_eq|assert_ne|cfg|column|compile_error|concat|concat_idents|dbg|debug_assert|debug_assert_eq|debug_assert_ne|env|eprint|eprintln|file|format|format_args|format_args_nl|global_asm|include|include_bytes|include_str|is_aarch64_feature_detected|is_arm_feature_detected|is_mips64_feature_detected|is_mips_feature_detected|is_powerpc64_feature_detected|is_powerpc_feature_detected|is_x86_feature_detected|line|llvm_asm|log_syntax|macro_rules|matches|module_path|option_env|panic|print|println|stringify|thread_local|todo|trace_macros|unimplemented|unreachable|vec|write|writeln)!",
        NameFunctionMagic,
    ),
    r(r"::\b", Punctuation),
    r(":|->", Punctuation).push(&["typename"]),
    g(r"(break|continue)(\b\s*)('[A-Za-z_]\w*)?", &[Keyword, Whitespace, NameLabel]),
    r(r#"'(?:\\['"\\nrt]|\\x[0-7][0-9a-fA-F]|\\0|\\u\{[0-9a-fA-F]{1,6}\}|.)'"#, StringChar),
    r(r#"b'(?:\\['"\\nrt]|\\x[0-9a-fA-F]{2}|\\0|\\u\{[0-9a-fA-F]{1,6}\}|.)'"#, StringChar),
    r("0b[01_]+", NumberBin).push(&["number_lit"]),
    r("0o[0-7_]+", NumberOct).push(&["number_lit"]),
    r("0[xX][0-9a-fA-F_]+", NumberHex).push(&["number_lit"]),
    r(r"[0-9][0-9_]*\.[0-9_]+[eE][+\-]?[0-9_]+", NumberFloat).push(&["number_lit"]),
    r(r"[0-9][0-9_]*\.[0-9_]*", NumberFloat).not_before(r"\.").push(&["number_lit"]),
    r(r"[0-9][0-9_]*[eE][+\-]?[0-9_]+", NumberFloat).push(&["number_lit"]),
    r("[0-9][0-9_]*", NumberInteger).push(&["number_lit"]),
    r("b\"", String).push(&["bytestring"]),
    r("\"", String).push(&["string"]),
    r("b?r#*\"", String).extended(raw_string),
    r("'", Operator).push(&["lifetime"]),
    r(r"\.\.=?", Operator),
    r(r"[{}()\[\],.;]", Punctuation),
    r(r"[+\-*/%&|<>^!~@=:?]", Operator),
    r(r"[a-zA-Z_]\w*", Name),
    r(r"r#[a-zA-Z_]\w*", Name),
    r(r"#!?\[", CommentPreproc).push(&["attribute["]),
    r("#", Punctuation),
];

/// A raw string ends at a quote followed by as many `#` as it opened with.
fn raw_string(text: &str, opener: Range<usize>) -> Option<usize> {
    let hashes = text[opener.clone()].matches('#').count();
    let closing = format!("\"{}", "#".repeat(hashes));
    text[opener.end..].find(&closing).map(|at| opener.end + at + closing.len())
}
