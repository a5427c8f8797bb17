// Browser notifications for new direct messages and mentions, as Zulip's web app shows them:
// when the user allowed them (`Notification.permission` and the `enable_desktop_notifications`
// setting), not for the user's own messages, and not for a message the user is looking at.
//
// Which messages are direct or mention the user is the engine's to say: it keeps the narrows
// `is:dm` and `is:mentioned` cached once asked for (connected: before the first register it
// cannot resolve them), and reports their key in `Changes.narrows` when a message joins them.
// On such a change, or a new message id beyond the last seen, the newest few come from the
// cache (or the server, if the engine dropped the window); those newer than the last seen are
// new. Nothing is asked while notifications are off.
import { useEffect } from "preact/hooks";
import type { ChatMessage, NarrowTerm } from "confab-web";
import type { Session } from "../session/session";
import { narrowHref } from "../route";
import { useSession } from "./context";

const WATCHED: NarrowTerm[][] = [[{ operator: "is", operand: "dm" }], [{ operator: "is", operand: "mentioned" }]];
/** Newest messages read per change (more new ones at once are summed up by the last). */
const NEWEST = 10;
/** Characters of the message's text in the notification (Zulip's web app shows 150). */
const BODY_LENGTH = 150;

type Watch = {
  narrow: NarrowTerm[];
  key: string;
  /** The newest message id checked: later ones in the narrow are new. */
  newest?: number;
  /** The highest message id the engine reported. */
  seen: number;
  reading: boolean;
  again: boolean;
};

function permitted(session: Session): boolean {
  if (typeof Notification === "undefined" || Notification.permission !== "granted") return false;
  return session.client.ownSettings().enable_desktop_notifications !== false;
}

/** Whether the message is on screen in a window the user is looking at. */
function inView(message: ChatMessage): boolean {
  if (document.visibilityState !== "visible" || !document.hasFocus()) return false;
  const row = document.querySelector(`[data-message-id="${message.id}"]`);
  if (!row) return false;
  const box = row.getBoundingClientRect();
  return box.bottom > 0 && box.top < innerHeight;
}

function plainText(html: string): string {
  const text = new DOMParser().parseFromString(html, "text/html").body.textContent ?? "";
  const collapsed = text.replace(/\s+/g, " ").trim();
  return collapsed.length > BODY_LENGTH ? `${collapsed.slice(0, BODY_LENGTH - 1)}…` : collapsed;
}

/** The conversation a message is in, as a narrow. */
function conversationNarrow(session: Session, message: ChatMessage): NarrowTerm[] {
  if (message.type === "stream" && message.stream_id !== undefined) {
    return [
      { operator: "channel", operand: message.stream_id },
      { operator: "topic", operand: message.subject },
    ];
  }
  const recipients = Array.isArray(message.display_recipient) ? message.display_recipient.map((user) => user.id) : [];
  const others = recipients.filter((id) => id !== session.userId);
  return [{ operator: "dm", operand: others.length > 0 ? others : [session.userId] }];
}

function notify(session: Session, message: ChatMessage) {
  const narrow = conversationNarrow(session, message);
  let title = message.sender_full_name;
  if (message.type === "stream") {
    title += ` (#${typeof message.display_recipient === "string" ? message.display_recipient : ""} > ${message.subject || "general chat"})`;
  } else if (Array.isArray(message.display_recipient) && message.display_recipient.length > 2) {
    title += " (to you and others)";
  }
  const notification = new Notification(title, {
    body: plainText(message.content),
    icon: message.avatar_url ?? undefined,
    // One notification per conversation: a newer message replaces the older one.
    tag: JSON.stringify(narrow),
  });
  notification.onclick = () => {
    notification.close();
    window.focus();
    location.hash = narrowHref(session, narrow);
  };
}

export function useNotifications(): void {
  const session = useSession();
  useEffect(() => {
    if (typeof Notification === "undefined") return;
    let closed = false;
    const watches: Watch[] = WATCHED.map((narrow) => ({
      narrow,
      key: session.client.narrowKey(narrow),
      seen: 0,
      reading: false,
      again: false,
    }));

    // Reads the newest messages of a watched narrow; the first read only notes where "new" starts.
    const read = async (watch: Watch) => {
      if (watch.newest === undefined && session.client.connection() !== "connected") return;
      if (watch.reading) {
        watch.again = true;
        return;
      }
      watch.reading = true;
      try {
        do {
          watch.again = false;
          // Every message up to here is in the engine's state now: one not in the narrow's
          // newest is not in the narrow.
          const seen = watch.seen;
          const page = await session.client.messages(watch.narrow, "newest", NEWEST, 0);
          if (closed) return;
          const received = page.messages.filter((message) => message.local_id === undefined);
          const newest = received.reduce((max, message) => Math.max(max, message.id), Math.max(watch.newest ?? 0, seen));
          if (watch.newest !== undefined && permitted(session)) {
            for (const message of received) {
              if (message.id <= watch.newest || message.sender_id === session.userId) continue;
              if (message.flags.includes("read") || inView(message)) continue;
              notify(session, message);
            }
          }
          watch.newest = newest;
        } while (watch.again && !closed);
      } catch {
        // Offline: the next change (the connection coming back) tries again.
      } finally {
        watch.reading = false;
      }
    };

    const check = () => {
      if (!permitted(session)) {
        // Off: nothing is read, and turning them on later starts from the messages then.
        for (const watch of watches) watch.newest = undefined;
        return;
      }
      for (const watch of watches) if (watch.newest === undefined) void read(watch);
    };

    const unsubscribe = session.onChange((changes) => {
      if (changes.resync) {
        // Messages missed while the queue was lost are not announced.
        for (const watch of watches) watch.newest = undefined;
      }
      if (!permitted(session)) {
        check();
        return;
      }
      const top = changes.messages.reduce((max, id) => Math.max(max, id), 0);
      for (const watch of watches) {
        const unseen = watch.newest !== undefined && top > watch.newest;
        watch.seen = Math.max(watch.seen, top);
        if (watch.newest === undefined || unseen || changes.narrows.includes(watch.key)) void read(watch);
      }
    });
    check();

    return () => {
      closed = true;
      unsubscribe();
    };
  }, [session]);
}
