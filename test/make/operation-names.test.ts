import { describe, expect, it } from '@jest/globals';
import { makeNames } from '../../make-app/operation-names.ts';

describe("the Make app's operation names", () => {
  it('every label is sentence case, verb first (Best practices › Names, labels & descriptions)', () => {
    for (const { label } of Object.values(makeNames)) expect(label).toMatch(/^(Watch|Create|Update|Change|Remove|Search|Get|List) [a-z]/);
  });

  it('no two operations share a module name', () => {
    const names = Object.values(makeNames).map(({ name }) => name);
    expect(new Set(names).size).toBe(names.length);
  });
});
