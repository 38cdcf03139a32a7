/**
 * Settings of the Node process that serves: main.ts applies them before anything else, and the
 * benches' server (bench/servers/chronicler.ts) does the same, so that it measures what runs.
 */
import v8 from 'node:v8';

/**
 * No allocation-site pretenuring. V8 allocates straight into the old generation what an allocation
 * site's history says will live long. On the save path that guess was wrong: the chapter texts a
 * save makes (its answer's JSON, the current row read to merge and count) die with the request, but
 * went to the old generation, ~30 KB a save, and were collected only by mark-compacts. Measured in
 * bench/server-http (bench/JOURNAL.md, "`server-http` against the save's own statements"):
 * scavenges of 2–4 ms instead of 6–12 ms, the old generation growing 0.3–0.5 MB per scavenge
 * instead of 1.7 MB; the CPU per save fell 5–13% in two A/B runs, which is within this machine's
 * noise. V8 reads the flag when it decides, so setting it at start-up takes effect (the GC trace
 * above was taken that way).
 */
export function tuneServerRuntime(): void {
  v8.setFlagsFromString('--no-allocation-site-pretenuring');
}
