import type { CSSProperties } from 'react';
import { Toaster } from 'sonner';

/** Spec section 9: toast layout and timing. */
export const TOAST_POSITION = 'top-right' as const;
export const TOAST_DURATION_MS = 4000;
export const TOASTS_VISIBLE = 3;
export const TOAST_WIDTH_PX = 356;
export const TOAST_GAP_PX = 14;
/**
 * Sonner dismisses a toast swiped further than 45 px; that threshold is built into the library
 * (its SWIPE_THRESHOLD) and is not a prop, so we keep sonner's default and name it here.
 */
export const TOAST_SWIPE_THRESHOLD_PX = 45;

/**
 * Toasts start under the sticky header, never over its balance, bell and avatar; the bottom of the
 * screen belongs to the dock of the update prompt and the cookie banner.
 */
export const TOAST_OFFSET = { top: 'calc(var(--header-height) + 8px)', right: 16 } as const;
export const TOAST_MOBILE_OFFSET = { top: 'calc(var(--header-height) + 8px)', right: 8, left: 8 } as const;

// Sonner sets `--width` itself; passing it again pins the spec's value even if the default changes.
const toasterStyle = { '--width': `${TOAST_WIDTH_PX}px` } as CSSProperties;

/** The one toast container of the app: top right, 4 s, close button, rich colours, 3 at a time. */
export function AppToaster() {
  return (
    <Toaster
      position={TOAST_POSITION}
      duration={TOAST_DURATION_MS}
      closeButton
      richColors
      visibleToasts={TOASTS_VISIBLE}
      gap={TOAST_GAP_PX}
      swipeDirections={['right', 'top']}
      style={toasterStyle}
      offset={TOAST_OFFSET}
      mobileOffset={TOAST_MOBILE_OFFSET}
      containerAriaLabel="Уведомления о действиях"
    />
  );
}
