// What the page shows, read from and written to the URL's fragment as Zulip's web app spells
// it, so links, reloads and the back button work. Narrows are the engine's to encode.
import type { NarrowTerm } from "confab-web";
import type { Session } from "./session/session";

export type Route =
  | { view: "feed" }
  | { view: "recent" }
  | { view: "inbox" }
  | { view: "drafts" }
  | { view: "channels" }
  | { view: "settings" }
  | { view: "narrow"; narrow: NarrowTerm[] };

/** The combined feed: every message not muted (Zulip's `in:home`). */
export const FEED_NARROW: NarrowTerm[] = [{ operator: "in", operand: "home" }];

const FIXED: Record<string, Route> = {
  "#feed": { view: "feed" },
  "#all_messages": { view: "feed" },
  "#recent": { view: "recent" },
  "#recent_topics": { view: "recent" },
  "#inbox": { view: "inbox" },
  "#drafts": { view: "drafts" },
  "#channels": { view: "channels" },
  "#channels/subscribed": { view: "channels" },
  "#channels/all": { view: "channels" },
  "#settings": { view: "settings" },
  "#settings/profile": { view: "settings" },
};

/** The user's home view (Zulip's `web_home_view`), shown for an empty fragment. */
function homeRoute(session: Session): Route {
  switch (session.client.ownSettings().web_home_view) {
    case "recent_topics":
      return { view: "recent" };
    case "all_messages":
      return { view: "feed" };
    default:
      return { view: "inbox" };
  }
}

export function parseRoute(session: Session, hash: string): Route {
  if (hash === "" || hash === "#") return homeRoute(session);
  const fixed = FIXED[hash];
  if (fixed) return fixed;
  const narrow = session.client.hashToNarrow(hash);
  return narrow ? { view: "narrow", narrow } : { view: "feed" };
}

export function routeHref(session: Session, route: Route): string {
  switch (route.view) {
    case "feed":
      return "#feed";
    case "narrow":
      return session.client.narrowToHash(route.narrow);
    case "channels":
      return "#channels/subscribed";
    case "settings":
      return "#settings/profile";
    default:
      return `#${route.view}`;
  }
}

export function narrowHref(session: Session, narrow: NarrowTerm[]): string {
  return routeHref(session, { view: "narrow", narrow });
}

/** The narrow a route shows messages of, if it shows messages. */
export function routeNarrow(route: Route): NarrowTerm[] | undefined {
  if (route.view === "feed") return FEED_NARROW;
  if (route.view === "narrow") return route.narrow;
  return undefined;
}

/** The channel a narrow is in, if any (for the sidebar's topic list). */
export function narrowChannel(narrow: NarrowTerm[] | undefined): number | undefined {
  const term = narrow?.find((t) => (t.operator === "channel" || t.operator === "stream") && !t.negated);
  return typeof term?.operand === "number" ? term.operand : undefined;
}

export function narrowTopic(narrow: NarrowTerm[] | undefined): string | undefined {
  const term = narrow?.find((t) => (t.operator === "topic" || t.operator === "subject") && !t.negated);
  return typeof term?.operand === "string" ? term.operand : undefined;
}

export function narrowDirect(narrow: NarrowTerm[] | undefined): number[] | undefined {
  const term = narrow?.find((t) => (t.operator === "dm" || t.operator === "pm-with") && !t.negated);
  if (!term) return undefined;
  return Array.isArray(term.operand) ? term.operand : typeof term.operand === "number" ? [term.operand] : undefined;
}
