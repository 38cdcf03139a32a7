import { useLayoutEffect, type Ref, type RefObject } from 'react';
import { setRef } from './DeferredTooltip';

/**
 * The child of a Mantine `Popover.Target`/`Menu.Target` whose trigger is drawn elsewhere
 * (DeferredPopover): it hands the target's ref the trigger's DOM node, so Floating UI positions the
 * dropdown against it and a click on it is not a click outside. It draws nothing; the props the
 * Target adds (aria attributes, onClick) are the trigger's own already.
 */
export function AttachTarget({ target, ref }: { target: RefObject<HTMLElement | null>; ref?: Ref<HTMLElement> }) {
  useLayoutEffect(() => {
    setRef(ref, target.current);
    return () => setRef(ref, null);
  }, [ref, target]);
  return null;
}
