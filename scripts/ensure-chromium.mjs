// Makes sure Debian's Chromium is there for the end-to-end tests; never downloads a browser build.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (existsSync(chromium)) process.exit(0);

if (process.getuid?.() === 0 && !process.env.CHROMIUM_PATH) {
  console.log("Chromium is missing: installing Debian's chromium package (apt-get install -y chromium)...");
  execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', {
    stdio: 'inherit',
  });
  if (existsSync(chromium)) process.exit(0);
}
console.error(
  `Chromium not found at ${chromium}: install it with "sudo apt-get install -y chromium" (or set CHROMIUM_PATH).`,
);
process.exit(1);
