// A message's reactions, one button per emoji with its count; the user's own are pressed, and
// pressing toggles. The engine shows the change at once and undoes it if the server refuses.
import type { ChatMessage, ChatReaction } from "confab-web";
import type { Session } from "../session/session";
import { userName } from "../ui/people";
import { EmojiGlyph } from "./emoji_glyph";
import { reportRefusal } from "../ui/toast";

type Group = { emoji_name: string; emoji_code: string; reaction_type: string; userIds: number[] };

function groups(reactions: ChatReaction[]): Group[] {
  const byEmoji = new Map<string, Group>();
  for (const reaction of reactions) {
    const key = `${reaction.reaction_type}:${reaction.emoji_code}`;
    let group = byEmoji.get(key);
    if (!group) {
      group = { emoji_name: reaction.emoji_name, emoji_code: reaction.emoji_code, reaction_type: reaction.reaction_type, userIds: [] };
      byEmoji.set(key, group);
    }
    group.userIds.push(reaction.user_id);
  }
  return [...byEmoji.values()];
}

export function toggleReaction(session: Session, message: ChatMessage, emojiName: string, emojiCode?: string) {
  const mine = message.reactions.some(
    (r) => r.user_id === session.userId && (r.emoji_name === emojiName || (emojiCode !== undefined && r.emoji_code === emojiCode)),
  );
  const operation = mine ? session.client.removeReaction(message.id, emojiName) : session.client.addReaction(message.id, emojiName);
  operation.catch(reportRefusal);
}

export function Reactions({ session, message }: { session: Session; message: ChatMessage }) {
  if (message.reactions.length === 0) return null;
  return (
    <div class="reactions" role="group" aria-label="Reactions">
      {groups(message.reactions).map((group) => {
        const mine = group.userIds.includes(session.userId);
        const names = group.userIds.map((id) => (id === session.userId ? "You" : userName(session, id))).join(", ");
        return (
          <button
            type="button"
            key={group.emoji_code}
            class={`reaction ${mine ? "mine" : ""}`}
            aria-pressed={mine}
            aria-label={`${group.emoji_name}: ${names}`}
            title={`${names} reacted with :${group.emoji_name}:`}
            onClick={() => toggleReaction(session, message, group.emoji_name, group.emoji_code)}
          >
            <EmojiGlyph session={session} name={group.emoji_name} code={group.emoji_code} type={group.reaction_type} />
            <span class="reaction-count">{group.userIds.length}</span>
          </button>
        );
      })}
    </div>
  );
}
