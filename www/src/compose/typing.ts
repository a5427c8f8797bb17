// Typing notices as Zulip's web app sends them: `start` when typing begins and again every
// 10 seconds while it goes on, `stop` after 5 seconds without a keystroke or when the message
// goes out.
import type { Destination } from "confab-web";
import type { Session } from "../session/session";

const REPEAT_MS = 10_000;
const IDLE_MS = 5_000;

export class TypingNotifier {
  private lastStart = 0;
  private idle: ReturnType<typeof setTimeout> | undefined;
  private current: Destination | undefined;

  constructor(private readonly session: Session) {}

  keystroke(destination: Destination | undefined) {
    if (!destination) return;
    const now = Date.now();
    if (this.current && JSON.stringify(this.current) !== JSON.stringify(destination)) this.stop();
    if (!this.current || now - this.lastStart > REPEAT_MS) {
      this.current = destination;
      this.lastStart = now;
      this.send("start", destination);
    }
    clearTimeout(this.idle);
    this.idle = setTimeout(() => this.stop(), IDLE_MS);
  }

  stop() {
    clearTimeout(this.idle);
    if (this.current) this.send("stop", this.current);
    this.current = undefined;
    this.lastStart = 0;
  }

  private send(op: "start" | "stop", destination: Destination) {
    const params =
      destination.type === "channel"
        ? { op, type: "stream", stream_id: destination.stream_id, topic: destination.topic }
        : { op, type: "direct", to: destination.user_ids };
    this.session.request("POST", "/typing", params).catch(() => undefined);
  }
}
