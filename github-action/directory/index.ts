import { run } from './run.ts';

// The bundle's entry: action.yml `runs.main` starts this; run.ts stays importable without running.
await run();
