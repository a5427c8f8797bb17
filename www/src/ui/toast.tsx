// Short notices at the bottom of the page: the server's refusals of things the user did.
import { useEffect, useState } from "preact/hooks";
import { errorText } from "../session/api";

type Toast = { id: number; text: string };
let next = 1;

export function showToast(text: string) {
  dispatchEvent(new CustomEvent<Toast>("confab:toast", { detail: { id: next++, text } }));
}

/** For promises of the engine's operations: the server's message, shown. */
export function reportRefusal(error: unknown) {
  showToast(errorText(error));
}

export function Toasts() {
  const [toasts, setToasts] = useState<Toast[]>([]);
  useEffect(() => {
    const handler = (event: Event) => {
      const toast = (event as CustomEvent<Toast>).detail;
      setToasts((all) => [...all, toast]);
      setTimeout(() => setToasts((all) => all.filter((t) => t.id !== toast.id)), 6000);
    };
    addEventListener("confab:toast", handler);
    return () => removeEventListener("confab:toast", handler);
  }, []);
  return (
    <div class="toasts" role="status" aria-live="polite">
      {toasts.map((toast) => (
        <p key={toast.id} class="toast">
          {toast.text}
        </p>
      ))}
    </div>
  );
}
