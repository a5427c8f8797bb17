// The left sidebar: the views, direct messages, and channels with unread counts; under the
// selected channel, its topics with theirs.
import { useEffect } from "preact/hooks";
import type { ChannelSummary } from "confab-web";
import { narrowChannel, narrowDirect, narrowHref, narrowTopic, routeNarrow, type Route } from "../route";
import { useChanges, useSession } from "../ui/context";
import { conversationName } from "../ui/people";
import { UnreadCount } from "../ui/unread_count";
import { subscribedChannels } from "../ui/channels";

const isOnly = (route: Route, operand: string) =>
  route.view === "narrow" && route.narrow.length === 1 && route.narrow[0].operator === "is" && route.narrow[0].operand === operand;

const VIEWS = [
  { key: "inbox", href: "#inbox", label: "Inbox", current: (route: Route) => route.view === "inbox" },
  { key: "recent", href: "#recent", label: "Recent conversations", current: (route: Route) => route.view === "recent" },
  { key: "feed", href: "#feed", label: "Combined feed", current: (route: Route) => route.view === "feed" },
  { key: "mentions", href: "#narrow/is/mentioned", label: "Mentions", current: (route: Route) => isOnly(route, "mentioned") },
  { key: "starred", href: "#narrow/is/starred", label: "Starred messages", current: (route: Route) => isOnly(route, "starred") },
  { key: "drafts", href: "#drafts", label: "Drafts", current: (route: Route) => route.view === "drafts" },
];

export function LeftSidebar({ route }: { route: Route }) {
  const narrow = routeNarrow(route);
  return (
    <nav class="left-sidebar" aria-label="Views and channels">
      <ul class="views">
        {VIEWS.map((item) => (
          <li key={item.key}>
            <a href={item.href} aria-current={item.current(route) ? "page" : undefined}>
              {item.label}
            </a>
          </li>
        ))}
      </ul>
      <DirectMessages selected={narrowDirect(narrow)} />
      <Channels selectedChannel={route.view === "narrow" ? narrowChannel(narrow) : undefined} selectedTopic={narrowTopic(narrow)} />
    </nav>
  );
}

function DirectMessages({ selected }: { selected: number[] | undefined }) {
  const session = useSession();
  useChanges((changes) => changes.conversations || changes.users.length > 0);
  const conversations = session.client.conversations().slice(0, 12);
  const selectedKey = selected ? [...selected].sort((a, b) => a - b).join(",") : undefined;
  return (
    <section class="sidebar-section" aria-labelledby="dm-heading">
      <h2 id="dm-heading">Direct messages</h2>
      {conversations.length === 0 && <p class="sidebar-empty">No direct messages yet.</p>}
      <ul>
        {conversations.map((conversation) => {
          const others = conversation.user_ids.filter((id) => id !== session.userId);
          const ids = others.length > 0 ? others : [session.userId];
          const key = [...ids].sort((a, b) => a - b).join(",");
          return (
            <li key={key}>
              <a
                href={narrowHref(session, [{ operator: "dm", operand: ids }])}
                aria-current={key === selectedKey ? "page" : undefined}
              >
                <span class="name">{conversationName(session, conversation.user_ids)}</span>
                <UnreadCount count={conversation.unread_count} />
              </a>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function Channels({ selectedChannel, selectedTopic }: { selectedChannel?: number; selectedTopic?: string }) {
  const session = useSession();
  useChanges((changes) => changes.channels.length > 0 || changes.topics.length > 0);
  const channels = subscribedChannels(session);
  const pinned = channels.filter((c) => c.pin_to_top);
  const rest = channels.filter((c) => !c.pin_to_top && !c.is_muted);
  const muted = channels.filter((c) => !c.pin_to_top && c.is_muted);
  return (
    <section class="sidebar-section" aria-labelledby="channels-heading">
      <h2 id="channels-heading">
        Channels <a class="section-action" href="#channels/subscribed" aria-label="Browse channels">+</a>
      </h2>
      <ul class="channel-list">
        {[...pinned, ...rest, ...muted].map((channel) => (
          <ChannelItem key={channel.stream_id} channel={channel} selected={channel.stream_id === selectedChannel} selectedTopic={selectedTopic} />
        ))}
      </ul>
    </section>
  );
}

function ChannelItem({ channel, selected, selectedTopic }: { channel: ChannelSummary; selected: boolean; selectedTopic?: string }) {
  const session = useSession();
  const href = narrowHref(session, [{ operator: "channel", operand: channel.stream_id }]);
  return (
    <li class={channel.is_muted ? "muted" : ""}>
      <a href={href} aria-current={selected && selectedTopic === undefined ? "page" : undefined}>
        <span class="channel-swatch" style={{ background: channel.color }} aria-hidden="true">
          {channel.invite_only ? "🔒" : "#"}
        </span>
        <span class="name">{channel.name}</span>
        <UnreadCount count={channel.unread_count} mentions={channel.mention_count} />
      </a>
      {selected && <TopicList streamId={channel.stream_id} selectedTopic={selectedTopic} />}
    </li>
  );
}

function TopicList({ streamId, selectedTopic }: { streamId: number; selectedTopic?: string }) {
  const session = useSession();
  useEffect(() => {
    void session.client.fetchTopics(streamId).catch(() => undefined);
  }, [session, streamId]);
  const topics = session.client.topics(streamId).filter((topic) => !topic.muted || topic.name === selectedTopic);
  return (
    <ul class="topic-list" aria-label="Topics">
      {topics.slice(0, 30).map((topic) => (
        <li key={topic.name}>
          <a
            href={narrowHref(session, [
              { operator: "channel", operand: streamId },
              { operator: "topic", operand: topic.name },
            ])}
            aria-current={topic.name === selectedTopic ? "page" : undefined}
          >
            <span class="name">{topic.name || <em>general chat</em>}</span>
            <UnreadCount count={topic.unread_count} />
          </a>
        </li>
      ))}
    </ul>
  );
}
