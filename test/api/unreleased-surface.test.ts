import { describe, expect, it } from '@jest/globals';
import { blockedSinceRelease, type ReleaseComparison } from '../../scripts/api/check.ts';
import { compareReports } from '../../scripts/api/classify.ts';
import type { SurfaceReport } from '../../scripts/api/model.ts';

// A required input added to a surface: breaking where people already use the surface, nothing
// to anyone where it was never released (a first release must be recordable by api:release).
const action: SurfaceReport = {
  surface: 'incident-action',
  items: [{ id: 'input/api-key', kind: 'action-input', facts: { required: true } }],
};
const differences = compareReports({ surface: 'incident-action', items: [] }, action);

const comparison = (unreleased: ReleaseComparison['unreleased']): ReleaseComparison => ({
  releasedVersion: '0.1.0',
  version: '0.1.0',
  differences,
  unreleased,
  fresh: [action],
});

describe('a surface with no released report', () => {
  it('has its new required input called breaking, as on any surface', () => {
    expect(differences.map(({ id, verdict }) => ({ id, verdict }))).toEqual([{ id: 'input/api-key', verdict: 'breaking' }]);
  });

  it('blocks nothing while never released, and blocks it once released', () => {
    expect(blockedSinceRelease(comparison(['incident-action']))).toEqual([]);
    expect(blockedSinceRelease(comparison([])).map((difference) => difference.id)).toEqual(['input/api-key']);
  });
});
