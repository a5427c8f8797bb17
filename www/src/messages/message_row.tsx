// One message: avatar and sender (unless it continues the sender's previous one), time,
// content, reactions, and its actions. A local echo shows as pending, or with the server's
// refusal and a way to discard it.
import { memo } from "preact/compat";
import { useLayoutEffect, useRef } from "preact/hooks";
import type { ChatMessage } from "confab-web";
import type { Session } from "../session/session";
import { avatarUrl, userById } from "../ui/people";
import { enhanceContent } from "./content";
import { Reactions } from "./reactions";
import { MessageActions } from "./message_actions";

type Props = {
  session: Session;
  message: ChatMessage;
  continued: boolean;
  selected: boolean;
  ownGroupIds: ReadonlySet<number>;
  onSelect: (id: number) => void;
};

const clock = new Intl.DateTimeFormat(undefined, { hour: "numeric", minute: "2-digit" });
const full = new Intl.DateTimeFormat(undefined, { dateStyle: "full", timeStyle: "long" });

function MessageRowImpl({ session, message, continued, selected, ownGroupIds, onSelect }: Props) {
  const content = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (content.current) enhanceContent(content.current, session, ownGroupIds);
  }, [message.content, ownGroupIds]);
  const sender = userById(session, message.sender_id);
  const pending = message.local_id !== undefined && !message.send_error;
  const when = new Date(message.timestamp * 1000);
  const mentioned = message.flags.some((flag) => flag === "mentioned" || flag === "stream_wildcard_mentioned" || flag === "topic_wildcard_mentioned");
  const classes = [
    "message",
    continued ? "continued" : "",
    selected ? "selected" : "",
    message.flags.includes("read") ? "" : "unread",
    mentioned ? "mentioned" : "",
    pending ? "pending" : "",
    message.send_error ? "failed" : "",
    message.is_me_message ? "me-message" : "",
  ];
  return (
    <article
      class={classes.filter(Boolean).join(" ")}
      data-message-id={message.local_id ? undefined : message.id}
      data-local-id={message.local_id}
      aria-label={`${message.sender_full_name}, ${clock.format(when)}`}
      aria-current={selected ? "true" : undefined}
      onClick={(event) => {
        if (!(event.target as HTMLElement).closest("a, button, input, textarea, .spoiler-header")) onSelect(message.id);
      }}
    >
      {!continued && (
        <img class="avatar" src={avatarUrl(session, sender, message.sender_id)} alt="" width={36} height={36} loading="lazy" />
      )}
      <div class="message-body">
        {!continued && (
          <div class="message-meta">
            <span class="sender">{message.sender_full_name}</span>
            {sender?.status_emoji && <span class="status-emoji" title={sender.status_text}>{sender.status_emoji}</span>}
          </div>
        )}
        <time class="message-time" dateTime={when.toISOString()} title={full.format(when)}>
          {clock.format(when)}
        </time>
        <div ref={content} class="rendered_markdown message-content" dangerouslySetInnerHTML={{ __html: message.content }} />
        {message.last_edit_timestamp !== undefined && <span class="edited-note">(edited)</span>}
        {pending && (
          <span class="pending-note" role="status">
            Sending…
          </span>
        )}
        {message.send_error && <SendError session={session} message={message} />}
        {message.flags.includes("starred") && (
          <span class="star-mark" aria-label="Starred" title="Starred">
            ★
          </span>
        )}
        <Reactions session={session} message={message} />
      </div>
      {!message.local_id && <MessageActions session={session} message={message} />}
    </article>
  );
}

function SendError({ session, message }: { session: Session; message: ChatMessage }) {
  return (
    <p class="send-error" role="alert">
      Not sent: {message.send_error}{" "}
      <button type="button" class="link-button" onClick={() => session.client.discard(message.local_id!)}>
        Discard
      </button>
    </p>
  );
}

function signature(message: ChatMessage): string {
  return `${message.id}|${message.local_id}|${message.content}|${message.flags.join()}|${message.reactions.length}|${message.reactions.map((r) => r.user_id + r.emoji_code).join()}|${message.last_edit_timestamp}|${message.subject}|${message.send_error}`;
}

export const MessageRow = memo(
  MessageRowImpl,
  (before, after) =>
    before.continued === after.continued &&
    before.selected === after.selected &&
    before.ownGroupIds === after.ownGroupIds &&
    signature(before.message) === signature(after.message),
);
