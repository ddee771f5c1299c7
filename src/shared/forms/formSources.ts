/**
 * The schema files of every form, imported statically so browser, server and CLI read the same
 * files without file-system access. Adding a form: import its three files here and list the
 * common files it uses.
 */
import address from '../../../schemas/common/address.schema.json';
import affiliatedPerson from '../../../schemas/common/affiliated-person.schema.json';
import date from '../../../schemas/common/date.schema.json';
import file from '../../../schemas/common/file.schema.json';
import person from '../../../schemas/common/person.schema.json';
import phone from '../../../schemas/common/phone.schema.json';
import ssn from '../../../schemas/common/ssn.schema.json';
import yesNo from '../../../schemas/common/yes-no.schema.json';
import affiliatedPersonExample from '../../../schemas/affiliated-person/affiliated-person.example.json';
import affiliatedPersonSchema from '../../../schemas/affiliated-person/affiliated-person.schema.json';
import affiliatedPersonUi from '../../../schemas/affiliated-person/affiliated-person.ui.json';
import businessExample from '../../../schemas/business/business.example.json';
import businessSchema from '../../../schemas/business/business.schema.json';
import businessUi from '../../../schemas/business/business.ui.json';
import individualExample from '../../../schemas/individual/individual.example.json';
import individualSchema from '../../../schemas/individual/individual.schema.json';
import individualUi from '../../../schemas/individual/individual.ui.json';
import personExample from '../../../schemas/person/person.example.json';
import personSchema from '../../../schemas/person/person.schema.json';
import personUi from '../../../schemas/person/person.ui.json';
import type { CommonSchemas, FormFiles } from './bundleForm';
import type { FormId } from './types';

export const COMMON_SCHEMAS: CommonSchemas = {
  'address.schema.json': address,
  'affiliated-person.schema.json': affiliatedPerson,
  'date.schema.json': date,
  'file.schema.json': file,
  'person.schema.json': person,
  'phone.schema.json': phone,
  'ssn.schema.json': ssn,
  'yes-no.schema.json': yesNo,
};

export const FORM_SOURCES: Partial<Record<FormId, FormFiles>> = {
  individual: { schema: individualSchema, uiSchema: individualUi, example: individualExample },
  business: { schema: businessSchema, uiSchema: businessUi, example: businessExample },
  'affiliated-person': {
    schema: affiliatedPersonSchema,
    uiSchema: affiliatedPersonUi,
    example: affiliatedPersonExample,
  },
  person: { schema: personSchema, uiSchema: personUi, example: personExample },
};
