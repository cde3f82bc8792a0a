/**
 * The request log: one line per request, written in one write per turn of the event loop rather
 * than one `console.log` (formatting plus a system call) per line. Whatever is pending is written
 * before the process exits.
 */
export interface LineSink {
  write(text: string): unknown;
}

export interface LineLog {
  (line: string): void;
  /** writes what is pending now */
  flush(): void;
}

export function lineLog(sink: LineSink = process.stdout): LineLog {
  let pending: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const text = pending.join('\n') + '\n';
    pending = [];
    sink.write(text);
  };
  process.once('exit', flush);
  const log = (line: string) => {
    pending.push(line);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
  return Object.assign(log, { flush });
}
