//! Images people upload as custom emoji and avatars: which formats are taken, told by the
//! bytes themselves, and how large they may claim to be. Zulip decodes and resizes them
//! (pyvips); Confab recognises the format from the file's first bytes, refuses images whose
//! header is over Zulip's pixel limit, and serves the image as uploaded: no resizing, no still
//! frame of an animated emoji. (Uploaded message images are thumbnailed: `thumbnails.rs`.)

use crate::error::{ApiError, ApiResult};

impl ReceivedImage {
    /// An image part of a multipart body: its declared type, else the type its name suggests
    /// (as Zulip guesses one when a client declares none).
    pub fn new(part_type: Option<&str>, file_name: &str, size: u64, head: Vec<u8>) -> ReceivedImage {
        let content_type = match part_type.map(str::trim).filter(|t| !t.is_empty()) {
            Some(declared) => declared.to_owned(),
            None => crate::api::uploads::content_type_of(file_name).0.to_owned(),
        };
        ReceivedImage { content_type: Some(content_type), size, head, exceeds_pixel_limit: false }
    }

    /// Checks the image as Zulip does before keeping it whole (custom emoji, avatars): its
    /// type and bytes ([`check_image`]), then its size (`Image size exceeds limit.`).
    pub fn check(&self) -> ApiResult<ImageFormat> {
        let format = check_image(self.content_type.as_deref(), &self.head)?;
        if self.exceeds_pixel_limit {
            return Err(ApiError::bad_request(crate::thumbnails::IMAGE_SIZE_EXCEEDS_LIMIT));
        }
        Ok(format)
    }
}

/// How many leading bytes recognising a format needs.
pub const SNIFF_BYTES: usize = 16;

/// An image file of a multipart request, as the host received it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReceivedImage {
    /// The part's content type, else the host's guess from the file name.
    pub content_type: Option<String>,
    /// Bytes received.
    pub size: u64,
    /// The first [`SNIFF_BYTES`] bytes (fewer for a shorter file).
    pub head: Vec<u8>,
    /// Whether its header claims more pixels, over all frames, than Zulip decodes
    /// (`thumbnails::check_whole_image_size`): the host reads the header before the command.
    pub exceeds_pixel_limit: bool,
}

/// A format Zulip both thumbnails and lets browsers show in place (the intersection of its
/// `THUMBNAIL_ACCEPT_IMAGE_TYPES` and `INLINE_MIME_TYPES` that can be told by magic bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageFormat {
    Png,
    Jpeg,
    Gif,
    Webp,
}

impl ImageFormat {
    /// The format the bytes start with, if any.
    pub fn sniff(head: &[u8]) -> Option<ImageFormat> {
        if head.starts_with(b"\x89PNG\r\n\x1a\n") {
            Some(ImageFormat::Png)
        } else if head.starts_with(&[0xFF, 0xD8, 0xFF]) {
            Some(ImageFormat::Jpeg)
        } else if head.starts_with(b"GIF87a") || head.starts_with(b"GIF89a") {
            Some(ImageFormat::Gif)
        } else if head.len() >= 12 && head.starts_with(b"RIFF") && &head[8..12] == b"WEBP" {
            Some(ImageFormat::Webp)
        } else {
            None
        }
    }

    /// The format a declared content type names (parameters and case ignored).
    pub fn from_content_type(content_type: &str) -> Option<ImageFormat> {
        let bare = content_type.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
        match bare.as_str() {
            "image/png" | "image/apng" => Some(ImageFormat::Png),
            "image/jpeg" => Some(ImageFormat::Jpeg),
            "image/gif" => Some(ImageFormat::Gif),
            "image/webp" => Some(ImageFormat::Webp),
            _ => None,
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            ImageFormat::Png => "image/png",
            ImageFormat::Jpeg => "image/jpeg",
            ImageFormat::Gif => "image/gif",
            ImageFormat::Webp => "image/webp",
        }
    }

    /// The file extension images of this format are stored with.
    pub fn extension(self) -> &'static str {
        match self {
            ImageFormat::Png => "png",
            ImageFormat::Jpeg => "jpg",
            ImageFormat::Gif => "gif",
            ImageFormat::Webp => "webp",
        }
    }

    /// The format of a stored image, by its extension.
    pub fn from_extension(name: &str) -> Option<ImageFormat> {
        let (_, extension) = name.rsplit_once('.')?;
        [ImageFormat::Png, ImageFormat::Jpeg, ImageFormat::Gif, ImageFormat::Webp]
            .into_iter()
            .find(|f| f.extension().eq_ignore_ascii_case(extension))
    }
}

/// Checks an uploaded image in Zulip's order: the declared type must be one it takes
/// (`Invalid image format`), then the bytes must be an image (Zulip's text when pyvips cannot
/// decode them). The bytes decide the format.
pub fn check_image(declared: Option<&str>, head: &[u8]) -> ApiResult<ImageFormat> {
    if declared.and_then(ImageFormat::from_content_type).is_none() {
        return Err(ApiError::bad_request("Invalid image format"));
    }
    ImageFormat::sniff(head)
        .ok_or_else(|| ApiError::bad_request("Could not decode image; did you upload an image file?"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_told_by_their_bytes() {
        assert_eq!(ImageFormat::sniff(b"\x89PNG\r\n\x1a\n...."), Some(ImageFormat::Png));
        assert_eq!(ImageFormat::sniff(&[0xFF, 0xD8, 0xFF, 0xE0]), Some(ImageFormat::Jpeg));
        assert_eq!(ImageFormat::sniff(b"GIF89a.."), Some(ImageFormat::Gif));
        assert_eq!(ImageFormat::sniff(b"RIFF\0\0\0\0WEBPVP8 "), Some(ImageFormat::Webp));
        assert_eq!(ImageFormat::sniff(b"<svg xmlns="), None);
        assert_eq!(ImageFormat::sniff(b""), None);
    }

    #[test]
    fn declared_types_are_checked_before_the_bytes() {
        let png = b"\x89PNG\r\n\x1a\n";
        assert_eq!(check_image(Some("image/png"), png), Ok(ImageFormat::Png));
        assert_eq!(check_image(Some("IMAGE/PNG; x=y"), png), Ok(ImageFormat::Png));
        let msg = |r: ApiResult<ImageFormat>| r.map_err(|e| e.msg);
        assert_eq!(msg(check_image(Some("image/tiff"), png)), Err("Invalid image format".into()));
        assert_eq!(msg(check_image(None, png)), Err("Invalid image format".into()));
        assert_eq!(
            msg(check_image(Some("image/png"), b"not an image")),
            Err("Could not decode image; did you upload an image file?".into())
        );
        assert_eq!(ImageFormat::from_extension("3.JPG"), Some(ImageFormat::Jpeg));
        assert_eq!(ImageFormat::from_extension("x"), None);
    }
}
