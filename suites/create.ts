/**
 * Conformance class createCategory (spec 4.2/R1 and section 2): valid bodies are created,
 * returned exactly, given fresh int64 ids by the service, and then listed (4.1/R1).
 * Judgements: src/judgements/create.ts.
 */
import fc from 'fast-check';
import { clientForm } from '../src/arbitraries/client-form.js';
import { coverageLabels } from '../src/arbitraries/coverage.js';
import { newCategory, newCategoryCoverage } from '../src/arbitraries/new-category.js';
import { BASELINE_FORM } from '../src/http/client-form.js';
import { check } from '../src/check/define.js';
import { ListedItems, expectCreated, expectEachCase, type SentFields } from '../src/check/expect.js';
import { idSpaceOf, idsForRepeat, MIN_IDS, powerOfTwo, REPEAT_CONFIDENCE_WORDS, repeatProbability } from '../src/check/id-space.js';
import { deepBodiesBeyondLimits, deepBodiesWithinLimits } from '../src/arbitraries/deep-bodies.js';
import { PARSER_DEPTH_FLOOR, PARSER_WIDTH_FLOOR } from '../src/http/request-variations.js';
import { withBodyCapped, type Exchange } from '../src/core/exchange.js';
import { assertProperty, PROPERTY_TIME_LIMIT_MS } from '../src/check/property.js';
import { CheckError } from '../src/core/errors.js';
import { testDataName, type CheckContext } from '../src/check/context.js';
import { runState } from '../src/check/run-state.js';
import { isRefusal, judgeRefusals, mayBeRefused, type RefusalObservation } from '../src/check/refusal.js';
import { settleAll } from '../src/check/settle.js';
import {
  allListed,
  clientIdNotAdopted,
  concurrentCreatesDistinct,
  createdExactly,
  createdListed,
  deepBodyAnswered,
  PARSER_LIMITS_WORDS,
  idsFresh,
  idsNeverRepeated,
  sameNameTwice,
  type SentCategory,
} from '../src/judgements/create.js';

/** Registers the checks of this class for the target under registration (see check/run-state.ts). */
export default function register(): void {
  /** Categories created by this file's example checks, with the fields that were sent. */
  const sent: SentCategory[] = [];

  /** Creates `fields`, judges the answer (4.2/R1), and remembers the result. */
  async function createExactly(t: CheckContext, fields: SentFields): Promise<void> {
    sent.push({ checkId: t.checkId, fields, created: createdExactly(await t.create({ json: fields }), fields) });
  }

  check(
    { id: 'create-name-only', title: 'a body with only name answers 201 with the Category', clause: '4.2/R1', level: 'must', requirements: ['R-4.2-R1', 'R-2-CATEGORY'], needs: ['create'], writes: true },
    async (t) => createExactly(t, { name: t.name() }),
  );

  check(
    { id: 'create-with-description', title: 'a body with name and description answers 201 with both returned', clause: '4.2/R1', level: 'must', requirements: ['R-4.2-R1', 'R-2-CATEGORY'], needs: ['create'], writes: true },
    async (t) => createExactly(t, { name: t.name(), description: 'Domesticated felines, short and long hair.' }),
  );

  check(
    { id: 'create-unicode', title: 'non-ASCII and emoji text is stored and returned exactly', clause: '4.2/R1', level: 'must', requirements: ['R-4.2-R1', 'R-2-CATEGORY'], needs: ['create'], writes: true },
    async (t) =>
      createExactly(t, {
        // Latin-1 range, CJK, right-to-left, a combining mark, astral plane and a ZWJ sequence.
        name: `${t.name()} Café 中文 שלום e\u0301 𝄞 🐈‍⬛`,
        description: 'Ünïcödé — 日本語 العربية 👩‍👩‍👧',
      }),
  );

  check(
    { id: 'create-ids-unique', title: 'each create is given an id no other category of the run has', clause: '2', level: 'must', requirements: ['R-2-ID-UNIQUE'], needs: ['create'], writes: true },
    async (t) => {
      const mine: Array<{ id: bigint; exchange: Exchange }> = [];
      for (const label of ['a', 'b', 'c']) {
        const exchange = await t.create({ json: { name: t.name(label) } });
        mine.push({ id: expectCreated(exchange).id, exchange: withBodyCapped(exchange) });
      }
      idsFresh(mine, t.run.created);
    },
    { serialRequests: 3 },
  );

  check(
    { id: 'create-ignores-client-id', title: 'an id supplied by the client is not adopted', clause: '2', level: 'must', requirements: ['R-2-ID-ASSIGNED'], needs: ['create'], writes: true },
    async (t) => {
      // "assigned by the service on creation. The client never supplies it": rejecting the
      // body (400) or ignoring the field are both conformant; adopting it is not.
      const supplied = 7_000_000_000_000 + (t.derived('id') % 1_000_000);
      clientIdNotAdopted(await t.create({ json: { id: supplied, name: t.name() } }), BigInt(supplied));
    },
  );

  check(
    { id: 'create-listed', title: 'created categories appear in the list with the same fields', clause: '4.1/R1', level: 'must', requirements: ['R-4.1-R1'], needs: ['create', 'list'], writes: true },
    async (t) => {
      if (sent.length === 0) throw new CheckError('no create of the example checks answered 201 with its Category, so there is nothing to look for in the list');
      createdListed(await t.list(), sent);
    },
    { sequential: true },
  );

  /** The coverage phase of create-valid-bodies: every trigger, written as the suite writes (the fuzzing phase draws the form). */
  const validCoverage = newCategoryCoverage((what) => testDataName(runState().settings.runId, 'create-valid-bodies', what)).map(({ label, value }) => ({ label, value: [value, BASELINE_FORM] as const }));

  check(
    {
      id: 'create-valid-bodies',
      title: 'every generated valid NewCategory, written as any client writes it, answers 201 with its exact fields and a fresh int64 id, and stays listed',
      clause: '4.2/R1',
      level: 'must', requirements: ['R-4.2-R1', 'R-2-NEWCATEGORY', 'R-2-CATEGORY', 'R-2-ID-UNIQUE', 'R-4.1-R1'], needs: ['create', 'list'],
      writes: true,
      coverage: coverageLabels(validCoverage),
    },
    async (t) => {
      // Every create, accepted or refused: refusals are judged together once every input has run (policies, limits).
      const seen: RefusalObservation[] = [];
      const accepted: SentCategory[] = [];
      await assertProperty(
        t,
        fc.tuple(newCategory(), clientForm()),
        async ([fields, form]) => {
          const exchange = await t.create({ json: fields }, t.run.valid, form);
          // Kept to the end of the check: capped, as 30 refusals of 16 MiB would be 480 MB.
          if (isRefusal(exchange) && mayBeRefused(fields)) return void seen.push({ fields, accepted: false, exchange: withBodyCapped(exchange) });
          const created = createdExactly(exchange, fields);
          seen.push({ fields, accepted: true, exchange: withBodyCapped(exchange) });
          accepted.push({ checkId: t.checkId, fields, created });
          idsFresh([{ exchange, id: created.id }], t.run.created);
        },
        { numRuns: 30, coverage: validCoverage },
      );
      await judgeRefusals(t, seen);
      // A value may be refused; once accepted, it is listed as sent, never altered or dropped (4.1/R1).
      createdListed(await t.list(), accepted);
    },
    { timeLimitMs: PROPERTY_TIME_LIMIT_MS },
  );

  check(
    {
      id: 'create-same-name-twice',
      title: 'the same name created twice with different descriptions gives two categories, each as sent',
      clause: '4.2/R1',
      level: 'must', requirements: ['R-4.2-R1', 'R-2-ID-UNIQUE'], needs: ['create', 'list'],
      writes: true,
    },
    async (t) => {
      // Names are not unique in section 2: an upsert on name, or a unique index answering 400 or 409, breaks 4.2/R1.
      const name = t.name();
      const bodies = [{ name, description: 'first of two with this name' }, { name, description: 'second of two with this name' }] as const;
      // One after the other: the second meets whatever the first left (an upsert, a unique index).
      const first = await t.create({ json: bodies[0] });
      const second = await t.create({ json: bodies[1] });
      sameNameTwice([first, second], bodies, await t.list());
    },
    { serialRequests: 3 },
  );

  check(
    { id: 'create-concurrent-ids-unique', title: 'parallel creates all answer 201 with distinct ids, then all are listed', clause: '2', level: 'must', requirements: ['R-2-ID-UNIQUE', 'R-4.1-R1'], needs: ['create', 'list'], writes: true },
    async (t) => {
      const count = t.run.settings.parallelCreates;
      const bodies = Array.from({ length: count }, (_, i) => ({ name: t.name(`${i + 1} of ${count}`) }));
      const creates = await settleAll(bodies.map((body) => t.create({ json: body })));
      concurrentCreatesDistinct(creates, bodies, await t.list());
    },
  );

  /** Bodies deeper and wider than a client sends by accident, each sent in every run: within every parser's default limits, and past them. */
  const withinLimits = deepBodiesWithinLimits((label) => testDataName(runState().settings.runId, 'create-deep-bodies', label));
  const beyondLimits = deepBodiesBeyondLimits((label) => testDataName(runState().settings.runId, 'create-bodies-beyond-parser-limits', label));

  check(
    {
      id: 'create-deep-bodies',
      title: `valid bodies nested ${PARSER_DEPTH_FLOOR} levels deep or with an extra member of ${PARSER_WIDTH_FLOOR.toLocaleString('en-US')} members (within every mainstream parser’s default limits) are created exactly, or refused with 400 or 413 and an Error body; never a 5xx or no answer`,
      clause: '4.2',
      level: 'must',
      requirements: ['R-4.2-R1', 'R-4-ANSWERS', 'R-7-SHAPE'],
      needs: ['create'],
      writes: true,
    },
    async (t) => {
      await expectEachCase(withinLimits, ({ label }) => label, async ({ label, value }) => {
        deepBodyAnswered(await t.send('POST', '/categories', t.run.valid, { text: value.text }, { label }), value.fields, label);
      });
    },
  );

  check(
    {
      id: 'create-bodies-beyond-parser-limits',
      title: 'valid bodies past the limits RFC 8259 §9 lets a parser set (an extra member nested 1,000 and 100,000 levels deep, 10,000 members wide, a string filling 1 MiB) are created exactly, or refused with 400 or 413 and an Error body; a 5xx or no answer is a robustness finding',
      clause: '4.2',
      level: 'should',
      requirements: ['H-JSON-PARSER-LIMITS'],
      reference: 'RFC 8259 §9',
      needs: ['create'],
      writes: true,
    },
    async (t) => {
      await expectEachCase(beyondLimits, ({ label }) => label, async ({ label, value }) => {
        deepBodyAnswered(await t.send('POST', '/categories', t.run.valid, { text: value.text }, { label }), value.fields, label, PARSER_LIMITS_WORDS);
      });
    },
  );

  /** More categories than a typical first page, so a paginated list cannot hold them all. */
  const PAGINATION_PROBE = 26;

  check(
    {
      id: 'list-not-paginated',
      title: `one list holds every category the run created, once it created over ${PAGINATION_PROBE - 1}`,
      clause: '4.1/R2',
      level: 'must', requirements: ['R-4.1-R2'], needs: ['list'],
      writes: true,
    },
    async (t) => {
      const integerId = /^-?\d+$/;
      // The creates are independent: sent at once, they cost one round trip, not 26.
      const have = t.run.created.filter((c) => integerId.test(c.id)).length;
      const labels = Array.from({ length: Math.max(0, PAGINATION_PROBE - have) }, (_, i) => `${have + i + 1}`);
      (await settleAll(labels.map((label) => t.create({ json: { name: t.name(label) } })))).forEach(expectCreated);
      // What the run created before the list was asked for: other checks go on creating meanwhile.
      const created = [...t.run.created];
      allListed(await t.list(), created);
    },
    // Last of its class: what every other create of the class left is in the run's count.
    // Creates wait for connections: two rounds of them at most, then the list.
    { sequential: true, serialRequests: 3 },
  );

  check(
    {
      id: 'create-ids-unique-at-scale',
      title: 'ids drawn at random do not repeat: when the run’s ids do not follow creation, creates go on until a repeat shows or a space of the estimated size would have shown one with 99.99 % probability',
      clause: '2',
      level: 'must',
      requirements: ['R-2-ID-UNIQUE'],
      writes: true,
    },
    async (t) => {
      const cap = t.run.settings.maxIdCreates;
      const batch = t.run.settings.connections;
      const ids = () => t.run.created.flatMap((category) => (/^-?\d+$/.test(category.id) ? [BigInt(category.id)] : []));
      const name = (n: number) => t.name(`${n}`);
      let added = 0;
      /** Ids the target held before, that the run did not create: a new id may repeat one of them. */
      let listed = new Set<string>();
      /** Creates `count` more at once, or fails on the first id given before (the run's own, or a listed one). */
      const createMore = async (count: number) => {
        const creates = await settleAll(Array.from({ length: count }, (_, i) => t.create({ json: { name: name(added + i + 1) } })));
        added += count;
        for (const exchange of creates) {
          const { id } = expectCreated(exchange);
          if (listed.has(id.toString())) idsFresh([{ exchange, id }], [...t.run.created, { id: id.toString(), name: '', checkId: 'the list before these creates' }]);
        }
        idsNeverRepeated(t.run.repeats, t.run.created);
      };
      // Too few ids to tell their order (a run of a few checks): one round of creates first.
      if (ids().length < MIN_IDS && cap > 0) await createMore(Math.min(cap, MIN_IDS));
      idsNeverRepeated(t.run.repeats, t.run.created);
      let space = idSpaceOf(ids());
      const ordered = `${Math.round(space.orderedShare * 100)} % of ${space.count} ids rise in the order of their creates`;
      if (!space.random) return void t.observe(`ids follow the order of creation (${ordered}): no random draw to repeat, no creates added`);
      const seen = space.count;
      if (idsForRepeat(space.size) - space.count > cap - added) {
        const probability = repeatProbability(space.count, space.size);
        const chance = probability < 0.001 ? 'under 0.1' : `${Math.round(probability * 1000) / 10}`;
        return void t.observe(
          `ids looked random in about ${powerOfTwo(space.size)} (${ordered}); a space that size repeats with ${REPEAT_CONFIDENCE_WORDS} probability only by ${idsForRepeat(space.size).toLocaleString('en-US')} ids, past the ${cap.toLocaleString('en-US')} more creates --max-id-creates allows: not pursued (with ${space.count} ids, a repeat was ${chance} % likely)`,
        );
      }
      const created = new Set(t.run.created.map((category) => category.id));
      listed = new Set([...new ListedItems(await t.list()).items()].flatMap(({ id }) => (id === undefined || created.has(id.toString()) ? [] : [id.toString()])));
      while (space.count + listed.size < idsForRepeat(space.size) && added < cap) {
        await createMore(Math.min(batch, cap - added, idsForRepeat(space.size) - space.count - listed.size));
        space = idSpaceOf(ids());
      }
      t.observe(
        `ids looked random in about ${powerOfTwo(space.size)} (${Math.round(space.size).toLocaleString('en-US')} estimated from ${seen} ids; ${ordered}); ${added.toLocaleString('en-US')} more creates, no repeat: a space that size repeats with ${REPEAT_CONFIDENCE_WORDS} probability by ${idsForRepeat(space.size).toLocaleString('en-US')} ids`,
      );
    },
    // Last of its class: every other create of the class counts. Rounds of creates, each waiting for connections.
    { sequential: true, serialRequests: Math.ceil(runState().settings.maxIdCreates / runState().settings.connections) + 3 },
  );
}
