// Deleting a message, after a confirmation.
import type { ChatMessage } from "confab-web";
import type { Session } from "../session/session";
import { Modal } from "../ui/modal";
import { reportRefusal } from "../ui/toast";

export function DeleteMessage({ session, message, onClose }: { session: Session; message: ChatMessage; onClose: () => void }) {
  return (
    <Modal title="Delete message?" onClose={onClose}>
      <p>Deleting a message removes it for everyone. This cannot be undone.</p>
      <div class="form-buttons">
        <button type="button" onClick={onClose} autoFocus>
          Cancel
        </button>
        <button
          type="button"
          class="danger primary"
          onClick={() => {
            session.client.deleteMessage(message.id).catch(reportRefusal);
            onClose();
          }}
        >
          Delete
        </button>
      </div>
    </Modal>
  );
}
