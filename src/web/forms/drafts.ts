import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { clearDrafts, DRAFT_PREFIX, draftStorage } from './draftStorage';

/**
 * Form drafts in localStorage under 'clearing.draft.<formId>', written 300 ms after the last
 * change and restored when the form opens. A draft never holds files, agreements or answers the
 * schema marks sensitive (`x-sensitive`: SSN, passport number, date of birth): see DECISIONS.
 */
export const DRAFT_DELAY_MS = 300;
export { clearDrafts, DRAFT_PREFIX };

type Answers = Record<string, unknown>;

export function loadDraft(formId: string): Answers | undefined {
  const raw = draftStorage()?.getItem(DRAFT_PREFIX + formId);
  if (!raw) return undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Answers)
      : undefined;
  } catch {
    return undefined;
  }
}

function saveDraft(formId: string, answers: Answers): void {
  try {
    draftStorage()?.setItem(DRAFT_PREFIX + formId, JSON.stringify(answers));
  } catch {
    // full or disabled storage: a draft is a convenience, never an error
  }
}

export function clearDraft(formId: string): void {
  draftStorage()?.removeItem(DRAFT_PREFIX + formId);
}

export interface DraftSaver {
  /** Saves `answers` (filtered) once no other change came for DRAFT_DELAY_MS. */
  save(answers: Answers): void;
  /** Writes a pending save now. */
  flush(): void;
  /** Drops a pending save. */
  cancel(): void;
}

export function createDraftSaver(
  formId: string,
  filter: (answers: Answers) => Answers,
  delay = DRAFT_DELAY_MS,
): DraftSaver {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: Answers | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (pending) saveDraft(formId, filter(pending));
    pending = undefined;
  };
  return {
    save(answers) {
      pending = answers;
      clearTimeout(timer);
      timer = setTimeout(flush, delay);
    },
    flush,
    cancel() {
      clearTimeout(timer);
      timer = undefined;
      pending = undefined;
    },
  };
}

const UNSAFE_WIDGETS = new Set(['agreement', 'imageUpload', 'pdfUpload', 'ssn']);

/**
 * What of `answers` may go into a draft, judged from the schema and uiSchema: an answer is left
 * out when its schema is marked `x-sensitive`, `x-file` or `x-agreement`, when its widget is an
 * agreement, upload or SSN widget, or when it is a file reference. Used until a form gives
 * SchemaForm the engine's `draftSafeAnswers`.
 */
export function draftSafe(schema: RJSFSchema, uiSchema: UiSchema | undefined, answers: Answers) {
  return stripObject(schema, schema, uiSchema, answers) as Answers;
}

function stripObject(
  root: RJSFSchema,
  node: RJSFSchema,
  ui: UiSchema | undefined,
  value: unknown,
): unknown {
  if (!value || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const items = resolve(root, node).items;
    const itemSchema = items && typeof items === 'object' && !Array.isArray(items) ? items : {};
    const itemUi = ui?.items as UiSchema | undefined;
    return value.map((item) => stripObject(root, itemSchema as RJSFSchema, itemUi, item));
  }
  const properties = collectProperties(root, node);
  const out: Answers = {};
  for (const [key, child] of Object.entries(value as Answers)) {
    const schemas = properties.get(key) ?? [];
    const childUi = ui?.[key] as UiSchema | undefined;
    if (isUnsafe(root, schemas, childUi, child)) continue;
    out[key] = stripObject(root, mergeSchemas(schemas), childUi, child);
  }
  return out;
}

function isUnsafe(
  root: RJSFSchema,
  schemas: RJSFSchema[],
  ui: UiSchema | undefined,
  value: unknown,
) {
  const widget = ui?.['ui:widget'];
  if (typeof widget === 'string' && UNSAFE_WIDGETS.has(widget)) return true;
  if (value && typeof value === 'object' && 'name' in value && 'size' in value && 'type' in value) {
    return true;
  }
  return schemas.some((s) => {
    const r = resolve(root, s) as Record<string, unknown>;
    return !!(r['x-sensitive'] || r['x-file'] || r['x-agreement']);
  });
}

function resolve(root: RJSFSchema, node: RJSFSchema, depth = 0): RJSFSchema {
  if (depth > 20 || typeof node.$ref !== 'string' || !node.$ref.startsWith('#/')) return node;
  let target: unknown = root;
  for (const part of node.$ref.slice(2).split('/')) {
    target = (target as Record<string, unknown> | undefined)?.[
      part.replace(/~1/g, '/').replace(/~0/g, '~')
    ];
  }
  const { $ref: _ref, ...rest } = node;
  return resolve(root, { ...(target as RJSFSchema), ...rest }, depth + 1);
}

/** Properties of an object schema, including those declared in allOf, if/then/else, anyOf, oneOf. */
function collectProperties(root: RJSFSchema, node: RJSFSchema, depth = 0) {
  const out = new Map<string, RJSFSchema[]>();
  const visit = (raw: unknown, level: number) => {
    if (!raw || typeof raw !== 'object' || level > 10) return;
    const s = resolve(root, raw as RJSFSchema);
    for (const [key, prop] of Object.entries(s.properties ?? {})) {
      if (prop && typeof prop === 'object') out.set(key, [...(out.get(key) ?? []), prop]);
    }
    for (const sub of [...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])])
      visit(sub, level + 1);
    for (const sub of [s.then, s.else]) visit(sub, level + 1);
  };
  visit(node, depth);
  return out;
}

function mergeSchemas(schemas: RJSFSchema[]): RJSFSchema {
  return schemas.length === 1 && schemas[0] ? schemas[0] : { allOf: schemas };
}
