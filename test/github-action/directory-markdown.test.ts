import { describe, expect, it } from '@jest/globals';
import type { RowResult } from '../../shared/directory-sync/apply.ts';
import { commentMarker, countResults, inert, MAX_MARKDOWN_CHARS, renderSync } from '../../github-action/directory/markdown.ts';

const why = (error: unknown) => (error instanceof Error ? error.message : String(error));
const current = { id: 'usr_1', email: 'kat@acme.example', name: 'Kat', phone: '+14155550103', role: 'user' } as never;

const create = (email: string, name: string): RowResult => ({
  planned: { kind: 'create', row: 2, email, body: { email, name } },
  outcome: 'planned',
});
const update: RowResult = {
  planned: {
    kind: 'update',
    row: 3,
    email: 'kat@acme.example',
    body: { email: 'kat@acme.example', name: 'Kat', phone: '+14155550177' },
    changes: [{ field: 'phone', from: '+14155550103', to: '+14155550177' }],
    current,
  },
  outcome: 'planned',
};
const remove: RowResult = { planned: { kind: 'remove', row: 4, email: 'hedy@acme.example', current }, outcome: 'planned' };
const unchanged: RowResult = { planned: { kind: 'unchanged', row: 5, email: 'grace@acme.example' }, outcome: 'planned' };

/** The table rows of a rendering (lines that start with `| ` after the header). */
const tableRows = (markdown: string) => markdown.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| |') && !line.startsWith('| ---'));
/** Unescaped pipes: the cell separators GitHub sees. */
const pipes = (line: string) => line.replace(/\\\|/g, '').split('|').length - 1;

describe('inert: a name from the file is shown as typed, never as markup', () => {
  it('turns HTML into text', () => {
    expect(inert('<img src=x onerror=alert(1)>')).toBe('&lt;img src=x onerror=alert\\(1\\)&gt;');
    expect(inert('--> <!-- x')).not.toMatch(/<|>/);
  });
  it('breaks a mention and an issue link with a zero-width space, but leaves an address readable', () => {
    expect(inert('@octocat')).toBe('@&#8203;octocat');
    expect(inert('hi @octocat')).toBe('hi @&#8203;octocat');
    expect(inert('team #12')).toBe('team #&#8203;12');
    expect(inert('ada@acme.example')).toBe('ada@acme.example');
  });
  it('keeps a cell one cell on one line', () => {
    expect(inert('a|b')).toBe('a&#124;b');
    expect(inert('one\r\ntwo\u2028three')).toBe('one two three');
  });
  it('shows bidi and zero-width controls as escapes, never applied (shared/visible-controls.ts)', () => {
    // "Deploy \u202Egnp.exe" would read "Deploy exe.png"; a reviewer approves the plan by what it shows.
    expect(inert('Deploy \u202Egnp.exe\u202C')).toBe('Deploy \\\\u202egnp.exe\\\\u202c');
    expect(inert('Ad\u200bmin\u2066x\u2069\u{e0041}')).toBe('Ad\\\\u200bmin\\\\u2066x\\\\u2069\\\\u\\{e0041\\}');
    // What people write with stays: a Persian joiner, an emoji sequence.
    expect(inert('می\u200cخواهم 👩\u200d💻')).toBe('می\u200cخواهم 👩\u200d💻');
  });
  it('escapes Markdown, and never an escape twice', () => {
    expect(inert('*bold* [x](http://e) `code` :smile:')).toBe('\\*bold\\* \\[x\\]\\(http\\://e\\) \\`code\\` \\:smile\\:');
    expect(inert('&#124;')).toBe('&amp;#&#8203;124;');
  });
  it('is bounded', () => {
    expect([...inert('x'.repeat(1000), 50)]).toHaveLength(51);
  });
});

describe('renderSync', () => {
  it('plans: counts, a row per change with field: old → new, unchanged only counted, the marker first', () => {
    const markdown = renderSync([create('new@acme.example', 'New Hire'), update, remove, unchanged], { file: 'people.csv', mode: 'plan', why });
    expect(markdown.split('\n')[0]).toBe(commentMarker('people.csv'));
    expect(markdown).toContain('Merging applies: **1 to create, 1 to update, 1 to remove**; 1 unchanged. Nothing in the directory has changed.');
    expect(tableRows(markdown)).toEqual([
      '| create | New Hire (new@acme.example) | name: New Hire |',
      '| update | Kat (kat@acme.example) | phone: +14155550103 → +14155550177 |',
      '| remove | Kat (hedy@acme.example) |  |',
    ]);
    expect(markdown).not.toContain('grace@');
  });

  it('applied: says what was done and what failed, with the reason', () => {
    const failed: RowResult = { ...update, outcome: 'failed', error: new Error('The service refused: phone | is <bad>') };
    const markdown = renderSync([{ ...create('new@acme.example', 'New'), outcome: 'created' }, failed, unchanged], { file: 'people.csv', mode: 'apply', why });
    expect(markdown).toContain('**1 created, 0 updated, 0 removed**; 1 unchanged. **1 failed.**');
    expect(tableRows(markdown)[1]).toBe('| **failed** | Kat (kat@acme.example) | The service refused\\: phone &#124; is &lt;bad&gt; |');
    expect(countResults([failed, unchanged])).toEqual({ create: 0, update: 0, remove: 0, unchanged: 1, skipped: 0, failed: 1 });
  });

  it('keeps a hostile name inert: no tag, no mention, three cells on one line', () => {
    const markdown = renderSync([create('x@acme.example', '<img src=x onerror=alert(1)> @octocat a|b\nsecond')], { file: 'people.csv', mode: 'plan', why });
    const [row] = tableRows(markdown);
    expect(pipes(row!)).toBe(4);
    expect(markdown).not.toMatch(/<img|(^|\s)@octocat|^second/m);
  });

  it('stays under GitHub’s comment limit for a large organisation, and counts what it leaves out', () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => create(`person${i}@acme.example`, `Person ${i} with a long name`));
    const markdown = renderSync(rows, { file: 'people.csv', mode: 'plan', why });
    expect(markdown.length).toBeLessThanOrEqual(MAX_MARKDOWN_CHARS);
    expect(markdown).toContain('**20000 to create');
    const shown = tableRows(markdown).length;
    expect(markdown).toContain(`…and ${20_000 - shown} more row(s)`);
  });
});
