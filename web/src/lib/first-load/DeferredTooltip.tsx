import {
  cloneElement,
  useCallback,
  useEffect,
  lazy,
  Suspense,
  useRef,
  useState,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
  type Ref,
} from 'react';
import type { FloatingPosition } from '@mantine/core';

// Floating UI (~17 kB gzip) is fetched the first time a pointer reaches the control, so
// a first screen with a tooltip does not download it (the first-route JavaScript budget).
const MantineTooltip = lazy(() => import('./MantineTooltip'));

interface TriggerProps extends ForwardedProps {
  onMouseEnter?: (event: MouseEvent<HTMLElement>) => void;
  onMouseLeave?: (event: MouseEvent<HTMLElement>) => void;
}

/** What a DeferredPopover gives its trigger: passed on to the control (a tooltip on a popover's trigger). */
export interface ForwardedProps {
  ref?: Ref<HTMLElement>;
  onClick?: (event: MouseEvent<HTMLElement>) => void;
  id?: string;
  'aria-haspopup'?: 'dialog' | 'menu';
  'aria-expanded'?: boolean;
  'aria-controls'?: string;
}

export interface DeferredTooltipProps extends ForwardedProps {
  label: ReactNode;
  /** One element that takes a ref and mouse handlers (a Mantine button does). */
  children: ReactElement<TriggerProps>;
  position?: FloatingPosition;
  withArrow?: boolean;
  /** How long the pointer rests on the control before the tooltip shows (ms; default at once). */
  openDelay?: number;
}

/**
 * The app's one tooltip (README.md here): Mantine's Tooltip (shown on hover, as Mantine's is by
 * default), loaded on the first hover. The control carries its accessible name itself
 * (aria-label): the tooltip only repeats it.
 */
export function DeferredTooltip({ label, children, position, withArrow, openDelay = 0, ref: outerRef, onClick, ...forwarded }: DeferredTooltipProps) {
  const targetRef = useRef<HTMLElement>(null);
  const [opened, setOpened] = useState(false);
  const [wanted, setWanted] = useState(false);
  const delay = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(delay.current), []);
  const show = () => {
    // The download starts at once; only the showing waits.
    setWanted(true);
    clearTimeout(delay.current);
    if (openDelay > 0) delay.current = setTimeout(() => setOpened(true), openDelay);
    else setOpened(true);
  };
  const hide = () => {
    clearTimeout(delay.current);
    setOpened(false);
  };
  const own = children.props;
  // The control's own ref, and the one given to the tooltip (DeferredPopover's, when the tooltip is on a popover's trigger).
  const ref = useMergedRefs(targetRef, own.ref, outerRef);
  // The tooltip is attached by `target`, not by wrapping: the control is never remounted when the
  // tooltip arrives (a click in progress is not lost).
  const trigger = cloneElement(children, {
    ...forwarded,
    ref,
    ...(onClick
      ? {
          onClick: (event: MouseEvent<HTMLElement>) => {
            own.onClick?.(event);
            onClick(event);
          },
        }
      : null),
    onMouseEnter: (event: MouseEvent<HTMLElement>) => {
      own.onMouseEnter?.(event);
      show();
    },
    onMouseLeave: (event: MouseEvent<HTMLElement>) => {
      own.onMouseLeave?.(event);
      hide();
    },
  });
  return (
    <>
      {trigger}
      {wanted && (
        <Suspense fallback={null}>
          <MantineTooltip label={label} opened={opened} target={targetRef} position={position} withArrow={withArrow} />
        </Suspense>
      )}
    </>
  );
}

/**
 * One callback ref that sets every ref given (React 19: its cleanup clears them). Here rather than
 * Mantine's `useMergedRef`: this module is in the first route's chunk, and that hook is a chunk of
 * its own there (one more request before /auth's first paint).
 */
export function useMergedRefs<T>(a: Ref<T> | undefined, b: Ref<T> | undefined, c?: Ref<T>): (node: T | null) => () => void {
  return useCallback(
    (node: T | null) => {
      setRef(a, node);
      setRef(b, node);
      setRef(c, node);
      return () => {
        setRef(a, null);
        setRef(b, null);
        setRef(c, null);
      };
    },
    [a, b, c],
  );
}

/** Sets a callback or object ref (AttachTarget uses it too). */
export function setRef<T>(ref: Ref<T> | undefined, node: T | null) {
  if (typeof ref === 'function') ref(node);
  else if (ref) (ref as { current: T | null }).current = node;
}
