// Renaming a topic (moving its messages to another topic of the channel): this message only,
// it and later ones, or the whole topic.
import { useState } from "preact/hooks";
import type { ChatMessage, PropagateMode } from "confab-web";
import type { Session } from "../session/session";
import { Modal } from "../ui/modal";
import { reportRefusal } from "../ui/toast";

export function MoveTopic({ session, message, onClose }: { session: Session; message: ChatMessage; onClose: () => void }) {
  const [topic, setTopic] = useState(message.subject);
  const [mode, setMode] = useState<PropagateMode>("change_all");
  function save(event: Event) {
    event.preventDefault();
    session.client.editMessage(message.id, { topic: topic.trim(), propagateMode: mode }).catch(reportRefusal);
    onClose();
  }
  return (
    <Modal title="Move or rename topic" onClose={onClose}>
      <form class="move-form" onSubmit={save}>
        <label>
          New topic name
          <input value={topic} autoFocus onInput={(e) => setTopic(e.currentTarget.value)} maxLength={60} />
        </label>
        <label>
          Which messages
          <select value={mode} onChange={(e) => setMode(e.currentTarget.value as PropagateMode)}>
            <option value="change_all">The whole topic</option>
            <option value="change_later">This message and later ones</option>
            <option value="change_one">Only this message</option>
          </select>
        </label>
        <div class="form-buttons">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" class="primary" disabled={topic.trim() === message.subject}>
            Move
          </button>
        </div>
      </form>
    </Modal>
  );
}
