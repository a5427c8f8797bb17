//! Swift, as Pygments' `SwiftLexer` (`swift`) tokenizes it: declarations name their function,
//! variable or type; the standard library's types and functions are builtins, and Cocoa's
//! classes (`NSObject`, `UIView`) pseudo-builtins.
//!
//! Pygments lists Swift 1's standard library, and 4,123 Cocoa names (40 KB); here the list
//! keeps the names Swift still has, and a Cocoa name is any `NS` or `UI` class name.

use std::ops::Range;

use super::super::engine::{Grammar, Rule, State, g, r};
use super::super::token::Token::*;

pub(in super::super) static SWIFT: Grammar = Grammar::new(&[
    State { name: "root", rules: &[ROOT_START, KEYWORDS, ROOT] },
    State {
        name: "comment-single",
        rules: &[&[r(r"\n", Whitespace).pop()], COMMENT, &[r(r"[^\n]+", CommentSingle)]],
    },
    State {
        name: "comment-multi",
        rules: &[
            COMMENT,
            &[
                r(r"[^*/]+", CommentMultiline),
                r(r"/\*", CommentMultiline).push(&["comment-multi"]),
                r(r"\*/", CommentMultiline).pop(),
                r(r"[*/]+", CommentMultiline),
            ],
        ],
    },
    State {
        name: "module",
        rules: &[&[r(r"\n", Whitespace).pop(), r(r"[a-zA-Z_]\w*", NameClass)], ROOT_START, KEYWORDS, ROOT],
    },
    State {
        name: "preproc",
        rules: &[
            &[r(r"\n", Whitespace).pop()],
            KEYWORDS,
            &[r(r"[A-Za-z]\w*", CommentPreproc)],
            ROOT_START,
            KEYWORDS,
            ROOT,
        ],
    },
    State { name: "string", rules: &[&[r("\"", String).pop()], STRING] },
    State { name: "string-multi", rules: &[&[r("\"\"\"", String).pop()], STRING] },
    State {
        name: "string-intp",
        rules: &[
            &[r(r"\(", StringInterpol).push(&["string-intp"]), r(r"\)", StringInterpol).pop()],
            ROOT_START,
            KEYWORDS,
            ROOT,
        ],
    },
]);

static ROOT_START: &[Rule] = &[
    r(r"\n", Text),
    r(r"\s+", Whitespace),
    r("//", CommentSingle).push(&["comment-single"]),
    r(r"/\*", CommentMultiline).push(&["comment-multi"]),
    r(r"#(?:if|elseif|else|endif|available)\b", CommentPreproc).push(&["preproc"]),
];

static KEYWORDS: &[Rule] = &[
    r(
        r"(?:as|async|await|break|case|catch|continue|default|defer|do|else|fallthrough|for|guard|if|in|is|repeat|return|#selector|switch|throw|try|where|while)\b",
        Keyword,
    ),
    r(r"@availability\([^)]+\)", KeywordReserved),
    r(
        r"(?:associativity|convenience|dynamic|didSet|final|get|indirect|infix|inout|lazy|left|mutating|none|nonmutating|optional|override|postfix|precedence|prefix|Protocol|required|rethrows|right|set|throws|Type|unowned|weak|willSet|@availability|@autoclosure|@noreturn|@NSApplicationMain|@NSCopying|@NSManaged|@objc|@UIApplicationMain|@IBAction|@IBDesignable|@IBInspectable|@IBOutlet)\b",
        KeywordReserved,
    ),
    r(
        r"(?:as|dynamicType|false|is|nil|self|Self|super|true|__COLUMN__|__FILE__|__FUNCTION__|__LINE__|_|#(?:file|line|column|function))\b",
        KeywordConstant,
    ),
    r(r"import\b", KeywordDeclaration).push(&["module"]),
    g(
        r"(class)(\s+)(func)(\s+)([a-zA-Z_]\w*)",
        &[KeywordDeclaration, Whitespace, KeywordDeclaration, Whitespace, NameFunction],
    ),
    g(
        r"(class)(\s+)(var)(\s+)([a-zA-Z_]\w*)",
        &[KeywordDeclaration, Whitespace, KeywordDeclaration, Whitespace, NameVariable],
    ),
    g(
        r"(class|enum|extension|struct|protocol)(\s+)([a-zA-Z_]\w*)",
        &[KeywordDeclaration, Whitespace, NameClass],
    )
    .extended(cocoa_name_is_builtin),
    g(r"(func)(\s+)([a-zA-Z_]\w*)", &[KeywordDeclaration, Whitespace, NameFunction]),
    g(r"(var|let)(\s+)([a-zA-Z_]\w*)", &[KeywordDeclaration, Whitespace, NameVariable]),
    r(
        r"(?:actor|associatedtype|class|deinit|enum|extension|func|import|init|internal|let|operator|private|protocol|public|static|struct|subscript|typealias|var)\b",
        KeywordDeclaration,
    ),
];

static ROOT: &[Rule] = &[
    r(
        r"(?:Array|AutoreleasingUnsafeMutablePointer|Bool|CVaListPointer|Character|CollectionOfOne|ContiguousArray|Dictionary|Double|EmptyCollection|Float|Float80|Int|Int16|Int32|Int64|Int8|ObjectIdentifier|Optional|Range|Repeat|Slice|StaticString|String|UInt|UInt16|UInt32|UInt64|UInt8|UTF16|UTF32|UTF8|UnicodeScalar|Unmanaged|UnsafeBufferPointer|UnsafeMutableBufferPointer|UnsafeMutablePointer|UnsafePointer|AnyObject|Comparable|Equatable|Hashable|RawRepresentable|Strideable|Any|AnyClass|CBool|CChar|CChar16|CChar32|CDouble|CFloat|CInt|CLong|CLongLong|CShort|CSignedChar|CUnsignedInt|CUnsignedLong|CUnsignedShort|CWideChar|Float32|Float64|Void|NSErrorPointer|NSObjectProtocol|Selector)\b",
        NameBuiltin,
    ),
    r(
        r"(?:abs|advance|alignof|alignofValue|assert|assertionFailure|contains|count|countElements|debugPrint|debugPrintln|distance|dropFirst|dropLast|dump|enumerate|equal|extend|fatalError|filter|find|first|getVaList|indices|insert|isEmpty|join|last|lazy|lexicographicalCompare|map|max|maxElement|min|minElement|numericCast|overlaps|partition|precondition|preconditionFailure|prefix|print|println|reduce|reflect|removeAll|removeAtIndex|removeLast|removeRange|reverse|sizeof|sizeofValue|sort|sorted|splice|split|startsWith|stride|strideof|strideofValue|suffix|swap|toDebugString|toString|transcode|underestimateCount|unsafeAddressOf|unsafeBitCast|unsafeDowncast|withExtendedLifetime|withUnsafeMutablePointer|withUnsafeMutablePointers|withUnsafePointer|withUnsafePointers|withVaList)\b",
        NameBuiltinPseudo,
    ),
    r(r"\$\d+", NameVariable),
    r("0b[01_]+", NumberBin),
    r("0o[0-7_]+", NumberOct),
    r("0x[0-9a-fA-F_]+", NumberHex),
    r(r"[0-9][0-9_]*(?:\.[0-9_]+[eE][+\-]?[0-9_]+|\.[0-9_]*|[eE][+\-]?[0-9_]+)", NumberFloat),
    r("[0-9][0-9_]*", NumberInteger),
    r("\"\"\"", String).push(&["string-multi"]),
    r("\"", String).push(&["string"]),
    r(r"[(){}\[\].,:;=@#`?]|->", Punctuation),
    r(r"[<&?]", Punctuation).before(r"\w"),
    r("[>!?]", Punctuation).extended(after_word),
    r(r"[/=\-+!*%<>&|^?~]+", Operator),
    // Pygments retypes Cocoa's names after lexing.
    r(r"(?:NS|UI)[A-Z]\w*", NameBuiltinPseudo),
    r(r"[a-zA-Z_]\w*", Name),
];

static COMMENT: &[Rule] = &[r(r":param: [a-zA-Z_]\w*|:returns?:|(?:FIXME|MARK|TODO):", CommentSpecial)];

static STRING: &[Rule] = &[
    r(r"\\\(", StringInterpol).push(&["string-intp"]),
    r(r#"\\['"\\nrt]|\\x[0-9a-fA-F]{2}|\\[0-7]{1,3}|\\u[0-9a-fA-F]{4}|\\U[0-9a-fA-F]{8}"#, StringEscape),
    r(r#"[^\\"]+"#, String),
    r(r"\\", String),
];

/// `>`, `!` or `?` right after a name (a generic's end, a force unwrap, an optional).
fn after_word(text: &str, found: Range<usize>) -> Option<usize> {
    text[..found.start].ends_with(|c: char| c.is_alphanumeric() || c == '_').then_some(found.end)
}

/// A declaration of a Cocoa name (`extension UIView`) names a pseudo-builtin, as Pygments
/// retypes it; such a declaration is left to the rules that follow.
fn cocoa_name_is_builtin(text: &str, found: Range<usize>) -> Option<usize> {
    let name = text[found.clone()].rsplit(char::is_whitespace).next().unwrap_or_default();
    let cocoa = (name.starts_with("NS") || name.starts_with("UI"))
        && name[2..].starts_with(|c: char| c.is_ascii_uppercase());
    (!cocoa).then_some(found.end)
}
