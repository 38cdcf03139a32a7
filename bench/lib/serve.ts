/** The child side of lib/child.ts: listen on loopback, announce the address, close on SIGTERM. */
export interface Listenable {
  listen(options: { host: string; port: number }): Promise<string>;
  close(): Promise<unknown>;
}

export async function serveForBench(app: Listenable): Promise<void> {
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  process.on('SIGTERM', () => {
    // process.exit after close: --cpu-prof writes its profile on a normal exit.
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
  console.log(`READY ${JSON.stringify({ url })}`);
}
