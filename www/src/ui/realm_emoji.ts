// The organization's custom emoji by id.
import type { Session } from "../session/session";
import { fromState } from "./state_cache";

type RealmEmoji = { name?: string; source_url?: string; deactivated?: boolean };

export function realmEmoji(session: Session): Record<string, RealmEmoji> {
  return fromState(session, "realm_emoji", (state) => (state.realm_emoji ?? {}) as Record<string, RealmEmoji>);
}
