/**
 * Issue 25's figure: `npm run forms -- check` over schemas/ plus 40 generated forms (FORMS_DIR),
 * its wall time and peak memory (the child's maximum resident set, from GNU time). The forms are
 * made here, deterministically: each has sections of text questions with patterns and lengths,
 * choices with titles, yes/no questions with a condition, a list and an optional object, so
 * check compiles, validates examples and builds the browser's validators as for a real form.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ms, ratio, type Row } from './util';

const FORMS = 40;

/** A generated form's three files. */
export interface GeneratedForm {
  schema: { properties: Record<string, object>; required: string[] } & Record<string, unknown>;
  ui: Record<string, unknown>;
  example: Record<string, unknown>;
}

/**
 * One generated form's three files, valid by construction: `sections` sections of
 * `questionsPerSection` questions each (by default this file's 5 of 6), then the condition's two.
 */
export function generatedForm(
  n: number,
  { sections, questionsPerSection } = { sections: 5, questionsPerSection: 6 },
): GeneratedForm {
  const properties: Record<string, object> = {};
  const example: Record<string, unknown> = {};
  const order: string[] = [];
  const allOf: object[] = [];
  for (let s = 0; s < sections; s++) {
    const section = `section${s}`;
    const members: Record<string, object> = {};
    const answers: Record<string, unknown> = {};
    for (let q = 0; q < questionsPerSection; q++) {
      const key = `q${s}_${q}`;
      switch ((n + q) % 4) {
        case 0:
          members[key] = {
            type: 'string',
            title: `Text question ${s}.${q}`,
            maxLength: 80,
            pattern: '^[A-Za-z0-9 .,-]*$',
          };
          answers[key] = `Answer ${s} ${q}`;
          break;
        case 1:
          members[key] = {
            type: 'string',
            title: `Choice question ${s}.${q}`,
            oneOf: ['a', 'b', 'c'].map((value) => ({
              const: value,
              title: `Option ${value.toUpperCase()}`,
            })),
          };
          answers[key] = 'b';
          break;
        case 2:
          members[key] = { type: 'boolean', title: `Yes or no ${s}.${q}` };
          answers[key] = false;
          break;
        default:
          members[key] = {
            type: 'array',
            title: `List ${s}.${q}`,
            items: { type: 'string', title: 'Entry', maxLength: 40 },
            maxItems: 5,
          };
          answers[key] = ['one', 'two'];
      }
    }
    members[`details${s}`] = {
      type: 'object',
      title: `Optional details ${s}`,
      properties: { note: { type: 'string', title: 'Note', maxLength: 200 } },
      required: ['note'],
    };
    properties[section] = {
      type: 'object',
      title: `Section ${s}`,
      properties: members,
      required: Object.keys(members).filter((key) => !key.startsWith('details')),
    };
    example[section] = answers;
    order.push(section);
  }
  properties.hasAgent = { type: 'boolean', title: 'An agent acts for you' };
  properties.agentName = { type: 'string', title: 'Agent name', maxLength: 80 };
  allOf.push({
    if: { properties: { hasAgent: { const: true } }, required: ['hasAgent'] },
    then: { required: ['agentName'] },
  });
  example.hasAgent = true;
  example.agentName = 'Pat Agent';
  return {
    schema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      title: `Generated form ${n}`,
      'x-messages': {
        type: 'Please give this answer again: it is not of the kind asked for',
        required: 'Please answer this question',
        maxLength: 'This answer is too long',
        maxItems: 'Too many entries',
        pattern: 'Please use letters, digits and . , - only',
        oneOf: 'Please choose one of the options',
        const: 'Please choose one of the options',
        if: 'Please answer this question',
      },
      type: 'object',
      properties,
      required: order,
      allOf,
    },
    ui: { 'ui:order': [...order, 'hasAgent', 'agentName'] },
    example,
  };
}

/** Writes the generated forms into `dir` (a FORMS_DIR). */
function writeGeneratedForms(dir: string): void {
  for (let n = 0; n < FORMS; n++) {
    const id = `generated-${n}`;
    const folder = path.join(dir, id);
    fs.mkdirSync(folder, { recursive: true });
    const form = generatedForm(n);
    fs.writeFileSync(path.join(folder, `${id}.schema.json`), JSON.stringify(form.schema, null, 2));
    fs.writeFileSync(path.join(folder, `${id}.ui.json`), JSON.stringify(form.ui, null, 2));
    fs.writeFileSync(
      path.join(folder, `${id}.example.json`),
      JSON.stringify(form.example, null, 2),
    );
  }
}

interface FormsCheckFigures {
  /** Wall time of the whole command, ms (process start included). */
  wallMs: number;
  /** The child's maximum resident set, bytes. */
  peakRssBytes: number;
  forms: number;
  /** The same command over schemas/ alone: the baseline. */
  baselineWallMs: number;
  baselinePeakRssBytes: number;
}

function timedCheck(projectRoot: string, formsDir: string | undefined) {
  const started = Date.now();
  const result = spawnSync(
    '/usr/bin/time',
    ['-f', 'peak-kb %M', process.execPath, '--import', 'tsx', 'src/cli/forms.ts', 'check'],
    {
      cwd: projectRoot,
      env: { ...process.env, ...(formsDir ? { FORMS_DIR: formsDir } : {}) },
      encoding: 'utf8',
    },
  );
  const wallMs = Date.now() - started;
  if (result.status !== 0) {
    throw new Error(`forms check failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  }
  const peak = /peak-kb (\d+)/.exec(result.stderr);
  if (!peak) throw new Error(`no peak memory in GNU time's output: ${result.stderr}`);
  return { wallMs, peakRssBytes: Number(peak[1]) * 1024 };
}

/** Runs check over schemas/ alone, then over schemas/ plus the 40 generated forms. */
export function formsCheckFigures(projectRoot: string, tempDir: string): FormsCheckFigures {
  const formsDir = path.join(tempDir, 'generated-forms');
  writeGeneratedForms(formsDir);
  const baseline = timedCheck(projectRoot, undefined);
  const measured = timedCheck(projectRoot, formsDir);
  return {
    wallMs: measured.wallMs,
    peakRssBytes: measured.peakRssBytes,
    forms: FORMS,
    baselineWallMs: baseline.wallMs,
    baselinePeakRssBytes: baseline.peakRssBytes,
  };
}

/** The table's rows: the time under the absolute goal, memory beside schemas/ alone. */
export function formsCheckRows(figures: FormsCheckFigures): Row[] {
  return [
    {
      figure: `forms check, schemas/ + ${figures.forms} generated forms (wall, process start included)`,
      value: ms(figures.wallMs),
      baseline: `${ms(figures.baselineWallMs)} schemas/ alone`,
      ratio: ratio(figures.wallMs, figures.baselineWallMs),
      goal: '< 10 s',
      met: figures.wallMs < 10_000,
    },
    {
      figure: `forms check, schemas/ + ${figures.forms} generated forms (peak RSS)`,
      value: `${(figures.peakRssBytes / 1e6).toFixed(0)} MB`,
      baseline: `${(figures.baselinePeakRssBytes / 1e6).toFixed(0)} MB schemas/ alone`,
      ratio: ratio(figures.peakRssBytes, figures.baselinePeakRssBytes),
      goal: '-',
      met: null,
    },
  ];
}
