import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** A port free on loopback right now (for a server that cannot be told to take port 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

const SBIN = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx'];

function findNginx(): string | undefined {
  const onPath = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' }).stdout.trim();
  return onPath || SBIN.find((p) => spawnSync(p, ['-v']).status === 0);
}

/**
 * The nginx binary, installed from the distribution's packages when missing (nginx-light, else
 * nginx): the cluster test runs behind a real load balancer, not a stand-in written for the test.
 */
export function ensureNginx(): string {
  const found = findNginx();
  if (found) return found;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = (pkg: string) => spawnSync('apt-get', ['install', '-y', '--no-install-recommends', pkg], { env, stdio: 'ignore' }).status === 0;
  if (!install('nginx-light') && !install('nginx')) {
    execFileSync('apt-get', ['update'], { env, stdio: 'ignore' });
    if (!install('nginx-light')) execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'nginx'], { env, stdio: 'ignore' });
  }
  const installed = findNginx();
  if (!installed) throw new Error('nginx is not installed and apt-get could not install it');
  return installed;
}

/**
 * The load balancer's configuration: round-robin over `upstreams`, the client's address passed on in
 * X-Forwarded-For. WebSockets (subscriptions on /graphql) need HTTP/1.1 to the upstream and the
 * Upgrade and Connection headers passed on (hop-by-hop headers, which a proxy drops unless told);
 * the gateway's 12 s pings keep an idle socket inside proxy_read_timeout. A request goes to the next
 * instance after a connection error, a timeout or a 503 (an instance shutting down refuses
 * WebSocket upgrades so), but a POST (non-idempotent) only when it was never sent to the failed
 * instance (`non_idempotent` is deliberately absent) — a write is never done twice.
 */
export function nginxConfig(dir: string, listenPort: number, upstreams: number[], health = 'max_fails=1 fail_timeout=30s'): string {
  const temp = (name: string) => path.join(dir, name);
  return `
daemon off;
master_process on;
worker_processes 1;
pid ${temp('nginx.pid')};
error_log stderr warn;
# After a reload the old workers keep the WebSockets they carry until the gateway closes them (1001
# when it drains), for a minute at most.
worker_shutdown_timeout 60s;
${process.getuid?.() === 0 ? 'user root;' : ''}
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${temp('body')};
  proxy_temp_path ${temp('proxy')};
  fastcgi_temp_path ${temp('fastcgi')};
  uwsgi_temp_path ${temp('uwsgi')};
  scgi_temp_path ${temp('scgi')};
  client_max_body_size 20m;
  map $http_upgrade $connection_upgrade {
    default upgrade;
    '' close;
  }
  upstream gateways {
${upstreams.map((p) => `    server 127.0.0.1:${p} ${health};`).join('\n')}
  }
  server {
    listen 127.0.0.1:${listenPort};
    location / {
      proxy_pass http://gateways;
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_http_version 1.1;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      proxy_next_upstream error timeout http_503;
      proxy_next_upstream_tries ${upstreams.length};
      proxy_connect_timeout 2s;
      proxy_read_timeout 60s;
    }
  }
}
`;
}

/** Writes the configuration into a fresh temporary directory; answers the directory and the file. */
export function writeNginxConfig(listenPort: number, upstreams: number[], health?: string): { dir: string; file: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cluster-nginx-'));
  // nginx's workers may run as another user: they write request bodies under these directories.
  chmodSync(dir, 0o755);
  for (const sub of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) {
    mkdirSync(path.join(dir, sub));
    chmodSync(path.join(dir, sub), 0o777);
  }
  const file = path.join(dir, 'nginx.conf');
  writeFileSync(file, nginxConfig(dir, listenPort, upstreams, health));
  return { dir, file };
}

/**
 * nginx in the foreground as a child process on `upstreams`; resolves once it answers on its port.
 * `health`: each upstream's passive health check (nginx's `server` parameters): by default one that
 * refuses a connection or answers 503 is left out for 30 s, the request going on to the next.
 */
export async function startNginx(binary: string, upstreams: number[], health?: string) {
  const port = await freePort();
  const { dir, file } = writeNginxConfig(port, upstreams, health);
  const child = spawn(binary, ['-e', 'stderr', '-p', dir, '-c', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  // Up once it accepts a connection (a refused connection is the only failure that means "not yet").
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}): ${stderr}`);
    const up = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      () => true,
      () => false,
    );
    if (up) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    stderr: () => stderr,
    /** New upstreams, as an active health check sets them: nginx re-reads its file on SIGHUP (old workers finish what they serve). */
    reload(next: number[]) {
      writeFileSync(file, nginxConfig(dir, port, next, health));
      child.kill('SIGHUP');
    },
    async stop() {
      // Fast shutdown: a test's balancer goes with the test, open connections and all.
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
