import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { demoKeys } from '../../sandbox/seed/demo.ts';
import { EMPTY_ORG_KEY } from './empty-org-seed.ts';
import { recordingNames, recordingPath } from './recording-file.ts';

describe('recordings', () => {
  const files = recordingNames().map((name) => ({ name, text: readFileSync(recordingPath(name), 'utf8') }));

  it('exist', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it('hold no API key and no key header', () => {
    const keys = [...Object.values(demoKeys), EMPTY_ORG_KEY, process.env.PAGERLY_API_KEY, process.env.PAGERLY_USER_API_KEY].filter(Boolean) as string[];
    for (const { name, text } of files) {
      for (const key of keys) expect({ name, holdsKey: text.includes(key) }).toEqual({ name, holdsKey: false });
      expect({ name, keyHeader: /x-apikey/i.test(text), sandboxKey: /sbx_[a-z]+_/.test(text) }).toEqual({ name, keyHeader: false, sandboxKey: false });
    }
  });
});
