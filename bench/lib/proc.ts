/**
 * What a server child holds, read from Linux's /proc (the soak's per-instance figures): its
 * resident memory now and at its peak, and its TCP connections — to PostgreSQL (remote port 5432
 * or the bench URL's) and from clients (its own listening port).
 */
import fs from 'node:fs';

export interface ProcessFigures {
  rssBytes: number;
  peakRssBytes: number;
  /** Established connections to the database server's port. */
  databaseConnections: number;
  /** Established connections to the server's own HTTP port (live streams and request sockets). */
  httpConnections: number;
}

function statusBytes(status: string, field: string): number {
  const kb = Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return kb * 1024;
}

/** Established TCP sockets by inode: local and remote ports (IPv4 and IPv6 tables). */
function tcpSockets(pid: number): Map<string, { local: number; remote: number }> {
  const sockets = new Map<string, { local: number; remote: number }>();
  for (const table of ['tcp', 'tcp6']) {
    let text = '';
    try {
      text = fs.readFileSync(`/proc/${pid}/net/${table}`, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10 || fields[3] !== '01') continue; // 01: ESTABLISHED
      const port = (address: string) => parseInt(address.split(':')[1]!, 16);
      sockets.set(fields[9]!, { local: port(fields[1]!), remote: port(fields[2]!) });
    }
  }
  return sockets;
}

export function processFigures(pid: number, httpPort: number, databasePort = 5432): ProcessFigures {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const sockets = tcpSockets(pid);
  let databaseConnections = 0;
  let httpConnections = 0;
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    let target = '';
    try {
      target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      continue; // closed meanwhile
    }
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    const socket = inode ? sockets.get(inode) : undefined;
    if (!socket) continue;
    if (socket.remote === databasePort) databaseConnections += 1;
    else if (socket.local === httpPort) httpConnections += 1;
  }
  return { rssBytes: statusBytes(status, 'VmRSS'), peakRssBytes: statusBytes(status, 'VmHWM'), databaseConnections, httpConnections };
}
