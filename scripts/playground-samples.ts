/**
 * rjsf's playground samples as form folders (issue 37, goal: the rjsf playground samples work).
 *
 *   tsx scripts/playground-samples.ts extract <samples folder> <commits.json>
 *     reads each sample module of a react-jsonschema-form checkout
 *     (packages/playground/src/samples/*.ts[x]), evaluates it with its imports stubbed, and writes
 *     tests/fixtures/playground/rjsf-samples.json: each sample's schema, uiSchema and formData as
 *     rjsf wrote them, its source path and commit (commits.json: { "<file>": "<commit>" }), and
 *     what in it is code rather than data (left out: custom widgets, templates, callbacks).
 *   tsx scripts/playground-samples.ts convert
 *     writes tests/fixtures/playground/<id>/ from that snapshot: <id>.schema.json, <id>.ui.json,
 *     <id>.example.json, the folder layout FORMS_DIR reads, adding only what a form folder needs
 *     (a root `title`, a `title` for each question without one, the form's default messages in
 *     `x-messages`), and tests/fixtures/playground/samples.json saying per sample what was added.
 *     The example is the playground's first answers: the formData with the schema's defaults
 *     filled as rjsf fills them (getDefaultFormState), the answers the playground shows.
 *
 * The conversion is mechanical: nothing is chosen per sample, so what the engine makes of the
 * samples (tests/unit/forms/playgroundSamples.test.ts) is what it makes of rjsf's own words.
 */
import fs from 'node:fs';
import path from 'node:path';
import { getDefaultFormState, type RJSFSchema } from '@rjsf/utils';
import validator from '@rjsf/validator-ajv8';
import { transformSync } from 'esbuild';
import { format, resolveConfig } from 'prettier';

const OUT = path.resolve(import.meta.dirname, '../tests/fixtures/playground');
const SNAPSHOT = path.join(OUT, 'rjsf-samples.json');
const SOURCE_FOLDER = 'packages/playground/src/samples';
/** Not samples: the list of samples, its type, and xdr (schemas made at run time by a wasm package). */
const NOT_SAMPLES = new Set(['index', 'Sample', 'xdr']);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

interface SnapshotSample {
  name: string;
  source: string;
  commit: string;
  schema: Json;
  uiSchema: Json;
  formData: Json;
  /** Members that are code, not data (functions, class instances), by JSON pointer. */
  leftOut: string[];
}

/** The form's default messages: every keyword a sample's answer can fail has one. */
const MESSAGES: JsonObject = {
  type: 'Please check this answer',
  required: 'Please answer this question',
  enum: 'Choose one of the options',
  const: 'Please check this answer',
  format: 'Please check this answer',
  pattern: 'Please check this answer',
  minLength: 'Too short',
  maxLength: 'Too long',
  minimum: 'Too small',
  maximum: 'Too large',
  exclusiveMinimum: 'Too small',
  exclusiveMaximum: 'Too large',
  multipleOf: 'Please check this answer',
  minItems: 'Too few',
  maxItems: 'Too many',
  uniqueItems: 'Each once',
  minProperties: 'Too few',
  maxProperties: 'Too many',
  additionalProperties: 'Not asked',
  propertyNames: 'Not a name this form takes',
  dependencies: 'Please answer this question',
  oneOf: 'Choose one',
  anyOf: 'Choose one',
  allOf: 'Please check this answer',
  if: 'Please check this answer',
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A deep stand-in for any imported name: callable, constructible, every member another. */
function stub(): unknown {
  const target = function () {} as unknown as object;
  const proxy: object = new Proxy(target, {
    get: (_t, key) => (key === Symbol.toPrimitive ? () => 'stub' : proxy),
    apply: () => proxy,
    construct: () => proxy,
  });
  return proxy;
}

function evaluate(file: string): Record<string, unknown> {
  const code = transformSync(fs.readFileSync(file, 'utf8'), {
    loader: file.endsWith('x') ? 'tsx' : 'ts',
    format: 'cjs',
    jsx: 'transform',
  }).code;
  const module = { exports: {} as Record<string, unknown> };
  // The sample's own code, run once to read its data: imports are stand-ins, React included.
  new Function('require', 'module', 'exports', 'React', code)(stub, module, module.exports, stub());
  const sample = module.exports.default;
  if (!isObject(sample)) throw new Error(`${file}: no default export`);
  return sample;
}

/** Plain JSON of a value; what is code is left out and named. */
function plain(value: unknown, pointer: string, leftOut: string[]): Json | undefined {
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value))
    return value as Json;
  if (Array.isArray(value))
    return value.map((each, i) => plain(each, `${pointer}/${i}`, leftOut) ?? null);
  if (isObject(value) && Object.getPrototypeOf(value) === Object.prototype) {
    const out: JsonObject = {};
    for (const [key, child] of Object.entries(value)) {
      const kept = plain(
        child,
        `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`,
        leftOut,
      );
      if (kept !== undefined) out[key] = kept;
    }
    return out;
  }
  if (value !== undefined) leftOut.push(pointer);
  return undefined;
}

/** Writes JSON as the repository's Prettier writes it, so a run on unchanged samples changes nothing. */
async function writeJson(file: string, value: unknown): Promise<void> {
  const options = (await resolveConfig(file)) ?? {};
  fs.writeFileSync(file, await format(JSON.stringify(value), { ...options, filepath: file }));
}

async function extract(folder: string, commitsFile: string): Promise<void> {
  const commits = JSON.parse(fs.readFileSync(commitsFile, 'utf8')) as Record<string, string>;
  const samples: SnapshotSample[] = [];
  for (const file of fs.readdirSync(folder).sort()) {
    const name = file.replace(/\.(ts|tsx|js|jsx)$/, '');
    if (name === file || NOT_SAMPLES.has(name)) continue;
    const sample = evaluate(path.join(folder, file));
    const leftOut: string[] = [];
    const { schema, uiSchema, formData, ...rest } = sample;
    // What the playground passes beside the form (templates, validator, callbacks, extra errors).
    leftOut.push(...Object.keys(rest).map((key) => `/${key}`));
    samples.push({
      name,
      source: `${SOURCE_FOLDER}/${file}`,
      commit: commits[file] ?? '',
      schema: plain(schema, '/schema', leftOut) ?? {},
      uiSchema: typeof uiSchema === 'function' ? {} : (plain(uiSchema, '/uiSchema', leftOut) ?? {}),
      formData: plain(formData, '/formData', leftOut) ?? {},
      leftOut: typeof uiSchema === 'function' ? [...leftOut, '/uiSchema'] : leftOut,
    });
  }
  fs.mkdirSync(OUT, { recursive: true });
  await writeJson(SNAPSHOT, samples);
  console.log(`${samples.length} samples → ${path.relative(process.cwd(), SNAPSHOT)}`);
}

/** A value's answers by JSON pointer (its values that are not objects or lists, and empty ones). */
function leaves(value: Json, pointer = '', out = new Map<string, string>()): Map<string, string> {
  const children = typeof value === 'object' && value !== null ? Object.entries(value) : [];
  if (children.length === 0) out.set(pointer, JSON.stringify(value));
  for (const [key, child] of children) leaves(child, `${pointer}/${key}`, out);
  return out;
}

const kebab = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();

/** Where a `$ref` leads inside the schema (`#/…` only), for its title. */
function target(root: JsonObject, ref: string): Json | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let node: Json | undefined = root;
  for (const key of ref.slice(2).split('/')) node = isObject(node) ? node[key] : undefined;
  return node;
}

/** Adds a `title` to each property without one (nor a referenced one): rjsf shows the key. */
function addTitles(root: JsonObject, added: string[]): void {
  const walk = (node: Json, pointer: string) => {
    if (Array.isArray(node)) return node.forEach((each, i) => walk(each, `${pointer}/${i}`));
    if (!isObject(node)) return;
    for (const [key, child] of Object.entries(node)) {
      const at = `${pointer}/${key}`;
      if (key === 'properties' && isObject(child)) {
        for (const [name, property] of Object.entries(child)) {
          if (!isObject(property) || 'title' in property) continue;
          const referred =
            typeof property.$ref === 'string' ? target(root, property.$ref) : undefined;
          if (isObject(referred) && 'title' in referred) continue;
          property.title = name;
          added.push(`${at}/${name}/title`);
        }
      }
      if (key === 'additionalProperties' && isObject(child) && !('title' in child)) {
        child.title = 'Additional property';
        added.push(`${at}/title`);
      }
      if (key !== 'enum' && key !== 'const' && key !== 'default' && key !== 'examples')
        walk(child, at);
    }
  };
  walk(root, '');
}

async function convert(): Promise<void> {
  const samples = JSON.parse(fs.readFileSync(SNAPSHOT, 'utf8')) as SnapshotSample[];
  const manifest = [];
  for (const sample of samples) {
    const id = kebab(sample.name);
    const added: string[] = [];
    const schema: JsonObject = isObject(sample.schema) ? structuredClone(sample.schema) : {};
    if (!('title' in schema)) {
      schema.title = sample.name;
      added.push('/title');
    }
    addTitles(schema, added);
    added.push('/x-messages');
    const folder = path.join(OUT, id);
    fs.mkdirSync(folder, { recursive: true });
    const write = (file: string, value: Json) => writeJson(path.join(folder, file), value);
    await write(`${id}.schema.json`, { ...schema, 'x-messages': MESSAGES });
    await write(`${id}.ui.json`, sample.uiSchema);
    const example = getDefaultFormState(
      validator,
      sample.schema as RJSFSchema,
      sample.formData,
      sample.schema as RJSFSchema,
    ) as Json;
    const defaults = [...leaves(example)].filter(
      ([at, v]) => leaves(sample.formData).get(at) !== v,
    );
    await write(`${id}.example.json`, example);
    manifest.push({
      id,
      source: sample.source,
      commit: sample.commit,
      added,
      defaultsFilled: defaults.map(([at]) => at),
      leftOut: sample.leftOut,
    });
  }
  await writeJson(path.join(OUT, 'samples.json'), manifest);
  console.log(`${manifest.length} form folders under ${path.relative(process.cwd(), OUT)}`);
}

const [command, ...args] = process.argv.slice(2);
if (command === 'extract' && args.length === 2) await extract(args[0]!, args[1]!);
else if (command === 'convert') await convert();
else {
  console.error('usage: playground-samples.ts extract <samples folder> <commits.json> | convert');
  process.exit(2);
}
