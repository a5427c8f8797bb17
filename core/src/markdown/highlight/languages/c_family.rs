//! C and C++, as Pygments' `CLexer` (`c`) and `CppLexer` (`cpp`, `c++`) tokenize them: both
//! are its `CFamilyLexer` with a few rules more, so they share every rule list here. A name
//! before a parenthesized signature and `{` or `;` is a function; the standard library's type
//! names (`size_t`, `uint8_t`, `pid_t`...) are types.

use std::ops::Range;

use super::super::engine::{Grammar, Part, Rule, State, default, g, parts, r};
use super::super::token::Token::*;

pub(in super::super) static C: Grammar = Grammar::new(&[
    State {
        name: "root",
        rules: &[WHITESPACE, C_KEYWORDS, KEYWORDS, C_FUNCTIONS, C_TYPES, TYPES, TO_STATEMENT],
    },
    State {
        name: "statement",
        rules: &[WHITESPACE, C_STATEMENTS, C_KEYWORDS, KEYWORDS, C_TYPES, TYPES, STATEMENTS, STATEMENT_END],
    },
    State {
        name: "function",
        rules: &[WHITESPACE, C_STATEMENTS, C_KEYWORDS, KEYWORDS, C_TYPES, TYPES, STATEMENTS, FUNCTION],
    },
    State { name: "string", rules: &[STRING] },
    State { name: "macro", rules: &[MACRO] },
    State { name: "if0", rules: &[IF0] },
    State { name: "classname", rules: &[WHITESPACE, CLASSNAME] },
    State {
        name: "case-value",
        rules: &[CASE_VALUE, WHITESPACE, C_STATEMENTS, C_KEYWORDS, KEYWORDS, C_TYPES, TYPES, STATEMENTS],
    },
    State { name: "attribute", rules: &[ATTRIBUTE, WHITESPACE] },
    State {
        name: "attribute-args",
        rules: &[ARGS, C_STATEMENTS, C_KEYWORDS, KEYWORDS, C_TYPES, TYPES, STATEMENTS],
    },
]);

pub(in super::super) static CPP: Grammar = Grammar::new(&[
    State {
        name: "root",
        rules: &[WHITESPACE, CPP_KEYWORDS, KEYWORDS, CPP_FUNCTIONS, CPP_TYPES, TYPES, TO_STATEMENT],
    },
    State {
        name: "statement",
        rules: &[
            WHITESPACE,
            CPP_STATEMENTS,
            CPP_KEYWORDS,
            KEYWORDS,
            CPP_TYPES,
            TYPES,
            STATEMENTS,
            STATEMENT_END,
        ],
    },
    State {
        name: "function",
        rules: &[WHITESPACE, CPP_STATEMENTS, CPP_KEYWORDS, KEYWORDS, CPP_TYPES, TYPES, STATEMENTS, FUNCTION],
    },
    State { name: "string", rules: &[STRING] },
    State { name: "macro", rules: &[MACRO] },
    State { name: "if0", rules: &[IF0] },
    State { name: "classname", rules: &[WHITESPACE, ANNOTATION_START, CLASSNAME] },
    State {
        name: "enumname",
        rules: &[WHITESPACE, &[r(r"(?:class|struct)\b", Keyword)], ANNOTATION_START, CLASSNAME],
    },
    State {
        name: "case-value",
        rules: &[
            CASE_VALUE,
            WHITESPACE,
            CPP_STATEMENTS,
            CPP_KEYWORDS,
            KEYWORDS,
            CPP_TYPES,
            TYPES,
            STATEMENTS,
        ],
    },
    State {
        name: "attribute",
        rules: &[&[r(r"using\b", Keyword), r(":", Punctuation)], ATTRIBUTE, WHITESPACE],
    },
    State {
        name: "attribute-args",
        rules: &[ARGS, CPP_STATEMENTS, CPP_KEYWORDS, KEYWORDS, CPP_TYPES, TYPES, STATEMENTS],
    },
    State {
        name: "namespace",
        rules: &[
            &[
                r(";", Punctuation).pop_to(1, "root"),
                r(r"\{", Punctuation).pop_to(1, "namespace-body"),
                r(r"inline\b", KeywordReserved),
                r(IDENT, NameNamespace),
            ],
            WHITESPACE,
            CPP_STATEMENTS,
            CPP_KEYWORDS,
            KEYWORDS,
            CPP_TYPES,
            TYPES,
            STATEMENTS,
            STATEMENT_END,
        ],
    },
    State {
        name: "namespace-body",
        rules: &[
            &[r(r"\}", Punctuation).pop()],
            WHITESPACE,
            CPP_KEYWORDS,
            KEYWORDS,
            CPP_FUNCTIONS,
            CPP_TYPES,
            TYPES,
            TO_STATEMENT,
        ],
    },
    State {
        name: "annotation",
        rules: &[
            &[
                r(r"\]\]", Punctuation).pop(),
                r(r"\(", Punctuation).push(&["attribute-args"]),
                r("::|,", Punctuation),
                r(IDENT, NameDecorator),
            ],
            WHITESPACE,
        ],
    },
]);

/// An identifier (Pygments also takes `\u` escapes, which real code does not write).
const IDENT: &str = r"(?:[^\W\d]|\$)[\w$]*";

static WHITESPACE: &[Rule] = &[
    r(r"^#if\s+0", CommentPreproc).push(&["if0"]),
    r("^#", CommentPreproc).push(&["macro"]),
    g(r"^(\s*(?:/[*].*?[*]/\s*)?)(#if\s+0)", &[Whitespace, CommentPreproc]).push(&["if0"]),
    g(r"^(\s*(?:/[*].*?[*]/\s*)?)(#)", &[Whitespace, CommentPreproc]).push(&["macro"]),
    g(r"(^[ \t]*)((?:[^\W\d]|\$)[\w$]*)(\s*)(:)", &[Whitespace, NameLabel, Whitespace, Punctuation])
        .extended(label),
    r(r"\n", Whitespace),
    r(r"[^\S\n]+", Whitespace),
    r(r"\\\n", Text),
    r(r"//(?:\\\n|.)*\n", CommentSingle),
    r(r"/(?:\\\n)?[*](?:[^*]|[*]+[^*/])*[*]+(?:\\\n)?/", CommentMultiline),
    r(r"/(?:\\\n)?[*][\w\W]*", CommentMultiline),
];

/// A label, unless it is an access specifier or `default`, or the `:` begins `::`.
fn label(text: &str, found: Range<usize>) -> Option<usize> {
    let name = text[found.clone()].trim_start();
    let specifier = ["public", "private", "protected", "default"].iter().any(|word| {
        name.strip_prefix(word)
            .is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
    });
    (!specifier && !text[found.end..].starts_with(':')).then_some(found.end)
}

/// A function's definition (ending at `{`) or declaration (at `;`): return type, name,
/// signature, each with the comments that may stand between them.
const DEFINITION: &str = r#"((?:[^\W\d]|\$|::)(?:[\w$]|::)*(?:[&*\s])+)(\s*(?:(?://(?:\\\n|.)*\n|/[*](?:[^*]|[*]+[^*/])*[*]+/)\s*)*)((?:[^\W\d]|\$|::)(?:[\w$]|::)*)(\s*(?:(?://(?:\\\n|.)*\n|/[*](?:[^*]|[*]+[^*/])*[*]+/)\s*)*)(\([^;"')]*?\))(\s*(?:(?://(?:\\\n|.)*\n|/[*](?:[^*]|[*]+[^*/])*[*]+/)\s*)*)([^;{/"']*)(\{)"#;
const DECLARATION: &str = r#"((?:[^\W\d]|\$|::)(?:[\w$]|::)*(?:[&*\s])+)(\s*(?:(?://(?:\\\n|.)*\n|/[*](?:[^*]|[*]+[^*/])*[*]+/)\s*)*)((?:[^\W\d]|\$|::)(?:[\w$]|::)*)(\s*(?:(?://(?:\\\n|.)*\n|/[*](?:[^*]|[*]+[^*/])*[*]+/)\s*)*)(\([^;"')]*?\))(\s*(?:(?://(?:\\\n|.)*\n|/[*](?:[^*]|[*]+[^*/])*[*]+/)\s*)*)([^;/"']*)(;)"#;

static C_FUNCTIONS: &[Rule] =
    &[parts(DEFINITION, C_FUNCTION_PARTS).push(&["function"]), parts(DECLARATION, C_FUNCTION_PARTS)];

static CPP_FUNCTIONS: &[Rule] =
    &[parts(DEFINITION, CPP_FUNCTION_PARTS).push(&["function"]), parts(DECLARATION, CPP_FUNCTION_PARTS)];

static C_FUNCTION_PARTS: &[Part] = &[
    Part::Using(&C),
    Part::Using(&C),
    Part::Token(NameFunction),
    Part::Using(&C),
    Part::Using(&C),
    Part::Using(&C),
    Part::Using(&C),
    Part::Token(Punctuation),
];

static CPP_FUNCTION_PARTS: &[Part] = &[
    Part::Using(&CPP),
    Part::Using(&CPP),
    Part::Token(NameFunction),
    Part::Using(&CPP),
    Part::Using(&CPP),
    Part::Using(&CPP),
    Part::Using(&CPP),
    Part::Token(Punctuation),
];

static TO_STATEMENT: &[Rule] = &[default().push(&["statement"])];

static STATEMENT_END: &[Rule] = &[r(r"\}", Punctuation), r("[{;]", Punctuation).pop()];

static FUNCTION: &[Rule] =
    &[r(";", Punctuation), r(r"\{", Punctuation).push(&["function"]), r(r"\}", Punctuation).pop()];

static KEYWORDS: &[Rule] = &[
    g(r"(struct|union)(\s+)", &[Keyword, Whitespace]).push(&["classname"]),
    r(r"case\b", Keyword).push(&["case-value"]),
    r(
        r"(?:asm|auto|break|const|constexpr|continue|countof|default|defer|do|else|enum|extern|for|goto|if|register|restricted|return|sizeof|struct|static|switch|typedef|typeof|typeof_unqual|volatile|while|union|thread_local|alignas|alignof|static_assert|_Pragma|fortran)\b",
        Keyword,
    ),
    r(r"(?:inline|_inline|__inline|naked|restrict|thread)\b", KeywordReserved),
    r(r"__m(?:128i|128d|128|64)\b", KeywordReserved),
    r(
        r"__(?:asm|based|except|stdcall|cdecl|fastcall|declspec|finally|try|leave|w64|unaligned|raise|noop|identifier|forceinline|assume|null)\b",
        KeywordReserved,
    ),
];

static C_KEYWORDS: &[Rule] = &[r(
    r"(?:_Alignas|_Alignof|_Noreturn|_Countof|_Generic|_Thread_local|_Static_assert|_Imaginary|noreturn|imaginary|complex)\b",
    Keyword,
)];

static CPP_KEYWORDS: &[Rule] = &[
    g(r"(class|concept|typename)(\s+)", &[Keyword, Whitespace]).push(&["classname"]),
    r(
        r"(?:catch|const_cast|delete|dynamic_cast|explicit|export|friend|mutable|new|operator|private|protected|public|reinterpret_cast|class|__restrict|static_cast|template|this|throw|throws|try|typeid|using|virtual|concept|decltype|noexcept|override|final|constinit|consteval|co_await|co_return|co_yield|requires|import|module|typename|and|and_eq|bitand|bitor|compl|not|not_eq|or|or_eq|xor|xor_eq|contract_assert|pre|post)\b",
        Keyword,
    ),
    r(r"namespace\b", Keyword).push(&["namespace"]),
    g(r"(enum)(\s+)", &[Keyword, Whitespace]).push(&["enumname"]),
];

static TYPES: &[Rule] = &[
    r(r"__(?:int8|int16|int32|int64|wchar_t)\b", KeywordReserved),
    r(r"(?:bool|int|long|float|short|double|char|unsigned|signed|void|_BitInt|__int128)\b", KeywordType),
];

static C_TYPES: &[Rule] =
    &[r(r"(?:_Bool|_Complex|_Atomic|_Decimal32|_Decimal64|_Decimal128)\b", KeywordType)];

static CPP_TYPES: &[Rule] = &[r(r"char(?:16_t|32_t|8_t)\b", KeywordType)];

static C_STATEMENTS: &[Rule] = &[r(r"\[\[", Punctuation).before(r"[^\[\]]*\]\]").push(&["attribute"])];

static CPP_STATEMENTS: &[Rule] = &[
    g(
        r#"((?:[LuU]|u8)?R)(")()(\()((?s:.*?))(\))(")"#,
        &[StringAffix, String, StringDelimiter, StringDelimiter, String, StringDelimiter, String],
    ),
    ANNOTATION_START[0],
    C_STATEMENTS[0],
];

static ANNOTATION_START: &[Rule] = &[
    g(r"(\[\[)(=)((?:[^\W\d]|\$)[\w$]*)", &[Punctuation, Punctuation, NameDecorator]).push(&["annotation"]),
    r(r"\[\[", Punctuation).before(r"[^\[\]]*\]\]").push(&["attribute"]),
];

static STATEMENTS: &[Rule] = &[
    g(r#"((?:[LuU]|u8)?)(")"#, &[StringAffix, String]).push(&["string"]),
    g(
        r#"((?:[LuU]|u8)?)(')(\\.|\\[0-7]{1,3}|\\x[a-fA-F0-9]{1,2}|[^\\'\n])(')"#,
        &[StringAffix, StringChar, StringChar, StringChar],
    ),
    r(
        r"0[xX](?:[0-9a-fA-F](?:'?[0-9a-fA-F])*\.[0-9a-fA-F](?:'?[0-9a-fA-F])*|\.[0-9a-fA-F](?:'?[0-9a-fA-F])*|[0-9a-fA-F](?:'?[0-9a-fA-F])*)[pP][+-]?[0-9a-fA-F](?:'?[0-9a-fA-F])*[lL]?",
        NumberFloat,
    ),
    r(r"-?(?:\d(?:'?\d)*\.\d(?:'?\d)*|\.\d(?:'?\d)*|\d(?:'?\d)*)[eE][+-]?\d(?:'?\d)*[fFlL]?", NumberFloat),
    r(r"-?(?:(?:\d(?:'?\d)*\.(?:\d(?:'?\d)*)?|\.\d(?:'?\d)*)[fFlL]?)|\d(?:'?\d)*[fFlL]", NumberFloat),
    r(r"-?0[xX][0-9a-fA-F](?:'?[0-9a-fA-F])*(?:[uU]?[zZ]|[zZ][uU]|[uU][lL]{0,2}|[lL]{1,2}[uU]?)?", NumberHex),
    r(r"-?0[bB][01](?:'?[01])*(?:[uU]?[zZ]|[zZ][uU]|[uU][lL]{0,2}|[lL]{1,2}[uU]?)?", NumberBin),
    r(r"-?0(?:'?[0-7])+(?:[uU]?[zZ]|[zZ][uU]|[uU][lL]{0,2}|[lL]{1,2}[uU]?)?", NumberOct),
    r(r"-?\d(?:'?\d)*(?:[uU]?[zZ]|[zZ][uU]|[uU][lL]{0,2}|[lL]{1,2}[uU]?)?", NumberInteger),
    r(r"[~!%^&*+=|?:<>/-]", Operator),
    r(r"[()\[\],.]", Punctuation),
    r(r"(?:true|false|NULL|nullptr)\b", NameBuiltin),
    // Pygments retypes these names after lexing (its `stdlibhighlighting` and kin).
    r(
        r"(?:size_t|ssize_t|off_t|wchar_t|ptrdiff_t|sig_atomic_t|fpos_t|clock_t|time_t|va_list|jmp_buf|FILE|DIR|div_t|ldiv_t|mbstate_t|wctrans_t|wint_t|wctype_t|byte|u?int(?:_least|_fast)?(?:8|16|32|64)_t|u?int(?:ptr|max)_t|atomic_(?:bool|s?char|uchar|u?short|u?int|u?l?long|char16_t|char32_t|wchar_t|u?int_(?:least|fast)(?:8|16|32|64)_t|u?intptr_t|size_t|ptrdiff_t|u?intmax_t)|clockid_t|cpu_set_t|cpumask_t|dev_t|gid_t|id_t|ino_t|key_t|mode_t|nfds_t|pid_t|rlim_t|sig_t|sighandler_t|siginfo_t|sigset_t|sigval_t|socklen_t|timer_t|uid_t)\b",
        KeywordType,
    ),
    r(IDENT, Name),
];

static STRING: &[Rule] = &[
    r("\"", String).pop(),
    r(r#"\\(?:[\\abfnrtv"']|x[a-fA-F0-9]{2,4}|u[a-fA-F0-9]{4}|U[a-fA-F0-9]{8}|[0-7]{1,3})"#, StringEscape),
    r(r#"[^\\"\n]+"#, String),
    r(r"\\\n", String),
    r(r"\\", String),
];

static MACRO: &[Rule] = &[
    g(
        r#"(\s*(?:/[*].*?[*]/\s*)?)(include)(\s*(?:/[*].*?[*]/\s*)?)("[^"]+"|<[^>]+>)([^\S\n]*)([^\n]*)"#,
        &[Whitespace, CommentPreproc, Whitespace, CommentPreprocFile, Whitespace, CommentSingle],
    ),
    r(r"[^/\n]+", CommentPreproc),
    r(r"(?s)/[*].*?[*]/", CommentMultiline),
    r(r"//.*?\n", CommentSingle).pop(),
    r("/", CommentPreproc),
    r(r"\n", CommentPreproc).pop().not_after("\\"),
    r(r"\n", CommentPreproc),
];

static IF0: &[Rule] = &[
    r(r"^\s*#if.*?\n", CommentPreproc).push(&["if0"]),
    r(r"^\s*#el(?:se|if).*\n", CommentPreproc).pop(),
    r(r"^\s*#endif.*?\n", CommentPreproc).pop(),
    r(r".*?\n", Comment),
];

static CLASSNAME: &[Rule] = &[r(IDENT, NameClass).pop(), r(r"\s*", Text).before(">").pop(), default().pop()];

static CASE_VALUE: &[Rule] =
    &[r(":", Punctuation).not_after(":").not_before(":").pop(), r(IDENT, NameConstant)];

static ATTRIBUTE: &[Rule] = &[
    r(r"\]\]", Punctuation).pop(),
    r(IDENT, NameAttribute),
    r(r"\(", Punctuation).push(&["attribute-args"]),
    r("::", Punctuation),
    r(",", Punctuation),
];

static ARGS: &[Rule] = &[r(r"\)", Punctuation).pop(), r(r"\(", Punctuation).push(&["attribute-args"])];
