// A list that keeps only the rows near the viewport in the DOM, so 10,000 messages scroll as
// smoothly as 50. Rows have their own heights: each is estimated until it has been drawn once,
// then measured. The row the reader is looking at stays put while rows above it are measured,
// added (older history) or change, and a list scrolled to the bottom stays there as rows come.
import type { ComponentChildren } from "preact";
import { useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";

export type ScrollRequest = { key: string; offset: number } | { bottom: true };

export type Viewport = {
  /** Keys of the rows entirely in view, top to bottom. */
  visible: string[];
  nearTop: boolean;
  nearBottom: boolean;
};

type Props<T> = {
  items: readonly T[];
  keyOf: (item: T) => string;
  estimate: (item: T) => number;
  render: (item: T, index: number) => ComponentChildren;
  /** A new object scrolls once: a row's top to `offset` pixels below the viewport's top, or to the end. */
  scrollRequest?: ScrollRequest;
  onViewport?: (viewport: Viewport) => void;
  id?: string;
  class?: string;
  label: string;
};

/** Rows drawn beyond each edge of the viewport, in pixels. */
const OVERSCAN = 800;
/** How close to an end counts as "near" it (to load more). */
const NEAR = 600;

type Anchor = { key: string; delta: number } | "bottom";

export function VirtualList<T>(props: Props<T>) {
  const { items, keyOf, estimate } = props;
  const container = useRef<HTMLDivElement>(null);
  const heights = useRef(new Map<string, number>());
  const anchor = useRef<Anchor>("bottom");
  const handledRequest = useRef<ScrollRequest>();
  const [measured, setMeasured] = useState(0);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewportHeight, setViewportHeight] = useState(600);

  const keys = useMemo(() => items.map(keyOf), [items]);
  const offsets = useMemo(() => {
    const result = new Float64Array(items.length + 1);
    for (let i = 0; i < items.length; i++) {
      result[i + 1] = result[i] + (heights.current.get(keys[i]) ?? estimate(items[i]));
    }
    return result;
  }, [items, keys, measured]);
  const indexByKey = useMemo(() => new Map(keys.map((key, index) => [key, index])), [keys]);
  const total = offsets[items.length];

  if (props.scrollRequest && props.scrollRequest !== handledRequest.current) {
    handledRequest.current = props.scrollRequest;
    anchor.current = "bottom" in props.scrollRequest ? "bottom" : { key: props.scrollRequest.key, delta: -props.scrollRequest.offset };
  }

  // Where the viewport should be, from the anchor (the layout effect applies it).
  const desiredTop = (() => {
    const current = anchor.current;
    if (current === "bottom") return Math.max(0, total - viewportHeight);
    const index = indexByKey.get(current.key);
    return index === undefined ? scrollTop : Math.max(0, offsets[index] - current.delta);
  })();
  const top = desiredTop;
  const first = Math.max(0, upperBound(offsets, top - OVERSCAN) - 1);
  const last = Math.min(items.length, upperBound(offsets, top + viewportHeight + OVERSCAN));

  useLayoutEffect(() => {
    const element = container.current;
    if (!element) return;
    if (Math.abs(element.scrollTop - desiredTop) > 1) element.scrollTop = desiredTop;
    // Measure the drawn rows; a changed height re-renders (and the anchor holds the view).
    let changed = false;
    for (const row of element.querySelectorAll<HTMLElement>(":scope > .vrow")) {
      const key = row.dataset.vkey!;
      const height = row.offsetHeight;
      if (heights.current.get(key) !== height) {
        heights.current.set(key, height);
        changed = true;
      }
    }
    if (changed) {
      setMeasured((n) => n + 1);
      return;
    }
    props.onViewport?.(viewport(element.scrollTop, element.clientHeight));
  });

  useLayoutEffect(() => {
    const element = container.current!;
    const observer = new ResizeObserver(() => setViewportHeight(element.clientHeight));
    observer.observe(element);
    setViewportHeight(element.clientHeight);
    return () => observer.disconnect();
  }, []);

  function viewport(scrolled: number, height: number): Viewport {
    const visible: string[] = [];
    for (let i = Math.max(0, upperBound(offsets, scrolled) - 1); i < items.length && offsets[i] < scrolled + height; i++) {
      if (offsets[i] >= scrolled - 1 && offsets[i + 1] <= scrolled + height + 1) visible.push(keys[i]);
    }
    return { visible, nearTop: scrolled < NEAR, nearBottom: total - scrolled - height < NEAR };
  }

  function onScroll() {
    const element = container.current!;
    const scrolled = element.scrollTop;
    if (element.scrollHeight - scrolled - element.clientHeight < 2) {
      anchor.current = "bottom";
    } else {
      const index = Math.min(items.length - 1, Math.max(0, upperBound(offsets, scrolled) - 1));
      if (index >= 0 && keys[index] !== undefined) anchor.current = { key: keys[index], delta: offsets[index] - scrolled };
    }
    setScrollTop(scrolled);
  }

  const rows = [];
  for (let index = first; index < last; index++) {
    rows.push(
      <div class="vrow" key={keys[index]} data-vkey={keys[index]}>
        {props.render(items[index], index)}
      </div>,
    );
  }
  return (
    <div ref={container} id={props.id} class={`virtual-list ${props.class ?? ""}`} onScroll={onScroll} role="region" aria-label={props.label} tabIndex={0}>
      <div class="vspacer" style={{ height: `${offsets[first]}px` }} aria-hidden="true" />
      {rows}
      <div class="vspacer" style={{ height: `${total - offsets[last]}px` }} aria-hidden="true" />
    </div>
  );
}

/** The first index whose offset is greater than `value`. */
function upperBound(offsets: Float64Array, value: number): number {
  let low = 0;
  let high = offsets.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (offsets[middle] <= value) low = middle + 1;
    else high = middle;
  }
  return low;
}
