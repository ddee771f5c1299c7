import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { wordingOf } from '../../../src/cli/forms/wording';
import { promptsDraftsCannotKeep } from '../../../src/shared/forms/walk/answers';
import { checkForms } from '../../../src/shared/forms/check/checkForms';
import { deref } from '../../../src/shared/forms/walk/schemaWalk';
import { stepFields, stepProblems, stepsOf } from '../../../src/shared/forms/model/steps';
import { projectSources, testForm } from '../../forms';

describe('steps as data', () => {
  it('the business uiSchema names three steps, labels and prompts; the user step asks the email first', () => {
    const business = testForm('business');
    const steps = stepsOf(business.uiSchema, business.schema)!;
    expect(steps.map((s) => [s.title, s.next])).toEqual([
      ['User Details', 'Register User'],
      ['Business Details', 'Register Business'],
      ['Confirm', 'Submit Registration'],
    ]);
    expect(stepFields(steps[0]!)).toEqual([
      'email',
      'firstName',
      'lastName',
      'phoneNumber',
      'photoId',
    ]);
    expect(steps[1]!.sections).toHaveLength(19);
    expect(steps.every((s) => s.signaturePrompt)).toBe(true);
    // The prompts sent with the answers are worded once, in the schema's x-signatures.
    const signatures = business.schema['x-signatures']!;
    expect(steps[0]!.signaturePrompt).toBe(signatures.userInfo!.prompt);
    expect(steps[1]!.signaturePrompt).toBe(signatures.businessInfo!.prompt);
    expect(steps[2]!.review).toBe(true);
  });

  it('a form without ui:steps has no steps; the individual form names its details and a review', () => {
    expect(stepsOf(testForm('affiliated-person').uiSchema)).toBeUndefined();
    const steps = stepsOf(testForm('individual').uiSchema)!;
    expect(steps.map((step) => [step.id, !!step.review])).toEqual([
      ['details', false],
      ['review', true],
    ]);
    expect(steps[1]!.next).toBe('Submit Registration');
  });

  it('reports a question in no step, in two steps, an unknown field and a missing label', () => {
    const raw = [
      { id: 'a', title: 'A', next: 'Go', sections: [{ fields: ['x', 'y'] }] },
      { id: 'b', title: '', next: '', sections: [{ fields: ['y', 'nope'] }] },
    ];
    const problems = stepProblems(stepsOf({ 'ui:steps': raw })!, raw, ['x', 'y', 'z']);
    expect(problems.map((p) => p.message)).toEqual([
      'a step needs a title',
      'a step needs a next label',
      'y is in two steps',
      'no property nope in the schema',
      'z is in no step',
    ]);
  });

  it('forms wording lists the words of each step, named by step id', () => {
    const file = 'schemas/business/business.ui.json';
    const entries = wordingOf(file, JSON.parse(fs.readFileSync(file, 'utf8')));
    const steps = entries.filter((e) => e.kind === 'step');
    expect(steps.map((e) => e.text)).toEqual(
      expect.arrayContaining(['User Details', 'Register Business', 'Submit Registration']),
    );
    expect(steps.find((e) => e.text === 'Register User')?.key).toBe('/ui:steps/[id=user]/next');
    expect(steps.some((e) => e.text === 'Disciplinary disclosures')).toBe(true);
  });

  it('forms check accepts the forms as they are', () => {
    expect(
      checkForms(projectSources()).problems.filter((p) => p.file.includes('.ui.json')),
    ).toEqual([]);
  });
});

describe('answers a draft cannot keep', () => {
  it('names the required files and signatures, and each affiliated person’s sensitive answers', () => {
    const prompts = promptsDraftsCannotKeep(testForm('business'), {
      signerAuthorization: 'yes',
      affiliatedPersons: [{ firstName: 'Daniel' }],
    });
    const schema = testForm('business').schema as { properties: Record<string, { title: string }> };
    // The photo ID's prompt is worded once, in schemas/common/person.schema.json.
    expect(prompts).toContain(deref(schema.properties.photoId!, schema).title);
    expect(prompts).toContain(schema.properties.agreeTermsOfService!.title);
    expect(prompts).not.toContain(schema.properties.corporateOrgChart!.title);
    // Asked only when the user is not an authorized signatory.
    expect(prompts.some((p) => p.startsWith('Authorized signer form'))).toBe(false);
    expect(prompts.filter((p) => p.startsWith('Affiliated person 1: ')).length).toBeGreaterThan(0);
  });
});
