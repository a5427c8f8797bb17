// The messages of a narrow as the engine knows them: a first page around the first unread
// message (or the newest, from the cache when offline), more on demand at either end, and the
// loaded range read again from the engine whenever it says the narrow or its messages changed.
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import type { Anchor, ChatMessage, NarrowTerm } from "confab-web";
import type { Session } from "../session/session";
import { errorText } from "../session/api";

export type NarrowMessages = {
  messages: ChatMessage[];
  foundOldest: boolean;
  foundNewest: boolean;
  loading: boolean;
  error?: string;
  /** The first message that was unread when the view opened (where "new messages" shows). */
  firstUnread?: number;
  /** Where the messages of this topic went, when someone moved or renamed (or resolved) it. */
  movedTo?: { streamId: number; topic: string };
  loadOlder: () => void;
  loadNewer: () => void;
};

const PAGE = 100;

type Window = { messages: ChatMessage[]; foundOldest: boolean; foundNewest: boolean };

export function useNarrowMessages(session: Session, narrow: NarrowTerm[], near?: number): NarrowMessages {
  const [window, setWindow] = useState<Window>({ messages: [], foundOldest: false, foundNewest: false });
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string>();
  const [firstUnread, setFirstUnread] = useState<number>();
  const [movedTo, setMovedTo] = useState<{ streamId: number; topic: string }>();
  const current = useRef(window);
  current.current = window;
  const busy = useRef(false);
  const key = useRef("");

  const fetchPage = useCallback(
    (anchor: Anchor, before: number, after: number) => session.client.messages(narrow, anchor, before, after),
    [session, narrow],
  );

  // The first page.
  useEffect(() => {
    let cancelled = false;
    key.current = session.client.narrowKey(narrow);
    busy.current = true;
    const first = async () => {
      const anchor: Anchor = near ?? "first_unread";
      try {
        return await fetchPage(anchor, PAGE / 2, PAGE / 2);
      } catch (failure) {
        // Offline: what the cache has of the narrow's newest messages.
        try {
          return await fetchPage("newest", PAGE, 0);
        } catch {
          throw failure;
        }
      }
    };
    first()
      .then((page) => {
        if (cancelled) return;
        setWindow({ messages: page.messages, foundOldest: page.found_oldest, foundNewest: page.found_newest });
        setFirstUnread(page.messages.find((m) => !m.flags.includes("read") && !m.local_id && m.sender_id !== session.userId)?.id);
        setError(undefined);
      })
      .catch((failure) => !cancelled && setError(errorText(failure)))
      .finally(() => {
        busy.current = false;
        if (!cancelled) setLoading(false);
      });
    return () => {
      cancelled = true;
    };
  }, [session, fetchPage, near]);

  // A topic narrow whose messages all left: if the topic was moved, say where to.
  const isTopicNarrow = narrow.some((t) => (t.operator === "topic" || t.operator === "subject") && !t.negated);
  const followMove = (before: ChatMessage[], after: ChatMessage[]) => {
    const gone = before.find((m) => !m.local_id);
    if (!isTopicNarrow || after.length > 0 || !gone) return;
    session.client
      .messages([{ operator: "id", operand: gone.id }], gone.id, 0, 0)
      .then((page) => {
        const moved = page.messages.find((m) => m.id === gone.id);
        if (moved?.type === "stream" && moved.stream_id !== undefined) setMovedTo({ streamId: moved.stream_id, topic: moved.subject });
      })
      .catch(() => undefined);
  };

  // The loaded range again, when the engine says it may differ.
  useEffect(() => {
    let frame = 0;
    const refresh = () => {
      frame = 0;
      const { messages, foundNewest } = current.current;
      const firstId = messages.find((m) => !m.local_id)?.id;
      const anchor: Anchor = firstId ?? (foundNewest ? "newest" : "oldest");
      const count = messages.length + PAGE;
      const page = firstId === undefined ? fetchPage("newest", PAGE, 0) : fetchPage(anchor, 0, count);
      page
        .then((page) => {
          const oldest = firstId === undefined ? page.found_oldest : current.current.foundOldest;
          setWindow({ messages: page.messages, foundOldest: oldest, foundNewest: page.found_newest });
          followMove(messages, page.messages);
        })
        .catch(() => undefined);
    };
    return session.onChange((changes) => {
      if (frame) return;
      const loaded = current.current.messages;
      const relevant =
        changes.resync ||
        changes.outbox ||
        changes.narrows.includes(key.current) ||
        (changes.messages.length > 0 && loaded.some((m) => changes.messages.includes(m.id)));
      if (relevant && !busy.current) frame = requestAnimationFrame(refresh);
    });
  }, [session, fetchPage]);

  const loadMore = useCallback(
    (older: boolean) => {
      const { messages, foundOldest, foundNewest } = current.current;
      if (busy.current || (older ? foundOldest : foundNewest)) return;
      const real = messages.filter((m) => !m.local_id);
      const edge = older ? real[0] : real[real.length - 1];
      if (!edge) return;
      busy.current = true;
      setLoading(true);
      fetchPage(edge.id, older ? PAGE : 0, older ? 0 : PAGE)
        .then((page) => {
          const known = new Set(messages.map((m) => m.id));
          const added = page.messages.filter((m) => !known.has(m.id) || m.local_id);
          if (older) {
            setWindow({ messages: [...added.filter((m) => !m.local_id), ...messages], foundOldest: page.found_oldest, foundNewest });
          } else {
            const merged = [...real, ...added.filter((m) => !known.has(m.id) || m.local_id)];
            setWindow({ messages: merged, foundOldest, foundNewest: page.found_newest });
          }
        })
        .catch((failure) => setError(errorText(failure)))
        .finally(() => {
          busy.current = false;
          setLoading(false);
        });
    },
    [fetchPage],
  );

  return {
    ...window,
    loading,
    error,
    firstUnread,
    movedTo,
    loadOlder: () => loadMore(true),
    loadNewer: () => loadMore(false),
  };
}
