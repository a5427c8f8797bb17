// The subscribed channels with their unread counts, read from the engine once per change to
// channels (with 1,000 channels, `client.channels()` costs milliseconds: too much per keystroke
// or per row).
import type { ChannelSummary } from "confab-web";
import type { Session } from "../session/session";

type Cache = { list?: ChannelSummary[]; byId?: Map<number, ChannelSummary> };
const caches = new WeakMap<Session, Cache>();

function cache(session: Session): Cache {
  let entry = caches.get(session);
  if (!entry) {
    const fresh: Cache = {};
    session.onChange((changes) => {
      if (changes.resync || changes.channels.length > 0 || changes.connection !== undefined) {
        fresh.list = undefined;
        fresh.byId = undefined;
      }
    });
    caches.set(session, fresh);
    entry = fresh;
  }
  return entry;
}

export function subscribedChannels(session: Session): ChannelSummary[] {
  const entry = cache(session);
  entry.list ??= session.client.channels();
  return entry.list;
}

export function channelById(session: Session, id: number): ChannelSummary | undefined {
  const entry = cache(session);
  entry.byId ??= new Map(subscribedChannels(session).map((channel) => [channel.stream_id, channel]));
  return entry.byId.get(id);
}
