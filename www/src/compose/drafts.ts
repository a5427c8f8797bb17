// Drafts kept on the server (`/drafts`), so an unsent message survives closing the compose
// box, the page, or the device: created once, then updated as the text changes.
import type { Destination } from "confab-web";
import type { Session } from "../session/session";

function draftBody(destination: Destination, content: string) {
  return destination.type === "channel"
    ? { type: "stream", to: [destination.stream_id], topic: destination.topic, content, timestamp: Math.floor(Date.now() / 1000) }
    : { type: "private", to: destination.user_ids, topic: "", content, timestamp: Math.floor(Date.now() / 1000) };
}

export async function saveDraft(session: Session, id: number | undefined, destination: Destination, content: string): Promise<number | undefined> {
  const draft = draftBody(destination, content);
  if (id !== undefined) {
    await session.request("PATCH", `/drafts/${id}`, { draft });
    return id;
  }
  const reply = await session.request<{ ids: number[] }>("POST", "/drafts", { drafts: [draft] });
  return reply.ids[0];
}

export function deleteDraft(session: Session, id: number): Promise<unknown> {
  return session.request("DELETE", `/drafts/${id}`).catch(() => undefined);
}
