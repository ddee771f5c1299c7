/**
 * Runs `callback` once the browser has painted the current frame (the frame's animation
 * callback, then a task after it); returns a cancel function, as an effect's cleanup.
 */
export function afterNextPaint(callback: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(callback, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}
