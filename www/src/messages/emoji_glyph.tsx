// An emoji as the reader sees it: the character for unicode emoji, the image for custom ones.
import type { Session } from "../session/session";
import { emojiCharacter } from "./content";
import { realmEmoji } from "../ui/realm_emoji";

export function EmojiGlyph({ session, name, code, type }: { session: Session; name: string; code: string; type: string }) {
  if (type === "unicode_emoji") {
    return (
      <span class="emoji-glyph" aria-hidden="true">
        {emojiCharacter(code) ?? `:${name}:`}
      </span>
    );
  }
  const source = realmEmoji(session)[code]?.source_url;
  if (type === "realm_emoji" && source) return <img class="emoji-glyph" src={source} alt="" width={18} height={18} />;
  return <span class="emoji-glyph">:{name}:</span>;
}
