// Confab's service worker: keeps the app shell (page, script, styles, WebAssembly) so that the
// client starts without a network. API requests are never cached here: the engine keeps its own
// state (a snapshot in IndexedDB) and knows what it has.
const VERSION = SHELL_VERSION;
const SHELL = SHELL_ASSETS;
const CACHE = `confab-shell-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith("confab-shell-") && key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && (url.pathname === "/" || url.pathname === "/login/")) {
    // The page: the network's when it answers (a new version), the cached shell when not.
    event.respondWith(
      fetch(request).catch(() => caches.open(CACHE).then((cache) => cache.match("/")).then((hit) => hit || Response.error())),
    );
    return;
  }
  if (url.pathname.startsWith("/static/assets/")) {
    // Content-hashed: a cached copy is always right. What the shell did not list (KaTeX's
    // fonts, fetched only when math is shown) is kept on first use, for the next time offline.
    event.respondWith(caches.open(CACHE).then((cache) => cache.match(request).then((hit) => hit || fetchAndKeep(cache, request))));
  }
});

async function fetchAndKeep(cache, request) {
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}
