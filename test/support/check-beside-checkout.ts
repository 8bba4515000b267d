import { missingBesideCheckout } from '../../make-app/schema-check/beside-checkout.ts';

// jest's globalSetup: without ../shared, stop before any test runs, with one line, rather
// than let a few suites fail deep inside with ENOENT.
export default function checkBesideCheckout(): void {
  const missing = missingBesideCheckout();
  if (missing) {
    process.stderr.write(`\n${missing}\n`);
    process.exit(1);
  }
}
