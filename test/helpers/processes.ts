// A small fleet of real sightline processes (`serve --no-worker`, `worker`) on one database, for
// the chaos test and bench:load: start, SIGKILL, restart, and know which exited unexpectedly.
// Only the processes started here are ever signalled.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/sightline.js', import.meta.url));

export interface FleetProcess {
  name: string;
  child: ChildProcess;
  /** Output kept (the last 64 KiB), for the report of a process that died. */
  output(): string;
  /** Set when it exited without being killed by the fleet. */
  unexpectedExit: { code: number | null; signal: string | null } | null;
  killedOnPurpose: boolean;
  port?: number;
  exited: Promise<void>;
}

/** A port nobody listens on right now (the OS picks it). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export class Fleet {
  readonly processes: FleetProcess[] = [];
  constructor(private readonly env: Record<string, string>) {}

  start(name: string, args: string[]): FleetProcess {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...this.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const keep = (d: Buffer) => {
      out += d.toString();
      if (out.length > 65536) out = out.slice(-65536);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    const p: FleetProcess = {
      name,
      child,
      output: () => out,
      unexpectedExit: null,
      killedOnPurpose: false,
      exited: new Promise((resolve) =>
        child.on('exit', (code, signal) => {
          if (!p.killedOnPurpose) p.unexpectedExit = { code, signal };
          resolve();
        }),
      ),
    };
    this.processes.push(p);
    return p;
  }

  /** Starts `serve --no-worker` (`serve` with `worker: true`) on a free port and resolves once /healthz answers. */
  async startApi(name: string, opts: { worker?: boolean } = {}): Promise<FleetProcess> {
    const port = await freePort();
    const p = this.start(name, ['serve', ...(opts.worker ? [] : ['--no-worker']), '--port', String(port)]);
    p.port = port;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const up = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false);
      if (up) return p;
      if (p.unexpectedExit || Date.now() > deadline) throw new Error(`${name} did not start:\n${p.output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  kill(p: FleetProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    p.killedOnPurpose = true;
    p.child.kill(signal);
    return p.exited;
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.processes.filter((p) => p.child.exitCode === null && p.child.signalCode === null).map((p) => this.kill(p, 'SIGTERM')));
  }

  /** Processes that exited without being told to. */
  crashed(): FleetProcess[] {
    return this.processes.filter((p) => p.unexpectedExit);
  }
}
