/** 'Did you mean …?': the nearest of some names to one mistyped, for the messages of check. */

/** The edit distance of two strings (how many letters to change, add or remove). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(
        previous[j]! + 1,
        row[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = row;
  }
  return previous[b.length]!;
}

/**
 * The name of `names` nearest to `word` (letter case aside), when near enough to be what was
 * meant: at most a third of its letters off (at least 2, at most `most`).
 */
export function nearestName(
  word: string,
  names: Iterable<string>,
  most = Math.max(2, Math.floor(word.length / 3)),
): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    if (name === word) continue;
    const distance = editDistance(word.toLowerCase(), name.toLowerCase());
    if (distance <= most && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}
