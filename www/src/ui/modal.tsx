// A modal dialog on the native <dialog>: focus moves in and comes back, Esc closes.
import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";

type Props = { title: string; onClose: () => void; children: ComponentChildren; class?: string };

export function Modal({ title, onClose, children, class: className }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current!;
    const opener = document.activeElement as HTMLElement | null;
    element.showModal();
    return () => {
      element.close();
      opener?.focus?.();
    };
  }, []);
  const titleId = `modal-${title.replace(/\W+/g, "-").toLowerCase()}`;
  return (
    <dialog
      ref={dialog}
      class={`modal ${className ?? ""}`}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => event.target === dialog.current && onClose()}
    >
      <div class="modal-content">
        <header class="modal-header">
          <h2 id={titleId}>{title}</h2>
          <button type="button" class="icon-button" aria-label="Close" onClick={onClose}>
            ×
          </button>
        </header>
        {children}
      </div>
    </dialog>
  );
}
