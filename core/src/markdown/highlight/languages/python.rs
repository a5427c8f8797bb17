//! Python, as Pygments' `PythonLexer` (aliases `python`, `py`, `python3`...) tokenizes it.

use super::super::engine::{Grammar, Rule, State, default, g, r};
use super::super::token::Token::*;

pub(in super::super) static PYTHON: Grammar = Grammar::new(&[
    State { name: "root", rules: &[ROOT, EXPR] },
    State { name: "funcname", rules: &[MAGIC_FUNCTIONS, &[r(NAME, NameFunction).pop(), default().pop()]] },
    State { name: "classname", rules: &[&[r(NAME, NameClass).pop(), default().pop()]] },
    State { name: "import", rules: &[IMPORT] },
    State { name: "fromimport", rules: &[FROM_IMPORT] },
    State {
        name: "dqs",
        rules: &[
            &[r(r#"""#, StringDouble).pop()],
            ESCAPES,
            &[r(r#"\\\\|\\"|\\\n"#, StringEscape)],
            FORMAT,
            &[r(r#"[^\\'"%{\n]+"#, StringDouble), r(r#"[\\'"%{]"#, StringDouble)],
        ],
    },
    State {
        name: "sqs",
        rules: &[
            &[r("'", StringSingle).pop()],
            ESCAPES,
            &[r(r"\\\\|\\'|\\\n", StringEscape)],
            FORMAT,
            &[r(r#"[^\\'"%{\n]+"#, StringSingle), r(r#"[\\'"%{]"#, StringSingle)],
        ],
    },
    State {
        name: "tdqs",
        rules: &[
            &[r(r#"""""#, StringDouble).pop()],
            ESCAPES,
            FORMAT,
            &[r(r#"[^\\'"%{]+"#, StringDouble), r(r#"[\\'"%{]"#, StringDouble)],
        ],
    },
    State {
        name: "tsqs",
        rules: &[
            &[r("'''", StringSingle).pop()],
            ESCAPES,
            FORMAT,
            &[r(r#"[^\\'"%{]+"#, StringSingle), r(r#"[\\'"%{]"#, StringSingle)],
        ],
    },
    State {
        name: "rdqs",
        rules: &[&[
            r(r#"""#, StringDouble).pop(),
            r(r#"\\\\|\\"|\\\n"#, StringEscape),
            r(r#"[^\\"\n]+|\\"#, StringDouble),
        ]],
    },
    State {
        name: "rsqs",
        rules: &[&[
            r("'", StringSingle).pop(),
            r(r"\\\\|\\'|\\\n", StringEscape),
            r(r"[^\\'\n]+|\\", StringSingle),
        ]],
    },
    State {
        name: "dqf",
        rules: &[
            &[r(r#"""#, StringDouble).pop()],
            ESCAPES,
            &[r(r#"\\\\|\\"|\\\n"#, StringEscape)],
            FSTRING,
            &[r(r#"[^\\'"{}\n]+"#, StringDouble), r(r#"[\\'"]"#, StringDouble)],
        ],
    },
    State {
        name: "sqf",
        rules: &[
            &[r("'", StringSingle).pop()],
            ESCAPES,
            &[r(r"\\\\|\\'|\\\n", StringEscape)],
            FSTRING,
            &[r(r#"[^\\'"{}\n]+"#, StringSingle), r(r#"[\\'"]"#, StringSingle)],
        ],
    },
    State {
        name: "tdqf",
        rules: &[
            &[r(r#"""""#, StringDouble).pop()],
            ESCAPES,
            FSTRING,
            &[r(r#"[^\\'"{}]+"#, StringDouble), r(r#"[\\'"]"#, StringDouble)],
        ],
    },
    State {
        name: "tsqf",
        rules: &[
            &[r("'''", StringSingle).pop()],
            ESCAPES,
            FSTRING,
            &[r(r#"[^\\'"{}]+"#, StringSingle), r(r#"[\\'"]"#, StringSingle)],
        ],
    },
    State {
        name: "fexpr",
        rules: &[
            &[
                r(r"[{(\[]", Punctuation).push(&["fexpr-inner"]),
                r(r"(?:=\s*)?(?:![sraf])?\}", StringInterpol).pop(),
                r(r"(?:=\s*)?(?:![sraf])?:", StringInterpol).pop(),
                r(r"\s+", Whitespace),
            ],
            EXPR,
        ],
    },
    State {
        name: "fexpr-inner",
        rules: &[
            &[
                r(r"[{(\[]", Punctuation).push(&["fexpr-inner"]),
                r(r"[\])}]", Punctuation).pop(),
                r(r"\s+", Whitespace),
            ],
            EXPR,
        ],
    },
]);

const NAME: &str = r"[_\p{XID_Start}]\p{XID_Continue}*";

static ROOT: &[Rule] = &[
    r(r"\n", Whitespace),
    g(r#"^(\s*)([rRuUbB]{0,2})("""(?s:.)*?""")"#, &[Whitespace, StringAffix, StringDoc]),
    g(r"^(\s*)([rRuUbB]{0,2})('''(?s:.)*?''')", &[Whitespace, StringAffix, StringDoc]),
    r(r"\A#!.+$", CommentHashbang),
    r(r"#.*$", CommentSingle),
    r(r"\\\n|\\", Text),
    r(r"(?:assert|async|await|break|continue|del|elif|else|except|finally|for|global|if|lambda|pass|raise|nonlocal|return|try|while|yield from|yield|as|with)\b", Keyword),
    r(r"(?:True|False|None)\b", KeywordConstant),
    g(r"^([ \t]*)(match|case)\b", &[Text, Keyword])
        .not_before(r"[ \t]*(?:[:,;=^&|@~)\]}]|(?:False|None|True|and|as|assert|async|await|break|class|continue|def|del|elif|else|except|finally|for|from|global|if|import|in|is|lambda|nonlocal|not|or|pass|raise|return|try|while|with|yield)\b)"),
    g(r"(def)((?:\s|\\\s)+)", &[Keyword, Whitespace]).push(&["funcname"]),
    g(r"(class)((?:\s|\\\s)+)", &[Keyword, Whitespace]).push(&["classname"]),
    g(r"(from)((?:\s|\\\s)+)", &[KeywordNamespace, Whitespace]).push(&["fromimport"]),
    g(r"(import)((?:\s|\\\s)+)", &[KeywordNamespace, Whitespace]).push(&["import"]),
];

static EXPR: &[Rule] = &[
    g(r#"((?i:r[ft]|[ft]r))(""")"#, &[StringAffix, StringDouble]).push(&["tdqf"]),
    g(r"((?i:r[ft]|[ft]r))(''')", &[StringAffix, StringSingle]).push(&["tsqf"]),
    g(r#"((?i:r[ft]|[ft]r))(")"#, &[StringAffix, StringDouble]).push(&["dqf"]),
    g(r"((?i:r[ft]|[ft]r))(')", &[StringAffix, StringSingle]).push(&["sqf"]),
    g(r#"([fFtT])(""")"#, &[StringAffix, StringDouble]).push(&["tdqf"]),
    g(r"([fFtT])(''')", &[StringAffix, StringSingle]).push(&["tsqf"]),
    g(r#"([fFtT])(")"#, &[StringAffix, StringDouble]).push(&["dqf"]),
    g(r"([fFtT])(')", &[StringAffix, StringSingle]).push(&["sqf"]),
    g(r#"((?i:rb|br|r))(""")"#, &[StringAffix, StringDouble]).push(&["tdqs"]),
    g(r"((?i:rb|br|r))(''')", &[StringAffix, StringSingle]).push(&["tsqs"]),
    g(r#"((?i:rb|br|r))(")"#, &[StringAffix, StringDouble]).push(&["rdqs"]),
    g(r"((?i:rb|br|r))(')", &[StringAffix, StringSingle]).push(&["rsqs"]),
    g(r#"([uUbB]?)(""")"#, &[StringAffix, StringDouble]).push(&["tdqs"]),
    g(r"([uUbB]?)(''')", &[StringAffix, StringSingle]).push(&["tsqs"]),
    g(r#"([uUbB]?)(")"#, &[StringAffix, StringDouble]).push(&["dqs"]),
    g(r"([uUbB]?)(')", &[StringAffix, StringSingle]).push(&["sqs"]),
    r(r"[^\S\n]+", Text),
    r(r"(?:\d(?:_?\d)*\.(?:\d(?:_?\d)*)?|(?:\d(?:_?\d)*)?\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?j?", NumberFloat),
    r(r"\d(?:_?\d)*[eE][+-]?\d(?:_?\d)*j?", NumberFloat),
    r(r"0[oO](?:_?[0-7])+", NumberOct),
    r(r"0[bB](?:_?[01])+", NumberBin),
    r(r"0[xX](?:_?[a-fA-F0-9])+", NumberHex),
    r(r"\d(?:_?\d)*", NumberInteger),
    r(r"!=|==|<<|>>|:=|[-~+/*%=<>&^|.]", Operator),
    r(r"[\]{}:(),;\[]", Punctuation),
    r(r"(?:in|is|and|or|not)\b", OperatorWord),
    r(r"(?:async for|await|else|for|if|lambda|yield from|yield)\b", Keyword),
    r(r"(?:True|False|None)\b", KeywordConstant),
    r(r"(?:__import__|abs|aiter|all|any|bin|bool|bytearray|breakpoint|bytes|callable|chr|classmethod|compile|complex|delattr|dict|dir|divmod|enumerate|eval|filter|float|format|frozendict|frozenset|getattr|globals|hasattr|hash|hex|id|input|int|isinstance|issubclass|iter|len|list|locals|map|max|memoryview|min|next|object|oct|open|ord|pow|print|property|range|repr|reversed|round|sentinel|set|setattr|slice|sorted|staticmethod|str|sum|super|tuple|type|vars|zip)\b", NameBuiltin).not_after("."),
    r(r"(?:self|Ellipsis|NotImplemented|cls)\b", NameBuiltinPseudo).not_after("."),
    r(r"(?:ArithmeticError|AssertionError|AttributeError|BaseException|BaseExceptionGroup|BlockingIOError|BrokenPipeError|BufferError|BytesWarning|ChildProcessError|ConnectionAbortedError|ConnectionError|ConnectionRefusedError|ConnectionResetError|DeprecationWarning|EOFError|EncodingWarning|EnvironmentError|Exception|ExceptionGroup|FileExistsError|FileNotFoundError|FloatingPointError|FutureWarning|GeneratorExit|IOError|ImportError|ImportWarning|IndentationError|IndexError|InterruptedError|IsADirectoryError|KeyError|KeyboardInterrupt|LookupError|MemoryError|ModuleNotFoundError|NameError|NotADirectoryError|NotImplementedError|OSError|OverflowError|PendingDeprecationWarning|PermissionError|ProcessLookupError|RecursionError|ReferenceError|ResourceWarning|RuntimeError|RuntimeWarning|StopAsyncIteration|StopIteration|SyntaxError|SyntaxWarning|SystemError|SystemExit|TabError|TimeoutError|TypeError|UnboundLocalError|UnicodeDecodeError|UnicodeEncodeError|UnicodeError|UnicodeTranslateError|UnicodeWarning|UserWarning|VMSError|ValueError|Warning|WindowsError|ZeroDivisionError)\b", NameException).not_after("."),
    MAGIC_FUNCTION,
    r(r"__(?:annotations|bases|class|closure|code|defaults|dict|doc|file|func|globals|kwdefaults|module|mro|name|objclass|qualname|self|slots|weakref)__\b", NameVariableMagic),
    r(r"@[_\p{XID_Start}]\p{XID_Continue}*", NameDecorator),
    r("@", Operator),
    r(NAME, Name),
];

const MAGIC_FUNCTION: Rule = r(
    r"__(?:abs|add|aenter|aexit|aiter|and|anext|await|bool|bytes|call|complex|contains|del|delattr|delete|delitem|dir|divmod|enter|eq|exit|float|floordiv|format|ge|get|getattr|getattribute|getitem|gt|hash|iadd|iand|ifloordiv|ilshift|imatmul|imod|imul|index|init|instancecheck|int|invert|ior|ipow|irshift|isub|iter|itruediv|ixor|le|len|length_hint|lshift|lt|matmul|missing|mod|mul|ne|neg|new|next|or|pos|pow|prepare|radd|rand|rdivmod|repr|reversed|rfloordiv|rlshift|rmatmul|rmod|rmul|ror|round|rpow|rrshift|rshift|rsub|rtruediv|rxor|set|setattr|setitem|str|sub|subclasscheck|truediv|xor)__\b",
    NameFunctionMagic,
);

static MAGIC_FUNCTIONS: &[Rule] = &[MAGIC_FUNCTION.pop()];

static IMPORT: &[Rule] = &[
    g(r"(\s+)(as)(\s+)", &[Whitespace, Keyword, Whitespace]),
    r(r"\.", NameNamespace),
    r(NAME, NameNamespace),
    g(r"(\s*)(,)(\s*)", &[Whitespace, Operator, Whitespace]),
    default().pop(),
];

static FROM_IMPORT: &[Rule] = &[
    g(r"(\s+)(import)\b", &[Whitespace, KeywordNamespace]).pop(),
    r(r"\.", NameNamespace),
    r(r"None\b", KeywordConstant).pop(),
    r(NAME, NameNamespace),
    default().pop(),
];

/// Escapes of ordinary strings (raw strings have none).
static ESCAPES: &[Rule] = &[
    r(r"\\(?:N\{.*?\}|u[a-fA-F0-9]{4}|U[a-fA-F0-9]{8})", StringEscape),
    r(r#"\\(?:[\\abfnrtv"']|\n|x[a-fA-F0-9]{2}|[0-7]{1,3})"#, StringEscape),
];

/// `%` and `str.format` fields inside ordinary strings.
static FORMAT: &[Rule] = &[
    r(r"%(?:\(\w+\))?[-#0 +]*(?:[0-9]+|[*])?(?:\.(?:[0-9]+|[*]))?[hlL]?[E-GXc-giorsaux%]", StringInterpol),
    r(
        r"\{(?:\w+(?:\.\w+|\[[^\]]+\])*)?(?:![sra])?(?::(?:.?[<>=^])?[-+ ]?#?0?(?:\d+)?,?(?:\.\d+)?[E-GXb-gnosx%]?)?\}",
        StringInterpol,
    ),
];

/// Replacement fields of f-strings.
static FSTRING: &[Rule] =
    &[r(r"\{\{|\}\}", StringEscape), r(r"\}", StringInterpol), r(r"\{", StringInterpol).push(&["fexpr"])];
