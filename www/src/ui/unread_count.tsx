// An unread count badge, with a mark when some of the unread messages mention the user.
export function UnreadCount({ count, mentions = 0 }: { count: number; mentions?: number }) {
  if (count <= 0) return null;
  return (
    <span class="unread-count" aria-label={`${count} unread${mentions > 0 ? `, ${mentions} mentioning you` : ""}`}>
      {mentions > 0 && <span class="mention-mark" aria-hidden="true">@</span>}
      {count}
    </span>
  );
}
