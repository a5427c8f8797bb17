// The Inbox (`#inbox`), as Zulip's: unread messages by conversation. Direct conversations with
// unread messages first, then each channel with unread topics (collapsible, remembered on this
// device), each with its count, a link to its narrow and a way to mark it read. The counts and
// which topics are muted are the engine's.
import type { ComponentChildren } from "preact";
import { useRef, useState } from "preact/hooks";
import type { Anchor, ChannelSummary, NarrowTerm, TopicSummary } from "confab-web";
import type { Session } from "../session/session";
import { narrowHref } from "../route";
import { useChanges, useSession } from "../ui/context";
import { conversationName } from "../ui/people";
import { UnreadCount } from "../ui/unread_count";
import { subscribedChannels } from "../ui/channels";

const COLLAPSED_KEY = "confab-inbox-collapsed";
/** Unread messages read per request when marking a conversation read. */
const MARK_PAGE = 1000;
/** Pages at most (a conversation with more unread is marked in part; the count shows the rest). */
const MARK_PAGES = 20;

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String((error as { msg?: unknown })?.msg ?? error);
}

/**
 * Marks every unread message of a narrow read: their ids come from the engine (its cache when it
 * can), a page at a time, and the engine marks them, so the counts change at once.
 */
export async function markNarrowRead(session: Session, narrow: NarrowTerm[]): Promise<void> {
  const unread: NarrowTerm[] = [...narrow, { operator: "is", operand: "unread" }];
  let anchor: Anchor = "oldest";
  for (let page = 0; page < MARK_PAGES; page++) {
    const answer = await session.client.messages(unread, anchor, 0, MARK_PAGE);
    const ids = answer.messages
      .filter((message) => message.local_id === undefined && !message.flags.includes("read"))
      .map((message) => message.id);
    if (ids.length > 0) await session.client.markRead(ids);
    const last = answer.messages.at(-1)?.id;
    if (answer.found_newest || last === undefined || ids.length === 0) return;
    anchor = last;
  }
}

export function directNarrow(session: Session, userIds: number[]): NarrowTerm[] {
  const others = userIds.filter((id) => id !== session.userId);
  return [{ operator: "dm", operand: others.length > 0 ? others : [session.userId] }];
}

export function topicNarrow(streamId: number, topic: string): NarrowTerm[] {
  return [
    { operator: "channel", operand: streamId },
    { operator: "topic", operand: topic },
  ];
}

function storedCollapsed(): Set<string> {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(COLLAPSED_KEY) ?? "[]");
    return new Set(Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : []);
  } catch {
    return new Set();
  }
}

type ChannelGroup = { channel: ChannelSummary; topics: TopicSummary[]; unread: number };

const topicCaches = new WeakMap<Session, Map<number, TopicSummary[]>>();

/** A channel's topics, read from the engine again only after a change to the channel. */
function channelTopics(session: Session, streamId: number): TopicSummary[] {
  let cache = topicCaches.get(session);
  if (!cache) {
    const fresh = new Map<number, TopicSummary[]>();
    session.onChange((changes) => {
      if (changes.resync) fresh.clear();
      for (const id of changes.channels) fresh.delete(id);
      for (const topic of changes.topics) fresh.delete(topic.stream_id);
    });
    topicCaches.set(session, fresh);
    cache = fresh;
  }
  let topics = cache.get(streamId);
  if (!topics) {
    topics = session.client.topics(streamId);
    cache.set(streamId, topics);
  }
  return topics;
}

export function InboxView() {
  const session = useSession();
  // Names of direct conversations' people show, so their changes count (others' do not).
  const participants = useRef<ReadonlySet<number>>(new Set());
  useChanges(
    (changes) =>
      changes.channels.length > 0 ||
      changes.topics.length > 0 ||
      changes.conversations ||
      changes.users.some((id) => participants.current.has(id)),
  );
  const [filter, setFilter] = useState("");
  const [collapsed, setCollapsed] = useState(storedCollapsed);
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<string>();

  const needle = filter.trim().toLowerCase();
  const matches = (...texts: string[]) => !needle || texts.some((text) => text.toLowerCase().includes(needle));

  const directs = session.client
    .conversations()
    .filter((conversation) => conversation.unread_count > 0)
    .map((conversation) => ({ conversation, name: conversationName(session, conversation.user_ids) }))
    .filter(({ name }) => matches(name));
  participants.current = new Set(directs.flatMap(({ conversation }) => conversation.user_ids));

  const channels = subscribedChannels(session);
  const ordered = [...channels.filter((c) => c.pin_to_top), ...channels.filter((c) => !c.pin_to_top)];
  const groups: ChannelGroup[] = [];
  for (const channel of ordered) {
    if (channel.unread_count === 0) continue;
    const channelMatches = matches(channel.name);
    const topics = channelTopics(session, channel.stream_id).filter(
      (topic) => topic.unread_count > 0 && !topic.muted && (channelMatches || matches(topic.name)),
    );
    if (topics.length === 0) continue;
    groups.push({ channel, topics, unread: topics.reduce((sum, topic) => sum + topic.unread_count, 0) });
  }

  function toggle(key: string) {
    const next = new Set(collapsed);
    if (!next.delete(key)) next.add(key);
    setCollapsed(next);
    try {
      localStorage.setItem(COLLAPSED_KEY, JSON.stringify([...next]));
    } catch {
      // Private browsing without storage: collapsing still works until reload.
    }
  }

  async function markRead(key: string, narrow: NarrowTerm[]) {
    setError(undefined);
    setBusy((all) => new Set(all).add(key));
    try {
      await markNarrowRead(session, narrow);
    } catch (failure) {
      setError(`Could not mark messages as read: ${errorText(failure)}`);
    } finally {
      setBusy((all) => {
        const next = new Set(all);
        next.delete(key);
        return next;
      });
    }
  }

  const directUnread = directs.reduce((sum, { conversation }) => sum + conversation.unread_count, 0);
  const empty = directs.length === 0 && groups.length === 0;

  return (
    <div class="view inbox-view">
      <div class="view-header">
        <h1>Inbox</h1>
        <input
          type="search"
          class="view-filter"
          aria-label="Filter conversations"
          placeholder="Filter conversations"
          value={filter}
          onInput={(event) => setFilter(event.currentTarget.value)}
        />
      </div>
      {error && (
        <p class="view-error" role="alert">
          {error}
        </p>
      )}
      {empty ? (
        <div class="view-empty">
          {needle ? (
            <p>No unread conversations match your filter.</p>
          ) : (
            <>
              <p>There are no unread messages in your inbox.</p>
              <p>
                <a href="#recent">View recent conversations</a>
              </p>
            </>
          )}
        </div>
      ) : (
        <>
          {directs.length > 0 && (
            <InboxSection
              id="inbox-dm"
              title="Direct messages"
              unread={directUnread}
              collapsed={collapsed.has("dm")}
              onToggle={() => toggle("dm")}
            >
              {directs.map(({ conversation, name }) => {
                const narrow = directNarrow(session, conversation.user_ids);
                const key = `dm:${narrow[0].operand as number[]}`;
                return (
                  <InboxRow
                    key={key}
                    href={narrowHref(session, narrow)}
                    label={name}
                    unread={conversation.unread_count}
                    busy={busy.has(key)}
                    onMarkRead={() => markRead(key, narrow)}
                  />
                );
              })}
            </InboxSection>
          )}
          {groups.map(({ channel, topics, unread }) => {
            const channelKey = `channel:${channel.stream_id}`;
            return (
              <InboxSection
                key={channelKey}
                id={`inbox-channel-${channel.stream_id}`}
                title={channel.name}
                channel={channel}
                unread={unread}
                collapsed={collapsed.has(channelKey)}
                onToggle={() => toggle(channelKey)}
                busy={busy.has(channelKey)}
                onMarkRead={() => markRead(channelKey, [{ operator: "channel", operand: channel.stream_id }])}
              >
                {topics.map((topic) => {
                  const narrow = topicNarrow(channel.stream_id, topic.name);
                  const key = `topic:${channel.stream_id}:${topic.name.toLowerCase()}`;
                  return (
                    <InboxRow
                      key={key}
                      href={narrowHref(session, narrow)}
                      label={topic.name}
                      unread={topic.unread_count}
                      busy={busy.has(key)}
                      onMarkRead={() => markRead(key, narrow)}
                    />
                  );
                })}
              </InboxSection>
            );
          })}
        </>
      )}
    </div>
  );
}

type SectionProps = {
  id: string;
  title: string;
  channel?: ChannelSummary;
  unread: number;
  collapsed: boolean;
  onToggle: () => void;
  busy?: boolean;
  onMarkRead?: () => void;
  children: ComponentChildren;
};

function InboxSection({ id, title, channel, unread, collapsed, onToggle, busy, onMarkRead, children }: SectionProps) {
  const session = useSession();
  return (
    <div class="inbox-section" role="group" aria-labelledby={`${id}-heading`}>
      <div class="inbox-section-header">
        <h2 id={`${id}-heading`}>
          <button type="button" class="inbox-toggle" aria-expanded={!collapsed} aria-controls={`${id}-list`} onClick={onToggle}>
            <span class="toggle-arrow" aria-hidden="true">
              {collapsed ? "▸" : "▾"}
            </span>
            {channel && (
              <span class="channel-swatch" style={{ background: channel.color }} aria-hidden="true">
                {channel.invite_only ? "🔒" : "#"}
              </span>
            )}
            <span class="name">{title}</span>
          </button>
        </h2>
        <UnreadCount count={unread} mentions={channel?.mention_count ?? 0} />
        {channel && (
          <a class="inbox-channel-link" href={narrowHref(session, [{ operator: "channel", operand: channel.stream_id }])}>
            Go to channel<span class="visually-hidden"> {channel.name}</span>
          </a>
        )}
        {onMarkRead && (
          <button type="button" class="mark-read" disabled={busy} onClick={onMarkRead}>
            {busy ? "Marking…" : "Mark as read"}
            <span class="visually-hidden">: {title}</span>
          </button>
        )}
      </div>
      <ul id={`${id}-list`} class="inbox-list" hidden={collapsed}>
        {children}
      </ul>
    </div>
  );
}

type RowProps = { href: string; label: string; unread: number; busy: boolean; onMarkRead: () => void };

function InboxRow({ href, label, unread, busy, onMarkRead }: RowProps) {
  return (
    <li class="inbox-row">
      <a href={href} class="inbox-row-link">
        <span class="name">{label || <em>general chat</em>}</span>
      </a>
      <UnreadCount count={unread} />
      <button type="button" class="mark-read" disabled={busy} onClick={onMarkRead}>
        {busy ? "Marking…" : "Mark as read"}
        <span class="visually-hidden">: {label || "general chat"}</span>
      </button>
    </li>
  );
}
