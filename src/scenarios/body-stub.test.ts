import { describe, expect, it } from 'vitest';
import { compileStub } from './compile.js';
import { parseScenario } from './parse.js';

const parse = (stub: object) =>
  parseScenario('raw', { extends: 'default', operations: { ad_config: stub } }, 'raw.json');

describe('a stub with the exact body text', () => {
  it('is served as written, Go-style escapes and key order kept', () => {
    const body = '{"result":1,"msg":"OK","data":{"html":"\\u003cb\\u003e"}}';
    const parsed = parse({ body });
    expect(parsed.ok).toBe(true);
    expect(compileStub({ body }).responses[0]!.body).toBe(body);
  });

  it('is checked against the contract when it is a 2xx answer, and not mixed with data, msg or result', () => {
    const problems = (stub: object) => (parse(stub) as { problems: Array<{ path: string; message: string }> }).problems;
    expect(problems({ body: '{"data":[],"msg":"OK","result":1}' })[0]!.path).toBe('operations.ad_config.body.data');
    expect(problems({ body: 'not json' })[0]!.message).toMatch(/a 2xx body must be JSON/);
    expect(problems({ body: '{"data":{},"msg":"OK","result":1}', msg: 'OK' })[0]!.message).toMatch(
      /either "body".*or "msg"/,
    );
    expect(parse({ body: '<html>busy</html>', status: 503 }).ok).toBe(true);
  });
});
