// The e2e backend, restartable from a test (see restartBackend in e2e/helpers.ts).
//
// SIGUSR2 restarts it the way a deploy or a crash does: the backend gets SIGTERM (with
// BATON_SHUTDOWN_GRACE_MS small, answers still running are stored as interrupted at once)
// and a new one starts on the same database. SIGTERM / SIGINT stop it for good: Playwright
// sends them to the whole process group, so the backend gets them itself (a second
// SIGTERM from here would cut its clean shutdown short). BATON_E2E_BACKEND_PID_FILE holds
// "<this pid> <backend pid>", so a test can signal this process and tell the new backend
// from the old one.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const pidFile = process.env.BATON_E2E_BACKEND_PID_FILE;
let backend;
let restarting = false;
let stopping = false;

function start() {
  backend = spawn(process.execPath, ['--import', 'tsx', 'src/index.ts'], { stdio: 'inherit' });
  if (pidFile) writeFileSync(pidFile, `${process.pid} ${backend.pid}`);
  backend.once('exit', (code) => {
    if (stopping) process.exit(0);
    if (restarting) {
      restarting = false;
      start();
    } else {
      process.exit(code ?? 1);
    }
  });
}

process.on('SIGUSR2', () => {
  if (restarting || stopping) return;
  restarting = true;
  backend.kill('SIGTERM');
});
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    stopping = true;
  });
}

start();
