// One signed-in session: the engine's Client, its snapshot kept in IndexedDB, and the change
// notifications the views listen to.
import { Client, type Changes, type SessionCredentials } from "confab-web";
import { api, type Params } from "./api";
import { clearSnapshot, loadSnapshot, saveSnapshot } from "./persist";

type Listener = (changes: Changes) => void;

/** How long changes may wait before the snapshot is written (a burst of events writes once). */
const PERSIST_DELAY_MS = 400;

export class Session {
  private readonly listeners = new Set<Listener>();
  private persistTimer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;

  private constructor(readonly client: Client) {
    client.onChange((changes) => {
      this.schedulePersist();
      for (const listener of this.listeners) listener(changes);
    });
    addEventListener("pagehide", () => this.persistNow());
    // Back online: try the server now rather than at the end of the engine's backoff.
    addEventListener("online", () => client.reconnect());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "hidden") this.persistNow();
    });
  }

  /** The session saved by the last page, if any. A snapshot that cannot be read is dropped. */
  static async restore(): Promise<Session | undefined> {
    const snapshot = await loadSnapshot().catch(() => undefined);
    if (!snapshot) return undefined;
    try {
      return new Session(Client.restore(snapshot));
    } catch (error) {
      console.warn("Dropping a saved session that cannot be restored:", error);
      await clearSnapshot().catch(() => undefined);
      return undefined;
    }
  }

  /** Logs in with a password; the new session is saved before it resolves. */
  static async login(site: string, email: string, password: string): Promise<Session> {
    const session = new Session(await Client.login(site, email, password));
    await session.persistNow();
    return session;
  }

  get userId(): number {
    return this.client.userId();
  }

  credentials(): SessionCredentials {
    return this.client.credentials();
  }

  /** An API request the engine does not make itself. */
  request<T = Record<string, unknown>>(method: "GET" | "POST" | "PATCH" | "DELETE", path: string, params?: Params): Promise<T> {
    return api<T>(this.credentials(), method, path, params);
  }

  onChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async start(): Promise<void> {
    await this.client.start();
  }

  /** Forgets the session on this device: the event queue is deleted and the snapshot erased. */
  async logout(): Promise<void> {
    this.closed = true;
    clearTimeout(this.persistTimer);
    await clearSnapshot().catch(() => undefined);
    await this.client.close().catch(() => undefined);
  }

  private schedulePersist() {
    if (this.closed || this.persistTimer !== undefined) return;
    // Marked on the page until written, so tests can wait for the save instead of guessing.
    document.documentElement.dataset.snapshotPending = "true";
    this.persistTimer = setTimeout(() => {
      this.persistTimer = undefined;
      void this.persistNow();
    }, PERSIST_DELAY_MS);
  }

  async persistNow(): Promise<void> {
    if (this.closed) return;
    clearTimeout(this.persistTimer);
    this.persistTimer = undefined;
    await saveSnapshot(this.client.snapshot()).catch((error) => console.warn("Could not save the session:", error));
    if (this.persistTimer === undefined) delete document.documentElement.dataset.snapshotPending;
  }
}
