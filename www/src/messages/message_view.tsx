// A narrow: its heading, its messages, who is typing in it, and the compose box.
import { useState } from "preact/hooks";
import type { ChatMessage, NarrowTerm } from "confab-web";
import { useChanges, useSession } from "../ui/context";
import { narrowChannel, narrowDirect, narrowTopic } from "../route";
import { conversationName, userName } from "../ui/people";
import { channelById } from "../ui/channels";
import { Compose } from "../compose/compose";
import { EditMessage } from "./edit_message";
import { MessageList } from "./message_list";

export function MessageView({ narrow, isFeed }: { narrow: NarrowTerm[]; isFeed: boolean }) {
  const session = useSession();
  const [editing, setEditing] = useState<ChatMessage>();
  const nearTerm = narrow.find((t) => t.operator === "near" || t.operator === "id");
  const near = typeof nearTerm?.operand === "number" ? nearTerm.operand : undefined;
  return (
    <div class="message-view">
      <NarrowHeading narrow={narrow} isFeed={isFeed} />
      <MessageList narrow={narrow} near={near} onEdit={setEditing} />
      <TypingNotices narrow={narrow} />
      <Compose narrow={narrow} />
      {editing && <EditMessage session={session} message={editing} onClose={() => setEditing(undefined)} />}
    </div>
  );
}

function NarrowHeading({ narrow, isFeed }: { narrow: NarrowTerm[]; isFeed: boolean }) {
  const session = useSession();
  useChanges((changes) => changes.channels.length > 0);
  const streamId = narrowChannel(narrow);
  const topic = narrowTopic(narrow);
  const direct = narrowDirect(narrow);
  const channel = streamId === undefined ? undefined : channelById(session, streamId);
  let title: string;
  let description = "";
  if (isFeed) title = "Combined feed";
  else if (channel) {
    title = `#${channel.name}${topic !== undefined ? ` › ${topic || "general chat"}` : ""}`;
    description = channel.description;
  } else if (direct) title = `Direct messages with ${conversationName(session, [...direct, session.userId])}`;
  else title = session.client.searchText(narrow) || "Messages";
  return (
    <div class="narrow-heading">
      <h1>{title}</h1>
      {description && <p class="narrow-description">{description}</p>}
    </div>
  );
}

function TypingNotices({ narrow }: { narrow: NarrowTerm[] }) {
  const session = useSession();
  useChanges((changes) => changes.typing);
  const streamId = narrowChannel(narrow);
  const topic = narrowTopic(narrow);
  const direct = narrowDirect(narrow);
  const others = (ids: number[]) => ids.filter((id) => id !== session.userId).sort((a, b) => a - b).join(",");
  const directKey = direct ? others(direct) : undefined;
  const typists = session.client
    .typing()
    .filter((notice) => notice.sender_id !== session.userId)
    .filter((notice) =>
      notice.stream_id !== undefined
        ? notice.stream_id === streamId && (topic === undefined || notice.topic?.toLowerCase() === topic.toLowerCase())
        : directKey !== undefined && others(notice.user_ids) === directKey,
    )
    .map((notice) => userName(session, notice.sender_id));
  return (
    <p class="typing-notices" aria-live="polite">
      {typists.length === 0 ? "" : typists.length === 1 ? `${typists[0]} is typing…` : `${typists.join(", ")} are typing…`}
    </p>
  );
}
