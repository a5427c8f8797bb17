// The message's text: a textarea with autocomplete, a live preview, and uploads by paste or
// drop (each shows its progress, then becomes a link in the text).
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { useSession } from "../ui/context";
import { upload } from "../session/api";
import { EmojiGlyph } from "../messages/emoji_glyph";
import { SuggestionList, optionId } from "../ui/suggestion_list";
import { applyCompletion, completions, tokenAt, type Completion, type Token } from "./typeahead";

type Props = {
  content: string;
  onContent: (text: string) => void;
  onSend: () => void;
  /** Changes when the text should take focus. */
  focusToken: number;
  /** Text to add at the cursor (a quote). */
  insert?: string;
  onInserted: () => void;
};

type Upload = { id: number; name: string; fraction: number; error?: string };
let nextUpload = 1;

export function MessageText({ content, onContent, onSend, focusToken, insert, onInserted }: Props) {
  const session = useSession();
  const area = useRef<HTMLTextAreaElement>(null);
  const [token, setToken] = useState<Token>();
  const [active, setActive] = useState(0);
  const [preview, setPreview] = useState(false);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [dragging, setDragging] = useState(false);
  const latest = useRef(content);
  latest.current = content;
  const enterSends = session.client.ownSettings().enter_sends === true;
  const options: Completion[] = token ? completions(session, token) : [];
  const cursorAfter = useRef<number>();

  // Focus comes back to the text when asked, and when the preview closes.
  useEffect(() => {
    if (!preview) area.current?.focus();
  }, [focusToken, preview]);
  useLayoutEffect(() => {
    if (cursorAfter.current !== undefined && area.current) {
      area.current.setSelectionRange(cursorAfter.current, cursorAfter.current);
      cursorAfter.current = undefined;
    }
  });
  useEffect(() => {
    if (insert === undefined) return;
    const text = latest.current;
    const at = area.current?.selectionStart ?? text.length;
    const before = text.slice(0, at);
    const glue = before === "" || before.endsWith("\n") ? "" : "\n";
    onContent(before + glue + insert + text.slice(at));
    cursorAfter.current = at + glue.length + insert.length;
    onInserted();
  }, [insert]);

  function insertAtCursor(text: string) {
    const element = area.current;
    const current = latest.current;
    const at = element?.selectionStart ?? current.length;
    onContent(current.slice(0, at) + text + current.slice(element?.selectionEnd ?? at));
    cursorAfter.current = at + text.length;
  }

  function uploadFiles(files: FileList | File[]) {
    for (const file of Array.from(files)) {
      const id = nextUpload++;
      const placeholder = `[Uploading ${file.name}…]()`;
      insertAtCursor(`${placeholder} `);
      setUploads((all) => [...all, { id, name: file.name, fraction: 0 }]);
      const progress = (fraction: number) => setUploads((all) => all.map((u) => (u.id === id ? { ...u, fraction } : u)));
      upload(session.credentials(), file, progress).then(
        (result) => {
          onContent(latest.current.replace(placeholder, `[${result.filename}](${result.url})`));
          setUploads((all) => all.filter((u) => u.id !== id));
        },
        (error: Error) => {
          onContent(latest.current.replace(`${placeholder} `, "").replace(placeholder, ""));
          setUploads((all) => all.map((u) => (u.id === id ? { ...u, error: error.message } : u)));
        },
      );
    }
  }

  function pick(option: Completion) {
    const element = area.current!;
    const next = applyCompletion(content, element.selectionStart, token!, option);
    onContent(next.text);
    cursorAfter.current = next.cursor;
    setToken(undefined);
  }

  function onKeyDown(event: KeyboardEvent) {
    if (options.length > 0) {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        setActive((active + (event.key === "ArrowDown" ? 1 : options.length - 1)) % options.length);
        return;
      }
      if (event.key === "Enter" || event.key === "Tab") {
        event.preventDefault();
        pick(options[active]);
        return;
      }
      if (event.key === "Escape") {
        event.preventDefault();
        event.stopPropagation();
        setToken(undefined);
        return;
      }
    }
    if (event.key === "Enter") {
      const modified = event.ctrlKey || event.metaKey;
      if ((enterSends && !event.shiftKey && !modified) || (!enterSends && modified)) {
        event.preventDefault();
        onSend();
      }
    }
  }

  const rendered = preview ? session.client.renderPreview(content).html : "";
  return (
    <div
      class={`message-text ${dragging ? "dragging" : ""}`}
      onDragOver={(event) => {
        if (event.dataTransfer?.types.includes("Files")) {
          event.preventDefault();
          setDragging(true);
        }
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(event) => {
        setDragging(false);
        if (event.dataTransfer?.files.length) {
          event.preventDefault();
          uploadFiles(event.dataTransfer.files);
        }
      }}
    >
      {preview ? (
        <div class="preview rendered_markdown" aria-label="Preview" tabIndex={0} dangerouslySetInnerHTML={{ __html: rendered || "<p><em>Nothing to preview</em></p>" }} />
      ) : (
        <textarea
          ref={area}
          aria-label="Message text"
          placeholder={enterSends ? "Message (Enter sends, Shift+Enter for a new line)" : "Message (Ctrl+Enter sends)"}
          value={content}
          rows={3}
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={options.length > 0}
          aria-controls="compose-typeahead"
          aria-activedescendant={options.length > 0 ? optionId("compose-typeahead", active) : undefined}
          onInput={(event) => {
            const element = event.currentTarget;
            onContent(element.value);
            setToken(tokenAt(element.value, element.selectionStart));
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          onBlur={() =>
            // Later, so a click on a suggestion lands first; not if the focus came back since.
            setTimeout(() => document.activeElement !== area.current && setToken(undefined), 150)
          }
          onPaste={(event) => {
            const files = event.clipboardData?.files;
            if (files && files.length > 0) {
              event.preventDefault();
              uploadFiles(files);
            }
          }}
        />
      )}
      <SuggestionList id="compose-typeahead" label="Suggestions" class="typeahead" options={options} active={active} keyOf={(o) => o.key} onPick={pick}>
        {(option) => (
          <>
            {option.emoji && <EmojiGlyph session={session} name={option.emoji.name} code={option.emoji.code} type={option.emoji.type} />}
            <span class="option-label">{option.label}</span>
            {option.detail && <span class="option-detail">{option.detail}</span>}
          </>
        )}
      </SuggestionList>
      {uploads.length > 0 && (
        <ul class="uploads" aria-label="Uploads">
          {uploads.map((item) => (
            <li key={item.id}>
              {item.name}{" "}
              {item.error ? (
                <span class="form-error" role="alert">
                  {item.error}{" "}
                  <button type="button" class="link-button" onClick={() => setUploads((all) => all.filter((u) => u.id !== item.id))}>
                    Dismiss
                  </button>
                </span>
              ) : (
                <progress value={item.fraction} max={1} aria-label={`Uploading ${item.name}`} />
              )}
            </li>
          ))}
        </ul>
      )}
      <div class="text-tools">
        <label class="upload-button">
          Attach files
          <input type="file" multiple class="visually-hidden" onChange={(e) => e.currentTarget.files && uploadFiles(e.currentTarget.files)} />
        </label>
        <button type="button" class="link-button" aria-pressed={preview} onClick={() => setPreview(!preview)}>
          {preview ? "Edit" : "Preview"}
        </button>
      </div>
    </div>
  );
}
