// The `sightline` bin's entry: the user commands (a client of a running server, src/cli/user.ts)
// load only the CLI and the typed client, so they start fast and never open a database; the
// operator commands (serve, worker, migrate, accounts, keys, credits, users) load the engine.
import { PACKAGE_VERSION } from '../lib/version.ts';
import { isUserCommandLine, runUserCli } from './user.ts';

const argv = process.argv.slice(2);
// A reader that went away (`sightline visibility list --json | head -c 100`) closes stdout: the
// next write fails with EPIPE, which Node raises as an unhandled 'error' event with its stack.
// The command ends quietly with 0 then, as other Unix tools do. Not for serve and worker: a
// server whose stdout closed exits as a failure (a supervisor restarts it), as before.
if (argv[0] !== 'serve' && argv[0] !== 'worker') {
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    process.exit(0);
  });
  // A closed stderr loses the messages, not the exit code: the command goes on.
  process.stderr.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
  });
}
if (isUserCommandLine(argv)) {
  process.exitCode = await runUserCli(
    argv,
    {
      out: (s) => process.stdout.write(s + '\n'),
      err: (s) => process.stderr.write(s.endsWith('\n') || s.startsWith('\r') ? s : s + '\n'),
      isTTY: !!process.stderr.isTTY,
      env: process.env,
      stdout: process.stdout,
      stdin: process.stdin,
    },
    PACKAGE_VERSION,
  );
} else {
  const { runAdmin } = await import('./admin.ts');
  const code = await runAdmin(argv);
  if (code !== undefined && code !== -1) process.exitCode = code;
}
