//! KaTeX from the page: the `katex` npm package the page hands to [`use_katex`] becomes
//! confab-core's math renderer, so that `$$…$$` and ```` ```math ```` render in the browser to
//! the bytes the server stores. The engine carries no KaTeX of its own (the WebAssembly stays
//! small); it checks the release, since another KaTeX would render other bytes.

use std::cell::RefCell;

use confab_core::markdown::{KATEX_VERSION, MathRenderer, install_math_renderer};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// The `katex` module (`import katex from "katex"`).
    pub type Katex;

    #[wasm_bindgen(method, getter)]
    fn version(this: &Katex) -> JsValue;

    #[wasm_bindgen(method, catch, js_name = renderToString)]
    fn render_to_string(this: &Katex, tex: &str, options: &JsValue) -> Result<JsValue, JsValue>;
}

thread_local! {
    /// The page's KaTeX; WebAssembly here has one thread.
    static PAGE_KATEX: RefCell<Option<Katex>> = const { RefCell::new(None) };
}

/// Renders through the page's KaTeX.
struct PageKatex;

impl MathRenderer for PageKatex {
    fn render(&self, tex: &str, display: bool) -> Option<String> {
        PAGE_KATEX.with_borrow(|katex| {
            let options = js_sys::Object::new();
            js_sys::Reflect::set(&options, &"displayMode".into(), &display.into()).ok()?;
            katex.as_ref()?.render_to_string(tex, &options).ok()?.as_string()
        })
    }
}

/// Renders math with the `katex` npm package at the server's release (0.16.4): call once,
/// before rendering, with the module (`import katex from "katex"; useKatex(katex)`). Throws
/// for another release. Without it, math renders as its source (`tex-error`), as the server
/// shows math KaTeX rejects.
#[wasm_bindgen(js_name = useKatex)]
pub fn use_katex(
    #[wasm_bindgen(
        unchecked_param_type = "{ version: string; renderToString(tex: string, options: { displayMode: boolean }): string }"
    )]
    katex: Katex,
) -> Result<(), JsError> {
    let version = katex.version().as_string().unwrap_or_default();
    if version != KATEX_VERSION {
        return Err(JsError::new(&format!(
            "confab-web renders math with KaTeX {KATEX_VERSION}, as the server does; this page has KaTeX {version}"
        )));
    }
    PAGE_KATEX.with_borrow_mut(|page| *page = Some(katex));
    install_math_renderer(&PageKatex);
    Ok(())
}
