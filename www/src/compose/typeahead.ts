// Autocomplete in the message text: what is being typed before the cursor (`@name`, `#channel`,
// `:emoji`), the engine's matches for it, and the Markdown each match inserts.
import type { Session } from "../session/session";

export type Completion = { key: string; label: string; detail?: string; insert: string; emoji?: { name: string; code: string; type: string } };
export type Token = { kind: "mention" | "channel" | "emoji"; query: string; start: number };

/** The token ending at the cursor, if the text there is one (Zulip's composebox_typeahead rules). */
export function tokenAt(text: string, cursor: number): Token | undefined {
  const before = text.slice(0, cursor);
  const mention = /(^|\s|\()@(_?)(\*\*)?([^\s@*]*(?: [^\s@*]+)?)$/.exec(before);
  if (mention) return { kind: "mention", query: mention[4], start: before.length - mention[0].length + mention[1].length };
  const channel = /(^|\s|\()#(\*\*)?([^\s#*]*(?: [^\s#*]+)?)$/.exec(before);
  if (channel) return { kind: "channel", query: channel[3], start: before.length - channel[0].length + channel[1].length };
  const emoji = /(^|\s|\():([a-z0-9_+-]{2,})$/i.exec(before);
  if (emoji) return { kind: "emoji", query: emoji[2], start: before.length - emoji[0].length + emoji[1].length };
  return undefined;
}

export function completions(session: Session, token: Token, limit = 8): Completion[] {
  switch (token.kind) {
    case "mention":
      return session.client.completeUsers(token.query, limit).map((user) => ({
        key: `u${user.user_id}`,
        label: user.full_name,
        detail: user.email,
        insert: `@**${user.full_name}|${user.user_id}** `,
      }));
    case "channel":
      return session.client.completeChannels(token.query, limit).map((channel) => ({
        key: `c${channel.stream_id}`,
        label: `#${channel.name}`,
        detail: channel.description,
        insert: `#**${channel.name}** `,
      }));
    case "emoji":
      return session.client.completeEmoji(token.query, limit).map((emoji) => ({
        key: `e${emoji.reaction_type}${emoji.code}${emoji.name}`,
        label: `:${emoji.name}:`,
        insert: `:${emoji.name}: `,
        emoji: { name: emoji.name, code: emoji.code, type: emoji.reaction_type },
      }));
  }
}

/** The text with the token replaced by the completion, and where the cursor goes. */
export function applyCompletion(text: string, cursor: number, token: Token, completion: Completion): { text: string; cursor: number } {
  const silent = token.kind === "mention" && text.slice(token.start, token.start + 2) === "@_";
  const insert = silent ? completion.insert.replace(/^@/, "@_") : completion.insert;
  const next = text.slice(0, token.start) + insert + text.slice(cursor);
  return { text: next, cursor: token.start + insert.length };
}
