import { run } from './main.ts';

// The bundle's entry: action.yml `runs.main` starts this; main.ts stays importable without running.
await run();
