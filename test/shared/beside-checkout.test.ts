import { describe, expect, it } from '@jest/globals';
import { besideCheckout, makeSchemasDir, missingBesideCheckout, specFile } from '../../make-app/schema-check/beside-checkout.ts';

// Without ../shared, jest's globalSetup and `npm run make:check-schemas` stop with this one line.
describe('the shared folder beside the checkout', () => {
  it('is found where CI puts it: nothing is reported missing', () => {
    expect(missingBesideCheckout()).toBeUndefined();
    expect(specFile.startsWith(besideCheckout)).toBe(true);
    expect(makeSchemasDir.startsWith(besideCheckout)).toBe(true);
  });

  it('when a part is missing: one line naming what and where the folder should be', () => {
    const message = missingBesideCheckout([specFile, `${besideCheckout}no-such-thing/`]);
    expect(message).toBeDefined();
    expect(message?.split('\n')).toHaveLength(1);
    expect(message).toContain(`Missing ${besideCheckout}no-such-thing/:`);
    expect(message).not.toContain(specFile);
    expect(message).toContain(`beside the checkout (${besideCheckout})`);
  });
});
