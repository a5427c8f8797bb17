// The emoji picker: search the engine's catalogue (unicode and the organization's own), pick
// with a click or the keyboard.
import { useMemo, useState } from "preact/hooks";
import type { EmojiChoice } from "confab-web";
import type { Session } from "../session/session";
import { Modal } from "../ui/modal";
import { EmojiGlyph } from "./emoji_glyph";

const FREQUENT = ["+1", "tada", "smile", "heart", "working_on_it", "octopus", "joy", "eyes"];

export function EmojiPicker({ session, onPick, onClose }: { session: Session; onPick: (emoji: EmojiChoice) => void; onClose: () => void }) {
  const [query, setQuery] = useState("");
  const choices = useMemo(() => {
    if (query.trim()) return session.client.completeEmoji(query.trim(), 120);
    const frequent = FREQUENT.flatMap((name) => session.client.completeEmoji(name, 1).filter((e) => e.name === name));
    const rest = session.client.completeEmoji("", 240).filter((e) => !FREQUENT.includes(e.name));
    return [...frequent, ...rest];
  }, [session, query]);
  return (
    <Modal title="Add a reaction" onClose={onClose} class="emoji-picker">
      <input
        type="search"
        class="emoji-search"
        aria-label="Search emoji"
        placeholder="Search emoji"
        value={query}
        autoFocus
        onInput={(e) => setQuery(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && choices[0]) {
            e.preventDefault();
            onPick(choices[0]);
          }
        }}
      />
      <div class="emoji-grid" role="listbox" aria-label="Emoji">
        {choices.map((emoji) => (
          <button
            type="button"
            role="option"
            aria-selected="false"
            key={`${emoji.reaction_type}:${emoji.code}:${emoji.name}`}
            class="emoji-choice"
            title={`:${emoji.name}:`}
            aria-label={emoji.name.replaceAll("_", " ")}
            onClick={() => onPick(emoji)}
          >
            <EmojiGlyph session={session} name={emoji.name} code={emoji.code} type={emoji.reaction_type} />
          </button>
        ))}
        {choices.length === 0 && <p class="empty">No emoji match “{query}”.</p>}
      </div>
    </Modal>
  );
}
