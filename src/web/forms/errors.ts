import type { ErrorSchema } from '@rjsf/utils';

type Node = { __errors?: string[] } & { [key: string]: unknown };

/**
 * The part of an ErrorSchema whose fields pass `show(id)`, ids built as rjsf builds them
 * (`root_mailingAddress_line1`). This is how only touched fields show their errors.
 */
export function filterErrorSchema(
  errorSchema: ErrorSchema,
  show: (id: string) => boolean,
  idPrefix = 'root',
  idSeparator = '_',
): ErrorSchema {
  const walk = (node: Node, id: string): Node | undefined => {
    const out: Node = {};
    let any = false;
    if (node.__errors && node.__errors.length > 0 && show(id)) {
      out.__errors = [...node.__errors];
      any = true;
    }
    for (const [key, child] of Object.entries(node)) {
      if (key === '__errors' || !child || typeof child !== 'object') continue;
      const kept = walk(child as Node, `${id}${idSeparator}${key}`);
      if (kept) {
        out[key] = kept;
        any = true;
      }
    }
    return any ? out : undefined;
  };
  return (walk(errorSchema as Node, idPrefix) ?? {}) as ErrorSchema;
}

/** Ids of the fields holding errors, in document order of the ErrorSchema. */
export function errorIds(errorSchema: ErrorSchema, idPrefix = 'root', idSeparator = '_'): string[] {
  const ids: string[] = [];
  const walk = (node: Node, id: string) => {
    if (node.__errors && node.__errors.length > 0) ids.push(id);
    for (const [key, child] of Object.entries(node)) {
      if (key !== '__errors' && child && typeof child === 'object') {
        walk(child as Node, `${id}${idSeparator}${key}`);
      }
    }
  };
  walk(errorSchema as Node, idPrefix);
  return ids;
}

/** Both ErrorSchemas' messages, without duplicates. */
export function mergeErrorSchemas(a: ErrorSchema | undefined, b: ErrorSchema | undefined) {
  if (!a) return b;
  if (!b) return a;
  const merge = (x: Node, y: Node): Node => {
    const out: Node = { ...x };
    for (const [key, value] of Object.entries(y)) {
      if (key === '__errors') {
        out.__errors = [...new Set([...(x.__errors ?? []), ...((value as string[]) ?? [])])];
      } else if (value && typeof value === 'object') {
        out[key] = merge((x[key] as Node) ?? {}, value as Node);
      }
    }
    return out;
  };
  return merge(a as Node, b as Node) as ErrorSchema;
}

/**
 * Errors inside an answer that one widget renders (a file reference's `type` or `size`) moved up
 * to that answer, so the widget's field shows them and `aria-describedby` reaches them. Likewise
 * the errors inside each item of a list a `ui:field` draws as rows (the affiliated persons) move
 * up to the item: the row shows them as a badge and its Edit button carries the item's id, so
 * "focus the first error" lands there.
 */
export function collapseWidgetErrors(errorSchema: ErrorSchema, uiSchema: unknown): ErrorSchema {
  const gather = (node: Node): string[] => [
    ...(node.__errors ?? []),
    ...Object.entries(node)
      .filter(([key, child]) => key !== '__errors' && child && typeof child === 'object')
      .flatMap(([, child]) => gather(child as Node)),
  ];
  const walk = (node: Node, ui: Record<string, unknown> | undefined): Node => {
    if (
      ui &&
      typeof ui['ui:widget'] === 'string' &&
      Object.keys(node).some((k) => k !== '__errors')
    ) {
      return { __errors: [...new Set(gather(node))] };
    }
    if (ui && typeof ui['ui:field'] === 'string') {
      const out: Node = {};
      for (const [key, child] of Object.entries(node)) {
        if (key === '__errors') out.__errors = child as string[];
        else if (/^\d+$/.test(key) && child && typeof child === 'object') {
          const messages = [...new Set(gather(child as Node))];
          if (messages.length > 0) out[key] = { __errors: messages };
        }
      }
      return out;
    }
    const out: Node = {};
    for (const [key, child] of Object.entries(node)) {
      if (key === '__errors') out.__errors = child as string[];
      else if (child && typeof child === 'object') {
        const childUi = (/^\d+$/.test(key) ? ui?.items : ui?.[key]) as
          Record<string, unknown> | undefined;
        out[key] = walk(child as Node, childUi);
      }
    }
    return out;
  };
  return walk(errorSchema as Node, uiSchema as Record<string, unknown> | undefined) as ErrorSchema;
}

/**
 * The element that takes focus for a field with an error, inside `container`: its input, or the
 * button that operates it (a file question's Choose button), or null when it is not there.
 */
export function errorFocusTarget(container: HTMLElement, id: string): HTMLElement | null {
  const element = container.ownerDocument.getElementById(id);
  if (!element || !container.contains(element)) return null;
  if (element instanceof HTMLInputElement && element.type === 'file') {
    return container.ownerDocument.getElementById(`${id}-choose`);
  }
  return element.matches('input, select, textarea, button, [tabindex]')
    ? element
    : element.querySelector<HTMLElement>('input, select, textarea, button, [tabindex]');
}
