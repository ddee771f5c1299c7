/**
 * `npm run forms -- impact` (issue 17, "Versions of the form itself"): a changed working tree
 * of schemas run against the registrations awaiting review and the open applications of a real
 * database, their sealed answers opened with the key ring, compared with the schemas at HEAD.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REWORDED_HEADING } from '../../src/shared/forms/check/impact';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newFieldKey } from '../../src/server/fieldEncryption/keyRing';
import type { Answers } from '../../src/shared/forms/model/schemaTypes';
import { compileFormsOnDisk } from '../../src/shared/forms/model/compileNode';
import { registeredCustomer } from './adminHelpers';
import { signedIn } from './authHelpers';
import { runCli, type CliRun } from './cliRun';
import { createTestApp, type TestApp } from './testApp';

const KEYS = newFieldKey('impact');

/** schemas/ in a git checkout of its own (HEAD: the published forms), then changed. */
function changedSchemasRoot(tmp: string): string {
  const root = path.join(tmp, 'project');
  fs.cpSync(path.resolve('schemas'), path.join(root, 'schemas'), { recursive: true });
  const git = (...args: string[]) =>
    execFileSync(
      'git',
      ['-c', 'user.name=Compliance', '-c', 'user.email=c@example.test', ...args],
      {
        cwd: root,
        stdio: 'ignore',
      },
    );
  git('init', '-q');
  git('add', 'schemas');
  git('commit', '-qm', 'published forms');
  const file = path.join(root, 'schemas/individual/individual.schema.json');
  const schema = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    properties: Record<string, Record<string, unknown>>;
    required: string[];
    errorMessage: { required: Record<string, string> };
  };
  // Reworded: the same question under a new prompt.
  schema.properties.firstName!.title = 'Given name';
  // Newly required: a question nobody has answered yet.
  schema.properties.taxResidence = {
    type: 'string',
    title: 'Country of tax residence',
    minLength: 1,
    errorMessage: { minLength: 'Must provide the country of tax residence' },
  };
  schema.required.push('taxResidence');
  schema.errorMessage.required.taxResidence = 'Must provide the country of tax residence';
  // Removed: an optional question people answered.
  delete schema.properties.secondaryEmailAddress;
  fs.writeFileSync(file, JSON.stringify(schema, null, 2));
  return root;
}

const RULE_FORMS = 'tests/fixtures/rule-forms';

/**
 * schemas/ and a FORMS_DIR folder (the commodity pool) in a git checkout (HEAD: published), the
 * pool's name then reworded; and a copy of the changed folder outside the checkout.
 */
function changedFormsDir(tmp: string): { root: string; inside: string; outside: string } {
  const root = path.join(tmp, 'with-forms-dir');
  const inside = path.join(root, 'forms');
  fs.cpSync(path.resolve('schemas'), path.join(root, 'schemas'), { recursive: true });
  fs.cpSync(path.resolve(RULE_FORMS), inside, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync(
      'git',
      ['-c', 'user.name=Compliance', '-c', 'user.email=c@example.test', ...args],
      { cwd: root, stdio: 'ignore' },
    );
  git('init', '-q');
  git('add', 'schemas', 'forms');
  git('commit', '-qm', 'published forms');
  const file = path.join(inside, 'commodity-pool/commodity-pool.schema.json');
  const text = fs.readFileSync(file, 'utf8');
  fs.writeFileSync(file, text.replace('"Name of the pool"', '"Name of the commodity pool"'));
  const outside = path.join(tmp, 'outside-forms');
  fs.cpSync(inside, outside, { recursive: true });
  return { root, inside, outside };
}

describe('npm run forms -- impact on a FORMS_DIR form', () => {
  let t: TestApp;
  let tmp: string;
  let applicationId: string;
  const runs: Record<'inside' | 'outside' | 'without', CliRun> = {} as never;

  beforeAll(async () => {
    const forms = compileFormsOnDisk(process.cwd(), undefined, RULE_FORMS);
    t = await createTestApp({ fieldEncryptionKeys: KEYS }, { forms });
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'forms-impact-dir-'));
    const applicant = await signedIn(t);
    const saved = await applicant.client.request(
      'PUT',
      '/exchange/api/web/applications/commodity-pool',
      { json: { answers: { poolName: 'Lovelace Futures Pool' }, baseRevision: 0, step: 0 } },
    );
    expect(saved.statusCode).toBe(200);
    const row = await t.pool.query<{ id: string }>(
      `select id from applications where form_id = 'commodity-pool'`,
    );
    applicationId = row.rows[0]!.id;
    const { root, inside, outside } = changedFormsDir(tmp);
    const env = (formsDir?: string) => ({
      DATABASE_URL: t.pool.options.connectionString,
      DATA_DIR: tmp,
      FIELD_ENCRYPTION_KEYS: KEYS,
      NODE_ENV: 'test',
      FORMS_DIR: formsDir,
    });
    const impact = (formsDir?: string) =>
      runCli('src/cli/forms.ts', ['impact', '--root', root], env(formsDir));
    [runs.inside, runs.outside, runs.without] = await Promise.all([
      impact(inside),
      impact(outside),
      impact(),
    ]);
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('compares a FORMS_DIR folder in the repository with HEAD, as schemas/', () => {
    const { stdout, stderr, code } = runs.inside;
    expect(stderr).not.toMatch(/Error|at \w+ \(/);
    expect(stdout).toContain(
      'commodity-pool (0 registrations awaiting review, 1 open application)',
    );
    expect(stdout).toContain(
      '/poolName: "Name of the pool" → "Name of the commodity pool" (answered in 1 record)',
    );
    expect(stdout).not.toContain('has no form');
    expect(stdout).not.toContain(applicationId);
    expect(code).toBe(0);
  });

  it('says a FORMS_DIR folder outside the repository has no published version', () => {
    const { stdout } = runs.outside;
    expect(stdout).toMatch(
      /HEAD \([0-9a-f]{7}\) has no form commodity-pool \(a FORMS_DIR folder outside the repository has no history\)/,
    );
    expect(stdout).not.toContain('→');
  });

  it('without FORMS_DIR, the form is missing from the working tree', () => {
    expect(runs.without.stdout).toContain('The working tree has no form commodity-pool');
  });
});

describe('npm run forms -- impact', () => {
  let t: TestApp;
  let tmp: string;
  let run: CliRun;
  const registrations: string[] = [];
  let applicationId: string;
  let given: Answers;

  beforeAll(async () => {
    t = await createTestApp({ fieldEncryptionKeys: KEYS });
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'forms-impact-'));
    for (let i = 0; i < 2; i++) {
      const customer = await registeredCustomer(t, {
        secondaryEmailAddress: `second${i}@example.test`,
      });
      registrations.push(customer.registrationId);
      given = customer.answers;
    }
    // A registration staff have decided is no longer awaiting review: not checked.
    const approved = await registeredCustomer(t);
    await t.pool.query(`update registrations set status = 'approved' where id = $1`, [
      approved.registrationId,
    ]);
    // An open application, part-way through (its missing answers fail before and after).
    const applicant = await signedIn(t);
    const saved = await applicant.client.request(
      'PUT',
      '/exchange/api/web/applications/individual',
      {
        json: {
          answers: {
            firstName: 'Ada',
            socialSecurityNumber: '987-65-4321',
            secondaryEmailAddress: 'ada.second@example.test',
          },
          baseRevision: 0,
          step: 0,
        },
      },
    );
    expect(saved.statusCode).toBe(200);
    const row = await t.pool.query<{ id: string }>(
      `select id from applications where form_id = 'individual'`,
    );
    applicationId = row.rows[0]!.id;

    const root = changedSchemasRoot(tmp);
    run = await runCli('src/cli/forms.ts', ['impact', '--root', root], {
      DATABASE_URL: t.pool.options.connectionString,
      DATA_DIR: tmp,
      FIELD_ENCRYPTION_KEYS: KEYS,
      NODE_ENV: 'test',
    });
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  /** The lines of the output from a heading to the next heading of the same depth. */
  const section = (heading: string) => {
    const lines = run.stdout.split('\n');
    const start = lines.findIndex((line) => line.trim() === heading);
    if (start === -1) return '';
    const depth = lines[start]!.search(/\S/);
    const end = lines.findIndex(
      (line, i) => i > start && line.trim() && line.search(/\S/) <= depth,
    );
    return lines.slice(start, end === -1 ? undefined : end).join('\n');
  };

  it('compares with HEAD, on the registrations awaiting review and the open applications', () => {
    expect(run.stderr).not.toMatch(/Error|at \w+ \(/);
    expect(run.stdout).toMatch(
      /compared with HEAD \([0-9a-f]{7}\), on 2 registrations awaiting review, 1 open application/,
    );
    expect(run.stdout).toContain(
      'individual (2 registrations awaiting review, 1 open application)',
    );
    expect(run.code).toBe(1);
  });

  it('lists each registration awaiting review as newly failing at a newly required question', () => {
    const failing = section('Would newly fail:');
    expect(failing).toContain(
      '/taxResidence (Country of tax residence): Must provide the country of tax residence',
    );
    for (const id of registrations) expect(failing).toContain(`registration ${id}`);
    expect(failing).toContain(`application ${applicationId}`);
    // What failed before the change (the application's unanswered questions) is not news.
    expect(failing).not.toContain('/lastName');
    expect(failing.match(/^ {4}\//gm)).toHaveLength(1);
  });

  it('lists the answers a removed question drops, by pointer and prompt', () => {
    const dropped = section('Would be dropped (no longer kept, sent or stored):');
    expect(dropped).toMatch(/\/secondaryEmailAddress \(.+\)/);
    for (const id of [...registrations, applicationId]) expect(dropped).toContain(id);
    expect(dropped.match(/^ {4}\//gm)).toHaveLength(1);
  });

  it('lists a reworded question without failing anyone', () => {
    expect(section(REWORDED_HEADING)).toContain(
      '/firstName: "First name" → "Given name" (answered in 3 records)',
    );
    expect(section('Would newly fail:')).not.toContain('/firstName');
  });

  it('prints no answer (pointers, prompts and messages only)', () => {
    const values = [
      '987-65-4321',
      'Ada',
      'ada.second@example.test',
      'second0@example.test',
      String(given.socialSecurityNumber),
      String(given.dateOfBirth),
      String(given.lastName),
      String(given.primaryEmailAddress),
    ];
    for (const value of values) expect(run.stdout).not.toContain(value);
  });
});
