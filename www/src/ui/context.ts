// The session and its change notifications, for components.
import { createContext } from "preact";
import { useContext, useLayoutEffect, useReducer, useRef } from "preact/hooks";
import type { Changes } from "confab-web";
import type { Session } from "../session/session";

export const SessionContext = createContext<Session | undefined>(undefined);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error("useSession outside a signed-in page");
  return session;
}

/**
 * Re-renders the component when a change it cares about happens (`relevant` decides; by
 * default every change), after a resync, and when the connection changes (the first register
 * is one). Renders are batched to one per animation frame.
 */
export function useChanges(relevant: (changes: Changes) => boolean = () => true): void {
  const session = useSession();
  const [, bump] = useReducer((n: number) => n + 1, 0);
  const relevantNow = useRef(relevant);
  relevantNow.current = relevant;
  // Subscribed in the layout phase, before any other code can run: a change that came between
  // the render and a later subscription would be lost (a connection state is reported once).
  useLayoutEffect(() => {
    let frame = 0;
    const unsubscribe = session.onChange((changes) => {
      if (frame || !(changes.resync || changes.connection !== undefined || relevantNow.current(changes))) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        bump(undefined);
      });
    });
    return () => {
      unsubscribe();
      cancelAnimationFrame(frame);
    };
  }, [session]);
}
