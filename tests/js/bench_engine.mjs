// confab-web's engine in Node, on an organization of 10,000 users with 5,000 cached messages
// (messages seeded by tests/benches/web_engine.rs, which runs this; users grown in the snapshot): restoring a snapshot, applying
// events one at a time, and rendering a 1 KB message. Prints figures; asserts nothing.
import { api, site, users, web } from "./support.mjs";

const RUNS = 15;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const percentile = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const ms = (start) => Number(process.hrtime.bigint() - start) / 1e6;
const verdict = (value, goal) => (value < goal ? "met" : "MISSED");

const { owner } = users;
const USERS = Number(process.env.CONFAB_BENCH_USERS ?? 10_000);
const seeded = new web.Client({ site, email: owner.email, apiKey: owner.apiKey });
await seeded.start();

// Fill the cache with the newest 5,000 messages, in two fetches.
const newest = await seeded.messages([], "newest", 2500, 0);
await seeded.messages([], newest.messages[0].id, 2500, 0);
const cached = (await seeded.messages([], "newest", 5000, 0)).messages.length;

// Grow the organization to USERS users in the snapshot (a snapshot is JSON, documented as such):
// copies of a real user record with their own ids, names and emails.
const saved = JSON.parse(new TextDecoder().decode(seeded.snapshot()));
await seeded.close();
const people = saved.state.realm_users;
const model = people[people.length - 1];
for (let i = people.length; i < USERS; i++) {
  const user_id = 100_000 + i;
  people.push({ ...model, user_id, full_name: `User ${i}`, email: `user${i}@example.com`, delivery_email: `user${i}@example.com` });
}
const snapshot = new TextEncoder().encode(JSON.stringify(saved));

// Restore: parse the snapshot and rebuild the projection the narrows are decided on.
let started;
const restores = [];
for (let i = 0; i < RUNS; i++) {
  started = process.hrtime.bigint();
  const restored = web.Client.restore(snapshot);
  restores.push(ms(started));
  restored.free();
}
const client = web.Client.restore(snapshot);
started = process.hrtime.bigint();
client.snapshot();
const snapshotMs = ms(started);
const state = client.state();
const userCount = state.realm_users.length;
console.log(
  `snapshot of ${userCount} users and ${cached} cached messages: ${(snapshot.length / 1e6).toFixed(1)} MB, ` +
    `written in ${snapshotMs.toFixed(0)} ms; restore median ${median(restores).toFixed(1)} ms ` +
    `(goal < 300 ms: ${verdict(median(restores), 300)})`,
);

// applyEvent: a realistic mix, each applied on its own to the state of 10,000 users.
const template = (await api("GET", "/messages", owner, { anchor: "newest", num_before: 1, num_after: 0 })).messages[0];
const userIds = state.realm_users.map((u) => u.user_id);
const streamId = state.subscriptions[0].stream_id;
let nextId = state.max_message_id + 1;
const pickUser = (i) => userIds[(i * 7919) % userIds.length];
const events = [];
for (let i = 0; i < 5000; i++) {
  const id = i + 1;
  switch (i % 8) {
    case 0:
      events.push({ type: "message", id, flags: [], message: { ...template, id: nextId++, sender_id: pickUser(i), content: `<p>event ${i}</p>` } });
      break;
    case 1:
      events.push({ type: "update_message_flags", id, op: "add", flag: "read", messages: [nextId - 1], all: false });
      break;
    case 2:
      events.push({ type: "reaction", id, op: "add", message_id: nextId - 1, user_id: pickUser(i), emoji_name: "smile", emoji_code: "1f604", reaction_type: "unicode_emoji" });
      break;
    case 3:
      events.push({ type: "typing", id, op: "start", message_type: "stream", sender: { user_id: pickUser(i), email: "x@example.com" }, stream_id: streamId, topic: "bench" });
      break;
    case 4:
      events.push({ type: "presence", id, user_id: pickUser(i), email: "x@example.com", server_timestamp: 1_700_000_000 + i, presence: { website: { client: "website", status: "active", timestamp: 1_700_000_000 + i, pushable: false } } });
      break;
    case 5:
      events.push({ type: "realm_user", id, op: "update", person: { user_id: pickUser(i), full_name: `Renamed ${i}` } });
      break;
    case 6:
      events.push({ type: "user_status", id, user_id: pickUser(i), status_text: `status ${i}` });
      break;
    default:
      events.push({ type: "update_message", id, user_id: client.userId(), message_id: nextId - 1, message_ids: [nextId - 1], flags: [], rendering_only: false, edit_timestamp: 1_700_000_000 + i, content: `edited ${i}`, rendered_content: `<p>edited ${i}</p>`, is_me_message: false });
  }
}
const live = new web.LiveState(state, client.userId());
const perEvent = [];
for (const event of events) {
  started = process.hrtime.bigint();
  live.apply(event);
  perEvent.push(ms(started) * 1000);
}
started = process.hrtime.bigint();
web.applyEvent(state, events[1], client.userId());
const wholeState = ms(started);
console.log(
  `applyEvent on ${userCount} users (LiveState, ${events.length} mixed events): median ${median(perEvent).toFixed(1)} µs, ` +
    `p99 ${percentile(perEvent, 0.99).toFixed(1)} µs (goal median < 50 µs: ${verdict(median(perEvent), 50)}); ` +
    `the free applyEvent, converting the whole state each call: ${wholeState.toFixed(1)} ms`,
);

// Rendering a 1 KB message in this organization.
const paragraph =
  "Looking at **the release plan** for `confab-web`: see https://example.com/plan and #**general>bench**, " +
  "then ask @**Iago** :thumbs_up: before *Friday*.\n";
let source = `${paragraph}\n- first point\n- second point with ~~strike~~\n\n> quoted words\n\n\`\`\`rust\nfn main() {}\n\`\`\`\n\n`;
while (source.length < 1024) source += paragraph;
source = source.slice(0, 1024);
const renders = [];
for (let i = 0; i < 200; i++) {
  started = process.hrtime.bigint();
  client.renderPreview(source);
  renders.push(ms(started));
}
console.log(
  `rendering a ${source.length}-byte message (renderPreview, organization of ${userCount} users): median ` +
    `${median(renders).toFixed(3)} ms (goal < 1 ms: ${verdict(median(renders), 1)})`,
);
