import { delay, HttpResponse } from 'msw';
import { toServiceJson } from '../contract/index.js';
import { HANG_MS, delayOf, type Fault } from '../faults/index.js';
import { JSON_CONTENT_TYPE } from '../scenarios/index.js';

/** The response header that names the fault applied to an answer. */
export const FAULT_HEADER = 'x-mockvideo-fault';

/**
 * Applies a fault to an answer. `normal` makes the answer the fault changes (for `delay`) or the
 * headers it keeps (the scenario header). A `reset` is msw's network error (`Response.error()`),
 * which the Express host turns into a destroyed socket; a `hang` answers nothing for
 * {@link HANG_MS} ms, then resets.
 *
 * @see seed "Errors": the client logs failed fetches of operations 1, 3 and 4.
 */
export async function answerWithFault(fault: Fault, normal: () => HttpResponse<string>, extraHeaders: Record<string, string> = {}): Promise<HttpResponse<string>> {
  const headers = { 'content-type': JSON_CONTENT_TYPE, [FAULT_HEADER]: fault.kind, ...extraHeaders };
  switch (fault.kind) {
    case 'delay': {
      await delay(delayOf(fault));
      const response = normal();
      response.headers.set(FAULT_HEADER, 'delay');
      return response;
    }
    case 'status':
      return new HttpResponse(fault.body ?? JSON.stringify({ error: `Injected fault: HTTP ${fault.status}` }), { status: fault.status, headers });
    case 'envelope':
      return new HttpResponse(toServiceJson({ data: {}, msg: fault.msg ?? 'Injected fault: envelope failure', result: fault.result ?? 0 }), { status: 200, headers });
    case 'malformed-json':
      return new HttpResponse('{"data":{"codec_level":"3","recommend_exit_', { status: 200, headers });
    case 'empty':
      return new HttpResponse('', { status: 200, headers });
    case 'hang':
      await delay(HANG_MS);
      return HttpResponse.error() as HttpResponse<string>;
    case 'reset':
      return HttpResponse.error() as HttpResponse<string>;
  }
}
