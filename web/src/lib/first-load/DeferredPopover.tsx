import { cloneElement, useId, useRef, useState, type MouseEvent, type ReactElement, type ReactNode, type RefObject } from 'react';
import { type ForwardedProps, useMergedRefs } from './DeferredTooltip';
import { OpenedOnce } from './OpenedOnce';

/** What the trigger receives: a DeferredTooltip passes the same on to its control. */
type TriggerProps = ForwardedProps;

/** What a deferred popover's layer (its lazy module) receives. */
export interface PopoverLayerProps {
  /** Open or closed; false on its first render (it mounts closed, then opens: see OpenedOnce). */
  opened: boolean;
  onChange: (opened: boolean) => void;
  /** The trigger's DOM node: give it to Mantine's `Popover.Target`/`Menu.Target` with `<AttachTarget target={target} />`. */
  target: RefObject<HTMLElement | null>;
  /** Pass as the Popover's or Menu's `id`: the trigger carries it, the dropdown `${id}-dropdown` (Mantine's ids). */
  id: string;
}

export interface DeferredPopoverProps {
  /** The control that opens it: one element that takes a ref, `onClick`, `id` and aria attributes (a Mantine button does). */
  trigger: ReactElement<TriggerProps>;
  /** `dialog` for a Popover, `menu` for a Menu (the trigger's `aria-haspopup`). */
  popup: 'dialog' | 'menu';
  /** Draws the Popover or Menu (usually a lazy component) around `<AttachTarget target={target} />`. */
  children: (layer: PopoverLayerProps) => ReactNode;
}

/**
 * A Mantine Popover or Menu mounted — and, drawn by a lazy module, downloaded — on first use
 * (docs/web.md#first-load; see OpenedOnce). The trigger is always this component's own element, the
 * same DOM node before and after (focus and a click in progress are kept); it carries what
 * `Popover.Target` would give it (`id`, `aria-haspopup`, `aria-expanded`, `aria-controls`) and
 * opens and closes the layer on click, which Enter and Space on a button are. The layer is
 * controlled (`opened`/`onChange`): Mantine closes it on Escape, a click outside or a menu item's
 * click, and traps and returns focus as it would.
 */
export function DeferredPopover({ trigger, popup, children }: DeferredPopoverProps) {
  const targetRef = useRef<HTMLElement>(null);
  const id = `popover-${useId().replace(/[^\w-]/g, '')}`;
  const [opened, setOpened] = useState(false);
  const own = trigger.props;
  const ref = useMergedRefs(targetRef, own.ref);
  const control = cloneElement(trigger, {
    ref,
    id,
    'aria-haspopup': popup,
    'aria-expanded': opened,
    'aria-controls': opened ? `${id}-dropdown` : undefined,
    onClick: (event: MouseEvent<HTMLElement>) => {
      own.onClick?.(event);
      setOpened((was) => !was);
    },
  });
  return (
    <>
      {control}
      <OpenedOnce opened={opened}>{(layerOpened) => children({ opened: layerOpened, onChange: setOpened, target: targetRef, id })}</OpenedOnce>
    </>
  );
}
