// Acceptance 2 of the web client: offline, a reload still shows the history (service worker
// shell, engine snapshot in IndexedDB); messages composed offline show as pending and go out
// exactly once, in order, when the connection is back, and the other person sees them.
import assert from "node:assert/strict";
import { test } from "node:test";
import { logIn, messageWithText, newPage, screenshot, send, site, users } from "./browser_support.mjs";

/** Waits until the app has written its snapshot after everything on screen so far (a change
 * marks the page before it is drawn, and the mark goes once the snapshot is written). */
async function snapshotSaved(page) {
  await page.waitForFunction(() => document.documentElement.dataset.snapshotPending === undefined);
}

async function channelMessages(user, topic) {
  const narrow = JSON.stringify([
    { operator: "channel", operand: "general" },
    { operator: "topic", operand: topic },
  ]);
  const query = new URLSearchParams({ anchor: "newest", num_before: "100", num_after: "0", narrow });
  const response = await fetch(`${site}/api/v1/messages?${query}`, {
    headers: { Authorization: `Basic ${Buffer.from(`${user.email}:${user.apiKey}`).toString("base64")}` },
  });
  return (await response.json()).messages.map((m) => m.content);
}

test("offline: reload shows history, sends wait as pending and arrive once in order", async () => {
  const alice = await newPage();
  const bob = await newPage();
  await logIn(alice.page, users.a);
  await logIn(bob.page, users.b);
  await bob.page.getByRole("link", { name: "Combined feed" }).click();
  await alice.page.evaluate(() => navigator.serviceWorker.ready);

  await alice.page.getByRole("link", { name: /^#?general/ }).first().click();
  await alice.page.getByRole("button", { name: "Start a new message" }).click();
  await alice.page.getByRole("combobox", { name: "Topic" }).fill("offline");
  await send(alice.page, "Written while online");
  await messageWithText(alice.page, "Written while online").getByText("Sending…").waitFor({ state: "detached" });
  await snapshotSaved(alice.page);

  await alice.context.setOffline(true);
  await alice.page.reload();
  await messageWithText(alice.page, "Written while online").waitFor();
  await screenshot(alice.page, "offline-reload");
  await alice.page.getByRole("status").filter({ hasText: "offline" }).waitFor();

  await alice.page.getByRole("button", { name: "Start a new message" }).click();
  await alice.page.getByRole("combobox", { name: "Topic" }).fill("offline");
  await send(alice.page, "First from the train");
  await send(alice.page, "Second from the train");
  for (const text of ["First from the train", "Second from the train"]) {
    await messageWithText(alice.page, text).getByText("Sending…").waitFor();
  }

  await alice.context.setOffline(false);
  for (const text of ["First from the train", "Second from the train"]) {
    await messageWithText(alice.page, text).getByText("Sending…").waitFor({ state: "detached" });
    await messageWithText(bob.page, text).waitFor();
  }
  assert.equal(await messageWithText(alice.page, "from the train").count(), 2);

  const onServer = (await channelMessages(users.b, "offline")).filter((html) => html.includes("from the train"));
  assert.deepEqual(onServer, ["<p>First from the train</p>", "<p>Second from the train</p>"]);
  const bobsOrder = await messageWithText(bob.page, "from the train").allTextContents();
  assert.equal(bobsOrder.length, 2);
  assert.ok(bobsOrder[0].includes("First") && bobsOrder[1].includes("Second"), bobsOrder.join(" | "));

  await alice.context.close();
  await bob.context.close();
});
