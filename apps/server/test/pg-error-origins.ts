import pg from 'pg';

/**
 * A pg client or query that emits 'error' with no listener throws it as an uncaught exception whose
 * stack is only the protocol parser's: a run once failed on a "terminating connection due to
 * administrator command" that named neither the client nor the file. This names where the client
 * connected (the test and the stack) before the error is thrown as before; it changes nothing else.
 * pg's Client and Query are EventEmitters and connect() is its public API, so no internals are used.
 */
export function nameUnhandledPgErrors(where: () => string): void {
  const installed = Symbol.for('sendwell.pgErrorOrigins');
  const state = globalThis as { [installed]?: boolean };
  if (state[installed]) return;
  state[installed] = true;
  const origins = new WeakMap<object, string>();
  for (const [kind, Emitter] of [
    ['client', pg.Client],
    ['query', pg.Query],
  ] as const) {
    const emit = Emitter.prototype.emit;
    Emitter.prototype.emit = function (this: pg.Client | pg.Query, event: string | symbol, ...args: unknown[]) {
      if (event === 'error' && this.listenerCount('error') === 0) {
        const message = args[0] instanceof Error ? args[0].message : String(args[0]);
        console.error(
          `A pg ${kind} emitted 'error' with no listener (${message}) in ${where()}; it connected in ${origins.get(this) ?? 'an unknown place'}`,
        );
      }
      return emit.call(this, event, ...args);
    };
  }
  const connect = pg.Client.prototype.connect;
  pg.Client.prototype.connect = function (this: pg.Client, ...args: unknown[]) {
    origins.set(this, `${where()}\n${new Error('connected here').stack ?? ''}`);
    return (connect as (...args: unknown[]) => unknown).apply(this, args);
  } as typeof connect;
}
