// Facts derived from the register state, computed once and again only after a change to
// settings or users (reading the whole state crosses megabytes from WebAssembly).
import type { RegisterState } from "confab-web";
import type { Session } from "../session/session";
import { cached } from "./session_cache";

export function fromState<T>(session: Session, name: string, compute: (state: RegisterState) => T): T {
  return cached(
    session,
    `state:${name}`,
    (changes) => changes.settings || changes.users.length > 0,
    () => compute(session.client.state()),
  );
}
