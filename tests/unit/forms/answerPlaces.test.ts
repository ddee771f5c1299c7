import { describe, expect, it } from 'vitest';
import {
  answerPlaces,
  patternOf,
  placeAt,
  questionPatterns,
  unknownAnswers,
} from '../../../src/shared/forms/walk/answerPlaces';
import { carryAnswers } from '../../../src/shared/forms/walk/carryOver';
import type { Answers } from '../../../src/shared/forms/model/schemaTypes';
import { testForm } from '../../forms';

describe('answers by their place in a form', () => {
  const business = testForm('business');

  it('names a question by its prompt, inside an affiliated person too', () => {
    expect(placeAt(business.schema, '/affiliatedPersons/1/passportNumber')?.prompt).toBe(
      'Affiliated person 2: Passport number',
    );
    expect(placeAt(business.schema, '/affiliatedPersons/x/passportNumber')).toBeUndefined();
    expect(placeAt(business.schema, '/nothing')).toBeUndefined();
    expect(patternOf(business.schema, '/affiliatedPersons/7/ssn')).toBe('/affiliatedPersons/*/ssn');
    expect(questionPatterns(business.schema).get('/affiliatedPersons/*/ssn')?.prompt).toBe(
      'Affiliated person: Social Security number',
    );
  });

  it('lists every answer with its place and the pointers the form does not know', () => {
    const answers = structuredClone(business.example) as Answers;
    (answers.affiliatedPersons as Answers[])[0]!.shoeSize = 9;
    answers.favouriteColour = 'blue';
    const { places, unknown } = answerPlaces(business.schema, answers);
    expect(unknown).toEqual(['/affiliatedPersons/0/shoeSize', '/favouriteColour']);
    // The save's shape check finds the same without building every place.
    expect(unknownAnswers(business.schema, answers)).toEqual(unknown);
    expect(unknownAnswers(business.schema, business.example as Answers)).toEqual([]);
    expect(places.find((place) => place.pointer === '/affiliatedPersons/0/ssn')?.prompt).toBe(
      'Affiliated person 1: Social Security number',
    );
  });

  it('carries answers to the same version unchanged, naming nothing', () => {
    const answers = structuredClone(business.example) as Answers;
    const carried = carryAnswers(business.schema, business, answers);
    expect(carried.answers).toEqual(answers);
    expect([carried.added, carried.reworded, carried.dropped]).toEqual([[], [], []]);
  });
});
