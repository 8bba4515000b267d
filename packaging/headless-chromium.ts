import { chromium, type Browser, type LaunchOptions } from 'playwright-core';

/** Debian's Chromium (apt-get install chromium): playwright's own browser download cannot be had here. */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Headless, as root, with nothing that calls out: without the background-networking flags
 * Chromium keeps trying hosts this machine's closed network refuses.
 */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Debian's Chromium through playwright-core, for every screenshot script and browser test. */
export const launchChromium = (options: Omit<LaunchOptions, 'executablePath' | 'args'> = {}): Promise<Browser> =>
  chromium.launch({ ...options, executablePath: CHROMIUM, args: CHROMIUM_ARGS });
