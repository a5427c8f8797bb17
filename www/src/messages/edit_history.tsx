// A message's edit history (`GET /messages/{id}/history`): each version, its author and time,
// and what changed of the topic.
import { useEffect, useState } from "preact/hooks";
import type { ChatMessage } from "confab-web";
import type { Session } from "../session/session";
import { errorText } from "../session/api";
import { Modal } from "../ui/modal";
import { userName } from "../ui/people";

type Version = {
  user_id?: number | null;
  timestamp: number;
  topic?: string;
  prev_topic?: string;
  rendered_content?: string;
  prev_rendered_content?: string;
  stream?: number;
  prev_stream?: number;
};

const format = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

export function EditHistory({ session, message, onClose }: { session: Session; message: ChatMessage; onClose: () => void }) {
  const [versions, setVersions] = useState<Version[]>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    session
      .request<{ message_history: Version[] }>("GET", `/messages/${message.id}/history`)
      .then((reply) => setVersions(reply.message_history), (failure) => setError(errorText(failure)));
  }, [session, message.id]);
  return (
    <Modal title="Message edit history" onClose={onClose} class="edit-history">
      {error && (
        <p class="form-error" role="alert">
          {error}
        </p>
      )}
      {!versions && !error && <p>Loading…</p>}
      <ol class="versions">
        {versions?.map((version, index) => (
          <li key={index}>
            <p class="version-meta">
              {index === 0 ? "Original" : "Edited"}
              {version.user_id ? ` by ${userName(session, version.user_id)}` : ""} · {format.format(new Date(version.timestamp * 1000))}
            </p>
            {version.prev_topic !== undefined && (
              <p class="topic-change">
                Topic: <del>{version.prev_topic}</del> → <ins>{version.topic}</ins>
              </p>
            )}
            {version.rendered_content && (index === 0 || version.prev_rendered_content !== undefined) && (
              <div class="rendered_markdown" dangerouslySetInnerHTML={{ __html: version.rendered_content }} />
            )}
          </li>
        ))}
      </ol>
    </Modal>
  );
}
