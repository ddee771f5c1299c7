/**
 * The affiliated persons' columns of `registration_persons` come from the schema's
 * `x-person-column` annotations (issue 16 §8), not from field names in code: a question renamed
 * in the schema still fills its column, and `forms check` names an annotation that is wrong.
 */
import { describe, expect, it } from 'vitest';
import { checkForms } from '../../../src/shared/forms/check/checkForms';
import {
  personColumnValues,
  personItemSchema,
} from '../../../src/shared/forms/model/personColumns';
import type { JsonSchema } from '../../../src/shared/forms/model/schemaTypes';
import { projectSources, testForm } from '../../forms';

/** schemas/ with the common affiliated person's definition edited. */
function withPerson(edit: (properties: Record<string, JsonSchema>) => void) {
  const sources = projectSources();
  const common = sources.commons['affiliated-person.schema.json'] as {
    $defs: { affiliatedPerson: { properties: Record<string, JsonSchema> } };
  };
  edit(common.$defs.affiliatedPerson.properties);
  return sources;
}

const person = {
  firstName: ' Ada ',
  lastName: 'Lovelace',
  title: 'Managing member',
  ownershipPercent: 40,
  isDirect: 'indirect',
};

describe('registration_persons columns from x-person-column', () => {
  it("fills each column from the business form's annotated questions", () => {
    const form = testForm('business');
    expect(personColumnValues(personItemSchema(form.schema)!, form.schema, person)).toEqual({
      first_name: 'Ada',
      last_name: 'Lovelace',
      title: 'Managing member',
      ownership_percent: 40,
      is_direct: false,
    });
    expect(personColumnValues(personItemSchema(form.schema)!, form.schema, {})).toEqual({
      first_name: '',
      last_name: '',
      title: null,
      ownership_percent: null,
      is_direct: null,
    });
  });

  it('follows a question renamed in the schema, its annotation with it', () => {
    const sources = withPerson((properties) => {
      properties.position = properties.title!;
      delete properties.title;
    });
    const business = checkForms(sources).forms.get('business')!;
    const { title: _title, ...renamed } = { ...person, position: person.title };
    expect(
      personColumnValues(personItemSchema(business.schema)!, business.schema, renamed).title,
    ).toBe('Managing member');
  });

  it('forms check names an unknown column, a column named twice and a required one missing', () => {
    const sources = withPerson((properties) => {
      properties.title!['x-person-column'] = 'job_title';
      properties.nfaId!['x-person-column'] = 'last_name';
      delete properties.firstName!['x-person-column'];
    });
    const messages = checkForms(sources)
      .problems.filter((p) => p.file === 'schemas/business/business.schema.json')
      .map((p) => `${p.pointer} ${p.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^\/\$defs\/affiliatedPerson\/properties\/title\/x-person-column x-person-column names no column of registration_persons "job_title" \(the columns: first_name, last_name, title, ownership_percent, is_direct\)$/,
        ),
        expect.stringMatching(/x-person-column last_name is already filled by (lastName|nfaId)/),
        '/x-registration/persons no question of the persons fills registration_persons.first_name: mark it with "x-person-column": "first_name"',
      ]),
    );
  });

  it('forms check refuses a number question filling the whole-number column (issue 37 §2)', () => {
    const sources = withPerson((properties) => {
      properties.ownershipPercent!.type = 'number';
    });
    const messages = checkForms(sources)
      .problems.filter((p) => p.file === 'schemas/business/business.schema.json')
      .map((p) => `${p.pointer} ${p.message}`);
    expect(messages).toContain(
      '/$defs/affiliatedPerson/properties/ownershipPercent/x-person-column registration_persons.ownership_percent keeps whole numbers, and this question takes any number (15.5 would be stored as nothing): write "type": "integer"',
    );
  });
});
