/**
 * Edge cases the spec does not settle (level info: observed, never counted against the
 * verdict): an empty name, a 10,000-character name, control characters, unknown extra
 * properties. Either refusing (400) or storing the value exactly (201) is fine; crashing,
 * hanging or altering the value is worth knowing.
 */
import { check } from '../src/check/define.js';
import type { SentFields } from '../src/check/expect.js';
import { storedExactlyOrRefused } from '../src/judgements/edge-cases.js';
import type { CheckContext } from '../src/check/context.js';

/** Registers the checks of this class for the target under registration (see check/run-state.ts). */
export default function register(): void {
  /** Sends `fields` and judges the answer: refused, or stored exactly (src/judgements/edge-cases.ts). */
  async function acceptedExactlyOrRefused(t: CheckContext, fields: SentFields & Record<string, unknown>, alsoAccepted: number[] = []): Promise<void> {
    storedExactlyOrRefused(await t.create({ json: fields }), fields, alsoAccepted);
  }

  check(
    { id: 'edge-empty-name', title: 'an empty name is stored exactly or refused with 400', clause: '2', level: 'info', requirements: ['O-EDGE-INPUTS'], needs: ['create'], writes: true },
    async (t) => acceptedExactlyOrRefused(t, { name: '', description: t.name() }),
  );

  check(
    // Section 8: length limits are not shown, so 413 (Content Too Large) is as acceptable as 400.
    { id: 'edge-long-name', title: 'a 10,000-character name is stored exactly or refused (400, 413)', clause: '8', level: 'info', requirements: ['O-EDGE-INPUTS'], needs: ['create'], writes: true },
    async (t) => acceptedExactlyOrRefused(t, { name: `${t.name()} ${'n'.repeat(10_000)}`.slice(0, 10_000) }, [413]),
  );

  check(
    { id: 'edge-control-characters', title: 'a name with NUL and other control characters is stored exactly or refused', clause: '2', level: 'info', requirements: ['O-EDGE-INPUTS'], needs: ['create'], writes: true },
    async (t) => acceptedExactlyOrRefused(t, { name: `${t.name()} \u0000\u0001\u0007\u001b\u007f end` }),
  );

  check(
    { id: 'edge-unknown-properties', title: 'a body with unknown extra properties is stored exactly or refused', clause: '2', level: 'info', requirements: ['O-EDGE-INPUTS'], needs: ['create'], writes: true },
    async (t) => acceptedExactlyOrRefused(t, { name: t.name(), color: 'brown', tags: ['pets'], nested: { a: 1 } }),
  );
}
