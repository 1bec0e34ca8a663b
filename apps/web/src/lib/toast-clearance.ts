import * as React from 'react';

/**
 * Toasts stand at the bottom of the window at every width (at the top, on a phone, they covered an
 * open dialog's header). This keeps them clear of an element at the bottom of the screen (the
 * campaign editor's action bar):
 * while it is mounted, `--toast-clearance` on the root is the distance from its top edge to the
 * bottom of the window, and the toast viewport stands on it (first-hour finding 4: a red toast sat
 * over Send Campaign for five seconds).
 */
export function useToastClearance(ref: React.RefObject<HTMLElement | null>): void {
  React.useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const root = document.documentElement;
    const update = () => {
      const { top } = element.getBoundingClientRect();
      root.style.setProperty('--toast-clearance', `${Math.max(0, Math.round(window.innerHeight - top))}px`);
    };
    update();
    // The dialog zooms in on open: measure again once it has settled (a transform fires no resize).
    const settled = window.setTimeout(update, 300);
    const observer = new ResizeObserver(update);
    observer.observe(element);
    window.addEventListener('resize', update);
    // A dialog taller than a phone scrolls inside itself: its buttons come up from below the fold
    // (where no toast needs to clear them) into view, and a toast measured before covered them (issue
    // 34: the 'already exists' toast over Create at 390 px). Scroll does not bubble; capture sees every one.
    window.addEventListener('scroll', update, { capture: true, passive: true });
    return () => {
      window.clearTimeout(settled);
      observer.disconnect();
      window.removeEventListener('resize', update);
      window.removeEventListener('scroll', update, { capture: true });
      root.style.removeProperty('--toast-clearance');
    };
  }, [ref]);
}
