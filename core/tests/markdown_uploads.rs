//! Previews of uploaded images, as Zulip 9+ renders them once thumbnailed
//! (`zerver/lib/markdown` `add_a`, then `zerver/lib/thumbnail.py` `rewrite_thumbnailed_images`):
//! what the context says of an upload decides, not the link's extension.

#[macro_use]
#[path = "common/delegate_markdown_context.rs"]
mod delegate_markdown_context;

use std::collections::BTreeMap;

use confab_core::markdown::{MarkdownContext, OrganizationSnapshot, UploadLookup, UploadedImage, render};

fn image(
    width: u32,
    height: u32,
    content_type: &str,
    thumbnail: Option<&str>,
    animated: bool,
) -> UploadedImage {
    UploadedImage {
        original_width_px: width,
        original_height_px: height,
        original_content_type: content_type.to_owned(),
        thumbnail_url: thumbnail.map(str::to_owned),
        animated,
        transcoded_image: None,
    }
}

/// A server's view: it knows every upload, and what is not listed is no image.
struct Server(OrganizationSnapshot);

impl MarkdownContext for Server {
    delegate_markdown_context!();
    fn uploaded_image(&self, path_id: &str) -> UploadLookup {
        match self.0.uploaded_image(path_id) {
            UploadLookup::Unknown => UploadLookup::NotAnImage,
            known => known,
        }
    }
}

fn organization() -> OrganizationSnapshot {
    let uploads = BTreeMap::from([
        (
            "2/ab/photo/photo.png".to_owned(),
            image(
                1680,
                600,
                "image/png",
                Some("/user_uploads/thumbnail/2/ab/photo/photo.png/840x560.webp"),
                false,
            ),
        ),
        (
            "2/cd/dance/dance.gif".to_owned(),
            image(
                64,
                64,
                "image/gif",
                Some("/user_uploads/thumbnail/2/cd/dance/dance.gif/840x560-anim.webp"),
                true,
            ),
        ),
        ("2/ef/slow/slow.jpg".to_owned(), image(4000, 3000, "image/jpeg", None, false)),
        (
            "2/ij/scan/scan.tiff".to_owned(),
            UploadedImage {
                transcoded_image: Some("3024x4032.webp".to_owned()),
                ..image(
                    2480,
                    3508,
                    "image/tiff",
                    Some("/user_uploads/thumbnail/2/ij/scan/scan.tiff/840x560.webp"),
                    false,
                )
            },
        ),
    ]);
    let mut organization = OrganizationSnapshot::default();
    organization.realm_url = "http://chat.example.com".to_owned();
    organization.uploaded_images = uploads;
    organization
}

#[test]
fn an_uploaded_image_shows_its_thumbnail_with_the_originals_size_and_type() {
    let rendering = render("[photo.png](/user_uploads/2/ab/photo/photo.png)", &Server(organization()));
    assert_eq!(
        rendering.html,
        "<p><a href=\"/user_uploads/2/ab/photo/photo.png\">photo.png</a></p>\n\
         <div class=\"message_inline_image\"><a href=\"/user_uploads/2/ab/photo/photo.png\" title=\"photo.png\">\
         <img data-original-content-type=\"image/png\" data-original-dimensions=\"1680x600\" \
         src=\"/user_uploads/thumbnail/2/ab/photo/photo.png/840x560.webp\"></a></div>"
    );
    assert!(rendering.has_image && rendering.has_attachment);
}

#[test]
fn an_animation_shows_its_animated_thumbnail() {
    let rendering = render("Look\n[dance.gif](/user_uploads/2/cd/dance/dance.gif)", &Server(organization()));
    assert_eq!(
        rendering.html,
        "<p>Look<br>\n<a href=\"/user_uploads/2/cd/dance/dance.gif\">dance.gif</a></p>\n\
         <div class=\"message_inline_image\"><a href=\"/user_uploads/2/cd/dance/dance.gif\" title=\"dance.gif\">\
         <img data-animated=\"true\" data-original-content-type=\"image/gif\" data-original-dimensions=\"64x64\" \
         src=\"/user_uploads/thumbnail/2/cd/dance/dance.gif/840x560-anim.webp\"></a></div>"
    );
}

#[test]
fn an_image_browsers_cannot_show_names_its_transcoded_version() {
    let rendering = render("[scan.tiff](/user_uploads/2/ij/scan/scan.tiff)", &Server(organization()));
    assert_eq!(
        rendering.html,
        "<p><a href=\"/user_uploads/2/ij/scan/scan.tiff\">scan.tiff</a></p>\n\
         <div class=\"message_inline_image\"><a href=\"/user_uploads/2/ij/scan/scan.tiff\" title=\"scan.tiff\">\
         <img data-original-content-type=\"image/tiff\" data-original-dimensions=\"2480x3508\" \
         data-transcoded-image=\"3024x4032.webp\" \
         src=\"/user_uploads/thumbnail/2/ij/scan/scan.tiff/840x560.webp\"></a></div>"
    );
}

#[test]
fn an_image_not_thumbnailed_yet_shows_the_loading_placeholder() {
    let rendering = render("[slow.jpg](/user_uploads/2/ef/slow/slow.jpg)", &Server(organization()));
    assert_eq!(
        rendering.html,
        "<p><a href=\"/user_uploads/2/ef/slow/slow.jpg\">slow.jpg</a></p>\n\
         <div class=\"message_inline_image\"><a href=\"/user_uploads/2/ef/slow/slow.jpg\" title=\"slow.jpg\">\
         <img class=\"image-loading-placeholder\" data-original-dimensions=\"4000x3000\" \
         src=\"/static/images/loading/loader-black.svg\"></a></div>"
    );
}

#[test]
fn an_upload_that_is_no_image_is_a_plain_link_whatever_its_name() {
    let rendering = render("[junk.png](/user_uploads/2/gh/junk/junk.png)", &Server(organization()));
    assert_eq!(rendering.html, "<p><a href=\"/user_uploads/2/gh/junk/junk.png\">junk.png</a></p>");
    assert!(!rendering.has_image && rendering.has_attachment);
}

#[test]
fn a_renderer_that_cannot_tell_previews_by_extension_and_one_that_knows_renders_as_the_server() {
    let browser = organization();
    let junk = render("[junk.png](/user_uploads/2/gh/junk/junk.png)", &browser);
    assert_eq!(
        junk.html,
        "<p><a href=\"/user_uploads/2/gh/junk/junk.png\">junk.png</a></p>\n\
         <div class=\"message_inline_image\"><a href=\"/user_uploads/2/gh/junk/junk.png\" title=\"junk.png\">\
         <img src=\"/user_uploads/2/gh/junk/junk.png\"></a></div>"
    );
    let source = "[photo.png](/user_uploads/2/ab/photo/photo.png)";
    assert_eq!(render(source, &browser), render(source, &Server(organization())));
    // Other sites' images are previewed as before.
    assert_eq!(
        render("https://example.com/a.png", &Server(organization())).html,
        "<div class=\"message_inline_image\"><a href=\"https://example.com/a.png\">\
         <img src=\"https://example.com/a.png\"></a></div>"
    );
}
