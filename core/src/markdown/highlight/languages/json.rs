//! JSON, as Pygments' `JsonLexer` (`json`) tokenizes it: object keys are `Name.Tag`, other
//! strings `String.Double`; comments are allowed.

use super::super::engine::{Grammar, State, r};
use super::super::token::Token::*;

pub(in super::super) static JSON: Grammar = Grammar::new(&[State {
    name: "root",
    rules: &[&[
        r(r"\s+", Whitespace),
        r(r#""(?:\\.|[^"\\])*""#, NameTag).before(r"\s*:"),
        r(r#""(?:\\.|[^"\\])*""#, StringDouble),
        r(r"-?(?:\d+\.\d*|\.\d+|\d+)[eE][-+]?\d+|-?(?:\d+\.\d*|\.\d+)", NumberFloat),
        r(r"-?\d+", NumberInteger),
        r(r"(?:true|false|null)\b", KeywordConstant),
        r(r"[{}\[\],:]", Punctuation),
        r(r"//.*", CommentSingle),
        r(r"(?s)/\*.*?(?:\*/|\z)", CommentMultiline),
    ]],
}]);
