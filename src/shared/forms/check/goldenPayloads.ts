/**
 * Golden payloads (`tests/fixtures/payloads/<form-id>.golden.json`, or `*.golden.json` in a form
 * folder's own `fixtures/`, where a `FORMS_DIR` form keeps them; issue 37 §4): what a form
 * sends for some answers, recorded so that a change to what is sent shows in review. Each holds
 * its answers as a fixture does (a JSON Patch of the form's example, or whole `answers`) and the
 * `payload` they send, without the schema hash (it changes with any wording; `forms wording --at`
 * reads it). `forms check` compares them; `forms golden` records them again after an intended
 * change, rewriting only the values that changed, so a reworded prompt is one line of the diff.
 */
import type { CompiledForm } from '../model/compiledForm';
import type { Problem } from '../model/formFiles';
import { valueSpans } from '../model/jsonPlaces';
import { toPointer } from '../model/pointer';
import { isPlainObject } from '../model/schemaTypes';
import { toPayloadJson } from '../payload/payload';
import { fixtureAnswers } from './fixtures';

/** Where the golden payloads live. */
export const GOLDEN_FOLDER = 'tests/fixtures/payloads';

/** A golden payload file: its path and content. */
export interface Golden {
  file: string;
  content: unknown;
  /** Its form, when its folder says it (a form folder's own `fixtures/`). */
  formId?: string;
}

/**
 * The form a golden payload is of: the form whose folder holds it, else its file name up to the
 * first dot (`tests/fixtures/payloads/business.golden.json`).
 */
export const goldenFormId = (golden: Golden): string =>
  golden.formId ?? golden.file.slice(golden.file.lastIndexOf('/') + 1).split('.')[0]!;

/** A file answer's bytes as the browser would hold them (the payload names them only). */
const blobOf = (file: { type?: unknown }) =>
  new Blob(['%'], { type: typeof file.type === 'string' ? file.type : '' });

/** The payload a golden file's answers send now, as the file records it (no schema hash). */
function sentPayload(form: CompiledForm, content: unknown): unknown {
  // Its answers are a fixture's without the messages.
  const asFixture = isPlainObject(content) ? { expectedErrors: [], ...content } : content;
  const answers = fixtureAnswers(form.id, form.example, asFixture);
  const files = Object.fromEntries(
    Object.entries(answers)
      .filter(([, value]) => isPlainObject(value) && 'size' in value && 'type' in value)
      .map(([key, value]) => [`/${key}`, blobOf(value as { type?: unknown })]),
  );
  const { schemaHash: _hash, ...payload } = toPayloadJson(form, answers, files);
  return JSON.parse(JSON.stringify(payload)) as unknown;
}

/** One difference between the recorded payload and the one sent now. */
interface Difference {
  pointer: string;
  recorded?: unknown;
  sent?: unknown;
  /** Whether both are values at the same place (not a part added or removed). */
  changed: boolean;
}

function differences(recorded: unknown, sent: unknown, keys: string[] = []): Difference[] {
  const pointer = toPointer(keys);
  if (Array.isArray(recorded) && Array.isArray(sent)) {
    const length = Math.max(recorded.length, sent.length);
    return Array.from({ length }, (_, i) =>
      i < recorded.length && i < sent.length
        ? differences(recorded[i], sent[i], [...keys, String(i)])
        : [
            {
              pointer: toPointer([...keys, String(i)]),
              recorded: recorded[i],
              sent: sent[i],
              changed: false,
            },
          ],
    ).flat();
  }
  if (isPlainObject(recorded) && isPlainObject(sent)) {
    const names = [...new Set([...Object.keys(recorded), ...Object.keys(sent)])];
    return names.flatMap((name) =>
      name in recorded && name in sent
        ? differences(recorded[name], sent[name], [...keys, name])
        : [
            {
              pointer: toPointer([...keys, name]),
              recorded: recorded[name],
              sent: sent[name],
              changed: false,
            },
          ],
    );
  }
  if (JSON.stringify(recorded) === JSON.stringify(sent)) return [];
  const leaf = (value: unknown) => !isPlainObject(value) && !Array.isArray(value);
  return [{ pointer, recorded, sent, changed: leaf(recorded) && leaf(sent) }];
}

const RECORD = 'if intended, `npm run forms -- golden` records it';

/** What a golden file records that the form no longer sends, each at its place in the file. */
export function checkGolden(form: CompiledForm, golden: Golden): Problem[] {
  const { file, content } = golden;
  if (!isPlainObject(content) || !isPlainObject(content.payload)) {
    return [
      {
        file,
        pointer: '',
        message:
          'a golden payload holds "patch" (or "answers") and the "payload" they send: record it with `npm run forms -- golden`',
      },
    ];
  }
  return differences(content.payload, sentPayload(form, content)).map((difference) => {
    const { recorded, sent } = difference;
    const pointer = `/payload${difference.pointer}`;
    if (recorded === undefined) {
      return {
        file,
        pointer,
        message: `sent now, not recorded: ${JSON.stringify(sent)} (${RECORD})`,
      };
    }
    if (sent === undefined) {
      return { file, pointer, message: `recorded, no longer sent (${RECORD})` };
    }
    return {
      file,
      pointer,
      message: `recorded ${JSON.stringify(recorded)}, sent now ${JSON.stringify(sent)} (${RECORD})`,
    };
  });
}

/**
 * A golden file's text with the payload its answers send now; undefined when it records that
 * already. Values that changed in place (a reworded prompt) are rewritten on their own lines and
 * nothing else moves; a payload that gained or lost parts is written whole, in the order the
 * portal sends it (the form's order: the same on every run).
 */
export function recordGolden(
  form: CompiledForm,
  text: string,
): { text: string; whole: boolean } | undefined {
  const content = JSON.parse(text) as Record<string, unknown>;
  const sent = sentPayload(form, content);
  const found = isPlainObject(content.payload) ? differences(content.payload, sent) : undefined;
  if (found && found.length === 0) return undefined;
  const spans = valueSpans(text);
  if (found && spans && found.every((difference) => difference.changed)) {
    let out = text;
    const edits = found
      .map((difference) => ({
        span: spans.get(`/payload${difference.pointer}`)!,
        value: difference.sent,
      }))
      .sort((a, b) => b.span.start - a.span.start);
    for (const { span, value } of edits) {
      out = `${out.slice(0, span.start)}${JSON.stringify(value)}${out.slice(span.end)}`;
    }
    return { text: out, whole: false };
  }
  return { text: `${JSON.stringify({ ...content, payload: sent }, null, 2)}\n`, whole: true };
}
