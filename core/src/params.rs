//! Request parameters as Zulip clients send them, decoded the way Zulip's `typed_endpoint` does.
//!
//! The host gathers name/value pairs from the query string and from form-urlencoded or multipart
//! bodies (on every method, DELETE included) into a [`Params`]; endpoints read typed values from it
//! with [`Params::required`], [`Params::optional`] and [`Params::or`].
//!
//! The value rules are Zulip's (`zerver/lib/typed_endpoint.py`), where every parameter but a plain
//! string is declared `Json[...]` and validated by Pydantic in strict mode:
//!
//! - a [`String`] parameter is the raw text, unchanged;
//! - every other type is the JSON encoding of the value, as the Python client `json.dumps`es it:
//!   a boolean is `true` or `false`, an integer a JSON integer (`123`, `-4`; no quotes, fraction or
//!   exponent), a list or object its JSON text ([`Json`]). JSON whitespace around the value is
//!   allowed, as JSON allows it.
//! - Text that is not JSON at all is `NAME is not valid JSON`, even where a boolean or integer is
//!   expected; JSON of the wrong kind is `NAME is not a boolean` and so on ([`BadValue`]). The name
//!   in the message carries the location inside the value as Zulip renders Pydantic's error
//!   location: `to[1] is not an integer`, `data["num"] is not an integer`.
//!
//! Every name an endpoint reads is remembered, so that the rest can be reported in
//! `ignored_parameters_unsupported` ([`Params::ignored`]).
//!
//! Decoding never panics, whatever the bytes, and allocates in proportion to the input:
//! serde_json's recursion limit bounds the depth of a JSON value.

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::fmt;

use serde::Deserializer as _;
use serde::de::{
    self, Deserialize, DeserializeOwned, DeserializeSeed, EnumAccess, MapAccess, SeqAccess, VariantAccess,
    Visitor,
};
use serde_json::{Map, Number, Value};

use crate::error::{ApiError, ApiResult};

/// Why a parameter's value was refused.
///
/// Each variant is one of the `ERROR_TEMPLATES` of Zulip's `zerver/lib/typed_endpoint.py`, and is
/// sent with code `BAD_REQUEST`, as Zulip's `ApiParamValidationError` is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadValue {
    /// The text is not JSON (Pydantic's `json_invalid`).
    NotValidJson,
    /// JSON other than `true` or `false` where a boolean is expected.
    NotABoolean,
    /// JSON other than an integer in range where an integer is expected.
    NotAnInteger,
    /// JSON other than a number where a float is expected.
    NotAFloat,
    /// JSON other than a string where a string is expected.
    NotAString,
    /// JSON other than an array where a list is expected.
    NotAList,
    /// JSON other than an object where a dict is expected.
    NotADict,
    /// An object has a key the endpoint does not take (Pydantic's `extra_forbidden`); holds the key.
    UnexpectedArgument(String),
    /// Any other shape. This is Zulip's `literal_error` template, which Confab also uses where
    /// Zulip would have no template at all (a missing field, an unknown variant).
    Invalid,
}

impl BadValue {
    /// Zulip's message template, with its Python `str.format` placeholders.
    pub fn template(&self) -> &'static str {
        match self {
            BadValue::NotValidJson => "{var_name} is not valid JSON",
            BadValue::NotABoolean => "{var_name} is not a boolean",
            BadValue::NotAnInteger => "{var_name} is not an integer",
            BadValue::NotAFloat => "{var_name} is not a float",
            BadValue::NotAString => "{var_name} is not a string",
            BadValue::NotAList => "{var_name} is not a list",
            BadValue::NotADict => "{var_name} is not a dict",
            BadValue::UnexpectedArgument(_) => "Argument \"{argument}\" at {var_name} is unexpected",
            BadValue::Invalid => "Invalid {var_name}",
        }
    }

    /// The error for a value at `var_name`: the parameter's name, followed by the location inside
    /// its JSON value where there is one (`to[1]`, `data["num"]`).
    pub fn error(&self, var_name: &str) -> ApiError {
        let argument = match self {
            BadValue::UnexpectedArgument(key) => key.as_str(),
            _ => "",
        };
        ApiError::bad_request(fill(self.template(), var_name, argument))
    }
}

/// Substitutes the two placeholders the templates use, in one pass over the template, so that a
/// name or key which itself contains `{var_name}` is not substituted again.
fn fill(template: &str, var_name: &str, argument: &str) -> String {
    let mut out = String::with_capacity(template.len() + var_name.len() + argument.len());
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let at = &rest[start..];
        if let Some(after) = at.strip_prefix("{var_name}") {
            out.push_str(var_name);
            rest = after;
        } else if let Some(after) = at.strip_prefix("{argument}") {
            out.push_str(argument);
            rest = after;
        } else {
            out.push('{');
            rest = &at[1..];
        }
    }
    out.push_str(rest);
    out
}

/// A request's parameters, in request order.
///
/// Where a name repeats, the last value wins, as with Django's `QueryDict`. Reading a name marks
/// it used; [`Params::ignored`] lists the names never read.
#[derive(Debug, Default)]
pub struct Params {
    pairs: Vec<(String, String)>,
    // Interior mutability because reads happen through `&Params` all over the endpoint code;
    // a `RefCell` keeps `Params: Send`, which is all a request needs.
    used: RefCell<BTreeSet<String>>,
}

impl Params {
    /// Parameters from name/value pairs, in request order.
    pub fn from_pairs(pairs: impl IntoIterator<Item = (String, String)>) -> Self {
        Params { pairs: pairs.into_iter().collect(), used: RefCell::default() }
    }

    /// Parameters from an `application/x-www-form-urlencoded` query string or body.
    ///
    /// Accepts any bytes: invalid percent-escapes stay as they are and invalid UTF-8 is replaced
    /// with U+FFFD, as Django's `QueryDict` does.
    pub fn parse_urlencoded(bytes: &[u8]) -> Self {
        Self::from_pairs(form_urlencoded::parse(bytes).map(|(k, v)| (k.into_owned(), v.into_owned())))
    }

    /// Appends `other`'s parameters after these. The host adds body parameters after query
    /// parameters, so that a name in both takes the body's value, as Zulip prefers `request.POST`
    /// to `request.GET`.
    pub fn extend(&mut self, other: Params) {
        self.pairs.extend(other.pairs);
        self.used.get_mut().extend(other.used.into_inner());
    }

    /// Whether the request has this parameter. Does not mark it used: asking is not reading.
    pub fn has(&self, name: &str) -> bool {
        self.pairs.iter().any(|(k, _)| k == name)
    }

    /// Marks a parameter used without reading it, for endpoints that accept and deliberately
    /// disregard it.
    pub fn mark_used(&self, name: &str) {
        let mut used = self.used.borrow_mut();
        if !used.contains(name) {
            used.insert(name.to_owned());
        }
    }

    /// The raw text of a parameter (its last value), marking it used.
    pub fn raw(&self, name: &str) -> Option<&str> {
        let value = self.pairs.iter().rev().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
        if value.is_some() {
            self.mark_used(name);
        }
        value
    }

    /// Names present but never read, each once, in order of first appearance.
    pub fn ignored(&self) -> Vec<String> {
        let used = self.used.borrow();
        let mut listed = BTreeSet::new();
        self.pairs
            .iter()
            .map(|(k, _)| k)
            .filter(|k| !used.contains(k.as_str()) && listed.insert(k.as_str()))
            .cloned()
            .collect()
    }

    /// A parameter the endpoint needs; absent, it is `Missing 'NAME' argument`.
    pub fn required<T: FromParam>(&self, name: &str) -> ApiResult<T> {
        self.optional(name)?.ok_or_else(|| ApiError::missing_argument(name))
    }

    /// A parameter the endpoint can do without. Present but invalid is still an error.
    pub fn optional<T: FromParam>(&self, name: &str) -> ApiResult<Option<T>> {
        self.raw(name).map(|raw| T::from_param(name, raw)).transpose()
    }

    /// A parameter with a default. Present but invalid is still an error, as in Zulip.
    pub fn or<T: FromParam>(&self, name: &str, default: T) -> ApiResult<T> {
        Ok(self.optional(name)?.unwrap_or(default))
    }
}

/// A type a parameter's raw text decodes to.
pub trait FromParam: Sized {
    /// Decodes the raw text of parameter `name`; errors name the parameter.
    fn from_param(name: &str, raw: &str) -> ApiResult<Self>;
}

/// A JSON-encoded parameter, as Zulip declares `Json[list[int]]` and the like: arrays and objects
/// arrive as their JSON text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Json<T>(pub T);

impl<T> Json<T> {
    /// The decoded value.
    pub fn into_inner(self) -> T {
        self.0
    }
}

/// Refuses text with a NUL character, which the database under Zulip (PostgreSQL) cannot
/// store, in the words of Zulip's own such refusals ("... contains NULL (0x00) characters.").
/// Fields Zulip refuses NUL in with a message of its own (message content, topics, the names of
/// channels and people) check with those instead.
pub fn refuse_nul(field: &str, text: &str) -> ApiResult<()> {
    if text.contains('\0') {
        return Err(ApiError::bad_request(format!("{field} contains NULL (0x00) characters.")));
    }
    Ok(())
}

impl FromParam for String {
    fn from_param(_: &str, raw: &str) -> ApiResult<Self> {
        Ok(raw.to_owned())
    }
}

/// A string Zulip declares `Json[str]` (such as a bot's `payload_url`): its JSON encoding, as
/// Zulip's own examples send it, or the plain text, which other clients send and a JSON string
/// can never be mistaken for (plain text does not begin with a quote).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JsonString(pub String);

impl FromParam for JsonString {
    fn from_param(_: &str, raw: &str) -> ApiResult<Self> {
        let trimmed = raw.trim();
        match serde_json::from_str::<String>(trimmed) {
            Ok(decoded) if trimmed.starts_with('"') => Ok(JsonString(decoded)),
            _ => Ok(JsonString(raw.to_owned())),
        }
    }
}

impl FromParam for bool {
    fn from_param(name: &str, raw: &str) -> ApiResult<Self> {
        decode_json(name, raw)
    }
}

macro_rules! integer_params {
    ($($t:ty),*) => {$(
        impl FromParam for $t {
            fn from_param(name: &str, raw: &str) -> ApiResult<Self> {
                decode_json(name, raw)
            }
        }
    )*};
}
integer_params!(i64, u64, i32, u32);

impl<T: DeserializeOwned> FromParam for Json<T> {
    fn from_param(name: &str, raw: &str) -> ApiResult<Self> {
        decode_json(name, raw).map(Json)
    }
}

/// Parses `raw` as JSON, then shapes it into `T`, reporting failures as Zulip does.
///
/// The value is shaped by [`Tracked`] rather than `serde_json::from_value` because Zulip's
/// messages need two facts serde_json's errors do not carry: where in the value the shape broke,
/// and what kind of value was expected there.
fn decode_json<T: DeserializeOwned>(name: &str, raw: &str) -> ApiResult<T> {
    let value: Value = serde_json::from_str(raw).map_err(|_| BadValue::NotValidJson.error(name))?;
    T::deserialize(Tracked { value: &value, path: &Path::Root }).map_err(|err| err.into_api_error(name))
}

/// Where a deserializer stands inside the value: a chain of borrowed links up to the root, so
/// that nothing is allocated unless an error needs the location.
#[derive(Clone, Copy)]
enum Path<'p> {
    Root,
    Index(&'p Path<'p>, usize),
    Key(&'p Path<'p>, &'p str),
}

impl Path<'_> {
    /// The location as Zulip appends it to the parameter name: each step of Pydantic's `loc` as
    /// `[json.dumps(step)]`, so `[0]` for an index and `["key"]` for a key.
    fn render(&self) -> String {
        let mut steps = Vec::new();
        let mut at = self;
        loop {
            match at {
                Path::Root => break,
                Path::Index(parent, _) | Path::Key(parent, _) => {
                    steps.push(at);
                    at = parent;
                }
            }
        }
        let mut out = String::new();
        for step in steps.iter().rev() {
            match step {
                Path::Index(_, index) => out.push_str(&format!("[{index}]")),
                Path::Key(_, key) => {
                    out.push('[');
                    push_python_json_string(&mut out, key);
                    out.push(']');
                }
                Path::Root => {}
            }
        }
        out
    }
}

/// Writes `s` as Python's `json.dumps` does by default (`ensure_ascii`): everything outside
/// printable ASCII is escaped, non-ASCII as UTF-16 `\uXXXX` units.
fn push_python_json_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            ' '..='~' => out.push(c),
            _ => {
                for unit in c.encode_utf16(&mut [0; 2]) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
        }
    }
    out.push('"');
}

/// The kind of value a deserializer was asked for, which picks the message for a mismatch.
#[derive(Clone, Copy, Debug)]
enum Expect {
    Bool,
    Int,
    Float,
    Str,
    List,
    Dict,
    Other,
}

/// How shaping failed, as far as the message needs to know.
#[derive(Debug)]
enum ShapeProblem {
    /// The value is of the wrong kind (serde's `invalid_type`).
    WrongKind,
    /// The value is of the right kind but unacceptable, such as an integer out of range
    /// (serde's `invalid_value`).
    WrongValue,
    /// An object key the type does not take.
    UnknownField(String),
    /// Anything else: a missing field, a wrong length, an unknown variant, a custom check.
    Other,
}

/// The error type of [`Tracked`]: the problem, and where it happened once the innermost
/// deserializer it passes through has said so.
#[derive(Debug)]
struct ShapeError {
    problem: ShapeProblem,
    at: Option<(String, Expect)>,
}

impl ShapeError {
    fn new(problem: ShapeProblem) -> Self {
        ShapeError { problem, at: None }
    }

    /// Records the location; only the first (innermost) call counts, since errors travel outwards.
    fn locate(mut self, path: &Path<'_>, expect: Expect) -> Self {
        if self.at.is_none() {
            self.at = Some((path.render(), expect));
        }
        self
    }

    fn into_api_error(self, name: &str) -> ApiError {
        let (location, expect) = self.at.unwrap_or((String::new(), Expect::Other));
        let bad = match (self.problem, expect) {
            (ShapeProblem::UnknownField(key), _) => BadValue::UnexpectedArgument(key),
            (ShapeProblem::WrongKind, Expect::Bool) => BadValue::NotABoolean,
            (ShapeProblem::WrongKind | ShapeProblem::WrongValue, Expect::Int) => BadValue::NotAnInteger,
            (ShapeProblem::WrongKind, Expect::Float) => BadValue::NotAFloat,
            (ShapeProblem::WrongKind, Expect::Str) => BadValue::NotAString,
            (ShapeProblem::WrongKind, Expect::List) => BadValue::NotAList,
            (ShapeProblem::WrongKind, Expect::Dict) => BadValue::NotADict,
            _ => BadValue::Invalid,
        };
        bad.error(&format!("{name}{location}"))
    }
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "value does not have the expected shape ({:?})", self.problem)
    }
}

impl std::error::Error for ShapeError {}

impl de::Error for ShapeError {
    fn custom<M: fmt::Display>(_msg: M) -> Self {
        ShapeError::new(ShapeProblem::Other)
    }

    fn invalid_type(_unexp: de::Unexpected<'_>, _exp: &dyn de::Expected) -> Self {
        ShapeError::new(ShapeProblem::WrongKind)
    }

    fn invalid_value(_unexp: de::Unexpected<'_>, _exp: &dyn de::Expected) -> Self {
        ShapeError::new(ShapeProblem::WrongValue)
    }

    fn unknown_field(field: &str, _expected: &'static [&'static str]) -> Self {
        ShapeError::new(ShapeProblem::UnknownField(field.to_owned()))
    }
}

fn wrong_kind() -> ShapeError {
    ShapeError::new(ShapeProblem::WrongKind)
}

/// A deserializer over a parsed JSON value that knows where it stands.
///
/// It follows Pydantic's strict mode rather than serde_json's leniencies: a struct comes only from
/// an object (serde_json also takes an array), and each primitive only from its own JSON kind.
struct Tracked<'de, 'p> {
    value: &'de Value,
    path: &'p Path<'p>,
}

impl<'de> Tracked<'de, '_> {
    /// Hands the value to the visitor as whatever it is.
    fn visit<V: Visitor<'de>>(&self, visitor: V) -> Result<V::Value, ShapeError> {
        match self.value {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(n) => visit_number(n, visitor),
            Value::String(s) => visitor.visit_borrowed_str(s),
            Value::Array(items) => self.visit_array(items, visitor),
            Value::Object(entries) => self.visit_object(entries, visitor),
        }
    }

    fn visit_array<V: Visitor<'de>>(&self, items: &'de [Value], visitor: V) -> Result<V::Value, ShapeError> {
        let mut access = Items { items: items.iter().enumerate(), path: self.path };
        let out = visitor.visit_seq(&mut access)?;
        // A visitor that stops early (a tuple given a longer array) has not accepted the array.
        match access.items.len() {
            0 => Ok(out),
            _ => Err(ShapeError::new(ShapeProblem::Other)),
        }
    }

    fn visit_object<V: Visitor<'de>>(
        &self,
        entries: &'de Map<String, Value>,
        visitor: V,
    ) -> Result<V::Value, ShapeError> {
        let mut access = Entries { entries: entries.iter(), pending: None, path: self.path };
        let out = visitor.visit_map(&mut access)?;
        match access.entries.len() {
            0 => Ok(out),
            _ => Err(ShapeError::new(ShapeProblem::Other)),
        }
    }

    /// Visits the value only if `fits` accepts its kind, and locates any error as `expect`.
    fn expecting<V: Visitor<'de>>(
        self,
        expect: Expect,
        fits: fn(&Value) -> bool,
        visitor: V,
    ) -> Result<V::Value, ShapeError> {
        let result = if fits(self.value) { self.visit(visitor) } else { Err(wrong_kind()) };
        result.map_err(|err| err.locate(self.path, expect))
    }
}

fn visit_number<'de, V: Visitor<'de>>(n: &Number, visitor: V) -> Result<V::Value, ShapeError> {
    // Integers go to the visitor as integers, so that `1.0` is not an integer, as in strict Pydantic.
    if let Some(u) = n.as_u64() {
        visitor.visit_u64(u)
    } else if let Some(i) = n.as_i64() {
        visitor.visit_i64(i)
    } else if let Some(f) = n.as_f64() {
        visitor.visit_f64(f)
    } else {
        Err(wrong_kind())
    }
}

fn any_kind(_: &Value) -> bool {
    true
}

macro_rules! expecting {
    ($($method:ident => $expect:ident, $fits:expr;)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ShapeError> {
            self.expecting(Expect::$expect, $fits, visitor)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for Tracked<'de, '_> {
    type Error = ShapeError;

    expecting! {
        deserialize_any => Other, any_kind;
        deserialize_bool => Bool, Value::is_boolean;
        deserialize_i8 => Int, Value::is_number;
        deserialize_i16 => Int, Value::is_number;
        deserialize_i32 => Int, Value::is_number;
        deserialize_i64 => Int, Value::is_number;
        deserialize_i128 => Int, Value::is_number;
        deserialize_u8 => Int, Value::is_number;
        deserialize_u16 => Int, Value::is_number;
        deserialize_u32 => Int, Value::is_number;
        deserialize_u64 => Int, Value::is_number;
        deserialize_u128 => Int, Value::is_number;
        deserialize_f32 => Float, Value::is_number;
        deserialize_f64 => Float, Value::is_number;
        deserialize_char => Str, Value::is_string;
        deserialize_str => Str, Value::is_string;
        deserialize_string => Str, Value::is_string;
        deserialize_bytes => Other, any_kind;
        deserialize_byte_buf => Other, any_kind;
        deserialize_unit => Other, Value::is_null;
        deserialize_seq => List, Value::is_array;
        deserialize_map => Dict, Value::is_object;
        deserialize_identifier => Other, any_kind;
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, ShapeError> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, ShapeError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, ShapeError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, ShapeError> {
        self.deserialize_map(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ShapeError> {
        let path = self.path;
        let result = match self.value {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        };
        result.map_err(|err| err.locate(path, Expect::Other))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, ShapeError> {
        let path = self.path;
        visitor.visit_newtype_struct(self).map_err(|err| err.locate(path, Expect::Other))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, ShapeError> {
        // serde's external tagging, as serde_json reads it: `"Variant"`, or `{"Variant": content}`.
        let variant = match self.value {
            Value::String(name) => Ok(Variant { name, content: None, path: self.path }),
            Value::Object(entries) if entries.len() == 1 => match entries.iter().next() {
                Some((name, content)) => Ok(Variant { name, content: Some(content), path: self.path }),
                None => Err(wrong_kind()),
            },
            _ => Err(wrong_kind()),
        };
        variant
            .and_then(|variant| visitor.visit_enum(variant))
            .map_err(|err| err.locate(self.path, Expect::Other))
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ShapeError> {
        visitor.visit_unit()
    }
}

/// The elements of an array, each deserialized at its index.
struct Items<'de, 'p> {
    items: std::iter::Enumerate<std::slice::Iter<'de, Value>>,
    path: &'p Path<'p>,
}

impl<'de> SeqAccess<'de> for Items<'de, '_> {
    type Error = ShapeError;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, ShapeError> {
        match self.items.next() {
            Some((index, value)) => {
                let path = Path::Index(self.path, index);
                seed.deserialize(Tracked { value, path: &path }).map(Some)
            }
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

/// The entries of an object, keys and values both located at the key.
struct Entries<'de, 'p> {
    entries: serde_json::map::Iter<'de>,
    pending: Option<(&'de str, &'de Value)>,
    path: &'p Path<'p>,
}

impl<'de> MapAccess<'de> for Entries<'de, '_> {
    type Error = ShapeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, ShapeError> {
        match self.entries.next() {
            Some((key, value)) => {
                self.pending = Some((key, value));
                let path = Path::Key(self.path, key);
                seed.deserialize(Key { key, path: &path }).map(Some)
            }
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, ShapeError> {
        match self.pending.take() {
            Some((key, value)) => {
                let path = Path::Key(self.path, key);
                seed.deserialize(Tracked { value, path: &path })
            }
            // Only a visitor calling out of order gets here; serde's own never do.
            None => Err(ShapeError::new(ShapeProblem::Other)),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

/// An object key, which is always a JSON string but may stand for a number or a bool, as
/// serde_json allows for map keys (`{"1": ...}` into a map keyed by integers).
struct Key<'de, 'p> {
    key: &'de str,
    path: &'p Path<'p>,
}

impl<'de> Key<'de, '_> {
    fn visit_integer<V: Visitor<'de>>(&self, visitor: V) -> Result<V::Value, ShapeError> {
        if !is_json_integer(self.key) {
            return Err(wrong_kind());
        }
        if let Ok(u) = self.key.parse::<u64>() {
            visitor.visit_u64(u)
        } else if let Ok(i) = self.key.parse::<i64>() {
            visitor.visit_i64(i)
        } else {
            // Digits, but beyond 64 bits.
            Err(ShapeError::new(ShapeProblem::WrongValue))
        }
    }
}

/// Whether `s` is an integer in JSON's grammar: an optional `-`, then `0` or digits not starting
/// with `0`. Rust's `parse` alone would also take `+1` and `007`.
fn is_json_integer(s: &str) -> bool {
    let digits = s.strip_prefix('-').unwrap_or(s);
    match digits.as_bytes() {
        [b'0'] => true,
        [b'1'..=b'9', rest @ ..] => rest.iter().all(u8::is_ascii_digit),
        _ => false,
    }
}

macro_rules! key_integers {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ShapeError> {
            self.visit_integer(visitor).map_err(|err| err.locate(self.path, Expect::Int))
        }
    )*};
}

impl<'de> de::Deserializer<'de> for Key<'de, '_> {
    type Error = ShapeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ShapeError> {
        visitor.visit_borrowed_str::<ShapeError>(self.key).map_err(|err| err.locate(self.path, Expect::Other))
    }

    key_integers!(deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_i128);
    key_integers!(deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128);

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ShapeError> {
        let result = match self.key {
            "true" => visitor.visit_bool(true),
            "false" => visitor.visit_bool(false),
            _ => Err(wrong_kind()),
        };
        result.map_err(|err| err.locate(self.path, Expect::Bool))
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ShapeError> {
        visitor.visit_borrowed_str::<ShapeError>(self.key).map_err(|err| err.locate(self.path, Expect::Str))
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ShapeError> {
        self.deserialize_str(visitor)
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ShapeError> {
        self.deserialize_str(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ShapeError> {
        let path = self.path;
        // A key is never null.
        visitor.visit_some(self).map_err(|err| err.locate(path, Expect::Other))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, ShapeError> {
        let path = self.path;
        visitor.visit_newtype_struct(self).map_err(|err| err.locate(path, Expect::Other))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, ShapeError> {
        let variant = Variant { name: self.key, content: None, path: self.path };
        visitor.visit_enum(variant).map_err(|err| err.locate(self.path, Expect::Other))
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ShapeError> {
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        f32 f64 bytes byte_buf unit unit_struct seq tuple tuple_struct map struct identifier
    }
}

/// An enum value: the variant's name, and its content when written as `{"Variant": content}`.
struct Variant<'de, 'p> {
    name: &'de str,
    content: Option<&'de Value>,
    path: &'p Path<'p>,
}

impl<'de, 'p> EnumAccess<'de> for Variant<'de, 'p> {
    type Error = ShapeError;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self), ShapeError> {
        // The name is located at the enum itself: for `"bogus"` Zulip says `Invalid NAME`.
        let name = seed.deserialize(Key { key: self.name, path: self.path })?;
        Ok((name, self))
    }
}

impl<'de> Variant<'de, '_> {
    /// Runs `f` on the content, located under the variant's name; no content is a wrong kind.
    fn with_content<R>(
        &self,
        f: impl FnOnce(Tracked<'de, '_>) -> Result<R, ShapeError>,
    ) -> Result<R, ShapeError> {
        match self.content {
            Some(value) => {
                let path = Path::Key(self.path, self.name);
                f(Tracked { value, path: &path })
            }
            None => Err(wrong_kind()),
        }
    }
}

impl<'de> VariantAccess<'de> for Variant<'de, '_> {
    type Error = ShapeError;

    fn unit_variant(self) -> Result<(), ShapeError> {
        match self.content {
            None => Ok(()),
            Some(_) => self.with_content(|content| <()>::deserialize(content)),
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, ShapeError> {
        self.with_content(|content| seed.deserialize(content))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, ShapeError> {
        self.with_content(|content| content.deserialize_seq(visitor))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, ShapeError> {
        self.with_content(|content| content.deserialize_map(visitor))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use proptest::prelude::*;
    use serde::Deserialize;
    use serde_json::json;

    use super::*;
    use crate::error::ErrorCode;

    /// Decodes `raw` as parameter `p` of type `T`, rendered for comparison with a table row:
    /// the value's `Debug` on success, the error's message on failure.
    fn decode<T: FromParam + fmt::Debug>(raw: &str) -> String {
        match Params::from_pairs([("p".to_owned(), raw.to_owned())]).required::<T>("p") {
            Ok(value) => format!("{value:?}"),
            Err(err) => {
                assert_eq!(err.code, ErrorCode::BadRequest, "{raw:?}: {}", err.msg);
                assert!(err.extra.is_empty(), "{raw:?}: typed_endpoint errors carry no extra fields");
                err.msg
            }
        }
    }

    fn check<T: FromParam + fmt::Debug>(table: &[(&str, &str)]) {
        for (raw, expected) in table {
            assert_eq!(decode::<T>(raw), *expected, "raw value {raw:?}");
        }
    }

    #[test]
    fn strings_are_the_raw_text() {
        check::<String>(&[
            ("", r#""""#),
            (" as is ", r#"" as is ""#),
            ("true", r#""true""#),
            (r#""quoted""#, r#""\"quoted\"""#),
            ("nul\0byte", r#""nul\0byte""#),
        ]);
    }

    #[test]
    fn booleans_are_json_true_or_false() {
        check::<bool>(&[
            ("true", "true"),
            ("false", "false"),
            (" true\n", "true"),
            ("\"true\"", "p is not a boolean"),
            ("1", "p is not a boolean"),
            ("0", "p is not a boolean"),
            ("null", "p is not a boolean"),
            ("[]", "p is not a boolean"),
            ("True", "p is not valid JSON"),
            ("yes", "p is not valid JSON"),
            ("on", "p is not valid JSON"),
            ("", "p is not valid JSON"),
            ("true false", "p is not valid JSON"),
            ("\u{a0}true", "p is not valid JSON"),
        ]);
    }

    #[test]
    fn integers_are_json_integers() {
        check::<i64>(&[
            ("123", "123"),
            ("-4", "-4"),
            ("0", "0"),
            (" 7 ", "7"),
            ("9223372036854775807", "9223372036854775807"),
            ("-9223372036854775808", "-9223372036854775808"),
            ("9223372036854775808", "p is not an integer"),
            ("1.0", "p is not an integer"),
            ("1e3", "p is not an integer"),
            ("\"10\"", "p is not an integer"),
            ("false", "p is not an integer"),
            ("null", "p is not an integer"),
            ("[1]", "p is not an integer"),
            ("+1", "p is not valid JSON"),
            ("01", "p is not valid JSON"),
            ("0x10", "p is not valid JSON"),
            ("4x", "p is not valid JSON"),
            ("", "p is not valid JSON"),
        ]);
        check::<u64>(&[
            ("18446744073709551615", "18446744073709551615"),
            ("18446744073709551616", "p is not an integer"),
            ("-1", "p is not an integer"),
            ("42", "42"),
        ]);
        check::<i32>(&[("-2147483648", "-2147483648"), ("2147483648", "p is not an integer")]);
        check::<u32>(&[("4294967295", "4294967295"), ("4294967296", "p is not an integer")]);
    }

    #[test]
    fn lists_name_the_failing_element() {
        check::<Json<Vec<u64>>>(&[
            ("[1, 2]", "Json([1, 2])"),
            ("[]", "Json([])"),
            ("[1,", "p is not valid JSON"),
            ("1", "p is not a list"),
            ("\"[1]\"", "p is not a list"),
            ("{\"0\": 1}", "p is not a list"),
            ("null", "p is not a list"),
            (r#"["a"]"#, "p[0] is not an integer"),
            ("[1, 2.5]", "p[1] is not an integer"),
            ("[1, -1]", "p[1] is not an integer"),
            ("[[1]]", "p[0] is not an integer"),
        ]);
        check::<Json<Vec<String>>>(&[
            (r#"["a", "b"]"#, r#"Json(["a", "b"])"#),
            (r#"["a", 1]"#, "p[1] is not a string"),
        ]);
        check::<Json<Vec<Vec<bool>>>>(&[("[[true], [false, 0]]", "p[1][1] is not a boolean")]);
        check::<Json<(u64, u64)>>(&[
            ("[1, 2]", "Json((1, 2))"),
            ("[1, 2, 3]", "Invalid p"),
            ("[1]", "Invalid p"),
        ]);
        check::<Json<Vec<f64>>>(&[("[1, 1.5]", "Json([1.0, 1.5])"), ("[true]", "p[0] is not a float")]);
    }

    #[test]
    fn objects_name_the_failing_key_as_python_json_dumps_does() {
        check::<Json<BTreeMap<String, bool>>>(&[
            (r#"{"a": true}"#, r#"Json({"a": true})"#),
            ("[]", "p is not a dict"),
            (r#"{"a": 1}"#, r#"p["a"] is not a boolean"#),
            (r#"{"quote\"d": 1}"#, r#"p["quote\"d"] is not a boolean"#),
            (
                r#"{"caf\u00e9 \ud83d\ude00\u007f\n": 1}"#,
                r#"p["caf\u00e9 \ud83d\ude00\u007f\n"] is not a boolean"#,
            ),
            (r#"{"{var_name}": 1}"#, r#"p["{var_name}"] is not a boolean"#),
        ]);
        check::<Json<BTreeMap<u64, String>>>(&[
            (r#"{"1": "x"}"#, r#"Json({1: "x"})"#),
            (r#"{"x": "x"}"#, r#"p["x"] is not an integer"#),
            (r#"{"01": "x"}"#, r#"p["01"] is not an integer"#),
        ]);
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)] // Read only through `Debug`.
    struct Nums {
        num1: i64,
        num2: Option<i64>,
    }

    #[derive(Debug, Deserialize)]
    #[serde(rename_all = "snake_case")]
    #[allow(dead_code)] // Read only through `Debug`.
    enum Op {
        Add,
        Remove,
        Set(u64),
    }

    #[test]
    fn structs_and_enums_follow_zulips_templates() {
        // The first rows are the cases of Zulip's own `test_typed_endpoint.py`.
        check::<Json<Nums>>(&[
            (r#"{"num1": 5, "num2": 7}"#, "Json(Nums { num1: 5, num2: Some(7) })"),
            (r#"{"num1": "10", "num2": 20}"#, r#"p["num1"] is not an integer"#),
            (
                r#"{"num1": 1, "num2": 4, "unknown": "c"}"#,
                r#"Argument "unknown" at p["unknown"] is unexpected"#,
            ),
            (r#"{"num1": 5, "num2": null}"#, "Json(Nums { num1: 5, num2: None })"),
            (r#"{"num2": 7}"#, "Invalid p"),
            ("[5, 7]", "p is not a dict"),
            ("\"x\"", "p is not a dict"),
        ]);
        check::<Json<Op>>(&[
            (r#""add""#, "Json(Add)"),
            (r#"{"set": 3}"#, "Json(Set(3))"),
            (r#""bogus""#, "Invalid p"),
            (r#"{"set": "x"}"#, r#"p["set"] is not an integer"#),
            (r#"{"add": 1, "remove": 2}"#, "Invalid p"),
            ("\"set\"", "Invalid p"),
            ("3", "Invalid p"),
        ]);
    }

    #[test]
    fn arbitrary_json_is_taken_whole() {
        check::<Json<Value>>(&[
            (
                r#"{"b": [1, -2, 2.5, null, "s"]}"#,
                r#"Json(Object {"b": Array [Number(1), Number(-2), Number(2.5), Null, String("s")]})"#,
            ),
            ("not json", "p is not valid JSON"),
        ]);
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert_eq!(decode::<Json<Value>>(&deep), "p is not valid JSON");
        let nested = format!("{}{}", "[".repeat(100), "]".repeat(100));
        assert!(decode::<Json<Value>>(&nested).starts_with("Json(Array"));
    }

    #[test]
    fn missing_parameters_say_so_with_var_name() {
        let params = Params::default();
        let err = params.required::<String>("content").expect_err("absent");
        assert_eq!(err.code, ErrorCode::RequestVariableMissing);
        assert_eq!(err.msg, "Missing 'content' argument");
        assert_eq!(err.extra.get("var_name"), Some(&json!("content")));
        assert_eq!(params.optional::<bool>("flag").ok(), Some(None));
        assert_eq!(params.or("flag", true).ok(), Some(true));
    }

    #[test]
    fn a_default_does_not_excuse_an_invalid_value() {
        let params = Params::parse_urlencoded(b"flag=yes");
        assert_eq!(params.or("flag", true).map_err(|e| e.msg), Err("flag is not valid JSON".to_owned()));
    }

    #[test]
    fn the_last_value_wins_and_body_parameters_follow_the_query() {
        let mut params = Params::parse_urlencoded(b"a=1&b=2&a=3&c=x");
        params.extend(Params::from_pairs([("c".to_owned(), "body".to_owned())]));
        assert_eq!(params.required::<u64>("a").ok(), Some(3));
        assert_eq!(params.raw("c"), Some("body"));
    }

    #[test]
    fn urlencoding_is_decoded_as_django_does() {
        let params = Params::parse_urlencoded(b"to=%5B1%2C2%5D&content=a+b%20c&flag&&bad=%ff%zz&empty=");
        assert_eq!(params.required::<Json<Vec<u64>>>("to").ok(), Some(Json(vec![1, 2])));
        assert_eq!(params.raw("content"), Some("a b c"));
        assert_eq!(params.raw("flag"), Some(""));
        assert_eq!(params.raw("bad"), Some("\u{fffd}%zz"));
        assert_eq!(params.raw("empty"), Some(""));
        assert_eq!(params.ignored(), Vec::<String>::new());
    }

    #[test]
    fn unread_names_are_ignored_once_in_first_appearance_order() {
        let params = Params::parse_urlencoded(b"z=1&b=2&z=3&a=4&c=5");
        assert!(params.has("c"));
        assert_eq!(params.raw("a"), Some("4"));
        assert_eq!(params.raw("absent"), None);
        assert_eq!(params.ignored(), ["z", "b", "c"]);
        params.mark_used("b");
        assert_eq!(params.ignored(), ["z", "c"]);
        // A read that fails still counts as read: the endpoint knows the parameter.
        assert!(params.required::<bool>("z").is_err());
        assert_eq!(params.ignored(), ["c"]);
    }

    #[test]
    fn templates_are_filled_once() {
        assert_eq!(
            BadValue::UnexpectedArgument("{var_name}".into()).error("x").msg,
            r#"Argument "{var_name}" at x is unexpected"#
        );
        assert_eq!(BadValue::Invalid.error("{argument}").msg, "Invalid {argument}");
    }

    #[test]
    fn params_can_cross_threads() {
        fn assert_send<T: Send>() {}
        assert_send::<Params>();
    }

    /// Every typed read of `raw` as parameter `name`, as errors.
    fn all_reads(name: &str, raw: &str) -> Vec<Option<ApiError>> {
        let params = Params::from_pairs([(name.to_owned(), raw.to_owned())]);
        vec![
            params.required::<bool>(name).err(),
            params.required::<i64>(name).err(),
            params.required::<u64>(name).err(),
            params.required::<i32>(name).err(),
            params.required::<u32>(name).err(),
            params.required::<Json<Vec<u64>>>(name).err(),
            params.required::<Json<Value>>(name).err(),
            params.required::<Json<Nums>>(name).err(),
            params.required::<Json<Op>>(name).err(),
            params.required::<Json<BTreeMap<u64, Vec<String>>>>(name).err(),
            params.required::<String>(name).err(),
        ]
    }

    /// Strings that are JSON, or nearly: random text rarely reaches the shape checks.
    fn jsonish() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            Just(json!(null)),
            any::<bool>().prop_map(|b| json!(b)),
            any::<i64>().prop_map(|n| json!(n)),
            any::<u64>().prop_map(|n| json!(n)),
            any::<f64>().prop_map(|n| json!(n)),
            "[a-z{}\"\\\\\u{e9}]{0,4}".prop_map(|s| json!(s)),
        ];
        let value = leaf.prop_recursive(4, 32, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                proptest::collection::btree_map("[a-z0-9]{0,3}", inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        });
        (value, 0..3usize).prop_map(|(value, damage)| {
            let text = value.to_string();
            match damage {
                0 => text,
                1 => text.chars().take(text.chars().count().saturating_sub(1)).collect(),
                _ => format!(" {text}\n"),
            }
        })
    }

    proptest! {
        #[test]
        fn url_decoding_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
            let params = Params::parse_urlencoded(&bytes);
            let ignored = params.ignored();
            prop_assert!(ignored.len() <= bytes.len());
        }

        #[test]
        fn typed_reads_never_panic_and_fail_naming_the_parameter(raw in prop_oneof![".{0,64}", jsonish()]) {
            for err in all_reads("param_x", &raw).into_iter().flatten() {
                prop_assert_eq!(err.code, ErrorCode::BadRequest);
                prop_assert!(err.msg.contains("param_x"), "{}", err.msg);
            }
        }

        #[test]
        fn ignored_lists_exactly_the_unread_names(
            names in proptest::collection::vec("[a-e]", 0..10),
            read in proptest::collection::vec("[a-f]", 0..5),
        ) {
            let params = Params::from_pairs(names.iter().map(|n| (n.clone(), "1".to_owned())));
            for name in &read {
                let _ = params.raw(name);
            }
            let mut expected: Vec<String> = Vec::new();
            for n in &names {
                if !read.contains(n) && !expected.contains(n) {
                    expected.push(n.clone());
                }
            }
            prop_assert_eq!(params.ignored(), expected);
        }
    }
}
