// Drafts kept on the server (`/drafts`), so an unsent message survives closing the compose
// box, the page, or the device. One DraftKeeper follows one compose box: the draft is created
// once, then updated as the text changes, and deleted when the message is sent. Requests go
// one after another, so a deletion never overtakes the creation it deletes.
import type { Destination } from "confab-web";
import type { Session } from "../session/session";

/** How long typing must pause before the draft is saved. */
const SAVE_DELAY_MS = 2_000;

function draftBody(destination: Destination, content: string) {
  const timestamp = Math.floor(Date.now() / 1000);
  return destination.type === "channel"
    ? { type: "stream", to: [destination.stream_id], topic: destination.topic, content, timestamp }
    : { type: "private", to: destination.user_ids, topic: "", content, timestamp };
}

export class DraftKeeper {
  private id: number | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly session: Session) {}

  /** The compose box continues an existing draft. */
  continue(id: number | undefined) {
    this.id = id;
  }

  /** Saves the text once typing pauses. */
  schedule(destination: Destination | undefined, content: string) {
    clearTimeout(this.timer);
    if (!destination || !content.trim()) return;
    this.timer = setTimeout(() => this.save(destination, content), SAVE_DELAY_MS);
  }

  /** Saves the text now (the box is closing) and lets the draft go: the next text is a new one. */
  putAway(destination: Destination | undefined, content: string) {
    clearTimeout(this.timer);
    if (destination && content.trim()) this.save(destination, content);
    this.enqueue(async () => {
      this.id = undefined;
    });
  }

  /** The message went out: its draft, saved or being saved, is deleted. */
  sent() {
    clearTimeout(this.timer);
    this.enqueue(async () => {
      if (this.id !== undefined) await this.session.request("DELETE", `/drafts/${this.id}`);
      this.id = undefined;
    });
  }

  private save(destination: Destination, content: string) {
    this.enqueue(async () => {
      const draft = draftBody(destination, content);
      if (this.id !== undefined) {
        await this.session.request("PATCH", `/drafts/${this.id}`, { draft });
      } else {
        const reply = await this.session.request<{ ids: number[] }>("POST", "/drafts", { drafts: [draft] });
        this.id = reply.ids[0];
      }
    });
  }

  private enqueue(work: () => Promise<void>) {
    // A failed save (offline) is not retried: the text is still in the box.
    this.queue = this.queue.then(work).catch(() => undefined);
  }
}
