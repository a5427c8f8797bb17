// Boot: the engine's WebAssembly (with KaTeX for math), the service worker, then the login page or the saved session.
import { render } from "preact";
import init, { useKatex } from "confab-web";
import katex from "katex";
import { App } from "./app";
import { LoginPage, serverReachable } from "./views/login";
import { Session } from "./session/session";
import { applyTheme, storedTheme } from "./ui/theme";
import "./styles/app.css";
import "./styles/content.css";
import "./styles/views.css";
import "katex/dist/katex.min.css";

declare const ENGINE_WASM_URL: string;

const root = document.getElementById("app")!;

function showApp(session: Session) {
  if (location.pathname !== "/") history.replaceState(null, "", `/${location.hash}`);
  root.replaceChildren();
  render(<App session={session} onLogout={() => logout(session)} />, root);
  void session.start();
}

async function logout(session: Session) {
  await session.logout();
  location.assign("/login/");
}

async function showLogin() {
  if (location.pathname !== "/login/") history.replaceState(null, "", "/login/");
  root.replaceChildren();
  render(<LoginPage onLogin={showApp} reachable={await serverReachable()} />, root);
}

async function boot() {
  applyTheme(storedTheme());
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js").catch((error) => console.warn("No offline shell:", error));
  }
  await init({ module_or_path: ENGINE_WASM_URL });
  // Math renders with the server's KaTeX release, to the bytes the server stores.
  useKatex(katex);
  const session = await Session.restore();
  if (session) showApp(session);
  else await showLogin();
}

void boot();
