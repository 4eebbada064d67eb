// The npm registry reachable here lacks some platform packages that optional dependencies name
// (msgpackr-extract's darwin/win32 builds). `npm install` then writes a lock that `npm ci` refuses
// ("Missing: ... from lock file"). This drops optional dependencies that have no entry in the lock;
// run it after every `npm install` that changes package-lock.json.
import { readFileSync, writeFileSync } from 'node:fs';

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
const names = Object.keys(lock.packages);
let dropped = 0;
for (const entry of Object.values(lock.packages)) {
  for (const dep of Object.keys(entry.optionalDependencies ?? {})) {
    if (!names.some((k) => k === `node_modules/${dep}` || k.endsWith(`/node_modules/${dep}`))) {
      delete entry.optionalDependencies[dep];
      dropped += 1;
    }
  }
}
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`dropped ${dropped} optional dependencies absent from the lock`);
