// /login/: email and password, through the engine. A server that cannot be reached gets a page
// of its own, with a retry, rather than a login error.
import { useState } from "preact/hooks";
import { Session } from "../session/session";
import { errorText } from "../session/api";

type Props = { onLogin: (session: Session) => void; reachable?: boolean };

export async function serverReachable(): Promise<boolean> {
  try {
    const response = await fetch("/api/v1/server_settings", { cache: "no-store" });
    return response.ok;
  } catch {
    return false;
  }
}

export function LoginPage({ onLogin, reachable = true }: Props) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [unreachable, setUnreachable] = useState(!reachable);

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      onLogin(await Session.login(location.origin, email.trim(), password));
    } catch (failure) {
      if (!(await serverReachable())) setUnreachable(true);
      else setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  }

  if (unreachable) return <Unreachable onRetry={() => serverReachable().then((ok) => setUnreachable(!ok))} />;

  return (
    <main class="login-page">
      <form class="login-card" onSubmit={submit} aria-labelledby="login-title">
        <img src="/static/icon.svg" alt="" width={48} height={48} />
        <h1 id="login-title">Log in to Confab</h1>
        <label>
          Email
          <input type="email" name="email" autocomplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        </label>
        <label>
          Password
          <input
            type="password"
            name="password"
            autocomplete="current-password"
            required
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </label>
        {error && (
          <p class="form-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" class="primary" disabled={busy}>
          {busy ? "Logging in…" : "Log in"}
        </button>
        {/* The server's own page: it mails a link to choose a new password. */}
        <a class="forgot-password" href="/accounts/password/reset/">
          Forgot your password?
        </a>
      </form>
    </main>
  );
}

export function Unreachable({ onRetry }: { onRetry: () => void }) {
  return (
    <main class="login-page">
      <section class="login-card" aria-labelledby="unreachable-title">
        <h1 id="unreachable-title">Can't reach the server</h1>
        <p>
          Confab at <strong>{location.host}</strong> is not answering. Check your connection, or ask whoever runs the
          server whether it is up.
        </p>
        <button type="button" class="primary" onClick={onRetry}>
          Try again
        </button>
      </section>
    </main>
  );
}
