// The list under a field that suggests (ARIA listbox): the active option marked, and picked on
// mouse down, before the field's blur can close the list.
import type { ComponentChildren } from "preact";

type Props<T> = {
  id: string;
  label: string;
  options: readonly T[];
  active: number;
  keyOf: (option: T) => string;
  onPick: (option: T) => void;
  children: (option: T) => ComponentChildren;
  class?: string;
};

/** The id of option `index` of the list `id`, for the field's `aria-activedescendant`. */
export function optionId(id: string, index: number): string {
  return `${id}-option-${index}`;
}

export function SuggestionList<T>({ id, label, options, active, keyOf, onPick, children, class: className }: Props<T>) {
  return (
    <ul id={id} role="listbox" aria-label={label} class={`suggestions ${className ?? ""}`} hidden={options.length === 0}>
      {options.map((option, index) => (
        <li
          key={keyOf(option)}
          id={optionId(id, index)}
          role="option"
          aria-selected={index === active}
          class={index === active ? "active" : ""}
          onMouseDown={(event) => {
            event.preventDefault();
            onPick(option);
          }}
        >
          {children(option)}
        </li>
      ))}
    </ul>
  );
}
