// Facts derived from the register state, computed once and again only after a change that may
// alter them (reading the whole state crosses megabytes from WebAssembly at 10,000 users).
import type { RegisterState } from "confab-web";
import type { Session } from "../session/session";

const caches = new WeakMap<Session, Map<string, unknown>>();

export function fromState<T>(session: Session, name: string, compute: (state: RegisterState) => T): T {
  let entries = caches.get(session);
  if (!entries) {
    const fresh = new Map<string, unknown>();
    session.onChange((changes) => {
      if (changes.resync || changes.settings || changes.users.length > 0 || changes.connection !== undefined) fresh.clear();
    });
    caches.set(session, fresh);
    entries = fresh;
  }
  if (!entries.has(name)) entries.set(name, compute(session.client.state()));
  return entries.get(name) as T;
}
