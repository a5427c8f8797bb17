// A message's Markdown source, which editing and quoting need (the engine keeps the HTML).
import type { Session } from "../session/session";

export async function rawContent(session: Session, messageId: number): Promise<string> {
  const reply = await session.request<{ message?: { content?: string }; raw_content?: string }>("GET", `/messages/${messageId}`, {
    apply_markdown: false,
  });
  return reply.message?.content ?? reply.raw_content ?? "";
}

/** Zulip's quote-and-reply: a mention of the sender linking the message, then the text fenced. */
export function quoteBlock(senderName: string, senderId: number, link: string, content: string): string {
  const fence = content.includes("```") ? "````" : "```";
  return `@_**${senderName}|${senderId}** [said](${link}):\n${fence}quote\n${content}\n${fence}\n`;
}
