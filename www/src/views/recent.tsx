// Recent conversations (`#recent`), as Zulip's: every topic of the subscribed channels and every
// direct conversation the engine knows, newest first, with unread counts, filters, and a way to
// mark one read. The engine learns topics from messages; on first showing, the view asks for the
// newest messages (one request) and then, in the background and a few at a time, each channel's
// topic list, once per session. Rows are kept per channel and rebuilt only for channels that
// changed, and at most a page of rows is in the DOM, so 1,000 channels stay fast.
import { useEffect, useMemo, useState } from "preact/hooks";
import type { Changes, ChannelSummary, Conversation, TopicSummary } from "confab-web";
import type { Session } from "../session/session";
import { narrowHref } from "../route";
import { useChanges, useSession } from "../ui/context";
import { avatarUrl, conversationName, userById } from "../ui/people";
import { UnreadCount } from "../ui/unread_count";
import { directNarrow, markNarrowRead, topicNarrow } from "./inbox";
import { ShowMore } from "../ui/show_more";

/** Rows drawn at first, and added by each "Show more". */
const PAGE_ROWS = 200;
/** Newest messages asked for on first showing (Zulip's recent view starts from a few hundred). */
const RECENT_MESSAGES = 400;
/** Topic lists fetched at once in the background. */
const FETCH_CONCURRENCY = 2;
/** Avatars shown for a direct conversation. */
const MAX_AVATARS = 4;

type TopicRow = {
  kind: "topic";
  key: string;
  maxId: number;
  unread: number;
  muted: boolean;
  channel: ChannelSummary;
  topic: TopicSummary;
  /** Lower-cased channel and topic names, for the filter. */
  text: string;
};
type DirectRow = { kind: "direct"; key: string; maxId: number; unread: number; muted: false; conversation: Conversation; name: string; text: string };
type Row = TopicRow | DirectRow;

/** What Recent keeps per session between showings: rows per channel, and what it fetched. */
type RecentCache = {
  /** Subscribed channels (`client.channels()` costs milliseconds with 1,000 channels). */
  channels?: ChannelSummary[];
  topicRows: Map<number, TopicRow[]>;
  directRows?: DirectRow[];
  rows?: Row[];
  /** The people of the direct conversations, whose names the rows show. */
  participants: Set<number>;
  /** Channels whose topic list was fetched (or is being fetched) this session. */
  fetched: Set<number>;
  /** Channels whose topic list is being fetched now. */
  fetching: Set<number>;
  /** Channels whose fetched topics are not in the rows yet (they go in at most once a second). */
  arrived: Set<number>;
  flushTimer?: ReturnType<typeof setTimeout>;
  /** Redraws the view showing, if any, when fetched topics go in. */
  redraw?: () => void;
  recentLoaded: boolean;
};

/** How often topics fetched in the background go into the rows. */
const FLUSH_MS = 1000;

const caches = new WeakMap<Session, RecentCache>();

/**
 * Whether a change only reports topic lists the background fetch brought: those are taken in
 * batches, so that 1,000 fetches do not rebuild the rows 1,000 times.
 */
function fetchedOnly(cache: RecentCache, changes: Changes): boolean {
  return (
    changes.channels.length > 0 &&
    changes.channels.every((id) => cache.fetching.has(id)) &&
    changes.topics.length === 0 &&
    changes.users.length === 0 &&
    !changes.conversations &&
    !changes.resync &&
    changes.connection === undefined
  );
}

function recentCache(session: Session): RecentCache {
  let cache = caches.get(session);
  if (!cache) {
    const fresh: RecentCache = {
      topicRows: new Map(),
      participants: new Set(),
      fetched: new Set(),
      fetching: new Set(),
      arrived: new Set(),
      recentLoaded: false,
    };
    session.onChange((changes) => {
      if (changes.resync) {
        // The engine forgot its topics and messages: fetch again when shown.
        fresh.channels = undefined;
        fresh.topicRows.clear();
        fresh.fetched.clear();
        fresh.arrived.clear();
        fresh.recentLoaded = false;
        fresh.directRows = undefined;
        fresh.rows = undefined;
        return;
      }
      if (fetchedOnly(fresh, changes)) {
        for (const id of changes.channels) fresh.arrived.add(id);
        scheduleFlush(fresh);
        return;
      }
      if (changes.channels.length > 0) fresh.channels = undefined;
      for (const id of changes.channels) fresh.topicRows.delete(id);
      for (const topic of changes.topics) fresh.topicRows.delete(topic.stream_id);
      // Names in direct rows: their people's changes, or the first state arriving after login.
      const names = changes.connection !== undefined || changes.users.some((id) => fresh.participants.has(id));
      if (changes.conversations || names) fresh.directRows = undefined;
      if (changes.channels.length > 0 || changes.topics.length > 0 || changes.conversations || names) fresh.rows = undefined;
    });
    caches.set(session, fresh);
    cache = fresh;
  }
  return cache;
}

function scheduleFlush(cache: RecentCache) {
  cache.flushTimer ??= setTimeout(() => flush(cache), FLUSH_MS);
}

function flush(cache: RecentCache) {
  clearTimeout(cache.flushTimer);
  cache.flushTimer = undefined;
  if (cache.arrived.size === 0) return;
  for (const id of cache.arrived) cache.topicRows.delete(id);
  cache.arrived.clear();
  cache.rows = undefined;
  cache.redraw?.();
}

function channelRows(session: Session, channel: ChannelSummary): TopicRow[] {
  return session.client.topics(channel.stream_id).map((topic) => ({
    kind: "topic",
    key: `${channel.stream_id}:${topic.name.toLowerCase()}`,
    maxId: topic.max_id,
    unread: topic.unread_count,
    muted: topic.muted,
    channel,
    topic,
    text: `${channel.name}\n${topic.name}`.toLowerCase(),
  }));
}

function allRows(session: Session, cache: RecentCache): Row[] {
  if (cache.rows) return cache.rows;
  const rows: Row[] = [];
  const subscribed = new Set<number>();
  cache.channels ??= session.client.channels();
  for (const channel of cache.channels) {
    subscribed.add(channel.stream_id);
    let topics = cache.topicRows.get(channel.stream_id);
    if (!topics) {
      topics = channelRows(session, channel);
      cache.topicRows.set(channel.stream_id, topics);
    }
    rows.push(...topics);
  }
  // Channels left since: their rows go.
  for (const id of cache.topicRows.keys()) if (!subscribed.has(id)) cache.topicRows.delete(id);
  if (!cache.directRows) {
    cache.directRows = session.client.conversations().map((conversation): DirectRow => {
      const name = conversationName(session, conversation.user_ids);
      return {
        kind: "direct",
        key: `dm:${[...conversation.user_ids].sort((a, b) => a - b).join(",")}`,
        maxId: conversation.max_message_id,
        unread: conversation.unread_count,
        muted: false,
        conversation,
        name,
        text: name.toLowerCase(),
      };
    });
    cache.participants = new Set(cache.directRows.flatMap((row) => row.conversation.user_ids));
  }
  rows.push(...cache.directRows);
  rows.sort((a, b) => b.maxId - a.maxId);
  cache.rows = rows;
  return rows;
}

/**
 * Fills the engine's topics: the newest messages first, then each subscribed channel's topic
 * list, a few requests at a time, while the view is shown and the client is connected. A failed
 * request stops the round (offline); the next showing or reconnection continues it.
 */
function useTopicFetching(session: Session, cache: RecentCache, connected: boolean) {
  useEffect(() => {
    if (!connected) return;
    let stopped = false;
    if (!cache.recentLoaded) {
      cache.recentLoaded = true;
      session.client.messages([], "newest", RECENT_MESSAGES, 0).catch(() => {
        cache.recentLoaded = false;
      });
    }
    cache.channels ??= session.client.channels();
    const queue = cache.channels.map((channel) => channel.stream_id).filter((id) => !cache.fetched.has(id));
    let running = FETCH_CONCURRENCY;
    const worker = async () => {
      while (!stopped) {
        const id = queue.shift();
        if (id === undefined) break;
        if (cache.fetched.has(id)) continue;
        cache.fetched.add(id);
        cache.fetching.add(id);
        try {
          await session.client.fetchTopics(id);
        } catch (failure) {
          // A refusal (a channel gone meanwhile) is that channel's; no answer at all means
          // offline, and the round stops until the connection is back.
          if (!(failure as { status?: number }).status) {
            cache.fetched.delete(id);
            stopped = true;
          }
        } finally {
          cache.fetching.delete(id);
        }
      }
      running -= 1;
      if (running === 0) flush(cache);
    };
    for (let i = 0; i < FETCH_CONCURRENCY; i++) void worker();
    return () => {
      stopped = true;
    };
  }, [session, cache, connected]);
}

export function RecentView() {
  const session = useSession();
  const cache = recentCache(session);
  const [, redraw] = useState(0);
  useEffect(() => {
    cache.redraw = () => redraw((n) => n + 1);
    return () => {
      cache.redraw = undefined;
    };
  }, [cache]);
  useChanges(
    (changes) =>
      (changes.channels.length > 0 && !fetchedOnly(cache, changes)) ||
      changes.topics.length > 0 ||
      changes.conversations ||
      changes.users.some((id) => cache.participants.has(id)),
  );
  const [filter, setFilter] = useState("");
  const [unreadOnly, setUnreadOnly] = useState(false);
  const [includeMuted, setIncludeMuted] = useState(false);
  const [includeDirect, setIncludeDirect] = useState(true);
  const [limit, setLimit] = useState(PAGE_ROWS);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState<string>();
  useTopicFetching(session, cache, session.client.connection() === "connected");

  const rows = allRows(session, cache);
  const needle = filter.trim().toLowerCase();
  const shown = useMemo(
    () =>
      rows.filter(
        (row) =>
          (!unreadOnly || row.unread > 0) &&
          (includeMuted || !row.muted) &&
          (includeDirect || row.kind !== "direct") &&
          (!needle || row.text.includes(needle)),
      ),
    [rows, unreadOnly, includeMuted, includeDirect, needle],
  );
  // A new filter starts from the first page again.
  useEffect(() => setLimit(PAGE_ROWS), [unreadOnly, includeMuted, includeDirect, needle]);

  async function markRead(row: Row) {
    setError(undefined);
    setBusy(row.key);
    try {
      await markNarrowRead(
        session,
        row.kind === "topic" ? topicNarrow(row.channel.stream_id, row.topic.name) : directNarrow(session, row.conversation.user_ids),
      );
    } catch (failure) {
      setError(`Could not mark messages as read: ${failure instanceof Error ? failure.message : String(failure)}`);
    } finally {
      setBusy(undefined);
    }
  }

  return (
    <div class="view recent-view">
      <div class="view-header">
        <h1>Recent conversations</h1>
        <input
          type="search"
          class="view-filter"
          aria-label="Filter conversations"
          placeholder="Filter conversations"
          value={filter}
          onInput={(event) => setFilter(event.currentTarget.value)}
        />
        <div class="view-toggles" role="group" aria-label="Show">
          <label>
            <input type="checkbox" checked={unreadOnly} onChange={(event) => setUnreadOnly(event.currentTarget.checked)} />
            Unread only
          </label>
          <label>
            <input type="checkbox" checked={includeMuted} onChange={(event) => setIncludeMuted(event.currentTarget.checked)} />
            Include muted
          </label>
          <label>
            <input type="checkbox" checked={includeDirect} onChange={(event) => setIncludeDirect(event.currentTarget.checked)} />
            Include direct messages
          </label>
        </div>
      </div>
      {error && (
        <p class="view-error" role="alert">
          {error}
        </p>
      )}
      {shown.length === 0 ? (
        <p class="view-empty">{rows.length === 0 ? "No conversations yet." : "No conversations match your filters."}</p>
      ) : (
        <table class="recent-table">
          <caption class="visually-hidden">Conversations, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Channel</th>
              <th scope="col">Topic or participants</th>
              <th scope="col" class="recent-unread-column">
                Unread
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.slice(0, limit).map((row) =>
              row.kind === "topic" ? (
                <TopicRowView key={row.key} session={session} row={row} busy={busy === row.key} onMarkRead={() => markRead(row)} />
              ) : (
                <DirectRowView key={row.key} session={session} row={row} busy={busy === row.key} onMarkRead={() => markRead(row)} />
              ),
            )}
          </tbody>
        </table>
      )}
      <ShowMore hidden={shown.length - limit} onMore={() => setLimit(limit + PAGE_ROWS)} />
    </div>
  );
}

type RowViewProps<R> = { session: Session; row: R; busy: boolean; onMarkRead: () => void };

function TopicRowView({ session, row, busy, onMarkRead }: RowViewProps<TopicRow>) {
  const { channel, topic } = row;
  const name = topic.name || "general chat";
  return (
    <tr class={[row.unread > 0 ? "unread" : "", row.muted ? "muted" : ""].filter(Boolean).join(" ")}>
      <td class="recent-channel">
        <a href={narrowHref(session, [{ operator: "channel", operand: channel.stream_id }])}>
          <span class="channel-swatch" style={{ background: channel.color }} aria-hidden="true">
            {channel.invite_only ? "🔒" : "#"}
          </span>
          {channel.name}
        </a>
      </td>
      <td class="recent-topic">
        <a href={narrowHref(session, topicNarrow(channel.stream_id, topic.name))}>
          {topic.name ? topic.name : <em>general chat</em>}
        </a>
        {topic.followed && <span class="recent-flag">followed</span>}
      </td>
      <td class="recent-unread">
        <UnreadCell unread={row.unread} label={name} busy={busy} onMarkRead={onMarkRead} />
      </td>
    </tr>
  );
}

function DirectRowView({ session, row, busy, onMarkRead }: RowViewProps<DirectRow>) {
  const narrow = directNarrow(session, row.conversation.user_ids);
  const ids = narrow[0].operand as number[];
  return (
    <tr class={row.unread > 0 ? "unread" : ""}>
      <td class="recent-channel">
        <a href={narrowHref(session, [{ operator: "is", operand: "dm" }])}>Direct messages</a>
      </td>
      <td class="recent-topic">
        <a href={narrowHref(session, narrow)} class="recent-direct">
          <span class="recent-avatars" aria-hidden="true">
            {ids.slice(0, MAX_AVATARS).map((id) => (
              <img key={id} class="avatar" src={avatarUrl(session, userById(session, id), id)} alt="" width={18} height={18} loading="lazy" />
            ))}
          </span>
          {row.name}
        </a>
      </td>
      <td class="recent-unread">
        <UnreadCell unread={row.unread} label={row.name} busy={busy} onMarkRead={onMarkRead} />
      </td>
    </tr>
  );
}

/** The unread count; as in Zulip's recent view, clicking it marks the conversation read. */
function UnreadCell({ unread, label, busy, onMarkRead }: { unread: number; label: string; busy: boolean; onMarkRead: () => void }) {
  if (unread === 0) return null;
  return (
    <button type="button" class="unread-button" disabled={busy} onClick={onMarkRead} title="Mark as read" aria-label={`${unread} unread in ${label}; mark as read`}>
      <UnreadCount count={unread} />
    </button>
  );
}
