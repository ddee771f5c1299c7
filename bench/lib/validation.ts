/**
 * Validation on Node with the validator the server uses (compiled at start by
 * compileFormsOnDisk, the project's one Ajv configuration with ajv-errors), against plain Ajv
 * without ajv-errors on the same schema (same formats and rule keywords, `errorMessage` ignored).
 */
import { performance } from 'node:perf_hooks';
import Ajv, { type ErrorObject } from 'ajv';
import ajvErrors from 'ajv-errors';
import addFormats from 'ajv-formats';
import type { RJSFSchema } from '@rjsf/utils';
import { customizeValidator } from '@rjsf/validator-ajv8';
import { AJV_OPTIONS } from '../../src/shared/forms/validation/ajvConfig';
import { compileFormsOnDisk, compileValidator } from '../../src/shared/forms/model/compileNode';
import { addProjectKeywords } from '../../src/shared/forms/validation/keywords';
import type { Answers } from '../../src/shared/forms/model/schemaTypes';
import { signedDocuments, toPayload } from '../../src/shared/forms/payload/payload';
import { validateAnswers } from '../../src/shared/forms/validation/validateAnswers';
import type { CompiledForm } from '../../src/shared/forms/model/compiledForm';

/** The project's forms as the server compiles them (on first use). */
let forms: ReadonlyMap<string, CompiledForm> | undefined;
export function benchForm(id: string): CompiledForm {
  forms ??= compileFormsOnDisk(process.cwd());
  const form = forms.get(id);
  if (!form) throw new Error(`No form ${id} under schemas/`);
  return form;
}

const REPEATS = 1000;

function once(run: () => unknown): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

function repeated(run: () => unknown): number {
  for (let i = 0; i < 50; i++) run();
  const start = performance.now();
  for (let i = 0; i < REPEATS; i++) run();
  return (performance.now() - start) / REPEATS;
}

interface NodeValidation {
  compileMs: number;
  firstValid: number;
  repeatedValid: number;
  repeatedBlank: number;
  rawValid: number;
  rawBlank: number;
  plainValid: number;
  plainBlank: number;
  blankErrors: number;
}

export function nodeValidation(): NodeValidation {
  const form = benchForm('individual');
  const schema = form.schema as RJSFSchema;
  const valid = structuredClone(form.example) as Answers;
  const blank: Answers = {};
  const compileMs = once(() => compileValidator(form.schema));
  const validator = benchForm('individual').validator;
  const firstValid = once(() => validateAnswers(benchForm('individual'), valid));
  const check = validateAnswers(benchForm('individual'), valid);
  if (!check.valid) throw new Error(`example answers invalid: ${JSON.stringify(check.errors)}`);

  const ajv = new Ajv({ ...AJV_OPTIONS, strict: false });
  addFormats(ajv);
  addProjectKeywords(ajv);
  const plain = ajv.compile(schema);

  return {
    compileMs,
    firstValid,
    repeatedValid: repeated(() => validateAnswers(benchForm('individual'), valid)),
    repeatedBlank: repeated(() => validateAnswers(benchForm('individual'), blank)),
    rawValid: repeated(() => validator.rawValidation<ErrorObject>(schema, valid)),
    rawBlank: repeated(() => validator.rawValidation<ErrorObject>(schema, blank)),
    plainValid: repeated(() => plain(valid)),
    plainBlank: repeated(() => plain(blank)),
    blankErrors: validateAnswers(benchForm('individual'), blank).errors.length,
  };
}

interface BusinessFigures {
  persons: number;
  repeatedValid: number;
  repeatedBlank: number;
  blankErrors: number;
  /** The same answers through stock rjsf validateFormData with ajv-errors. */
  stockValid: number;
  stockBlank: number;
  /** toPayload with `pdfCount` PDFs of `pdfBytes` each, as multipart FormData with Blobs. */
  pdfCount: number;
  pdfBytes: number;
  payload: number;
  /** The same files as base64 inside one JSON text (what a stock rjsf FileWidget would send). */
  payloadBase64: number;
  payloadBlobs: number;
  payloadDataUrls: number;
}

/**
 * The whole business wizard's answers with `persons` affiliated persons (the example's two
 * repeated), valid and all-blank, through validateAnswers (what browser and server run), against
 * stock rjsf with ajv-errors; and serializing them with 20 PDFs of 1 MB (no base64).
 */
export function businessFigures(persons = 50): BusinessFigures {
  const form = benchForm('business');
  const example = structuredClone(form.example) as Answers;
  const examplePersons = example.affiliatedPersons as Answers[];
  const valid: Answers = {
    ...example,
    affiliatedPersons: Array.from({ length: persons }, (_, i) => ({
      ...examplePersons[i % examplePersons.length],
    })),
  };
  const blank: Answers = { affiliatedPersons: Array.from({ length: persons }, () => ({})) };
  const check = validateAnswers(benchForm('business'), valid);
  if (!check.valid) throw new Error(`business answers invalid: ${JSON.stringify(check.errors)}`);

  // Stock: rjsf's own validator with ajv-errors (and the project's rule keywords, so it can read
  // the schema), its validateFormData as a stock rjsf form would call it.
  const stock = customizeValidator({
    extenderFn: (ajv) => ajvErrors(addProjectKeywords(ajv)),
  });
  const stockSchema = form.schema as RJSFSchema;

  const pdfCount = 20;
  const pdfBytes = 1024 * 1024;
  const pdf = new Uint8Array(pdfBytes);
  pdf.set(new TextEncoder().encode('%PDF-1.4\n'));
  const fileKeys = [
    'certificateOfInc',
    'corporateOrgChart',
    'w8orw9',
    'corporateGuarantee',
    'solicitation',
    'bylawsOrLLCAgreement',
  ];
  const withFiles: Answers = { ...valid, signerAuthorization: 'no' };
  const files: Record<string, Blob> = {};
  for (const key of [...fileKeys, 'authorizationForm', 'photoId']) {
    withFiles[key] = { name: `${key}.pdf`, type: 'application/pdf', size: pdfBytes };
    files[`/${key}`] = new Blob([pdf], { type: 'application/pdf' });
  }
  const documents: Record<string, Blob> = {};
  for (const document of signedDocuments(benchForm('business'))) {
    documents[document.url] = new Blob([pdf], { type: 'application/pdf' });
  }
  // 8 answers' files + 5 signed documents = 13; pad to 20 with repeated documents' bytes in
  // the baseline too, so both sides carry the same bytes.
  const extra = pdfCount - Object.keys(files).length - Object.keys(documents).length;
  const extraBlobs = Array.from({ length: Math.max(0, extra) }, () => new Blob([pdf]));
  const build = () => {
    const data = toPayload(benchForm('business'), withFiles, files, documents);
    extraBlobs.forEach((blob, i) => data.append(`extra.${i}`, blob, `extra-${i}.pdf`));
    return data;
  };
  const base64 = () =>
    JSON.stringify({
      ...withFiles,
      files: Array.from(
        { length: pdfCount },
        () => `data:application/pdf;base64,${Buffer.from(pdf).toString('base64')}`,
      ),
    });
  const sample = build();
  let payloadBlobs = 0;
  let payloadDataUrls = 0;
  for (const [, value] of sample) {
    if (typeof value === 'string') payloadDataUrls += value.includes('data:') ? 1 : 0;
    else payloadBlobs += 1;
  }

  return {
    persons,
    repeatedValid: repeated(() => validateAnswers(benchForm('business'), valid)),
    repeatedBlank: repeated(() => validateAnswers(benchForm('business'), blank)),
    blankErrors: validateAnswers(benchForm('business'), blank).errors.length,
    stockValid: repeatedFew(() => stock.validateFormData(valid, stockSchema), 100),
    stockBlank: repeatedFew(() => stock.validateFormData(blank, stockSchema), 20),
    pdfCount,
    pdfBytes,
    payload: repeatedFew(build, 20),
    payloadBase64: repeatedFew(base64, 5),
    payloadBlobs,
    payloadDataUrls,
  };
}

/** Like `repeated` for slow runs: a few warm-ups, then `count` timed runs, the mean. */
function repeatedFew(run: () => unknown, count: number): number {
  for (let i = 0; i < 3; i++) run();
  const start = performance.now();
  for (let i = 0; i < count; i++) run();
  return (performance.now() - start) / count;
}
