// The compose box: where the message goes (channel and topic, or people), the Markdown text
// with autocomplete for @-mentions, #channels and :emoji:, a preview rendered by the engine as
// the server will render it, uploads by paste or drop with progress, typing notices, drafts,
// and Enter or Ctrl-Enter to send as the user's setting says.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { Destination, NarrowTerm } from "confab-web";
import { useSession } from "../ui/context";
import { narrowChannel, narrowDirect, narrowTopic } from "../route";
import { onComposeRequest, type ComposeRequest } from "./open";
import { RecipientFields, type Recipient } from "./recipient_fields";
import { MessageText } from "./message_text";
import { TypingNotifier } from "./typing";
import { DraftKeeper } from "./drafts";

function defaultRecipient(narrow: NarrowTerm[], ownId: number): Recipient {
  const streamId = narrowChannel(narrow);
  if (streamId !== undefined) return { mode: "channel", streamId, topic: narrowTopic(narrow) ?? "" };
  const direct = narrowDirect(narrow);
  if (direct) return { mode: "direct", userIds: direct.filter((id) => id !== ownId) };
  return { mode: "channel", streamId: undefined, topic: "" };
}

function recipientDestination(recipient: Recipient): Destination | undefined {
  if (recipient.mode === "channel") {
    return recipient.streamId === undefined ? undefined : { type: "channel", stream_id: recipient.streamId, topic: recipient.topic.trim() };
  }
  return recipient.userIds.length === 0 ? undefined : { type: "direct", user_ids: recipient.userIds };
}

export function Compose({ narrow }: { narrow: NarrowTerm[] }) {
  const session = useSession();
  const [open, setOpen] = useState(false);
  const [recipient, setRecipient] = useState<Recipient>(() => defaultRecipient(narrow, session.userId));
  const [content, setContent] = useState("");
  const [error, setError] = useState<string>();
  const [focusText, setFocusText] = useState(0);
  const [pendingInsert, setPendingInsert] = useState<string>();
  const typing = useMemo(() => new TypingNotifier(session), [session]);
  const drafts = useMemo(() => new DraftKeeper(session), [session]);
  const destination = recipientDestination(recipient);

  // Replies, quotes, drafts and shortcuts open the box from elsewhere.
  useEffect(
    () =>
      onComposeRequest((request: ComposeRequest) => {
        setOpen(true);
        if (request.destination) {
          setRecipient(
            request.destination.type === "channel"
              ? { mode: "channel", streamId: request.destination.stream_id, topic: request.destination.topic }
              : { mode: "direct", userIds: request.destination.user_ids.filter((id) => id !== session.userId) },
          );
        }
        if (request.content !== undefined) setContent(request.content);
        if (request.insert !== undefined) setPendingInsert(request.insert);
        if (request.draftId !== undefined) drafts.continue(request.draftId);
        setFocusText((n) => n + 1);
      }),
    [session],
  );
  useEffect(() => {
    const start = (event: Event) => {
      const kind = (event as CustomEvent<string>).detail;
      setOpen(true);
      setRecipient(kind === "direct" ? { mode: "direct", userIds: [] } : { ...defaultRecipient(narrow, session.userId), topic: "" } as Recipient);
    };
    const escape = () => closeBox();
    addEventListener("confab:compose-new", start);
    addEventListener("confab:escape", escape);
    return () => {
      removeEventListener("confab:compose-new", start);
      removeEventListener("confab:escape", escape);
    };
  });

  // The draft follows the text, a moment after typing stops.
  useEffect(() => drafts.schedule(destination, content), [content, JSON.stringify(destination)]);

  // Keys and events may come before the render that follows an input: they read the latest.
  const latest = useRef({ content, destination });
  latest.current = { content, destination };

  function closeBox() {
    typing.stop();
    drafts.putAway(latest.current.destination, latest.current.content);
    latest.current = { ...latest.current, content: "" };
    setOpen(false);
    setContent("");
    setError(undefined);
  }

  function send() {
    const { content, destination } = latest.current;
    if (!destination) {
      setError(recipient.mode === "channel" ? "Choose a channel to send to." : "Choose who to send to.");
      return;
    }
    if (!content.trim()) {
      setError("There is nothing to send.");
      return;
    }
    session.client.send(destination, content);
    typing.stop();
    drafts.sent();
    latest.current = { ...latest.current, content: "" };
    setContent("");
    setError(undefined);
    setFocusText((n) => n + 1);
  }

  if (!open) {
    return (
      <div class="compose-closed">
        <button
          type="button"
          class="compose-start"
          onClick={() => {
            setRecipient(defaultRecipient(narrow, session.userId));
            setOpen(true);
            setFocusText((n) => n + 1);
          }}
        >
          {recipient.mode === "direct" ? "Message this conversation" : "Start a new message"}
        </button>
        <button type="button" class="compose-start secondary" onClick={() => dispatchEvent(new CustomEvent("confab:compose-new", { detail: "direct" }))}>
          New direct message
        </button>
      </div>
    );
  }

  return (
    <section class="compose" aria-label="Compose message">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          send();
        }}
      >
        <RecipientFields recipient={recipient} onChange={setRecipient} />
        <MessageText
          content={content}
          onContent={(text) => {
            latest.current = { ...latest.current, content: text };
            setContent(text);
            setError(undefined);
            typing.keystroke(destination);
          }}
          onSend={send}
          focusToken={focusText}
          insert={pendingInsert}
          onInserted={() => setPendingInsert(undefined)}
        />
        {error && (
          <p class="form-error" role="alert">
            {error}
          </p>
        )}
        <div class="compose-buttons">
          <button type="button" onClick={closeBox} aria-label="Close compose box (Esc)">
            Cancel
          </button>
          <button type="submit" class="primary">
            Send
          </button>
        </div>
      </form>
    </section>
  );
}
