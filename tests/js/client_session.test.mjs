// Two confab-web Clients against a real Confab server: they chat; A loses the network, writes
// three messages, and stays away until the server has dropped its event queue; A comes back,
// resynchronises once and sends its outbox. Each message arrives exactly once and in order,
// and B's state is then what a fresh register gives.
import test from "node:test";
import assert from "node:assert/strict";

import {
  Proxy,
  api,
  login,
  open,
  comparableState,
  firstDifference,
  freshState,
  queueTimeoutMs,
  site,
  sleep,
  until,
  users,
} from "./support.mjs";

const TOPIC = "offline sends";

/** The contents of a narrow's messages in a Client's cache. */
async function cachedContents(client, narrow) {
  const page = await client.messages(narrow, "newest", 100, 0);
  return page.messages.map((m) => m.content);
}

test("A's sends written offline arrive once each, in order, after its queue expired", async (t) => {
  const proxy = new Proxy(site);
  await proxy.open();
  t.after(() => proxy.cut());
  // A logs in with a password, through the proxy; B uses an API key, directly.
  const a = await login(proxy.site, users.a.email, users.a.password, { maxRetryMs: 200 });
  const b = open({ site, email: users.b.email, apiKey: users.b.apiKey });
  const changesOfA = [];
  a.onChange((changes) => changesOfA.push(changes));
  await a.start();
  await b.start();
  assert.equal(a.connection(), "connected");
  assert.equal(b.connection(), "connected");

  const general = a.channels().find((channel) => channel.name === "general");
  assert.ok(general, "A is subscribed to general");
  const destination = { type: "channel", stream_id: general.stream_id, topic: TOPIC };
  const narrow = [
    { operator: "channel", operand: general.stream_id },
    { operator: "topic", operand: TOPIC },
  ];
  // Both open the conversation, so their caches hold it from here on.
  assert.deepEqual(await cachedContents(a, narrow), []);
  assert.deepEqual(await cachedContents(b, narrow), []);

  // They chat.
  a.send(destination, "Hello from **A**");
  await until(async () => (await cachedContents(b, narrow)).length === 1, "B gets A's message");
  b.send(destination, "Hello from B");
  await until(async () => (await cachedContents(a, narrow)).length === 2, "A gets B's reply");
  assert.deepEqual(await cachedContents(a, narrow), await cachedContents(b, narrow));

  // A's network goes away; it writes three messages, which wait in its outbox with their
  // local echoes rendered as the server renders them.
  await proxy.cut();
  await until(() => a.connection() === "offline", "A notices the connection is gone");
  for (const content of ["one", "two", "*three*"]) a.send(destination, content);
  const outbox = a.outbox();
  assert.deepEqual(
    outbox.map((entry) => entry.content),
    ["one", "two", "*three*"],
  );
  assert.equal(outbox[2].html, "<p><em>three</em></p>");
  assert.ok(outbox.every((entry) => !entry.error));

  // The server drops A's queue while A is away.
  await sleep(queueTimeoutMs + 1_500);
  const resyncsBefore = changesOfA.filter((changes) => changes.resync).length;

  // A comes back: one resync, then the outbox goes out.
  await proxy.open();
  await until(() => a.connection() === "connected" && a.outbox().length === 0, "A reconnects and sends");
  const expected = ["<p>Hello from <strong>A</strong></p>", "<p>Hello from B</p>", "<p>one</p>", "<p>two</p>", "<p><em>three</em></p>"];
  const fresh = await api("GET", "/messages", users.b, { narrow, anchor: "newest", num_before: 100, num_after: 0 });
  assert.deepEqual(
    fresh.messages.map((m) => m.content),
    expected,
    "the server holds each message once, in order",
  );
  assert.equal(changesOfA.filter((changes) => changes.resync).length - resyncsBefore, 1, "exactly one resync");
  await until(async () => (await cachedContents(b, narrow)).length === expected.length, "B gets A's three");
  assert.deepEqual(await cachedContents(b, narrow), expected);
  assert.deepEqual(await cachedContents(a, narrow), expected, "A's echoes became the messages, once each");

  // B's state, kept by events throughout, is what a fresh register gives now.
  const kept = comparableState(b.state());
  const now = comparableState(await freshState(b.credentials()));
  assert.ok(kept === now, `B's state differs from a fresh register at ${firstDifference(kept, now)}`);

  await a.close();
  await b.close();
  await proxy.cut();
});
