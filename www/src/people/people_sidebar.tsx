// The right sidebar: people, as Zulip's buddy list. The user first, then those active, idle and
// offline (by name within each), with presence, status and avatar; a filter; a click opens
// the direct conversation. Bots and deactivated users are left out. With 10,000 people only a
// page of rows is in the DOM, and the sorted list is rebuilt only when users change (at most
// once a second).
import { useEffect, useMemo, useState } from "preact/hooks";
import type { PresenceStatus, UserSummary } from "confab-web";
import type { Session } from "../session/session";
import { narrowHref } from "../route";
import { useSession } from "../ui/context";
import { allUsers, avatarUrl } from "../ui/people";
import { emojiCharacter } from "../messages/content";

/** Rows drawn at first, and added by each "Show more". */
const PAGE_ROWS = 100;

const PRESENCE_ORDER: Record<PresenceStatus, number> = { active: 0, idle: 1, offline: 2 };
const PRESENCE_LABEL: Record<PresenceStatus, string> = { active: "Active", idle: "Idle", offline: "Offline" };

type Person = { user: UserSummary; lower: string };

function peopleInOrder(session: Session, users: UserSummary[]): Person[] {
  const people = users
    .filter((user) => user.is_active && !user.is_bot)
    .map((user) => ({ user, lower: user.full_name.toLowerCase() }));
  // `users` comes sorted by name; a stable sort keeps that order within each presence.
  return people.sort((a, b) => {
    const self = Number(b.user.user_id === session.userId) - Number(a.user.user_id === session.userId);
    return self || PRESENCE_ORDER[a.user.presence] - PRESENCE_ORDER[b.user.presence];
  });
}

/**
 * Redraws after changes to people at most this often: in a large organization presence
 * changes arrive many times a second, and nothing here needs them sooner.
 */
const REDRAW_MS = 1000;

function usePeopleChanges(session: Session) {
  const [, redraw] = useState(0);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unsubscribe = session.onChange((changes) => {
      if (!(changes.resync || changes.users.length > 0 || changes.connection !== undefined)) return;
      timer ??= setTimeout(() => {
        timer = undefined;
        redraw((n) => n + 1);
      }, REDRAW_MS);
    });
    return () => {
      unsubscribe();
      clearTimeout(timer);
    };
  }, [session]);
}

export function PeopleSidebar() {
  const session = useSession();
  usePeopleChanges(session);
  const users = allUsers(session);
  const people = useMemo(() => peopleInOrder(session, users), [session, users]);
  const [filter, setFilter] = useState("");
  const [limit, setLimit] = useState(PAGE_ROWS);
  const needle = filter.trim().toLowerCase();
  const shown = useMemo(() => (needle ? people.filter((person) => person.lower.includes(needle)) : people), [people, needle]);
  const online = useMemo(() => people.filter((person) => person.user.presence !== "offline").length, [people]);

  return (
    <aside class="people-sidebar" aria-label="People">
      <div class="people-header">
        <h2 id="people-heading">People</h2>
        <span class="people-online">{online} online</span>
      </div>
      <input
        type="search"
        class="people-filter"
        aria-label="Filter people"
        placeholder="Filter people"
        value={filter}
        onInput={(event) => {
          setFilter(event.currentTarget.value);
          setLimit(PAGE_ROWS);
        }}
      />
      {shown.length === 0 ? (
        <p class="people-empty">{needle ? "No one matches." : "No one here yet."}</p>
      ) : (
        <ul class="people-list" aria-labelledby="people-heading">
          {shown.slice(0, limit).map(({ user }) => (
            <PersonRow key={user.user_id} session={session} user={user} />
          ))}
        </ul>
      )}
      {shown.length > limit && (
        <button type="button" class="link-button people-more" onClick={() => setLimit(limit + PAGE_ROWS)}>
          Show {Math.min(PAGE_ROWS, shown.length - limit)} more ({shown.length - limit} hidden)
        </button>
      )}
    </aside>
  );
}

function PersonRow({ session, user }: { session: Session; user: UserSummary }) {
  const self = user.user_id === session.userId;
  const status = user.status_text;
  return (
    <li class="person">
      <a
        href={narrowHref(session, [{ operator: "dm", operand: [user.user_id] }])}
        title={[user.full_name, PRESENCE_LABEL[user.presence], status].filter(Boolean).join(" · ")}
      >
        <span class="person-avatar">
          <img class="avatar" src={avatarUrl(session, user, user.user_id)} alt="" width={22} height={22} loading="lazy" />
          <span class={`presence-dot ${user.presence}`} aria-hidden="true" />
        </span>
        <span class="person-name">
          {user.full_name}
          {self && <span class="person-you"> (you)</span>}
          <span class="visually-hidden">, {PRESENCE_LABEL[user.presence].toLowerCase()}</span>
        </span>
        {user.status_emoji && <StatusEmoji session={session} name={user.status_emoji} />}
        {status && <span class="person-status">{status}</span>}
      </a>
    </li>
  );
}

type Glyph = { character?: string; source?: string };
const glyphs = new WeakMap<Session, Map<string, Glyph>>();

/** How an emoji name looks, as the engine's renderer draws `:name:` (kept per name). */
function glyph(session: Session, name: string): Glyph {
  let known = glyphs.get(session);
  if (!known) {
    known = new Map();
    glyphs.set(session, known);
  }
  let found = known.get(name);
  if (!found) {
    found = {};
    try {
      const template = document.createElement("template");
      template.innerHTML = session.client.renderPreview(`:${name}:`).html;
      const image = template.content.querySelector<HTMLImageElement>("img.emoji");
      const span = template.content.querySelector<HTMLElement>("span.emoji");
      const code = span && [...span.classList].find((c) => c.startsWith("emoji-"))?.slice("emoji-".length);
      if (image) found.source = image.getAttribute("src") ?? undefined;
      else if (code) found.character = emojiCharacter(code);
    } catch {
      // Not an emoji the renderer knows: the name shows.
    }
    known.set(name, found);
  }
  return found;
}

/** A status emoji by name: the character, the organization's image, or `:name:`. */
export function StatusEmoji({ session, name }: { session: Session; name: string }) {
  const { character, source } = glyph(session, name);
  if (source) return <img class="status-emoji" src={source} alt={`:${name}:`} width={16} height={16} />;
  return (
    <span class="status-emoji" role="img" aria-label={`:${name}:`}>
      {character ?? `:${name}:`}
    </span>
  );
}
