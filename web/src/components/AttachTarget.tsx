import { useLayoutEffect, type Ref, type RefObject } from 'react';

/**
 * The child of a Mantine `Popover.Target`/`Menu.Target` whose trigger is drawn elsewhere
 * (DeferredPopover): it hands the target's ref the trigger's DOM node, so Floating UI positions the
 * dropdown against it and a click on it is not a click outside. It draws nothing; the props the
 * Target adds (aria attributes, onClick) are the trigger's own already.
 */
export function AttachTarget({ target, ref }: { target: RefObject<HTMLElement | null>; ref?: Ref<HTMLElement> }) {
  useLayoutEffect(() => {
    assign(ref, target.current);
    return () => assign(ref, null);
  }, [ref, target]);
  return null;
}

function assign(ref: Ref<HTMLElement> | undefined, node: HTMLElement | null) {
  if (typeof ref === 'function') ref(node);
  else if (ref) ref.current = node;
}
