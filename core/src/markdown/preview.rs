//! Links after rendering (Zulip's `InlineInterestingLinkProcessor`): which links the message
//! has, which of the organization's uploads it links, and previews for image, video and
//! YouTube links outside quotes (none at all when there are more than 24 such links).
//!
//! A preview is `<div class="message_inline_image"><a href="URL" [title="link text"]><img
//! src="URL"></a></div>` after the link's paragraph (replacing the paragraph when it held only
//! the bare link). Unlike Zulip we fetch nothing: no Dropbox, tweet or page-embed previews, no
//! Camo proxy.
//!
//! A link to one of the organization's uploads (`/user_uploads/<path_id>`) is previewed as the
//! context says (Zulip's `is_image` and `add_a`, then `rewrite_thumbnailed_images`): an image
//! shows its thumbnail with `data-original-dimensions`, `data-original-content-type`, when
//! animated `data-animated="true"`, and when browsers cannot show its type
//! `data-transcoded-image`; anything else is no image, whatever its extension. A context that
//! cannot tell previews it by extension from the original file.

use std::collections::{BTreeSet, VecDeque};

use super::context::{MarkdownContext, UploadLookup, UploadedImage};
use super::tree::{Node, NodeId, ROOT, Tree};
use super::url::{SplitUrl, urlsplit, urlunsplit};

/// Zulip's `INLINE_PREVIEW_LIMIT_PER_MESSAGE`.
const PREVIEW_LIMIT: usize = 24;
const IMAGE_EXTENSIONS: &[&str] = &[".bmp", ".gif", ".jpe", ".jpeg", ".jpg", ".png", ".webp"];

/// What the links of a message say about it.
#[derive(Debug, Default)]
pub(crate) struct LinkFacts {
    pub(crate) has_link: bool,
    pub(crate) has_image: bool,
    pub(crate) user_upload_paths: Vec<String>,
}

struct FoundLink {
    a: NodeId,
    url: String,
    /// The link's leading text; `None` when empty.
    text: Option<String>,
    parent: NodeId,
    grandparent: Option<NodeId>,
    in_blockquote: bool,
}

/// Where a preview goes.
struct Placement {
    parent: NodeId,
    title: Option<String>,
    index: Option<usize>,
    remove: Option<NodeId>,
}

/// Zulip's loading spinner, the `src` of an upload not thumbnailed yet.
const LOADING_PLACEHOLDER: &str = "/static/images/loading/loader-black.svg";

/// Collects link facts and inserts previews.
pub(crate) fn inline_previews(tree: &mut Tree, realm_url: &str, ctx: &dyn MarkdownContext) -> LinkFacts {
    let realm_host = super::url::realm_host(realm_url);
    let found = find_links(tree);
    let mut facts = LinkFacts { has_link: !found.is_empty(), ..LinkFacts::default() };
    let mut seen = BTreeSet::new();
    // An audio player's upload is the message's attachment as a link to it would be.
    let sources = found.iter().map(|link| link.url.clone()).chain(audio_sources(tree));
    for url in sources {
        if seen.insert(url.clone())
            && let Some(path) = upload_path(&url, &realm_host)
            && !facts.user_upload_paths.contains(&path)
        {
            facts.user_upload_paths.push(path);
        }
    }
    let previewable: BTreeSet<&str> =
        found.iter().filter(|l| !l.in_blockquote).map(|l| l.url.as_str()).collect();
    if found.is_empty() || previewable.len() > PREVIEW_LIMIT {
        return facts;
    }
    let mut processed = BTreeSet::new();
    for link in &found {
        if !previewable.contains(link.url.as_str()) || !processed.insert(link.url.clone()) {
            continue;
        }
        if is_video(&link.url) {
            let place = placement(tree, link, &link.url, link.text.as_deref());
            add_video(tree, &place, &link.url);
            remove(tree, &place);
            facts.has_image = true;
            continue;
        }
        // Path ids never hold `%` or `+` (`sanitize_file_name`): a link may spell a name's
        // non-ASCII letters percent-encoded.
        let upload = link
            .url
            .strip_prefix("/user_uploads/")
            .map(|path_id| ctx.uploaded_image(&percent_decode(path_id)));
        let previewed = match &upload {
            Some(UploadLookup::Image(_)) => true,
            Some(UploadLookup::NotAnImage) => false,
            Some(UploadLookup::Unknown) | None => is_image(&link.url),
        };
        if previewed {
            let (url, text) = match corrected_image_source(&link.url) {
                Some(source) => (source.clone(), Some(source)),
                None => (link.url.clone(), link.text.clone()),
            };
            let place = placement(tree, link, &url, text.as_deref());
            let img = add_preview(tree, &place, "message_inline_image", &url, &actual_image_url(&url), None);
            if let Some(UploadLookup::Image(image)) = &upload {
                show_thumbnail(tree, img, image);
            }
            remove(tree, &place);
            facts.has_image = true;
            continue;
        }
        let netloc = urlsplit(&link.url).map(|p| p.netloc).unwrap_or_default();
        if netloc.is_empty() || netloc == realm_host {
            continue;
        }
        if let Some(id) = youtube_id(&link.url) {
            let place = placement(tree, link, &link.url, link.text.as_deref());
            let thumbnail = format!("https://i.ytimg.com/vi/{id}/mqdefault.jpg");
            let class = "youtube-video message_inline_image";
            add_preview(tree, &Placement { title: None, ..place }, class, &link.url, &thumbnail, Some(&id));
            facts.has_image = true;
        }
    }
    facts
}

/// Every `<a>` below the root, breadth first, with its family.
fn find_links(tree: &Tree) -> Vec<FoundLink> {
    let mut found = Vec::new();
    let mut queue = VecDeque::from([ROOT]);
    while let Some(current) = queue.pop_front() {
        for &child in &tree.nodes[current].children {
            if tree.tag(child).is_none() {
                continue;
            }
            queue.push_back(child);
            if tree.is(child, "a") {
                let text = &tree.nodes[child].text;
                let mut in_blockquote = false;
                let mut ancestor = Some(current);
                while let Some(id) = ancestor {
                    in_blockquote |= tree.is(id, "blockquote");
                    ancestor = tree.nodes[id].parent;
                }
                found.push(FoundLink {
                    a: child,
                    url: tree.attr(child, "href").unwrap_or_default().to_owned(),
                    text: (!text.is_empty()).then(|| text.clone()),
                    parent: current,
                    grandparent: tree.nodes[current].parent,
                    in_blockquote,
                });
            }
        }
    }
    found
}

/// The `src` of every audio player, in document order.
fn audio_sources(tree: &Tree) -> Vec<String> {
    let mut sources = Vec::new();
    let mut queue = VecDeque::from([ROOT]);
    while let Some(current) = queue.pop_front() {
        for &child in &tree.nodes[current].children {
            queue.push_back(child);
            if tree.is(child, "audio")
                && let Some(src) = tree.attr(child, "src")
            {
                sources.push(src.to_owned());
            }
        }
    }
    sources
}

/// Raw HTML counts as text next to a link (in Zulip it is still a placeholder in the text).
fn element_children(tree: &Tree, id: NodeId) -> usize {
    tree.nodes[id].children.iter().filter(|c| tree.tag(**c).is_some()).count()
}

fn has_text_before_children(tree: &Tree, id: NodeId) -> bool {
    let node = &tree.nodes[id];
    !node.text.is_empty() || node.children.first().is_some_and(|c| tree.tag(*c).is_none())
}

fn has_tail(tree: &Tree, id: NodeId) -> bool {
    if !tree.nodes[id].tail.is_empty() {
        return true;
    }
    let (Some(parent), Some(at)) = (tree.nodes[id].parent, tree.index_in_parent(id)) else { return false };
    tree.nodes[parent].children.get(at + 1).is_some_and(|next| tree.tag(*next).is_none())
}

fn placement(tree: &Tree, link: &FoundLink, url: &str, text: Option<&str>) -> Placement {
    let bare = text.is_none_or(|t| t == url);
    let mut place = Placement {
        parent: ROOT,
        title: if bare { None } else { text.map(str::to_owned) },
        index: None,
        remove: None,
    };
    if tree.is(link.parent, "li") {
        place.parent = link.parent;
        if !has_text_before_children(tree, link.parent) && !has_tail(tree, link.a) && bare {
            place.remove = Some(link.a);
        }
    } else if tree.is(link.parent, "p")
        && let Some(grandparent) = link.grandparent
    {
        place.parent = grandparent;
        let p = &tree.nodes[link.parent];
        let text_empty = !has_text_before_children(tree, link.parent) || p.text == "\n";
        if element_children(tree, link.parent) == 1 && text_empty && !has_tail(tree, link.a) && bare {
            place.remove = Some(link.parent);
        }
        if let Some(index) = tree.index_in_parent(link.parent) {
            place.index = Some(insertion_index(tree, grandparent, link.parent, index));
        }
    }
    place
}

/// After the paragraph and after the previews already made for its links.
fn insertion_index(tree: &Tree, grandparent: NodeId, paragraph: NodeId, index: usize) -> usize {
    let mut links = Vec::new();
    let mut stack = vec![paragraph];
    while let Some(id) = stack.pop() {
        if tree.is(id, "a")
            && let Some(href) = tree.attr(id, "href")
        {
            links.push(href.to_owned());
        }
        stack.extend(tree.nodes[id].children.iter().copied());
    }
    let siblings = &tree.nodes[grandparent].children;
    let mut at = index;
    loop {
        at += 1;
        let Some(&uncle) = siblings.get(at) else { return at };
        let is_preview = tree.is(uncle, "div")
            && tree.attr(uncle, "class").is_some_and(|c| {
                c.split_whitespace().any(|k| {
                    matches!(k, "message_inline_image" | "message_inline_ref" | "inline-preview-twitter")
                })
            });
        if !is_preview {
            return at;
        }
        let uncle_link = tree.nodes[uncle].children.iter().find(|c| tree.is(**c, "a"));
        if !uncle_link.and_then(|a| tree.attr(*a, "href")).is_some_and(|h| links.iter().any(|l| l == h)) {
            return at;
        }
    }
}

fn place_div(tree: &mut Tree, place: &Placement, class: &str) -> NodeId {
    let div = tree.add(Node::element("div"));
    tree.nodes[div].attrs.push(("class", class.to_owned()));
    let index = place.index.unwrap_or(tree.nodes[place.parent].children.len());
    tree.insert(place.parent, index, div);
    div
}

fn add_preview(
    tree: &mut Tree,
    place: &Placement,
    class: &str,
    link: &str,
    image: &str,
    data_id: Option<&str>,
) -> NodeId {
    let div = place_div(tree, place, class);
    let a = tree.append(div, "a");
    tree.nodes[a].attrs.push(("href", link.to_owned()));
    if let Some(title) = &place.title {
        tree.nodes[a].attrs.push(("title", title.clone()));
    }
    if let Some(id) = data_id {
        tree.nodes[a].attrs.push(("data-id", id.to_owned()));
    }
    let img = tree.append(a, "img");
    tree.nodes[img].attrs.push(("src", image.to_owned()));
    img
}

/// An upload's preview image as Zulip leaves it once thumbnailed: the thumbnail with the
/// original's dimensions and type (and `data-animated` for an animation, and the name of the
/// full-size transcoded version for a type browsers do not show); before that, the loading
/// placeholder with the dimensions alone.
fn show_thumbnail(tree: &mut Tree, img: NodeId, image: &UploadedImage) {
    let dimensions = format!("{}x{}", image.original_width_px, image.original_height_px);
    let attrs = &mut tree.nodes[img].attrs;
    attrs.clear();
    attrs.push(("data-original-dimensions", dimensions));
    match &image.thumbnail_url {
        Some(url) => {
            attrs.push(("src", url.clone()));
            attrs.push(("data-original-content-type", image.original_content_type.clone()));
            if image.animated {
                attrs.push(("data-animated", "true".to_owned()));
            }
            if let Some(transcoded) = &image.transcoded_image {
                attrs.push(("data-transcoded-image", transcoded.clone()));
            }
        }
        None => {
            attrs.push(("class", "image-loading-placeholder".to_owned()));
            attrs.push(("src", LOADING_PLACEHOLDER.to_owned()));
        }
    }
}

fn add_video(tree: &mut Tree, place: &Placement, url: &str) {
    let div = place_div(tree, place, "message_inline_image message_inline_video");
    let a = tree.append(div, "a");
    tree.nodes[a].attrs.push(("href", url.to_owned()));
    if let Some(title) = place.title.as_ref().filter(|t| !t.is_empty()) {
        tree.nodes[a].attrs.push(("title", title.clone()));
    }
    let video = tree.append(a, "video");
    tree.nodes[video].attrs.push(("src", url.to_owned()));
    tree.nodes[video].attrs.push(("preload", "metadata".to_owned()));
}

fn remove(tree: &mut Tree, place: &Placement) {
    if let Some(id) = place.remove {
        tree.remove(id);
    }
}

/// The `/user_uploads/...` path a link points to, if it is one of the organization's uploads.
fn upload_path(url: &str, realm_host: &str) -> Option<String> {
    let parts = urlsplit(url).ok()?;
    let path = if parts.scheme.is_empty() && parts.netloc.is_empty() {
        resolve_path(&parts.path)
    } else {
        parts.path.clone()
    };
    if !parts.netloc.is_empty() && parts.netloc != realm_host {
        return None;
    }
    path.starts_with("/user_uploads/").then_some(path)
}

/// A relative path resolved against `/`, dot segments removed (as `urljoin("/", path)`).
fn resolve_path(path: &str) -> String {
    let mut segments: Vec<&str> = Vec::new();
    let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    for (i, segment) in parts.iter().enumerate() {
        match *segment {
            "." => {}
            ".." => {
                segments.pop();
            }
            s => segments.push(s),
        }
        if i == parts.len() - 1 && matches!(*segment, "." | "..") {
            segments.push("");
        }
    }
    format!("/{}", segments.join("/"))
}

fn extension(url: &str) -> String {
    // Python's `mimetypes` looks at everything after the scheme, query included.
    let rest = url.split_once(':').map_or(url, |(_, r)| r);
    let last = rest.rsplit('/').next().unwrap_or(rest);
    last.rfind('.').filter(|i| *i > 0).map(|i| last[i..].to_lowercase()).unwrap_or_default()
}

fn is_video(url: &str) -> bool {
    matches!(extension(url).as_str(), ".mp4" | ".webm")
}

fn is_image(url: &str) -> bool {
    let Ok(parts) = urlsplit(url) else { return false };
    if parts.netloc == "pasteboard.co" {
        return false;
    }
    let path = parts.path.to_lowercase();
    IMAGE_EXTENSIONS.iter().any(|ext| path.ends_with(ext))
}

/// Wikipedia file pages and linx.li pages point at the image itself.
fn corrected_image_source(url: &str) -> Option<String> {
    let parts = urlsplit(url).ok()?;
    if parts.netloc.to_lowercase().ends_with(".wikipedia.org") && parts.path.starts_with("/wiki/File:") {
        let path = parts.path.replacen("/wiki/File:", "/wiki/Special:FilePath/File:", 1);
        return Some(urlunsplit(&SplitUrl { path, ..parts }));
    }
    (parts.netloc == "linx.li").then(|| format!("https://linx.li/s{}", parts.path))
}

/// GitHub `blob` pages are shown from raw.githubusercontent.com.
fn actual_image_url(url: &str) -> String {
    let Ok(parts) = urlsplit(url) else { return url.to_owned() };
    if parts.netloc == "github.com" || parts.netloc.ends_with(".github.com") {
        let segments: Vec<&str> = parts.path.split('/').collect();
        if segments.len() > 3 && segments[3] == "blob" {
            let mut kept = segments[..3].to_vec();
            kept.extend(&segments[4..]);
            return format!("https://raw.githubusercontent.com{}", kept.join("/"));
        }
    }
    url.to_owned()
}

/// The host of a URL as Python's `hostname`: no user info, no port, lowercase.
fn hostname(netloc: &str) -> String {
    let host = netloc.rsplit_once('@').map_or(netloc, |(_, h)| h);
    let host = if let Some(rest) = host.strip_prefix('[') {
        rest.split(']').next().unwrap_or(rest)
    } else {
        host.split(':').next().unwrap_or(host)
    };
    host.to_lowercase()
}

/// The first value of a query parameter, decoded as Python's `parse_qs` does.
fn query_value(query: &str, key: &str) -> Option<String> {
    query
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find_map(|(k, v)| (percent_decode(k) == key && !v.is_empty()).then(|| percent_decode(v)))
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if bytes.len() > i + 2
                && bytes[i + 1].is_ascii_hexdigit()
                && bytes[i + 2].is_ascii_hexdigit() =>
            {
                let hex = |b: u8| (b as char).to_digit(16).unwrap_or(0) as u8;
                out.push(hex(bytes[i + 1]) * 16 + hex(bytes[i + 2]));
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The video id of a YouTube link.
fn youtube_id(url: &str) -> Option<String> {
    let parts = urlsplit(url).ok()?;
    let host = hostname(&parts.netloc);
    let id = if matches!(parts.scheme.as_str(), "http" | "https") {
        if matches!(
            host.as_str(),
            "m.youtube.com"
                | "www.youtube.com"
                | "www.youtube-nocookie.com"
                | "youtube.com"
                | "youtube-nocookie.com"
        ) {
            if matches!(parts.path.as_str(), "/watch" | "/watch_popup") {
                query_value(&parts.query, "v")
            } else if parts.path == "/watch_videos" {
                query_value(&parts.query, "video_ids")
                    .map(|ids| ids.split(',').next().unwrap_or("").to_owned())
            } else if ["/embed/", "/shorts/", "/v/"].iter().any(|p| parts.path.starts_with(p)) {
                parts.path.split('/').nth(2).map(str::to_owned)
            } else {
                None
            }
        } else if host == "youtu.be" {
            parts.path.strip_prefix('/').map(str::to_owned)
        } else {
            None
        }
    } else {
        None
    };
    id.filter(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn youtube_ids_are_found() {
        assert_eq!(youtube_id("https://www.youtube.com/watch?v=hx1mjT73xYE&t=3"), Some("hx1mjT73xYE".into()));
        assert_eq!(youtube_id("https://youtu.be/hx1mjT73xYE"), Some("hx1mjT73xYE".into()));
        assert_eq!(youtube_id("https://youtube.com/shorts/abc_-1"), Some("abc_-1".into()));
        assert_eq!(youtube_id("https://www.youtube.com/playlist?list=PL1"), None);
        assert_eq!(youtube_id("https://example.com/watch?v=x"), None);
    }

    #[test]
    fn uploads_are_recognised() {
        assert_eq!(
            upload_path("/user_uploads/2/ab/x.png", "chat.example"),
            Some("/user_uploads/2/ab/x.png".into())
        );
        assert_eq!(
            upload_path("user_uploads/2/ab/x.png", "chat.example"),
            Some("/user_uploads/2/ab/x.png".into())
        );
        assert_eq!(
            upload_path("https://chat.example/user_uploads/2/x.pdf?y=1", "chat.example"),
            Some("/user_uploads/2/x.pdf".into())
        );
        assert_eq!(upload_path("https://other.example/user_uploads/2/x.pdf", "chat.example"), None);
    }

    #[test]
    fn image_sources_are_corrected() {
        assert_eq!(
            actual_image_url("https://github.com/zulip/zulip/blob/main/static/logo.png"),
            "https://raw.githubusercontent.com/zulip/zulip/main/static/logo.png"
        );
        assert_eq!(
            corrected_image_source("https://en.wikipedia.org/wiki/File:A.jpg"),
            Some("https://en.wikipedia.org/wiki/Special:FilePath/File:A.jpg".into())
        );
        assert!(is_image("https://x.example/A.PNG"));
        assert!(!is_image("https://x.example/a.png.html"));
        assert!(is_video("https://x.example/a.webm"));
    }
}
