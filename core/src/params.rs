//! Request parameters as Zulip clients send them.
//!
//! The host gathers name/value pairs from the query string and from form-urlencoded or
//! multipart bodies (on every method, DELETE included); this module gives them meaning the way
//! Zulip's `typed_endpoint` does: arrays and objects arrive JSON-encoded, booleans as JSON
//! `true`/`false`, integers as decimal strings. Every name an endpoint reads is remembered, so
//! the rest can be reported in `ignored_parameters_unsupported`.

use std::cell::RefCell;
use std::collections::BTreeSet;

use serde::de::DeserializeOwned;

use crate::error::{ApiError, ApiResult};

/// Parameters in request order; the last value of a repeated name wins.
#[derive(Debug, Default)]
pub struct Params {
    pairs: Vec<(String, String)>,
    used: RefCell<BTreeSet<String>>,
}

/// A value decoded from one parameter.
pub trait FromParam: Sized {
    fn from_param(name: &str, raw: &str) -> ApiResult<Self>;
}

/// A JSON-encoded parameter.
#[derive(Debug, Clone, PartialEq)]
pub struct Json<T>(pub T);

impl Params {
    pub fn from_pairs(pairs: impl IntoIterator<Item = (String, String)>) -> Self {
        Params { pairs: pairs.into_iter().collect(), used: RefCell::default() }
    }

    pub fn parse_urlencoded(bytes: &[u8]) -> Self {
        Self::from_pairs(form_urlencoded::parse(bytes).map(|(k, v)| (k.into_owned(), v.into_owned())))
    }

    pub fn extend(&mut self, other: Params) {
        self.pairs.extend(other.pairs);
    }

    pub fn has(&self, name: &str) -> bool {
        self.pairs.iter().any(|(k, _)| k == name)
    }

    pub fn mark_used(&self, name: &str) {
        self.used.borrow_mut().insert(name.to_owned());
    }

    pub fn raw(&self, name: &str) -> Option<&str> {
        self.mark_used(name);
        self.pairs.iter().rev().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    pub fn ignored(&self) -> Vec<String> {
        let used = self.used.borrow();
        let mut out: Vec<String> = Vec::new();
        for (k, _) in &self.pairs {
            if !used.contains(k) && !out.contains(k) {
                out.push(k.clone());
            }
        }
        out
    }

    pub fn optional<T: FromParam>(&self, name: &str) -> ApiResult<Option<T>> {
        self.raw(name).map(|raw| T::from_param(name, raw)).transpose()
    }

    pub fn required<T: FromParam>(&self, name: &str) -> ApiResult<T> {
        self.optional(name)?.ok_or_else(|| ApiError::missing_argument(name))
    }

    pub fn or<T: FromParam>(&self, name: &str, default: T) -> ApiResult<T> {
        Ok(self.optional(name)?.unwrap_or(default))
    }
}

impl FromParam for String {
    fn from_param(_: &str, raw: &str) -> ApiResult<Self> {
        Ok(raw.to_owned())
    }
}

impl FromParam for bool {
    fn from_param(name: &str, raw: &str) -> ApiResult<Self> {
        match raw.trim() {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(ApiError::bad_request(format!("{name} is not a boolean"))),
        }
    }
}

macro_rules! int_param {
    ($($t:ty),*) => {$(
        impl FromParam for $t {
            fn from_param(name: &str, raw: &str) -> ApiResult<Self> {
                raw.trim().parse::<$t>().map_err(|_| ApiError::bad_request(format!("{name} is not an integer")))
            }
        }
    )*};
}
int_param!(i64, u64, i32, u32);

impl<T: DeserializeOwned> FromParam for Json<T> {
    fn from_param(name: &str, raw: &str) -> ApiResult<Self> {
        let value: serde_json::Value = serde_json::from_str(raw)
            .map_err(|_| ApiError::bad_request(format!("{name} is not valid JSON")))?;
        serde_json::from_value(value).map(Json).map_err(|_| ApiError::bad_request(format!("Invalid {name}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn one(name: &str, value: &str) -> Params {
        Params::from_pairs([(name.to_owned(), value.to_owned())])
    }

    #[test]
    fn values_decode_as_zulip_clients_send_them() {
        assert_eq!(one("b", "true").required::<bool>("b").ok(), Some(true));
        assert_eq!(one("b", "false").required::<bool>("b").ok(), Some(false));
        assert_eq!(one("n", "42").required::<u64>("n").ok(), Some(42));
        assert_eq!(one("n", "-3").required::<i64>("n").ok(), Some(-3));
        assert_eq!(one("j", "[1, 2]").required::<Json<Vec<u64>>>("j").ok(), Some(Json(vec![1, 2])));
        assert_eq!(one("s", " as is ").required::<String>("s").ok(), Some(" as is ".to_owned()));
    }

    #[test]
    fn bad_values_name_the_parameter() {
        let cases: Vec<(ApiResult<()>, &str)> = vec![
            (one("flag", "yes").required::<bool>("flag").map(|_| ()), "flag is not a boolean"),
            (one("num", "4x").required::<u64>("num").map(|_| ()), "num is not an integer"),
            (one("num", "-1").required::<u64>("num").map(|_| ()), "num is not an integer"),
            (one("to", "[1,").required::<Json<Vec<u64>>>("to").map(|_| ()), "to is not valid JSON"),
            (one("to", r#"["a"]"#).required::<Json<Vec<u64>>>("to").map(|_| ()), "Invalid to"),
        ];
        for (result, msg) in cases {
            let err = result.expect_err(msg);
            assert_eq!((err.code, err.msg.as_str()), (crate::error::ErrorCode::BadRequest, msg));
        }
        let missing = Params::default().required::<String>("content").expect_err("missing");
        assert_eq!(missing.msg, "Missing 'content' argument");
        assert_eq!(missing.extra.get("var_name").and_then(|v| v.as_str()), Some("content"));
    }

    #[test]
    fn the_last_value_of_a_repeated_name_wins_and_unread_names_are_ignored() {
        let params = Params::parse_urlencoded(b"a=1&b=2&a=3&c=4&c=5");
        assert_eq!(params.required::<u64>("a").ok(), Some(3));
        assert_eq!(params.ignored(), vec!["b".to_owned(), "c".to_owned()]);
        assert!(params.has("b"));
        params.mark_used("b");
        assert_eq!(params.ignored(), vec!["c".to_owned()]);
    }

    proptest! {
        #[test]
        fn url_decoding_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
            let params = Params::parse_urlencoded(&bytes);
            let _ = params.ignored();
        }

        #[test]
        fn typed_reads_never_panic_and_fail_with_bad_request(raw in ".{0,200}") {
            let params = one("p", &raw);
            let results = [
                params.required::<bool>("p").err(),
                params.required::<i64>("p").err(),
                params.required::<u64>("p").err(),
                params.required::<Json<Vec<u64>>>("p").err(),
                params.required::<Json<serde_json::Value>>("p").err(),
                params.required::<String>("p").err(),
            ];
            for err in results.into_iter().flatten() {
                prop_assert_eq!(err.code, crate::error::ErrorCode::BadRequest);
                prop_assert!(err.msg.contains('p'));
            }
        }

        #[test]
        fn ignored_lists_exactly_the_unread_names(names in proptest::collection::vec("[a-e]", 0..10), read in proptest::collection::vec("[a-e]", 0..5)) {
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
