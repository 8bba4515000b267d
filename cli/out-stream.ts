/** What the command line writes to: process.stdout / process.stderr, or a test's buffers. */
export interface OutStream {
  write(text: string): unknown;
  isTTY?: boolean | undefined;
  columns?: number | undefined;
}
