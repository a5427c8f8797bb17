// The groups the user belongs to, for highlighting group mentions of them.
import type { Session } from "../session/session";
import { useChanges } from "../ui/context";
import { fromState } from "../ui/state_cache";

export function useOwnGroupIds(session: Session): ReadonlySet<number> {
  useChanges((changes) => changes.settings);
  return fromState(session, "own_group_ids", (state) => {
    const groups = (state.realm_user_groups ?? []) as { id: number; members?: number[] }[];
    return new Set(groups.filter((g) => g.members?.includes(session.userId)).map((g) => g.id));
  });
}
