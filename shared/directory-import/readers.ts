import { readGrafanaOnCall } from './grafana-oncall.ts';
import { readOpsgenie } from './opsgenie.ts';
import { readPagerDuty } from './pagerduty.ts';
import type { Reader } from './reader.ts';
import type { SourceId } from './sources.ts';

/** Each source's reader. */
export const READERS: Readonly<Record<SourceId, Reader>> = {
  opsgenie: readOpsgenie,
  pagerduty: readPagerDuty,
  'grafana-oncall': readGrafanaOnCall,
};
