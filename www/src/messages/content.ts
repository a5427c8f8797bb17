// What a rendered message needs after its HTML is in the page, as Zulip's web app does in
// rendered_markdown.ts: times in the reader's zone, own mentions highlighted, spoilers that
// open, unicode emoji drawn as characters, and uploaded images fetched with the session's key.
import type { Session } from "../session/session";
import { authorization } from "../session/api";

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

export function enhanceContent(root: HTMLElement, session: Session, ownGroupIds: ReadonlySet<number>) {
  for (const time of root.querySelectorAll<HTMLTimeElement>("time[datetime]")) {
    const when = new Date(time.dateTime);
    if (!Number.isNaN(when.getTime())) {
      time.textContent = timeFormat.format(when);
      time.title = when.toString();
    }
  }
  for (const mention of root.querySelectorAll<HTMLElement>(".user-mention, .user-group-mention")) {
    const userId = Number(mention.dataset.userId);
    const groupId = Number(mention.dataset.userGroupId);
    const wildcard = mention.dataset.userId === "*" || mention.classList.contains("topic-mention");
    const own = userId === session.userId || (groupId && ownGroupIds.has(groupId)) || wildcard;
    mention.classList.toggle("user-mention-me", Boolean(own) && !mention.classList.contains("silent"));
  }
  for (const header of root.querySelectorAll<HTMLElement>(".spoiler-header")) {
    if (header.dataset.enhanced) continue;
    header.dataset.enhanced = "1";
    header.tabIndex = 0;
    header.setAttribute("role", "button");
    header.setAttribute("aria-expanded", "false");
    const toggle = () => {
      const block = header.closest(".spoiler-block");
      const open = block?.classList.toggle("spoiler-open") ?? false;
      header.setAttribute("aria-expanded", String(open));
    };
    header.addEventListener("click", toggle);
    header.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        toggle();
      }
    });
  }
  for (const emoji of root.querySelectorAll<HTMLElement>("span.emoji")) {
    const code = [...emoji.classList].find((name) => name.startsWith("emoji-"))?.slice("emoji-".length);
    const character = code && emojiCharacter(code);
    if (character && emoji.textContent !== character) {
      emoji.setAttribute("aria-label", emoji.title || emoji.textContent || "");
      emoji.setAttribute("role", "img");
      emoji.textContent = character;
    }
  }
  for (const image of root.querySelectorAll<HTMLImageElement>("img")) {
    image.loading = "lazy";
    const source = image.getAttribute("src") ?? "";
    if (source.startsWith("/user_uploads/") && !image.dataset.loaded) {
      image.dataset.loaded = "1";
      void loadUpload(session, source).then((url) => {
        if (url) image.src = url;
      });
    }
  }
  for (const link of root.querySelectorAll<HTMLAnchorElement>("a[href]")) {
    const href = link.getAttribute("href") ?? "";
    if (!href.startsWith("#") && !href.startsWith("/user_uploads/")) {
      link.target = "_blank";
      link.rel = "noopener noreferrer";
    }
  }
}

/** `1f44d` or `1f468-200d-1f4bb` as the characters it names. */
export function emojiCharacter(code: string): string | undefined {
  const points = code.split("-").map((part) => Number.parseInt(part, 16));
  if (points.some((point) => Number.isNaN(point) || point > 0x10ffff)) return undefined;
  return String.fromCodePoint(...points);
}

const uploads = new Map<string, Promise<string | undefined>>();

/** Uploaded files need the session's credentials; the image gets an object URL of the bytes. */
function loadUpload(session: Session, path: string): Promise<string | undefined> {
  let pending = uploads.get(path);
  if (!pending) {
    const credentials = session.credentials();
    pending = fetch(`${credentials.site}${path}`, { headers: { Authorization: authorization(credentials) } })
      .then((response) => (response.ok ? response.blob() : undefined))
      .then((blob) => (blob ? URL.createObjectURL(blob) : undefined))
      .catch(() => undefined);
    uploads.set(path, pending);
  }
  return pending;
}
