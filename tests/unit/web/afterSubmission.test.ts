import { describe, expect, it } from 'vitest';
import { afterSubmissionTarget } from '../../../src/web/pages/registration/afterSubmission';

describe("Okay on 'Submission Successful'", () => {
  it("goes to /trade (a full-page load) from a path containing 'botanical', home otherwise", () => {
    expect(afterSubmissionTarget('/botanical/clearing/registration/business')).toEqual({
      kind: 'outside',
      href: '/trade',
    });
    expect(afterSubmissionTarget('/clearing/registration/business')).toEqual({
      kind: 'route',
      to: '/home',
    });
  });
});
