/**
 * Bundled schemas, as JSON Schema bundlers write them: definitions named by `$id` and referred to
 * by that id (`"$ref": "/schemas/mixins/integer"`) inside the same file. Ajv resolves such a
 * reference against the base URI of its place; here each becomes the local pointer of the
 * definition (`#/$defs/…`), which rjsf, the walker and Ajv all follow, and the inner `$id`s and
 * `$schema`s go. A reference to an id the file does not hold is left for check to name.
 */
import { toPointer } from './pointer';
import { isPlainObject } from './schemaTypes';

/** The base of a schema without an `$id`: relative ids resolve against it as against any URL. */
const NO_BASE = 'https://form.invalid/';

function resolveUri(ref: string, base: string): string | undefined {
  try {
    return new URL(ref, base).href;
  } catch {
    return undefined;
  }
}

const withoutFragment = (uri: string) => uri.replace(/#.*$/, '');

/** The schema with references to its own `$id`s made local; the input is not changed. */
export function resolveBundledIds(schema: Record<string, unknown>): Record<string, unknown> {
  const rootBase = withoutFragment(
    (typeof schema.$id === 'string' && resolveUri(schema.$id, NO_BASE)) || NO_BASE,
  );
  // Every `$id` below the root, by its absolute URI: the pointer of its schema.
  const ids = new Map<string, string[]>();
  const collect = (node: unknown, keys: string[], base: string) => {
    if (Array.isArray(node)) node.forEach((item, i) => collect(item, [...keys, String(i)], base));
    if (!isPlainObject(node)) return;
    let here = base;
    if (keys.length > 0 && typeof node.$id === 'string') {
      const uri = resolveUri(node.$id, base);
      if (uri) {
        here = withoutFragment(uri);
        ids.set(here, keys);
      }
    }
    for (const [key, child] of Object.entries(node)) {
      if (!key.startsWith('x-') && !['enum', 'const', 'default', 'examples'].includes(key)) {
        collect(child, [...keys, key], here);
      }
    }
  };
  collect(schema, [], rootBase);
  if (ids.size === 0) return schema;
  // `scope`: the keys of the schema whose `$id` is the base here ([] for the root).
  const rewrite = (node: unknown, keys: string[], base: string, scope: string[]): unknown => {
    if (Array.isArray(node)) {
      return node.map((item, i) => rewrite(item, [...keys, String(i)], base, scope));
    }
    if (!isPlainObject(node)) return node;
    let here = base;
    let hereScope = scope;
    if (keys.length > 0 && typeof node.$id === 'string') {
      here = withoutFragment(resolveUri(node.$id, base) ?? base);
      hereScope = keys;
    }
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node)) {
      if (keys.length > 0 && (key === '$id' || key === '$schema') && typeof child === 'string') {
        continue;
      }
      if (key === '$ref' && typeof child === 'string' && child.startsWith('#/')) {
        // A pointer inside an $id'd schema points into that schema, not the file's root.
        out.$ref = hereScope.length > 0 ? `#${toPointer(hereScope)}${child.slice(1)}` : child;
        continue;
      }
      if (key === '$ref' && typeof child === 'string' && !child.startsWith('#')) {
        const uri = resolveUri(child, here);
        const target = uri && ids.get(withoutFragment(uri));
        const fragment = uri?.includes('#')
          ? decodeURIComponent(uri.slice(uri.indexOf('#') + 1))
          : '';
        out.$ref =
          target && (fragment === '' || fragment.startsWith('/'))
            ? `#${toPointer(target)}${fragment}`
            : child;
        continue;
      }
      const skip = key.startsWith('x-') || ['enum', 'const', 'default', 'examples'].includes(key);
      out[key] = skip ? child : rewrite(child, [...keys, key], here, hereScope);
    }
    return out;
  };
  return rewrite(schema, [], rootBase, []) as Record<string, unknown>;
}
