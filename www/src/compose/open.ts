// Asking the compose box to open from anywhere (reply, quote, a draft, a keyboard shortcut),
// without the caller holding a reference to it.
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

const EVENT = "confab:compose";

export function openCompose(request: ComposeRequest = {}) {
  dispatchEvent(new CustomEvent<ComposeRequest>(EVENT, { detail: request }));
}

export function onComposeRequest(listener: (request: ComposeRequest) => void): () => void {
  const handler = (event: Event) => listener((event as CustomEvent<ComposeRequest>).detail);
  addEventListener(EVENT, handler);
  return () => removeEventListener(EVENT, handler);
}
