import { html, render } from 'lit-html';
import { admin, messageOf, type FuzzReport } from './api.js';
import { byId } from './dom.js';
import { count } from './format.js';
import type { DashboardState } from './state.js';

/** Draws the run: its options in the heading's summary, one row per edge class (a switch, what it draws, its answers). */
function drawFuzz(run: FuzzReport, switchClass: (name: string, on: boolean) => void): void {
  byId('fuzz-section').hidden = false;
  byId('fuzz-summary').textContent =
    `seed ${run.seed}, ${run.integers}-bit int${run.beyondObserved ? ', beyond observed' : ''}${run.perDevice ? ', per device' : ''}: ${count(run.answers, 'answer')}`;
  const row = (c: FuzzReport['classes'][number]) => {
    const unreachable = c.beyondObserved === true && !run.beyondObserved;
    return html`<tr class=${c.on ? '' : 'used-up'}>
      <td>
        <input
          type="checkbox"
          id=${`fuzz-class-${c.name}`}
          data-class=${c.name}
          .checked=${c.on}
          ?disabled=${unreachable}
          title=${unreachable ? 'Drawn only with --fuzz-beyond-observed' : c.on ? 'Switch off' : 'Switch on'}
          @change=${(event: Event) => switchClass(c.name, (event.target as HTMLInputElement).checked)}
        />
      </td>
      <td><label for=${`fuzz-class-${c.name}`}><code>${c.name}</code></label> <span class="muted">${c.describe}</span></td>
      <td class="num">${c.answers}</td>
    </tr>`;
  };
  render(run.classes.map(row), byId('fuzz-classes'));
}

/**
 * The fuzz panel under `serve --fuzz` (shown only then: `GET /health` says `fuzzing`): which edge classes are on and how many
 * answers fell in each, read again shortly after `state` changes; a switch per class turns it off
 * or on for the answers from now on.
 */
export function showFuzz(state: DashboardState): void {
  const status = byId('fuzz-status');
  let timer: ReturnType<typeof setTimeout> | undefined;
  const switchClass = (name: string, on: boolean) => {
    admin.setFuzzClass(name, on).then(
      (run) => {
        status.textContent = `${name} is ${run.classes.find((c) => c.name === name)?.on ? 'on' : 'off'} for the next answers.`;
        drawFuzz(run, switchClass);
      },
      (error: unknown) => (status.textContent = `Could not switch ${name}: ${messageOf(error)}`),
    );
  };
  const refresh = () => admin.fuzz().then((run) => drawFuzz(run, switchClass));
  refresh().then(
    () =>
      state.subscribe(() => {
        clearTimeout(timer);
        timer = setTimeout(() => void refresh().catch(() => undefined), 400);
      }),
    (error: unknown) => (status.textContent = `Could not read the fuzz run: ${messageOf(error)}`),
  );
}
