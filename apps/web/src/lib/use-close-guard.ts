import * as React from 'react';

/** Lets the dialog around an editor ask it to close (Escape, its Close button): the editor asks first when there are unsaved changes. */
export type EditorCloseHandle = { requestClose: () => void };

/**
 * Closing the editor: refused while `blocked()` (a drag or a save is under way), through the
 * 'Discard unsaved changes?' question when the draft is dirty, at once otherwise. Also keeps
 * unsaved work from a mistaken reload or tab close.
 */
export function useCloseGuard({
  dirty,
  blocked,
  closeRef,
  onClose,
}: {
  dirty: boolean;
  blocked: () => boolean;
  closeRef: React.RefObject<EditorCloseHandle | null>;
  onClose: () => void;
}) {
  const [discardOpen, setDiscardOpen] = React.useState(false);

  const requestClose = () => {
    if (blocked()) return;
    if (dirty) setDiscardOpen(true);
    else onClose();
  };
  React.useEffect(() => {
    closeRef.current = { requestClose };
    return () => {
      closeRef.current = null;
    };
  });

  React.useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  return { requestClose, discardOpen, setDiscardOpen };
}
