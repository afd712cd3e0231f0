import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the build scripts, without types
import { evaluate } from '../../../scripts/audit.mjs';

/** An `npm audit --json` report (version 2) with one advisory reached directly and through another package. */
const report = {
  auditReportVersion: 2,
  vulnerabilities: {
    'fast-xml-parser': {
      severity: 'high',
      via: [
        {
          source: 1,
          name: 'fast-xml-parser',
          title: 'Entity expansion',
          url: 'https://github.com/advisories/GHSA-aaaa-bbbb-cccc',
          severity: 'high',
          range: '<5.0.0',
        },
        {
          source: 2,
          name: 'fast-xml-parser',
          title: 'Slow regex',
          url: 'https://github.com/advisories/GHSA-mmmm-mmmm-mmmm',
          severity: 'moderate',
          range: '<5.1.0',
        },
      ],
    },
    'some-wrapper': { severity: 'high', via: ['fast-xml-parser'] },
  },
};

describe('the audit gate', () => {
  it('fails a high advisory that is not allowed, and ignores moderate ones', () => {
    const { problems } = evaluate(report, [], '2026-01-01');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^high GHSA-aaaa-bbbb-cccc in fast-xml-parser/);
  });

  it('lets an allowed advisory pass until its entry expires, then fails it again', () => {
    const allow = [{ id: 'GHSA-aaaa-bbbb-cccc', reason: 'we never parse entities', expires: '2026-03-31' }];
    expect(evaluate(report, allow, '2026-03-31').problems).toEqual([]);
    expect(evaluate(report, allow, '2026-04-01').problems[0]).toMatch(/expired on 2026-03-31/);
  });

  it('says when an entry matches nothing any more', () => {
    const allow = [{ id: 'GHSA-zzzz-zzzz-zzzz', reason: 'old', expires: '2099-01-01' }];
    expect(evaluate(report, allow, '2026-01-01').notes).toContain(
      'allow-list entry GHSA-zzzz-zzzz-zzzz matches nothing any more: remove it',
    );
  });
});
