// Drafts (`#drafts`), as Zulip's: the drafts the server keeps for the user (register's `drafts`,
// kept by events), newest first, each with where it goes, its text rendered as the message
// would be, and a way to continue it in the compose box or delete it.
import { useMemo, useState } from "preact/hooks";
import type { Destination, NarrowTerm } from "confab-web";
import type { Session } from "../session/session";
import { narrowHref } from "../route";
import { openCompose } from "../compose/open";
import { useChanges, useSession } from "../ui/context";
import { conversationName } from "../ui/people";

/** A draft as Zulip's API has it. */
type Draft = { id: number; type: "stream" | "private" | ""; to: number[]; topic: string; content: string; timestamp: number };

type ChannelInfo = { name: string; color?: string; invite_only?: boolean };

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String((error as { msg?: unknown })?.msg ?? error);
}

function isDraft(value: unknown): value is Draft {
  const draft = value as Partial<Draft> | null;
  return typeof draft?.id === "number" && typeof draft.content === "string" && Array.isArray(draft.to);
}

/** The drafts and the names of every channel the user can see, read from the register state. */
function readState(session: Session): { drafts: Draft[]; channels: Map<number, ChannelInfo> } {
  const state = session.client.state();
  const drafts = (Array.isArray(state.drafts) ? state.drafts : []).filter(isDraft);
  drafts.sort((a, b) => b.timestamp - a.timestamp || b.id - a.id);
  const channels = new Map<number, ChannelInfo>();
  for (const key of ["subscriptions", "unsubscribed", "never_subscribed"]) {
    const list = state[key];
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      const channel = item as { stream_id?: number; name?: string; color?: string; invite_only?: boolean };
      if (typeof channel.stream_id === "number" && typeof channel.name === "string" && !channels.has(channel.stream_id)) {
        channels.set(channel.stream_id, { name: channel.name, color: channel.color, invite_only: channel.invite_only });
      }
    }
  }
  return { drafts, channels };
}

function draftDestination(draft: Draft): Destination | undefined {
  if (draft.type === "stream" && draft.to.length > 0) return { type: "channel", stream_id: draft.to[0], topic: draft.topic };
  if (draft.type === "private" && draft.to.length > 0) return { type: "direct", user_ids: draft.to };
  return undefined;
}

function destinationNarrow(session: Session, destination: Destination): NarrowTerm[] {
  if (destination.type === "channel") {
    return [
      { operator: "channel", operand: destination.stream_id },
      { operator: "topic", operand: destination.topic },
    ];
  }
  const others = destination.user_ids.filter((id) => id !== session.userId);
  return [{ operator: "dm", operand: others.length > 0 ? others : [session.userId] }];
}

/**
 * Asks the compose box to continue the draft, then goes to the draft's conversation: the
 * Drafts view has no compose box, so the request waits for the one the conversation's view
 * mounts.
 */
function restore(session: Session, draft: Draft) {
  const destination = draftDestination(draft);
  openCompose({ destination, content: draft.content, draftId: draft.id });
  location.hash = destination ? narrowHref(session, destinationNarrow(session, destination)) : "#feed";
}

export function DraftsView() {
  const session = useSession();
  // Drafts come and go by events that change the state; the whole state is read again only
  // for changes that may concern drafts or channel names.
  const [version, setVersion] = useState(0);
  useChanges((changes) => {
    if (changes.settings || changes.resync || (changes.channels.length > 0 && changes.topics.length === 0)) {
      setVersion((n) => n + 1);
    }
    return false;
  });
  const { drafts, channels } = useMemo(() => readState(session), [session, version]);
  const [deleted, setDeleted] = useState<ReadonlySet<number>>(new Set());
  const [deleting, setDeleting] = useState<number>();
  const [error, setError] = useState<string>();
  const shown = drafts.filter((draft) => !deleted.has(draft.id));

  async function remove(draft: Draft) {
    setError(undefined);
    setDeleting(draft.id);
    try {
      await session.request("DELETE", `/drafts/${draft.id}`);
      setDeleted((all) => new Set(all).add(draft.id));
    } catch (failure) {
      setError(`Could not delete the draft: ${errorText(failure)}`);
    } finally {
      setDeleting(undefined);
    }
  }

  return (
    <div class="view drafts-view">
      <div class="view-header">
        <h1>Drafts</h1>
      </div>
      <p class="view-note">Drafts are saved on the server and available on all your devices.</p>
      {error && (
        <p class="view-error" role="alert">
          {error}
        </p>
      )}
      {shown.length === 0 ? (
        <p class="view-empty">No drafts.</p>
      ) : (
        <ul class="draft-list">
          {shown.map((draft) => (
            <DraftItem
              key={draft.id}
              session={session}
              draft={draft}
              channels={channels}
              deleting={deleting === draft.id}
              onRestore={() => restore(session, draft)}
              onDelete={() => remove(draft)}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

const previews = new Map<string, string>();

/** The draft's text rendered as the server would render the message (kept per text). */
function preview(session: Session, content: string): string {
  let html = previews.get(content);
  if (html === undefined) {
    try {
      html = session.client.renderPreview(content).html;
    } catch {
      html = "";
    }
    if (previews.size > 500) previews.clear();
    previews.set(content, html);
  }
  return html;
}

type ItemProps = {
  session: Session;
  draft: Draft;
  channels: Map<number, ChannelInfo>;
  deleting: boolean;
  onRestore: () => void;
  onDelete: () => void;
};

function DraftItem({ session, draft, channels, deleting, onRestore, onDelete }: ItemProps) {
  const destination = draftDestination(draft);
  const headingId = `draft-${draft.id}`;
  let title;
  let label: string;
  if (destination?.type === "channel") {
    const channel = channels.get(destination.stream_id);
    const name = channel?.name ?? `Unknown channel ${destination.stream_id}`;
    label = `#${name} > ${draft.topic || "general chat"}`;
    title = (
      <>
        <span class="channel-swatch" style={{ background: channel?.color }} aria-hidden="true">
          {channel?.invite_only ? "🔒" : "#"}
        </span>
        {name}
        <span class="draft-topic-separator"> &gt; </span>
        {draft.topic || <em>general chat</em>}
      </>
    );
  } else if (destination?.type === "direct") {
    label = `Direct message to ${conversationName(session, [...destination.user_ids, session.userId])}`;
    title = label;
  } else {
    label = "New message";
    title = label;
  }
  const date = new Date(draft.timestamp * 1000);
  return (
    <li class="draft">
      <div class="draft-header">
        <h2 id={headingId} class="draft-title">
          {title}
        </h2>
        <time dateTime={date.toISOString()}>{when.format(date)}</time>
      </div>
      <div class="rendered_markdown draft-preview" dangerouslySetInnerHTML={{ __html: preview(session, draft.content) }} />
      <div class="draft-actions">
        <button type="button" class="primary" onClick={onRestore} aria-label={`Restore draft: ${label}`}>
          Restore
        </button>
        <button type="button" class="danger" onClick={onDelete} disabled={deleting} aria-label={`Delete draft: ${label}`}>
          {deleting ? "Deleting…" : "Delete"}
        </button>
      </div>
    </li>
  );
}
