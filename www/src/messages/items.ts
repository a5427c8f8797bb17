// The rows of a message list: messages, with a recipient header where the conversation
// changes, a date divider where the day changes, and the "new messages" line before the first
// message that was unread when the view opened.
import type { ChatMessage } from "confab-web";

export type Item =
  | { kind: "recipient"; key: string; message: ChatMessage }
  | { kind: "date"; key: string; timestamp: number }
  | { kind: "new"; key: string }
  | { kind: "message"; key: string; message: ChatMessage; continued: boolean };

/** Seconds within which a sender's next message in the same conversation drops its name. */
const CONTINUATION_SECONDS = 5 * 60;

export function conversationKey(message: ChatMessage): string {
  if (message.type === "stream") return `s${message.stream_id}\u0000${message.subject.toLowerCase()}`;
  const ids = Array.isArray(message.display_recipient) ? message.display_recipient.map((r) => r.id) : [];
  return `d${ids.sort((a, b) => a - b).join(",")}`;
}

export function messageKey(message: ChatMessage): string {
  return message.local_id ? `local-${message.local_id}` : `m${message.id}`;
}

function day(timestamp: number): string {
  const date = new Date(timestamp * 1000);
  return `${date.getFullYear()}-${date.getMonth()}-${date.getDate()}`;
}

export function buildItems(messages: readonly ChatMessage[], newLineBefore: number | undefined): Item[] {
  const items: Item[] = [];
  let previous: ChatMessage | undefined;
  for (const message of messages) {
    const conversation = conversationKey(message);
    const newConversation = !previous || conversationKey(previous) !== conversation;
    const newDay = !previous || day(previous.timestamp) !== day(message.timestamp);
    if (newLineBefore !== undefined && message.id === newLineBefore && !message.local_id) {
      items.push({ kind: "new", key: "new-messages" });
    }
    if (newConversation) {
      items.push({ kind: "recipient", key: `r${messageKey(message)}`, message });
    } else if (newDay) {
      items.push({ kind: "date", key: `d${messageKey(message)}`, timestamp: message.timestamp });
    }
    const continued =
      !newConversation &&
      !newDay &&
      previous !== undefined &&
      previous.sender_id === message.sender_id &&
      message.timestamp - previous.timestamp < CONTINUATION_SECONDS;
    items.push({ kind: "message", key: messageKey(message), message, continued });
    previous = message;
  }
  return items;
}

/** Rough heights before a row is measured. */
export function estimatedHeight(item: Item): number {
  switch (item.kind) {
    case "recipient":
      return 34;
    case "date":
      return 28;
    case "new":
      return 22;
    case "message":
      return item.continued ? 30 : 56;
  }
}
