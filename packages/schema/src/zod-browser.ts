/**
 * In a browser zod validates without generating code. Its JIT builds parsers with `new Function`,
 * which the app's Content-Security-Policy (no 'unsafe-eval') refuses; Chrome then reports a CSP
 * issue, which Lighthouse's best-practices audit counts against the page. zod decides when an
 * object schema is built, so the modules that build them import this first. Node (the server) keeps
 * the JIT. Called through `config`, not `z.config`: the web build treats `z.*` calls as pure.
 */
import { config } from 'zod';

if ('document' in globalThis) config({ jitless: true });
