// Zulip's keyboard shortcuts where they exist: `j`/`k` (and arrows) move between messages,
// `r` or Enter replies, `c` starts a new topic, `x` a direct message, `/` searches, `Esc`
// closes; `*` stars, `e` edits, `+` reacts 👍, `q` goes to the Inbox, `i` to Recent. Keys
// typed into a field are the field's.
import { useEffect } from "preact/hooks";

export type ListAction = "next" | "previous" | "first" | "last" | "reply" | "star" | "edit" | "thumbs_up" | "quote";

const LIST_KEYS: Record<string, ListAction> = {
  j: "next",
  ArrowDown: "next",
  k: "previous",
  ArrowUp: "previous",
  Home: "first",
  End: "last",
  r: "reply",
  Enter: "reply",
  "*": "star",
  e: "edit",
  "+": "thumbs_up",
  ">": "quote",
};

export function onListAction(listener: (action: ListAction) => void): () => void {
  const handler = (event: Event) => listener((event as CustomEvent<ListAction>).detail);
  addEventListener("confab:list", handler);
  return () => removeEventListener("confab:list", handler);
}

function typingInField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

export function useGlobalKeys() {
  useEffect(() => {
    const handler = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key === "Escape") {
        dispatchEvent(new CustomEvent("confab:escape"));
        return;
      }
      if (typingInField(event.target)) return;
      // Buttons and links keep Enter for themselves.
      if (event.key === "Enter" && event.target instanceof HTMLElement && event.target.closest("button, a, [role=button]")) return;
      // Arrows, Home and End move through messages only where a message list is shown.
      const action = LIST_KEYS[event.key];
      const listShown = document.getElementById("message-list") !== null;
      if (action && (listShown || /^[a-z*+>]$/.test(event.key))) {
        event.preventDefault();
        dispatchEvent(new CustomEvent<ListAction>("confab:list", { detail: action }));
        return;
      }
      const navigation: Record<string, () => void> = {
        "/": () => dispatchEvent(new CustomEvent("confab:search")),
        c: () => dispatchEvent(new CustomEvent("confab:compose-new", { detail: "channel" })),
        x: () => dispatchEvent(new CustomEvent("confab:compose-new", { detail: "direct" })),
        q: () => (location.hash = "#inbox"),
        i: () => (location.hash = "#recent"),
        n: () => dispatchEvent(new CustomEvent("confab:next-unread")),
      };
      const go = navigation[event.key];
      if (go) {
        event.preventDefault();
        go();
      }
    };
    addEventListener("keydown", handler);
    return () => removeEventListener("keydown", handler);
  }, []);
}
