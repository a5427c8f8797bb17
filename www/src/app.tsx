// The signed-in page: header with search, the left sidebar (views, direct messages, channels
// and topics), the current view, and people on the right.
import { useEffect, useMemo, useReducer, useState } from "preact/hooks";
import type { Session } from "./session/session";
import { SessionContext } from "./ui/context";
import { parseRoute, routeNarrow, type Route } from "./route";
import { Header } from "./views/header";
import { LeftSidebar } from "./views/left_sidebar";
import { PeopleSidebar } from "./people/people_sidebar";
import { MessageView } from "./messages/message_view";
import { RecentView } from "./views/recent";
import { InboxView } from "./views/inbox";
import { DraftsView } from "./views/drafts";
import { ChannelBrowser } from "./views/channel_browser";
import { SettingsView } from "./views/settings";
import { ConnectionBanner } from "./views/connection_banner";
import { useGlobalKeys } from "./ui/keys";
import { useNotifications } from "./ui/notifications";
import { usePresence } from "./people/presence";
import { Toasts } from "./ui/toast";

type Props = { session: Session; onLogout: () => void };

function useRoute(session: Session): Route {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const update = () => setHash(location.hash);
    addEventListener("hashchange", update);
    return () => removeEventListener("hashchange", update);
  }, []);
  // Names in a narrow URL (`#narrow/channel/general`) resolve against the state: a URL read
  // before the channels arrived (while the first register is under way, or in a resync) is
  // read again once they do.
  const [names, namesChanged] = useReducer((n: number) => n + 1, 0);
  useEffect(
    () =>
      session.onChange((changes) => {
        if (changes.resync || changes.channels.length > 0) namesChanged(undefined);
      }),
    [session],
  );
  return useMemo(() => parseRoute(session, hash), [session, hash, names]);
}

export function App({ session, onLogout }: Props) {
  return (
    <SessionContext.Provider value={session}>
      <Shell session={session} onLogout={onLogout} />
    </SessionContext.Provider>
  );
}

function Shell({ session, onLogout }: Props) {
  const route = useRoute(session);
  const narrow = routeNarrow(route);
  useGlobalKeys();
  useNotifications();
  usePresence();
  return (
    <div class="app">
      <a class="skip-link" href="#message-list">
        Skip to messages
      </a>
      <Header route={route} onLogout={onLogout} />
      <ConnectionBanner />
      <div class="columns">
        <LeftSidebar route={route} />
        <main class="center" id="main" aria-label="Messages">
          {narrow ? (
            <MessageView key={JSON.stringify(narrow)} narrow={narrow} isFeed={route.view === "feed"} />
          ) : route.view === "recent" ? (
            <RecentView />
          ) : route.view === "inbox" ? (
            <InboxView />
          ) : route.view === "drafts" ? (
            <DraftsView />
          ) : route.view === "channels" ? (
            <ChannelBrowser />
          ) : (
            <SettingsView />
          )}
        </main>
        <PeopleSidebar />
      </div>
      <Toasts />
    </div>
  );
}
