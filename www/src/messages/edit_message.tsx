// Editing a message's text (and, for a channel message, its topic): the change shows at once
// and is undone, with the server's reason, if the server refuses.
import { useEffect, useState } from "preact/hooks";
import type { ChatMessage } from "confab-web";
import type { Session } from "../session/session";
import { errorText } from "../session/api";
import { Modal } from "../ui/modal";
import { reportRefusal } from "../ui/toast";
import { rawContent } from "./raw_content";

export function EditMessage({ session, message, onClose }: { session: Session; message: ChatMessage; onClose: () => void }) {
  const [content, setContent] = useState<string>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    rawContent(session, message.id).then(setContent, (failure) => setError(errorText(failure)));
  }, [session, message.id]);

  function save(event: Event) {
    event.preventDefault();
    if (content === undefined) return;
    if (!content.trim()) {
      setError("A message cannot be empty; delete it instead.");
      return;
    }
    session.client.editMessage(message.id, { content }).catch(reportRefusal);
    onClose();
  }

  return (
    <Modal title="Edit message" onClose={onClose}>
      <form class="edit-form" onSubmit={save}>
        {content === undefined && !error && <p>Loading the message…</p>}
        {content !== undefined && (
          <textarea
            aria-label="Message text"
            value={content}
            rows={Math.min(16, content.split("\n").length + 2)}
            autoFocus
            onInput={(e) => setContent(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) save(e);
            }}
          />
        )}
        {content !== undefined && (
          <div class="preview rendered_markdown" aria-label="Preview" dangerouslySetInnerHTML={{ __html: session.client.renderPreview(content).html }} />
        )}
        {error && (
          <p class="form-error" role="alert">
            {error}
          </p>
        )}
        <div class="form-buttons">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" class="primary" disabled={content === undefined}>
            Save
          </button>
        </div>
      </form>
    </Modal>
  );
}
