//! Lua, as Pygments' `LuaLexer` (`lua`) tokenizes it: a name before `(` is a function, before
//! `.` or `:` a variable whose field follows, and the standard library's functions are
//! builtins.

use super::super::engine::{Grammar, Rule, State, default, r};
use super::super::token::Token::*;

pub(in super::super) static LUA: Grammar = Grammar::new(&[
    State { name: "root", rules: &[&[r("#!.*", CommentPreproc), default().push(&["base"])]] },
    State {
        name: "base",
        rules: &[
            WS,
            &[
                r(r"(?i)0x[\da-f]*(?:\.[\da-f]*)?(?:p[+-]?\d+)?", NumberHex),
                r(r"(?i)(?:\d*\.\d+|\d+\.\d*)(?:e[+-]?\d+)?", NumberFloat),
                r(r"(?i)\d+e[+-]?\d+", NumberFloat),
                r(r"\d+", NumberInteger),
                r(r"\[=*\[", String).extended(long_bracket),
                r("::", Punctuation).push(&["label"]),
                r(r"\.{3}", Punctuation),
                r(r"[+\-*%^&|#]|//?|>>|<<|\.\.|[=~<>]=?", Operator),
                r(r"[\[\]{}().,:;]+", Punctuation),
                r(r"(?:and|or|not)\b", OperatorWord),
                r(
                    r"(?:break|do|else|elseif|end|for|if|in|repeat|return|then|until|while)\b",
                    KeywordReserved,
                ),
                r(r"goto\b", KeywordReserved).push(&["goto"]),
                r(r"local\b", KeywordDeclaration),
                r(r"(?:true|false|nil)\b", KeywordConstant),
                r(r"function\b", KeywordReserved).push(&["funcname"]),
                // The standard library (Pygments lists each function; this names its modules).
                r(
                    r"(?:_G|_VERSION|assert|collectgarbage|dofile|error|getmetatable|ipairs|load|loadfile|next|pairs|pcall|print|rawequal|rawget|rawlen|rawset|select|setmetatable|tonumber|tostring|type|warn|xpcall|require|(?:bit32|coroutine|debug|io|math|os|package|string|table|utf8)\.[A-Za-z_]\w*)\b",
                    NameBuiltin,
                ),
                r(r"[A-Za-z_]\w*", NameFunction).before(r"\s*\("),
                r(r"[A-Za-z_]\w*", NameVariable).before(r"\s*[.:]").push(&["varname"]),
                r(r"[A-Za-z_]\w*", NameVariable).before(r"\s*<.+?>").push(&["varname"]),
                r(r"[A-Za-z_]\w*", NameVariable),
                r("'", StringSingle).push(&["sqs"]),
                r("\"", StringDouble).push(&["dqs"]),
            ],
        ],
    },
    State {
        name: "varname",
        rules: &[
            WS,
            &[
                r(r"\.\.", Operator).pop(),
                r("[.:]", Punctuation),
                r("<", Punctuation).push(&["attribute"]),
                r(r"[^\W\d]\w*", NameProperty).before(r"\s*[.:]"),
                r(r"[^\W\d]\w*", NameFunction).before(r"\s*\(").pop(),
                r(r"[^\W\d]\w*", NameProperty).pop(),
            ],
        ],
    },
    State {
        name: "funcname",
        rules: &[
            WS,
            &[
                r("[.:]", Punctuation),
                r(r"[^\W\d]\w*", NameClass).before(r"\s*[.:]"),
                r(r"[^\W\d]\w*", NameFunction).pop(),
                r(r"\(", Punctuation).pop(),
            ],
        ],
    },
    State { name: "goto", rules: &[WS, &[r(r"[^\W\d]\w*", NameLabel).pop()]] },
    State { name: "label", rules: &[WS, &[r("::", Punctuation).pop(), r(r"[^\W\d]\w*", NameLabel)]] },
    State {
        name: "attribute",
        rules: &[WS, &[r(">", Punctuation).pop_n(2), r(r"[^\W\d]\w*", NameAttribute)]],
    },
    State { name: "sqs", rules: &[ESCAPE, &[r("'", StringSingle).pop(), r(r"[^\\']+", StringSingle)]] },
    State { name: "dqs", rules: &[ESCAPE, &[r("\"", StringDouble).pop(), r(r#"[^\\"]+"#, StringDouble)]] },
]);

static WS: &[Rule] = &[
    r(r"--\[=*\[", CommentMultiline).extended(long_bracket),
    r(r"--.*$", CommentSingle),
    r(r"\s+", Whitespace),
];

static ESCAPE: &[Rule] =
    &[r(r#"\\(?:[abfnrtv\\"']|[\r\n]{1,2}|z\s*|x[0-9a-fA-F]{2}|\d{1,3}|u\{[0-9a-fA-F]+\})"#, StringEscape)];

/// A long bracket (`[[`, `[==[`) runs to the closing bracket of the same level.
fn long_bracket(text: &str, opener: std::ops::Range<usize>) -> Option<usize> {
    let level = text[opener.clone()].matches('=').count();
    let closer = format!("]{}]", "=".repeat(level));
    text[opener.end..].find(&closer).map(|i| opener.end + i + closer.len())
}
