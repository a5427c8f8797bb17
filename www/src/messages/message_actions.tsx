// A message's actions: react, reply, star, and a menu with quote, edit, history, move or
// rename the topic, resolve, copy link and delete, offered as the engine says the user may.
import { useState } from "preact/hooks";
import type { ChatMessage, Destination } from "confab-web";
import type { Session } from "../session/session";
import { openCompose } from "../compose/open";
import { reportRefusal, showToast } from "../ui/toast";
import { EmojiPicker } from "./emoji_picker";
import { EditMessage } from "./edit_message";
import { EditHistory } from "./edit_history";
import { MoveTopic } from "./move_topic";
import { DeleteMessage } from "./delete_message";
import { quoteBlock, rawContent } from "./raw_content";
import { toggleReaction } from "./reactions";

type Dialog = "react" | "edit" | "history" | "move" | "delete" | undefined;

export const RESOLVED_PREFIX = "✔ ";

export function destinationOf(message: ChatMessage, ownId: number): Destination {
  if (message.type === "stream") return { type: "channel", stream_id: message.stream_id!, topic: message.subject };
  const ids = Array.isArray(message.display_recipient) ? message.display_recipient.map((r) => r.id) : [];
  const others = ids.filter((id) => id !== ownId);
  return { type: "direct", user_ids: others.length > 0 ? others : [ownId] };
}

export function messageLink(session: Session, message: ChatMessage): string {
  const narrow =
    message.type === "stream"
      ? [
          { operator: "channel", operand: message.stream_id! },
          { operator: "topic", operand: message.subject },
          { operator: "near", operand: message.id },
        ]
      : [
          { operator: "dm", operand: (destinationOf(message, session.userId) as { user_ids: number[] }).user_ids },
          { operator: "near", operand: message.id },
        ];
  return `${location.origin}/${session.client.narrowToHash(narrow)}`;
}

export async function quoteAndReply(session: Session, message: ChatMessage) {
  try {
    const content = await rawContent(session, message.id);
    openCompose({
      destination: destinationOf(message, session.userId),
      insert: quoteBlock(message.sender_full_name, message.sender_id, messageLink(session, message), content),
    });
  } catch (error) {
    reportRefusal(error);
  }
}

export function MessageActions({ session, message }: { session: Session; message: ChatMessage }) {
  const [dialog, setDialog] = useState<Dialog>();
  const [menuOpen, setMenuOpen] = useState(false);
  const starred = message.flags.includes("starred");
  const close = () => setDialog(undefined);
  const open = (which: Dialog) => {
    setMenuOpen(false);
    setDialog(which);
  };
  const allowed = menuOpen || dialog ? session.client.messageActions(message.id) : undefined;
  const resolved = message.subject.startsWith(RESOLVED_PREFIX);

  return (
    <div class="message-actions">
      <div class="message-toolbar" role="toolbar" aria-label="Message actions">
        <button type="button" class="icon-button" aria-label="Add reaction" title="Add reaction" onClick={() => open("react")}>
          ☺
        </button>
        <button
          type="button"
          class="icon-button"
          aria-label="Reply"
          title="Reply (r)"
          onClick={() => openCompose({ destination: destinationOf(message, session.userId) })}
        >
          ↩
        </button>
        <button
          type="button"
          class={`icon-button ${starred ? "active" : ""}`}
          aria-label={starred ? "Unstar" : "Star"}
          aria-pressed={starred}
          title="Star (*)"
          onClick={() => session.client.setStarred(message.id, !starred).catch(reportRefusal)}
        >
          {starred ? "★" : "☆"}
        </button>
        <button
          type="button"
          class="icon-button"
          aria-label="More actions"
          aria-haspopup="menu"
          aria-expanded={menuOpen}
          onClick={() => setMenuOpen(!menuOpen)}
        >
          ⋯
        </button>
      </div>
      {menuOpen && allowed && (
        <div class="menu message-menu" role="menu" onKeyDown={(e) => e.key === "Escape" && setMenuOpen(false)}>
          <button type="button" role="menuitem" onClick={() => (setMenuOpen(false), void quoteAndReply(session, message))}>
            Quote and reply
          </button>
          {allowed.edit && (
            <button type="button" role="menuitem" onClick={() => open("edit")}>
              Edit message
            </button>
          )}
          {message.last_edit_timestamp !== undefined && (
            <button type="button" role="menuitem" onClick={() => open("history")}>
              Edit history
            </button>
          )}
          {message.type === "stream" && allowed.moveTopic && (
            <button type="button" role="menuitem" onClick={() => open("move")}>
              Move or rename topic
            </button>
          )}
          {message.type === "stream" && allowed.resolve && (
            <button
              type="button"
              role="menuitem"
              onClick={() => {
                setMenuOpen(false);
                const topic = resolved ? message.subject.slice(RESOLVED_PREFIX.length) : RESOLVED_PREFIX + message.subject;
                session.client.editMessage(message.id, { topic, propagateMode: "change_all" }).catch(reportRefusal);
              }}
            >
              {resolved ? "Mark as unresolved" : "Mark as resolved"}
            </button>
          )}
          <button
            type="button"
            role="menuitem"
            onClick={() => {
              setMenuOpen(false);
              void navigator.clipboard?.writeText(messageLink(session, message)).then(() => showToast("Link copied."));
            }}
          >
            Copy link to message
          </button>
          {allowed.delete && (
            <button type="button" role="menuitem" class="danger" onClick={() => open("delete")}>
              Delete message
            </button>
          )}
        </div>
      )}
      {dialog === "react" && (
        <EmojiPicker
          session={session}
          onPick={(emoji) => {
            close();
            toggleReaction(session, message, emoji.name, emoji.code);
          }}
          onClose={close}
        />
      )}
      {dialog === "edit" && <EditMessage session={session} message={message} onClose={close} />}
      {dialog === "history" && <EditHistory session={session} message={message} onClose={close} />}
      {dialog === "move" && <MoveTopic session={session} message={message} onClose={close} />}
      {dialog === "delete" && <DeleteMessage session={session} message={message} onClose={close} />}
    </div>
  );
}
