// A narrow's messages: virtualized rows with recipient and date headers and the "new
// messages" line; older and newer history load at the ends; messages in view are marked read;
// j/k move the selection and r, *, e, +, > act on it.
import { useCallback, useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { ChatMessage, NarrowTerm } from "confab-web";
import { useSession } from "../ui/context";
import { narrowHref } from "../route";
import { conversationName } from "../ui/people";
import { VirtualList, type ScrollRequest, type Viewport } from "../ui/virtual_list";
import { onListAction, type ListAction } from "../ui/keys";
import { openCompose } from "../compose/open";
import { reportRefusal } from "../ui/toast";
import { buildItems, estimatedHeight, messageKey, type Item } from "./items";
import { MessageRow } from "./message_row";
import { destinationOf, quoteAndReply } from "./message_actions";
import { toggleReaction } from "./reactions";
import { useNarrowMessages } from "./use_narrow_messages";
import { useOwnGroupIds } from "./own_groups";

/** How long a message must have been in view before it counts as read. */
const READ_DELAY_MS = 300;

export function MessageList({ narrow, near, onEdit }: { narrow: NarrowTerm[]; near?: number; onEdit: (message: ChatMessage) => void }) {
  const session = useSession();
  const list = useNarrowMessages(session, narrow, near);
  const ownGroupIds = useOwnGroupIds(session);
  const items = useMemo(() => buildItems(list.messages, list.firstUnread), [list.messages, list.firstUnread]);
  const [selected, setSelected] = useState<number>();
  const [scrollRequest, setScrollRequest] = useState<ScrollRequest>();
  const opened = useRef(false);

  // Someone moved (renamed, resolved) the topic being read: follow it, as Zulip does.
  useEffect(() => {
    if (list.movedTo) {
      const { streamId, topic } = list.movedTo;
      location.replace(narrowHref(session, [{ operator: "channel", operand: streamId }, { operator: "topic", operand: topic }]));
    }
  }, [list.movedTo]);

  // Once the first page is in: the message asked for, else the first unread, else the end.
  useEffect(() => {
    if (opened.current || list.loading) return;
    opened.current = true;
    const target = near ?? list.firstUnread;
    const message = target === undefined ? undefined : list.messages.find((m) => m.id === target);
    if (message) {
      setSelected(message.id);
      setScrollRequest({ key: messageKey(message), offset: 80 });
    } else {
      setSelected(list.messages[list.messages.length - 1]?.id);
      setScrollRequest({ bottom: true });
    }
  }, [list.loading]);

  // Reading: what has been in view a moment, while the page is visible, is marked read.
  const seen = useRef(new Set<number>());
  const readTimer = useRef<ReturnType<typeof setTimeout>>();
  const byKey = useMemo(() => new Map(list.messages.map((m) => [messageKey(m), m])), [list.messages]);
  const onViewport = useCallback(
    (viewport: Viewport) => {
      if (viewport.nearTop) list.loadOlder();
      if (viewport.nearBottom) list.loadNewer();
      if (document.visibilityState !== "visible") return;
      for (const key of viewport.visible) {
        const message = byKey.get(key);
        if (message && !message.local_id && !message.flags.includes("read")) seen.current.add(message.id);
      }
      if (seen.current.size > 0 && readTimer.current === undefined) {
        readTimer.current = setTimeout(() => {
          readTimer.current = undefined;
          const ids = [...seen.current];
          seen.current.clear();
          session.client.markRead(ids).catch(reportRefusal);
        }, READ_DELAY_MS);
      }
    },
    [byKey, list.loadOlder, list.loadNewer],
  );
  useEffect(() => () => clearTimeout(readTimer.current), []);

  // Keyboard actions on the selected message.
  const messages = list.messages;
  useEffect(
    () =>
      onListAction((action: ListAction) => {
        const index = messages.findIndex((m) => m.id === selected);
        const message = messages[index];
        const move = (to: number) => {
          const target = messages[Math.max(0, Math.min(messages.length - 1, to))];
          if (!target) return;
          setSelected(target.id);
          setScrollRequest({ key: messageKey(target), offset: 120 });
          requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-vkey="${messageKey(target)}"] article`)?.focus());
        };
        switch (action) {
          case "next":
            return move(index < 0 ? messages.length - 1 : index + 1);
          case "previous":
            return move(index < 0 ? messages.length - 1 : index - 1);
          case "first":
            return move(0);
          case "last":
            return move(messages.length - 1);
        }
        if (!message || message.local_id) return;
        switch (action) {
          case "reply":
            return openCompose({ destination: destinationOf(message, session.userId) });
          case "quote":
            return void quoteAndReply(session, message);
          case "star":
            return void session.client.setStarred(message.id, !message.flags.includes("starred")).catch(reportRefusal);
          case "thumbs_up":
            return toggleReaction(session, message, "+1", "1f44d");
          case "edit":
            return message.sender_id === session.userId ? onEdit(message) : undefined;
        }
      }),
    [messages, selected],
  );

  const select = useCallback((id: number) => setSelected(id), []);
  const render = useCallback(
    (item: Item) => {
      switch (item.kind) {
        case "new":
          return (
            <div class="new-messages-line" role="separator" aria-label="New messages">
              <span>New messages</span>
            </div>
          );
        case "date":
          return <DateDivider timestamp={item.timestamp} />;
        case "recipient":
          return <RecipientHeader message={item.message} />;
        case "message":
          return (
            <MessageRow
              session={session}
              message={item.message}
              continued={item.continued}
              selected={item.message.id === selected && !item.message.local_id}
              ownGroupIds={ownGroupIds}
              onSelect={select}
            />
          );
      }
    },
    [session, selected, ownGroupIds],
  );

  if (list.error && list.messages.length === 0) {
    return (
      <p class="list-note" role="alert">
        Couldn't load messages: {list.error}
      </p>
    );
  }
  return (
    <div class="message-list-wrap">
      {list.loading && <div class="loading-note" role="status">Loading messages…</div>}
      {!list.loading && list.messages.length === 0 && <p class="list-note">No messages here yet.</p>}
      {list.foundOldest && list.messages.length > 0 && <span class="visually-hidden">Start of the conversation</span>}
      <VirtualList
        id="message-list"
        class="message-list"
        label="Message list"
        items={items}
        keyOf={(item) => item.key}
        estimate={estimatedHeight}
        render={render}
        scrollRequest={scrollRequest}
        onViewport={onViewport}
      />
    </div>
  );
}

const dateFormat = new Intl.DateTimeFormat(undefined, { weekday: "short", month: "short", day: "numeric", year: "numeric" });

function DateDivider({ timestamp }: { timestamp: number }) {
  return (
    <div class="date-divider" role="separator">
      <span>{dateFormat.format(new Date(timestamp * 1000))}</span>
    </div>
  );
}

function RecipientHeader({ message }: { message: ChatMessage }) {
  const session = useSession();
  const date = <span class="recipient-date">{dateFormat.format(new Date(message.timestamp * 1000))}</span>;
  if (message.type === "stream") {
    const channel = typeof message.display_recipient === "string" ? message.display_recipient : "";
    const channelNarrow = [{ operator: "channel", operand: message.stream_id! }];
    return (
      <h3 class="recipient-header channel">
        <a href={narrowHref(session, channelNarrow)} class="recipient-channel">
          #{channel}
        </a>
        <span aria-hidden="true"> › </span>
        <a href={narrowHref(session, [...channelNarrow, { operator: "topic", operand: message.subject }])} class="recipient-topic">
          {message.subject || <em>general chat</em>}
        </a>
        {date}
      </h3>
    );
  }
  const ids = Array.isArray(message.display_recipient) ? message.display_recipient.map((r) => r.id) : [];
  const others = ids.filter((id) => id !== session.userId);
  return (
    <h3 class="recipient-header direct">
      <a href={narrowHref(session, [{ operator: "dm", operand: others.length > 0 ? others : [session.userId] }])}>
        You and {conversationName(session, ids)}
      </a>
      {date}
    </h3>
  );
}
