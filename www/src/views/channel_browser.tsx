// The channel browser (`#channels/subscribed`, `#channels/all`), as Zulip's: the channels the
// user can see, with their descriptions, subscribe and unsubscribe buttons, and a form to
// create one. The lists are register's (`subscriptions`, `unsubscribed`, `never_subscribed`)
// as events keep them; whether the user may subscribe or create is the server's to say, and its
// refusals are shown.
import { useMemo, useRef, useState } from "preact/hooks";
import type { Session } from "../session/session";
import { narrowHref } from "../route";
import { useChanges, useSession } from "../ui/context";
import { ShowMore } from "../ui/show_more";

/** Rows drawn at first, and added by each "Show more". */
const PAGE_ROWS = 200;

type BrowserChannel = {
  stream_id: number;
  name: string;
  description: string;
  rendered_description: string;
  invite_only: boolean;
  is_web_public: boolean;
  color?: string;
  subscribed: boolean;
  subscriberCount?: number;
  /** Lower-cased name and description, for the filter. */
  text: string;
};

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String((error as { msg?: unknown })?.msg ?? error);
}

/** Every channel the state shows the user, subscribed ones first within the name order. */
function readChannels(session: Session): BrowserChannel[] {
  const state = session.client.state();
  const seen = new Map<number, BrowserChannel>();
  for (const key of ["subscriptions", "unsubscribed", "never_subscribed"] as const) {
    const list = state[key];
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      const raw = item as Record<string, unknown>;
      const id = raw.stream_id;
      if (typeof id !== "number" || seen.has(id) || raw.is_archived === true) continue;
      const subscribers = raw.subscribers;
      const count =
        typeof raw.subscriber_count === "number" ? raw.subscriber_count : Array.isArray(subscribers) ? subscribers.length : undefined;
      const name = String(raw.name ?? "");
      const description = String(raw.description ?? "");
      seen.set(id, {
        stream_id: id,
        name,
        description,
        rendered_description: String(raw.rendered_description ?? ""),
        invite_only: raw.invite_only === true,
        is_web_public: raw.is_web_public === true,
        color: typeof raw.color === "string" ? raw.color : undefined,
        subscribed: key === "subscriptions",
        subscriberCount: count,
        text: `${name}\n${description}`.toLowerCase(),
      });
    }
  }
  return [...seen.values()].sort((a, b) => a.name.localeCompare(b.name));
}

export function ChannelBrowser() {
  const session = useSession();
  // The whole state is read again only when the channel lists may have changed: a resync, a
  // channel not known yet, or a channel change that is not a message's (those name topics).
  const known = useRef(new Set<number>());
  const [version, setVersion] = useState(0);
  useChanges((changes) => {
    if (
      changes.resync ||
      (changes.channels.length > 0 && (changes.topics.length === 0 || changes.channels.some((id) => !known.current.has(id))))
    ) {
      setVersion((n) => n + 1);
    }
    return false;
  });
  const channels = useMemo(() => readChannels(session), [session, version]);
  known.current = new Set(channels.map((channel) => channel.stream_id));

  const all = location.hash === "#channels/all";
  const [filter, setFilter] = useState("");
  const [limit, setLimit] = useState(PAGE_ROWS);
  const [busy, setBusy] = useState<number>();
  const [errors, setErrors] = useState<ReadonlyMap<number, string>>(new Map());
  const [creating, setCreating] = useState(false);

  const needle = filter.trim().toLowerCase();
  const shown = channels.filter((channel) => (all || channel.subscribed) && (!needle || channel.text.includes(needle)));

  async function setSubscribed(channel: BrowserChannel, subscribe: boolean) {
    setBusy(channel.stream_id);
    setErrors((current) => {
      const next = new Map(current);
      next.delete(channel.stream_id);
      return next;
    });
    try {
      if (subscribe) await session.request("POST", "/users/me/subscriptions", { subscriptions: [{ name: channel.name }] });
      else await session.request("DELETE", "/users/me/subscriptions", { subscriptions: [channel.name] });
    } catch (failure) {
      setErrors((current) => new Map(current).set(channel.stream_id, errorText(failure)));
    } finally {
      setBusy(undefined);
    }
  }

  return (
    <div class="view channel-browser">
      <div class="view-header">
        <h1>Channels</h1>
        <nav class="view-tabs" aria-label="Which channels">
          <a href="#channels/subscribed" aria-current={all ? undefined : "page"}>
            Subscribed
          </a>
          <a href="#channels/all" aria-current={all ? "page" : undefined}>
            All channels
          </a>
        </nav>
        <input
          type="search"
          class="view-filter"
          aria-label="Filter channels"
          placeholder="Filter channels"
          value={filter}
          onInput={(event) => {
            setFilter(event.currentTarget.value);
            setLimit(PAGE_ROWS);
          }}
        />
        <button type="button" class="primary" aria-expanded={creating} aria-controls="create-channel" onClick={() => setCreating(!creating)}>
          Create channel
        </button>
      </div>
      <CreateChannelForm hidden={!creating} onDone={() => setCreating(false)} />
      {shown.length === 0 ? (
        <p class="view-empty">
          {needle ? "No channels match your filter." : all ? "There are no channels you can see." : "You are not subscribed to any channels."}
          {!all && (
            <>
              {" "}
              <a href="#channels/all">Browse all channels</a>
            </>
          )}
        </p>
      ) : (
        <ul class="channel-rows">
          {shown.slice(0, limit).map((channel) => (
            <li key={channel.stream_id} class="channel-row">
              <span class="channel-swatch" style={{ background: channel.color ?? "var(--muted)" }} aria-hidden="true">
                {channel.invite_only ? "🔒" : "#"}
              </span>
              <div class="channel-row-main">
                <h2 class="channel-row-name">
                  <a href={narrowHref(session, [{ operator: "channel", operand: channel.stream_id }])}>{channel.name}</a>
                  {channel.invite_only && <span class="channel-badge">private</span>}
                  {channel.is_web_public && <span class="channel-badge">web-public</span>}
                </h2>
                {channel.rendered_description ? (
                  <div class="rendered_markdown channel-description" dangerouslySetInnerHTML={{ __html: channel.rendered_description }} />
                ) : (
                  channel.description && <p class="channel-description">{channel.description}</p>
                )}
                {channel.subscriberCount !== undefined && (
                  <p class="channel-subscribers">
                    {channel.subscriberCount} subscriber{channel.subscriberCount === 1 ? "" : "s"}
                  </p>
                )}
                {errors.has(channel.stream_id) && (
                  <p class="view-error" role="alert">
                    {errors.get(channel.stream_id)}
                  </p>
                )}
              </div>
              <button
                type="button"
                class={channel.subscribed ? "" : "primary"}
                disabled={busy === channel.stream_id}
                aria-label={`${channel.subscribed ? "Unsubscribe from" : "Subscribe to"} ${channel.name}`}
                onClick={() => setSubscribed(channel, !channel.subscribed)}
              >
                {busy === channel.stream_id ? "…" : channel.subscribed ? "Unsubscribe" : "Subscribe"}
              </button>
            </li>
          ))}
        </ul>
      )}
      <ShowMore hidden={shown.length - limit} onMore={() => setLimit(limit + PAGE_ROWS)} />
    </div>
  );
}

/**
 * A new channel (`POST /channels/create`) with the user as its first subscriber: the server
 * checks the name (taken, too long, empty) and the user's permission, and says why it refuses.
 */
function CreateChannelForm({ hidden, onDone }: { hidden: boolean; onDone: () => void }) {
  const session = useSession();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [isPrivate, setPrivate] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string>();
  const [created, setCreated] = useState<{ id: number; name: string }>();

  async function submit(event: Event) {
    event.preventDefault();
    setSaving(true);
    setError(undefined);
    setCreated(undefined);
    try {
      const reply = await session.request<{ id: number }>("POST", "/channels/create", {
        name: name.trim(),
        description,
        subscribers: [session.userId],
        invite_only: isPrivate,
      });
      setCreated({ id: reply.id, name: name.trim() });
      onDone();
      setName("");
      setDescription("");
      setPrivate(false);
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setSaving(false);
    }
  }

  return (
    <>
      {created && (
        <p class="view-saved" role="status">
          Created{" "}
          <a href={narrowHref(session, [{ operator: "channel", operand: created.id }])} onClick={() => setCreated(undefined)}>
            #{created.name}
          </a>
          .
        </p>
      )}
      <form id="create-channel" class="create-channel" hidden={hidden} onSubmit={submit} aria-labelledby="create-channel-heading">
        <h2 id="create-channel-heading">Create a channel</h2>
        <label>
          Name
          <input
            type="text"
            required
            value={name}
            aria-invalid={error !== undefined}
            aria-describedby={error ? "create-channel-error" : undefined}
            onInput={(event) => setName(event.currentTarget.value)}
          />
        </label>
        <label>
          Description
          <input type="text" value={description} onInput={(event) => setDescription(event.currentTarget.value)} />
        </label>
        <label class="checkbox">
          <input type="checkbox" checked={isPrivate} onChange={(event) => setPrivate(event.currentTarget.checked)} />
          Private: only subscribers can see it and its messages
        </label>
        {error && (
          <p id="create-channel-error" class="view-error" role="alert">
            {error}
          </p>
        )}
        <div class="form-buttons">
          <button type="button" onClick={onDone}>
            Cancel
          </button>
          <button type="submit" class="primary" disabled={saving}>
            {saving ? "Creating…" : "Create"}
          </button>
        </div>
      </form>
    </>
  );
}
