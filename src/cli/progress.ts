import { createRequire } from 'node:module';

/** A progress report over a known number of steps. */
export interface Progress {
  /** One step done; `label` names it (a file). */
  tick(label?: string): void;
  /** All done: removes the bar. */
  done(): void;
}

/** True when a progress bar may be drawn: stderr is a terminal and `CI` is not set. */
export function showsProgress(): boolean {
  return Boolean(process.stderr.isTTY) && !process.env.CI;
}

/**
 * A progress bar on stderr (cli-progress) for `total` steps, only on a terminal and outside CI;
 * elsewhere nothing is drawn and the command's own plain lines tell what happened.
 */
export function progress(total: number, title: string): Progress {
  if (!showsProgress() || total < 2) return { tick: () => undefined, done: () => undefined };
  // cli-progress is loaded when a bar is drawn, so commands start without it.
  const cliProgress = createRequire(import.meta.url)('cli-progress') as typeof import('cli-progress');
  const bar = new cliProgress.SingleBar(
    {
      format: `${title} [{bar}] {value}/{total} {label}`,
      clearOnComplete: true,
      hideCursor: true,
      stream: process.stderr,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0, { label: '' });
  return { tick: (label = '') => bar.increment(1, { label }), done: () => bar.stop() };
}

/**
 * A progress callback `(done, total, label)` that draws a bar once it learns the total (for
 * readers that count as they go), and removes it after the last step.
 */
export function progressCallback(title: string): (done: number, total: number, label: string) => void {
  let bar: Progress | undefined;
  return (done, total, label) => {
    bar ??= progress(total, title);
    bar.tick(label);
    if (done === total) bar.done();
  };
}
