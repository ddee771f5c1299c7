import {
  useLayoutEffect,
  useRef,
  useState,
  type CSSProperties,
  type HTMLAttributes,
  type RefObject,
} from 'react';

/**
 * What makes a box scroll sideways: its own overflow, and a containing block for what inside is
 * positioned absolutely (a visually hidden label), which would otherwise be placed against the
 * page and widen it.
 */
const SCROLLS: CSSProperties = { overflowX: 'auto', position: 'relative' };

/**
 * The name of the scrolling region around what `label` names: not the name itself, which the
 * section around it (or the table inside) already has, and saying what the region is for.
 */
export function sideScrollName(label: string): string {
  return `${label}, scrolls sideways`;
}

/**
 * A box that scrolls sideways when its content is wider than it (a table on a phone): the page
 * keeps the screen's width and only the box scrolls. While the content overflows, the box is a
 * focusable region named after `label` (see {@link sideScrollName}), so a keyboard user can
 * scroll it too (WCAG 2.1.1; axe's scrollable-region-focusable); when everything fits (a
 * desktop), it adds no tab stop. Spread `regionProps` on the box and give it `ref`.
 */
export function useSideScroll<T extends HTMLElement>(
  label: string,
): { ref: RefObject<T | null>; regionProps: HTMLAttributes<T> } {
  const ref = useRef<T>(null);
  const [overflows, setOverflows] = useState(false);
  useLayoutEffect(() => {
    const box = ref.current;
    if (!box || typeof ResizeObserver === 'undefined') return;
    const measure = () => setOverflows(box.scrollWidth > box.clientWidth + 1);
    // The box's size and its content's (a table growing as rows arrive).
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    for (const child of Array.from(box.children)) observer.observe(child);
    measure();
    return () => observer.disconnect();
  }, []);
  return {
    ref,
    regionProps: overflows
      ? { style: SCROLLS, tabIndex: 0, role: 'region', 'aria-label': sideScrollName(label) }
      : { style: SCROLLS },
  };
}
