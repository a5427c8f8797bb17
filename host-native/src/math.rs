//! The server's KaTeX: the `katex` crate (KaTeX 0.16.4, the release core's `KATEX_VERSION`
//! names, run in QuickJS), installed as confab-core's math renderer for the process.
//!
//! A QuickJS context belongs to the thread that made it and loading KaTeX into one takes tens
//! of milliseconds and a few megabytes, so one thread owns the only context and renders every
//! formula, in the order asked; any thread (the writer, readers rendering previews) sends it
//! the TeX and waits for the HTML.

use std::sync::LazyLock;
use std::sync::mpsc::{Sender, channel};
use std::time::Duration;

use confab_core::markdown::{MathRenderer, install_math_renderer};

/// How long a formula may take before it is shown as its source, as Zulip's KaTeX service
/// times out (after 0.5 s; more here, for slow and debug builds), so that no formula holds up
/// the command rendering it. Formulas are bounded by the message length and KaTeX's own
/// expansion limit, and render in milliseconds.
const PATIENCE: Duration = Duration::from_secs(2);

/// One formula to render, with where the answer goes.
struct Request {
    tex: String,
    display: bool,
    answer: Sender<Option<String>>,
}

/// KaTeX on its own thread.
pub struct ServerKatex {
    /// `None` when the thread could not be started: every formula is then a `tex-error`.
    requests: Option<Sender<Request>>,
}

impl ServerKatex {
    fn start() -> ServerKatex {
        let (requests, incoming) = channel::<Request>();
        let started = std::thread::Builder::new().name("katex".to_owned()).spawn(move || {
            // Loads KaTeX before the first formula arrives.
            render("", false);
            for request in incoming {
                let _ = request.answer.send(render(&request.tex, request.display));
            }
        });
        if let Err(error) = &started {
            tracing::error!("cannot start the KaTeX thread, math will show as source: {error}");
        }
        ServerKatex { requests: started.ok().map(|_| requests) }
    }
}

/// KaTeX's `renderToString(tex, {displayMode})`, as Zulip's KaTeX service calls it: any
/// error (a `ParseError`, or QuickJS failing) is Zulip's failed rendering.
fn render(tex: &str, display: bool) -> Option<String> {
    let mut options = katex::Opts::default();
    options.set_display_mode(display);
    katex::render_with_opts(tex, options).ok()
}

impl MathRenderer for ServerKatex {
    fn render(&self, tex: &str, display: bool) -> Option<String> {
        let (answer, reply) = channel();
        let request = Request { tex: tex.to_owned(), display, answer };
        self.requests.as_ref()?.send(request).ok()?;
        reply.recv_timeout(PATIENCE).ok()?
    }
}

static KATEX: LazyLock<ServerKatex> = LazyLock::new(ServerKatex::start);

/// Makes the server's KaTeX the process's math renderer, and starts loading KaTeX so that the
/// first formula does not wait for it.
pub fn install() {
    install_math_renderer(&*KATEX);
}
