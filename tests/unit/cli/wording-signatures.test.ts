import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { wordingOf } from '../../../src/cli/forms/wording';

describe('forms wording: the business wizard’s signature prompts', () => {
  it('lists each step’s signature prompt with its pointer, so compliance staff can find it', () => {
    const file = 'schemas/business/business.schema.json';
    const schema = JSON.parse(fs.readFileSync(file, 'utf8'));
    const entries = wordingOf(file, schema).filter((entry) => entry.pointer.startsWith('/x-'));
    expect(entries.map((entry) => [entry.pointer, entry.kind, entry.text])).toEqual([
      ['/x-signatures/userInfo/prompt', 'prompt', schema['x-signatures'].userInfo.prompt],
      ['/x-signatures/businessInfo/prompt', 'prompt', schema['x-signatures'].businessInfo.prompt],
      ...[
        'choice/label',
        'choice/description',
        'page/title',
        'page/otherChoice',
        'submitted/title',
        'submitted/text',
        'submitted/button',
      ].map((where) => {
        const [part, key] = where.split('/') as [string, string];
        return [`/x-registration/${where}`, 'control', schema['x-registration'][part][key]];
      }),
    ]);
  });
});

describe('forms wording: the words of widgets and fields (ui:options)', () => {
  it('lists button labels, status lines and column titles, and leaves other options out', () => {
    const entries = wordingOf('x/x.ui.json', {
      list: {
        'ui:options': {
          addLabel: 'Add a person',
          columns: [{ title: 'Name', fields: ['firstName'], suffix: '%' }],
          orderable: false,
          form: 'affiliated-person',
        },
      },
      lei: { 'ui:options': { foundText: 'Found.', width: 'short' } },
    });
    expect(entries.map((entry) => [entry.pointer, entry.kind, entry.text])).toEqual([
      ['/list/ui:options/addLabel', 'control', 'Add a person'],
      ['/list/ui:options/columns/0/title', 'control', 'Name'],
      ['/lei/ui:options/foundText', 'control', 'Found.'],
    ]);
  });
});
