//! Kotlin, as Pygments' `KotlinLexer` (`kotlin`) tokenizes it: declarations name their class,
//! variable or function; a name after `.` is an attribute; `$name` and `${...}` interpolate.

use super::super::engine::{Grammar, Part, Rule, State, g, parts, r};
use super::super::token::Token::*;

/// A name, or any text between backticks (a macro, to build patterns with `concat!`).
macro_rules! id_body {
    () => {
        r"@?[_\p{Lu}\p{Ll}\p{Lt}\p{Lm}\p{Nl}][\p{Lu}\p{Ll}\p{Lt}\p{Lm}\p{Nl}\p{Nd}\p{Pc}\p{Cf}\p{Mn}\p{Mc}]*|`@?[_\p{Lu}\p{Ll}\p{Lt}\p{Lm}\p{Nl}][\p{Lu}\p{Ll}\p{Lt}\p{Lm}\p{Nl}\p{Nd}\p{Pc}\p{Cf}\p{Mn}\p{Mc}\p{Zs}'~!%^&*()+=|\[\]:;,.<>/?-]*`"
    };
}

/// What may stand before a declaration.
macro_rules! modifiers {
    () => {
        r"(?:actual|abstract|annotation|companion|const|crossinline|data|enum|expect|external|final|infix|inline|inner|internal|lateinit|noinline|open|operator|override|private|protected|public|sealed|suspend|tailrec|value)"
    };
}

pub(in super::super) static KOTLIN: Grammar = Grammar::new(&[
    State { name: "root", rules: &[ROOT] },
    State { name: "class", rules: &[&[r(r"\{", Punctuation).pop(), r(ID, NameClass).pop()]] },
    State { name: "variable", rules: &[&[r(ID, NameVariable).pop()]] },
    State {
        name: "destructuring_assignment",
        rules: &[&[
            r(",", Punctuation),
            r(r"\s+", Whitespace),
            r(ID, NameVariable),
            g(concat!(r"(:)(\s+)(", id_body!(), ")"), &[Punctuation, Whitespace, Name]),
            r("<", Operator).push(&["generic"]),
            r(r"\)", Punctuation).pop(),
        ]],
    },
    State {
        name: "function",
        rules: &[&[
            r("<", Operator).push(&["generic"]),
            g(concat!("(", id_body!(), r")(\.)(", id_body!(), ")"), &[Name, Punctuation, NameFunction]).pop(),
            r(ID, NameFunction).pop(),
        ]],
    },
    State {
        name: "generic",
        rules: &[&[
            g(r"(>)(\s*)", &[Operator, Whitespace]).pop(),
            r(":", Punctuation),
            r(r"(?:reified|out|in)\b", Keyword),
            r(",", Punctuation),
            r(r"\s+", Whitespace),
            r(ID, Name),
        ]],
    },
    State { name: "string", rules: &[&[r("\"", String).pop()], STRING] },
    State { name: "multiline_string", rules: &[&[r("\"\"\"", String).pop(), r("\"", String)], STRING] },
    State {
        name: "interpolation",
        rules: &[
            &[
                r("\"", String),
                r(r"\$\{", StringInterpol).push(&["interpolation"]),
                r(r"\{", Punctuation).push(&["scope"]),
                r(r"\}", StringInterpol).pop(),
            ],
            ROOT,
        ],
    },
    State {
        name: "scope",
        rules: &[&[r(r"\{", Punctuation).push(&["scope"]), r(r"\}", Punctuation).pop()], ROOT],
    },
]);

const ID: &str = concat!("(?:", id_body!(), ")");
/// Modifiers before a declaration are all declaration keywords.
static MODIFIER_LIST: Grammar = Grammar::new(&[State {
    name: "root",
    rules: &[&[r(r"\w+", KeywordDeclaration), r(r"\s+", Whitespace)]],
}]);

static DECLARATION_PARTS: &[Part] =
    &[Part::Using(&MODIFIER_LIST), Part::Token(KeywordDeclaration), Part::Token(Whitespace)];

static ROOT: &[Rule] = &[
    r(r"\s+", Whitespace),
    r(r"\\$", StringEscape),
    g(r"(//.*?)(\n)", &[CommentSingle, Whitespace]),
    g(r"^(#!/.+?)(\n)", &[CommentSingle, Whitespace]),
    r(r"(?s)/[*].*?[*]/", CommentMultiline),
    r(r"as\?", Keyword),
    r(
        r"(?:as|break|by|catch|constructor|continue|do|dynamic|else|finally|get|for|if|init|!*in|!*is|out|reified|return|set|super|this|throw|try|typealias|typeof|vararg|when|where|while)\b",
        Keyword,
    ),
    r(r"it\b", NameBuiltin),
    r(r"(?:Boolean|Byte|Char|Double|Float|Int|Long|Short|String|Any|Unit)\?", KeywordType),
    r(r"(?:Boolean|Byte|Char|Double|Float|Int|Long|Short|String|Any|Unit)\b", KeywordType),
    r(r"(?:true|false|null)\b", KeywordConstant),
    g(r"(package|import)(\s+)(\S+)", &[Keyword, Whitespace, NameNamespace]),
    g(r"(\?\.)((?:[^\W\d]|\$)[\w$]*)", &[Operator, NameAttribute]),
    g(r"(\.)((?:[^\W\d]|\$)[\w$]*)", &[Punctuation, NameAttribute]),
    r(r"@[^\W\d][\w.]*", NameDecorator),
    r(r"[^\W\d][\w.]+@", NameDecorator),
    g(r"(object)(\s+)(:)(\s+)", &[Keyword, Whitespace, Punctuation, Whitespace]).push(&["class"]),
    parts(concat!(r"((?:(?:", modifiers!(), r"|fun)\s+)*)(class|interface|object)(\s+)"), DECLARATION_PARTS)
        .push(&["class"]),
    g(r"(var|val)(\s+)(\()", &[KeywordDeclaration, Whitespace, Punctuation])
        .push(&["destructuring_assignment"]),
    parts(concat!(r"((?:", modifiers!(), r"\s+)*)(var|val)(\s+)"), DECLARATION_PARTS).push(&["variable"]),
    parts(concat!(r"((?:", modifiers!(), r"\s+)*)(fun)(\s+)"), DECLARATION_PARTS).push(&["function"]),
    r(r"::|!!|\?[:.]", Operator),
    r(r"[~^*!%&\[\]<>|+=/?-]", Operator),
    r(r"[{}();:.,]", Punctuation),
    r("\"\"\"", String).push(&["multiline_string"]),
    r("\"", String).push(&["string"]),
    r(r"'\\.'|'[^\\]'", StringChar),
    r(r"[0-9](?:\.[0-9]*)?(?:[eE][+-][0-9]+)?[flFL]?|0[xX][0-9a-fA-F]+[Ll]?", Number),
    r(concat!("(?:", id_body!(), r")\?"), Name).not_before("[.:]"),
    r(ID, Name),
];

static STRING: &[Rule] = &[
    r(r"\\\\", String),
    r(r#"\\""#, String),
    r(r"\\", String),
    r(r"\$\{", StringInterpol).push(&["interpolation"]),
    g(r"(\$)(\w+)", &[StringInterpol, Name]),
    r(r#"[^\\"$]+"#, String),
];
