import { useEffect } from 'react';

/** Sets the tab title to "{title} · Chronicler". */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · Chronicler` : 'Chronicler';
  }, [title]);
}
