// What the Node tests of confab-web share: the package under test, the server's address and
// users (from the Rust test that started the server), the API over fetch, a TCP proxy that can
// cut a client off, and the comparison of register states.
import { createRequire } from "node:module";
import net from "node:net";
import { after } from "node:test";

const require = createRequire(import.meta.url);

/** confab-web's Node build (CommonJS), from the package directory `CONFAB_WEB_PACKAGE`. */
export const web = require(`${process.env.CONFAB_WEB_PACKAGE}/node/confab_web.js`);

/** Every Client a test opened, closed after the file's tests whatever their outcome: a
 * Client left running keeps long-polling, and Node would never exit after a failure. */
const opened = new Set();

/** Registered at the first Client, so that a script that opens none (the benchmark) does
 * not start Node's test runner. */
function closeWhenDone(client) {
  if (opened.size === 0) {
    after(async () => {
      await Promise.all([...opened].map((c) => c.close()));
    });
  }
  opened.add(client);
  return client;
}

/** A Client that is closed when the tests end. */
export function open(credentials, options) {
  return closeWhenDone(new web.Client(credentials, options));
}

/** A Client logged in with a password, closed when the tests end. */
export async function login(site, username, password, options) {
  return closeWhenDone(await web.Client.login(site, username, password, options));
}

/** The server's base URL. */
export const site = process.env.CONFAB_SITE;

/** The users the Rust test created: `{name: {email, password, apiKey}}`. */
export const users = JSON.parse(process.env.CONFAB_USERS ?? "{}");

/** The server's event queue timeout, in milliseconds. */
export const queueTimeoutMs = Number(process.env.CONFAB_QUEUE_TIMEOUT_SECS ?? "600") * 1000;

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Resolves once `predicate()` holds. The limit only keeps a broken build from hanging the
 * suite: nothing here depends on how fast the server is.
 */
export async function until(predicate, what, limitMs = 60_000) {
  const started = Date.now();
  for (;;) {
    if (await predicate()) return;
    if (Date.now() - started > limitMs) throw new Error(`gave up waiting: ${what}`);
    await sleep(20);
  }
}

/** One API call with HTTP basic auth; resolves to the JSON body, throws on an error answer. */
export async function api(method, path, who, params = {}) {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    body.append(name, typeof value === "string" ? value : JSON.stringify(value));
  }
  const inQuery = method === "GET" || method === "DELETE";
  const url = `${site}/api/v1${path}${inQuery && body.size ? `?${body}` : ""}`;
  const headers = { Authorization: `Basic ${btoa(`${who.email}:${who.apiKey}`)}` };
  const response = await fetch(url, { method, headers, body: inQuery ? undefined : body });
  const answer = await response.json();
  if (answer.result !== "success") {
    throw new Error(`${method} ${path}: ${response.status} ${answer.code} ${answer.msg}`);
  }
  return answer;
}

/** A TCP proxy in front of the server that can be cut (refusing connections) and reopened. */
export class Proxy {
  constructor(target) {
    const url = new URL(target);
    this.targetHost = url.hostname;
    this.targetPort = Number(url.port);
    this.port = 0;
    this.sockets = new Set();
  }

  get site() {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts accepting connections (on the same port as before, if it ran before). */
  async open() {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.targetPort, this.targetHost);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on("close", () => this.sockets.delete(socket));
        socket.on("error", () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(this.port, "127.0.0.1", resolve);
    });
    this.port = this.server.address().port;
  }

  /** Refuses new connections and breaks the open ones, as a lost network does. */
  async cut() {
    if (!this.server?.listening) return;
    const closed = new Promise((resolve) => this.server.close(resolve));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }
}

/** Register-state keys that name the queue or the moment, not the state (events carry no
 * presence sequence number, so `presence_last_update_id` stays where register put it). */
const SESSION_KEYS = ["queue_id", "last_event_id", "server_timestamp", "presence_last_update_id"];

/** A register state as comparable JSON: the session keys dropped, object keys sorted. */
export function comparableState(state) {
  const copy = { ...state };
  for (const key of SESSION_KEYS) delete copy[key];
  return JSON.stringify(sortKeys(copy), null, 1);
}

function sortKeys(value) {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys(value[key])]),
    );
  }
  return value;
}

/** The lines where two texts first differ, for a readable failure. */
export function firstDifference(left, right) {
  const a = left.split("\n");
  const b = right.split("\n");
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) {
      return `line ${i + 1}:\n  kept:  ${a.slice(Math.max(0, i - 3), i + 3).join("\n         ")}\n  fresh: ${b
        .slice(Math.max(0, i - 3), i + 3)
        .join("\n         ")}`;
    }
  }
  return "no difference";
}

/** A register state fetched now by a new session of the same user, with the same parameters. */
export async function freshState(credentials) {
  const fresh = open(credentials);
  await fresh.start();
  const state = fresh.state();
  await fresh.close();
  return state;
}
