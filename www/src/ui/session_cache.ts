// What is read from the engine once and kept until a change says it may differ: the register
// state crosses from WebAssembly in milliseconds at 10,000 users, too slow to read per row or
// per keystroke. Every entry is dropped after a resync and on a connection change (before the
// first register there is nothing yet to read).
import type { Changes } from "confab-web";
import type { Session } from "../session/session";

type Entry = { value: unknown; stale: (changes: Changes) => boolean };
const caches = new WeakMap<Session, Map<string, Entry>>();

function entries(session: Session): Map<string, Entry> {
  let map = caches.get(session);
  if (!map) {
    const fresh = new Map<string, Entry>();
    session.onChange((changes) => {
      const always = changes.resync || changes.connection !== undefined;
      for (const [key, entry] of fresh) if (always || entry.stale(changes)) fresh.delete(key);
    });
    caches.set(session, fresh);
    map = fresh;
  }
  return map;
}

/** `compute()`'s value, kept under `key` until `stale(changes)` holds for a change. */
export function cached<T>(session: Session, key: string, stale: (changes: Changes) => boolean, compute: () => T): T {
  const map = entries(session);
  let entry = map.get(key);
  if (!entry) {
    entry = { value: compute(), stale };
    map.set(key, entry);
  }
  return entry.value as T;
}
