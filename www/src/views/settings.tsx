// Settings (`#settings/profile`): the user's name, avatar, password and status, whether Enter sends,
// the theme on this device, and notifications. Each change goes to the server at once and
// shows whether it was saved or why not; what the page shows afterwards comes back by events
// (a `realm_user` or `user_settings` update), as in Zulip's web app.
import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import type { JsonValue, UserSummary } from "confab-web";
import type { Session } from "../session/session";
import { authorization } from "../session/api";
import { useChanges, useSession } from "../ui/context";
import { avatarUrl, userById } from "../ui/people";
import { chooseTheme, storedTheme, type Theme } from "../ui/theme";
import { StatusEmoji } from "../people/people_sidebar";

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String((error as { msg?: unknown })?.msg ?? error);
}

/** How long "Saved." shows. */
const SAVED_NOTE_MS = 4000;

type Outcome = { kind: "saving" } | { kind: "saved"; text: string } | { kind: "error"; text: string };

/** Runs a save and keeps what became of it, for the section's feedback line. */
function useSave() {
  const [outcome, setOutcome] = useState<Outcome>();
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );
  // "Saved" goes after a moment, as in Zulip's settings; errors stay until the next try.
  useEffect(() => {
    if (outcome?.kind !== "saved") return;
    const timer = setTimeout(() => setOutcome(undefined), SAVED_NOTE_MS);
    return () => clearTimeout(timer);
  }, [outcome]);
  async function run(work: () => Promise<unknown>, saved = "Saved."): Promise<boolean> {
    setOutcome({ kind: "saving" });
    try {
      await work();
      if (mounted.current) setOutcome({ kind: "saved", text: saved });
      return true;
    } catch (failure) {
      if (mounted.current) setOutcome({ kind: "error", text: errorText(failure) });
      return false;
    }
  }
  return { outcome, run, busy: outcome?.kind === "saving" };
}

function Feedback({ outcome, id }: { outcome: Outcome | undefined; id?: string }) {
  // The live regions are always in the page, so that what appears in them is announced.
  return (
    <>
      <p id={id} class="view-error" role="alert">
        {outcome?.kind === "error" ? outcome.text : ""}
      </p>
      <p class="view-saved" role="status">
        {outcome?.kind === "saving" ? "Saving…" : outcome?.kind === "saved" ? outcome.text : ""}
      </p>
    </>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ComponentChildren }) {
  return (
    <section class="settings-section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

export function SettingsView() {
  const session = useSession();
  useChanges((changes) => changes.settings || changes.users.includes(session.userId));
  const me = userById(session, session.userId);
  const settings = session.client.ownSettings();
  return (
    <div class="view settings-view">
      <div class="view-header">
        <h1>Profile and settings</h1>
      </div>
      <Section id="settings-profile" title="Profile">
        <NameForm session={session} me={me} />
        <AvatarForm session={session} me={me} />
      </Section>
      <Section id="settings-account" title="Password">
        <PasswordForm session={session} />
      </Section>
      <Section id="settings-status" title="Status">
        <StatusForm session={session} me={me} />
        <SettingToggle
          session={session}
          settings={settings}
          name="presence_enabled"
          invert
          label="Invisible mode: appear offline to others"
        />
      </Section>
      <Section id="settings-preferences" title="Preferences">
        <SettingToggle
          session={session}
          settings={settings}
          name="enter_sends"
          label="Enter sends the message (Shift+Enter starts a new line)"
        />
        <ThemeChoice />
      </Section>
      <Section id="settings-notifications" title="Notifications">
        <SettingToggle
          session={session}
          settings={settings}
          name="enable_desktop_notifications"
          label="Desktop notifications for direct messages and mentions"
        />
        <BrowserPermission />
      </Section>
    </div>
  );
}

function NameForm({ session, me }: { session: Session; me: UserSummary | undefined }) {
  const current = me?.full_name ?? "";
  const [name, setName] = useState(current);
  const [edited, setEdited] = useState(false);
  const save = useSave();
  // A name changed elsewhere shows here, unless the user is typing a new one.
  useEffect(() => {
    if (!edited) setName(current);
  }, [current, edited]);

  async function submit(event: Event) {
    event.preventDefault();
    const ok = await save.run(() => session.request("PATCH", "/settings", { full_name: name }));
    if (ok) setEdited(false);
  }

  return (
    <form class="settings-form" onSubmit={submit}>
      <label for="settings-full-name">Name</label>
      <div class="settings-row">
        <input
          id="settings-full-name"
          type="text"
          autocomplete="name"
          required
          value={name}
          aria-invalid={save.outcome?.kind === "error"}
          aria-describedby="settings-name-error"
          onInput={(event) => {
            setName(event.currentTarget.value);
            setEdited(true);
          }}
        />
        <button type="submit" class="primary" disabled={save.busy || name === current}>
          Save name
        </button>
      </div>
      <Feedback outcome={save.outcome} id="settings-name-error" />
    </form>
  );
}

/** `PATCH /settings` with the old password and the new one, as Zulip's settings page sends them.
 * The fields empty once it is changed; the browser's password manager is told by `autocomplete`. */
function PasswordForm({ session }: { session: Session }) {
  const [oldPassword, setOldPassword] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const save = useSave();

  async function submit(event: Event) {
    event.preventDefault();
    const params = { old_password: oldPassword, new_password: newPassword };
    const ok = await save.run(() => session.request("PATCH", "/settings", params), "Password changed.");
    if (ok) {
      setOldPassword("");
      setNewPassword("");
    }
  }

  return (
    <form class="settings-form" onSubmit={submit}>
      <label for="settings-old-password">Current password</label>
      <input
        id="settings-old-password"
        type="password"
        autocomplete="current-password"
        required
        value={oldPassword}
        onInput={(event) => setOldPassword(event.currentTarget.value)}
      />
      <label for="settings-new-password">New password</label>
      <div class="settings-row">
        <input
          id="settings-new-password"
          type="password"
          autocomplete="new-password"
          required
          value={newPassword}
          aria-invalid={save.outcome?.kind === "error"}
          aria-describedby="settings-password-error"
          onInput={(event) => setNewPassword(event.currentTarget.value)}
        />
        <button type="submit" class="primary" disabled={save.busy || !oldPassword || !newPassword}>
          Change password
        </button>
      </div>
      <Feedback outcome={save.outcome} id="settings-password-error" />
    </form>
  );
}

/** `POST /users/me/avatar`: the image as a multipart upload, authenticated as the API is. */
async function uploadAvatar(session: Session, file: File): Promise<void> {
  const credentials = session.credentials();
  const form = new FormData();
  form.append("file", file, file.name);
  let response: Response;
  try {
    response = await fetch(`${credentials.site}/api/v1/users/me/avatar`, {
      method: "POST",
      headers: { Authorization: authorization(credentials) },
      body: form,
    });
  } catch {
    throw new Error("Cannot reach the server.");
  }
  const body = (await response.json().catch(() => ({}))) as { result?: string; msg?: string };
  if (!response.ok || body.result !== "success") throw new Error(body.msg || response.statusText || "The upload failed.");
}

function AvatarForm({ session, me }: { session: Session; me: UserSummary | undefined }) {
  const save = useSave();
  const input = useRef<HTMLInputElement>(null);

  async function chosen(files: FileList | null) {
    const file = files?.[0];
    if (!file) return;
    await save.run(() => uploadAvatar(session, file), "New avatar saved.");
    if (input.current) input.current.value = "";
  }

  return (
    <div class="settings-avatar">
      <img class="avatar settings-avatar-image" src={avatarUrl(session, me, session.userId)} alt="Your avatar" width={96} height={96} />
      <div class="settings-avatar-actions">
        <label class="button-like" for="settings-avatar-file">
          Upload new avatar
        </label>
        <input
          ref={input}
          id="settings-avatar-file"
          class="visually-hidden"
          type="file"
          accept="image/*"
          disabled={save.busy}
          onChange={(event) => void chosen(event.currentTarget.files)}
        />
        <button
          type="button"
          class="danger"
          disabled={save.busy}
          onClick={() => save.run(() => session.request("DELETE", "/users/me/avatar"), "Avatar removed.")}
        >
          Delete avatar
        </button>
        <Feedback outcome={save.outcome} />
      </div>
    </div>
  );
}

/** Zulip's suggested statuses. */
const PRESETS = [
  { emoji: "calendar", text: "In a meeting" },
  { emoji: "bus", text: "Commuting" },
  { emoji: "sick", text: "Out sick" },
  { emoji: "palm_tree", text: "Vacationing" },
  { emoji: "house", text: "Working remotely" },
  { emoji: "office", text: "At the office" },
];

function StatusForm({ session, me }: { session: Session; me: UserSummary | undefined }) {
  const currentText = me?.status_text ?? "";
  const currentEmoji = me?.status_emoji ?? "";
  const [text, setText] = useState(currentText);
  const [emoji, setEmoji] = useState(currentEmoji);
  const [edited, setEdited] = useState(false);
  const save = useSave();
  useEffect(() => {
    if (!edited) {
      setText(currentText);
      setEmoji(currentEmoji);
    }
  }, [currentText, currentEmoji, edited]);

  async function send(statusText: string, emojiName: string, saved: string) {
    const ok = await save.run(
      () => session.request("POST", "/users/me/status", { status_text: statusText, emoji_name: emojiName.trim().replace(/^:|:$/g, "") }),
      saved,
    );
    if (ok) setEdited(false);
  }

  const unchanged = text === currentText && emoji === currentEmoji;
  return (
    <form
      class="settings-form"
      onSubmit={(event) => {
        event.preventDefault();
        void send(text, emoji, "Status saved.");
      }}
    >
      <div class="settings-row">
        <label class="settings-field">
          Emoji name
          <span class="settings-emoji-input">
            {emoji.trim() && <StatusEmoji session={session} name={emoji.trim().replace(/^:|:$/g, "")} />}
            <input
              type="text"
              value={emoji}
              placeholder="smile"
              aria-describedby="settings-status-error"
              onInput={(event) => {
                setEmoji(event.currentTarget.value);
                setEdited(true);
              }}
            />
          </span>
        </label>
        <label class="settings-field settings-grow">
          Status message
          <input
            type="text"
            value={text}
            placeholder="What's your status?"
            aria-describedby="settings-status-error"
            onInput={(event) => {
              setText(event.currentTarget.value);
              setEdited(true);
            }}
          />
        </label>
      </div>
      <fieldset class="settings-presets">
        <legend>Suggestions</legend>
        {PRESETS.map((preset) => (
          <button
            key={preset.text}
            type="button"
            onClick={() => {
              setEmoji(preset.emoji);
              setText(preset.text);
              setEdited(true);
            }}
          >
            <StatusEmoji session={session} name={preset.emoji} /> {preset.text}
          </button>
        ))}
      </fieldset>
      <div class="form-buttons">
        <button type="button" disabled={save.busy || (!currentText && !currentEmoji)} onClick={() => void send("", "", "Status cleared.")}>
          Clear status
        </button>
        <button type="submit" class="primary" disabled={save.busy || unchanged}>
          Save status
        </button>
      </div>
      <Feedback outcome={save.outcome} id="settings-status-error" />
    </form>
  );
}

type ToggleProps = {
  session: Session;
  settings: { [key in string]?: JsonValue };
  name: string;
  label: string;
  /** The checkbox shows the opposite of the setting (invisible mode is `presence_enabled` off). */
  invert?: boolean;
};

/** A boolean setting (`PATCH /settings`), saved on change; shows the chosen value until the event confirms it. */
function SettingToggle({ session, settings, name, label, invert = false }: ToggleProps) {
  const server = settings[name] === true;
  const [pending, setPending] = useState<boolean>();
  const save = useSave();
  useEffect(() => {
    if (pending !== undefined && pending === server) setPending(undefined);
  }, [server, pending]);
  const value = pending ?? server;

  async function change(checked: boolean) {
    const next = invert ? !checked : checked;
    setPending(next);
    const ok = await save.run(() => session.request("PATCH", "/settings", { [name]: next }));
    if (!ok) setPending(undefined);
  }

  return (
    <div class="settings-toggle">
      <label>
        <input type="checkbox" checked={invert ? !value : value} disabled={save.busy} onChange={(event) => change(event.currentTarget.checked)} />
        {label}
      </label>
      <Feedback outcome={save.outcome} />
    </div>
  );
}

function ThemeChoice() {
  const [theme, setTheme] = useState<Theme>(storedTheme());
  return (
    <fieldset class="settings-theme">
      <legend>Theme on this device</legend>
      {(["light", "dark", "system"] as const).map((choice) => (
        <label key={choice}>
          <input
            type="radio"
            name="settings-theme"
            checked={theme === choice}
            onChange={() => {
              chooseTheme(choice);
              setTheme(choice);
            }}
          />
          {choice === "system" ? "Automatic" : choice === "light" ? "Light" : "Dark"}
        </label>
      ))}
    </fieldset>
  );
}

function BrowserPermission() {
  const supported = typeof Notification !== "undefined";
  const [permission, setPermission] = useState<NotificationPermission | undefined>(supported ? Notification.permission : undefined);
  const [asking, setAsking] = useState(false);

  async function ask() {
    setAsking(true);
    try {
      setPermission(await Notification.requestPermission());
    } finally {
      setAsking(false);
    }
  }

  if (!supported) return <p class="view-note">This browser cannot show notifications.</p>;
  return (
    <div class="settings-permission">
      <p class="view-note" role="status">
        {permission === "granted"
          ? "This browser shows Confab's notifications."
          : permission === "denied"
            ? "This browser blocks Confab's notifications. Allow them in the browser's site settings, then reload."
            : "This browser has not been asked to show Confab's notifications yet."}
      </p>
      {permission === "default" && (
        <button type="button" class="primary" disabled={asking} onClick={ask}>
          Enable browser notifications
        </button>
      )}
    </div>
  );
}
