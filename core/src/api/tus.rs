//! OPTIONS /api/v1/tus        (capabilities)
//! POST    /api/v1/tus        create an upload
//! HEAD    /api/v1/tus/{id}   its offset
//! PATCH   /api/v1/tus/{id}   append bytes
//!
//! Resumable uploads following tus 1.0 (core protocol and the creation extension), which Zulip
//! serves for large files: the rules of each request. The host keeps the growing file and, once
//! complete, records it as an ordinary upload (`api::uploads`).

use std::collections::BTreeMap;

use base64::Engine;

use super::uploads::MAX_FILE_UPLOAD_SIZE_MIB;

/// The protocol version this server speaks (`Tus-Resumable`, `Tus-Version`).
pub const TUS_VERSION: &str = "1.0.0";
/// The extensions served (`Tus-Extension`).
pub const TUS_EXTENSIONS: &str = "creation";
/// The content type of a PATCH body.
pub const OFFSET_OCTET_STREAM: &str = "application/offset+octet-stream";

/// The largest upload (`Tus-Max-Size`), as for simple uploads.
pub fn max_size() -> u64 {
    MAX_FILE_UPLOAD_SIZE_MIB * 1024 * 1024
}

/// A refused tus request: the HTTP status the protocol prescribes and a reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TusError {
    pub status: u16,
    pub message: String,
}

fn refuse(status: u16, message: impl Into<String>) -> TusError {
    TusError { status, message: message.into() }
}

/// Every request but OPTIONS names the protocol version (412 otherwise).
pub fn check_version(tus_resumable: Option<&str>) -> Result<(), TusError> {
    match tus_resumable {
        Some(TUS_VERSION) => Ok(()),
        _ => Err(refuse(412, format!("Tus-Resumable must be {TUS_VERSION}"))),
    }
}

/// `Upload-Metadata`: comma-separated `key base64(value)` pairs; a key may have no value.
pub fn parse_metadata(header: Option<&str>) -> Result<BTreeMap<String, String>, TusError> {
    let mut metadata = BTreeMap::new();
    for pair in header.unwrap_or_default().split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (key, encoded) = pair.split_once(' ').unwrap_or((pair, ""));
        let value = base64::engine::general_purpose::STANDARD
            .decode(encoded.trim())
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok())
            .ok_or_else(|| refuse(400, format!("Upload-Metadata value of {key} is not base64 UTF-8")))?;
        metadata.insert(key.to_owned(), value);
    }
    Ok(metadata)
}

/// A creation request's `Upload-Length`: present, a number, within the limit.
pub fn check_creation(upload_length: Option<&str>) -> Result<u64, TusError> {
    let length = upload_length
        .ok_or_else(|| refuse(400, "Upload-Length is required"))?
        .trim()
        .parse::<u64>()
        .map_err(|_| refuse(400, "Upload-Length must be a non-negative integer"))?;
    if length > max_size() {
        return Err(refuse(413, format!("Upload-Length exceeds the maximum of {} bytes", max_size())));
    }
    Ok(length)
}

/// A PATCH: the right content type, and an `Upload-Offset` equal to what the server has.
pub fn check_patch(
    content_type: Option<&str>,
    upload_offset: Option<&str>,
    current: u64,
) -> Result<(), TusError> {
    if content_type.map(|c| c.trim().to_ascii_lowercase()) != Some(OFFSET_OCTET_STREAM.to_owned()) {
        return Err(refuse(415, format!("Content-Type must be {OFFSET_OCTET_STREAM}")));
    }
    let offset = upload_offset
        .ok_or_else(|| refuse(400, "Upload-Offset is required"))?
        .trim()
        .parse::<u64>()
        .map_err(|_| refuse(400, "Upload-Offset must be a non-negative integer"))?;
    if offset != current {
        return Err(refuse(409, format!("Upload-Offset is {offset}, but the server has {current} bytes")));
    }
    Ok(())
}

/// The name a finished upload is stored under: `filename` (or Uppy's `name`) from metadata.
pub fn file_name(metadata: &BTreeMap<String, String>) -> String {
    metadata
        .get("filename")
        .or_else(|| metadata.get("name"))
        .cloned()
        .unwrap_or_else(|| "uploaded-file".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_checked_as_tus_prescribes() {
        assert_eq!(check_version(None).map_err(|e| e.status), Err(412));
        assert!(check_version(Some("1.0.0")).is_ok());
        assert_eq!(check_creation(Some("10")), Ok(10));
        assert_eq!(check_creation(None).map_err(|e| e.status), Err(400));
        assert_eq!(check_creation(Some(&(max_size() + 1).to_string())).map_err(|e| e.status), Err(413));
        assert!(check_patch(Some(OFFSET_OCTET_STREAM), Some("5"), 5).is_ok());
        assert_eq!(check_patch(Some("text/plain"), Some("5"), 5).map_err(|e| e.status), Err(415));
        assert_eq!(check_patch(Some(OFFSET_OCTET_STREAM), Some("4"), 5).map_err(|e| e.status), Err(409));
    }

    #[test]
    fn metadata_is_base64_pairs() {
        let metadata =
            parse_metadata(Some("filename cmVwb3J0LnBkZg==, filetype YXBwbGljYXRpb24vcGRm,private"))
                .expect("metadata");
        assert_eq!(metadata["filename"], "report.pdf");
        assert_eq!(metadata["filetype"], "application/pdf");
        assert_eq!(metadata["private"], "");
        assert_eq!(file_name(&metadata), "report.pdf");
        assert!(parse_metadata(Some("filename !!!")).is_err());
    }
}
