//! Thumbnails of uploaded images, made when the file is uploaded (Zulip makes them in a
//! worker and then re-renders the messages; see ARCHITECTURE.md). Core names the formats and
//! sets the limits (`confab_core::thumbnails`); this is the pixel work, with the `image` crate.
//!
//! What is read, in order, so that nothing large is decoded before it is known to be allowed:
//! the declared type (only PNG, JPEG, GIF, WebP and TIFF are parsed at all: core's
//! `may_thumbnail` says why not HEIC or AVIF), the first bytes (the format), the header
//! (dimensions, EXIF orientation), for GIF and WebP the frame count (from the frame headers,
//! nothing decompressed), then Zulip's pixel limits. Only then are pixels decoded, under an
//! allocation limit, and an animation frame by frame, each frame shrunk and encoded before the
//! next is read.
//!
//! Thumbnails are WebP, as Zulip's: lossless, since `image-webp` has no lossy encoder (Zulip's
//! are lossy, several times smaller). Animated ones are written here as WebP's animation
//! container around each frame's lossless bitstream. A TIFF, which browsers do not show, also
//! gets core's full-size transcoded format (`4032x3024.webp`), made from the same decoding.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

use confab_core::images::ImageFormat;
use confab_core::model::{ImageAttachment, StoredThumbnail};
use confab_core::thumbnails::{self, ThumbnailFormat};
use image::codecs::gif::GifDecoder;
use image::codecs::webp::WebPDecoder;
use image::metadata::{LoopCount, Orientation};
use image::{AnimationDecoder, DynamicImage, Frames, ImageDecoder, ImageReader, Limits, RgbaImage};

/// The most a decoder may allocate for one image: a still image at Zulip's pixel limit
/// (90 million) as 8-bit RGBA is 360 MB. Larger decodings (16-bit images near the limit) fail,
/// and the file stays a plain upload.
const MAX_DECODE_BYTES: u64 = 512 * 1024 * 1024;

/// Thumbnails being made at once: each may hold a decoded image of up to [`MAX_DECODE_BYTES`].
pub struct Thumbnailer {
    places: tokio::sync::Semaphore,
}

impl Thumbnailer {
    pub fn new() -> Thumbnailer {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        Thumbnailer { places: tokio::sync::Semaphore::new(cores) }
    }

    /// Thumbnails the upload at `path` (typed `content_type` by the uploader), one of a
    /// bounded number at a time, on a blocking thread.
    pub async fn make(&self, path: std::path::PathBuf, content_type: String) -> Result<Made, NotThumbnailed> {
        let _place = self.places.acquire().await.map_err(|_| NotThumbnailed("shutting down".into()))?;
        tokio::task::spawn_blocking(move || make(&path, &content_type))
            .await
            // A decoder that panicked read no image we could use: the file stays a plain upload.
            .unwrap_or_else(|e| Err(NotThumbnailed(format!("the decoder failed: {e}"))))
    }
}

impl Default for Thumbnailer {
    fn default() -> Self {
        Thumbnailer::new()
    }
}

/// An image's record and its thumbnails' bytes, by format name.
#[derive(Debug)]
pub struct Made {
    pub image: ImageAttachment,
    pub files: Vec<(String, Vec<u8>)>,
}

/// Why an upload is not thumbnailed (and so is a plain file, as in Zulip), for the log.
#[derive(Debug, PartialEq, Eq)]
pub struct NotThumbnailed(pub String);

impl<E: std::fmt::Display> From<E> for NotThumbnailed {
    fn from(error: E) -> Self {
        NotThumbnailed(error.to_string())
    }
}

/// The formats read here, told by their first bytes: those browsers show (core's
/// `ImageFormat`, which also decides custom emoji and avatars) and TIFF, which they do not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SourceFormat {
    Shown(ImageFormat),
    Tiff,
}

impl SourceFormat {
    fn sniff(head: &[u8]) -> Option<SourceFormat> {
        if let Some(shown) = ImageFormat::sniff(head) {
            return Some(SourceFormat::Shown(shown));
        }
        // Classic TIFF in either byte order: the TIFFs `image` recognises (not BigTIFF).
        (head.starts_with(b"II*\0") || head.starts_with(b"MM\0*")).then_some(SourceFormat::Tiff)
    }
}

/// What the header says, before any pixel is decoded.
struct Header {
    format: SourceFormat,
    width: u32,
    height: u32,
    frames: u32,
    orientation: Orientation,
}

/// Thumbnails an upload in every format core asks for.
pub fn make(path: &Path, content_type: &str) -> Result<Made, NotThumbnailed> {
    if !confab_core::api::uploads::may_thumbnail(content_type) {
        return Err(NotThumbnailed(format!("{content_type} is not thumbnailed")));
    }
    let header = header(path)?;
    thumbnails::check_image_size(header.width, header.height, header.frames)
        .map_err(|e| NotThumbnailed(e.to_owned()))?;
    let (width, height) = if swaps_sides(header.orientation) {
        (header.height, header.width)
    } else {
        (header.width, header.height)
    };
    let formats = thumbnails::formats_to_make(content_type, width, height, header.frames);
    let files = if header.frames > 1 { animated(path, &header, &formats)? } else { still(path, &formats)? };
    let thumbnails = files.iter().map(|(format, bytes, (w, h))| stored(format, bytes, *w, *h)).collect();
    Ok(Made {
        image: ImageAttachment {
            original_width_px: width,
            original_height_px: height,
            frames: header.frames,
            thumbnails,
        },
        files: files.into_iter().map(|(format, bytes, _)| (format.name(), bytes)).collect(),
    })
}

/// Whether an image kept whole (a custom emoji, an avatar) claims more pixels over all its
/// frames than Zulip decodes. An unreadable header says nothing here: the format check decides.
pub fn exceeds_whole_image_limit(path: &Path) -> bool {
    header(path).is_ok_and(|h| thumbnails::check_whole_image_size(h.width, h.height, h.frames).is_err())
}

/// Reads the dimensions, orientation and frame count of an image, and fails on anything that
/// is not one of the formats read here.
fn header(path: &Path) -> Result<Header, NotThumbnailed> {
    let mut head = [0; confab_core::images::SNIFF_BYTES];
    let read = File::open(path)?.read(&mut head)?;
    let format = SourceFormat::sniff(&head[..read])
        .ok_or_else(|| NotThumbnailed("Could not decode image; did you upload an image file?".into()))?;
    let mut decoder = reader(path)?.into_decoder()?;
    let (width, height) = decoder.dimensions();
    let orientation = decoder.orientation().unwrap_or(Orientation::NoTransforms);
    let frames = match format {
        SourceFormat::Shown(ImageFormat::Gif) => gif_frames(path)?,
        SourceFormat::Shown(ImageFormat::Webp) => {
            image_webp::WebPDecoder::new(BufReader::new(File::open(path)?))?.num_frames().max(1)
        }
        SourceFormat::Shown(ImageFormat::Png | ImageFormat::Jpeg) => 1,
        // `image` reads a TIFF's first page only: a multi-page TIFF is thumbnailed as that
        // page (Zulip's libvips counts its pages as frames).
        SourceFormat::Tiff => 1,
    };
    Ok(Header { format, width, height, frames, orientation })
}

/// A GIF's frames, counted from their headers without decompressing them.
fn gif_frames(path: &Path) -> Result<u32, NotThumbnailed> {
    let mut options = gif::DecodeOptions::new();
    options.skip_frame_decoding(true);
    let mut decoder = options.read_info(BufReader::new(File::open(path)?))?;
    let mut frames = 0u32;
    while decoder.next_frame_info()?.is_some() {
        frames = frames.saturating_add(1);
    }
    Ok(frames.max(1))
}

fn limits() -> Limits {
    let mut limits = Limits::default();
    limits.max_alloc = Some(MAX_DECODE_BYTES);
    limits
}

fn reader(path: &Path) -> Result<ImageReader<BufReader<File>>, NotThumbnailed> {
    let mut reader = ImageReader::open(path)?.with_guessed_format()?;
    reader.limits(limits());
    Ok(reader)
}

/// EXIF orientations 5–8 turn the image a quarter: what is shown is as wide as it is high.
fn swaps_sides(orientation: Orientation) -> bool {
    matches!(
        orientation,
        Orientation::Rotate90
            | Orientation::Rotate270
            | Orientation::Rotate90FlipH
            | Orientation::Rotate270FlipH
    )
}

/// A thumbnail made: its format, bytes and pixel size.
type Encoded = (ThumbnailFormat, Vec<u8>, (u32, u32));

fn stored(format: &ThumbnailFormat, bytes: &[u8], width: u32, height: u32) -> StoredThumbnail {
    StoredThumbnail {
        extension: format.extension.to_owned(),
        content_type: format.content_type().to_owned(),
        max_width: format.max_width,
        max_height: format.max_height,
        animated: format.animated,
        width,
        height,
        byte_size: bytes.len() as u64,
    }
}

/// A still image: decoded whole, turned upright, shrunk into each format (all still: core asks
/// for no animated format of a still image).
fn still(path: &Path, formats: &[ThumbnailFormat]) -> Result<Vec<Encoded>, NotThumbnailed> {
    let mut decoder = reader(path)?.into_decoder()?;
    let orientation = decoder.orientation().unwrap_or(Orientation::NoTransforms);
    let mut image = DynamicImage::from_decoder(decoder)?;
    image.apply_orientation(orientation);
    let mut made = Vec::new();
    for format in formats {
        let small = fit(&image, format);
        let size = (small.width(), small.height());
        made.push((*format, encode_still(&small)?, size));
    }
    Ok(made)
}

/// An animation, frame by frame: the first frame makes the still thumbnails, and the frames
/// that fit Zulip's animated budget make the animated ones.
fn animated(
    path: &Path,
    header: &Header,
    formats: &[ThumbnailFormat],
) -> Result<Vec<Encoded>, NotThumbnailed> {
    let keep = thumbnails::animated_frames_to_keep(header.width, header.height, header.frames);
    let file = BufReader::new(File::open(path)?);
    let (frames, loops) = match header.format {
        SourceFormat::Shown(ImageFormat::Gif) => frames_of(GifDecoder::new(file)?)?,
        _ => frames_of(WebPDecoder::new(file)?)?,
    };
    let mut stills: Vec<Encoded> = Vec::new();
    let mut animations: Vec<(ThumbnailFormat, AnimatedWebp)> = Vec::new();
    for (at, frame) in frames.take(keep as usize).enumerate() {
        let frame = frame?;
        let (numerator, denominator) = frame.delay().numer_denom_ms();
        let delay = numerator / denominator.max(1);
        let image = DynamicImage::ImageRgba8(frame.into_buffer());
        for format in formats {
            let small = fit(&image, format);
            if format.animated {
                let at = match animations.iter().position(|(f, _)| f == format) {
                    Some(at) => at,
                    None => {
                        animations.push((*format, AnimatedWebp::new(small.width(), small.height(), loops)));
                        animations.len() - 1
                    }
                };
                animations[at].1.push(&small.to_rgba8(), delay)?;
            } else if at == 0 {
                let size = (small.width(), small.height());
                stills.push((*format, encode_still(&small)?, size));
            }
        }
    }
    let mut made = stills;
    for (format, animation) in animations {
        let size = (animation.width, animation.height);
        made.push((format, animation.finish(), size));
    }
    // Formats in core's order, so that records compare equal however they were made.
    made.sort_by_key(|(format, _, _)| formats.iter().position(|f| f == format));
    Ok(made)
}

/// An animation decoder's frames (each the whole canvas, already composed) and loop count,
/// under the allocation limit.
fn frames_of<'a, D>(mut decoder: D) -> Result<(Frames<'a>, u16), NotThumbnailed>
where
    D: AnimationDecoder<'a> + ImageDecoder,
{
    decoder.set_limits(limits())?;
    let loops = match decoder.loop_count() {
        LoopCount::Infinite => 0,
        LoopCount::Finite(n) => u16::try_from(n.get()).unwrap_or(u16::MAX),
    };
    Ok((decoder.into_frames(), loops))
}

/// The image shrunk to fit the format's box; never enlarged (Zulip's `size=DOWN`).
fn fit(image: &DynamicImage, format: &ThumbnailFormat) -> DynamicImage {
    if image.width() <= format.max_width && image.height() <= format.max_height {
        image.clone()
    } else {
        image.thumbnail(format.max_width, format.max_height)
    }
}

/// A still image as a lossless WebP, with an alpha channel only when the image has one.
fn encode_still(image: &DynamicImage) -> Result<Vec<u8>, NotThumbnailed> {
    let mut out = Vec::new();
    let encoder = image_webp::WebPEncoder::new(&mut out);
    if image.color().has_alpha() {
        let rgba = image.to_rgba8();
        encoder.encode(rgba.as_raw(), rgba.width(), rgba.height(), image_webp::ColorType::Rgba8)?;
    } else {
        let rgb = image.to_rgb8();
        encoder.encode(rgb.as_raw(), rgb.width(), rgb.height(), image_webp::ColorType::Rgb8)?;
    }
    Ok(out)
}

/// An animated WebP being written: each frame a whole canvas, encoded lossless as it comes
/// (the WebP container's `ANMF` chunks around `image-webp`'s `VP8L` bitstream).
struct AnimatedWebp {
    width: u32,
    height: u32,
    loops: u16,
    /// The `ANMF` chunks so far.
    frames: Vec<u8>,
}

impl AnimatedWebp {
    fn new(width: u32, height: u32, loops: u16) -> AnimatedWebp {
        AnimatedWebp { width, height, loops, frames: Vec::new() }
    }

    /// Adds a frame shown for `delay` milliseconds. Browsers show GIF frames of 10 ms or less
    /// for 100 ms; the thumbnail keeps that timing.
    fn push(&mut self, frame: &RgbaImage, delay: u32) -> Result<(), NotThumbnailed> {
        let mut single = Vec::new();
        image_webp::WebPEncoder::new(&mut single).encode(
            frame.as_raw(),
            frame.width(),
            frame.height(),
            image_webp::ColorType::Rgba8,
        )?;
        // The simple container: `RIFF`, size, `WEBP`, then the one `VP8L` chunk.
        let bitstream = single.get(12..).filter(|chunk| chunk.starts_with(b"VP8L"));
        let bitstream = bitstream.ok_or_else(|| NotThumbnailed("unexpected WebP encoding".into()))?;
        let delay = if delay <= 10 { 100 } else { delay };
        let mut payload = Vec::with_capacity(16 + bitstream.len());
        payload.extend_from_slice(&u24(0)); // x / 2
        payload.extend_from_slice(&u24(0)); // y / 2
        payload.extend_from_slice(&u24(frame.width() - 1));
        payload.extend_from_slice(&u24(frame.height() - 1));
        payload.extend_from_slice(&u24(delay.min(0xFF_FFFF)));
        // Each frame is a whole canvas: drawn over the last without blending, never disposed.
        payload.push(0b10);
        payload.extend_from_slice(bitstream);
        chunk(&mut self.frames, b"ANMF", &payload);
        Ok(())
    }

    fn finish(self) -> Vec<u8> {
        let mut vp8x = vec![0b0001_0010, 0, 0, 0]; // alpha and animation
        vp8x.extend_from_slice(&u24(self.width - 1));
        vp8x.extend_from_slice(&u24(self.height - 1));
        let mut anim = vec![0, 0, 0, 0]; // background: transparent
        anim.extend_from_slice(&self.loops.to_le_bytes());
        let mut body = b"WEBP".to_vec();
        chunk(&mut body, b"VP8X", &vp8x);
        chunk(&mut body, b"ANIM", &anim);
        body.extend_from_slice(&self.frames);
        let mut file = b"RIFF".to_vec();
        file.extend_from_slice(&(body.len() as u32).to_le_bytes());
        file.extend_from_slice(&body);
        file
    }
}

fn u24(value: u32) -> [u8; 3] {
    let [a, b, c, _] = value.to_le_bytes();
    [a, b, c]
}

/// A RIFF chunk, padded to an even length.
fn chunk(out: &mut Vec<u8>, name: &[u8; 4], payload: &[u8]) {
    out.extend_from_slice(name);
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(payload);
    if payload.len() % 2 == 1 {
        out.push(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::codecs::gif::{GifEncoder, Repeat};
    use image::{Delay, Frame, Rgb, RgbImage, Rgba};

    fn file_with(bytes: &[u8]) -> tempfile::NamedTempFile {
        let mut file = tempfile::NamedTempFile::new().expect("temporary file");
        std::io::Write::write_all(&mut file, bytes).expect("written");
        file
    }

    fn png(width: u32, height: u32) -> Vec<u8> {
        let image = RgbaImage::from_fn(width, height, |x, y| Rgba([x as u8, y as u8, 128, 255]));
        let mut out = std::io::Cursor::new(Vec::new());
        image.write_to(&mut out, image::ImageFormat::Png).expect("encoded");
        out.into_inner()
    }

    fn tiff(width: u32, height: u32) -> Vec<u8> {
        let image = RgbImage::from_fn(width, height, |x, y| Rgb([(x % 256) as u8, (y % 256) as u8, 60]));
        let mut out = std::io::Cursor::new(Vec::new());
        image.write_to(&mut out, image::ImageFormat::Tiff).expect("encoded");
        out.into_inner()
    }

    fn decode(bytes: &[u8]) -> DynamicImage {
        image::load_from_memory_with_format(bytes, image::ImageFormat::WebP).expect("a WebP")
    }

    #[test]
    fn large_images_shrink_into_the_box_and_small_ones_keep_their_size() {
        let made = make(file_with(&png(1_680, 600)).path(), "image/png").expect("thumbnailed");
        assert_eq!(
            (made.image.original_width_px, made.image.original_height_px, made.image.frames),
            (1_680, 600, 1)
        );
        assert_eq!(made.files.len(), 1);
        assert_eq!(made.files[0].0, "840x560.webp");
        let thumbnail = decode(&made.files[0].1);
        assert_eq!((thumbnail.width(), thumbnail.height()), (840, 300));
        assert_eq!(made.image.thumbnails[0].byte_size, made.files[0].1.len() as u64);

        let made = make(file_with(&png(30, 20)).path(), "image/png").expect("thumbnailed");
        let thumbnail = decode(&made.files[0].1);
        assert_eq!((thumbnail.width(), thumbnail.height()), (30, 20));
        assert_eq!(thumbnail.to_rgba8().get_pixel(7, 5), &Rgba([7, 5, 128, 255]));
    }

    #[test]
    fn animations_get_an_animated_thumbnail_too() {
        let mut gif = Vec::new();
        {
            let mut encoder = GifEncoder::new(&mut gif);
            encoder.set_repeat(Repeat::Infinite).expect("repeat");
            for shade in [0u8, 120, 240] {
                let frame = RgbaImage::from_pixel(900, 100, Rgba([shade, 0, 0, 255]));
                encoder
                    .encode_frame(Frame::from_parts(frame, 0, 0, Delay::from_numer_denom_ms(50, 1)))
                    .expect("frame");
            }
        }
        let made = make(file_with(&gif).path(), "image/gif").expect("thumbnailed");
        assert_eq!(made.image.frames, 3);
        let names: Vec<&str> = made.files.iter().map(|(name, _)| name.as_str()).collect();
        assert_eq!(names, ["840x560-anim.webp", "840x560.webp"]);
        let decoder = WebPDecoder::new(std::io::Cursor::new(&made.files[0].1)).expect("a WebP");
        assert!(decoder.has_animation());
        let frames: Vec<Frame> = decoder.into_frames().collect::<Result<_, _>>().expect("frames decode");
        assert_eq!(frames.len(), 3);
        assert_eq!(frames[2].buffer().dimensions(), (840, 93));
        assert_eq!(frames[2].buffer().get_pixel(10, 10), &Rgba([240, 0, 0, 255]));
        assert_eq!(frames[1].delay().numer_denom_ms(), (50, 1));
        assert_eq!(decode(&made.files[1].1).to_rgba8().get_pixel(1, 1), &Rgba([0, 0, 0, 255]));
    }

    #[test]
    fn a_tiff_gets_its_thumbnail_and_a_full_size_transcoded_version() {
        let made = make(file_with(&tiff(1_000, 700)).path(), "image/tiff").expect("thumbnailed");
        assert_eq!((made.image.original_width_px, made.image.original_height_px), (1_000, 700));
        let names: Vec<&str> = made.files.iter().map(|(name, _)| name.as_str()).collect();
        assert_eq!(names, ["840x560.webp", "4032x3024.webp"]);
        assert_eq!((decode(&made.files[0].1).width(), decode(&made.files[0].1).height()), (800, 560));
        let transcoded = decode(&made.files[1].1);
        assert_eq!((transcoded.width(), transcoded.height()), (1_000, 700));
        assert_eq!(transcoded.to_rgb8().get_pixel(300, 20), &Rgb([44, 20, 60]));
        assert_eq!(
            (
                made.image.thumbnails[1].width,
                made.image.thumbnails[1].height,
                made.image.thumbnails[1].max_width
            ),
            (1_000, 700, 4_032)
        );

        // A portrait image's transcoded box is turned; a TIFF named as a PNG is a PNG to the
        // browser, and gets no transcoded version.
        let made = make(file_with(&tiff(30, 40)).path(), "image/tiff").expect("thumbnailed");
        assert_eq!(made.files[1].0, "3024x4032.webp");
        let made = make(file_with(&tiff(30, 40)).path(), "image/png").expect("thumbnailed");
        assert_eq!(made.files.len(), 1);
    }

    #[test]
    fn tiff_bombs_and_broken_tiffs_are_refused() {
        // A 1 × 1 TIFF whose header claims 100,000 × 100,000 pixels.
        let mut bomb = tiff(1, 1);
        let ifd = u32::from_le_bytes(bomb[4..8].try_into().expect("4 bytes")) as usize;
        let entries = u16::from_le_bytes([bomb[ifd], bomb[ifd + 1]]) as usize;
        for entry in (0..entries).map(|i| ifd + 2 + 12 * i) {
            let tag = u16::from_le_bytes([bomb[entry], bomb[entry + 1]]);
            if tag == 256 || tag == 257 {
                bomb[entry + 2..entry + 4].copy_from_slice(&4u16.to_le_bytes()); // LONG
                bomb[entry + 8..entry + 12].copy_from_slice(&100_000u32.to_le_bytes());
            }
        }
        assert_eq!(
            make(file_with(&bomb).path(), "image/tiff").map(|_| ()),
            Err(NotThumbnailed("Image size exceeds limit.".into()))
        );
        let whole = tiff(64, 64);
        for broken in [&whole[..whole.len() / 2], &whole[whole.len() / 2..], b"II*\0not a tiff at all"] {
            assert!(make(file_with(broken).path(), "image/tiff").is_err());
        }
    }

    #[test]
    fn bombs_and_junk_are_refused_before_decoding() {
        // A 1 × 1 PNG whose header claims 100,000 × 100,000 pixels.
        let mut bomb = png(1, 1);
        bomb[16..20].copy_from_slice(&100_000u32.to_be_bytes());
        bomb[20..24].copy_from_slice(&100_000u32.to_be_bytes());
        let crc = crc32fast::hash(&bomb[12..29]);
        bomb[29..33].copy_from_slice(&crc.to_be_bytes());
        assert_eq!(
            make(file_with(&bomb).path(), "image/png").map(|_| ()),
            Err(NotThumbnailed("Image size exceeds limit.".into()))
        );
        assert!(make(file_with(b"\x89PNG\r\n\x1a\nnot really").path(), "image/png").is_err());
        assert!(make(file_with(b"hello").path(), "image/png").is_err());
        assert!(make(file_with(&png(4, 4)).path(), "application/pdf").is_err());
    }
}
