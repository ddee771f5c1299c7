/**
 * Parts of a page loaded on demand (a dialog, the account menu, a toast) that can fail to load
 * without taking the page down (issue 38 §2): with the connection gone, the import of a part's
 * code fails; the page stays as it was, says what failed in place, and offers to try again.
 * React.lazy keeps a failed import for good, so a part made by `lazyPart` starts a fresh import
 * when tried again.
 */
import {
  Component,
  lazy,
  Suspense,
  type ComponentType,
  type ErrorInfo,
  type LazyExoticComponent,
  type ReactNode,
} from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';

export const PART_NOT_LOADED_MESSAGE =
  'Part of this page could not be loaded. Check your internet connection, then try again.';
const PART_FAILED_MESSAGE = 'Part of this page stopped working. Try again, or reload the page.';

/** A part loaded on demand; `retry` makes the next render import its code afresh. */
interface LazyPart<P extends object> {
  (props: P): ReactNode;
  retry(): void;
}

export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>): LazyPart<P> {
  const make = (): LazyExoticComponent<ComponentType<P>> =>
    lazy(async () => ({ default: await load() }));
  let Loaded = make();
  const Part = ((props: P) => {
    const Current = Loaded as unknown as ComponentType<P>;
    return <Current {...props} />;
  }) as LazyPart<P>;
  Part.retry = () => {
    Loaded = make();
  };
  return Part;
}

/**
 * Whether `error` is a failed import of the app's code: what browsers and Vite's preloading
 * throw when a chunk or its stylesheet cannot be fetched.
 */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return /dynamically imported module|Importing a module script failed|Unable to preload|Failed to fetch|ChunkLoadError/i.test(
    `${error.name} ${error.message}`,
  );
}

interface PartBoundaryProps {
  children: ReactNode;
  /** The parts inside whose import to start afresh on "Try again" (`LazyPart.retry`). */
  retry?: (() => void) | undefined;
  /** Offers Close: what closing the part means to its owner (a dialog's Cancel). */
  onClose?: (() => void) | undefined;
  /** Drawn over the page at the bottom (a dialog or toast has no place in the page's flow). */
  floating?: boolean;
}

/**
 * Suspense and an error boundary around parts loaded on demand: a failure to load or draw them
 * is said where they stand, with Try again (and Close when the owner offers it).
 */
export class PartBoundary extends Component<PartBoundaryProps, { failed: unknown[] }> {
  override state: { failed: unknown[] } = { failed: [] };

  static getDerivedStateFromError(error: unknown) {
    return { failed: [error] };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    // The error of a failed import names a file of the app, never an answer.
    console.error(error, info.componentStack);
  }

  private tryAgain = () => {
    this.props.retry?.();
    this.setState({ failed: [] });
  };

  override render() {
    const { children, onClose, floating } = this.props;
    const [error] = this.state.failed;
    if (this.state.failed.length === 0) return <Suspense fallback={null}>{children}</Suspense>;
    return (
      <Alert
        severity="error"
        role="alert"
        sx={
          floating
            ? {
                position: 'fixed',
                bottom: 16,
                left: 16,
                right: 16,
                mx: 'auto',
                maxWidth: 600,
                zIndex: (theme) => theme.zIndex.modal + 1,
                boxShadow: 6,
              }
            : { alignItems: 'center' }
        }
        action={
          <>
            <Button color="inherit" size="small" onClick={this.tryAgain}>
              Try again
            </Button>
            {onClose && (
              <Button color="inherit" size="small" onClick={onClose}>
                Close
              </Button>
            )}
          </>
        }
      >
        {isChunkLoadError(error) ? PART_NOT_LOADED_MESSAGE : PART_FAILED_MESSAGE}
      </Alert>
    );
  }
}
