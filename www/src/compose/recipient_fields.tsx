// Where a message goes: a channel and a topic, or people, each field with the engine's
// autocomplete.
import { useState } from "preact/hooks";
import { useSession } from "../ui/context";
import { Combobox } from "../ui/combobox";
import { userName } from "../ui/people";
import { channelById, subscribedChannels } from "../ui/channels";

export type Recipient = { mode: "channel"; streamId: number | undefined; topic: string } | { mode: "direct"; userIds: number[] };

export function RecipientFields({ recipient, onChange }: { recipient: Recipient; onChange: (recipient: Recipient) => void }) {
  const session = useSession();
  const channelName = (id: number | undefined) => (id === undefined ? "" : channelById(session, id)?.name ?? "");
  const [channelText, setChannelText] = useState(recipient.mode === "channel" ? channelName(recipient.streamId) : "");
  const [personText, setPersonText] = useState("");
  const [shownFor, setShownFor] = useState(recipient);
  if (shownFor !== recipient) {
    // The recipient was set from outside (a reply): show its channel's name.
    setShownFor(recipient);
    if (recipient.mode === "channel" && channelName(recipient.streamId) !== channelText) setChannelText(channelName(recipient.streamId));
  }

  return (
    <div class="recipient-fields">
      <div class="mode-switch" role="radiogroup" aria-label="Send to">
        <label>
          <input
            type="radio"
            name="compose-mode"
            checked={recipient.mode === "channel"}
            onChange={() => onChange({ mode: "channel", streamId: undefined, topic: "" })}
          />
          Channel
        </label>
        <label>
          <input type="radio" name="compose-mode" checked={recipient.mode === "direct"} onChange={() => onChange({ mode: "direct", userIds: [] })} />
          Direct message
        </label>
      </div>
      {recipient.mode === "channel" ? (
        <>
          <Combobox
            id="compose-channel"
            label="Channel"
            placeholder="Channel"
            value={channelText}
            options={(query) =>
              session.client.completeChannels(query, 8).map((c) => ({ key: String(c.stream_id), label: c.name, detail: c.description }))
            }
            onInput={(text) => {
              setChannelText(text);
              const exact = subscribedChannels(session).find((c) => c.name.toLowerCase() === text.trim().toLowerCase());
              onChange({ ...recipient, streamId: exact?.stream_id });
            }}
            onPick={(option) => {
              setChannelText(option.label);
              onChange({ ...recipient, streamId: Number(option.key) });
            }}
          />
          <span class="recipient-separator" aria-hidden="true">
            ›
          </span>
          <Combobox
            id="compose-topic"
            label="Topic"
            placeholder="Topic"
            value={recipient.topic}
            options={(query) =>
              recipient.streamId === undefined
                ? []
                : session.client.completeTopics(recipient.streamId, query, 8).map((topic) => ({ key: topic, label: topic }))
            }
            onInput={(topic) => onChange({ ...recipient, topic })}
            onPick={(option) => onChange({ ...recipient, topic: option.label })}
          />
        </>
      ) : (
        <div class="people-field">
          <ul class="chips" aria-label="Recipients">
            {recipient.userIds.map((id) => (
              <li key={id} class="chip">
                {userName(session, id)}
                <button
                  type="button"
                  class="chip-remove"
                  aria-label={`Remove ${userName(session, id)}`}
                  onClick={() => onChange({ mode: "direct", userIds: recipient.userIds.filter((other) => other !== id) })}
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
          <Combobox
            id="compose-people"
            label="People"
            placeholder={recipient.userIds.length === 0 ? "Add one or more people" : "Add another"}
            value={personText}
            options={(query) =>
              session.client
                .completeUsers(query, 10)
                .filter((user) => !recipient.userIds.includes(user.user_id))
                .map((user) => ({ key: String(user.user_id), label: user.full_name, detail: user.email }))
            }
            onInput={setPersonText}
            onPick={(option) => {
              setPersonText("");
              onChange({ mode: "direct", userIds: [...recipient.userIds, Number(option.key)] });
            }}
            onKeyDown={(event) => {
              if (event.key === "Backspace" && personText === "" && recipient.userIds.length > 0) {
                onChange({ mode: "direct", userIds: recipient.userIds.slice(0, -1) });
              }
            }}
          />
        </div>
      )}
    </div>
  );
}
