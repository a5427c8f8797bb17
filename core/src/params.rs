//! Request parameters as Zulip clients send them (provisional; the full decoder replaces this).

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
