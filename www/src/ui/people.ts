// Users by id, read from the engine once per change to users rather than once per lookup
// (10,000 users cross from WebAssembly in a few milliseconds; per row it would be too slow).
// A connection change clears it too: before the first register there are no users yet.
import type { UserSummary } from "confab-web";
import type { Session } from "../session/session";

const caches = new WeakMap<Session, { users?: UserSummary[]; byId?: Map<number, UserSummary> }>();

function cache(session: Session) {
  let entry = caches.get(session);
  if (!entry) {
    const fresh: { users?: UserSummary[]; byId?: Map<number, UserSummary> } = {};
    session.onChange((changes) => {
      if (changes.resync || changes.users.length > 0 || changes.connection !== undefined) {
        fresh.users = undefined;
        fresh.byId = undefined;
      }
    });
    caches.set(session, fresh);
    entry = fresh;
  }
  return entry;
}

export function allUsers(session: Session): UserSummary[] {
  const entry = cache(session);
  entry.users ??= session.client.users();
  return entry.users;
}

export function userById(session: Session, id: number): UserSummary | undefined {
  const entry = cache(session);
  entry.byId ??= new Map(allUsers(session).map((user) => [user.user_id, user]));
  return entry.byId.get(id);
}

export function userName(session: Session, id: number): string {
  return userById(session, id)?.full_name ?? `User ${id}`;
}

/** The names of a direct conversation's other participants (or the user's own, to self). */
export function conversationName(session: Session, userIds: number[]): string {
  const others = userIds.filter((id) => id !== session.userId);
  const ids = others.length > 0 ? others : [session.userId];
  return ids.map((id) => userName(session, id)).join(", ");
}

export function avatarUrl(session: Session, user: UserSummary | undefined, userId: number): string {
  if (user?.avatar_url) return user.avatar_url;
  return `${session.credentials().site}/avatar/${userId}`;
}
