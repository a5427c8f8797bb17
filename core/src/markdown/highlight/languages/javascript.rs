//! JavaScript and TypeScript, as Pygments' `JavascriptLexer` (`js`, `javascript`) and
//! `TypeScriptLexer` (`ts`, `typescript`) tokenize them: names are `Name.Other`, and a `/`
//! where an expression may start begins a regular expression.

use super::super::engine::{Grammar, Rule, State, default, g, r};
use super::super::token::Token::*;

pub(in super::super) static JAVASCRIPT: Grammar = Grammar::new(&[
    State { name: "root", rules: &[ROOT_START, COMMENTS_AND_WHITESPACE, ROOT] },
    State { name: "slashstartsregex", rules: &[COMMENTS_AND_WHITESPACE, SLASH_STARTS_REGEX] },
    State { name: "badregex", rules: &[BAD_REGEX] },
    State { name: "interp", rules: &[INTERP] },
    State {
        name: "interp-inside",
        rules: &[&[r(r"\}", StringInterpol).pop()], ROOT_START, COMMENTS_AND_WHITESPACE, ROOT],
    },
]);

pub(in super::super) static TYPESCRIPT: Grammar = Grammar::new(&[
    State { name: "root", rules: &[TYPESCRIPT_ROOT, ROOT_START, COMMENTS_AND_WHITESPACE, ROOT] },
    State { name: "slashstartsregex", rules: &[COMMENTS_AND_WHITESPACE, SLASH_STARTS_REGEX] },
    State { name: "badregex", rules: &[BAD_REGEX] },
    State { name: "interp", rules: &[INTERP] },
    State {
        name: "interp-inside",
        rules: &[
            &[r(r"\}", StringInterpol).pop()],
            TYPESCRIPT_ROOT,
            ROOT_START,
            COMMENTS_AND_WHITESPACE,
            ROOT,
        ],
    },
]);

const IDENT: &str = r"[$_\p{Lu}\p{Ll}\p{Lt}\p{Lm}\p{Lo}\p{Nl}][$\p{Lu}\p{Ll}\p{Lt}\p{Lm}\p{Lo}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}\x{200c}\x{200d}]*";

static COMMENTS_AND_WHITESPACE: &[Rule] = &[
    r(r"\s+", Whitespace),
    r("<!--", Comment),
    r(r"//.*?$", CommentSingle),
    r(r"(?s)/\*.*?\*/", CommentMultiline),
];

static SLASH_STARTS_REGEX: &[Rule] = &[
    r(r"/(?:\\.|[^\[/\\\n]|\[(?:\\.|[^\]\\\n])*\])+/(?:[gimuysd]+\b|\B)", StringRegex).pop(),
    default().before("/").pop_to(1, "badregex"),
    default().pop(),
];

static BAD_REGEX: &[Rule] = &[r(r"\n", Whitespace).pop()];

static INTERP: &[Rule] = &[
    r("`", StringBacktick).pop(),
    r(r"(?s)\\.", StringBacktick),
    r(r"\$\{", StringInterpol).push(&["interp-inside"]),
    r(r"\$", StringBacktick),
    r(r"[^`\\$]+", StringBacktick),
];

static ROOT_START: &[Rule] =
    &[r(r"\A#! ?/.*?$", CommentHashbang), r("^", Text).before(r"\s|/|<!--").push(&["slashstartsregex"])];

static ROOT: &[Rule] = &[
    r("0[bB][01]+n?", NumberBin),
    r("0[oO]?[0-7]+n?", NumberOct),
    r("0[xX][0-9a-fA-F]+n?", NumberHex),
    r("[0-9]+n", NumberInteger),
    r(r"(?:\.[0-9]+|[0-9]+\.[0-9]*|[0-9]+)(?:[eE][-+]?[0-9]+)?", NumberFloat),
    r(r"\.\.\.|=>", Punctuation),
    r(r"\+\+|--|~|\?\?=?|\?|:|(?:<<|>>>?|==?|!=?|(?:\*\*|\|\||&&|[-<>+*%&|^/]))=?", Operator).push(&["slashstartsregex"]),
    r(r"\\", Operator).before(r"\n").push(&["slashstartsregex"]),
    r(r"[{(\[;,]", Punctuation).push(&["slashstartsregex"]),
    r(r"[})\].]", Punctuation),
    r(r"(?:typeof|instanceof|in|void|delete|new)\b", OperatorWord).push(&["slashstartsregex"]),
    r(r"\b(?:constructor|from|as)\b", KeywordReserved),
    r(r"(?:for|in|while|do|break|return|continue|switch|case|default|if|else|throw|try|catch|finally|yield|await|async|this|of|static|export|import|debugger|extends|super)\b", Keyword).push(&["slashstartsregex"]),
    r(r"(?:var|let|const|with|function|class)\b", KeywordDeclaration).push(&["slashstartsregex"]),
    r(r"(?:abstract|boolean|byte|char|double|enum|final|float|goto|implements|int|interface|long|native|package|private|protected|public|short|synchronized|throws|transient|volatile)\b", KeywordReserved),
    r(r"(?:true|false|null|NaN|Infinity|undefined)\b", KeywordConstant),
    r(r"(?:Array|Boolean|Date|BigInt|Function|Math|ArrayBuffer|Number|Object|RegExp|String|Promise|Proxy|decodeURI|decodeURIComponent|encodeURI|encodeURIComponent|eval|isFinite|isNaN|parseFloat|parseInt|DataView|document|window|globalThis|global|arguments|Symbol|Intl|WeakSet|WeakMap|Set|Map|Reflect|JSON|Atomics|Int(?:8|16|32)Array|BigInt64Array|Float32Array|Float64Array|Uint8ClampedArray|Uint(?:8|16|32)Array|BigUint64Array)\b", NameBuiltin),
    r(r"(?:(?:Eval|Internal|Range|Reference|Syntax|Type|URI)?Error)\b", NameException),
    g(r"(super)(\s*)", &[Keyword, Whitespace]).before(r"\([\w,?.$\s]+\s*\)").push(&["slashstartsregex"]),
    r(r"[a-zA-Z_?.$][\w?.$]*", NameOther).before(r"\(\) \{").push(&["slashstartsregex"]),
    r(IDENT, NameOther),
    r(r#""(?:\\\\|\\[^\\]|[^"\\])*""#, StringDouble),
    r(r"'(?:\\\\|\\[^\\]|[^'\\])*'", StringSingle),
    r("`", StringBacktick).push(&["interp"]),
    r(r"#[a-zA-Z_]\w*", Name),
];

static TYPESCRIPT_ROOT: &[Rule] = &[
    r(r"(?:abstract|implements|private|protected|public|readonly)\b", Keyword).push(&["slashstartsregex"]),
    r(r"(?:enum|interface|override)\b", KeywordDeclaration).push(&["slashstartsregex"]),
    r(r"\b(?:declare|type)\b", KeywordReserved),
    r(r"\b(?:string|boolean|number)\b", KeywordType),
    g(r"\b(module)(\s+)([\w?.$]+)(\s*)", &[KeywordReserved, Whitespace, NameOther, Whitespace])
        .push(&["slashstartsregex"]),
    g(r"([\w?.$]+)(\s*)(:)(\s*)([\w?.$]+)", &[NameOther, Whitespace, Operator, Whitespace, KeywordType]),
    r(
        r"@[$_\p{Lu}\p{Ll}\p{Lt}\p{Lm}\p{Lo}\p{Nl}][$\p{Lu}\p{Ll}\p{Lt}\p{Lm}\p{Lo}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*",
        KeywordDeclaration,
    ),
];
