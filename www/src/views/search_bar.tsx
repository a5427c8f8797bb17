// The search bar: Zulip's search syntax (`channel:`, `topic:`, `sender:`, `has:`, `is:`, free
// text) with the engine's suggestions. It shows the current narrow as text.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { SearchSuggestion } from "confab-web";
import { narrowHref, routeNarrow, type Route } from "../route";
import { useSession } from "../ui/context";
import { SuggestionList, optionId } from "../ui/suggestion_list";

export function SearchBar({ route }: { route: Route }) {
  const session = useSession();
  const narrow = routeNarrow(route);
  const shown = useMemo(() => (route.view === "narrow" && narrow ? session.client.searchText(narrow) : ""), [session, route]);
  const [text, setText] = useState(shown);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => setText(shown), [shown]);
  useEffect(() => {
    const focus = () => input.current?.focus();
    addEventListener("confab:search", focus);
    return () => removeEventListener("confab:search", focus);
  }, []);

  const suggestions: SearchSuggestion[] = open && text.trim() ? session.client.searchSuggestions(text) : [];

  function go(suggestion: SearchSuggestion | undefined) {
    if (suggestion && !suggestion.complete) {
      // An operator still waiting for its value (`sender:`): it goes in the box, to be finished.
      setText(suggestion.search);
      setActive(0);
      input.current?.focus();
      return;
    }
    const terms = suggestion ? suggestion.narrow : session.client.parseSearch(text);
    setOpen(false);
    input.current?.blur();
    location.hash = terms.length === 0 ? "#feed" : narrowHref(session, terms);
  }

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === "ArrowDown") {
      event.preventDefault();
      setActive(Math.min(active + 1, suggestions.length - 1));
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      setActive(Math.max(active - 1, 0));
    } else if (event.key === "Enter") {
      event.preventDefault();
      go(suggestions[active]);
    } else if (event.key === "Escape") {
      setOpen(false);
      setText(shown);
      input.current?.blur();
    }
  }

  return (
    <search class="search-bar">
      <form role="search" onSubmit={(e) => e.preventDefault()}>
        <input
          ref={input}
          type="search"
          aria-label="Search messages"
          placeholder="Search (channel:, topic:, sender:, has:, is:)"
          value={text}
          role="combobox"
          aria-expanded={suggestions.length > 0}
          aria-controls="search-suggestions"
          aria-autocomplete="list"
          aria-activedescendant={suggestions.length > 0 ? optionId("search-suggestions", active) : undefined}
          onInput={(e) => {
            setText(e.currentTarget.value);
            setOpen(true);
            setActive(0);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => setTimeout(() => document.activeElement !== input.current && setOpen(false), 150)}
          onKeyDown={onKeyDown}
        />
      </form>
      <SuggestionList id="search-suggestions" label="Search suggestions" options={suggestions} active={active} keyOf={(s) => s.search} onPick={go}>
        {(suggestion) => (
          <>
            <span class="suggestion-search">{suggestion.search}</span>
            <span class="suggestion-description">{suggestion.description}</span>
          </>
        )}
      </SuggestionList>
    </search>
  );
}
