/**
 * In-page keystroke probe, the way docs/decisions.md, Keystroke timing describes it: a
 * capture-phase keydown listener notes `event.timeStamp`; requestAnimationFrame followed by
 * setTimeout(0) marks the next paint; the difference is one sample. The Event Timing API
 * (`event` entries, what INP uses) and long tasks give a second view.
 */
import { createRoot } from 'react-dom/client';
import type { ReactNode } from 'react';

export interface BenchProbe {
  ready: boolean;
  samples: number[];
  /** Longest Event Timing duration per keyboard interaction (only those ≥ 16 ms are reported). */
  interactions: Map<number, number>;
  longTasks: number[];
  reset(): void;
  /** Anything the page wants the driver to see (e.g. bytes of data URLs in form data). */
  info: Record<string, unknown>;
}

declare global {
  interface Window {
    bench: BenchProbe;
  }
}

const probe: BenchProbe = {
  ready: false,
  samples: [],
  interactions: new Map(),
  longTasks: [],
  info: {},
  reset() {
    probe.samples = [];
    probe.interactions = new Map();
    probe.longTasks = [];
  },
};
window.bench = probe;

document.addEventListener(
  'keydown',
  (event) => {
    const start = event.timeStamp;
    requestAnimationFrame(() => {
      setTimeout(() => probe.samples.push(performance.now() - start), 0);
    });
  },
  { capture: true },
);

try {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as PerformanceEventTiming[]) {
      if (!entry.interactionId || !entry.name.startsWith('key')) continue;
      const previous = probe.interactions.get(entry.interactionId) ?? 0;
      probe.interactions.set(entry.interactionId, Math.max(previous, entry.duration));
    }
  }).observe({ type: 'event', durationThreshold: 16, buffered: true } as PerformanceObserverInit);
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) probe.longTasks.push(entry.duration);
  }).observe({ type: 'longtask', buffered: true });
} catch {
  // An engine without Event Timing or Long Tasks: the rAF samples still count.
}

/** Renders the page and flags it ready after the first commit. */
export function mount(node: ReactNode): void {
  createRoot(document.getElementById('root')!).render(node);
  requestAnimationFrame(() => setTimeout(() => (probe.ready = true), 0));
}
