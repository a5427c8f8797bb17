//! Record encoding: one format-version byte, then JSON. The version lets a later format be read
//! beside this one; the schema version in `meta` covers table layout.

use confab_core::ApiError;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// The format version written today.
const FORMAT_V1: u8 = 1;

pub fn encode<T: Serialize>(value: &T) -> Result<Vec<u8>, ApiError> {
    let mut bytes = vec![FORMAT_V1];
    serde_json::to_writer(&mut bytes, value).map_err(ApiError::internal)?;
    Ok(bytes)
}

pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    match bytes.split_first() {
        Some((&FORMAT_V1, json)) => serde_json::from_slice(json).map_err(ApiError::internal),
        Some((version, _)) => Err(ApiError::internal(format!("unknown record format {version}"))),
        None => Err(ApiError::internal("empty record")),
    }
}
