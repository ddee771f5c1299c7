import { useSyncExternalStore } from 'react';
import Alert from '@mui/material/Alert';
import { DESKTOP_MIN_WIDTH } from './theme';

function subscribe(onChange: () => void) {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
}

/** True while the viewport is narrower than 991 px. */
function useIsNarrowViewport(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.innerWidth < DESKTOP_MIN_WIDTH,
    () => false,
  );
}

/** The desktop-only notice; renders nothing on desktop widths. */
export function DesktopOnlyNotice() {
  const narrow = useIsNarrowViewport();
  if (!narrow) return null;
  return (
    <Alert severity="warning" role="status" sx={{ borderRadius: 0 }}>
      This app is available only on desktop. Please log in on another device.
    </Alert>
  );
}
