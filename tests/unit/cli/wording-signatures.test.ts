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
    ]);
  });
});
