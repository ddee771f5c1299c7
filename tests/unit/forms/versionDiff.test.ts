import { describe, expect, it } from 'vitest';
import { compileForms } from '../../../src/shared/forms/model/compileNode';
import type { Answers } from '../../../src/shared/forms/model/schemaTypes';
import { versionDiff, type VersionSide } from '../../../src/shared/forms/review/versionDiff';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { RegistrationVersions } from '../../../src/server/admin/RegistrationVersions';
import { projectSources, testForm } from '../../forms';

const business = testForm('business');
const individual = testForm('individual');
const example = (form: typeof business): Answers => structuredClone(form.example) as Answers;

const W2 = { name: 'w2-2024.pdf', sha256: 'a'.repeat(64) };

function side(form: typeof business, answers: Answers, documents = {}): VersionSide {
  return { form, answers, documents };
}

describe('versionDiff', () => {
  it('finds nothing between two identical versions', () => {
    const answers = example(business);
    expect(versionDiff(side(business, answers), side(business, structuredClone(answers)))).toEqual({
      answers: [],
      documents: [],
    });
  });

  it('shows an affiliated person’s changed answer by its prompt, countries by name', () => {
    const before = example(business);
    const after = example(business);
    const persons = after.affiliatedPersons as Answers[];
    persons[1]!.passportCountryOfIssuance = 'NZ';
    const diff = versionDiff(side(business, before), side(business, after));
    expect(diff.answers).toEqual([
      {
        pointer: '/affiliatedPersons/1/passportCountryOfIssuance',
        before: {
          prompt: 'Affiliated person 2: Passport country of issuance',
          text: 'Australia',
          sensitive: false,
        },
        after: {
          prompt: 'Affiliated person 2: Passport country of issuance',
          text: 'New Zealand',
          sensitive: false,
        },
      },
    ]);
  });

  it('says which document was replaced (by its bytes’ hash), added or removed, by prompt', () => {
    const answers = example(individual);
    const w2Prompt = individual.schema.properties!.irsFormW2!.title!;
    const diff = versionDiff(
      side(individual, answers, { '/irsFormW2': W2, '/photoIdBack': W2 }),
      side(individual, answers, {
        '/irsFormW2': { name: 'w2-2024.pdf', sha256: 'b'.repeat(64) },
        '/photoId': W2,
      }),
    );
    expect(diff.answers).toEqual([]);
    expect(diff.documents).toEqual([
      {
        key: '/irsFormW2',
        prompt: w2Prompt,
        change: 'replaced',
        before: W2,
        after: { name: 'w2-2024.pdf', sha256: 'b'.repeat(64) },
      },
      expect.objectContaining({ key: '/photoId', change: 'added', before: null, after: W2 }),
      expect.objectContaining({ key: '/photoIdBack', change: 'removed', before: W2, after: null }),
    ]);
    // The same bytes under another name are not a replacement.
    expect(
      versionDiff(
        side(individual, answers, { '/irsFormW2': W2 }),
        side(individual, answers, { '/irsFormW2': { ...W2, name: 'renamed.pdf' } }),
      ).documents,
    ).toEqual([]);
    // Bytes not at hand to hash: the same name is the same document, a hash now is a new one.
    const unhashed = { name: 'w2-2024.pdf', sha256: null };
    const only = (a: typeof unhashed | typeof W2, b: typeof unhashed | typeof W2) =>
      versionDiff(
        side(individual, answers, { '/irsFormW2': a }),
        side(individual, answers, { '/irsFormW2': b }),
      ).documents.map((change) => change.change);
    expect(only(unhashed, unhashed)).toEqual([]);
    expect(only(unhashed, W2)).toEqual(['replaced']);
  });

  it('names each side by the prompt its own version of the form asked', () => {
    const sources = projectSources();
    const schema = sources.forms.individual!.schema as {
      properties: Record<string, { title?: string }>;
    };
    schema.properties.firstName!.title = 'Given name, as on your photo ID';
    const reworded = compileForms(sources).forms.get('individual')!;
    const before = example(individual);
    const after = { ...example(individual), firstName: 'Janet' };
    expect(versionDiff(side(individual, before), side(reworded, after)).answers).toEqual([
      {
        pointer: '/firstName',
        before: { prompt: 'First name', text: 'Jane', sensitive: false },
        after: { prompt: 'Given name, as on your photo ID', text: 'Janet', sensitive: false },
      },
    ]);
  });

  it('lists an answer the later version no longer holds, and marks sensitive ones', () => {
    const before = example(individual);
    const after: Answers = {
      ...example(individual),
      marriedStatus: false,
      socialSecurityNumber: '987-65-4321',
    };
    delete after.numberOfDependents;
    const diff = versionDiff(side(individual, before), side(individual, after));
    const byPointer = new Map(diff.answers.map((change) => [change.pointer, change]));
    expect(byPointer.get('/marriedStatus')).toMatchObject({
      before: { text: 'Yes' },
      after: { text: 'No' },
    });
    expect(byPointer.get('/numberOfDependents')).toMatchObject({
      before: { text: '2' },
      after: null,
    });
    expect(byPointer.get('/socialSecurityNumber')).toMatchObject({
      before: { sensitive: true },
      after: { sensitive: true, text: '987-65-4321' },
    });
  });
});

describe('the console’s versions section', () => {
  it('lists each version with its wording and time, and draws the diff by prompt, escaped and masked', () => {
    const before = example(business);
    const after = example(business);
    (after.affiliatedPersons as Answers[])[1]!.passportCountryOfIssuance = 'NZ';
    (after.affiliatedPersons as Answers[])[0]!.ssn = '987-65-4321';
    after.tradingIntentions = '<script>alert(1)</script>';
    const diff = versionDiff(
      side(business, before, { '/w8orw9': W2 }),
      side(business, after, { '/w8orw9': { name: 'w9-signed.pdf', sha256: 'c'.repeat(64) } }),
    );
    const html = renderToStaticMarkup(
      createElement(RegistrationVersions, {
        versions: [
          { version: 1, schemaHash: 'h1', submittedAt: '2026-11-20T10:00:00.000Z' },
          { version: 2, schemaHash: 'h2', submittedAt: '2026-11-24T09:30:00.000Z', diff },
        ],
      }),
    );
    expect(html).toContain('<td>1</td><td>2026-11-20 10:00 UTC</td><td><code>h1</code></td>');
    expect(html).toContain('<h3 id="changes-v2">What changed from version 1 to version 2</h3>');
    expect(html).toContain(
      '<th scope="row">Affiliated person 2: Passport country of issuance</th><td class="before">Australia</td><td class="after">New Zealand</td>',
    );
    expect(html).toContain(
      `<td class="before">w2-2024.pdf</td><td class="after">w9-signed.pdf (replaced)</td>`,
    );
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>');
    // Sensitive answers stay masked in the diff.
    expect(html).not.toContain('987-65-4321');
    expect(html).not.toContain('123-45-6789');
    expect(html).toContain('•••-••-4321');
  });
});
