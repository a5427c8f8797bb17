// Debian's Chromium for the browser tests and the benchmark, started as this machine allows:
// headless, without a sandbox (root), and without background networking, whose connections
// the closed network refuses many at a time. Browser downloads are impossible here, so
// playwright-core drives the system's browser.
import { chromium } from "playwright-core";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** `CHROMIUM` (or `CONFAB_CHROMIUM`) names another binary. */
export function launchChromium() {
  const executablePath = process.env.CHROMIUM ?? process.env.CONFAB_CHROMIUM ?? "/usr/bin/chromium";
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}
