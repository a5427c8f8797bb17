// The subscribed channels with their unread counts, read from the engine once per change to
// channels (with 1,000 channels `client.channels()` costs milliseconds).
import type { ChannelSummary } from "confab-web";
import type { Session } from "../session/session";
import { cached } from "./session_cache";

const channelsChanged = (changes: { channels: number[] }) => changes.channels.length > 0;

export function subscribedChannels(session: Session): ChannelSummary[] {
  return cached(session, "channels", channelsChanged, () => session.client.channels());
}

export function channelById(session: Session, id: number): ChannelSummary | undefined {
  return cached(session, "channels-by-id", channelsChanged, () => new Map(subscribedChannels(session).map((c) => [c.stream_id, c]))).get(id);
}
