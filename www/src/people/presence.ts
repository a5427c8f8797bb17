// The user's own presence, reported as Zulip's web app reports it (activity.ts): every minute
// while the page is open, `active` unless there was no input for five minutes (then `idle`), and
// at once when the user comes back from idle. `new_user_input` says whether there was input
// since the last report. Each report is the engine's (`reportPresence`): it also brings the
// presences changed since the last one, which is how others' presence stays current where the
// server sends no presence events (organizations of more than 100 people), and lets the engine
// judge who went offline on this clock. Failures (offline) are ignored; the next minute tries
// again.
import { useEffect } from "preact/hooks";
import { useSession } from "../ui/context";

/** Zulip's `PRESENCE_PING_INTERVAL_SECS`. */
const PING_INTERVAL_MS = 60 * 1000;
/** Zulip's `DEFAULT_IDLE_TIMEOUT_MS`: idle after five minutes without input. */
const IDLE_AFTER_MS = 5 * 60 * 1000;
/** Input events that count as the user being there. */
const INPUT_EVENTS = ["mousemove", "mousedown", "keydown", "wheel", "touchstart", "pointerdown"] as const;

export function usePresence(): void {
  const session = useSession();
  useEffect(() => {
    // A page opened by the user counts as input; one restored in the background does not.
    let active = document.hasFocus();
    let newUserInput = true;
    let lastInput = Date.now();
    let sending = false;

    const report = () => {
      if (sending) return;
      sending = true;
      session.client
        .reportPresence(active, newUserInput)
        .then(
          () => {
            newUserInput = false;
          },
          () => undefined,
        )
        .finally(() => {
          sending = false;
        });
    };

    const markActive = () => {
      if (active) return;
      active = true;
      report();
    };
    const onInput = () => {
      lastInput = Date.now();
      newUserInput = true;
      markActive();
    };
    const onFocus = () => {
      lastInput = Date.now();
      markActive();
    };

    // Becoming idle is not reported at once (Zulip waits for the next minute's report too).
    const idleCheck = setInterval(() => {
      if (active && Date.now() - lastInput >= IDLE_AFTER_MS) active = false;
    }, 15 * 1000);
    const ping = setInterval(report, PING_INTERVAL_MS);
    for (const name of INPUT_EVENTS) addEventListener(name, onInput, { passive: true, capture: true });
    addEventListener("focus", onFocus);
    report();

    return () => {
      clearInterval(idleCheck);
      clearInterval(ping);
      for (const name of INPUT_EVENTS) removeEventListener(name, onInput, { capture: true });
      removeEventListener("focus", onFocus);
    };
  }, [session]);
}
