//! Thumbnails of uploaded images, as Zulip names, chooses and limits them
//! (`zerver/lib/thumbnail.py`): the formats made, their names in URLs
//! (`/user_uploads/thumbnail/<path_id>/840x560.webp`), the full-size transcoded version of an
//! image browsers cannot show (`4032x3024.webp`), the pixel limits an image must keep to be
//! thumbnailed at all, which stored thumbnail answers a request, and register's
//! `server_thumbnail_formats`. The pixels themselves are the host's work.

use serde_json::{Value, json};

use crate::model::{ImageAttachment, StoredThumbnail};

/// Zulip's `IMAGE_BOMB_TOTAL_PIXELS`: a still image with more pixels is not thumbnailed (about
/// a quarter of a gigabyte at 3 bytes a pixel).
pub const IMAGE_BOMB_TOTAL_PIXELS: u64 = 90_000_000;

/// Zulip's `IMAGE_MAX_ANIMATED_PIXELS`: an animation must fit three frames (or all it has, if
/// fewer) in this many pixels, and its thumbnail keeps only the frames that fit.
pub const IMAGE_MAX_ANIMATED_PIXELS: u64 = IMAGE_BOMB_TOTAL_PIXELS / 3;

/// Zulip's text for an image over those limits (`BadImageError`).
pub const IMAGE_SIZE_EXCEEDS_LIMIT: &str = "Image size exceeds limit.";

/// The URL prefix of thumbnails; the file store keeps them under `thumbnail/` too.
pub const THUMBNAIL_PREFIX: &str = "/user_uploads/thumbnail/";

/// A format thumbnails are made in: the box they fit in (never enlarged), animated or still.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThumbnailFormat {
    pub extension: &'static str,
    pub max_width: u32,
    pub max_height: u32,
    pub animated: bool,
}

impl ThumbnailFormat {
    /// The name in URLs: `840x560.webp`, `840x560-anim.webp`.
    pub fn name(&self) -> String {
        format_name(self.max_width, self.max_height, self.animated, self.extension)
    }

    pub fn content_type(&self) -> &'static str {
        match self.extension {
            "webp" => "image/webp",
            "gif" => "image/gif",
            "png" => "image/png",
            _ => "image/jpeg",
        }
    }
}

/// Zulip's `THUMBNAIL_OUTPUT_FORMATS`: the formats made of every image (the animated one only
/// of animations). The first animated and the first still format are the ones messages show.
pub const THUMBNAIL_OUTPUT_FORMATS: &[ThumbnailFormat] = &[
    ThumbnailFormat { extension: "webp", max_width: 840, max_height: 560, animated: true },
    ThumbnailFormat { extension: "webp", max_width: 840, max_height: 560, animated: false },
];

/// Zulip's `TRANSCODED_IMAGE_FORMAT`: made too of an image whose type browsers do not show
/// (see [`needs_transcoding`]), as the full-size version clients show instead of the original
/// (`data-transcoded-image`). A portrait image gets it turned: `3024x4032.webp`.
pub const TRANSCODED_IMAGE_FORMAT: ThumbnailFormat =
    ThumbnailFormat { extension: "webp", max_width: 4032, max_height: 3024, animated: false };

/// The image types of Zulip's `INLINE_MIME_TYPES`: the images browsers show as they are.
const IMAGE_TYPES_BROWSERS_SHOW: &[&str] =
    &["image/apng", "image/avif", "image/gif", "image/jpeg", "image/png", "image/svg+xml", "image/webp"];

/// Whether a thumbnailed image of this type gets [`TRANSCODED_IMAGE_FORMAT`] too: its type is
/// not one of Zulip's `INLINE_MIME_TYPES`. Of the types Confab thumbnails, that is TIFF alone
/// (Zulip also HEIC, which Confab cannot read).
pub fn needs_transcoding(content_type: &str) -> bool {
    !IMAGE_TYPES_BROWSERS_SHOW.contains(&content_type)
}

fn format_name(max_width: u32, max_height: u32, animated: bool, extension: &str) -> String {
    let anim = if animated { "-anim" } else { "" };
    format!("{max_width}x{max_height}{anim}.{extension}")
}

impl StoredThumbnail {
    /// The format's name, as [`ThumbnailFormat::name`].
    pub fn name(&self) -> String {
        format_name(self.max_width, self.max_height, self.animated, &self.extension)
    }
}

/// A format a client asks for by name (Zulip's `BaseThumbnailFormat.from_string`:
/// `(\d+)x(\d+)(-anim)?\.(\w+)$`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestedFormat {
    pub max_width: u32,
    pub max_height: u32,
    pub animated: bool,
    pub extension: String,
}

impl RequestedFormat {
    pub fn parse(name: &str) -> Option<RequestedFormat> {
        let (size, extension) = name.split_once('.')?;
        if extension.is_empty() || !extension.chars().all(|c| c.is_alphanumeric() || c == '_') {
            return None;
        }
        let (size, animated) = match size.strip_suffix("-anim") {
            Some(size) => (size, true),
            None => (size, false),
        };
        let (width, height) = size.split_once('x')?;
        let number = |s: &str| s.bytes().all(|b| b.is_ascii_digit()).then(|| s.parse().ok()).flatten();
        Some(RequestedFormat {
            max_width: number(width)?,
            max_height: number(height)?,
            animated,
            extension: extension.to_owned(),
        })
    }

    fn name(&self) -> String {
        format_name(self.max_width, self.max_height, self.animated, &self.extension)
    }
}

/// The formats to make of a new image of `content_type`, `width` × `height` as shown (after
/// EXIF rotation), with `frames` frames (Zulip's `missing_thumbnails` for an image with none
/// yet): the output formats, less the animated ones for a still image, then for a type
/// browsers do not show the transcoded format, turned for a portrait image.
pub fn formats_to_make(content_type: &str, width: u32, height: u32, frames: u32) -> Vec<ThumbnailFormat> {
    let mut formats = THUMBNAIL_OUTPUT_FORMATS.to_vec();
    if needs_transcoding(content_type) {
        let mut transcoded = TRANSCODED_IMAGE_FORMAT;
        if width < height {
            std::mem::swap(&mut transcoded.max_width, &mut transcoded.max_height);
        }
        formats.push(transcoded);
    }
    formats.retain(|f| frames > 1 || !f.animated);
    formats
}

/// Zulip's `libvips_check_image(truncated_animation=True)`: whether an image of this size may
/// be thumbnailed. A still image is limited in pixels; an animation must fit its first three
/// frames into the animated budget.
pub fn check_image_size(width: u32, height: u32, frames: u32) -> Result<(), &'static str> {
    let pixels = u64::from(width) * u64::from(height);
    let counted = if frames <= 1 { pixels } else { pixels * u64::from(frames.min(3)) };
    let limit = if frames <= 1 { IMAGE_BOMB_TOTAL_PIXELS } else { IMAGE_MAX_ANIMATED_PIXELS };
    if counted > limit { Err(IMAGE_SIZE_EXCEEDS_LIMIT) } else { Ok(()) }
}

/// Zulip's check for images kept whole (custom emoji, avatars): every frame counts.
pub fn check_whole_image_size(width: u32, height: u32, frames: u32) -> Result<(), &'static str> {
    let pixels = u64::from(width) * u64::from(height) * u64::from(frames.max(1));
    if pixels > IMAGE_BOMB_TOTAL_PIXELS { Err(IMAGE_SIZE_EXCEEDS_LIMIT) } else { Ok(()) }
}

/// How many frames of an animation its animated thumbnail keeps: all that fit in
/// [`IMAGE_MAX_ANIMATED_PIXELS`] (Zulip's `n=` load option).
pub fn animated_frames_to_keep(width: u32, height: u32, frames: u32) -> u32 {
    let per_frame = (u64::from(width) * u64::from(height)).max(1);
    let fitting = IMAGE_MAX_ANIMATED_PIXELS / per_frame;
    u32::try_from(fitting).unwrap_or(u32::MAX).min(frames).max(1)
}

/// Where the file store keeps a thumbnail: `thumbnail/<path_id>/<format name>` (Zulip's
/// `get_image_thumbnail_path`).
pub fn thumbnail_path_id(path_id: &str, format_name: &str) -> String {
    format!("thumbnail/{path_id}/{format_name}")
}

/// The thumbnail a message shows (Zulip's `get_default_thumbnail_url`): the first output
/// format that is animated as the image is; its URL and whether it is animated.
pub fn default_thumbnail(path_id: &str, image: &ImageAttachment) -> (String, bool) {
    let animated = image.frames > 1;
    let format = THUMBNAIL_OUTPUT_FORMATS
        .iter()
        .find(|f| f.animated == animated)
        .unwrap_or(&THUMBNAIL_OUTPUT_FORMATS[0]);
    (format!("{THUMBNAIL_PREFIX}{path_id}/{}", format.name()), format.animated)
}

/// The format named by an image's `data-transcoded-image` (Zulip's `get_transcoded_format`):
/// none for a type browsers show; else the largest thumbnail made (by pixels, the last made
/// of equals), which is the transcoded one.
pub fn transcoded_image(content_type: &str, image: &ImageAttachment) -> Option<String> {
    if !needs_transcoding(content_type) {
        return None;
    }
    // `max_by_key` keeps the last of equals, as Zulip's stable sort and `pop` do.
    let largest = image.thumbnails.iter().max_by_key(|t| u64::from(t.width) * u64::from(t.height));
    largest.map(StoredThumbnail::name)
}

/// The stored thumbnail that answers a request for `requested` (Zulip's `serve_file` with a
/// thumbnail format): none for a name that is not a format or an image with no thumbnails;
/// the one of that name if it was made; else the closest (`closest_thumbnail_format`:
/// animated as asked, then the extension asked, then the nearest width, then the smallest).
/// Zulip also weighs the formats the client's `Accept` header takes; every client takes WebP.
pub fn thumbnail_to_serve<'a>(image: &'a ImageAttachment, requested: &str) -> Option<&'a StoredThumbnail> {
    let requested = RequestedFormat::parse(requested)?;
    let name = requested.name();
    if let Some(exact) = image.thumbnails.iter().find(|t| t.name() == name) {
        return Some(exact);
    }
    image.thumbnails.iter().min_by_key(|t| {
        (
            t.animated != requested.animated,
            t.extension != requested.extension,
            t.max_width.abs_diff(requested.max_width),
            t.byte_size,
        )
    })
}

/// Register's `server_thumbnail_formats`: the formats this server makes.
pub fn server_thumbnail_formats() -> Value {
    THUMBNAIL_OUTPUT_FORMATS
        .iter()
        .map(|f| {
            json!({
                "name": f.name(),
                "max_width": f.max_width,
                "max_height": f.max_height,
                "format": f.extension,
                "animated": f.animated,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored(format: &ThumbnailFormat, byte_size: u64) -> StoredThumbnail {
        StoredThumbnail {
            extension: format.extension.to_owned(),
            content_type: format.content_type().to_owned(),
            max_width: format.max_width,
            max_height: format.max_height,
            animated: format.animated,
            width: 100,
            height: 100,
            byte_size,
        }
    }

    #[test]
    fn format_names_are_zulips() {
        let names: Vec<String> = THUMBNAIL_OUTPUT_FORMATS.iter().map(ThumbnailFormat::name).collect();
        assert_eq!(names, ["840x560-anim.webp", "840x560.webp"]);
        assert_eq!(
            RequestedFormat::parse("300x200-anim.gif"),
            Some(RequestedFormat {
                max_width: 300,
                max_height: 200,
                animated: true,
                extension: "gif".into()
            })
        );
        for bad in ["840x560", "x560.webp", "840x.webp", "840x560.we/bp", "-1x5.webp", "840x560-ani.webp"] {
            assert_eq!(RequestedFormat::parse(bad), None, "{bad}");
        }
    }

    fn names(formats: Vec<ThumbnailFormat>) -> Vec<String> {
        formats.iter().map(ThumbnailFormat::name).collect()
    }

    #[test]
    fn still_images_get_no_animated_thumbnail() {
        assert_eq!(names(formats_to_make("image/png", 10, 10, 1)), ["840x560.webp"]);
        assert_eq!(names(formats_to_make("image/gif", 10, 10, 7)), ["840x560-anim.webp", "840x560.webp"]);
    }

    #[test]
    fn types_browsers_do_not_show_get_a_transcoded_version_turned_as_the_image_is() {
        assert_eq!(names(formats_to_make("image/tiff", 800, 600, 1)), ["840x560.webp", "4032x3024.webp"]);
        assert_eq!(names(formats_to_make("image/tiff", 600, 600, 1)), ["840x560.webp", "4032x3024.webp"]);
        assert_eq!(names(formats_to_make("image/tiff", 600, 800, 1)), ["840x560.webp", "3024x4032.webp"]);
        for shown in ["image/png", "image/jpeg", "image/gif", "image/webp", "image/avif"] {
            assert!(!needs_transcoding(shown), "{shown}");
        }
        assert!(needs_transcoding("image/heic"));
    }

    #[test]
    fn the_transcoded_image_is_the_largest_thumbnail_of_a_type_browsers_do_not_show() {
        let thumbnail =
            |format: ThumbnailFormat, width, height| StoredThumbnail { width, height, ..stored(&format, 10) };
        let mut image = ImageAttachment {
            original_width_px: 5_000,
            original_height_px: 2_000,
            frames: 1,
            thumbnails: vec![
                thumbnail(THUMBNAIL_OUTPUT_FORMATS[1], 840, 336),
                thumbnail(TRANSCODED_IMAGE_FORMAT, 4_032, 1_613),
            ],
        };
        assert_eq!(transcoded_image("image/tiff", &image).as_deref(), Some("4032x3024.webp"));
        assert_eq!(transcoded_image("image/png", &image), None);
        // A small image's thumbnails are all its own size: the transcoded one, made last, is named.
        image.thumbnails =
            vec![thumbnail(THUMBNAIL_OUTPUT_FORMATS[1], 30, 20), thumbnail(TRANSCODED_IMAGE_FORMAT, 30, 20)];
        assert_eq!(transcoded_image("image/tiff", &image).as_deref(), Some("4032x3024.webp"));
        image.thumbnails.clear();
        assert_eq!(transcoded_image("image/tiff", &image), None);
    }

    #[test]
    fn bombs_are_over_the_limits() {
        assert_eq!(check_image_size(9_000, 10_000, 1), Ok(()));
        assert_eq!(check_image_size(9_001, 10_000, 1), Err(IMAGE_SIZE_EXCEEDS_LIMIT));
        assert_eq!(check_image_size(65_535, 65_535, 1), Err(IMAGE_SIZE_EXCEEDS_LIMIT));
        // An animation's first three frames must fit a third of that.
        assert_eq!(check_image_size(5_000, 2_000, 3), Ok(()));
        assert_eq!(check_image_size(5_000, 2_000, 4), Ok(()));
        assert_eq!(check_image_size(5_000, 2_001, 3), Err(IMAGE_SIZE_EXCEEDS_LIMIT));
        assert_eq!(check_image_size(5_000, 3_000, 2), Ok(()));
        assert_eq!(check_whole_image_size(100, 100, 9_001), Err(IMAGE_SIZE_EXCEEDS_LIMIT));
        assert_eq!(animated_frames_to_keep(1_000, 1_000, 500), 30);
        assert_eq!(animated_frames_to_keep(10, 10, 500), 500);
    }

    #[test]
    fn the_closest_stored_thumbnail_answers_other_names() {
        let [animated, still] = [THUMBNAIL_OUTPUT_FORMATS[0], THUMBNAIL_OUTPUT_FORMATS[1]];
        let image = ImageAttachment {
            original_width_px: 1_000,
            original_height_px: 800,
            frames: 4,
            thumbnails: vec![stored(&animated, 900), stored(&still, 300)],
        };
        let served = |name: &str| thumbnail_to_serve(&image, name).map(StoredThumbnail::name);
        assert_eq!(served("840x560.webp").as_deref(), Some("840x560.webp"));
        assert_eq!(served("840x560-anim.webp").as_deref(), Some("840x560-anim.webp"));
        assert_eq!(served("100x75.jpg").as_deref(), Some("840x560.webp"));
        assert_eq!(served("100x75-anim.png").as_deref(), Some("840x560-anim.webp"));
        assert_eq!(served("thumbnail.webp"), None);
        let bare = ImageAttachment { thumbnails: Vec::new(), ..image.clone() };
        assert_eq!(thumbnail_to_serve(&bare, "840x560.webp"), None);
        assert_eq!(
            default_thumbnail("2/ab/x/a.gif", &image),
            ("/user_uploads/thumbnail/2/ab/x/a.gif/840x560-anim.webp".to_owned(), true)
        );
        let still_image = ImageAttachment { frames: 1, ..image };
        assert_eq!(
            default_thumbnail("2/ab/x/a.png", &still_image).0,
            "/user_uploads/thumbnail/2/ab/x/a.png/840x560.webp"
        );
    }
}
