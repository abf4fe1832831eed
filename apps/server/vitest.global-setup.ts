import { compileServer } from './src/testing/compiled-server.js';

/** Compiles the server once for the tests that start it as a process (testing/compiled-server.ts). */
export default function setup(): void {
  compileServer();
}
