// Says when the client is offline or reconnecting; silent when connected.
import { useSession, useChanges } from "../ui/context";

export function ConnectionBanner() {
  const session = useSession();
  useChanges((changes) => changes.connection !== undefined || changes.outbox);
  const state = session.client.connection();
  const pending = session.client.outbox().filter((entry) => !entry.error && entry.message_id === undefined).length;
  if (state === "connected" || state === "closed") return null;
  const text =
    state === "offline"
      ? "You are offline. Messages you send will go out when the connection is back."
      : "Reconnecting…";
  return (
    <div class={`connection-banner ${state}`} role="status" aria-live="polite">
      {text}
      {pending > 0 && ` ${pending} message${pending === 1 ? "" : "s"} waiting to be sent.`}
    </div>
  );
}
