//! Thumbnails of uploaded images (issue 17, item 6), as Zulip 9+ makes and shows them: a PNG,
//! a JPEG, an animated GIF, a decompression bomb and junk bytes, uploaded with the real Python
//! client, linked in messages; the messages' HTML, the thumbnails' answers, and what cannot be
//! thumbnailed staying a plain file. TIFFs, which browsers do not show, also get a full-size
//! transcoded WebP, named by `data-transcoded-image` (feature level 336). The images are made
//! here.

use std::io::Cursor;

use confab_tests::{Creds, TestServer, python};
use image::codecs::gif::{GifEncoder, Repeat};
use image::codecs::jpeg::JpegEncoder;
use image::codecs::webp::WebPDecoder;
use image::{AnimationDecoder, Delay, Frame, ImageDecoder, Rgb, RgbImage, Rgba, RgbaImage};
use serde_json::{Value, json};

fn png(width: u32, height: u32) -> Vec<u8> {
    let image = RgbaImage::from_fn(width, height, |x, y| Rgba([(x % 256) as u8, (y % 256) as u8, 90, 255]));
    let mut out = Cursor::new(Vec::new());
    image.write_to(&mut out, image::ImageFormat::Png).expect("a PNG");
    out.into_inner()
}

fn jpeg(width: u32, height: u32) -> Vec<u8> {
    let image = RgbImage::from_fn(width, height, |x, y| Rgb([(x / 8 % 256) as u8, (y / 8 % 256) as u8, 40]));
    let mut out = Vec::new();
    JpegEncoder::new_with_quality(&mut out, 85).encode_image(&image).expect("a JPEG");
    out
}

fn tiff(width: u32, height: u32) -> Vec<u8> {
    let image = RgbImage::from_fn(width, height, |x, y| Rgb([(x % 256) as u8, (y % 256) as u8, 140]));
    let mut out = Cursor::new(Vec::new());
    image.write_to(&mut out, image::ImageFormat::Tiff).expect("a TIFF");
    out.into_inner()
}

/// Three frames, 120 × 80, looping.
fn animated_gif() -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = GifEncoder::new(&mut out);
    encoder.set_repeat(Repeat::Infinite).expect("looping");
    for shade in [30u8, 130, 230] {
        let frame = RgbaImage::from_pixel(120, 80, Rgba([shade, 20, 200, 255]));
        encoder
            .encode_frame(Frame::from_parts(frame, 0, 0, Delay::from_numer_denom_ms(80, 1)))
            .expect("a frame");
    }
    drop(encoder);
    out
}

/// A PNG of 57 bytes whose header claims 100,000 × 100,000 pixels (10 billion; 40 GB as RGBA).
fn decompression_bomb() -> Vec<u8> {
    let mut bomb = png(1, 1);
    bomb[16..20].copy_from_slice(&100_000u32.to_be_bytes());
    bomb[20..24].copy_from_slice(&100_000u32.to_be_bytes());
    let crc = crc32fast::hash(&bomb[12..29]);
    bomb[29..33].copy_from_slice(&crc.to_be_bytes());
    bomb
}

/// Uploads the files through the Python client's `upload_file`; their URLs by file name.
fn upload_with_python(server: &TestServer, files: &[(&str, Vec<u8>)]) -> Vec<(String, String)> {
    let dir = tempfile::tempdir().expect("a directory");
    let mut paths = Vec::new();
    for (name, bytes) in files {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).expect("written");
        paths.push(path.to_str().expect("utf-8 path").to_owned());
    }
    let zuliprc = server.data_dir.join("zuliprc");
    let mut args = vec![zuliprc.to_str().expect("utf-8 path")];
    args.extend(paths.iter().map(String::as_str));
    let output = python::run_script("upload_images.py", &args);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success() && stdout.contains(" passed, 0 failed"), "{stdout}");
    stdout
        .lines()
        .filter_map(|line| line.strip_prefix("URL "))
        .map(|line| {
            let (name, url) = line.split_once(' ').expect("name and url");
            (name.to_owned(), url.to_owned())
        })
        .collect()
}

/// Sends a message to the images topic and reads its rendered content back.
fn send_and_read(server: &TestServer, who: &Creds, content: &str) -> String {
    let api = server.api();
    let params = [("type", "stream"), ("to", "general"), ("topic", "images"), ("content", content)];
    let id = api.post("/messages", Some(who), &params).ok()["id"].as_u64().expect("id");
    let message = api.get(&format!("/messages/{id}"), Some(who), &[]).ok();
    message["message"]["content"].as_str().expect("content").to_owned()
}

/// A GET of a server path with the user's credentials: status, content type and body.
fn fetch(server: &TestServer, who: &Creds, path: &str) -> (u16, String, Vec<u8>) {
    let response = reqwest::blocking::Client::new()
        .get(format!("{}{path}", server.base_url))
        .basic_auth(&who.email, Some(&who.api_key))
        .send()
        .expect("the server answers");
    let status = response.status().as_u16();
    let content_type =
        response.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
    (status, content_type, response.bytes().expect("a body").to_vec())
}

fn webp_size(bytes: &[u8]) -> (u32, u32) {
    WebPDecoder::new(Cursor::new(bytes)).expect("a WebP").dimensions()
}

fn preview(url: &str, name: &str, img: &str) -> String {
    format!(
        "<p><a href=\"{url}\">{name}</a></p>\n<div class=\"message_inline_image\"><a href=\"{url}\" \
         title=\"{name}\"><img {img}></a></div>"
    )
}

#[test]
fn uploaded_images_are_thumbnailed_and_previewed_as_zulip_previews_them() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let bob = api.create_user(&owner, "bob@confab.localhost", "Bob Builder");

    let registered = api.post("/register", Some(&owner), &[("fetch_event_types", r#"["realm"]"#)]).ok();
    assert_eq!(
        registered["server_thumbnail_formats"],
        json!([
            {"name": "840x560-anim.webp", "max_width": 840, "max_height": 560, "format": "webp", "animated": true},
            {"name": "840x560.webp", "max_width": 840, "max_height": 560, "format": "webp", "animated": false},
        ])
    );

    let uploads = upload_with_python(
        &server,
        &[
            ("wide.png", png(1680, 600)),
            ("portrait.jpg", jpeg(1200, 1800)),
            ("dance.gif", animated_gif()),
            ("bomb.png", decompression_bomb()),
            ("junk.png", b"these bytes are no image at all".to_vec()),
        ],
    );
    let url = |name: &str| uploads.iter().find(|(n, _)| n == name).map(|(_, u)| u.clone()).expect(name);
    let thumbnail = |name: &str, format: &str| {
        format!("/user_uploads/thumbnail/{}/{format}", url(name).trim_start_matches("/user_uploads/"))
    };

    // Nobody else may see a thumbnail of a file linked nowhere.
    assert_eq!(fetch(&server, &bob, &thumbnail("wide.png", "840x560.webp")).0, 403);

    let mut html = std::collections::BTreeMap::new();
    for (name, link) in &uploads {
        html.insert(name.clone(), send_and_read(&server, &owner, &format!("[{name}]({link})")));
    }

    let still = |name: &str, content_type: &str, dimensions: &str| {
        preview(
            &url(name),
            name,
            &format!(
                "data-original-content-type=\"{content_type}\" data-original-dimensions=\"{dimensions}\" src=\"{}\"",
                thumbnail(name, "840x560.webp")
            ),
        )
    };
    assert_eq!(html["wide.png"], still("wide.png", "image/png", "1680x600"));
    assert_eq!(html["portrait.jpg"], still("portrait.jpg", "image/jpeg", "1200x1800"));
    assert_eq!(
        html["dance.gif"],
        preview(
            &url("dance.gif"),
            "dance.gif",
            &format!(
                "data-animated=\"true\" data-original-content-type=\"image/gif\" \
                 data-original-dimensions=\"120x80\" src=\"{}\"",
                thumbnail("dance.gif", "840x560-anim.webp")
            )
        )
    );
    // What cannot be thumbnailed is a plain file, linked as any file is: no preview.
    for name in ["bomb.png", "junk.png"] {
        assert_eq!(html[name], format!("<p><a href=\"{}\">{name}</a></p>", url(name)));
    }

    // The thumbnails: WebP, shrunk into 840 × 560, never enlarged.
    let (status, content_type, bytes) = fetch(&server, &owner, &thumbnail("wide.png", "840x560.webp"));
    assert_eq!((status, content_type.as_str()), (200, "image/webp"));
    assert_eq!(webp_size(&bytes), (840, 300));
    let (status, content_type, bytes) = fetch(&server, &owner, &thumbnail("portrait.jpg", "840x560.webp"));
    assert_eq!((status, content_type.as_str()), (200, "image/webp"));
    let (width, height) = webp_size(&bytes);
    assert!(height == 560 && (372..=374).contains(&width), "{width}x{height}");
    let (status, content_type, bytes) = fetch(&server, &owner, &thumbnail("dance.gif", "840x560-anim.webp"));
    assert_eq!((status, content_type.as_str()), (200, "image/webp"));
    let decoder = WebPDecoder::new(Cursor::new(&bytes)).expect("a WebP");
    assert!(decoder.has_animation());
    let frames: Vec<Frame> = decoder.into_frames().collect::<Result<_, _>>().expect("its frames decode");
    let shades: Vec<u8> = frames.iter().map(|f| f.buffer().get_pixel(5, 5)[0]).collect();
    assert_eq!(shades, [30, 130, 230]);
    assert!(frames.iter().all(|f| f.buffer().dimensions() == (120, 80)));
    let (status, _, bytes) = fetch(&server, &owner, &thumbnail("dance.gif", "840x560.webp"));
    assert_eq!((status, webp_size(&bytes)), (200, (120, 80)));
    // A format not made is answered with the closest one made; a name that is no format is not found.
    let (status, content_type, _) = fetch(&server, &owner, &thumbnail("wide.png", "100x75.jpg"));
    assert_eq!((status, content_type.as_str()), (200, "image/webp"));
    assert_eq!(fetch(&server, &owner, &thumbnail("wide.png", "large.webp")).0, 404);

    // The bomb and the junk have no thumbnails, yet download as uploaded.
    for name in ["bomb.png", "junk.png"] {
        let (status, content_type, body) = fetch(&server, &owner, &thumbnail(name, "840x560.webp"));
        assert_eq!(status, 404, "{name}");
        assert_eq!(
            (content_type.as_str(), String::from_utf8_lossy(&body).as_ref()),
            ("text/html; charset=utf-8", "<p>This file does not exist or has been deleted.</p>")
        );
        assert_eq!(fetch(&server, &owner, &url(name)).0, 200, "{name}");
    }

    // Deleting an upload deletes its thumbnails.
    let attachments = api.get("/attachments", Some(&owner), &[]).ok();
    let wide = attachments["attachments"]
        .as_array()
        .expect("attachments")
        .iter()
        .find(|a| a["name"] == "wide.png")
        .cloned()
        .unwrap_or(Value::Null);
    api.delete(&format!("/attachments/{}", wide["id"]), Some(&owner), &[]).ok();
    assert_eq!(fetch(&server, &owner, &thumbnail("wide.png", "840x560.webp")).0, 404);
    let path_id = url("wide.png").trim_start_matches("/user_uploads/").to_owned();
    assert!(!server.data_dir.join("uploads/thumbnail").join(path_id).exists());
}

#[test]
fn tiff_uploads_are_previewed_with_a_transcoded_version_as_zulip_previews_them() {
    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let uploads =
        upload_with_python(&server, &[("scan.tiff", tiff(1200, 900)), ("tall.tif", tiff(300, 500))]);
    let url = |name: &str| uploads.iter().find(|(n, _)| n == name).map(|(_, u)| u.clone()).expect(name);
    let thumbnail = |name: &str, format: &str| {
        format!("/user_uploads/thumbnail/{}/{format}", url(name).trim_start_matches("/user_uploads/"))
    };

    // Thumbnails are made while the upload is received: the message shows them at once.
    for (name, dimensions, transcoded) in
        [("scan.tiff", "1200x900", "4032x3024.webp"), ("tall.tif", "300x500", "3024x4032.webp")]
    {
        let html = send_and_read(&server, &owner, &format!("[{name}]({})", url(name)));
        let img = format!(
            "data-original-content-type=\"image/tiff\" data-original-dimensions=\"{dimensions}\" \
             data-transcoded-image=\"{transcoded}\" src=\"{}\"",
            thumbnail(name, "840x560.webp")
        );
        assert_eq!(html, preview(&url(name), name, &img));
    }

    // The thumbnail shrinks into 840 × 560; the transcoded version keeps the full size.
    let (status, content_type, bytes) = fetch(&server, &owner, &thumbnail("scan.tiff", "840x560.webp"));
    assert_eq!((status, content_type.as_str()), (200, "image/webp"));
    let (width, height) = webp_size(&bytes);
    assert!(height == 560 && (746..=747).contains(&width), "{width}x{height}");
    let (status, content_type, bytes) = fetch(&server, &owner, &thumbnail("scan.tiff", "4032x3024.webp"));
    assert_eq!((status, content_type.as_str(), webp_size(&bytes)), (200, "image/webp", (1200, 900)));
    let pixels = image::load_from_memory_with_format(&bytes, image::ImageFormat::WebP).expect("a WebP");
    assert_eq!(pixels.to_rgb8().get_pixel(300, 7), &Rgb([44, 7, 140]));
    let (status, content_type, bytes) = fetch(&server, &owner, &thumbnail("tall.tif", "3024x4032.webp"));
    assert_eq!((status, content_type.as_str(), webp_size(&bytes)), (200, "image/webp", (300, 500)));
    // The original downloads as uploaded, typed as a TIFF.
    let (status, content_type, bytes) = fetch(&server, &owner, &url("scan.tiff"));
    assert_eq!((status, content_type.as_str(), bytes), (200, "image/tiff", tiff(1200, 900)));
}

#[test]
fn images_kept_whole_are_refused_when_their_header_is_a_bomb() {
    use confab_tests::UploadFile;
    use reqwest::Method;

    let server = TestServer::start(env!("CARGO_BIN_EXE_confab-under-test"));
    let owner = server.owner();
    let api = server.api();
    let bomb = decompression_bomb();
    let files = [UploadFile { name: "bomb.png", content_type: Some("image/png"), bytes: &bomb }];
    // Zulip's answer when pyvips opens an avatar or emoji over its pixel limit.
    let refused =
        api.send_files(Method::POST, "/users/me/avatar", Some(&owner), &files).error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "Image size exceeds limit.");
    let refused =
        api.send_files(Method::POST, "/realm/emoji/boom", Some(&owner), &files).error(400, "BAD_REQUEST");
    assert_eq!(refused["msg"], "Image size exceeds limit.");
    // A small image of the same format is taken.
    let small = png(64, 64);
    let files = [UploadFile { name: "face.png", content_type: Some("image/png"), bytes: &small }];
    api.send_files(Method::POST, "/users/me/avatar", Some(&owner), &files).ok();
    // Nothing refused was kept.
    let kept = std::fs::read_dir(server.data_dir.join("uploads/avatars")).map_or(0, count_files);
    assert_eq!(kept, 1);
}

fn count_files(dir: std::fs::ReadDir) -> usize {
    dir.filter_map(Result::ok)
        .map(|entry| match std::fs::read_dir(entry.path()) {
            Ok(inner) => count_files(inner),
            Err(_) => 1,
        })
        .sum()
}
