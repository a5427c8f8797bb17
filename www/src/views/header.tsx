// The top bar: home link, the search bar, and the user's menu.
import { useState } from "preact/hooks";
import type { Route } from "../route";
import { SearchBar } from "./search_bar";
import { useSession, useChanges } from "../ui/context";
import { userById, avatarUrl } from "../ui/people";
import { chooseTheme, storedTheme, type Theme } from "../ui/theme";

type Props = { route: Route; onLogout: () => void };

export function Header({ route, onLogout }: Props) {
  return (
    <header class="top-bar">
      <a class="brand" href="#" aria-label="Confab: home view">
        <img src="/static/icon.svg" alt="" width={28} height={28} />
        <span>Confab</span>
      </a>
      <SearchBar route={route} />
      <UserMenu onLogout={onLogout} />
    </header>
  );
}

function UserMenu({ onLogout }: { onLogout: () => void }) {
  const session = useSession();
  useChanges((changes) => changes.users.includes(session.userId) || changes.settings);
  const [open, setOpen] = useState(false);
  const [theme, setTheme] = useState<Theme>(storedTheme());
  const me = userById(session, session.userId);
  const pick = (next: Theme) => {
    chooseTheme(next);
    setTheme(next);
  };
  return (
    <div class="user-menu">
      <button
        type="button"
        class="avatar-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label="Personal menu"
        onClick={() => setOpen(!open)}
      >
        <img class="avatar" src={avatarUrl(session, me, session.userId)} alt="" width={28} height={28} />
      </button>
      {open && (
        <div class="menu" role="menu" onKeyDown={(e) => e.key === "Escape" && setOpen(false)}>
          <p class="menu-title">{me?.full_name}</p>
          <a role="menuitem" href="#settings/profile" onClick={() => setOpen(false)}>
            Profile and status
          </a>
          <a role="menuitem" href="#channels/subscribed" onClick={() => setOpen(false)}>
            Channels
          </a>
          <fieldset class="theme-choice">
            <legend>Theme</legend>
            {(["light", "dark", "system"] as const).map((choice) => (
              <label key={choice}>
                <input type="radio" name="theme" checked={theme === choice} onChange={() => pick(choice)} />
                {choice === "system" ? "Automatic" : choice === "light" ? "Light" : "Dark"}
              </label>
            ))}
          </fieldset>
          <button type="button" role="menuitem" onClick={onLogout}>
            Log out
          </button>
        </div>
      )}
    </div>
  );
}
