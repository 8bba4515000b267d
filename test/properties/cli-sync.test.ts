import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Capture } from '../cli/support.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { main } from '../../cli/main.ts';
import { createSandbox, demoKeys, type Sandbox } from '../../sandbox/index.ts';
import { anyText, email as plausibleEmail, fieldValue, shortText, wrongType } from './support/arbitraries.ts';
import { runs } from './support/runs.ts';

/**
 * Property 6, the CLI: `pagerly directory sync FILE` with any CSV or JSON file (random rows,
 * missing, unknown and repeated columns, duplicate e-mails, broken syntax, any text) exits 0,
 * 1 or 2, never crashes ("unexpected" errors), never prints the key, keeps --json output to one
 * JSON document per stream, and sends no request at all when it exits 2.
 */

const RUNS = { files: runs(500) };

const KEY = demoKeys.acmeOwner; // an org admin: the directory is hers to change
const OWNER_EMAIL = 'ada@acme.example'; // her own entry is protected: touching it is a documented exit 4

let sandbox: Sandbox;
let url: string;
let requests = 0;
let folder: string;

beforeAll(async () => {
  sandbox = await createSandbox({ rateLimit: false, delivery: { timeoutMs: 200, retryDelaysMs: [20] } });
  url = await sandbox.listen();
  // Every HTTP request the sandbox receives, whatever it is.
  sandbox.app.server.on('request', () => {
    requests += 1;
  });
  folder = mkdtempSync(join(tmpdir(), 'pagerly-sync-properties-'));
});
afterAll(async () => {
  await sandbox.close();
  rmSync(folder, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------
// Files

const FIELDS = ['email', 'name', 'phone', 'role', 'remove'] as const;

/** A small pool of addresses, so rows repeat people (duplicates), plus any address at all. */
const rowEmail = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom('alan@acme.example', 'ALAN@acme.example', 'katherine@acme.example', 'new.hire@acme.example', 'x@example.com', OWNER_EMAIL),
  },
  { weight: 2, arbitrary: plausibleEmail },
  { weight: 1, arbitrary: fc.oneof(wrongType, fc.constant('')) },
);
const removeCell = fc.constantFrom('', 'yes', 'YES', 'no', 'x', '1', '0', 'true', 'false', 'maybe', 'remove', true, false, 1, 0, null, 2);
const rowValue: Record<(typeof FIELDS)[number], fc.Arbitrary<unknown>> = {
  email: rowEmail,
  name: fieldValue('name', { long: 0 }),
  phone: fieldValue('phone', { long: 0 }),
  role: fieldValue('role', { long: 0 }),
  remove: fc.oneof({ weight: 3, arbitrary: fc.constant('') }, { weight: 2, arbitrary: removeCell }),
};
const row = fc.record({ ...rowValue, extra: shortText }, { requiredKeys: [] });

/** CSV cells as a spreadsheet would write them (RFC 4180 quoting), or naively joined. */
const cellText = (value: unknown) => (value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value));
const quoted = (text: string) => (/[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

const header = fc
  .tuple(
    fc.shuffledSubarray([...FIELDS], { minLength: 0 }),
    fc.array(fc.constantFrom('notes', 'Phone Number', 'e-mail', '', 'email', 'name;phone', 'ROLE'), { maxLength: 2 }),
    fc.constantFrom('lower', 'Title', 'UPPER', 'spaced'),
  )
  .map(([known, extra, style]) =>
    [...known, ...extra].map((name) => ({
      key: name.trim().toLowerCase(),
      written:
        style === 'Title' ? name.charAt(0).toUpperCase() + name.slice(1) : style === 'UPPER' ? name.toUpperCase() : style === 'spaced' ? ` ${name} ` : name,
    })),
  );

const csvFile = fc
  .record({
    columns: header,
    rows: fc.array(row, { maxLength: 6 }),
    rfc: fc.boolean(),
    newline: fc.constantFrom('\n', '\r\n'),
    bom: fc.boolean(),
    blankLines: fc.boolean(),
    ragged: fc.boolean(),
  })
  .map(({ columns, rows, rfc, newline, bom, blankLines, ragged }) => {
    const line = (cells: string[]) => cells.map((cell) => (rfc ? quoted(cell) : cell)).join(',');
    const lines = [line(columns.map((c) => c.written))];
    rows.forEach((values, i) => {
      const cells = columns.map((c) => cellText((values as Record<string, unknown>)[c.key]));
      if (ragged && i % 2 === 1) cells.push('surplus');
      lines.push(line(cells));
      if (blankLines) lines.push('');
    });
    return `${bom ? '\uFEFF' : ''}${lines.join(newline)}${newline}`;
  });

const jsonFile = fc.oneof(
  { weight: 6, arbitrary: fc.array(row, { maxLength: 6 }).map((rows) => JSON.stringify(rows)) },
  { weight: 1, arbitrary: fc.array(fc.oneof(row, wrongType), { maxLength: 4 }).map((items) => JSON.stringify(items)) },
  { weight: 1, arbitrary: fc.oneof(row, wrongType, fc.constant({ rows: [] })).map((value) => JSON.stringify(value)) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '[',
      '[{"email":',
      '[]',
      '[{}]',
      '{}',
      'null',
      '[{"email":"alan@acme.example","name":"Alan Turing"},]',
      '[{"__proto__":{"remove":true},"email":"alan@acme.example","name":"x"}]',
    ),
  },
);

/** Files that should go through: unique good addresses, good names, phones and roles. */
const goodRows = fc
  .uniqueArray(
    fc.record({
      email: fc.constantFrom(
        'alan@acme.example',
        'katherine@acme.example',
        'edsger@acme.example',
        'new.hire@acme.example',
        'sam@example.com',
        'lee@example.org',
      ),
      name: fc.constantFrom('Alan Turing', 'Katherine Johnson', 'New Hire', 'Sam Lee'),
      phone: fc.constantFrom('', '+14155550199', '+44 20 7946 0958', '+1 (415) 555-0100'),
      role: fc.constantFrom('', 'user', 'admin'),
      remove: fc.constantFrom('', '', '', 'no', 'yes'),
    }),
    { minLength: 1, maxLength: 4, selector: (r) => r.email },
  )
  .map((rows) => rows.map((r) => (r.remove === 'yes' ? { ...r, name: '', phone: '', role: '' } : r)));
const goodCsv = goodRows.map(
  (rows) => `email,name,phone,role,remove\n${rows.map((r) => [r.email, r.name, r.phone, r.role, r.remove].map(quoted).join(',')).join('\n')}\n`,
);

/** A sync file: its name (extension decides the format, else its first character) and content. */
const syncFile = fc.oneof(
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom('people.csv', 'people'), goodCsv) },
  {
    weight: 1,
    arbitrary: fc.tuple(
      fc.constantFrom('people.json'),
      goodRows.map((rows) => JSON.stringify(rows)),
    ),
  },
  { weight: 4, arbitrary: fc.tuple(fc.constantFrom('people.csv', 'people.CSV', 'people.txt', 'people'), csvFile) },
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom('people.json', 'people.txt', 'people'), jsonFile) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('people.csv', 'people.json'), fc.oneof(jsonFile, csvFile)) },
  {
    weight: 1,
    arbitrary: fc.tuple(
      fc.constantFrom('people.csv', 'people.json', 'people.txt'),
      fc.oneof(anyText(1), fc.constantFrom('', ' ', '\n', '\uFEFF', 'email\n', 'email,name\n\n')),
    ),
  },
);

const flags = fc.subarray(['--dry-run', '--json', '--concurrency=2'] as const);

// ---------------------------------------------------------------------------------------------

/** One JSON document, or nothing. */
const expectOneJsonDocument = (text: string) => {
  if (text.trim() !== '') JSON.parse(text);
};

let fileCount = 0;

describe('pagerly directory sync FILE with any file', () => {
  it("exits 0, 1 or 2 (4 only for the owner's entry), never crashes or shows the key, and sends nothing when it exits 2", async () => {
    const codes = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(syncFile, flags, async ([name, content], options) => {
        fileCount += 1;
        const file = join(folder, `${fileCount}-${name}`);
        writeFileSync(file, content);
        const stdout = new Capture();
        const stderr = new Capture();
        const before = requests;
        const code = await main(['--base-url', url, 'directory', 'sync', file, ...options], { PAGERLY_API_KEY: KEY }, { stdout, stderr });
        const sent = requests - before;
        codes.set(code, (codes.get(code) ?? 0) + 1);

        const touchesOwner = content.toLowerCase().includes(OWNER_EMAIL);
        expect(touchesOwner ? [0, 1, 2, 4] : [0, 1, 2]).toContain(code);
        if (code === 2) expect(sent).toBe(0);
        // A crash inside shows as an "unexpected" error with exit 1: not allowed either.
        expect(stderr.text).not.toMatch(/error: unexpected|"code": "unexpected"/);
        expect(stdout.text + stderr.text).not.toContain(KEY);
        if (options.includes('--json')) {
          expectOneJsonDocument(stdout.text);
          expectOneJsonDocument(stderr.text);
        }
      }),
      { numRuns: RUNS.files, timeout: 20_000 },
    );
    // Good files were applied and bad ones refused, or the generators missed one side.
    expect(codes.get(0) ?? 0).toBeGreaterThan(0);
    expect(codes.get(2) ?? 0).toBeGreaterThan(0);
  });
});
