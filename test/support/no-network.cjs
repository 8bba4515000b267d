// Preloaded (`node --require`) into a tool a test runs, so that the test can hold the tool to
// working offline: a connection to any host but loopback is refused and reported on stderr
// as `NETWORK ATTEMPT <host>` (a tool that swallows the error still leaves the line).
const net = require('node:net');

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '::ffff:127.0.0.1']);
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(...args) {
  // net.connect passes its normalized arguments as one array; a direct call passes them as given.
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  const options = first !== null && typeof first === 'object' ? first : { port: first, host: typeof args[1] === 'string' ? args[1] : undefined };
  // A socket file has a path and no port (an HTTP request's options carry its URL path too).
  const ipc = typeof options.path === 'string' && options.port === undefined && options.host === undefined;
  const host = options.host ?? 'localhost';
  if (!ipc && !LOOPBACK.has(host)) {
    process.stderr.write(`NETWORK ATTEMPT ${host}\n`);
    process.nextTick(() => this.destroy(new Error(`network access refused in this test: ${host}`)));
    return this;
  }
  return connect.apply(this, args);
};
