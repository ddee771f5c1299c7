/**
 * Validation and payload figures in the browser, no rendering.
 *
 * `?mode=precompiled` (default): the engine's precompiled validator (ajv standalone code, no
 * compile in the browser): first and repeated `validateAnswers`, valid and all-blank; plain Ajv
 * without ajv-errors on the same schema as the baseline; then `toPayload` with 10 MB of files,
 * against the files read as base64 data URLs into JSON (what rjsf's stock file widget sends).
 * `?mode=lazy`: the naive way's first validation, Ajv compiling the schema on first use
 * (@rjsf/validator-ajv8 customizeValidator with ajv-errors), on a fresh page load.
 * `?mode=cold`: the first `validateAnswers` with no warm-up: run while the page's modules are
 * still being evaluated, before the idle-time warm-up (precompiled.ts) can have run.
 * `?mode=breakdown`: where that cold first call goes: the first raw Ajv call, then the first
 * answer preparation (condition resolution), then the first full `validateAnswers`.
 */
import individualForm from 'virtual:forms/individual';
import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { RJSFSchema } from '@rjsf/utils';
import { customizeValidator } from '@rjsf/validator-ajv8';
import { AJV_OPTIONS, RJSF_VALIDATOR_OPTIONS } from '../../src/shared/forms/validation/ajvConfig';
import { addProjectKeywords } from '../../src/shared/forms/validation/keywords';
import { signedDocuments, toPayload } from '../../src/shared/forms/payload/payload';
import type { Answers } from '../../src/shared/forms/model/schemaTypes';
import { prepareAnswers, validateAnswers } from '../../src/shared/forms/validation/validateAnswers';
import { validatorWarmedUp } from '../../src/shared/forms/model/precompiledForm';
import './probe';

const form = individualForm;
const schema = form.schema as RJSFSchema;
const valid = structuredClone(form.example) as Answers;
const blank: Answers = {};
const REPEATS = 300;

/** Milliseconds of one call. */
function once(run: () => unknown): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

/** Mean milliseconds per call over REPEATS calls (after a short warm-up). */
function repeated(run: () => unknown): number {
  for (let i = 0; i < 20; i++) run();
  const start = performance.now();
  for (let i = 0; i < REPEATS; i++) run();
  return (performance.now() - start) / REPEATS;
}

function plainAjv() {
  const ajv = new Ajv({ ...AJV_OPTIONS, strict: false });
  addFormats(ajv);
  addProjectKeywords(ajv);
  return ajv.compile(schema);
}

function randomBlob(bytes: number, type: string): Blob {
  const chunk = new Uint8Array(65_536);
  const parts: BlobPart[] = [];
  for (let left = bytes; left > 0; left -= chunk.length) {
    crypto.getRandomValues(chunk);
    parts.push(chunk.slice(0, Math.min(left, chunk.length)));
  }
  return new Blob(parts, { type });
}

function dataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(blob);
  });
}

async function payloadFigures() {
  const files: Record<string, Blob> = {
    '/photoId': randomBlob(1_000_000, 'image/png'),
    '/photoIdBack': randomBlob(1_000_000, 'image/png'),
    '/irsFormW2': randomBlob(8_485_760, 'application/pdf'),
  };
  const answers: Answers = { ...valid };
  for (const [pointer, blob] of Object.entries(files)) {
    const name = pointer.slice(1);
    answers[name] = { name: `${name}.bin`, type: blob.type, size: blob.size };
  }
  const documents = Object.fromEntries(
    signedDocuments(form).map((d) => [d.url, randomBlob(30_000, 'application/pdf')]),
  );
  const fileBytes = Object.values(files).reduce((sum, blob) => sum + blob.size, 0);

  const first = once(() => toPayload(form, answers, files, documents));
  const times: number[] = [];
  let payload: FormData | undefined;
  for (let i = 0; i < 10; i++) {
    times.push(once(() => (payload = toPayload(form, answers, files, documents))));
  }
  let blobParts = 0;
  let blobBytes = 0;
  let textChars = 0;
  let base64Texts = 0;
  for (const [, value] of payload!.entries()) {
    if (typeof value === 'string') {
      textChars += value.length;
      if (/data:[^"]*;base64,/.test(value)) base64Texts++;
    } else {
      blobParts++;
      blobBytes += value.size;
    }
  }

  // Baseline: the same answers with the files as base64 data URLs (FileReader, as rjsf's stock
  // FileWidget does) serialised into one JSON body.
  const baselineTimes: number[] = [];
  let jsonChars = 0;
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    const inline: Answers = { ...answers };
    for (const [pointer, blob] of Object.entries(files))
      inline[pointer.slice(1)] = await dataUrl(blob);
    jsonChars = JSON.stringify(inline).length;
    baselineTimes.push(performance.now() - start);
  }
  return {
    fileBytes,
    first,
    times,
    blobParts,
    blobBytes,
    textChars,
    base64Texts,
    baselineTimes,
    jsonChars,
  };
}

async function precompiled() {
  // The first validation a user triggers: after load, once the idle-time warm-up has run.
  await validatorWarmedUp(form);
  const validator = form.validator;
  const firstValid = once(() => validateAnswers(form, valid));
  const firstBlank = once(() => validateAnswers(form, blank));
  const check = {
    valid: validateAnswers(form, valid).valid,
    blankErrors: validateAnswers(form, blank).errors.length,
  };
  const plain = plainAjv();
  const figures = {
    firstValid,
    firstBlank,
    check,
    repeatedValid: repeated(() => validateAnswers(form, valid)),
    repeatedBlank: repeated(() => validateAnswers(form, blank)),
    rawValid: repeated(() => validator.rawValidation<ErrorObject>(schema, valid)),
    rawBlank: repeated(() => validator.rawValidation<ErrorObject>(schema, blank)),
    plainValid: repeated(() => plain(valid)),
    plainBlank: repeated(() => plain(blank)),
  };
  return { ...figures, payload: await payloadFigures() };
}

function lazy() {
  const validator = customizeValidator<Answers>(RJSF_VALIDATOR_OPTIONS);
  const first = once(() => validator.rawValidation(schema, valid));
  return {
    first,
    repeatedValid: repeated(() => validator.rawValidation(schema, valid)),
    repeatedBlank: repeated(() => validator.rawValidation(schema, blank)),
  };
}

function breakdown() {
  const validator = form.validator;
  return {
    firstRaw: once(() => validator.rawValidation(schema, valid)),
    firstPrepare: once(() => prepareAnswers(form.schema, valid)),
    firstValidate: once(() => validateAnswers(form, valid)),
  };
}

function cold() {
  return { firstValid: once(() => validateAnswers(form, valid)) };
}

function report(result: Promise<unknown>) {
  result
    .then((value) => {
      window.bench.info.engine = value;
    })
    .catch((error: unknown) => {
      window.bench.info.error = String(error instanceof Error ? error.stack : error);
    })
    .finally(() => (window.bench.ready = true));
}

const mode = new URLSearchParams(location.search).get('mode') ?? 'precompiled';
const coldModes: Record<string, () => unknown> = { cold, breakdown };
const loadedModes: Record<string, () => unknown> = { precompiled, lazy };
const coldMode = coldModes[mode];
if (coldMode) {
  // Now, during module evaluation: the idle-time warm-up has not had a chance to run.
  report(new Promise((resolve) => resolve(coldMode())));
} else {
  // Measured after load, so page start-up work does not land in the first figure.
  setTimeout(() => report(Promise.resolve((loadedModes[mode] ?? precompiled)())), 200);
}
