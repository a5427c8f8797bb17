// A text field with a list of suggestions (ARIA combobox): arrows move, Enter or Tab picks,
// Esc closes the list.
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { SuggestionList, optionId } from "./suggestion_list";

export type Option = { key: string; label: string; detail?: string; icon?: ComponentChildren };

type Props = {
  id: string;
  label: string;
  value: string;
  placeholder?: string;
  options: (query: string) => Option[];
  onInput: (value: string) => void;
  onPick: (option: Option) => void;
  onKeyDown?: (event: KeyboardEvent) => void;
  inputRef?: (element: HTMLInputElement | null) => void;
  class?: string;
};

export function Combobox(props: Props) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const options = open ? props.options(props.value) : [];
  const listId = `${props.id}-options`;
  function pick(option: Option | undefined) {
    if (!option) return false;
    props.onPick(option);
    setOpen(false);
    return true;
  }
  return (
    <div class={`combobox ${props.class ?? ""}`}>
      <input
        id={props.id}
        ref={props.inputRef}
        aria-label={props.label}
        placeholder={props.placeholder}
        value={props.value}
        role="combobox"
        autocomplete="off"
        aria-autocomplete="list"
        aria-expanded={options.length > 0}
        aria-controls={listId}
        aria-activedescendant={options.length > 0 ? optionId(listId, active) : undefined}
        onInput={(event) => {
          props.onInput(event.currentTarget.value);
          setOpen(true);
          setActive(0);
        }}
        onFocus={() => setOpen(true)}
        onBlur={(event) => {
          const input = event.currentTarget;
          // Later, so a click on a suggestion lands first; not if the focus came back since.
          setTimeout(() => document.activeElement !== input && setOpen(false), 150);
        }}
        onKeyDown={(event) => {
          if (options.length > 0 && event.key === "ArrowDown") {
            event.preventDefault();
            setActive(Math.min(active + 1, options.length - 1));
          } else if (options.length > 0 && event.key === "ArrowUp") {
            event.preventDefault();
            setActive(Math.max(active - 1, 0));
          } else if (options.length > 0 && (event.key === "Enter" || event.key === "Tab")) {
            if (pick(options[active])) event.preventDefault();
          } else if (event.key === "Escape" && options.length > 0) {
            event.preventDefault();
            event.stopPropagation();
            setOpen(false);
          }
          props.onKeyDown?.(event);
        }}
      />
      <SuggestionList id={listId} label={`${props.label} suggestions`} options={options} active={active} keyOf={(o) => o.key} onPick={pick}>
        {(option) => (
          <>
            {option.icon}
            <span class="option-label">{option.label}</span>
            {option.detail && <span class="option-detail">{option.detail}</span>}
          </>
        )}
      </SuggestionList>
    </div>
  );
}
