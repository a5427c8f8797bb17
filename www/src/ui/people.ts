// Users by id, read from the engine once per change to users rather than once per lookup
// (10,000 users cross from WebAssembly in a few milliseconds; per row it would be too slow).
import type { UserSummary } from "confab-web";
import type { Session } from "../session/session";
import { cached } from "./session_cache";

const usersChanged = (changes: { users: number[] }) => changes.users.length > 0;

export function allUsers(session: Session): UserSummary[] {
  return cached(session, "users", usersChanged, () => session.client.users());
}

export function userById(session: Session, id: number): UserSummary | undefined {
  return cached(session, "users-by-id", usersChanged, () => new Map(allUsers(session).map((user) => [user.user_id, user]))).get(id);
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
