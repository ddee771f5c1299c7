import fs from 'node:fs';
import { bundleForm } from '../../src/shared/forms/model/bundleForm';
import { deref } from '../../src/shared/forms/walk/schemaWalk';
import type { JsonSchema } from '../../src/shared/forms/model/schemaTypes';

const readJson = (file: string): unknown => JSON.parse(fs.readFileSync(file, 'utf8'));

/**
 * A form's schema as the portal serves it, read from the files on disk: common definitions
 * (`../common/…`) in place and `{firm}` filled in, so prompts worded once in schemas/common are
 * found where the form asks them.
 */
export function bundledSchema(formId: string): JsonSchema {
  const commons = Object.fromEntries(
    fs
      .readdirSync('schemas/common')
      .filter((name) => name.endsWith('.schema.json'))
      .map((name) => [name, readJson(`schemas/common/${name}`)]),
  );
  const files = {
    schema: readJson(`schemas/${formId}/${formId}.schema.json`),
    uiSchema: readJson(`schemas/${formId}/${formId}.ui.json`),
    example: {},
  };
  return bundleForm(files, commons).schema;
}

/** The prompt of a property of `node` (its own or a condition's), references followed. */
export function promptIn(root: JsonSchema, node: JsonSchema, key: string): string {
  const candidates = [
    node.properties?.[key],
    ...(node.allOf ?? []).flatMap((part) => [
      part.then?.properties?.[key],
      part.else?.properties?.[key],
    ]),
  ];
  const title = candidates
    .filter((candidate): candidate is JsonSchema => !!candidate)
    .map((candidate) => deref(candidate, root).title)
    .find(Boolean);
  if (!title) throw new Error(`no prompt for ${key}`);
  return title;
}
