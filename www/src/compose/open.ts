// Asking the compose box to open from anywhere (reply, quote, a draft, a keyboard shortcut),
// without the caller holding a reference to it. A request made while no compose box is shown
// (a draft restored from the Drafts view, on its way to the draft's conversation) waits for
// the next compose box to mount.
import type { Destination } from "confab-web";

export type ComposeRequest = {
  /** Where to send; undefined opens a new conversation with the current narrow's defaults. */
  destination?: Destination;
  /** Text to start with (a quote, a draft's content). */
  content?: string;
  /** Text to add at the cursor, keeping what is already written (a quote). */
  insert?: string;
  /** The draft being continued, so that sending deletes it. */
  draftId?: number;
};

type Listener = (request: ComposeRequest) => void;

const listeners = new Set<Listener>();
let waiting: ComposeRequest | undefined;

export function openCompose(request: ComposeRequest = {}) {
  if (listeners.size === 0) {
    waiting = request;
    return;
  }
  for (const listener of listeners) listener(request);
}

export function onComposeRequest(listener: Listener): () => void {
  listeners.add(listener);
  if (waiting) {
    const request = waiting;
    waiting = undefined;
    listener(request);
  }
  return () => listeners.delete(listener);
}
