// The consistency property, through the WebAssembly build: while random mutations reach the
// server from other sessions (other users, and the observer's own other devices), a Client
// follows the events. After each round its state equals a fresh register and every narrow it
// caches equals what a fresh session fetches for it.
//
// The sequence comes from CONFAB_SEED (printed, so a failure can be replayed).
import test from "node:test";
import assert from "node:assert/strict";

import { api, comparableState, firstDifference, freshState, open, site, until, users } from "./support.mjs";

const SEED = Number(process.env.CONFAB_SEED ?? Date.now() % 100_000);
const ROUNDS = Number(process.env.CONFAB_ROUNDS ?? 12);
const MUTATIONS_PER_ROUND = 8;
const CHANNELS = ["design", "ops"];
const TOPICS = ["alpha", "beta", "gamma"];
const EMOJI = ["smile", "heart", "octopus"];

/** mulberry32: small, seedable, good enough to pick mutations. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const { owner, observer, other } = users;

/** What the mutations pick from, learnt as they go. */
const world = { channelIds: {}, ownerId: 0, observerId: 0, otherId: 0, messages: [] };

function pick(rng, items) {
  return items[Math.floor(rng() * items.length)];
}

/** A message id sent earlier, or undefined before any. */
const someMessage = (rng) => (world.messages.length ? pick(rng, world.messages) : undefined);

async function send(who, params) {
  const answer = await api("POST", "/messages", who, params);
  world.messages.push(answer.id);
}

/** Each mutation is what some session may do; refusals (a message deleted meanwhile) are fine. */
const MUTATIONS = {
  async channelMessage(rng) {
    const content = pick(rng, ["plain words", "**bold** words", "@**Otto** look", "`code` and a https://example.com link"]);
    await send(pick(rng, [owner, other]), { type: "stream", to: pick(rng, CHANNELS), topic: pick(rng, TOPICS), content });
  },
  async directMessage(rng) {
    const to = pick(rng, [[world.observerId], [world.observerId, world.otherId]]);
    await send(owner, { type: "direct", to, content: pick(rng, ["hi", "a *private* word"]) });
  },
  async edit(rng) {
    const id = someMessage(rng);
    if (id) await api("PATCH", `/messages/${id}`, owner, { content: `edited ${Math.floor(rng() * 1000)}` });
  },
  async moveTopic(rng) {
    const id = someMessage(rng);
    if (id) await api("PATCH", `/messages/${id}`, owner, { topic: pick(rng, TOPICS), propagate_mode: pick(rng, ["change_one", "change_all"]) });
  },
  async remove(rng) {
    const id = someMessage(rng);
    if (id) {
      await api("DELETE", `/messages/${id}`, owner);
      world.messages = world.messages.filter((m) => m !== id);
    }
  },
  async react(rng) {
    const id = someMessage(rng);
    if (id) await api(pick(rng, ["POST", "DELETE"]), `/messages/${id}/reactions`, other, { emoji_name: pick(rng, EMOJI) });
  },
  async observerFlags(rng) {
    const ids = world.messages.filter(() => rng() < 0.3);
    if (ids.length) {
      await api("POST", "/messages/flags", observer, { messages: ids, op: pick(rng, ["add", "remove"]), flag: pick(rng, ["read", "starred"]) });
    }
  },
  async subscription(rng) {
    const name = pick(rng, CHANNELS);
    if (rng() < 0.5) await api("DELETE", "/users/me/subscriptions", observer, { subscriptions: [name] });
    else await api("POST", "/users/me/subscriptions", observer, { subscriptions: [{ name }] });
  },
  async topicVisibility(rng) {
    const name = pick(rng, CHANNELS);
    await api("POST", "/user_topics", observer, {
      stream_id: world.channelIds[name],
      topic: pick(rng, TOPICS),
      visibility_policy: pick(rng, [0, 1, 2, 3]),
    });
  },
  async status(rng) {
    await api("POST", "/users/me/status", other, { status_text: pick(rng, ["", "on a train", "lunch"]) });
  },
  async setting(rng) {
    await api("PATCH", "/settings", observer, { twenty_four_hour_time: rng() < 0.5 });
  },
  async channelDescription(rng) {
    const name = pick(rng, CHANNELS);
    await api("PATCH", `/streams/${world.channelIds[name]}`, owner, { description: pick(rng, ["Design talk", "Operations", ""]) });
  },
};

/** The narrows the observer keeps open. */
function narrows() {
  return [
    [],
    [{ operator: "channel", operand: world.channelIds.design }],
    [
      { operator: "channel", operand: world.channelIds.ops },
      { operator: "topic", operand: "alpha" },
    ],
    [{ operator: "dm", operand: [world.ownerId] }],
    [{ operator: "is", operand: "dm" }],
    [{ operator: "is", operand: "starred" }],
    [{ operator: "is", operand: "mentioned" }],
  ];
}

const NEWEST_100 = ["newest", 100, 0];

test(`a Client's state and cached narrows match a fresh session after random mutations (seed ${SEED})`, async () => {
  const rng = random(SEED);
  for (const name of CHANNELS) {
    await api("POST", "/users/me/subscriptions", owner, {
      subscriptions: [{ name }],
      principals: [owner.email, observer.email, other.email],
    });
  }
  for (const name of CHANNELS) {
    world.channelIds[name] = (await api("GET", "/get_stream_id", owner, { stream: name })).stream_id;
  }
  world.ownerId = (await api("GET", "/users/me", owner)).user_id;
  world.otherId = (await api("GET", "/users/me", other)).user_id;

  const client = open({ site, email: observer.email, apiKey: observer.apiKey });
  await client.start();
  world.observerId = client.userId();
  for (const narrow of narrows()) await client.messages(narrow, ...NEWEST_100);

  let servedFromCache = 0;
  let compared = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const applied = [];
    for (let i = 0; i < MUTATIONS_PER_ROUND; i++) {
      const name = pick(rng, Object.keys(MUTATIONS));
      applied.push(name);
      try {
        await MUTATIONS[name](rng);
      } catch (refused) {
        applied.push(`(refused: ${refused.message})`);
      }
    }
    // A message to the observer last: once its state has it, it has every event before it.
    const barrier = await api("POST", "/messages", owner, { type: "direct", to: [world.observerId], content: `round ${round}` });
    await until(() => (client.state().max_message_id ?? 0) >= barrier.id, `the observer follows round ${round}`);

    const context = `seed ${SEED}, round ${round}: ${applied.join(", ")}`;
    const kept = comparableState(client.state());
    const fresh = comparableState(await freshState(client.credentials()));
    assert.ok(kept === fresh, `state differs from a fresh register (${context}) at ${firstDifference(kept, fresh)}`);

    const session = open(client.credentials());
    await session.start();
    for (const narrow of narrows()) {
      const cached = await client.messages(narrow, ...NEWEST_100);
      const fetched = await session.messages(narrow, ...NEWEST_100);
      assert.equal(fetched.from_cache, false);
      servedFromCache += cached.from_cache ? 1 : 0;
      compared += 1;
      assert.deepEqual(cached.messages, fetched.messages, `narrow ${JSON.stringify(narrow)} (${context})`);
    }
    await session.close();
  }
  await client.close();
  console.log(`seed ${SEED}: ${ROUNDS} rounds, ${compared} narrow comparisons, ${servedFromCache} served from the cache`);
});
