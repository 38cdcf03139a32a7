import {
  cloneElement,
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
// a first screen with a tooltip does not download it (issue 16, first-route JavaScript).
const MantineTooltip = lazy(() => import('./MantineTooltip'));

interface TriggerProps {
  ref?: Ref<HTMLElement>;
  onMouseEnter?: (event: MouseEvent<HTMLElement>) => void;
  onMouseLeave?: (event: MouseEvent<HTMLElement>) => void;
}

export interface DeferredTooltipProps {
  label: ReactNode;
  /** One element that takes a ref and mouse handlers (a Mantine button does). */
  children: ReactElement<TriggerProps>;
  position?: FloatingPosition;
  withArrow?: boolean;
}

/**
 * Mantine's Tooltip (shown on hover, as Mantine's is by default), loaded on the first hover. The
 * control carries its accessible name itself (aria-label): the tooltip only repeats it.
 */
export function DeferredTooltip({ label, children, position, withArrow }: DeferredTooltipProps) {
  const targetRef = useRef<HTMLElement>(null);
  const [opened, setOpened] = useState(false);
  const [wanted, setWanted] = useState(false);
  const show = () => {
    setWanted(true);
    setOpened(true);
  };
  const hide = () => setOpened(false);
  const own = children.props;
  // The tooltip is attached by `target`, not by wrapping: the control is never remounted when the
  // tooltip arrives (a click in progress is not lost).
  const trigger = cloneElement(children, {
    ref: targetRef,
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
