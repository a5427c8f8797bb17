//! `cargo bench -p confab-server --bench thumbnails`: how long thumbnailing an upload takes
//! (the header, the decoding, the shrinking, the WebP encoding), for a 12-megapixel JPEG
//! (4000 × 3000, a phone photo), the same as PNG, and a 60-frame animated GIF. Prints figures,
//! asserts nothing.

use std::io::Write;
use std::time::Instant;

use image::codecs::gif::{GifEncoder, Repeat};
use image::codecs::jpeg::JpegEncoder;
use image::{Delay, Frame, Rgb, RgbImage, Rgba, RgbaImage};

/// A photo-like picture: smooth gradients with fine noise (which costs encoders as a photo does).
fn picture(width: u32, height: u32) -> RgbImage {
    let mut seed = 0x2545_f491_u32;
    RgbImage::from_fn(width, height, |x, y| {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        let noise = (seed % 24) as u8;
        Rgb([
            ((x * 255 / width) as u8).saturating_add(noise),
            ((y * 255 / height) as u8).saturating_add(noise),
            (((x + y) / 16 % 256) as u8).saturating_add(noise),
        ])
    })
}

fn file_with(bytes: &[u8]) -> tempfile::NamedTempFile {
    let mut file = tempfile::NamedTempFile::new().expect("temporary file");
    file.write_all(bytes).expect("written");
    file
}

fn measure(label: &str, bytes: &[u8], content_type: &str) {
    let file = file_with(bytes);
    let mut times = Vec::new();
    let mut made = None;
    for _ in 0..5 {
        let start = Instant::now();
        made = Some(confab_server::thumbnails::make(file.path(), content_type).expect("thumbnailed"));
        times.push(start.elapsed());
    }
    times.sort();
    let made = made.expect("made");
    let sizes: Vec<String> =
        made.files.iter().map(|(name, b)| format!("{name} {} KB", b.len() / 1024)).collect();
    println!(
        "{label:<34} {:>6} KB in: fastest {:>5} ms, median {:>5} ms; out: {}",
        bytes.len() / 1024,
        times[0].as_millis(),
        times[times.len() / 2].as_millis(),
        sizes.join(", ")
    );
}

fn main() {
    let photo = picture(4000, 3000);
    let mut jpeg = Vec::new();
    JpegEncoder::new_with_quality(&mut jpeg, 85).encode_image(&photo).expect("a JPEG");
    measure("JPEG 4000x3000 (quality 85)", &jpeg, "image/jpeg");
    let mut png = std::io::Cursor::new(Vec::new());
    photo.write_to(&mut png, image::ImageFormat::Png).expect("a PNG");
    measure("PNG 4000x3000", png.get_ref(), "image/png");
    let mut gif = Vec::new();
    {
        let mut encoder = GifEncoder::new_with_speed(&mut gif, 30);
        encoder.set_repeat(Repeat::Infinite).expect("looping");
        for step in 0..60u32 {
            let frame = RgbaImage::from_fn(480, 360, |x, y| {
                Rgba([((x + step * 4) % 256) as u8, (y % 256) as u8, 90, 255])
            });
            encoder
                .encode_frame(Frame::from_parts(frame, 0, 0, Delay::from_numer_denom_ms(40, 1)))
                .expect("frame");
        }
    }
    measure("GIF 480x360, 60 frames", &gif, "image/gif");
}
