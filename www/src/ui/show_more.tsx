// Long lists draw a page of rows at a time: the button that draws the next page.
export function ShowMore({ hidden, onMore }: { hidden: number; onMore: () => void }) {
  if (hidden <= 0) return null;
  return (
    <p class="show-more">
      <button type="button" onClick={onMore}>
        Show more ({hidden} hidden)
      </button>
    </p>
  );
}
